//! What a lenient reader skipped or repaired, and where: [`Warning`]s. In strict mode
//! ([`crate::Options::strict`]) the first warning is returned as the error instead.

use core::fmt;
use xiangqi_core::{FenError, NotationError};

/// Where in a file something was found. Text formats give a line and column (1-based, in
/// characters of the decoded text); binary formats a byte offset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// Which game of the file (0-based).
    pub game: usize,
    /// The line (text formats).
    pub line: Option<usize>,
    /// The column (text formats).
    pub column: Option<usize>,
    /// The byte offset (binary formats).
    pub offset: Option<usize>,
    /// The ply the problem concerns (1 = the first move), where there is one.
    pub ply: Option<usize>,
}

impl Place {
    /// A place in text.
    pub fn text(game: usize, line: usize, column: usize) -> Place {
        Place {
            game,
            line: Some(line),
            column: Some(column),
            ..Place::default()
        }
    }

    /// A place in binary data.
    pub fn offset(game: usize, offset: usize) -> Place {
        Place {
            game,
            offset: Some(offset),
            ..Place::default()
        }
    }

    /// The same place, for ply `ply`.
    pub fn at_ply(self, ply: usize) -> Place {
        Place {
            ply: Some(ply),
            ..self
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.game + 1)?;
        if let (Some(l), Some(c)) = (self.line, self.column) {
            write!(f, ", line {l}, column {c}")?;
        }
        if let Some(o) = self.offset {
            write!(f, ", offset {o:#x}")?;
        }
        if let Some(p) = self.ply {
            // Move numbers as players count them: ply 1 and 2 are move 1.
            let side = if p % 2 == 1 { "" } else { "..." };
            write!(f, ", move {}{side}", p.div_ceil(2))?;
        }
        Ok(())
    }
}

/// What was skipped, repaired or is missing.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WarningKind {
    /// Text that is neither a game nor part of one (after the last game, between games,
    /// before the first), skipped.
    TextOutsideGame(String),
    /// A separator line (`=====`, `-----`) between games, skipped.
    SeparatorLine(String),
    /// A tag that is not `[Name "value"]`, skipped.
    BadTag(String),
    /// A tag name the format does not define; kept.
    UnknownTag(String),
    /// The FEN's side-to-move or counters are malformed; the board was kept and the rest
    /// read as written here.
    FenRepaired {
        /// The FEN as written.
        found: String,
        /// The FEN as read.
        used: String,
    },
    /// The FEN holds no legal position: the game is skipped.
    BadFen(FenError),
    /// A move that cannot be read or is not legal: this line stops here (the rest of the
    /// file still loads).
    BadMove {
        /// The move as written.
        text: String,
        /// Why.
        error: NotationError,
    },
    /// A `{` comment, `(` variation or `"` string not closed before the end of the file.
    Unterminated(char),
    /// A `)` with no `(`, skipped.
    UnbalancedParenthesis,
    /// A variation where no move has been played to branch from, skipped.
    VariationWithoutMove,
    /// The game has no result token and no `Result` tag.
    MissingResult,
    /// The result token after the moves and the `Result` tag disagree (the token is kept).
    ResultMismatch {
        /// The tag.
        tag: String,
        /// The token.
        token: String,
    },
    /// A binary record or field runs past the end of the data, or is cut short: what came
    /// before it is kept.
    Truncated(&'static str),
    /// A binary move names a point off the board or an empty point: this line stops here.
    BadSquare(u8),
    /// A field the reader does not know, or one whose value it cannot use; skipped.
    BadField(String),
    /// A field closed by another field's closing tag (`[DhtmlXQ_a]...[/DhtmlXQ_b]`); its
    /// value is kept.
    MismatchedClose(String),
    /// Bytes that are not valid in the text encoding found, replaced by U+FFFD.
    BadEncoding,
    /// The data is not in the format (no signature, no structure): nothing loads.
    NotThisFormat(&'static str),
    /// The file holds no game.
    NoGame,
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WarningKind::TextOutsideGame(t) => write!(f, "text outside any game skipped: {t:?}"),
            WarningKind::SeparatorLine(t) => write!(f, "separator line skipped: {t:?}"),
            WarningKind::BadTag(t) => write!(f, "bad tag pair skipped: {t:?}"),
            WarningKind::UnknownTag(t) => write!(f, "unknown tag {t:?} (kept)"),
            WarningKind::FenRepaired { found, used } => {
                write!(f, "malformed FEN {found:?} read as {used:?}")
            }
            WarningKind::BadFen(e) => write!(f, "bad FEN, game skipped: {e}"),
            WarningKind::BadMove { text, error } => {
                write!(f, "move {text:?}: {error}; the line stops here")
            }
            WarningKind::Unterminated(c) => write!(f, "'{c}' is never closed"),
            WarningKind::UnbalancedParenthesis => f.write_str("')' without '(' skipped"),
            WarningKind::VariationWithoutMove => {
                f.write_str("variation with no move to branch from, skipped")
            }
            WarningKind::MissingResult => f.write_str("no result (read as '*')"),
            WarningKind::ResultMismatch { tag, token } => {
                write!(
                    f,
                    "Result tag {tag:?} differs from the result {token:?} after the moves"
                )
            }
            WarningKind::Truncated(what) => write!(f, "{what} cut short; the rest is lost"),
            WarningKind::BadSquare(b) => {
                write!(f, "move names no usable point ({b}); the line stops here")
            }
            WarningKind::BadField(t) => write!(f, "field skipped: {t}"),
            WarningKind::MismatchedClose(t) => write!(f, "{t} (value kept)"),
            WarningKind::BadEncoding => f.write_str("bytes invalid in the text encoding replaced"),
            WarningKind::NotThisFormat(why) => write!(f, "not this format: {why}"),
            WarningKind::NoGame => f.write_str("no game found"),
        }
    }
}

/// A problem a lenient reader got past, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// Where.
    pub place: Place,
    /// What.
    pub kind: WarningKind,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.kind)
    }
}

impl std::error::Error for Warning {}
