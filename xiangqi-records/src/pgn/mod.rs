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

use crate::text;

mod write;
use core::fmt;
pub use write::write;
use xiangqi_core::{Color, FenError, Game, Move, NotationError, Position};

/// The result of a game as PGN records it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum PgnResult {
    /// `1-0`: red won.
    RedWins,
    /// `0-1`: black won.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown or unfinished.
    #[default]
    Unknown,
}

impl PgnResult {
    /// The PGN token.
    pub fn as_str(self) -> &'static str {
        match self {
            PgnResult::RedWins => "1-0",
            PgnResult::BlackWins => "0-1",
            PgnResult::Draw => "1/2-1/2",
            PgnResult::Unknown => "*",
        }
    }

    /// Reads a PGN result token.
    pub fn from_token(token: &str) -> Option<PgnResult> {
        Some(match token {
            "1-0" => PgnResult::RedWins,
            "0-1" => PgnResult::BlackWins,
            "1/2-1/2" | "½-½" => PgnResult::Draw,
            "*" => PgnResult::Unknown,
            _ => return None,
        })
    }

    /// The winner, if the game was decided.
    pub fn winner(self) -> Option<Color> {
        match self {
            PgnResult::RedWins => Some(Color::Red),
            PgnResult::BlackWins => Some(Color::Black),
            _ => None,
        }
    }
}

impl fmt::Display for PgnResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

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
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` to `value`, replacing an existing one.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self
            .tags
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The move format named by the `Format` tag (Chinese when absent or unknown).
    pub fn format(&self) -> MoveFormat {
        match self.tag("Format").map(str::to_ascii_uppercase).as_deref() {
            Some("ICCS") => MoveFormat::Iccs,
            Some("WXF") => MoveFormat::Wxf,
            _ => MoveFormat::Chinese,
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
/// move that cannot be read or played. [`read_lenient`] keeps going instead.
pub fn read(bytes: &[u8]) -> Result<Vec<PgnGame>, PgnError> {
    let (text, _) = text::decode(bytes);
    read_str(&text)
}

/// Reads every game of PGN text.
///
/// # Errors
/// As [`read`].
pub fn read_str(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let (games, mut errors) = parse(text);
    if errors.is_empty() {
        Ok(games)
    } else {
        Err(errors.swap_remove(0))
    }
}

/// Reads what can be read: a game whose move text goes wrong keeps the moves before the
/// error; a game whose tags go wrong is skipped. Returns the games and every error.
pub fn read_lenient(bytes: &[u8]) -> (Vec<PgnGame>, Vec<PgnError>) {
    let (text, _) = text::decode(bytes);
    parse(&text)
}

/// A character cursor with line and column.
struct Cursor<'a> {
    chars: core::iter::Peekable<core::str::Chars<'a>>,
    line: usize,
    column: usize,
}

impl Cursor<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }
}

enum Token {
    Tag(String, String),
    Comment(String),
    Word(String),
}

/// Game under construction.
struct Builder {
    tags: Vec<(String, String)>,
    game: Option<Game>,
    result: Option<PgnResult>,
    comments: Vec<PgnComment>,
    /// The move text went wrong: ignore the rest of this game's moves.
    broken: bool,
    /// A move or result has been seen (a following tag starts a new game).
    in_moves: bool,
}

impl Builder {
    fn new() -> Builder {
        Builder {
            tags: Vec::new(),
            game: None,
            result: None,
            comments: Vec::new(),
            broken: false,
            in_moves: false,
        }
    }

    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.game.is_none() && self.comments.is_empty()
    }

    /// The game, created on first use from the FEN tag.
    fn game(&mut self) -> Result<&mut Game, FenError> {
        if self.game.is_none() {
            let fen = self
                .tags
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case("FEN"))
                .map(|(_, v)| v.trim())
                .filter(|v| !v.is_empty());
            let start = match fen {
                Some(f) => Position::from_fen(f)?,
                None => Position::startpos(),
            };
            self.game = Some(Game::new(start));
        }
        Ok(self.game.get_or_insert_with(Game::default))
    }

    fn finish(mut self) -> Result<PgnGame, FenError> {
        self.game()?;
        let tag_result = self
            .tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("Result"))
            .and_then(|(_, v)| PgnResult::from_token(v.trim()));
        Ok(PgnGame {
            tags: self.tags,
            game: self.game.unwrap_or_default(),
            result: self.result.or(tag_result).unwrap_or_default(),
            comments: self.comments,
        })
    }
}

/// Strips a move number (`12.`, `12...`, `12、`) from the front of a word.
fn strip_move_number(word: &str) -> &str {
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
    let trimmed = rest.trim_start_matches(['.', '。', '、', '…', '．']);
    if digits > 0 && trimmed.len() < rest.len() {
        trimmed
    } else if digits == 0 {
        // A bare run of dots (`...` after a move number written apart).
        word.trim_start_matches(['.', '…'])
    } else {
        word
    }
}

/// Removes move annotations (`!`, `?`, `!?`) and check/mate marks from Chinese moves.
fn strip_annotations(word: &str) -> &str {
    if word.is_ascii() || word.chars().all(|c| !c.is_ascii()) {
        // ASCII moves: the notation parsers handle trailing `+`/`#` themselves.
        return word.trim_end_matches(['!', '?']);
    }
    word.trim_end_matches(['!', '?', '+', '#'])
}

