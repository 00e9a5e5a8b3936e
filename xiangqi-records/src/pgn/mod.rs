//! PGN for xiangqi, as the xqbase specification (黄晨, 中国象棋电脑应用规范(三) PGN文件格式)
//! defines it: `[Game "Chinese Chess"]` first, `Red`/`Black` players, `Result`
//! `1-0`/`0-1`/`1/2-1/2`/`*`, `[FEN "..."]` for a non-initial position and
//! `[Format "ICCS"|"WXF"|"Chinese"]` for the move text (Chinese by default).
//!
//! Reading is lenient about what real files contain: UTF-8, GB18030/GBK and Big5 text;
//! moves in ICCS (`h2e2`, `H2-E2`), WXF (`C2.5`, `C2=5`, full-width `Ｃ２＝５`, `+P+1`) or
//! Chinese (simplified or traditional), whatever the `Format` tag says; move numbers in any
//! form (`1.`, `1...`, none); `{comments}` and `;` comments (kept), `(variations)` and `$n`
//! NAGs (skipped; the main line is kept); several games per file, with or without results.
//!
//! ```
//! use xiangqi_records::pgn;
//! let text = "[Game \"Chinese Chess\"]\n[Red \"许银川\"]\n[Black \"吕钦\"]\n[Result \"1/2-1/2\"]\n\
//!             1. 炮二平五 {中炮} 马８进７ 2. 马二进三 (2. 兵七进一) 车９平８ 1/2-1/2\n";
//! let games = pgn::read(text.as_bytes())?;
//! let g = &games[0];
//! assert_eq!(g.tag("Red"), Some("许银川"));
//! assert_eq!(g.game.moves().len(), 4);
//! assert_eq!(g.result, pgn::PgnResult::Draw);
//! assert_eq!(g.comments[0].text, "中炮");
//! let again = pgn::read(pgn::write(g).as_bytes())?;
//! assert_eq!(again[0].game.moves(), g.game.moves());
//! # Ok::<_, pgn::PgnError>(())
//! ```

use crate::record::{find_tag, put_tag, Format, Loaded, ReadError, Record};
use crate::text;
use crate::tree::GameTree;
use crate::warning::{Place, Warning, WarningKind};

mod build;
mod lex;
mod parse;
mod result;
mod write;
pub(crate) use build::append_comment;
pub use build::{MainLine, MainLines, TreeBuilder};

use core::fmt;
pub(crate) use parse::start_from_fen;
pub use parse::{visit, Visitor};
pub use result::PgnResult;
pub use write::{to_gb18030, write, write_record, write_records, WriteOptions};
use xiangqi_core::{FenError, Game, NotationError};

/// The move notation of a PGN file's move text (`[Format "..."]`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum MoveFormat {
    /// ICCS coordinates: `h2e2` (written `H2-E2`).
    Iccs,
    /// WXF: `C2.5`.
    Wxf,
    /// Chinese: `炮二平五` (the default of the specification).
    #[default]
    Chinese,
}

/// A comment in the move text: `ply` moves into the game (0 = before the first move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnComment {
    /// The number of moves played before the comment.
    pub ply: usize,
    /// The text, without the braces.
    pub text: String,
}

/// One game of a PGN file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// The tags in file order, `Game` and `Result` included.
    pub tags: Vec<(String, String)>,
    /// The start position and the main line.
    pub game: Game,
    /// The result (from the result token of the move text, else the `Result` tag).
    pub result: PgnResult,
    /// The comments, in order.
    pub comments: Vec<PgnComment>,
}

impl PgnGame {
    /// A record of `game` with no tags, comments or result yet.
    pub fn new(game: Game) -> PgnGame {
        PgnGame {
            tags: Vec::new(),
            game,
            result: PgnResult::Unknown,
            comments: Vec::new(),
        }
    }

