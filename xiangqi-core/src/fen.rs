//! FEN: reading and writing positions as text.
//!
//! The board field lists ranks from rank 9 (black's back rank) down to rank 0, files `a` to
//! `i` within a rank, digits for runs of empty points. Red pieces are uppercase. Accepted on
//! input: side `w`, `r` (red) or `b`; horse and elephant as `N`/`B` or `H`/`E`; the two
//! dash fields and both counters may be missing. Written: the canonical form with `w`/`b`
//! and `N`/`B`.

use crate::setup::{Problems, Setup, SetupError};
use crate::{Color, Piece, Position, Square};
use alloc::{format, string::String, string::ToString, vec::Vec};
use core::fmt;

/// Why a FEN could not be read. Each variant says where (a byte offset into the string).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The string is empty or only white space.
    Empty,
    /// A character in the board field that is neither a piece letter, a digit 1–9 nor `/`.
    InvalidChar {
        /// The offending character.
        ch: char,
        /// Its byte offset.
        offset: usize,
    },
    /// A rank describes more than nine points.
    RankTooLong {
        /// Which rank (9 = the first one written).
        rank: u8,
        /// Byte offset where the excess starts.
        offset: usize,
    },
    /// A rank describes fewer than nine points.
    RankTooShort {
        /// Which rank.
        rank: u8,
        /// Byte offset of the rank's end.
        offset: usize,
    },
    /// The board field does not have exactly ten ranks.
    WrongRankCount {
        /// How many ranks were found.
        found: usize,
    },
    /// The side-to-move field is not `w`, `r` or `b`.
    InvalidSide {
        /// What was found.
        found: String,
        /// Its byte offset.
        offset: usize,
    },
    /// A counter field is not a number.
    InvalidCounter {
        /// Which field (5 = half-move clock, 6 = move number).
        field: u8,
        /// What was found.
        found: String,
        /// Its byte offset.
        offset: usize,
    },
    /// A field the format does not have.
    TooManyFields {
        /// Byte offset of the first extra field.
        offset: usize,
    },
    /// The text is well formed but the position breaks the rules.
    Setup(SetupError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => f.write_str("empty FEN"),
            FenError::InvalidChar { ch, offset } => {
                write!(
                    f,
                    "invalid character {ch:?} in the board at offset {offset}"
                )
            }
            FenError::RankTooLong { rank, offset } => {
                write!(f, "rank {rank} has more than 9 points (offset {offset})")
            }
            FenError::RankTooShort { rank, offset } => {
                write!(f, "rank {rank} has fewer than 9 points (offset {offset})")
            }
            FenError::WrongRankCount { found } => {
                write!(f, "the board has {found} ranks, expected 10")
            }
            FenError::InvalidSide { found, offset } => write!(
                f,
                "side to move {found:?} at offset {offset} is not w, r or b"
            ),
            FenError::InvalidCounter {
                field,
                found,
                offset,
            } => write!(
                f,
                "field {field} {found:?} at offset {offset} is not a number"
            ),
            FenError::TooManyFields { offset } => {
                write!(f, "unexpected extra field at offset {offset}")
            }
            FenError::Setup(e) => write!(f, "{e}"),
        }
    }
}

impl FenError {
    /// A stable, machine-readable name of what is wrong (`rank_too_long`, `setup`, ...), for
    /// programs that say it in their own words or language; the setup's problems have their
    /// own codes ([`Problems::codes`](crate::Problems::codes)).
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// let e = Position::from_fen("rnbakabnr/9 w").unwrap_err();
    /// assert_eq!(e.code(), "wrong_rank_count");
    /// ```
    pub fn code(&self) -> &'static str {
        match self {
            FenError::Empty => "empty",
            FenError::InvalidChar { .. } => "invalid_char",
            FenError::RankTooLong { .. } => "rank_too_long",
            FenError::RankTooShort { .. } => "rank_too_short",
            FenError::WrongRankCount { .. } => "wrong_rank_count",
            FenError::InvalidSide { .. } => "invalid_side",
            FenError::InvalidCounter { .. } => "invalid_counter",
            FenError::TooManyFields { .. } => "too_many_fields",
            FenError::Setup(_) => "setup",
        }
    }
}

impl core::error::Error for FenError {}

impl From<SetupError> for FenError {
    fn from(e: SetupError) -> FenError {
        FenError::Setup(e)
    }
}

/// Splits `s` into whitespace-separated fields with their byte offsets.
fn fields(s: &str) -> impl Iterator<Item = (usize, &str)> {
    s.split_ascii_whitespace()
        .map(move |w| (w.as_ptr() as usize - s.as_ptr() as usize, w))
}

