//! The PGN reader: a streaming parser that reports a game as events to a [`Visitor`]
//! (after shakmaty's pgn-reader), and the warnings of what it skipped.

use super::lex::{Cursor, LexError, Located, Token};
use super::result::PgnResult;
use crate::warning::{Place, Warning, WarningKind};
use xiangqi_core::{FenError, Move, Position, Problems, Role};

/// Receives a PGN file as events. Every method has a default that does nothing, so a
/// visitor implements only what it needs; one that returns `false` from
/// [`Visitor::begin_variation`] has side lines skipped unread (the fast path for main
/// lines).
pub trait Visitor {
    /// Game `index` of the file (0-based, games that cannot be read counted) begins: its
    /// tags follow, then [`Visitor::start`].
    fn begin_game(&mut self, _index: usize) {}
    /// A tag pair, in file order.
    fn tag(&mut self, _name: &str, _value: &str) {}
    /// The start position (from the `FEN` tag, else the initial position); moves follow.
    fn start(&mut self, _start: &Position) {}
    /// A move `m`, legal in `before`, in the current line.
    fn play(&mut self, _before: &Position, _m: Move) {}
    /// A comment at the current point of the current line (before its first move, or
    /// after the last one).
    fn comment(&mut self, _text: &str) {}
    /// A NAG (`$n`, or `!`/`?` marks) on the last move.
    fn nag(&mut self, _nag: u8) {}
    /// A side line to the last move begins; `false` skips it.
    fn begin_variation(&mut self) -> bool {
        true
    }
    /// The side line ends: the current line is the one it branched from again.
    fn end_variation(&mut self) {}
    /// The game ends with `result`.
    fn end_game(&mut self, _result: PgnResult) {}
}

/// Tags the xqbase specification and common writers use; others draw a warning.
const KNOWN_TAGS: &[&str] = &[
    "Game",
    "Event",
    "Site",
    "Date",
    "Round",
    "Red",
    "Black",
    "Result",
    "FEN",
    "Format",
    "RedTeam",
    "BlackTeam",
    "RedElo",
    "BlackElo",
    "RedTime",
    "BlackTime",
    "RedRating",
    "BlackRating",
    "ECCO",
    "Opening",
    "Variation",
    "Annotator",
    "Creator",
    "Title",
    "Time",
    "TimeControl",
    "Termination",
    "PlyCount",
    "Remark",
    "Author",
    "Place",
    "Group",
    "Table",
    "Referee",
    "Recorder",
    "Commentator",
    "Type",
    "Owner",
    "Generator",
];

/// Move annotations written after a move and their NAGs.
const MARKS: &[(&str, u8)] = &[
    ("!!", 3),
    ("??", 4),
    ("!?", 5),
    ("?!", 6),
    ("!", 1),
    ("?", 2),
];

/// A line being read.
struct Frame {
    /// The position now.
    pos: Position,
    /// The position before the last move (a variation branches from here).
    prev: Option<Position>,
    /// The line hit a bad move: ignore the rest of it.
    broken: bool,
    /// Plies from the start to `pos`.
    ply: usize,
}

/// Where the parser is between games.
#[derive(PartialEq, Eq)]
enum Between {
    /// Inside a game (tags or moves seen).
    InGame,
    /// Outside any game; `warned` once a run of stray text has been reported.
    Outside { warned: bool },
}

struct Parser<'a, 'v, V: Visitor> {
    cur: Cursor<'a>,
    v: &'v mut V,
    warnings: Vec<Warning>,
    game: usize,
    state: Between,
    tags: Vec<(String, String)>,
    /// The visitor has been told `begin_game`/`start`.
    started: bool,
    /// The game's FEN is bad: skip it.
    skip: bool,
    /// A move, move number or result has been seen (a tag starts a new game).
    in_moves: bool,
    frames: Vec<Frame>,
    result: Option<PgnResult>,
    /// Comments before the first tag or move of a game.
    pending_comments: Vec<String>,
}

/// Reads PGN text, reporting it to `visitor`; returns the warnings.
pub fn visit<V: Visitor>(text: &str, visitor: &mut V) -> Vec<Warning> {
    let mut p = Parser {
        cur: Cursor::new(text),
        v: visitor,
        warnings: Vec::new(),
        game: 0,
        state: Between::Outside { warned: false },
        tags: Vec::new(),
        started: false,
        skip: false,
        in_moves: false,
        frames: Vec::new(),
        result: None,
        pending_comments: Vec::new(),
    };
    p.run();
    p.warnings
}

