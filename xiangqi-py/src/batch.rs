//! The batch functions for machine learning: many boards encoded at once, and the move table
//! itself (the encodings are in `encoding.rs`).

use crate::board::Board;
use crate::encoding::{legal_mask, piece_codes, MOVE_TABLE_SIZE};
use crate::moves::Move;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Every move of the fixed move table, in index order.
#[pyfunction]
pub fn move_table() -> Vec<Move> {
    crate::encoding::move_table_moves()
        .iter()
        .copied()
        .map(Move)
        .collect()
}

/// The piece codes of many boards at once: `len(boards) * 90` bytes, each board as
/// `Board.piece_codes()` gives it.
#[pyfunction]
pub fn encode_boards<'py>(py: Python<'py>, boards: Vec<PyRef<'py, Board>>) -> Bound<'py, PyBytes> {
    let mut out = Vec::with_capacity(boards.len() * 90);
    for b in &boards {
        out.extend_from_slice(&piece_codes(b.pos()));
    }
    PyBytes::new(py, &out)
}

/// The legal-move masks of many boards at once: `len(boards) * MOVE_TABLE_SIZE` bytes.
#[pyfunction]
pub fn legal_move_masks<'py>(
    py: Python<'py>,
    boards: Vec<PyRef<'py, Board>>,
) -> Bound<'py, PyBytes> {
    let mut out = Vec::with_capacity(boards.len() * MOVE_TABLE_SIZE);
    for b in &boards {
        out.extend_from_slice(&legal_mask(b.pos()));
    }
    PyBytes::new(py, &out)
}
