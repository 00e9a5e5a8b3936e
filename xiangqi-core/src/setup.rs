//! `Setup`: any arrangement of pieces, before it is checked to be a legal position.

use crate::{Color, Piece, Role, Square};
use alloc::vec::Vec;
use bitflags::bitflags;
use core::fmt;

/// An arrangement of pieces with a side to move and move counters, not yet validated.
///
/// A `Setup` is also the builder for [`Position`](crate::Position): place pieces with
/// [`Setup::put`], then call [`Position::from_setup`](crate::Position::from_setup).
///
/// ```
/// use xiangqi_core::{Color, Piece, Position, Problems, Role, Setup, Square};
///
/// let pos = Setup::empty()
///     .put(Square::from_iccs("e0").unwrap(), Piece::new(Color::Red, Role::King))
///     .put(Square::from_iccs("d9").unwrap(), Piece::new(Color::Black, Role::King))
///     .put(Square::from_iccs("a0").unwrap(), Piece::new(Color::Red, Role::Chariot))
///     .side_to_move(Color::Red)
///     .build()?;
/// assert_eq!(pos.fen(), "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
/// # Ok::<_, xiangqi_core::SetupError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The piece on each square, indexed by [`Square::index`].
    pub board: [Option<Piece>; 90],
    /// Whose turn it is.
    pub side_to_move: Color,
    /// Plies since the last capture (FEN field 5).
    pub halfmove_clock: u32,
    /// The move number, starting at 1 and counting up after each black move (FEN field 6).
    pub fullmove_number: u32,
}

impl Setup {
    /// An empty board, red to move.
    pub fn empty() -> Setup {
        Setup {
            board: [None; 90],
            side_to_move: Color::Red,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }

    /// Places `piece` on `square` (replacing what was there).
    #[must_use]
    pub fn put(mut self, square: Square, piece: Piece) -> Setup {
        self.board[square.index()] = Some(piece);
        self
    }

    /// Empties `square`.
    #[must_use]
    pub fn remove(mut self, square: Square) -> Setup {
        self.board[square.index()] = None;
        self
    }

    /// Sets the side to move.
    #[must_use]
    pub fn side_to_move(mut self, color: Color) -> Setup {
        self.side_to_move = color;
        self
    }

    /// Sets the move counters.
    #[must_use]
    pub fn counters(mut self, halfmove_clock: u32, fullmove_number: u32) -> Setup {
        self.halfmove_clock = halfmove_clock;
        self.fullmove_number = fullmove_number;
        self
    }

    /// Every problem that stops this setup from being a legal xiangqi position.
    pub fn problems(&self) -> Problems {
        let mut p = Problems::empty();
        let mut counts = [[0u8; 7]; 2];
        let mut kings: [Option<Square>; 2] = [None, None];
        for sq in Square::all() {
            let Some(piece) = self.board[sq.index()] else {
                continue;
            };
            let c = piece.color.index();
            counts[c][piece.role.index()] += 1;
            if piece.role == Role::King {
                kings[c] = Some(sq);
            }
            if !crate::tables::reachable(c, piece.role.index(), sq.index()) {
                p |= match piece.role {
                    Role::King => Problems::KING_OUTSIDE_PALACE,
                    Role::Advisor => Problems::ADVISOR_OFF_POINTS,
                    Role::Elephant => Problems::ELEPHANT_OFF_POINTS,
                    _ => Problems::PAWN_OFF_POINTS,
                };
            }
        }
        for side in &counts {
            match side[Role::King.index()] {
                0 => p |= Problems::MISSING_KING,
                1 => {}
                _ => p |= Problems::TOO_MANY_KINGS,
            }
            for role in Role::ALL {
                if role != Role::King && side[role.index()] > role.max_count() {
                    p |= Problems::TOO_MANY_PIECES;
                }
            }
        }
        if p.intersects(Problems::MISSING_KING | Problems::TOO_MANY_KINGS) {
            return p;
        }
        let (Some(red), Some(black)) = (kings[0], kings[1]) else {
            return p;
        };
        if red.file() == black.file() {
            let lo = red.rank().index().min(black.rank().index());
            let hi = red.rank().index().max(black.rank().index());
            let blocked = (lo + 1..hi)
                .any(|r| self.board[(r as usize) * 9 + red.file().index() as usize].is_some());
            if !blocked {
                p |= Problems::GENERALS_FACING;
            }
        }
        p
    }
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::empty()
    }
}

