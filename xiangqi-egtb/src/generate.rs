//! Retrograde analysis: a table's values from mates and stalemates backward, through
//! captures into smaller tables.
//!
//! Every position and side to move holds one byte: 0 unknown (a draw when nothing more can
//! be learnt), 1 invalid, `2 + d` a result in `d` plies (odd `d` a win for the side to
//! move, even `d` a loss: stalemate loses in xiangqi, so mates and stalemates are both
//! "loss in 0").
//!
//! 1. **Start.** Invalid positions are marked first (they also tell which quiet moves are
//!    legal: exactly those into a valid position). Each position without a legal move is
//!    a loss in 0. Captures lead into smaller tables, generated before: a capture into a
//!    lost position makes this one a win (not yet the shortest: a quiet move may mate
//!    sooner); a position whose every move is a capture into a won position is a loss.
//!    Every other position counts the distinct positions its quiet moves lead to, plus
//!    the captures that do not lose.
//! 2. **Rounds** `d = 1, 3, 5, …` (a win's distance is odd, a loss's even), with every
//!    distance below `d` final:
//!    - every predecessor of a loss in `d - 1` (an un-move of the side that moved into it)
//!      is a win in `d`, unless it already is a win in fewer;
//!    - every win in `d` takes one from the count of each of its unknown predecessors; a
//!      position whose count reaches zero has every move lead to a final win, and is a
//!      loss in one more than the longest of them.
//!
//!    It stops when a round finds nothing past the longest distance found.
//! 3. What is still unknown is a draw.
//!
//! The counts are exact because every position has exactly one index (see
//! [`crate::index`]): the positions a position's moves reach, as a set of indices, are
//! exactly those whose un-moves find it again.

// The loops run over position indices, which index both sides' arrays and the index.
#![allow(clippy::needless_range_loop)]

use crate::board::{Board, Moves};
use crate::index::{Layout, NO_SQUARE};
use crate::material::Material;
use crate::retro::{predecessors, Captures, GenerateError};
use crate::table::{TableData, INVALID, MAX_PLIES, UNKNOWN};
use crate::value::Dtm;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU8, Ordering::Relaxed};
use std::sync::Arc;
use xiangqi_core::Color;

#[inline]
fn byte_of(plies: u32) -> u8 {
    (plies + 2) as u8
}

/// What the generator reports as it goes.
#[derive(Clone, Debug)]
pub struct Progress {
    /// The round (plies) just finished; 0 after the start.
    pub round: u32,
    /// Positions known (won or lost) after the start, both sides (counted once: a count
    /// every round would cost a pass over the table).
    pub decided: Option<u64>,
}

