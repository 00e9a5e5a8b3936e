//! Root and iteration: iterative deepening with aspiration windows, the root move loop,
//! the reports to the observer.

use super::{Shared, Worker, INF, MATE, MATE_BOUND, MAX_PLY, TB_BOUND};
use crate::limits::Info;
use std::sync::atomic::Ordering;
use std::time::Duration;
use xiangqi_eval::{Evaluator, Score};

impl<E: Evaluator> Worker<E> {
    /// Iterative deepening. The main thread (id 0) reports through `observer`.
    pub fn iterate(&mut self, shared: &Shared, observer: &mut dyn FnMut(&Info)) {
        let limits = shared.limits;
        let max_depth = limits
            .depth
            .map_or(MAX_PLY as u32 - 4, |d| d.clamp(1, MAX_PLY as u32 - 4))
            .min(limits.mate.map_or(u32::MAX, |m| 2 * m + 2).max(1));
        self.ponder_pending = limits.ponder;
        let multipv = shared.multipv.min(self.root_moves.len()).max(1);
        let mut last_best = self.root_moves.first().map(|r| r.mv);
        let mut instability = 0.0f64;
        let mut prev_iter_score: Option<i32> = None;
        let mut depth = 1u32;
        if self.root_moves.is_empty() {
            return;
        }
        while depth <= max_depth {
            // Helpers skip some depths so that threads diverge.
            if self.id > 0 && depth > 1 && (depth + self.id as u32).is_multiple_of(3) {
                depth += 1;
                continue;
            }
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = shared.params.tune.aspiration_delta;
                let (mut alpha, mut beta) =
                    if shared.params.aspiration && depth >= 5 && prev.abs() < TB_BOUND {
                        ((prev - delta).max(-INF), (prev + delta).min(INF))
                    } else {
                        (-INF, INF)
                    };
                loop {
                    self.root_depth = depth as i32;
                    let score = self.root_search(shared, depth as i32, alpha, beta, pv_idx);
                    self.root_moves[pv_idx..].sort_by(|a, b| {
                        b.score.cmp(&a.score).then(b.prev_score.cmp(&a.prev_score))
                    });
                    if self.stopped {
                        break;
                    }
                    if score <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INF);
                    } else if score >= beta {
                        beta = (score + delta).min(INF);
                    } else {
                        break;
                    }
                    delta += delta / 2;
                    if delta > 1000 {
                        alpha = -INF;
                        beta = INF;
                    }
                }
                // Keep the lines above this one in place.
                self.root_moves[..=pv_idx]
                    .sort_by(|a, b| b.score.cmp(&a.score).then(b.prev_score.cmp(&a.prev_score)));
                if self.stopped {
                    break;
                }
            }
            // Report every line once the depth is done (lines can swap places while the
            // later ones are searched); after a stop, only the best line if it was searched.
            if self.id == 0 {
                if !self.stopped {
                    for k in 0..multipv {
                        self.report(shared, depth, k, observer);
                    }
                } else if depth == 1 || self.root_moves[0].score != -INF {
                    self.report(shared, depth, 0, observer);
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if self.id != 0 {
                depth += 1;
                continue;
            }
            let best = self.root_moves[0].clone();
            self.main_result_score = best.score;
            // Mate-in-N search: done when a mate that short is found.
            if let Some(n) = limits.mate {
                if best.score >= MATE_BOUND && (MATE - best.score + 1) / 2 <= n as i32 {
                    break;
                }
            }
            if Some(best.mv) != last_best {
                instability += 1.0;
            }
            instability *= 0.6;
            last_best = Some(best.mv);
            let mut scale = 1.0 + instability;
            if let Some(p) = prev_iter_score {
                if best.score < p - 30 {
                    scale *= if best.score < p - 100 { 1.8 } else { 1.35 };
                }
            }
            prev_iter_score = Some(best.score);
            if shared.params.node_share_time && depth >= 6 {
                scale *= self.node_share_scale(&shared.params.tune);
            }
            if !self.ponder_pending {
                if let Some(tm) = &self.tm {
                    if self.root_moves.len() == 1 && tm.optimum.is_some() && depth >= 4 {
                        break;
                    }
                    if tm.should_stop_iterating(scale) {
                        break;
                    }
                }
            }
            depth += 1;
        }
        // Pondering or infinite: wait for the GUI before returning a move.
        if self.id == 0 && (limits.infinite || self.ponder_pending) {
            while !shared.stop.load(Ordering::Relaxed)
                && (limits.infinite || !shared.ponderhit.load(Ordering::Relaxed))
            {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        shared.tbhits[self.id].store(self.tbhits, Ordering::Relaxed);
    }

    /// The thinking time's factor from the best move's share of the nodes searched so far:
    /// below 1 when the search has spent itself on one move (the choice is clear), above 1
    /// when the effort was spread (several moves were close and each needed refuting).
    fn node_share_scale(&self, tune: &crate::Tunables) -> f64 {
        let total: u64 = self.root_moves.iter().map(|r| r.nodes).sum();
        if total == 0 {
            return 1.0;
        }
        let share = self.root_moves[0].nodes as f64 / total as f64;
        let factor = (tune.tm_share_base as f64 - tune.tm_share_slope as f64 * share) / 100.0;
        factor.clamp(0.5, 2.0)
    }

    pub(super) fn report(
        &self,
        shared: &Shared,
        depth: u32,
        pv_idx: usize,
        observer: &mut dyn FnMut(&Info),
    ) {
        let rm = &self.root_moves[pv_idx];
        let score = if rm.score == -INF {
            rm.prev_score
        } else {
            rm.score
        };
        if score == -INF {
            return;
        }
        let time = self.tm.as_ref().map_or(Duration::ZERO, |t| t.elapsed());
        let nodes = if self.single_thread {
            self.nodes
        } else {
            shared.total_nodes().max(self.nodes)
        };
        let tbhits = if self.single_thread {
            self.tbhits
        } else {
            shared
                .tbhits
                .iter()
                .map(|n| n.load(Ordering::Relaxed))
                .sum::<u64>()
                .max(self.tbhits)
        };
        let nps = if time.as_micros() > 0 {
            (nodes as u128 * 1_000_000 / time.as_micros()) as u64
        } else {
            0
        };
        observer(&Info {
            depth,
            seldepth: rm.seldepth.max(depth as usize) as u32,
            multipv: pv_idx + 1,
            score: Score(score),
            nodes,
            nps,
            hashfull: shared.tt.hashfull(),
            time,
            pv: rm.pv.to_vec(),
            tbhits,
        });
    }

    pub(super) fn root_search(
        &mut self,
        shared: &Shared,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        pv_idx: usize,
    ) -> i32 {
        let mut best = -INF;
        self.seldepth = 0;
        self.pv_len[0] = 0;
        let mut count = 0;
        for i in pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            count += 1;
            let nodes_before = self.nodes;
            self.nodes += 1;
            let u = self.make(shared, m, 0, true);
            let gives_check = self.pos.is_check();
            let ext = (shared.params.check_extension && gives_check) as i32;
            let new_depth = depth - 1 + ext;
            let mut score;
            if count == 1 || !shared.params.pvs {
                score = -self.negamax(shared, -beta, -alpha, new_depth, 1, false, true);
            } else {
                let mut r = 0;
                if shared.params.lmr
                    && depth >= 3
                    && count > 3
                    && !gives_check
                    && self.pos_was_quiet(u)
                {
                    r = (self.lmr[(depth as usize).min(63)][count.min(63)] as i32 - 1).max(0);
                }
                score = -self.negamax(shared, -alpha - 1, -alpha, new_depth - r, 1, true, false);
                if score > alpha && r > 0 {
                    score = -self.negamax(shared, -alpha - 1, -alpha, new_depth, 1, true, false);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(shared, -beta, -alpha, new_depth, 1, false, true);
                }
            }
            self.unmake(m, u);
            self.root_moves[i].nodes += self.nodes - nodes_before;
            if self.stopped {
                break;
            }
            let rm = &mut self.root_moves[i];
            if count == 1 || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                for k in 1..self.pv_len[1] {
                    match self.pv[1][k] {
                        Some(mv) if !rm.pv.is_full() => rm.pv.push(mv),
                        _ => break,
                    }
                }
            } else {
                rm.score = -INF;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }
}
