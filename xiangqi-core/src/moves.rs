//! Moves and move lists.

use crate::Square;
use arrayvec::ArrayVec;
use core::fmt;
use core::num::NonZeroU16;

/// A move: a from-square and a to-square, packed into 16 bits.
///
/// Xiangqi has no promotions, castling or drops, so the two squares say everything.
/// The stored value is `from | to << 7 | 0x8000`: the top bit, always set, makes it
/// nonzero for the compiler too (the generators build moves without a zero test), and
/// `Option<Move>` is as small as `Move`. [`Move::to_u16`] gives the 14 bits without it.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(NonZeroU16);

/// The bit every stored move has set (see [`Move`]).
const SET: u16 = 0x8000;

impl Move {
    /// The move from `from` to `to`.
    ///
    /// # Panics
    /// When `from == to` (not a move).
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        let packed = from.index() as u16 | (to.index() as u16) << 7 | SET;
        match NonZeroU16::new(packed) {
            Some(v) if from.index() != to.index() => Move(v),
            _ => panic!("a move needs two different squares"),
        }
    }

    /// The move between two square indices the caller knows to differ (the generators):
    /// no panic path. Equal indices give an unspecified move, never undefined behaviour.
    #[inline(always)]
    pub(crate) const fn from_distinct(from: usize, to: usize) -> Move {
        debug_assert!(from != to);
        let packed = from as u16 | (to as u16) << 7 | SET;
        match NonZeroU16::new(packed) {
            Some(v) => Move(v),
            None => Move(NonZeroU16::MIN),
        }
    }

    /// The move from `from` to `to`, or `None` when the squares are equal.
    #[inline]
    pub const fn try_new(from: Square, to: Square) -> Option<Move> {
        if from.index() == to.index() {
            None
        } else {
            Some(Move::new(from, to))
        }
    }

    /// Where the piece starts.
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0.get() & 0x7f) as u8)
    }

    /// Where the piece lands.
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0.get() >> 7) as u8 & 0x7f)
    }

    /// The 14-bit packed value (`from | to << 7`), useful as a table index or for storage.
    #[inline]
    pub const fn to_u16(self) -> u16 {
        self.0.get() & !SET
    }

    /// Unpacks a value made by [`Move::to_u16`]; `None` if it is not a move.
    pub const fn from_u16(v: u16) -> Option<Move> {
        let from = (v & 0x7f) as u8;
        let to = ((v >> 7) & 0x7f) as u8;
        if v >> 14 != 0 || from >= 90 || to >= 90 || from == to {
            return None;
        }
        Some(Move::new(
            Square::from_index_unchecked(from),
            Square::from_index_unchecked(to),
        ))
    }

    /// The move mirrored left-right.
    pub const fn flip_horizontal(self) -> Move {
        Move::new(self.from().flip_horizontal(), self.to().flip_horizontal())
    }

    /// The move mirrored top-bottom.
    pub const fn flip_vertical(self) -> Move {
        Move::new(self.from().flip_vertical(), self.to().flip_vertical())
    }
}

/// Formats as ICCS/UCI coordinates: `h2e2`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

/// The most legal moves a xiangqi position can have is below 128:
/// two chariots and two cannons reach at most 17 points each (8 + 9 on their lines, 68),
/// two horses 8 each (16), five pawns 3 each (15), two elephants 4 each (8),
/// two advisors at most 4 + 1 (the centre advisor and a corner one, 5), the general 4:
/// 116 in all. Pseudo-legal lists obey the same bound.
pub const MAX_MOVES: usize = 128;

/// A list of moves stored inline (no heap allocation), with room for [`MAX_MOVES`].
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

#[cfg(test)]
mod tests {
    use super::Move;
    use crate::Square;

    /// `to_u16` is the 14-bit packing `from | to << 7` (the stored top bit left out), and
    /// `from_u16` inverts it.
    #[test]
    fn to_u16_is_the_fourteen_bit_packing() {
        for from in Square::all() {
            for to in Square::all() {
                let Some(m) = Move::try_new(from, to) else {
                    continue;
                };
                let v = m.to_u16();
                assert_eq!(v, from.index() as u16 | (to.index() as u16) << 7);
                assert_eq!(Move::from_u16(v), Some(m));
                assert_eq!((m.from(), m.to()), (from, to));
            }
        }
    }
}