    /// The value of tag `name` (case-insensitive), if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        find_tag(&self.tags, name)
    }

    /// Sets tag `name` to `value`, replacing an existing one.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        put_tag(&mut self.tags, name, value);
    }

    /// The move format named by the `Format` tag (Chinese when absent or unknown).
    pub fn format(&self) -> MoveFormat {
        MoveFormat::of_tags(&self.tags)
    }

    /// The main line of a record, with the comments on it (side lines are dropped).
    pub fn from_record(record: &Record) -> PgnGame {
        let tree = &record.tree;
        let mut comments = Vec::new();
        let root = tree.node(tree.root());
        if !root.comment.is_empty() {
            comments.push(PgnComment {
                ply: 0,
                text: root.comment.clone(),
            });
        }
        for (i, n) in tree.main_line().into_iter().enumerate() {
            let node = tree.node(n);
            // A comment before move i + 1 is at ply i, one after it at ply i + 1.
            for (ply, text) in [(i, &node.starting_comment), (i + 1, &node.comment)] {
                if !text.is_empty() {
                    comments.push(PgnComment {
                        ply,
                        text: text.clone(),
                    });
                }
            }
        }
        PgnGame {
            tags: record.tags.clone(),
            game: tree.main_game(),
            result: record.result,
            comments,
        }
    }

    /// The game as a record (its moves as the main line, comments on their moves).
    pub fn to_record(&self) -> Record {
        let mut tree = GameTree::from_game(&self.game);
        let line = tree.main_line();
        for c in &self.comments {
            let node = match c.ply {
                0 => tree.root(),
                p => line[(p - 1).min(line.len().saturating_sub(1))],
            };
            let node = if line.is_empty() { tree.root() } else { node };
            build::append_comment(&mut tree.node_mut(node).comment, &c.text);
        }
        Record {
            tags: self.tags.clone(),
            tree,
            result: self.result,
        }
    }
}

impl MoveFormat {
    /// The format named by a `Format` tag in `tags` (Chinese when absent or unknown).
    pub fn of_tags(tags: &[(String, String)]) -> MoveFormat {
        match find_tag(tags, "Format")
            .map(str::to_ascii_uppercase)
            .as_deref()
        {
            Some("ICCS") => MoveFormat::Iccs,
            Some("WXF") => MoveFormat::Wxf,
            _ => MoveFormat::Chinese,
        }
    }

    /// The `Format` tag value.
    pub fn tag_value(self) -> &'static str {
        match self {
            MoveFormat::Iccs => "ICCS",
            MoveFormat::Wxf => "WXF",
            MoveFormat::Chinese => "Chinese",
        }
    }
}

/// What is wrong in a PGN file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// A tag pair that is not `[Name "value"]`.
    BadTag(String),
    /// A `{` comment, `(` variation or `"` string not closed before the end of the file.
    Unterminated(char),
    /// A `)` with no `(`.
    UnbalancedParenthesis,
    /// The `FEN` tag does not hold a legal position.
    BadFen(FenError),
    /// A move that cannot be read, or is not legal, in the position it is played in.
    BadMove {
        /// The move text.
        text: String,
        /// Why.
        error: NotationError,
    },
}

/// An error reading PGN, at a line and column (1-based, in characters of the decoded text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The line.
    pub line: usize,
    /// The column.
    pub column: usize,
    /// Which game of the file (0-based).
    pub game: usize,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "PGN line {}, column {} (game {}): ",
            self.line,
            self.column,
            self.game + 1
        )?;
        match &self.kind {
            PgnErrorKind::BadTag(t) => write!(f, "bad tag pair {t:?}"),
            PgnErrorKind::Unterminated(c) => write!(f, "'{c}' is never closed"),
            PgnErrorKind::UnbalancedParenthesis => f.write_str("')' without '('"),
            PgnErrorKind::BadFen(e) => write!(f, "bad FEN tag: {e}"),
            PgnErrorKind::BadMove { text, error } => write!(f, "move {text:?}: {error}"),
        }
    }
}

impl std::error::Error for PgnError {}

/// Reads every game of a PGN file (UTF-8, GB18030/GBK or Big5; detected).
///
/// # Errors
/// The first [`PgnError`]: a malformed tag, an unclosed comment or variation, a bad FEN, a
/// move that cannot be read or played. [`read_lenient`] keeps going instead; [`load`]
/// reads variations too and reports every kind of warning.
pub fn read(bytes: &[u8]) -> Result<Vec<PgnGame>, PgnError> {
    let (text, _) = text::decode(bytes);
    read_str(&text)
}

