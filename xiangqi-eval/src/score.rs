//! The score type shared by evaluators and the search.

use core::fmt;

/// A score in centipawn-like units (a pawn before the river is about 100) from the point of
/// view of the side to move, with room above [`Score::MATE_BOUND`] for mate scores.
///
/// ```
/// use xiangqi_eval::Score;
/// assert_eq!(Score::mate_in(3).mate_moves(), Some(2));
/// assert_eq!(Score::mated_in(2).mate_moves(), Some(-1));
/// assert_eq!(Score(35).to_string(), "cp 35");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub i32);

impl Score {
    /// A balanced position (also the score of a draw).
    pub const ZERO: Score = Score(0);
    /// The score of a draw.
    pub const DRAW: Score = Score(0);
    /// Mate at the root: the side to move has already won (not reachable; mates are `MATE - ply`).
    pub const MATE: Score = Score(30_000);
    /// The deepest ply a search reaches; scores beyond `MATE - MAX_PLY` are mates.
    pub const MAX_PLY: i32 = 256;
    /// Scores at or above this (or at or below its negation) are mate scores.
    pub const MATE_BOUND: Score = Score(30_000 - Score::MAX_PLY);
    /// Larger than any score: the search's window bounds.
    pub const INFINITE: Score = Score(32_000);

    /// The score of mating in `ply` plies from here.
    #[inline]
    pub const fn mate_in(ply: i32) -> Score {
        Score(Score::MATE.0 - ply)
    }

    /// The score of being mated in `ply` plies from here.
    #[inline]
    pub const fn mated_in(ply: i32) -> Score {
        Score(-Score::MATE.0 + ply)
    }

    /// Is this a mate score (either side)?
    #[inline]
    pub const fn is_mate(self) -> bool {
        self.0 >= Score::MATE_BOUND.0 || self.0 <= -Score::MATE_BOUND.0
    }

    /// Mate in full moves, as UCI prints it: positive when the side to move mates, negative
    /// when it is mated; `None` for a normal score.
    pub const fn mate_moves(self) -> Option<i32> {
        if self.0 >= Score::MATE_BOUND.0 {
            Some((Score::MATE.0 - self.0 + 1) / 2)
        } else if self.0 <= -Score::MATE_BOUND.0 {
            Some(-(Score::MATE.0 + self.0) / 2)
        } else {
            None
        }
    }
}

impl core::ops::Neg for Score {
    type Output = Score;
    #[inline]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl core::ops::Add<i32> for Score {
    type Output = Score;
    #[inline]
    fn add(self, rhs: i32) -> Score {
        Score(self.0 + rhs)
    }
}

impl core::ops::Sub<i32> for Score {
    type Output = Score;
    #[inline]
    fn sub(self, rhs: i32) -> Score {
        Score(self.0 - rhs)
    }
}

/// UCI style: `cp 35` or `mate -2`.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mate_moves() {
            Some(m) => write!(f, "mate {m}"),
            None => write!(f, "cp {}", self.0),
        }
    }
}