/// Strips a move number (`12.`, `12...`, `12、`) from the front of a word.
pub(super) fn strip_move_number(word: &str) -> &str {
    // A WXF move that starts with a file digit (`33.4`, the middle pawn of three on the
    // 3rd file when two files hold tandem pawns) is not a move number.
    let chars: Vec<char> = word.chars().take(5).collect();
    if chars.len() == 4
        && chars[0].is_ascii_digit()
        && "+-123456789".contains(chars[1])
        && "+-.=".contains(chars[2])
        && chars[3].is_ascii_digit()
    {
        return word;
    }
    let digits = word
        .char_indices()
        .find(|(_, c)| !c.is_ascii_digit())
        .map_or(word.len(), |(i, _)| i);
    let rest = &word[digits..];
    let trimmed = rest.trim_start_matches(['.', '。', '、', '…', '．', ':', '：']);
    if digits > 0 && trimmed.len() < rest.len() {
        trimmed
    } else if digits == 0 {
        // A bare run of dots (`...` after a move number written apart).
        word.trim_start_matches(['.', '…'])
    } else {
        word
    }
}

/// Splits move marks (`!`, `?!`) off a move: the move and its NAG.
fn split_mark(word: &str) -> (&str, Option<u8>) {
    for &(mark, nag) in MARKS {
        if let Some(m) = word.strip_suffix(mark) {
            if !m.is_empty() {
                return (m, Some(nag));
            }
        }
    }
    (word, None)
}

/// Removes check/mate marks from Chinese moves (the ASCII notations take them).
fn strip_check(word: &str) -> &str {
    if word.is_ascii() || word.chars().all(|c| !c.is_ascii()) {
        return word;
    }
    word.trim_end_matches(['+', '#'])
}

/// Chinese moves are sometimes written without spaces (`炮二平五马８进７`): split a run of
/// non-ASCII characters into four-character moves.
fn split_run(word: &str) -> Vec<&str> {
    let n = word.chars().count();
    if n > 4 && n.is_multiple_of(4) && word.chars().all(|c| !c.is_ascii()) {
        let mut out = Vec::new();
        let mut start = 0;
        for (k, (i, _)) in word.char_indices().enumerate() {
            if k > 0 && k % 4 == 0 {
                out.push(&word[start..i]);
                start = i;
            }
        }
        out.push(&word[start..]);
        out
    } else {
        vec![word]
    }
}

/// A move in the canonical Chinese form this crate writes (`炮二平五`, `马８进７`), found by
/// rendering only the moves of the named piece: much cheaper than a full parse, which
/// remains the fallback for every other spelling.
fn quick_chinese(pos: &Position, text: &str) -> Option<Move> {
    let role = match text.chars().next()? {
        '车' => Role::Chariot,
        '马' => Role::Horse,
        '炮' => Role::Cannon,
        '相' | '象' => Role::Elephant,
        '仕' | '士' => Role::Advisor,
        '帅' | '将' => Role::King,
        '兵' | '卒' => Role::Pawn,
        _ => return None,
    };
    let mut found = None;
    for m in pos.legal_moves() {
        if pos.piece_at(m.from()).map(|p| p.role) == Some(role) && pos.to_chinese(m) == text {
            if found.is_some() {
                return None;
            }
            found = Some(m);
        }
    }
    found
}

/// The start position of a FEN tag. A FEN whose side or counters are malformed is read
/// from its board with the side as far as it can be told (red otherwise); the second value
/// is the FEN used then.
pub(crate) fn start_from_fen(fen: &str) -> Result<(Position, Option<String>), FenError> {
    match Position::from_fen(fen) {
        Ok(p) => Ok((p, None)),
        Err(
            e @ (FenError::InvalidSide { .. }
            | FenError::InvalidCounter { .. }
            | FenError::TooManyFields { .. }),
        ) => {
            let mut fields = fen.split_whitespace();
            let board = fields.next().unwrap_or("");
            let side = match fields.next().map(str::to_ascii_lowercase).as_deref() {
                Some("b" | "black") => "b",
                _ => "w",
            };
            let used = format!("{board} {side} - - 0 1");
            match Position::from_fen(&used) {
                Ok(p) => Ok((p, Some(used))),
                Err(_) => Err(e),
            }
        }
        // A setup the rules allow to be played though no game reaches it (an elephant off
        // its points, say), as the binary formats' readers take it: else a record read from
        // XQF could not be read back from the PGN written of it (found by the fuzz target
        // `records_read`). Fatal problems (a missing general, facing generals) still fail.
        Err(e) => Position::from_fen_allowing(fen, Problems::all().difference(Problems::FATAL))
            .map(|p| (p, None))
            .map_err(|_| e),
    }
}