/// Generates the table of `material` (turned to its canonical orientation), whose
/// captures lead into `tables` (every smaller table it needs must be there).
///
/// # Errors
/// [`GenerateError`] when a sub-table is missing or a distance does not fit.
pub fn generate(
    material: Material,
    tables: &HashMap<Material, Arc<TableData>>,
    progress: &mut dyn FnMut(&Progress),
) -> Result<TableData, GenerateError> {
    let material = material.canonical();
    let layout = Layout::new(material);
    let n = layout.size();
    if n > (1u64 << 40) {
        return Err(GenerateError::TooLarge {
            table: material.to_string(),
            size: n,
        });
    }
    let captures = Captures::new(material, tables)?;
    let n = n as usize;
    let vals: [Vec<AtomicU8>; 2] = [
        (0..n).map(|_| AtomicU8::new(UNKNOWN)).collect(),
        (0..n).map(|_| AtomicU8::new(UNKNOWN)).collect(),
    ];
    // Moves left that do not yet lead to a final win for the opponent, by position.
    let counts: [Vec<AtomicU8>; 2] = [
        (0..n).map(|_| AtomicU8::new(0)).collect(),
        (0..n).map(|_| AtomicU8::new(0)).collect(),
    ];
    let max_plies = AtomicU32::new(0);
    let too_long = AtomicBool::new(false);
    let set = |side: Color, idx: usize, plies: u32| {
        if plies > MAX_PLIES {
            too_long.store(true, Relaxed);
            return;
        }
        vals[side.index()][idx].store(byte_of(plies), Relaxed);
        max_plies.fetch_max(plies, Relaxed);
    };
    const CHUNK: usize = 1 << 14;
    let chunks = n.div_ceil(CHUNK);

    // 1a. Invalid positions: two pieces on a point, the generals facing, the side not
    // to move in check. Marked first, because they also say which quiet moves are legal:
    // a quiet move is legal exactly when the position it leads to is valid.
    (0..chunks).into_par_iter().for_each(|c| {
        for idx in c * CHUNK..((c + 1) * CHUNK).min(n) {
            let p = layout.decode(idx as u64);
            let board = Board::new(&layout, &p);
            let Some(board) =
                board.filter(|b| !b.kings_face() && layout.is_canonical_index(idx as u64, &p))
            else {
                vals[0][idx].store(INVALID, Relaxed);
                vals[1][idx].store(INVALID, Relaxed);
                continue;
            };
            for side in Color::ALL {
                if board.in_check(side.other()) {
                    vals[side.index()][idx].store(INVALID, Relaxed);
                }
            }
        }
    });
    // 1b. Mates and stalemates, what the captures say, and each position's count of
    // distinct positions its quiet moves lead to (with the captures that do not lose).
    (0..chunks).into_par_iter().for_each(|c| {
        let mut moves = Moves::new();
        let mut succ: Vec<u64> = Vec::with_capacity(128);
        for idx in c * CHUNK..((c + 1) * CHUNK).min(n) {
            if vals[0][idx].load(Relaxed) == INVALID && vals[1][idx].load(Relaxed) == INVALID {
                continue;
            }
            let p = layout.decode(idx as u64);
            let mut board = Board::new(&layout, &p).expect("a valid index");
            for side in Color::ALL {
                if vals[side.index()][idx].load(Relaxed) == INVALID {
                    continue;
                }
                moves.clear();
                board.pseudo_moves(side, &mut moves);
                let mut legal = 0;
                let mut open_captures = 0u32;
                succ.clear();
                let mut best_win: Option<u32> = None;
                let mut all_lose = true;
                let mut longest_loss = 0u32;
                for &m in &moves {
                    if m.captured == NO_SQUARE {
                        board.make(m);
                        let sidx = layout.encode_quiet(
                            idx as u64,
                            &p,
                            &board.placement(),
                            m.slot as usize,
                        );
                        board.unmake(m);
                        if vals[side.other().index()][sidx as usize].load(Relaxed) != INVALID {
                            legal += 1;
                            all_lose = false;
                            succ.push(sidx);
                        }
                        continue;
                    }
                    // The rule's values of the sub-table wait for the rule's pass: here,
                    // as in a generation without the rule, they are draws.
                    let v = captures.after(&layout, &mut board, m, side).map(Dtm::naive);
                    let Some(v) = v else {
                        continue;
                    };
                    legal += 1;
                    match v {
                        Dtm::Loss(k) => {
                            let w = k as u32 + 1;
                            best_win = Some(best_win.map_or(w, |b| b.min(w)));
                        }
                        Dtm::Win(k) => longest_loss = longest_loss.max(k as u32 + 1),
                        _ => {
                            all_lose = false;
                            open_captures += 1;
                        }
                    }
                }
                succ.sort_unstable();
                succ.dedup();
                let open = (succ.len() as u32 + open_captures).min(255);
                counts[side.index()][idx].store(open as u8, Relaxed);
                if legal == 0 {
                    set(side, idx, 0);
                } else if let Some(w) = best_win {
                    set(side, idx, w);
                } else if all_lose {
                    set(side, idx, longest_loss);
                }
            }
        }
    });
    let count_decided = || -> u64 {
        vals.iter()
            .map(|v| v.par_iter().filter(|b| b.load(Relaxed) >= 2).count() as u64)
            .sum()
    };
    progress(&Progress {
        round: 0,
        decided: Some(count_decided()),
    });

    // 2. Rounds.
    let mut d: u32 = 1;
    while d <= max_plies.load(Relaxed) + 1 {
        if too_long.load(Relaxed) {
            return Err(GenerateError::TooLong {
                table: material.to_string(),
            });
        }
        // Predecessors of losses in d - 1 are wins in d.
        for loser in Color::ALL {
            let mover = loser.other();
            let target = byte_of(d - 1);
            (0..chunks).into_par_iter().for_each(|c| {
                let mut un = Moves::new();
                let mut preds = Vec::with_capacity(64);
                for idx in c * CHUNK..((c + 1) * CHUNK).min(n) {
                    if vals[loser.index()][idx].load(Relaxed) != target {
                        continue;
                    }
                    let p = layout.decode(idx as u64);
                    predecessors(&layout, idx as u64, &p, mover, &mut un, &mut preds);
                    for &pidx in &preds {
                        let pidx = pidx as usize;
                        let cur = vals[mover.index()][pidx].load(Relaxed);
                        // (A win's byte is odd: 2 + an odd distance.)
                        let better = cur == UNKNOWN || (cur > byte_of(d) && cur % 2 == 1);
                        if better {
                            set(mover, pidx, d);
                        }
                    }
                }
            });
        }
        // Each win in d takes one from the count of each unknown predecessor; one whose
        // count reaches nothing has every move lead to a final win: it is lost, in one
        // more than its longest.
        for winner in Color::ALL {
            let mover = winner.other();
            let target = byte_of(d);
            (0..chunks).into_par_iter().for_each(|c| {
                let mut un = Moves::new();
                let mut preds = Vec::with_capacity(64);
                let mut moves = Moves::new();
                for idx in c * CHUNK..((c + 1) * CHUNK).min(n) {
                    if vals[winner.index()][idx].load(Relaxed) != target {
                        continue;
                    }
                    let p = layout.decode(idx as u64);
                    predecessors(&layout, idx as u64, &p, mover, &mut un, &mut preds);
                    for &r in &preds {
                        let r = r as usize;
                        if vals[mover.index()][r].load(Relaxed) != UNKNOWN {
                            continue;
                        }
                        if counts[mover.index()][r].fetch_sub(1, Relaxed) == 1 {
                            let plies = longest_win_after(
                                &layout, &captures, &vals, r as u64, mover, &mut moves,
                            );
                            set(mover, r, plies + 1);
                        }
                    }
                }
            });
        }
        progress(&Progress {
            round: d,
            decided: None,
        });
        // Wins are odd distances and losses even: a round covers two plies.
        d += 2;
    }
    if too_long.load(Relaxed) {
        return Err(GenerateError::TooLong {
            table: material.to_string(),
        });
    }
    let [r, b] = vals;
    let values = [
        r.into_iter().map(AtomicU8::into_inner).collect(),
        b.into_iter().map(AtomicU8::into_inner).collect(),
    ];
    // Where both sides can attack, either can check for ever: the rule decides some of
    // the draws.
    let ruled = if material.attackers(Color::Red) > 0 && material.attackers(Color::Black) > 0 {
        Some(crate::rules::apply(&layout, &captures, &values)?)
    } else {
        None
    };
    Ok(TableData {
        layout,
        values,
        ruled,
    })
}

/// The longest of the (final) wins that the moves of `side` from index `idx` lead to.
fn longest_win_after(
    layout: &Layout,
    captures: &Captures,
    vals: &[Vec<AtomicU8>; 2],
    idx: u64,
    side: Color,
    moves: &mut Moves,
) -> u32 {
    let p = layout.decode(idx);
    let mut b = Board::new(layout, &p).expect("a valid index");
    moves.clear();
    b.pseudo_moves(side, moves);
    let mut longest = 0u32;
    for &m in moves.iter() {
        let v = if m.captured == NO_SQUARE {
            b.make(m);
            let sidx = layout.encode_quiet(idx, &p, &b.placement(), m.slot as usize);
            b.unmake(m);
            Dtm::from_entry(u16::from(
                vals[side.other().index()][sidx as usize].load(Relaxed),
            ))
        } else {
            captures.after(layout, &mut b, m, side).map(Dtm::naive)
        };
        match v {
            Some(Dtm::Win(k)) => longest = longest.max(k as u32),
            None => {} // an illegal move
            Some(other) => debug_assert!(false, "a lost position has a move to {other:?}"),
        }
    }
    longest
}
