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
use crate::index::{flip, oriented_pieces, Placement};
use crate::material::Material;
use crate::probe::Tablebase;
use crate::rules;
use crate::stats::{position_of, position_of_placement};
use crate::table::TableData;
use crate::value::{Dtm, Wdl};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use xiangqi_core::{Color, Move, MoveList, Position, Role, MAX_MOVES};

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

/// One move's value for the mover, and whether it stays in this table.
type MoveValues = arrayvec::ArrayVec<(Move, Dtm, bool), MAX_MOVES>;

/// What is wrong with a stored value, judged by the position's moves (`table` for moves
/// that stay in this material, `subs` for captures); `None` when it is right. `base`:
/// `pos`'s pieces in the table's slots, for a quick index of each move that captures
/// nothing (without it such a move is played and its position looked up in full). `pos`
/// is played on and taken back (make/unmake, no copy), and left as it was.
fn check_value(
    pos: &mut Position,
    base: Option<&Slots>,
    stored: Dtm,
    table: &TableData,
    subs: &Subs,
) -> Result<Option<String>, FormatError> {
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    if moves.is_empty() {
        return Ok((stored != Dtm::Loss(0)).then(|| "no legal move: loss 0".to_string()));
    }
    let in_check = pos.is_check();
    let them = pos.side_to_move().other();
    // Each move's value for the mover, and whether it stays in this table.
    let mut after_moves = MoveValues::new();
    for &m in &moves {
        let inside = pos.piece_at(m.to()).is_none();
        let v = match (base, inside) {
            (Some(base), true) => base.after(m, them, table),
            _ => {
                let undo = pos.make_move(m);
                let v = if inside {
                    Ok(lookup(pos, table))
                } else {
                    subs.probe_dtm(pos)
                };
                pos.unmake_move(m, undo);
                v?
            }
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

/// The tables a capture leads into: loaded whole (decompressed, as the table checked is)
/// and looked up in memory, the rest probed through the folder's [`Tablebase`].
struct Subs<'a> {
    loaded: Vec<(Material, TableData)>,
    tablebase: &'a Tablebase,
}

impl Subs<'_> {
    /// [`Tablebase::probe_dtm`], from memory for a loaded table.
    fn probe_dtm(&self, pos: &Position) -> Result<Option<Dtm>, FormatError> {
        let material = Material::of(pos);
        if material.is_dead_draw() {
            return Ok(Some(Dtm::Draw));
        }
        let canonical = material.canonical();
        let Some((_, table)) = self.loaded.iter().find(|(m, _)| *m == canonical) else {
            return self.tablebase.probe_dtm(pos);
        };
        // As `probe_dtm`: the side not to move in check is outside every table.
        let us = pos.side_to_move();
        if pos.is_attacked(pos.king_square(us.other()), us) {
            return Ok(None);
        }
        let swap = !material.is_canonical();
        let pieces: arrayvec::ArrayVec<(Color, Role, u8), 32> =
            oriented_pieces(pos, swap).collect();
        let side = if swap { us.other() } else { us };
        Ok(table
            .entry_of_pieces(&pieces, side)
            .and_then(Dtm::from_entry))
    }
}

/// A position of the table's material as the table's slots hold it (turned round when the
/// material is not the table's orientation), with the slot of each point.
struct Slots {
    placement: Placement,
    /// The placement's index (its generals in the table's orientation: a position read
    /// from the table, so a move other than a general's keeps it).
    idx: u64,
    slot_of: [u8; 90],
    swap: bool,
}

impl Slots {
    /// The slots of the position the table's index `idx` decodes to (`placement`): the
    /// position checked is built from it, so it holds the same pieces on the same points.
    fn decoded(placement: &Placement, idx: u64, table: &TableData) -> Option<Slots> {
        let swap = !table.material().is_canonical();
        let placement = *placement;
        // Generals in the other orientation (never from a decoded index): no quick way.
        if swap || !crate::index::is_canonical_kings(placement.squares[0], placement.squares[1]) {
            return None;
        }
        let mut slot_of = [u8::MAX; 90];
        for (slot, &sq) in placement.squares.iter().enumerate() {
            if let Some(s) = slot_of.get_mut(usize::from(sq)) {
                *s = slot as u8;
            }
        }
        Some(Slots {
            placement,
            idx,
            slot_of,
            swap,
        })
    }

    /// The stored value after `m`, a move that captures nothing, with `side` to move then.
    #[inline]
    fn after(&self, m: Move, side: Color, table: &TableData) -> Option<Dtm> {
        let point = |sq: xiangqi_core::Square| {
            let sq = sq.index() as u8;
            if self.swap {
                flip(sq)
            } else {
                sq
            }
        };
        let slot = *self.slot_of.get(usize::from(point(m.from())))?;
        let mut placement = self.placement;
        *placement.squares.get_mut(usize::from(slot))? = point(m.to());
        let side = if self.swap { side.other() } else { side };
        // Only the moved piece's group changes its rank (a general's move, or generals
        // both on file e, are encoded afresh; a point the piece cannot stand on: none).
        let idx =
            table
                .layout
                .encode_moved(self.idx, &self.placement, &placement, usize::from(slot))?;
        Dtm::from_entry(table.entry(side, idx))
    }
}

/// A position of the table's own material, looked up in memory: its pieces gathered on
/// the stack (no allocation), turned round when the material is not the table's canonical
/// orientation (as [`crate::index::table_orientation`] does).
#[inline]
fn lookup(pos: &Position, table: &TableData) -> Option<Dtm> {
    // A move that stays in the table keeps its material: the table's own, canonical.
    let swap = !table.material().is_canonical();
    let pieces: arrayvec::ArrayVec<(Color, Role, u8), 32> = oriented_pieces(pos, swap).collect();
    let us = pos.side_to_move();
    let side = if swap { us.other() } else { us };
    Dtm::from_entry(table.entry_of_pieces(&pieces, side)?)
}

/// Indices one worker checks in a row (neighbouring indices share most of their moves'
/// table entries, so a run of them keeps the caches warm).
const CHUNK: u64 = 4096;

/// Checks the positions of a table whose index is a multiple of `step` (1: every one),
/// both sides to move, with its captures looked up in `subs`' tables (those a capture
/// leads into straight away are loaded whole first, as `table` is; the rest probed).
///
/// # Errors
/// [`FormatError`] when a sub-table cannot be read.
pub fn verify_table(
    table: &TableData,
    subs: &Tablebase,
    step: u64,
) -> Result<VerifyReport, FormatError> {
    verify_table_with(table, subs, step, &|_| {})
}

/// [`verify_table`], telling `progress` after each run of indices how many of the
/// table's indices it has checked so far (up to [`TableData::size`]), for a progress line.
///
/// # Errors
/// As [`verify_table`].
pub fn verify_table_with(
    table: &TableData,
    subs: &Tablebase,
    step: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<VerifyReport, FormatError> {
    let mut loaded = Vec::new();
    for m in crate::batch::direct_subs(table.material()) {
        if subs.has(m) {
            loaded.push((m, TableData::load(&subs.path_of(m))?));
        }
    }
    let subs = Subs {
        loaded,
        tablebase: subs,
    };
    let subs = &subs;
    let n = table.size();
    let step = step.max(1);
    let checked = AtomicU64::new(0);
    let mismatches = AtomicU64::new(0);
    let examples = Mutex::new(Vec::new());
    let error: Mutex<Option<FormatError>> = Mutex::new(None);
    let count = n.div_ceil(step);
    let done = AtomicU64::new(0);
    let one = |k: u64| {
        let idx = k * step;
        // The larger index of a position with both generals on file e stands for nothing.
        let placement = table.layout.decode(idx);
        if !table.layout.is_canonical_index(idx, &placement) {
            return;
        }
        // The position's pieces in the table's slots: a move that stays in the table
        // (captures nothing) moves one of them, and its index is that placement's.
        let base = Slots::decoded(&placement, idx, table);
        // One position built from the index for red to move; black to move is the same
        // board with the turn passed (a null move), not built again. Only when red to move
        // is no position (black stands in check) is black's built on its own.
        let mut red = position_of_placement(&table.layout, &placement, Color::Red);
        for side in Color::ALL {
            let pos = match (side, red.as_mut()) {
                (Color::Red, Some(p)) => Some(p),
                (Color::Red, None) => None,
                (Color::Black, Some(p)) => {
                    p.make_null();
                    Some(p)
                }
                (Color::Black, None) => {
                    red = position_of_placement(&table.layout, &placement, Color::Black);
                    red.as_mut()
                }
            };
            let Some(pos) = pos else {
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
            let wrong = match check_value(pos, base.as_ref(), stored, table, subs) {
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
                    // Built afresh for its FEN (the move counters of a null move differ).
                    let fen = position_of(table, idx, side).map_or_else(|| pos.fen(), |p| p.fen());
                    ex.push(format!("{fen}: stored {stored:?}, {expected}"));
                }
            }
        }
    };
    (0..count.div_ceil(CHUNK)).into_par_iter().for_each(|c| {
        let range = c * CHUNK..((c + 1) * CHUNK).min(count);
        let indices = (range.end - range.start) * step;
        range.for_each(one);
        progress((done.fetch_add(indices, Relaxed) + indices).min(n));
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

#[cfg(test)]
mod naive_tests {
    use super::*;
    use crate::material::Material;

    /// A naive table's distance changed by two plies (same win/draw/loss) is caught: the
    /// quick lookups of the moves that stay in the table see the real values.
    #[test]
    fn a_wrong_distance_is_caught() {
        let dir = tempfile::tempdir().unwrap();
        let m: Material = "krka".parse().unwrap();
        crate::generate_into(dir.path(), &[m], false, &mut |_| {}).unwrap();
        let tb = Tablebase::open(dir.path()).unwrap();
        let good = TableData::load(&crate::table_path(dir.path(), m)).unwrap();
        assert!(good.ruled.is_none());
        assert_eq!(verify_table(&good, &tb, 1).unwrap().mismatches, 0);
        for side in Color::ALL {
            let idx = (0..good.size())
                .find(|&i| {
                    matches!(Dtm::from_entry(good.entry(side, i)), Some(Dtm::Win(d) | Dtm::Loss(d)) if d > 3)
                        && position_of(&good, i, side).is_some_and(|p| {
                            let us = p.side_to_move();
                            !p.is_attacked(p.king_square(us.other()), us)
                        })
                })
                .expect("a win or a loss");
            let mut bad = good.clone();
            bad.values[side.index()][idx as usize] += 2;
            let r = verify_table(&bad, &tb, 1).unwrap();
            assert!(r.mismatches >= 1, "{side:?} at {idx} passed");
        }
    }
}
