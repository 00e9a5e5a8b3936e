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
//!
//! **Under the perpetual-check rule** (tables where both sides can attack) a value is
//! *consistent* with its moves when, besides the above for the values without the rule
//! (each rule value counted as a draw there):
//! - its win/draw/loss is the best over its moves, the rule's values counted as wins and
//!   losses;
//! - a win by the rule with rank `k` has a move to a loss by the rule of rank below `k`
//!   in the same table, or a capture into a won position;
//! - every move of a loss by the rule of rank `k` goes to a rank below `k`, except when
//!   the loser is not in check and `k` is a core rank: then to a rank no higher than the
//!   top of `k`'s core (see [`crate::rules`]);
//! - a win by the rule with a core rank has the winner in check.
//!
//! These make the ranks a proof: along the winner's moves to the lowest rank, every
//! repetition stays in one core, where every move of the loser gives check and some move
//! of the winner does not, so the repetition judge rules the loser lost; and any other
//! play ends in a capture into a table proven the same way or in a mate. Draws are
//! checked for consistency only: that no side can force a win by the rule from them rests
//! on the algorithm (and is compared with FelicityEgtb and played out in the tests).

use crate::format::FormatError;
use crate::generate::TableData;
use crate::material::Material;
use crate::probe::Tablebase;
use crate::rules;
use crate::stats::position_of;
use crate::value::{Dtm, Wdl};
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

/// What is wrong with a stored value, judged by the position's moves (`table` for moves
/// that stay in this material, `subs` for captures); `None` when it is right.
fn check_value(
    pos: &Position,
    stored: Dtm,
    table: &TableData,
    subs: &Tablebase,
) -> Result<Option<String>, FormatError> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Ok((stored != Dtm::Loss(0)).then(|| "no legal move: loss 0".to_string()));
    }
    // Each move's value for the mover, and whether it stays in this table.
    let mut after_moves = Vec::with_capacity(moves.len());
    for m in moves {
        let mut after = pos.clone();
        after.make_move(m);
        let inside = after.piece_count() == pos.piece_count();
        let v = if inside {
            lookup(&after, table)
        } else {
            subs.probe_dtm(&after)?
        };
        let Some(v) = v else {
            return Ok(Some(format!("{m} leads to a position without a value")));
        };
        after_moves.push((m, v.before(), inside));
    }
    let best_naive = after_moves
        .iter()
        .map(|&(_, v, _)| v.naive())
        .max_by_key(|v| v.preference())
        .expect("a move");
    if stored.naive() != best_naive {
        return Ok(Some(format!(
            "from the moves without the rule {best_naive:?}"
        )));
    }
    let wdl_rank = |w: Wdl| match w {
        Wdl::Win => 2,
        Wdl::Draw => 1,
        Wdl::Loss => 0,
    };
    let best = after_moves
        .iter()
        .map(|&(_, v, _)| v.wdl())
        .max_by_key(|&w| wdl_rank(w))
        .expect("a move");
    if stored.wdl() != best {
        return Ok(Some(format!("from the moves {best}")));
    }
    let in_check = pos.is_check();
    match stored {
        // The winner has a move that makes progress: to a lower rank, or out of the table.
        Dtm::WinByRule(k) => {
            if !in_check && rules::is_core(k) {
                return Ok(Some(
                    "a core position with the winner to move not in check".to_string(),
                ));
            }
            let progress = after_moves.iter().any(|&(_, v, inside)| match v {
                Dtm::WinByRule(j) => !inside || j < k,
                Dtm::Win(_) => !inside,
                _ => false,
            });
            if !progress {
                return Ok(Some(format!("no winning move to a rank below {k}")));
            }
        }
        // Every move of the loser lowers the rank, except from a core position where it
        // did not stand in check (the winner's move was no check): there its moves stay
        // within the core of its stage.
        Dtm::LossByRule(k) => {
            for &(m, v, inside) in &after_moves {
                if let (Dtm::LossByRule(j), true) = (v, inside) {
                    let free = !in_check && rules::is_core(k);
                    let ok = j < k || (free && j <= rules::core_ceiling(k));
                    if !ok {
                        return Ok(Some(format!("{m} goes to rank {j} from rank {k}")));
                    }
                }
            }
        }
        _ => {}
    }
    Ok(None)
}

/// A position of the table's own material, looked up in memory.
fn lookup(pos: &Position, table: &TableData) -> Option<Dtm> {
    let (pieces, side) = crate::index::table_orientation(pos, Material::of(pos));
    Dtm::from_entry(table.entry_of_pieces(&pieces, side)?)
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
            let Some(stored) = Dtm::from_entry(table.entry(side, idx)) else {
                mismatches.fetch_add(1, Relaxed);
                return;
            };
            let wrong = match check_value(&pos, stored, table, subs) {
                Ok(w) => w,
                Err(e) => {
                    *error.lock().expect("no panic holds the lock") = Some(e);
                    return;
                }
            };
            if let Some(expected) = wrong {
                mismatches.fetch_add(1, Relaxed);
                let mut ex = examples.lock().expect("no panic holds the lock");
                if ex.len() < 10 {
                    ex.push(format!("{}: stored {:?}, {}", pos.fen(), stored, expected));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{RULE_FLAG, RULE_WIN};

    /// Tampering with one rule entry makes verification fail: the check can fail.
    #[test]
    fn a_wrong_rank_or_a_made_up_rule_win_is_caught() {
        let dir = tempfile::tempdir().unwrap();
        let m: Material = "krkn".parse().unwrap();
        crate::generate_into(dir.path(), &[m], false, &mut |_| {}).unwrap();
        let tb = Tablebase::open(dir.path()).unwrap();
        let good = TableData::load(&crate::table_path(dir.path(), m)).unwrap();
        assert_eq!(verify_table(&good, &tb, 1).unwrap().mismatches, 0);
        let find = |want: fn(u16) -> bool, side: Color| {
            (0..good.size())
                .find(|&i| {
                    want(good.entry(side, i))
                        && position_of(&good, i, side).is_some_and(|p| {
                            let us = p.side_to_move();
                            !p.is_attacked(p.king_square(us.other()), us)
                        })
                })
                .expect("such an entry")
        };
        let win = find(
            |e| e & (RULE_FLAG | RULE_WIN) == RULE_FLAG | RULE_WIN,
            Color::Red,
        );
        let draw = find(|e| e == 0, Color::Red);
        for (idx, entry) in [
            // A win by the rule at rank 0: no move can lower it.
            (win, RULE_FLAG | RULE_WIN),
            // A draw made a win by the rule.
            (draw, RULE_FLAG | RULE_WIN | 700),
        ] {
            let mut bad = good.clone();
            bad.ruled.as_mut().unwrap()[Color::Red.index()][idx as usize] = entry;
            let r = verify_table(&bad, &tb, 1).unwrap();
            assert!(r.mismatches >= 1, "{entry:#x} at {idx} passed");
        }
    }
}
