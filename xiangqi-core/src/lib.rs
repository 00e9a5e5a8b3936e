//! # xiangqi-core
//!
//! The rules of xiangqi (Chinese chess, 象棋): squares, pieces, moves, positions, FEN,
//! legal move generation with every rule (horse leg 蹩马腿, elephant eye 塞象眼 and the
//! river, the palace, pawns crossing the river, cannon screens, flying general 将帅照面, no
//! move that leaves one's own general attacked), make/unmake, incremental Zobrist keys,
//! perft, and the end of the game by the board alone.
//!
//! ```
//! use xiangqi_core::{Position, Square};
//!
//! let mut pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 44);
//! let m = pos.parse_uci("h2e2")?; // 炮二平五
//! pos.play(m)?;
//! assert_eq!(pos.piece_at(Square::from_iccs("e2").unwrap()).unwrap().char(), 'C');
//! assert_eq!(Position::startpos().perft(3), 79_666);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! Coordinates follow ICCS/UCI: files `a`–`i` from red's left, ranks `0`–`9` from red's
//! back rank; square index `rank * 9 + file`.
#![deny(missing_docs)]
#![no_std]
#![forbid(unsafe_code)]

// Only `core` and `alloc`: the rules run wherever Rust does (`std` is for the tests).
extern crate alloc;
#[cfg(test)]
extern crate std;

mod fen;
mod game;
mod movegen;
#[cfg(test)]
mod movegen_frozen;
mod moves;
mod notation;
mod outcome;
mod perft;
mod position;
mod rules;
mod see;
#[cfg(feature = "serde")]
mod serde_impls;
mod setup;
mod square;
mod tables;
#[cfg(test)]
mod test_support;
mod types;
mod uci;
pub mod zobrist;

pub use fen::FenError;
pub use game::{Game, GameEndReason, GameOutcome, COUNTED_CHECKS, MOVE_LIMIT_PLIES};
pub use moves::{Move, MoveList, MAX_MOVES};
pub use notation::NotationError;
pub use outcome::{BoardOutcome, EndReason};
pub use position::{IllegalMove, Position, Undo, START_FEN};
pub use rules::{judge_repetition, DrawReason, RepetitionVerdict, RuleSet, Violation};
pub use setup::{Problems, Setup, SetupError};
pub use square::{File, Rank, Square};
pub use types::{Color, Piece, Role};
pub use uci::{ParseUciError, UciMove, UciMoveError};
