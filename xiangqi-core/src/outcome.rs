//! The end of a game as the board alone decides it.

use crate::{Color, Position};
use core::fmt;

/// Why a side without legal moves has lost.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// In check with no legal move (将死).
    Checkmate,
    /// Not in check, but no legal move (困毙): also a loss in xiangqi.
    Stalemate,
}

/// A finished game by the board alone: the side to move has no legal move and loses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BoardOutcome {
    /// The side that wins.
    pub winner: Color,
    /// How.
    pub reason: EndReason,
}

impl fmt::Display for BoardOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let how = match self.reason {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
        };
        write!(f, "{} wins by {how}", self.winner)
    }
}

impl Position {
    /// `Some` when the side to move has no legal move (and so has lost), saying whether it
    /// is checkmate or stalemate; `None` while the game goes on. Repetition and move-limit
    /// rules need the game's history: see [`crate::Game`].
    ///
    /// ```
    /// use xiangqi_core::{Color, EndReason, Position};
    /// let pos = Position::from_fen("3k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1")?;
    /// let end = pos.outcome().unwrap();
    /// assert_eq!((end.winner, end.reason), (Color::Red, EndReason::Stalemate));
    /// # Ok::<_, xiangqi_core::FenError>(())
    /// ```
    pub fn outcome(&self) -> Option<BoardOutcome> {
        if self.has_legal_move() {
            return None;
        }
        Some(BoardOutcome {
            winner: self.side_to_move().other(),
            reason: if self.is_check() {
                EndReason::Checkmate
            } else {
                EndReason::Stalemate
            },
        })
    }
}
