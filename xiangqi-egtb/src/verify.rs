//! Self-verification: every position's stored value must be the best over its legal
//! moves, found with the core's rules (`xiangqi_core::Position`), not the generator's board.
//!
//! Why this proves a table right: a position without a legal move must be stored as lost
//! in 0; a position stored as won in `d` must have a move into one stored as lost in
//! `d - 1`, and one stored as lost in `d` must have every move go to a stored win, the
//! longest in `d - 1`. By induction on `d`, every stored result is a real forced mate of
//! that length, and every real mate of length `d` is stored as such (its mating move
//! leads to a position whose real and so stored value is a loss in `d - 1`, and nothing
//! shorter exists). What is left is stored as a draw exactly when no move wins.

use crate::format::FormatError;
use crate::generate::TableData;
use crate::material::Material;
use crate::probe::Tablebase;
use crate::stats::position_of;
use crate::value::Dtm;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use xiangqi_core::{Color, Position};

/// What a verification found.
#[derive(Clone, Debug, serde::Serialize)]
pub struct VerifyReport {
    /// The ending.
    pub name: String,
    /// Positions checked (both sides to move).
    pub checked: u64,
    /// Positions whose value is not the best over their moves.
    pub mismatches: u64,
    /// Up to ten of them: FEN, stored value, value from the moves.
    pub examples: Vec<String>,
}

/// The value of a position as its moves give it: `table` for moves that stay in this
/// material, `subs` for captures.
fn value_from_moves(
    pos: &Position,
    table: &TableData,
    subs: &Tablebase,
) -> Result<Option<Dtm>, FormatError> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Ok(Some(Dtm::Loss(0)));
    }
    let mut best: Option<Dtm> = None;
    for m in moves {
        let mut after = pos.clone();
        after.make_move(m);
        let v = if after.piece_count() == pos.piece_count() {
            lookup(&after, table)
        } else {
            subs.probe_dtm(&after)?
        };
        let Some(v) = v else {
            return Ok(None);
        };
        let mine = v.before();
        if best.is_none_or(|b| mine.preference() > b.preference()) {
            best = Some(mine);
        }
    }
    Ok(best)
}

/// A position of the table's own material, looked up in memory.
fn lookup(pos: &Position, table: &TableData) -> Option<Dtm> {
    let (pieces, side) = crate::index::table_orientation(pos, Material::of(pos));
    Dtm::from_byte(table.byte_of_pieces(&pieces, side)?)
}

/// Checks the positions of a table whose index is a multiple of `step` (1: every one),
/// both sides to move, with its captures probed in `subs`.
///
/// # Errors
/// [`FormatError`] when a sub-table cannot be read.
pub fn verify_table(
    table: &TableData,
    subs: &Tablebase,
    step: u64,
) -> Result<VerifyReport, FormatError> {
    let n = table.size();
    let step = step.max(1);
    let checked = AtomicU64::new(0);
    let mismatches = AtomicU64::new(0);
    let examples = Mutex::new(Vec::new());
    let error: Mutex<Option<FormatError>> = Mutex::new(None);
    let count = n.div_ceil(step);
    (0..count).into_par_iter().for_each(|k| {
        let idx = k * step;
        // The larger index of a position with both generals on file e stands for nothing.
        if !table
            .layout
            .is_canonical_index(idx, &table.layout.decode(idx))
        {
            return;
        }
        for side in Color::ALL {
            let Some(pos) = position_of(table, idx, side) else {
                continue;
            };
            // Only legal positions: the side not to move may not be in check.
            let us = pos.side_to_move();
            if pos.is_attacked(pos.king_square(us.other()), us) {
                continue;
            }
            checked.fetch_add(1, Relaxed);
            let stored = Dtm::from_byte(table.byte(side, idx));
            let expected = match value_from_moves(&pos, table, subs) {
                Ok(v) => v,
                Err(e) => {
                    *error.lock().expect("no panic holds the lock") = Some(e);
                    return;
                }
            };
            if stored != expected {
                mismatches.fetch_add(1, Relaxed);
                let mut ex = examples.lock().expect("no panic holds the lock");
                if ex.len() < 10 {
                    ex.push(format!(
                        "{}: stored {:?}, from the moves {:?}",
                        pos.fen(),
                        stored,
                        expected
                    ));
                }
            }
        }
    });
    if let Some(e) = error.into_inner().expect("no panic holds the lock") {
        return Err(e);
    }
    Ok(VerifyReport {
        name: table.material().to_string(),
        checked: checked.into_inner(),
        mismatches: mismatches.into_inner(),
        examples: examples.into_inner().expect("no panic holds the lock"),
    })
}