fn parse(text: &str) -> (Vec<PgnGame>, Vec<PgnError>) {
    let mut cur = Cursor {
        chars: text.chars().peekable(),
        line: 1,
        column: 1,
    };
    let mut games = Vec::new();
    let mut errors = Vec::new();
    let mut b = Builder::new();
    let mut skip_game = false;
    let push = |b: Builder, games: &mut Vec<PgnGame>, errors: &mut Vec<PgnError>, line, column| {
        let index = games.len();
        match b.finish() {
            Ok(g) => games.push(g),
            Err(e) => errors.push(PgnError {
                line,
                column,
                game: index,
                kind: PgnErrorKind::BadFen(e),
            }),
        }
    };
    loop {
        let (line, column, token) = match next_token(&mut cur) {
            Ok(Some(t)) => t,
            Ok(None) => break,
            Err((line, column, kind)) => {
                errors.push(PgnError {
                    line,
                    column,
                    game: games.len(),
                    kind,
                });
                if matches!(
                    errors.last().map(|e| &e.kind),
                    Some(PgnErrorKind::Unterminated(_))
                ) {
                    break;
                }
                continue;
            }
        };
        match token {
            Token::Tag(name, value) => {
                if b.in_moves {
                    if !skip_game {
                        push(b, &mut games, &mut errors, line, column);
                    }
                    b = Builder::new();
                    skip_game = false;
                }
                b.tags.push((name, value));
            }
            Token::Comment(text) => {
                let ply = b.game.as_ref().map_or(0, |g| g.moves().len());
                b.comments.push(PgnComment { ply, text });
            }
            Token::Word(word) => {
                if let Some(r) = PgnResult::from_token(&word) {
                    b.result = Some(r);
                    if !skip_game {
                        push(b, &mut games, &mut errors, line, column);
                    }
                    b = Builder::new();
                    skip_game = false;
                    continue;
                }
                let w = strip_annotations(strip_move_number(&word));
                if w.is_empty() {
                    continue;
                }
                b.in_moves = true;
                if b.broken || skip_game {
                    continue;
                }
                let index = games.len();
                let game = match b.game() {
                    Ok(g) => g,
                    Err(e) => {
                        errors.push(PgnError {
                            line,
                            column,
                            game: index,
                            kind: PgnErrorKind::BadFen(e),
                        });
                        skip_game = true;
                        continue;
                    }
                };
                for mv in split_run(w) {
                    let parsed: Result<Move, NotationError> = game.position().parse_move(mv);
                    let played = parsed.and_then(|m| {
                        game.play(m).map_err(|_| NotationError::NoSuchMove {
                            text: mv.to_string(),
                        })
                    });
                    if let Err(error) = played {
                        errors.push(PgnError {
                            line,
                            column,
                            game: index,
                            kind: PgnErrorKind::BadMove {
                                text: mv.to_string(),
                                error,
                            },
                        });
                        b.broken = true;
                        break;
                    }
                }
            }
        }
    }
    if !b.is_empty() && !skip_game {
        let (line, column) = (cur.line, cur.column);
        push(b, &mut games, &mut errors, line, column);
    }
    (games, errors)
}