/// Reads every game of PGN text.
///
/// # Errors
/// As [`read`].
pub fn read_str(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let (games, mut errors) = parse_main_lines(text);
    if errors.is_empty() {
        Ok(games)
    } else {
        Err(errors.swap_remove(0))
    }
}

/// Reads what can be read: a game whose move text goes wrong keeps the moves before the
/// error; a game whose FEN is bad is skipped. Returns the games and every error.
pub fn read_lenient(bytes: &[u8]) -> (Vec<PgnGame>, Vec<PgnError>) {
    let (text, _) = text::decode(bytes);
    parse_main_lines(&text)
}

/// The old interface: main lines with their comments, and the warnings that were errors
/// there.
fn parse_main_lines(text: &str) -> (Vec<PgnGame>, Vec<PgnError>) {
    let mut b = TreeBuilder::default();
    let warnings = visit(text, &mut b);
    let games = b.records.iter().map(PgnGame::from_record).collect();
    let errors = warnings
        .into_iter()
        .filter_map(PgnError::from_warning)
        .collect();
    (games, errors)
}

impl PgnError {
    /// The error of the old interface a warning stands for, if it was one there.
    fn from_warning(w: Warning) -> Option<PgnError> {
        let kind = match w.kind {
            WarningKind::BadTag(t) => PgnErrorKind::BadTag(t),
            WarningKind::Unterminated(c) => PgnErrorKind::Unterminated(c),
            WarningKind::UnbalancedParenthesis => PgnErrorKind::UnbalancedParenthesis,
            WarningKind::BadFen(e) => PgnErrorKind::BadFen(e),
            WarningKind::BadMove { text, error } => PgnErrorKind::BadMove { text, error },
            _ => return None,
        };
        Some(PgnError {
            line: w.place.line.unwrap_or(0),
            column: w.place.column.unwrap_or(0),
            game: w.place.game,
            kind,
        })
    }
}

/// Reads every game of a PGN file with its variations, comments and NAGs, leniently:
/// what cannot be read is skipped and reported in [`Loaded::warnings`].
///
/// # Errors
/// A [`ReadError`] only when the file holds no game at all.
pub fn load(bytes: &[u8]) -> Result<Loaded, ReadError> {
    load_as(bytes, Format::Pgn)
}

/// [`load`], naming the result `format` (PGN, or plain text for a bare move list).
pub(crate) fn load_as(bytes: &[u8], format: Format) -> Result<Loaded, ReadError> {
    let (text, encoding, bad) = text::decode_checked(bytes);
    let mut loaded = load_str(&text, format)?;
    loaded.encoding = encoding.name();
    if bad {
        loaded.warnings.insert(
            0,
            Warning {
                place: Place::default(),
                kind: WarningKind::BadEncoding,
            },
        );
    }
    Ok(loaded)
}

/// A plain move list may start with a FEN line (`FEN` alone, or `FEN, moves, result` on one
/// line): written as a `FEN` tag on the same line, so places stay where they are.
fn plain_text_fen(text: &str) -> Option<String> {
    let first = text.trim_start_matches('\u{feff}').lines().next()?;
    let (fen, rest) = match first.split_once(',') {
        Some((f, r)) => (f.trim(), r.replace(',', " ")),
        None => (first.trim(), String::new()),
    };
    if !fen.contains('/') || start_from_fen(fen).is_err() {
        return None;
    }
    let tail = &text[text.find(first)? + first.len()..];
    Some(format!("[FEN \"{fen}\"] {rest}{tail}"))
}

/// [`load`] for text already decoded.
///
/// # Errors
/// As [`load`].
pub fn load_str(text: &str, format: Format) -> Result<Loaded, ReadError> {
    let mut b = TreeBuilder::default();
    let with_fen = (format == Format::Text)
        .then(|| plain_text_fen(text))
        .flatten();
    let warnings = visit(with_fen.as_deref().unwrap_or(text), &mut b);
    if b.records.is_empty() {
        let warning = warnings.into_iter().next().unwrap_or(Warning {
            place: Place::default(),
            kind: WarningKind::NoGame,
        });
        return Err(ReadError { format, warning });
    }
    Ok(Loaded {
        format,
        encoding: "UTF-8",
        records: b.records,
        games: b.games,
        warnings,
    })
}
