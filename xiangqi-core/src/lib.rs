#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![no_std]
#![forbid(unsafe_code)]

// Only `core` and `alloc`: the rules run wherever Rust does (`std` is for the tests).
extern crate alloc;
#[cfg(test)]
extern crate std;

mod fen;
mod game;
mod illegal;
mod movegen;
// A frozen copy of an old move generator, the reference the current one is checked against.
// It lives with the tests, not in `src/`, and is compiled into test builds only; it is a
// module of the library (not an integration test) because it reads the position's private
// board arrays and the crate's tables, as the generator it was copied from did.
#[cfg(test)]
#[path = "../tests/frozen/movegen.rs"]
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
pub use illegal::{IllegalMove, IllegalReason};
pub use moves::{Move, MoveList, MAX_MOVES};
pub use notation::NotationError;
pub use outcome::{BoardOutcome, EndReason};
pub use position::{Position, Undo, START_FEN};
pub use rules::{judge_repetition, DrawReason, RepetitionVerdict, RuleSet, Violation};
pub use setup::{Problems, Setup, SetupError};
pub use square::{File, Rank, Square};
pub use types::{Color, Piece, Role};
pub use uci::{ParseUciError, UciMove, UciMoveError};