/// Chinese moves are sometimes written without spaces (`炮二平五马８进７`): split a run of
/// non-ASCII characters into four-character moves.
fn split_run(word: &str) -> Vec<&str> {
    let n = word.chars().count();
    if n > 4 && n % 4 == 0 && word.chars().all(|c| !c.is_ascii()) {
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

/// The next token and the line and column where it starts (or where the error is).
type Located<T> = (usize, usize, T);

fn next_token(cur: &mut Cursor<'_>) -> Result<Option<Located<Token>>, Located<PgnErrorKind>> {
    loop {
        let (line, column) = (cur.line, cur.column);
        let at = |t: Token| Ok(Some((line, column, t)));
        let err = |k: PgnErrorKind| Err((line, column, k));
        let Some(c) = cur.peek() else {
            return Ok(None);
        };
        match c {
            c if c.is_whitespace() || c == '\u{feff}' => {
                cur.bump();
            }
            '%' if cur.column == 1 => skip_line(cur),
            ';' => {
                cur.bump();
                let mut s = String::new();
                while let Some(c) = cur.peek() {
                    if c == '\n' {
                        break;
                    }
                    s.push(c);
                    cur.bump();
                }
                return at(Token::Comment(s.trim().to_string()));
            }
            '{' => {
                cur.bump();
                let mut s = String::new();
                loop {
                    match cur.bump() {
                        None => return err(PgnErrorKind::Unterminated('{')),
                        Some('}') => break,
                        Some(c) => s.push(c),
                    }
                }
                return at(Token::Comment(s.trim().to_string()));
            }
            '(' => {
                if let Err(k) = skip_variation(cur) {
                    return err(k);
                }
            }
            ')' => {
                cur.bump();
                return err(PgnErrorKind::UnbalancedParenthesis);
            }
            '$' => {
                cur.bump();
                while cur.peek().is_some_and(|c| c.is_ascii_digit()) {
                    cur.bump();
                }
            }
            '[' => {
                return match read_tag(cur) {
                    Ok(t) => at(t),
                    Err(k) => err(k),
                }
            }
            _ => {
                let mut s = String::new();
                while let Some(c) = cur.peek() {
                    if c.is_whitespace() || "{}()[];$".contains(c) {
                        break;
                    }
                    s.push(c);
                    cur.bump();
                }
                if s.is_empty() {
                    // A stray `]` or `}`: skip it.
                    cur.bump();
                    continue;
                }
                return at(Token::Word(s));
            }
        }
    }
}

fn skip_line(cur: &mut Cursor<'_>) {
    while let Some(c) = cur.bump() {
        if c == '\n' {
            break;
        }
    }
}

/// Skips a `( ... )` variation, nested ones and comments inside included.
fn skip_variation(cur: &mut Cursor<'_>) -> Result<(), PgnErrorKind> {
    let mut depth = 0usize;
    loop {
        match cur.bump() {
            None => return Err(PgnErrorKind::Unterminated('(')),
            Some('(') => depth += 1,
            Some(')') => {
                depth -= 1;
                if depth == 0 {
                    return Ok(());
                }
            }
            Some('{') => loop {
                match cur.bump() {
                    None => return Err(PgnErrorKind::Unterminated('{')),
                    Some('}') => break,
                    Some(_) => {}
                }
            },
            Some(_) => {}
        }
    }
}

/// Reads `[Name "value"]` (the cursor is on `[`).
fn read_tag(cur: &mut Cursor<'_>) -> Result<Token, PgnErrorKind> {
    cur.bump();
    let mut raw = String::from("[");
    let mut name = String::new();
    while let Some(c) = cur.peek() {
        if c.is_whitespace() || c == '"' || c == ']' {
            break;
        }
        name.push(c);
        raw.push(c);
        cur.bump();
    }
    while cur.peek().is_some_and(|c| c.is_whitespace() && c != '\n') {
        cur.bump();
    }
    if cur.peek() != Some('"') || name.is_empty() {
        // Not a tag pair: skip to the end of the line.
        while let Some(c) = cur.peek() {
            if c == '\n' {
                break;
            }
            raw.push(c);
            cur.bump();
        }
        return Err(PgnErrorKind::BadTag(raw));
    }
    cur.bump();
    let mut value = String::new();
    loop {
        match cur.bump() {
            None => return Err(PgnErrorKind::Unterminated('"')),
            Some('\\') => match cur.bump() {
                Some(c @ ('"' | '\\')) => value.push(c),
                Some(c) => {
                    value.push('\\');
                    value.push(c);
                }
                None => return Err(PgnErrorKind::Unterminated('"')),
            },
            Some('"') => {
                // Some writers put unescaped quotes inside values: a quote not followed by
                // `]` (after blanks) is taken as part of the value.
                let mut rest = String::new();
                while cur.peek().is_some_and(|c| c == ' ' || c == '\t') {
                    rest.push(cur.bump().unwrap_or(' '));
                }
                if cur.peek() == Some(']') || cur.peek().is_none() || cur.peek() == Some('\n') {
                    break;
                }
                value.push('"');
                value.push_str(&rest);
            }
            Some('\n') => return Err(PgnErrorKind::Unterminated('"')),
            Some(c) => value.push(c),
        }
    }
    while cur.peek().is_some_and(|c| c == ' ' || c == '\t') {
        cur.bump();
    }
    if cur.peek() == Some(']') {
        cur.bump();
    }
    Ok(Token::Tag(name, value))
}
