//! Quiescence search: captures only (every evasion in check), with delta and SEE pruning.

use super::history::{mvv_lva, role_of};
use super::movepick::pick;
use super::{Shared, Worker, EVAL_MAX, INF, MATE, MAX_PLY};
use crate::see::{see_ge, see_value};
use crate::tt::{score_from_tt, score_to_tt, Bound};
use arrayvec::ArrayVec;
use xiangqi_core::{MoveList, MAX_MOVES};
use xiangqi_eval::{Evaluator, Score};

impl<E: Evaluator> Worker<E> {
    pub(super) fn qsearch(
        &mut self,
        shared: &Shared,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let p = shared.params;
        let Some(in_check) = self.enter_node(shared, ply) else {
            return 0;
        };
        if in_check {
            if let Some(s) = self.repetition(shared, ply) {
                return s;
            }
        }
        if ply >= MAX_PLY {
            return if in_check { 0 } else { self.evaluate(shared) };
        }
        let key = self.pos.key();
        let tte = if p.tt && p.qsearch_tt {
            shared.tt.probe(key)
        } else {
            None
        };
        if let Some(e) = tte {
            let s = score_from_tt(e.score, ply);
            if match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            } {
                return s;
            }
        }
        let mut best = -INF;
        let stand_pat;
        // Whether the stand-pat is only a bound from lazy evaluation (not to be stored).
        let mut lazy = false;
        // The evaluation as the evaluator gives it (what the table keeps).
        let mut raw_eval = 0;
        if !in_check {
            // The correction history's shift, known before evaluating so that a lazy
            // evaluation's window can be shifted the other way.
            let shift = self.corrected_eval(shared, ply, 0);
            raw_eval = match tte {
                Some(e) => e.eval,
                None if shared.noise == 0 => {
                    let s = self
                        .eval
                        .evaluate_bounded(&self.pos, Score(alpha - shift), Score(beta - shift))
                        .0
                        .clamp(-EVAL_MAX, EVAL_MAX);
                    // A bound is outside the window: at most alpha or at least beta.
                    lazy = s <= alpha - shift || s >= beta - shift;
                    s
                }
                None => self.evaluate(shared),
            };
            stand_pat = (raw_eval + shift).clamp(-EVAL_MAX, EVAL_MAX);
            if stand_pat >= beta {
                return stand_pat;
            }
            if stand_pat > alpha {
                alpha = stand_pat;
            }
            best = stand_pat;
        } else {
            stand_pat = -INF;
        }
        let mut list = MoveList::new();
        if in_check {
            self.pos.legal_moves_into(&mut list);
        } else {
            self.pos.legal_captures_into(&mut list);
        }
        let mut scores: ArrayVec<i32, MAX_MOVES> = ArrayVec::new();
        for &m in list.iter() {
            scores.push(match mvv_lva(&self.pos, m) {
                0 => {
                    let piece = self.pos.piece_at(m.from()).map_or(0, |x| x.index());
                    self.history[piece][m.to().index()]
                }
                order => 1_000_000 + order,
            });
        }
        let mut sorted = false;
        let mut any = false;
        let mut best_move = None;
        for idx in 0..list.len() {
            let (m, _) = pick(&mut list, &mut scores, idx, idx >= 3, &mut sorted);
            any = true;
            if !in_check {
                let v = role_of(&self.pos, m.to()).map_or(0, see_value);
                if p.delta_pruning && stand_pat + v + p.tune.qs_delta_margin <= alpha && v < 10_000
                {
                    // The captures come most valuable victim first and alpha only rises:
                    // every capture left would be pruned too.
                    break;
                }
                if p.see && !see_ge(&mut self.pos, m, 0) {
                    continue;
                }
            }
            let u = self.make(shared, m, ply, p.qsearch_tt);
            let s = -self.qsearch(shared, -beta, -alpha, ply + 1);
            self.unmake(m, u);
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    best_move = Some(m);
                    if s >= beta {
                        break;
                    }
                    alpha = s;
                }
            }
        }
        if in_check && !any {
            return -MATE + ply as i32;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        if p.qsearch_tt && (best_move.is_some() || !in_check) && !lazy {
            shared.tt.store(
                key,
                best_move,
                score_to_tt(best, ply),
                if in_check { 0 } else { raw_eval },
                0,
                bound,
            );
        }
        best
    }
}
