//! # xiangqi
//!
//! Chinese chess (象棋) for Rust: the rules, a strong engine, notation and game records.
//!
//! This facade crate re-exports the workspace's crates:
//!
//! - [`core`] (`xiangqi-core`): squares, pieces, moves, positions, FEN, legal move
//!   generation, Zobrist hashing, perft, notation and game rules.
//! - [`eval`] (`xiangqi-eval`): the [`eval::Evaluator`] trait and the default evaluator.
//! - [`search`] (`xiangqi-search`): the engine.
//! - [`records`] (`xiangqi-records`): PGN and XQF game records.
//! - [`book`] (`xiangqi-book`): an opening book from 27,704 master games.
//! - [`nnue`] (`xiangqi-nnue`): an NNUE evaluator and the pipeline that trains it.
//! - [`egtb`] (`xiangqi-egtb`): endgame tablebases with distance to mate.
//!
//! ```
//! use xiangqi::core::Position;
//!
//! let pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 44);
//! ```
#![deny(missing_docs)]

// The README's examples are compiled and run as doctests of this crate.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

pub use xiangqi_book as book;
pub use xiangqi_core as core;
pub use xiangqi_egtb as egtb;
pub use xiangqi_eval as eval;
pub use xiangqi_nnue as nnue;
pub use xiangqi_records as records;
pub use xiangqi_search as search;