impl<V: Visitor> Parser<'_, '_, V> {
    fn warn(&mut self, line: usize, column: usize, kind: WarningKind) {
        let mut place = Place::text(self.game, line, column);
        if let Some(f) = self.frames.last() {
            place = place.at_ply(f.ply + 1);
        }
        self.warnings.push(Warning { place, kind });
    }

    fn run(&mut self) {
        while let Some(Located {
            line,
            column,
            token,
        }) = self.cur.next_token()
        {
            match token {
                Token::Tag(name, value) => {
                    if self.in_moves {
                        self.finish_game(line, column);
                    }
                    self.state = Between::InGame;
                    if !KNOWN_TAGS.iter().any(|k| k.eq_ignore_ascii_case(&name)) {
                        self.warn(line, column, WarningKind::UnknownTag(name.clone()));
                    }
                    self.tags.push((name, value));
                }
                Token::Bad(LexError::BadTag(raw)) => {
                    self.warn(line, column, WarningKind::BadTag(raw));
                }
                Token::Bad(LexError::Unterminated(c)) => {
                    self.warn(line, column, WarningKind::Unterminated(c));
                }
                Token::Separator(text) => {
                    if self.in_moves {
                        self.finish_game(line, column);
                    }
                    self.warn(line, column, WarningKind::SeparatorLine(text));
                }
                Token::Comment(text) => {
                    if !self.started && !self.skip {
                        // Before a game's first move: kept for the game that follows.
                        self.pending_comments.push(text);
                    } else if self.started && !self.current_broken() {
                        self.v.comment(&text);
                    }
                }
                Token::Nag(n) => {
                    if self.started && !self.skip && !self.current_broken() {
                        self.v.nag(n);
                    }
                }
                Token::Open => self.open(line, column),
                Token::Close => {
                    if self.frames.len() > 1 {
                        self.frames.pop();
                        self.v.end_variation();
                    } else {
                        self.warn(line, column, WarningKind::UnbalancedParenthesis);
                    }
                }
                Token::Word(word) => self.word(&word, line, column),
            }
        }
        let (line, column) = (self.cur.line, self.cur.column);
        if self.frames.len() > 1 {
            self.warn(line, column, WarningKind::Unterminated('('));
            while self.frames.len() > 1 {
                self.frames.pop();
                self.v.end_variation();
            }
        }
        if self.state == Between::InGame {
            self.finish_game(line, column);
        } else if let Some(c) = self.pending_comments.first() {
            let excerpt: String = c.chars().take(40).collect();
            self.warn(line, column, WarningKind::TextOutsideGame(excerpt));
        }
    }

    fn current_broken(&self) -> bool {
        self.frames.last().is_some_and(|f| f.broken)
    }

