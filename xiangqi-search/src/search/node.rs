//! The full-width node search: principal variation search with its pruning, reductions
//! and extensions.

use super::history::{move_slot, with_bonus};
use super::movepick::{MovePicker, OrderTables, COUNTER, GOOD_CAPTURE};
use super::{Shared, Worker, INF, MATE, MATE_BOUND, MAX_PLY, RULE60, TB_BOUND};
use crate::see::see_ge;
use crate::tt::{score_from_tt, score_to_tt, Bound};
use arrayvec::ArrayVec;
use xiangqi_core::{Move, MoveList, Role};
use xiangqi_eval::Evaluator;

impl<E: Evaluator> Worker<E> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
        &mut self,
        shared: &Shared,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
        pv_node: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return if shared.params.quiescence {
                self.qsearch(shared, alpha, beta, ply)
            } else {
                self.evaluate(shared)
            };
        }
        let p = shared.params;
        let t = &p.tune;
        let Some(in_check) = self.enter_node(shared, ply) else {
            return 0;
        };
        if let Some(s) = self.repetition(shared, ply) {
            return s;
        }
        if self.pos.halfmove_clock() >= RULE60 {
            return 0;
        }
        if ply >= MAX_PLY {
            return if in_check { 0 } else { self.evaluate(shared) };
        }
        if p.mate_distance_pruning {
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // In a singular extension's verification, the move left out; the node is the same
        // position as its parent's search, so it takes no cutoff from the table, prunes no
        // node as a whole and stores nothing.
        let excluded = self.frames[ply].excluded;
        let key = self.pos.key();
        let tte = shared.tt.probe(key);
        let mut tt_move = None;
        if let Some(e) = tte {
            if p.tt {
                tt_move = e.mv.filter(|&m| self.pos.is_legal(m));
                let s = score_from_tt(e.score, ply);
                if !pv_node
                    && excluded.is_none()
                    && e.depth >= depth
                    && match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => s >= beta,
                        Bound::Upper => s <= alpha,
                    }
                {
                    return s;
                }
            }
        }
        // A capture into an ending with a table: the table's value.
        if excluded.is_none() {
            if let Some(s) = self.probe_tablebase(shared, ply) {
                return s;
            }
        }

        // The evaluation as the evaluator gives it (what the table keeps), and corrected.
        let raw_eval = if in_check {
            -INF
        } else if let Some(e) = tte {
            e.eval
        } else {
            self.evaluate(shared)
        };
        let static_eval = if in_check {
            -INF
        } else {
            self.corrected_eval(shared, ply, raw_eval)
        };
        self.frames[ply].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.frames[ply - 2].static_eval;
        self.frames[ply + 1].null_done = false;
        // What the pruning below starts from: the static evaluation, or the table's score
        // where its bound says that is nearer the truth.
        let eval = match tte {
            Some(e) if p.tt_eval && !in_check && excluded.is_none() => {
                let s = score_from_tt(e.score, ply);
                let nearer = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s > static_eval,
                    Bound::Upper => s < static_eval,
                };
                if nearer && s.abs() < TB_BOUND {
                    s
                } else {
                    static_eval
                }
            }
            _ => static_eval,
        };

        if !in_check && !pv_node && excluded.is_none() {
            // Reverse futility: far above beta at low depth, trust the static evaluation.
            if p.reverse_futility
                && depth <= t.rfp_depth
                && beta.abs() < TB_BOUND
                && eval - t.rfp_margin * (depth - improving as i32) >= beta
            {
                return eval;
            }
            // Razoring: far below alpha near the leaves, only a capture could save the
            // node; quiescence says whether one does.
            if p.razoring
                && depth <= 3
                && alpha.abs() < TB_BOUND
                && eval + t.razor_base + t.razor_per_depth2 * depth * depth < alpha
            {
                let s = self.qsearch(shared, alpha - 1, alpha, ply);
                if self.stopped {
                    return 0;
                }
                if s < alpha && s.abs() < TB_BOUND {
                    return s;
                }
            }
            // Null move. Xiangqi endings with only advisors, elephants and pawns are full of
            // zugzwang (the defender's pieces must move), so there it is off.
            let us = self.pos.side_to_move();
            let attackers = self.pos.count(us, Role::Chariot)
                + self.pos.count(us, Role::Horse)
                + self.pos.count(us, Role::Cannon);
            if p.null_move
                && depth >= 3
                && eval >= beta
                && !self.frames[ply].null_done
                && attackers > 0
                && beta.abs() < TB_BOUND
            {
                let r =
                    t.nmp_base + depth / t.nmp_depth_div + ((eval - beta) / t.nmp_eval_div).min(3);
                self.frames[ply].mv = None;
                self.frames[ply + 1].null_done = true;
                self.frames[ply + 1].corr_keys = self.frames[ply].corr_keys;
                self.eval.make_null(&self.pos);
                let u = self.pos.make_null();
                self.keys.push(self.pos.key());
                self.in_check.push(self.pos.is_check());
                let s = -self.negamax(
                    shared,
                    -beta,
                    -beta + 1,
                    depth - r,
                    ply + 1,
                    !cut_node,
                    false,
                );
                self.keys.pop();
                self.in_check.pop();
                self.pos.unmake_null(u);
                self.eval.unmake_null(&self.pos);
                self.frames[ply + 1].null_done = false;
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    // With few attackers left, verify with a reduced search without null move.
                    if attackers <= 1 && depth >= 6 {
                        self.frames[ply + 1].null_done = true;
                        self.frames[ply].null_done = true;
                        let v = self.negamax(shared, beta - 1, beta, depth - r, ply, false, false);
                        self.frames[ply].null_done = false;
                        if v >= beta {
                            return if s >= TB_BOUND { beta } else { s };
                        }
                    } else {
                        return if s >= TB_BOUND { beta } else { s };
                    }
                }
            }
        }

        // ProbCut: a capture that beats beta by a margin in a search four plies shallower
        // (and first in quiescence, which is cheap) almost surely beats beta at full depth.
        // Not where the table already says a search nearly this deep stayed below the mark.
        let probcut_beta = beta + t.probcut_margin;
        if p.probcut
            && !pv_node
            && !in_check
            && excluded.is_none()
            && depth >= t.probcut_depth
            && beta.abs() < TB_BOUND
            && !tte
                .is_some_and(|e| e.depth >= depth - 3 && score_from_tt(e.score, ply) < probcut_beta)
        {
            let mut captures = MoveList::new();
            self.pos.legal_captures_into(&mut captures);
            for &m in captures.iter() {
                if !see_ge(&mut self.pos, m, probcut_beta - static_eval) {
                    continue;
                }
                let u = self.make(shared, m, ply, true);
                let mut s = -self.qsearch(shared, -probcut_beta, -probcut_beta + 1, ply + 1);
                if s >= probcut_beta {
                    s = -self.negamax(
                        shared,
                        -probcut_beta,
                        -probcut_beta + 1,
                        depth - 4,
                        ply + 1,
                        !cut_node,
                        false,
                    );
                }
                self.unmake(m, u);
                if self.stopped {
                    return 0;
                }
                if s >= probcut_beta {
                    shared.tt.store(
                        key,
                        Some(m),
                        score_to_tt(s, ply),
                        raw_eval.max(-MATE_BOUND),
                        depth - 3,
                        Bound::Lower,
                    );
                    return s;
                }
            }
        }

        if p.iir && tt_move.is_none() && depth >= 4 && (pv_node || cut_node) {
            depth -= 1;
        }

        let old_alpha = alpha;
        let mut best_score = -INF;
        let mut best_move = None;
        let mut move_count = 0usize;
        let mut quiets: ArrayVec<Move, 64> = ArrayVec::new();
        let mut captures: ArrayVec<Move, 32> = ArrayVec::new();
        let mut picker =
            MovePicker::new(tt_move, self.order_hints(shared, ply), pv_node || depth > 8);
        let cont_slots = self.continuation_slots(shared, ply);
        let futility_base = eval + t.futility_base + t.futility_per_depth * depth;
        // Late move pruning: past `lmp_limit` moves, the quiet moves other than the killers
        // and the counter move are dropped (when not in check, and only once some move has
        // scored above a mate; checked where it applies).
        let lmp_allowed = p.late_move_pruning && depth <= 8 && !pv_node;
        let lmp_limit = (t.lmp_base + depth * depth) / (2 - improving as i32);

        loop {
            // Below depth 3, late move pruning may drop the first quiet move picked, and with
            // it all the others: then they are not even generated.
            let skip_quiets = || {
                depth <= 2
                    && lmp_allowed
                    && move_count as i32 >= lmp_limit
                    && !in_check
                    && best_score > -MATE_BOUND
                    && ply > 0
            };
            let tables = OrderTables {
                history: &self.history,
                cont: [
                    cont_slots[0].map(|s| self.cont_history.row(s)),
                    cont_slots[1].map(|s| self.cont_history.row(s)),
                    cont_slots[2].map(|s| self.cont_history.row(s)),
                ],
                captures: p.capture_history.then_some(&*self.capture_history),
            };
            let Some((m, order)) = picker.next(&mut self.pos, &tables, p, skip_quiets) else {
                break;
            };
            if Some(m) == excluded {
                continue;
            }
            let is_capture = self.pos.piece_at(m.to()).is_some();
            let quiet = !is_capture;
            move_count += 1;

            // Pruning of moves at shallow depth (never when all moves could lose).
            let mut futile = false;
            if !in_check && best_score > -MATE_BOUND && ply > 0 {
                if lmp_allowed && quiet && move_count as i32 > lmp_limit && order < COUNTER {
                    // This and every quiet move left would be pruned: drop them all now
                    // (the table's move and the killers and counter move, tried before,
                    // are exempt), counting them as tried (the move count drives the later
                    // moves' reductions). Only the bad captures are left.
                    move_count += picker.drop_quiets();
                    continue;
                }
                if p.futility && quiet && depth <= 8 && futility_base <= alpha && order < COUNTER {
                    futile = true;
                }
                // A quiet move whose record is bad enough is not worth a search near the
                // leaves.
                if p.history_pruning
                    && quiet
                    && depth <= 4
                    && order < COUNTER
                    && order < -t.history_prune_margin * depth
                {
                    futile = true;
                }
                // Losing captures at low depth, unless they check (a sacrifice that mates).
                if p.see
                    && is_capture
                    && depth <= 6
                    && order < GOOD_CAPTURE
                    && !see_ge(&mut self.pos, m, -t.see_capture_margin * depth)
                {
                    futile = true;
                }
            }

            if futile && !self.pos.gives_check(m) {
                // Pruned unless it gives check (a sacrifice that mates).
                continue;
            }
            // Singular extension: is the table's move the only good one here? Searched
            // before the move is made, at this same node with the move left out.
            let mut singular_ext = 0;
            if p.singular_extension && Some(m) == tt_move && excluded.is_none() && ply > 0 {
                if let Some(e) = tte {
                    let tt_score = score_from_tt(e.score, ply);
                    if depth >= t.singular_depth
                        && e.depth >= depth - 3
                        && e.bound != Bound::Upper
                        && tt_score.abs() < TB_BOUND
                        && (ply as i32) < 2 * self.root_depth
                    {
                        let singular_beta = tt_score - t.singular_beta_mult * depth;
                        self.frames[ply].excluded = Some(m);
                        let v = self.negamax(
                            shared,
                            singular_beta - 1,
                            singular_beta,
                            (depth - 1) / 2,
                            ply,
                            cut_node,
                            false,
                        );
                        self.frames[ply].excluded = None;
                        if self.stopped {
                            return 0;
                        }
                        if v < singular_beta {
                            singular_ext =
                                if !pv_node && v < singular_beta - t.singular_double_margin {
                                    2
                                } else {
                                    1
                                };
                        } else if singular_beta >= beta {
                            // Multi-cut: another move beats beta too.
                            return singular_beta;
                        } else if tt_score >= beta {
                            singular_ext = -1;
                        }
                    }
                }
            }
            // A child at depth 0 or less is a quiescence node.
            let u = self.make(shared, m, ply, p.qsearch_tt || depth > 1);
            let gives_check = self.pos.is_check();
            let check_ext =
                (p.check_extension && gives_check && (ply as i32) < 2 * depth + 10) as i32;
            let ext = if singular_ext != 0 {
                singular_ext
            } else {
                check_ext
            };
            let new_depth = depth - 1 + ext;
            let mut score;
            if move_count == 1 || !p.pvs {
                score = -self.negamax(
                    shared,
                    -beta,
                    -alpha,
                    new_depth,
                    ply + 1,
                    !pv_node && !cut_node,
                    pv_node,
                );
            } else {
                let mut r = 0;
                if p.lmr && depth >= 3 && move_count > 1 + pv_node as usize && (quiet || order < 0)
                {
                    r = self.lmr[(depth as usize).min(63)][move_count.min(63)] as i32;
                    r -= pv_node as i32;
                    r += !improving as i32;
                    r += cut_node as i32;
                    if order >= COUNTER {
                        r -= 1;
                    }
                    if gives_check {
                        r -= 1;
                    }
                    if quiet && order < COUNTER {
                        // The history alone reaches 16,384, with the two continuation
                        // histories three times that: the same reduction per table's worth.
                        r -= order
                            / if cont_slots[0].is_some() {
                                t.lmr_history_div
                            } else {
                                t.lmr_history_div / 2
                            };
                    }
                    r = r.min(new_depth - 1).max(0);
                }
                score = -self.negamax(
                    shared,
                    -alpha - 1,
                    -alpha,
                    new_depth - r,
                    ply + 1,
                    true,
                    false,
                );
                if score > alpha && r > 0 {
                    // How far the reduced search beat the best so far says how deep to
                    // look again.
                    let mut full_depth = new_depth;
                    if p.lmr_deeper {
                        if score > best_score + t.lmr_deeper_margin + 2 * new_depth {
                            full_depth += 1;
                        } else if score < best_score + 10 {
                            full_depth -= 1;
                        }
                    }
                    if full_depth > new_depth - r {
                        score = -self.negamax(
                            shared,
                            -alpha - 1,
                            -alpha,
                            full_depth,
                            ply + 1,
                            !cut_node,
                            false,
                        );
                    }
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.negamax(shared, -beta, -alpha, new_depth, ply + 1, false, true);
                }
            }
            self.unmake(m, u);
            if self.stopped {
                return 0;
            }
            if quiet && !quiets.is_full() {
                quiets.push(m);
            } else if is_capture && !captures.is_full() {
                captures.push(m);
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if quiet {
                            self.update_quiet_stats(shared, ply, m, depth, &quiets, cont_slots);
                        }
                        if p.capture_history {
                            self.update_capture_stats(shared, m, is_capture, depth, &captures);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
        }

        if move_count == 0 {
            if excluded.is_some() {
                // The left-out move was the only one.
                return alpha;
            }
            // No legal move: lost, in check or not (stalemate loses in xiangqi).
            return -MATE + ply as i32;
        }

        if best_score == -INF {
            // Every move was pruned: fail low at alpha.
            best_score = alpha;
        }
        if excluded.is_some() {
            // A verification search: its score is for the caller alone.
            return best_score;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // The correction history learns from a quiet node whose score says where the true
        // value lies relative to the static evaluation (a fail-high above it, a fail-low
        // below it, or an exact score).
        if p.correction_history
            && !in_check
            && best_move.is_none_or(|m| self.pos.piece_at(m.to()).is_none())
            && best_score.abs() < TB_BOUND
            && !(bound == Bound::Lower && best_score <= static_eval)
            && !(bound == Bound::Upper && best_score >= static_eval)
        {
            let side = self.pos.side_to_move().index();
            let keys = self.frames[ply].corr_keys;
            self.correction
                .update(side, keys, best_score - static_eval, depth);
        }
        shared.tt.store(
            key,
            best_move,
            score_to_tt(best_score, ply),
            raw_eval.max(-MATE_BOUND),
            depth,
            bound,
        );
        best_score
    }

    pub(super) fn update_quiet_stats(
        &mut self,
        shared: &Shared,
        ply: usize,
        best: Move,
        depth: i32,
        quiets: &[Move],
        cont_slots: [Option<usize>; 3],
    ) {
        let p = shared.params;
        if p.killers && self.killers[ply][0] != Some(best) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(best);
        }
        if p.countermove && ply > 0 {
            if let Some(prev) = self.frames[ply - 1].mv {
                self.counter[self.frames[ply - 1].piece as usize][prev.to().index()] = Some(best);
            }
        }
        if p.history {
            let bonus = (depth * depth * p.tune.history_bonus_mult).min(p.tune.history_bonus_max);
            for &q in quiets {
                let pi = self.pos.piece_at(q.from()).map_or(0, |x| x.index());
                let h = &mut self.history[pi][q.to().index()];
                let b = if q == best { bonus } else { -bonus };
                *h = with_bonus(*h, b);
                let reply = move_slot(pi, q.to().index());
                for slot in cont_slots.into_iter().flatten() {
                    let c = self.cont_history.entry_mut(slot, reply);
                    *c = with_bonus(i32::from(*c), b) as i16;
                }
            }
        }
    }

    /// After a cutoff by `best`: the capture history rewards `best` if it is a capture and
    /// punishes the captures tried before it that did not cut off.
    fn update_capture_stats(
        &mut self,
        shared: &Shared,
        best: Move,
        best_is_capture: bool,
        depth: i32,
        tried: &[Move],
    ) {
        let t = &shared.params.tune;
        let bonus = (depth * depth * t.history_bonus_mult).min(t.history_bonus_max);
        for &c in tried {
            let (Some(attacker), Some(victim)) =
                (self.pos.piece_at(c.from()), self.pos.piece_at(c.to()))
            else {
                continue;
            };
            let b = if best_is_capture && c == best {
                bonus
            } else {
                -bonus
            };
            let h =
                &mut self.capture_history[attacker.index()][c.to().index()][victim.role.index()];
            *h = with_bonus(*h, b);
        }
    }

    /// The continuation-history slots of the moves one, two and four plies before `ply`
    /// (`None` for a null move, before the root, or with the feature off; the four-ply one
    /// only with `continuation_history_4`).
    #[inline]
    pub(super) fn continuation_slots(&self, shared: &Shared, ply: usize) -> [Option<usize>; 3] {
        let mut slots = [None; 3];
        if !shared.params.continuation_history {
            return slots;
        }
        let distances = if shared.params.continuation_history_4 {
            &[1, 2, 4][..]
        } else {
            &[1, 2][..]
        };
        for (slot, &back) in slots.iter_mut().zip(distances) {
            if ply >= back {
                let f = &self.frames[ply - back];
                *slot = f.mv.map(|m| move_slot(f.piece as usize, m.to().index()));
            }
        }
        slots
    }
}
