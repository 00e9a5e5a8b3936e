//! Move notation: WXF (`C2.5`, `H8+7`, `R+.3`) and Chinese (`炮二平五`, `马８进７`,
//! `前马退二`), both ways: format a legal move, and parse text back against a position.
//!
//! Both notations name the piece, the file it stands on (counted from the mover's right:
//! red `一`..`九` / 1..9 from file `i` to `a`, black 1..9 from `a` to `i`), the direction
//! (forward `+`/进, backward `-`/退, sideways `.`/平) and then either the number of points
//! moved (chariot, cannon, pawn and general moving along their file) or the destination
//! file. When two or more pieces of a kind stand on one file, front and rear replace the
//! file (`R+.3` / `前车平三`). Sources: the WXF notation page and the cchess notation notes
//! summarised in `shared/notes/rules.md` (c); Fairy-Stockfish's output is matched for WXF.
//!
//! ```
//! use xiangqi_core::Position;
//! let pos = Position::startpos();
//! let m = pos.parse_move("炮二平五")?;
//! assert_eq!(m.to_string(), "h2e2");
//! assert_eq!(pos.to_wxf(m), "C2.5");
//! assert_eq!(pos.parse_wxf("C2=5")?, m);
//! assert_eq!(pos.parse_move("h2e2")?, m);
//! let black = pos.after(m)?;
//! let reply = black.parse_chinese("马8进7")?;
//! assert_eq!(black.to_chinese(reply), "马８进７");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use alloc::{string::String, vec::Vec};
mod chinese;
mod wxf;

use crate::{Color, Move, Position, Role, Square};
use core::fmt;

/// Why move text could not be read as a move of the given position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The text is empty (or only white space).
    Empty,
    /// The text is not in the notation's form: the character at `at` (counted in
    /// characters of the text after white space is removed) is not what can stand there.
    Syntax {
        /// The text as given.
        text: String,
        /// Index of the offending character (the text's length if it is too short).
        at: usize,
        /// What the notation expects there.
        expected: &'static str,
    },
    /// Well-formed, but no legal move of this position is written so.
    NoSuchMove {
        /// The text as given.
        text: String,
    },
    /// Several legal moves are written so (front/rear would tell them apart).
    Ambiguous {
        /// The text as given.
        text: String,
        /// The candidates.
        moves: Vec<Move>,
    },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Empty => f.write_str("empty move text"),
            NotationError::Syntax { text, at, expected } => {
                write!(
                    f,
                    "bad move text {text:?}: at character {at}, expected {expected}"
                )
            }
            NotationError::NoSuchMove { text } => {
                write!(f, "no legal move is written {text:?} in this position")
            }
            NotationError::Ambiguous { text, moves } => {
                write!(f, "move text {text:?} is ambiguous: it fits")?;
                for m in moves {
                    write!(f, " {m}")?;
                }
                Ok(())
            }
        }
    }
}

impl core::error::Error for NotationError {}

/// The direction of a move as both notations write it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Dir {
    Forward,
    Backward,
    Traverse,
}

/// A move broken down into the parts the notations write.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Parts {
    pub color: Color,
    pub role: Role,
    /// The file number of the from-square for the mover (1..=9).
    pub file: u8,
    pub dir: Dir,
    /// Steps moved along the file, or the destination file number.
    pub dest: u8,
    /// Same pieces on the from-file: (index from the front, count); count 1 when alone.
    pub index: u8,
    pub count: u8,
    /// Another file holds two or more of the mover's pawns too (only for pawns).
    pub other_tandem_file: bool,
}

/// How far forward `square` is for `color` (0 = own back rank).
fn advance(square: Square, color: Color) -> i32 {
    match color {
        Color::Red => i32::from(square.rank().index()),
        Color::Black => 9 - i32::from(square.rank().index()),
    }
}

/// The parts of move `m` in `pos`, or `None` if no piece of the side to move is on its
/// from-square.
pub(crate) fn parts(pos: &Position, m: Move) -> Option<Parts> {
    let piece = pos.piece_at(m.from())?;
    let color = piece.color;
    if color != pos.side_to_move() {
        return None;
    }
    let (from, to) = (m.from(), m.to());
    let dir = match advance(to, color).cmp(&advance(from, color)) {
        core::cmp::Ordering::Greater => Dir::Forward,
        core::cmp::Ordering::Less => Dir::Backward,
        core::cmp::Ordering::Equal => Dir::Traverse,
    };
    let dest = if from.file() == to.file() {
        (advance(to, color) - advance(from, color)).unsigned_abs() as u8
    } else {
        to.file().number_for(color)
    };
    let mut index = 0;
    let mut count = 0;
    let mut per_file = [0u8; 9];
    for (s, p) in pos.pieces(color) {
        if p.role != piece.role {
            continue;
        }
        per_file[s.file().index() as usize] += 1;
        if s.file() == from.file() {
            count += 1;
            if advance(s, color) > advance(from, color) {
                index += 1;
            }
        }
    }
    let other_tandem_file = piece.role == Role::Pawn
        && per_file
            .iter()
            .enumerate()
            .any(|(f, &n)| f != from.file().index() as usize && n >= 2);
    Some(Parts {
        color,
        role: piece.role,
        file: from.file().number_for(color),
        dir,
        dest,
        index,
        count,
        other_tandem_file,
    })
}

