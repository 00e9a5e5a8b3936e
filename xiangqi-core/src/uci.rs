//! ICCS/UCI move text: `h2e2` (files `a`–`i`, ranks `0`–`9`).
//!
//! Parsing has two stages, as in shakmaty: [`UciMove`] checks the syntax alone; then
//! [`UciMove::to_move`] (or [`Position::parse_uci`]) checks it against a position.
//! ICCS's dashed upper-case form (`H2-E2`) is accepted too.

use crate::{IllegalMove, Move, Position, Square};
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

/// A move written in coordinates, not yet checked against a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct UciMove {
    /// The from-square.
    pub from: Square,
    /// The to-square.
    pub to: Square,
}

/// Why a move text is not valid coordinate syntax.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseUciError {
    /// The text is not 4 characters (5 with a dash) long.
    BadLength {
        /// The length found, in characters.
        len: usize,
    },
    /// A character is not a file `a`–`i` where a file must be.
    BadFile {
        /// The character.
        ch: char,
        /// Its character offset.
        offset: usize,
    },
    /// A character is not a rank `0`–`9` where a rank must be.
    BadRank {
        /// The character.
        ch: char,
        /// Its character offset.
        offset: usize,
    },
    /// From and to are the same square.
    NullMove,
}

impl fmt::Display for ParseUciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseUciError::BadLength { len } => {
                write!(f, "a move has 4 characters like h2e2, found {len}")
            }
            ParseUciError::BadFile { ch, offset } => {
                write!(f, "{ch:?} at {offset} is not a file a-i")
            }
            ParseUciError::BadRank { ch, offset } => {
                write!(f, "{ch:?} at {offset} is not a rank 0-9")
            }
            ParseUciError::NullMove => f.write_str("from and to are the same square"),
        }
    }
}

impl core::error::Error for ParseUciError {}

impl FromStr for UciMove {
    type Err = ParseUciError;

    /// ```
    /// use xiangqi_core::UciMove;
    /// let m: UciMove = "h2e2".parse()?;
    /// assert_eq!(m.to_string(), "h2e2");
    /// assert!("h2e".parse::<UciMove>().is_err());
    /// # Ok::<_, xiangqi_core::ParseUciError>(())
    /// ```
    fn from_str(s: &str) -> Result<UciMove, ParseUciError> {
        let chars: Vec<char> = s.chars().collect();
        let parts: [usize; 4] = match chars.len() {
            4 => [0, 1, 2, 3],
            5 if chars[2] == '-' => [0, 1, 3, 4],
            len => return Err(ParseUciError::BadLength { len }),
        };
        let square = |fi: usize, ri: usize| -> Result<Square, ParseUciError> {
            let f = crate::File::from_char(chars[fi]).ok_or(ParseUciError::BadFile {
                ch: chars[fi],
                offset: fi,
            })?;
            let r = crate::Rank::from_char(chars[ri]).ok_or(ParseUciError::BadRank {
                ch: chars[ri],
                offset: ri,
            })?;
            Ok(Square::from_coords(f, r))
        };
        let from = square(parts[0], parts[1])?;
        let to = square(parts[2], parts[3])?;
        if from == to {
            return Err(ParseUciError::NullMove);
        }
        Ok(UciMove { from, to })
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

impl From<Move> for UciMove {
    fn from(m: Move) -> UciMove {
        UciMove {
            from: m.from(),
            to: m.to(),
        }
    }
}

impl UciMove {
    /// The move as a [`Move`], if it is legal in `pos`.
    ///
    /// # Errors
    /// [`IllegalMove`] when it is not.
    pub fn to_move(&self, pos: &Position) -> Result<Move, IllegalMove> {
        let m = Move::new(self.from, self.to);
        pos.check_legal(m)?;
        Ok(m)
    }
}

/// Why a coordinate move could not be played in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciMoveError {
    /// The text is not coordinate syntax.
    Syntax(ParseUciError),
    /// The move is well formed but illegal here.
    Illegal(IllegalMove),
}

impl fmt::Display for UciMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciMoveError::Syntax(e) => write!(f, "{e}"),
            UciMoveError::Illegal(e) => write!(f, "{e}"),
        }
    }
}

impl core::error::Error for UciMoveError {}

impl Position {
    /// Parses coordinate move text (`h2e2`) and checks it is legal here.
    ///
    /// # Errors
    /// [`UciMoveError::Syntax`] for bad text, [`UciMoveError::Illegal`] for an illegal move.
    pub fn parse_uci(&self, text: &str) -> Result<Move, UciMoveError> {
        let m: UciMove = text.trim().parse().map_err(UciMoveError::Syntax)?;
        m.to_move(self).map_err(UciMoveError::Illegal)
    }
}