    /// Tells the visitor the game has begun, once: its tags and start position. Returns
    /// false for a game being skipped.
    fn ensure_started(&mut self, line: usize, column: usize) -> bool {
        if self.skip {
            return false;
        }
        if self.started {
            return true;
        }
        let fen = self
            .tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("FEN"))
            .map(|(_, v)| v.trim().to_string())
            .filter(|v| !v.is_empty());
        let start = match fen {
            None => Position::startpos(),
            Some(f) => match start_from_fen(&f) {
                Ok((p, None)) => p,
                Ok((p, Some(used))) => {
                    self.warn(line, column, WarningKind::FenRepaired { found: f, used });
                    p
                }
                Err(e) => {
                    self.warn(line, column, WarningKind::BadFen(e));
                    self.skip = true;
                    return false;
                }
            },
        };
        self.v.begin_game(self.game);
        for (n, v) in &self.tags {
            self.v.tag(n, v);
        }
        self.v.start(&start);
        for c in core::mem::take(&mut self.pending_comments) {
            self.v.comment(&c);
        }
        self.frames = vec![Frame {
            pos: start,
            prev: None,
            broken: false,
            ply: 0,
        }];
        self.started = true;
        true
    }

    fn open(&mut self, line: usize, column: usize) {
        let started = self.ensure_started(line, column);
        let branch_from = self
            .frames
            .last()
            .filter(|f| started && !f.broken)
            .and_then(|f| f.prev.clone().map(|p| (p, f.ply - 1)));
        let Some((pos, ply)) = branch_from else {
            if started && !self.current_broken() {
                self.warn(line, column, WarningKind::VariationWithoutMove);
            }
            if !self.cur.skip_variation() {
                self.warn(line, column, WarningKind::Unterminated('('));
            }
            return;
        };
        if !self.v.begin_variation() {
            if !self.cur.skip_variation() {
                self.warn(line, column, WarningKind::Unterminated('('));
            }
            return;
        }
        self.frames.push(Frame {
            pos,
            prev: None,
            broken: false,
            ply,
        });
    }

    /// Whether `word` starts a game from the initial position (for text between games).
    fn starts_a_game(word: &str) -> bool {
        let w = split_mark(strip_check(strip_move_number(word))).0;
        split_run(w)
            .first()
            .is_some_and(|m| Position::startpos().parse_move(m).is_ok())
    }

    fn word(&mut self, word: &str, line: usize, column: usize) {
        if let Some(r) = PgnResult::from_token(word) {
            if self.frames.len() > 1 {
                // A result inside a variation ends nothing.
                return;
            }
            if let Between::Outside { .. } = self.state {
                return;
            }
            self.result = Some(r);
            self.in_moves = true;
            self.finish_game(line, column);
            return;
        }
        let stripped = strip_move_number(word);
        if let Between::Outside { warned } = self.state {
            if stripped.is_empty() {
                return;
            }
            if !Self::starts_a_game(word) {
                if !warned {
                    let excerpt: String = word.chars().take(40).collect();
                    self.warn(line, column, WarningKind::TextOutsideGame(excerpt));
                }
                self.state = Between::Outside { warned: true };
                return;
            }
            self.state = Between::InGame;
        }
        self.in_moves = true;
        let (w, mark) = split_mark(strip_check(stripped));
        if w.is_empty() || !self.ensure_started(line, column) || self.current_broken() {
            return;
        }
        for text in split_run(w) {
            let Some(frame) = self.frames.last_mut() else {
                return;
            };
            let parsed = quick_chinese(&frame.pos, text)
                .map(Ok)
                .unwrap_or_else(|| frame.pos.parse_move(text));
            match parsed {
                Ok(m) if frame.pos.is_legal(m) => {
                    let before = frame.pos.clone();
                    frame.pos.make_move(m);
                    frame.ply += 1;
                    self.v.play(&before, m);
                    frame.prev = Some(before);
                }
                result => {
                    let error = match result {
                        Err(e) => e,
                        Ok(_) => xiangqi_core::NotationError::NoSuchMove { text: text.into() },
                    };
                    self.warn(
                        line,
                        column,
                        WarningKind::BadMove {
                            text: text.to_string(),
                            error,
                        },
                    );
                    if let Some(f) = self.frames.last_mut() {
                        f.broken = true;
                    }
                    return;
                }
            }
        }
        if let Some(n) = mark {
            self.v.nag(n);
        }
    }

    fn finish_game(&mut self, line: usize, column: usize) {
        if !self.skip {
            let tag = self
                .tags
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case("Result"))
                .map(|(_, v)| v.trim().to_string());
            let tag_result = tag.as_deref().and_then(PgnResult::from_token);
            let result = match (self.result, tag_result) {
                (Some(r), Some(t)) if r != t => {
                    self.warn(
                        line,
                        column,
                        WarningKind::ResultMismatch {
                            tag: tag.unwrap_or_default(),
                            token: r.as_str().to_string(),
                        },
                    );
                    r
                }
                (Some(r), _) | (None, Some(r)) => r,
                (None, None) => {
                    self.warn(line, column, WarningKind::MissingResult);
                    PgnResult::Unknown
                }
            };
            if self.ensure_started(line, column) {
                self.v.end_game(result);
            }
        }
        self.game += 1;
        self.tags.clear();
        self.started = false;
        self.skip = false;
        self.in_moves = false;
        self.frames.clear();
        self.result = None;
        self.pending_comments.clear();
        self.state = Between::Outside { warned: false };
    }
}