/// The WXF letter of a role (K A E H R C P); also the canonical code both parsers
/// normalise piece names to before comparing spellings.
pub(crate) fn wxf_letter(role: Role) -> char {
    match role {
        Role::King => 'K',
        Role::Advisor => 'A',
        Role::Elephant => 'E',
        Role::Horse => 'H',
        Role::Chariot => 'R',
        Role::Cannon => 'C',
        Role::Pawn => 'P',
    }
}

/// The WXF direction mark (`+` forward, `-` back, `.` sideways); also the canonical code
/// for 进/退/平.
pub(crate) fn wxf_dir(dir: Dir) -> char {
    match dir {
        Dir::Forward => '+',
        Dir::Backward => '-',
        Dir::Traverse => '.',
    }
}

/// The ASCII digit of `n` (0..=9).
pub(crate) fn digit(n: u8) -> char {
    char::from(b'0' + n)
}

/// Checks the four places of a normalised move text against what each may hold
/// (`(what is expected, the codes allowed)`), and that nothing follows them.
pub(crate) fn check_places(
    norm: &[char],
    checks: &[(&'static str, &str); 4],
    syntax: impl Fn(usize, &'static str) -> NotationError,
) -> Result<(), NotationError> {
    for (i, (expected, allowed)) in checks.iter().enumerate() {
        match norm.get(i) {
            None => return Err(syntax(i, expected)),
            Some(&c) if !allowed.contains(c) => return Err(syntax(i, expected)),
            _ => {}
        }
    }
    if norm.len() > 4 {
        return Err(syntax(4, "the end of the move"));
    }
    Ok(())
}

/// Matches normalised text against the accepted spellings of every legal move.
pub(crate) fn find_move(
    pos: &Position,
    text: &str,
    normalized: &str,
    spellings: impl Fn(&Position, Move) -> Vec<String>,
) -> Result<Move, NotationError> {
    let found: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|&m| spellings(pos, m).iter().any(|s| s == normalized))
        .collect();
    match found.len() {
        0 => Err(NotationError::NoSuchMove { text: text.into() }),
        1 => Ok(found[0]),
        _ => Err(NotationError::Ambiguous {
            text: text.into(),
            moves: found,
        }),
    }
}

/// Full-width ASCII forms (U+FF01..U+FF5E) to ASCII; other characters unchanged.
pub(crate) fn narrow(c: char) -> char {
    let u = c as u32;
    if (0xFF01..=0xFF5E).contains(&u) {
        char::from_u32(u - 0xFF01 + 0x21).unwrap_or(c)
    } else {
        c
    }
}

impl Position {
    /// Reads a move in any notation: ICCS/UCI (`h2e2`, `H2-E2`), WXF (`C2.5`, `C2=5`) or
    /// Chinese (`炮二平五`).
    ///
    /// # Errors
    /// [`NotationError`] saying what is wrong; for text in no notation, the WXF error.
    pub fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        let compact: String = text
            .chars()
            .map(narrow)
            .filter(|c| !c.is_whitespace() && *c != '-')
            .collect();
        if compact.len() == 4 && compact.is_ascii() {
            let lower = compact.to_ascii_lowercase();
            let b = lower.as_bytes();
            if (b'a'..=b'i').contains(&b[0])
                && b[1].is_ascii_digit()
                && (b'a'..=b'i').contains(&b[2])
                && b[3].is_ascii_digit()
            {
                return match self.parse_uci(&lower) {
                    Ok(m) => Ok(m),
                    Err(_) => Err(NotationError::NoSuchMove { text: text.into() }),
                };
            }
        }
        if text.chars().any(|c| !narrow(c).is_ascii()) {
            if let Ok(m) = self.parse_chinese(text) {
                return Ok(m);
            }
            // Full-width WXF (`Ｃ２＝５`) is all-ASCII once narrowed.
            if text.chars().all(|c| narrow(c).is_ascii()) {
                return self.parse_wxf(text);
            }
            return self.parse_chinese(text);
        }
        self.parse_wxf(text)
    }
}
