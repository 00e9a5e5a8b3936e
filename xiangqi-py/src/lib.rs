//! # xiangqi-py
//!
//! The Python module `xiangqi_rs` (distribution `xiangqi-rs`, built with maturin into an abi3
//! wheel for CPython 3.9+):
//! the rules of `xiangqi-core` (boards, moves, FEN, notation, the end of the game with the
//! repetition rules), records of `xiangqi-records` (every format it reads, with variations; PGN, XQF, UBB and
//! CBF written), the engine of
//! `xiangqi-search` and its game review (`review()`, annotating a record), the endgame tablebases of `xiangqi-egtb`, and encodings for machine
//! learning. Every error is a Python exception
//! (a `ValueError` subclass with the core's message), never a crash of the interpreter.
//!
//! The native module is `xiangqi_rs._xiangqi`; `python/xiangqi_rs/__init__.py` re-exports it and
//! adds the NumPy views, and `_xiangqi.pyi` types it.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod batch;
mod board;
mod encoding;
mod engine;
mod errors;
mod moves;
mod outcome;
mod records;
mod review;
mod tablebase;

use pyo3::prelude::*;

/// The native module.
#[pymodule]
#[pyo3(name = "_xiangqi")]
fn xiangqi_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("RED", true)?;
    m.add("BLACK", false)?;
    m.add("STARTING_FEN", xiangqi_core::START_FEN)?;
    m.add("MOVE_TABLE_SIZE", encoding::MOVE_TABLE_SIZE)?;
    m.add_class::<moves::Move>()?;
    m.add_class::<moves::Piece>()?;
    m.add_class::<board::Board>()?;
    m.add_class::<outcome::Outcome>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<engine::SearchInfo>()?;
    m.add_class::<engine::SearchResult>()?;
    m.add_class::<engine::Analysis>()?;
    m.add_class::<records::Game>()?;
    m.add_class::<records::GameNode>()?;
    m.add_class::<records::Records>()?;
    m.add_class::<records::RecordWarning>()?;
    m.add_class::<tablebase::Tablebase>()?;
    m.add_class::<review::Review>()?;
    m.add_class::<review::MoveReview>()?;
    m.add_class::<review::SideSummary>()?;
    m.add_function(wrap_pyfunction!(review::review, m)?)?;
    m.add_function(wrap_pyfunction!(moves::square, m)?)?;
    m.add_function(wrap_pyfunction!(moves::square_name, m)?)?;
    m.add_function(wrap_pyfunction!(moves::parse_square, m)?)?;
    m.add_function(wrap_pyfunction!(batch::move_table, m)?)?;
    m.add_function(wrap_pyfunction!(batch::encode_boards, m)?)?;
    m.add_function(wrap_pyfunction!(batch::legal_move_masks, m)?)?;
    m.add_function(wrap_pyfunction!(records::read_pgn, m)?)?;
    m.add_function(wrap_pyfunction!(records::read_xqf, m)?)?;
    m.add_function(wrap_pyfunction!(records::read_from_pgn, m)?)?;
    m.add_function(wrap_pyfunction!(records::read_from_xqf, m)?)?;
    m.add_function(wrap_pyfunction!(records::write_pgn, m)?)?;
    m.add_function(wrap_pyfunction!(records::read, m)?)?;
    m.add_function(wrap_pyfunction!(records::read_ubb, m)?)?;
    m.add_function(wrap_pyfunction!(records::read_cbf, m)?)?;
    m.add_function(wrap_pyfunction!(records::read_cbr, m)?)?;
    m.add_function(wrap_pyfunction!(records::write, m)?)?;
    m.add_function(wrap_pyfunction!(records::write_xqf, m)?)?;
    m.add_function(wrap_pyfunction!(records::write_ubb, m)?)?;
    m.add_function(wrap_pyfunction!(records::write_cbf, m)?)?;
    m.add_function(wrap_pyfunction!(records::ecco_name, m)?)?;
    m.add("XiangqiError", py.get_type::<errors::XiangqiError>())?;
    m.add("FenError", py.get_type::<errors::FenError>())?;
    m.add(
        "IllegalMoveError",
        py.get_type::<errors::IllegalMoveError>(),
    )?;
    m.add("NotationError", py.get_type::<errors::NotationError>())?;
    m.add("RecordError", py.get_type::<errors::RecordError>())?;
    m.add("PgnError", py.get_type::<errors::PgnError>())?;
    m.add("XqfError", py.get_type::<errors::XqfError>())?;
    m.add("TablebaseError", py.get_type::<errors::TablebaseError>())?;
    Ok(())
}