bitflags! {
    /// What can be wrong with a [`Setup`]. A [`SetupError`] carries all that apply.
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
    pub struct Problems: u16 {
        /// A side has no general. Cannot be ignored.
        const MISSING_KING = 1 << 0;
        /// A side has more than one general. Cannot be ignored.
        const TOO_MANY_KINGS = 1 << 1;
        /// A general stands outside its palace. Cannot be ignored.
        const KING_OUTSIDE_PALACE = 1 << 2;
        /// An advisor stands off its five palace points.
        const ADVISOR_OFF_POINTS = 1 << 3;
        /// An elephant stands off its seven points.
        const ELEPHANT_OFF_POINTS = 1 << 4;
        /// A pawn stands where a pawn can never be (behind its starting rank, or on an odd file before the river).
        const PAWN_OFF_POINTS = 1 << 5;
        /// More than two advisors, elephants, horses, chariots or cannons, or more than five pawns, of one colour.
        const TOO_MANY_PIECES = 1 << 6;
        /// The generals face each other on an open file.
        const GENERALS_FACING = 1 << 7;
        /// The side that is not to move is in check (it could be captured).
        const OPPONENT_IN_CHECK = 1 << 8;
    }
}

impl Problems {
    /// Stable, machine-readable names of the problems, one per flag set, in the order the
    /// flags are declared (`missing_general`, `generals_facing`, ...): for programs that say
    /// them in their own words or language.
    ///
    /// ```
    /// use xiangqi_core::Problems;
    /// let p = Problems::GENERALS_FACING | Problems::MISSING_KING;
    /// assert_eq!(p.codes(), ["missing_general", "generals_facing"]);
    /// // Every flag has its code.
    /// assert_eq!(Problems::all().codes().len(), Problems::all().bits().count_ones() as usize);
    /// ```
    pub fn codes(self) -> Vec<&'static str> {
        const CODES: [(Problems, &str); 9] = [
            (Problems::MISSING_KING, "missing_general"),
            (Problems::TOO_MANY_KINGS, "too_many_generals"),
            (Problems::KING_OUTSIDE_PALACE, "general_outside_palace"),
            (Problems::ADVISOR_OFF_POINTS, "advisor_off_points"),
            (Problems::ELEPHANT_OFF_POINTS, "elephant_off_points"),
            (Problems::PAWN_OFF_POINTS, "pawn_off_points"),
            (Problems::TOO_MANY_PIECES, "too_many_pieces"),
            (Problems::GENERALS_FACING, "generals_facing"),
            (Problems::OPPONENT_IN_CHECK, "opponent_in_check"),
        ];
        CODES
            .iter()
            .filter(|(flag, _)| self.contains(*flag))
            .map(|(_, code)| *code)
            .collect()
    }

    /// Problems that make a position impossible to play at all; they cannot be ignored.
    pub const FATAL: Problems = Problems::MISSING_KING
        .union(Problems::TOO_MANY_KINGS)
        .union(Problems::KING_OUTSIDE_PALACE);
}

/// A setup that is not a legal position, with every problem found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    /// Everything wrong with the setup.
    pub problems: Problems,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("illegal setup:")?;
        let names: &[(Problems, &str)] = &[
            (Problems::MISSING_KING, "a side has no general"),
            (Problems::TOO_MANY_KINGS, "a side has more than one general"),
            (
                Problems::KING_OUTSIDE_PALACE,
                "a general is outside its palace",
            ),
            (Problems::ADVISOR_OFF_POINTS, "an advisor is off its points"),
            (
                Problems::ELEPHANT_OFF_POINTS,
                "an elephant is off its points",
            ),
            (Problems::PAWN_OFF_POINTS, "a pawn is where no pawn can be"),
            (Problems::TOO_MANY_PIECES, "too many pieces of one kind"),
            (Problems::GENERALS_FACING, "the generals face each other"),
            (
                Problems::OPPONENT_IN_CHECK,
                "the side not to move is in check",
            ),
        ];
        let mut first = true;
        for (flag, name) in names {
            if self.problems.contains(*flag) {
                write!(f, "{} {}", if first { "" } else { ";" }, name)?;
                first = false;
            }
        }
        Ok(())
    }
}

impl core::error::Error for SetupError {}