impl Setup {
    /// Reads a FEN into a setup without checking the rules of the game.
    ///
    /// # Errors
    /// A [`FenError`] saying what is malformed and where.
    pub fn from_fen(fen: &str) -> Result<Setup, FenError> {
        let mut it = fields(fen);
        let (board_off, board) = it.next().ok_or(FenError::Empty)?;
        let mut setup = Setup::empty();
        let ranks: Vec<(usize, &str)> = board
            .split('/')
            .scan(board_off, |off, r| {
                let here = *off;
                *off += r.len() + 1;
                Some((here, r))
            })
            .collect();
        if ranks.len() != 10 {
            return Err(FenError::WrongRankCount { found: ranks.len() });
        }
        for (i, (off, text)) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0u8;
            for (j, ch) in text.char_indices() {
                let offset = off + j;
                if let Some(d) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as u8;
                    if file > 9 {
                        return Err(FenError::RankTooLong { rank, offset });
                    }
                } else if let Some(p) = Piece::from_char(ch).filter(|_| ch.is_ascii()) {
                    if file >= 9 {
                        return Err(FenError::RankTooLong { rank, offset });
                    }
                    setup.board[rank as usize * 9 + file as usize] = Some(p);
                    file += 1;
                } else {
                    return Err(FenError::InvalidChar { ch, offset });
                }
            }
            if file < 9 {
                return Err(FenError::RankTooShort {
                    rank,
                    offset: off + text.len(),
                });
            }
        }
        if let Some((offset, side)) = it.next() {
            setup.side_to_move = match side {
                "w" | "W" | "r" | "R" => Color::Red,
                "b" | "B" => Color::Black,
                _ => {
                    return Err(FenError::InvalidSide {
                        found: side.to_string(),
                        offset,
                    })
                }
            };
        }
        // Fields 3 and 4 are `-` in xiangqi; tolerate anything there, as GUIs vary.
        let rest: Vec<(usize, &str)> = it.collect();
        let counters: &[(usize, &str)] = match rest.len() {
            0 => &[],
            1 | 2 if rest.iter().all(|(_, w)| w.parse::<u32>().is_ok()) => &rest[..],
            1 | 2 => &[],
            3 | 4 => &rest[2..],
            _ => return Err(FenError::TooManyFields { offset: rest[4].0 }),
        };
        for (k, (offset, w)) in counters.iter().enumerate() {
            let field = 5 + k as u8;
            let v: u32 = w.parse().map_err(|_| FenError::InvalidCounter {
                field,
                found: w.to_string(),
                offset: *offset,
            })?;
            if field == 5 {
                setup.halfmove_clock = v;
            } else {
                setup.fullmove_number = v.max(1);
            }
        }
        Ok(setup)
    }
}

impl Position {
    /// Reads a FEN and checks that it is a legal position.
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// // Side `r`, H/E letters and no counters are accepted.
    /// let pos = Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r")?;
    /// assert_eq!(pos, Position::startpos());
    /// assert!(Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w").is_err());
    /// # Ok::<_, xiangqi_core::FenError>(())
    /// ```
    ///
    /// # Errors
    /// A [`FenError`]: malformed text (with its offset), or a [`SetupError`] naming every rule broken.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_allowing(fen, Problems::empty())
    }

    /// Reads a FEN, accepting the listed [`Problems`] (for puzzles and tests; fatal ones are
    /// never accepted).
    ///
    /// # Errors
    /// As [`Position::from_fen`].
    pub fn from_fen_allowing(fen: &str, allowed: Problems) -> Result<Position, FenError> {
        let setup = Setup::from_fen(fen)?;
        Ok(Position::from_setup(&setup, allowed)?)
    }

    /// The canonical FEN of this position (side `w`/`b`, `N`/`B` letters, both counters).
    pub fn fen(&self) -> String {
        self.to_setup().fen()
    }

    /// The FEN's board and side fields only (no counters), as many tools exchange it.
    pub fn board_fen(&self) -> String {
        let full = self.fen();
        full.splitn(3, ' ').take(2).collect::<Vec<_>>().join(" ")
    }
}

impl Setup {
    /// The FEN of this setup.
    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for r in (0..10).rev() {
            let mut empty = 0;
            for f in 0..9 {
                match self.board[Square::from_index_unchecked(r * 9 + f).index()] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if r > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.side_to_move.fen_char());
        s.push_str(&format!(
            " - - {} {}",
            self.halfmove_clock, self.fullmove_number
        ));
        s
    }
}

impl core::str::FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}
