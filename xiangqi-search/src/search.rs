//! The search proper: one [`Worker`] per thread, iterative deepening with aspiration
//! windows over principal variation search, quiescence, and the usual pruning, reductions
//! and move ordering. Everything the hot path touches is preallocated in the worker.

use crate::see::{see_ge, see_value};
use crate::time::TimeManager;
use crate::tt::{score_from_tt, score_to_tt, Bound, Tt};
use crate::{Info, Limits, Params};
use arrayvec::ArrayVec;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use xiangqi_core::{judge_repetition, Move, MoveList, Position, Role, RuleSet, MAX_MOVES};
use xiangqi_eval::{Evaluator, Score};

/// The deepest ply the search goes (plies from the root).
pub(crate) const MAX_PLY: usize = 120;
const INF: i32 = Score::INFINITE.0;
const MATE: i32 = Score::MATE.0;
const MATE_BOUND: i32 = Score::MATE_BOUND.0;
/// The score of winning by the repetition rules (the opponent's perpetual check or chase):
/// decisive, but below every mate score.
const REPETITION_WIN: i32 = 20_000;
/// Plies without a capture after which the game is drawn (60 moves).
const RULE60: u32 = 120;

/// What all threads of one search share.
pub(crate) struct Shared<'a> {
    pub tt: &'a Tt,
    pub stop: &'a AtomicBool,
    pub ponderhit: &'a AtomicBool,
    /// Set by the main thread when it is done, to end the helpers.
    pub abort: AtomicBool,
    pub params: &'a Params,
    pub limits: &'a Limits,
    pub nodes: Vec<AtomicU64>,
    pub multipv: usize,
    /// Evaluation noise amplitude (strength levels), with its seed.
    pub noise: i32,
    pub seed: u64,
    /// The rules that judge repetitions (chases) in the tree.
    pub rules: RuleSet,
}

impl Shared<'_> {
    fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// A root move with its score and line.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub seldepth: usize,
    pub pv: ArrayVec<Move, MAX_PLY>,
}

#[derive(Copy, Clone, Default)]
struct Frame {
    /// The move made at this ply (to reach ply + 1), `None` for a null move.
    mv: Option<Move>,
    /// Piece index (0..14) of the piece moved.
    piece: u8,
    static_eval: i32,
    null_done: bool,
}

/// One search thread's state, kept between searches (histories age rather than reset).
pub(crate) struct Worker<E: Evaluator> {
    pub id: usize,
    pub pos: Position,
    pub eval: E,
    pub nodes: u64,
    seldepth: usize,
    /// Keys of the game's positions, then of the tree's; `in_check` alongside.
    keys: Vec<u64>,
    in_check: Vec<bool>,
    /// The game's positions and moves since the last capture (the root last), for the
    /// repetition judge; `keys[i]` is the key of `hist_positions[i]`.
    hist_positions: Vec<Position>,
    hist_moves: Vec<Move>,
    frames: Box<[Frame; MAX_PLY + 4]>,
    pv: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: Box<[usize; MAX_PLY + 1]>,
    killers: Box<[[Option<Move>; 2]; MAX_PLY + 2]>,
    // History and counter moves by piece and target point; 128 columns rather than 90, so
    // that a move's 7-bit target indexes them without a bounds check.
    history: Box<[[i32; 128]; 14]>,
    counter: Box<[[Option<Move>; 128]; 14]>,
    lmr: Box<[[u8; 64]; 64]>,
    pub root_moves: Vec<RootMove>,
    pub completed_depth: u32,
    stopped: bool,
    pub tm: Option<TimeManager>,
    ponder_pending: bool,
    single_thread: bool,
    pub main_result_score: i32,
}

/// Move-ordering scores.
const GOOD_CAPTURE: i32 = 2_000_000;
const KILLER1: i32 = 1_000_000;
const KILLER2: i32 = 999_000;
const COUNTER: i32 = 998_000;
const BAD_CAPTURE: i32 = -2_000_000;
const HISTORY_MAX: i32 = 16_384;

#[inline]
fn role_of(pos: &Position, sq: xiangqi_core::Square) -> Option<Role> {
    pos.piece_at(sq).map(|p| p.role)
}

/// MVV-LVA order of a capture: the most valuable victim first, then the least valuable
/// attacker (0 for a move that captures nothing).
#[inline]
fn mvv_lva(pos: &Position, m: Move) -> i32 {
    match role_of(pos, m.to()) {
        Some(victim) => {
            let attacker = role_of(pos, m.from()).map_or(0, see_value);
            see_value(victim) * 16 - attacker / 100
        }
        None => 0,
    }
}

impl<E: Evaluator> Worker<E> {
    pub fn new(id: usize, eval: E) -> Worker<E> {
        let mut lmr = Box::new([[0u8; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
            }
        }
        Worker {
            id,
            pos: Position::startpos(),
            eval,
            nodes: 0,
            seldepth: 0,
            keys: Vec::new(),
            in_check: Vec::new(),
            hist_positions: Vec::new(),
            hist_moves: Vec::new(),
            frames: Box::new([Frame::default(); MAX_PLY + 4]),
            pv: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: Box::new([0; MAX_PLY + 1]),
            killers: Box::new([[None; 2]; MAX_PLY + 2]),
            history: Box::new([[0; 128]; 14]),
            counter: Box::new([[None; 128]; 14]),
            lmr,
            root_moves: Vec::new(),
            completed_depth: 0,
            stopped: false,
            tm: None,
            ponder_pending: false,
            single_thread: true,
            main_result_score: 0,
        }
    }

    /// Forgets the histories (new game).
    pub fn clear(&mut self) {
        *self.history = [[0; 128]; 14];
        *self.counter = [[None; 128]; 14];
        *self.killers = [[None; 2]; MAX_PLY + 2];
    }

    /// Prepares for a search of `root` reached through `history` (earlier positions, oldest
    /// first, not including `root`).
    pub fn prepare(
        &mut self,
        history: &[Position],
        history_moves: &[Move],
        root: &Position,
        root_moves: &[Move],
        single_thread: bool,
    ) {
        self.pos = root.clone();
        self.eval.reset(root);
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.completed_depth = 0;
        self.single_thread = single_thread;
        self.keys.clear();
        self.in_check.clear();
        self.keys.reserve(history.len() + MAX_PLY + 8);
        self.in_check.reserve(history.len() + MAX_PLY + 8);
        // Only positions since the last capture can repeat.
        let since = (root.halfmove_clock() as usize).min(history.len());
        self.hist_positions.clear();
        self.hist_moves.clear();
        for (i, p) in history.iter().enumerate().skip(history.len() - since) {
            self.keys.push(p.key());
            self.in_check.push(p.is_check());
            self.hist_positions.push(p.clone());
            self.hist_moves.push(history_moves[i]);
        }
        self.hist_positions.push(root.clone());
        self.keys.push(root.key());
        self.in_check.push(root.is_check());
        // Age the killers; keep the history but damp it.
        *self.killers = [[None; 2]; MAX_PLY + 2];
        for row in self.history.iter_mut() {
            for h in row.iter_mut() {
                *h /= 2;
            }
        }
        self.root_moves = root_moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INF,
                prev_score: -INF,
                seldepth: 0,
                pv: {
                    let mut pv = ArrayVec::new();
                    pv.push(mv);
                    pv
                },
            })
            .collect();
        // Initial order: captures by MVV-LVA first, then the rest as generated.
        let pos = &self.pos;
        self.root_moves.sort_by_key(|rm| -mvv_lva(pos, rm.mv));
    }

    #[inline]
    fn evaluate(&mut self, shared: &Shared) -> i32 {
        let s = self.eval.evaluate(&self.pos).0;
        let s = if shared.noise > 0 {
            let mut x = self.pos.key() ^ shared.seed;
            x = (x ^ (x >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
            x ^= x >> 33;
            s + (x % (2 * shared.noise as u64 + 1)) as i32 - shared.noise
        } else {
            s
        };
        s.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    #[inline]
    fn make(&mut self, shared: &Shared, m: Move, ply: usize, probes: bool) -> xiangqi_core::Undo {
        // The child probes the table first thing (`probes`): start loading its bucket now,
        // from the key the move will give, so that the load overlaps with making the move.
        if probes {
            shared.tt.prefetch(self.pos.key_after(m));
        }
        self.frames[ply].mv = Some(m);
        self.frames[ply].piece = self.pos.piece_at(m.from()).map_or(0, |p| p.index() as u8);
        self.eval.make_move(&self.pos, m);
        let u = self.pos.make_move(m);
        self.keys.push(self.pos.key());
        self.in_check.push(self.pos.is_check());
        u
    }

    #[inline]
    fn unmake(&mut self, m: Move, u: xiangqi_core::Undo) {
        self.keys.pop();
        self.in_check.pop();
        self.pos.unmake_move(m, u);
        self.eval.unmake_move(&self.pos, m);
    }

    /// Polls the stop conditions; sets `self.stopped`.
    #[inline]
    fn check_stop(&mut self, shared: &Shared) -> bool {
        if self.stopped {
            return true;
        }
        if self.single_thread {
            if let Some(n) = shared.limits.nodes {
                if self.nodes >= n {
                    self.stopped = true;
                    return true;
                }
            }
        }
        if self.nodes & 255 == 0 {
            shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if shared.stop.load(Ordering::Relaxed) || shared.abort.load(Ordering::Relaxed) {
                self.stopped = true;
                return true;
            }
            if self.id == 0 {
                if !self.single_thread {
                    if let Some(n) = shared.limits.nodes {
                        if shared.total_nodes() >= n {
                            self.stopped = true;
                            return true;
                        }
                    }
                }
                if self.ponder_pending && shared.ponderhit.load(Ordering::Relaxed) {
                    self.ponder_pending = false;
                    if let Some(tm) = &mut self.tm {
                        tm.start = std::time::Instant::now();
                    }
                }
                if !self.ponder_pending && self.completed_depth >= 1 {
                    if let Some(tm) = &self.tm {
                        if tm.out_of_time() {
                            self.stopped = true;
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// Verdict on a repetition of the current position, if any: `Some(score)` for the side
    /// to move. Perpetual check by one side loses for it; other repetitions are draws.
    #[inline]
    fn repetition(&self, shared: &Shared, ply: usize) -> Option<i32> {
        let cur = self.keys.len() - 1;
        let key = self.keys[cur];
        let limit = (self.pos.halfmove_clock() as usize).min(cur);
        let mut i = 4;
        while i <= limit {
            if self.keys[cur - i] == key {
                return Some(self.judge_cycle(shared, cur - i, cur, ply));
            }
            i += 2;
        }
        None
    }

    /// Judges the cycle from index `first` to `cur` (same position, same side to move).
    /// This is the swappable rule: the rules team's `judge_repetition` (chases too) can
    /// replace it.
    fn judge_cycle(&self, shared: &Shared, first: usize, cur: usize, ply: usize) -> i32 {
        // A win or loss by the repetition rules scores below every checkmate: the engine
        // mates when it can rather than relying on the arbiter's judgement of a repetition.
        let lose = -REPETITION_WIN + ply as i32;
        let win = REPETITION_WIN - ply as i32;
        // Positions first+1, first+3, ..: the opponent to move, in check = we checked.
        let us_checks = (first + 1..cur).step_by(2).all(|k| self.in_check[k]);
        let them_checks = (first + 2..=cur).step_by(2).all(|k| self.in_check[k]);
        match (us_checks, them_checks) {
            (true, false) => return lose,
            (false, true) => return win,
            (true, true) => return 0,
            _ => {}
        }
        // No perpetual check: ask the rules about chases (and, under the Chinese rules,
        // mate threats), replaying the cycle from its first position.
        let root_idx = self.hist_positions.len() - 1;
        let mut cycle: ArrayVec<Move, { 2 * MAX_PLY + 8 }> = ArrayVec::new();
        let start;
        let tree_from;
        if first >= root_idx {
            let mut p = self.hist_positions[root_idx].clone();
            for f in &self.frames[..first - root_idx] {
                match f.mv {
                    Some(m) => {
                        p.make_move(m);
                    }
                    None => return 0,
                }
            }
            start = p;
            tree_from = first - root_idx;
        } else {
            start = self.hist_positions[first].clone();
            for &m in &self.hist_moves[first..] {
                if cycle.try_push(m).is_err() {
                    return 0;
                }
            }
            tree_from = 0;
        }
        for f in &self.frames[tree_from..ply] {
            match f.mv {
                Some(m) if cycle.try_push(m).is_ok() => {}
                _ => return 0,
            }
        }
        match judge_repetition(&start, &cycle, shared.rules).loser() {
            Some(c) if c == self.pos.side_to_move() => lose,
            Some(_) => win,
            None => 0,
        }
    }

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
            if self.id > 0 && depth > 1 && (depth + self.id as u32) % 3 == 0 {
                depth += 1;
                continue;
            }
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = 25;
                let (mut alpha, mut beta) =
                    if shared.params.aspiration && depth >= 5 && prev.abs() < MATE_BOUND {
                        ((prev - delta).max(-INF), (prev + delta).min(INF))
                    } else {
                        (-INF, INF)
                    };
                loop {
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
    }

    fn report(&self, shared: &Shared, depth: u32, pv_idx: usize, observer: &mut dyn FnMut(&Info)) {
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
        });
    }

    fn root_search(
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

    #[inline]
    fn pos_was_quiet(&self, u: xiangqi_core::Undo) -> bool {
        u.captured().is_none()
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = Some(m);
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for k in ply + 1..child_len {
            self.pv[ply][k] = self.pv[ply + 1][k];
        }
        self.pv_len[ply] = child_len;
    }

    /// The killer and counter moves of `ply`, tried before the other quiet moves.
    #[inline]
    fn order_hints(&self, shared: &Shared, ply: usize) -> ([Option<Move>; 2], Option<Move>) {
        let p = shared.params;
        let counter = if ply > 0 && p.countermove {
            match self.frames[ply - 1].mv {
                Some(prev) => self.counter[self.frames[ply - 1].piece as usize][prev.to().index()],
                None => None,
            }
        } else {
            None
        };
        (self.killers[ply], counter)
    }

    /// The index of the best-scored move in `start..end` (the first of equals).
    #[inline]
    fn best_index(scores: &[i32], start: usize, end: usize) -> usize {
        let mut best = start;
        let mut best_score = scores[start];
        for (i, &s) in scores[start + 1..end].iter().enumerate() {
            if s > best_score {
                best_score = s;
                best = start + 1 + i;
            }
        }
        best
    }

    /// The next move to try, from `start`: selection of the best while `sorted` is false
    /// (most nodes cut off early), and once the caller sets `sort` one insertion sort of
    /// the rest (all-nodes try everything), after which the moves are taken in order.
    #[inline]
    fn pick(
        list: &mut MoveList,
        scores: &mut [i32],
        start: usize,
        sort: bool,
        sorted: &mut bool,
    ) -> (Move, i32) {
        if *sorted {
            return (list[start], scores[start]);
        }
        if sort {
            *sorted = true;
            for i in start + 1..list.len() {
                let (m, sc) = (list[i], scores[i]);
                let mut j = i;
                while j > start && scores[j - 1] < sc {
                    scores[j] = scores[j - 1];
                    list[j] = list[j - 1];
                    j -= 1;
                }
                scores[j] = sc;
                list[j] = m;
            }
            return (list[start], scores[start]);
        }
        let best = Self::best_index(scores, start, list.len());
        list.swap(start, best);
        scores.swap(start, best);
        (list[start], scores[start])
    }

    fn update_quiet_stats(
        &mut self,
        shared: &Shared,
        ply: usize,
        best: Move,
        depth: i32,
        quiets: &[Move],
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
            let bonus = (depth * depth * 16).min(1600);
            for &q in quiets {
                let pi = self.pos.piece_at(q.from()).map_or(0, |x| x.index());
                let h = &mut self.history[pi][q.to().index()];
                let b = if q == best { bonus } else { -bonus };
                *h += b - *h * b.abs() / HISTORY_MAX;
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
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

        let key = self.pos.key();
        let tte = shared.tt.probe(key);
        let mut tt_move = None;
        if let Some(e) = tte {
            if p.tt {
                tt_move = e.mv.filter(|&m| self.pos.is_legal(m));
                let s = score_from_tt(e.score, ply);
                if !pv_node
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

        let static_eval = if in_check {
            -INF
        } else if let Some(e) = tte {
            e.eval
        } else {
            self.evaluate(shared)
        };
        self.frames[ply].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.frames[ply - 2].static_eval;
        self.frames[ply + 1].null_done = false;

        if !in_check && !pv_node {
            // Reverse futility: far above beta at low depth, trust the static evaluation.
            if p.reverse_futility
                && depth <= 7
                && beta.abs() < MATE_BOUND
                && static_eval - 90 * (depth - improving as i32) >= beta
            {
                return static_eval;
            }
            // Null move. Xiangqi endings with only advisors, elephants and pawns are full of
            // zugzwang (the defender's pieces must move), so there it is off.
            let us = self.pos.side_to_move();
            let attackers = self.pos.count(us, Role::Chariot)
                + self.pos.count(us, Role::Horse)
                + self.pos.count(us, Role::Cannon);
            if p.null_move
                && depth >= 3
                && static_eval >= beta
                && !self.frames[ply].null_done
                && attackers > 0
                && beta.abs() < MATE_BOUND
            {
                let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                self.frames[ply].mv = None;
                self.frames[ply + 1].null_done = true;
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
                            return if s >= MATE_BOUND { beta } else { s };
                        }
                    } else {
                        return if s >= MATE_BOUND { beta } else { s };
                    }
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
        let mut list = MoveList::new();
        let mut scores: ArrayVec<i32, MAX_MOVES> = ArrayVec::new();
        // Stages: 0 the table's move (before generating anything), 1 the good captures
        // (only captures generated), 2 the killers and counter move (checked for
        // legality), 3 generate the quiet moves, 4 the quiet moves by history, 5 the bad
        // captures. The bad captures stay in list[idx..bad_end], in the order the good
        // captures' stage left them; the quiet moves follow them, from `quiet_idx` on.
        let mut stage = if tt_move.is_some() { 0u8 } else { 1 };
        let mut captures_generated = false;
        let (killers, counter) = self.order_hints(shared, ply);
        let mut picks = 0usize;
        let mut hint_idx = 0;
        let mut tried: ArrayVec<Move, 3> = ArrayVec::new();
        let mut sorted = false;
        let mut idx = 0;
        let mut bad_end = 0;
        let mut quiet_idx = 0;
        let futility_base = static_eval + 120 + 110 * depth;
        // Late move pruning: past `lmp_limit` moves, the quiet moves other than the killers
        // and the counter move are dropped (when not in check, and only once some move has
        // scored above a mate; checked where it applies).
        let lmp_allowed = p.late_move_pruning && depth <= 8 && !pv_node;
        let lmp_limit = (3 + depth * depth) / (2 - improving as i32);

        loop {
            let (m, order) = match stage {
                0 => {
                    stage = 1;
                    match tt_move {
                        Some(t) => (t, GOOD_CAPTURE * 2),
                        None => continue,
                    }
                }
                1 => {
                    if !captures_generated {
                        captures_generated = true;
                        self.pos.legal_captures_into(&mut list);
                        if let Some(t) = tt_move {
                            if let Some(i) = list.iter().position(|&x| x == t) {
                                list.swap_remove(i);
                            }
                        }
                        // All scored as good: a capture of a less valuable piece is checked by
                        // SEE only when it is picked (most nodes cut off before), and then
                        // demoted if it loses.
                        for &c in &list {
                            scores.push(GOOD_CAPTURE + mvv_lva(&self.pos, c));
                        }
                    }
                    if idx < list.len() {
                        let best = Self::best_index(&scores, idx, list.len());
                        if scores[best] >= GOOD_CAPTURE {
                            let c = list[best];
                            let vv = role_of(&self.pos, c.to()).map_or(0, see_value);
                            let av = role_of(&self.pos, c.from()).map_or(0, see_value);
                            if p.see && vv < av && !see_ge(&mut self.pos, c, 0) {
                                // A losing capture: with the bad ones, after the quiet moves.
                                scores[best] += BAD_CAPTURE - GOOD_CAPTURE;
                                continue;
                            }
                            list.swap(idx, best);
                            scores.swap(idx, best);
                            idx += 1;
                            (list[idx - 1], scores[idx - 1])
                        } else {
                            stage = 2;
                            continue;
                        }
                    } else {
                        stage = 2;
                        continue;
                    }
                }
                2 => {
                    // The killers and the counter move, if legal quiet moves here, before
                    // generating the quiet moves.
                    let next = loop {
                        if hint_idx >= 3 {
                            break None;
                        }
                        let (h, order) = match hint_idx {
                            0 if p.killers => (killers[0], KILLER1),
                            1 if p.killers => (killers[1], KILLER2),
                            2 => (counter, COUNTER),
                            _ => (None, 0),
                        };
                        hint_idx += 1;
                        if let Some(h) = h {
                            if Some(h) != tt_move
                                && !tried.contains(&h)
                                && self.pos.piece_at(h.to()).is_none()
                                && self.pos.is_legal(h)
                            {
                                tried.push(h);
                                break Some((h, order));
                            }
                        }
                    };
                    match next {
                        Some(r) => r,
                        None => {
                            stage = 3;
                            continue;
                        }
                    }
                }
                3 => {
                    stage = 4;
                    bad_end = list.len();
                    quiet_idx = bad_end;
                    if depth <= 2
                        && lmp_allowed
                        && move_count as i32 >= lmp_limit
                        && !in_check
                        && best_score > -MATE_BOUND
                        && ply > 0
                    {
                        // Late move pruning would drop the first quiet move picked, and with
                        // it all the others: skip generating them. (When they are dropped
                        // they count as tried, for the reductions of the bad captures left;
                        // below depth 3 there are none, so the count is not needed.)
                        continue;
                    }
                    // Generated straight into the list after the bad captures; those already
                    // tried (the table's move, if quiet, and the killers and counter move of
                    // stage 2) are taken out in place, and the rest ordered by history alone.
                    let first = list.len();
                    self.pos.legal_quiets_into(&mut list);
                    let tt_quiet = tt_move.filter(|&t| self.pos.piece_at(t.to()).is_none());
                    if tt_quiet.is_some() || !tried.is_empty() {
                        let mut w = first;
                        for r in first..list.len() {
                            let q = list[r];
                            if Some(q) != tt_quiet && !tried.contains(&q) {
                                list[w] = q;
                                w += 1;
                            }
                        }
                        list.truncate(w);
                    }
                    for &q in &list[first..] {
                        scores.push(if p.history {
                            let piece = self.pos.piece_at(q.from()).map_or(0, |x| x.index());
                            self.history[piece][q.to().index()]
                        } else {
                            0
                        });
                    }
                    continue;
                }
                4 => {
                    if quiet_idx >= list.len() {
                        stage = 5;
                        continue;
                    }
                    // Sort the rest after a few picks, except where late move pruning will
                    // soon drop the quiet moves (then selection is cheaper).
                    let sort = picks >= 3 && (pv_node || depth > 8 || picks >= 12);
                    let r = Self::pick(&mut list, &mut scores, quiet_idx, sort, &mut sorted);
                    picks += 1;
                    quiet_idx += 1;
                    r
                }
                _ => {
                    if idx >= bad_end {
                        break;
                    }
                    let best = Self::best_index(&scores, idx, bad_end);
                    list.swap(idx, best);
                    scores.swap(idx, best);
                    idx += 1;
                    (list[idx - 1], scores[idx - 1])
                }
            };
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
                    move_count += list.len() - quiet_idx;
                    list.truncate(quiet_idx);
                    scores.truncate(quiet_idx);
                    continue;
                }
                if p.futility && quiet && depth <= 8 && futility_base <= alpha && order < COUNTER {
                    futile = true;
                }
                // Losing captures at low depth, unless they check (a sacrifice that mates).
                if p.see
                    && is_capture
                    && depth <= 6
                    && order < GOOD_CAPTURE
                    && !see_ge(&mut self.pos, m, -90 * depth)
                {
                    futile = true;
                }
            }

            if futile && !self.pos.gives_check(m) {
                // Pruned unless it gives check (a sacrifice that mates).
                continue;
            }
            // A child at depth 0 or less is a quiescence node.
            let u = self.make(shared, m, ply, p.qsearch_tt || depth > 1);
            let gives_check = self.pos.is_check();
            let ext = (p.check_extension && gives_check && (ply as i32) < 2 * depth + 10) as i32;
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
                        r -= order / 6000;
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
                    score = -self.negamax(
                        shared,
                        -alpha - 1,
                        -alpha,
                        new_depth,
                        ply + 1,
                        !cut_node,
                        false,
                    );
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
                            self.update_quiet_stats(shared, ply, m, depth, &quiets);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
        }

        if move_count == 0 {
            // No legal move: lost, in check or not (stalemate loses in xiangqi).
            return -MATE + ply as i32;
        }
        if best_score == -INF {
            // Every move was pruned: fail low at alpha.
            best_score = alpha;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        shared.tt.store(
            key,
            best_move,
            score_to_tt(best_score, ply),
            static_eval.max(-MATE_BOUND),
            depth,
            bound,
        );
        best_score
    }

    /// The start of every node, full-width or quiescence: count it, poll for a stop (`None`:
    /// stop now), track the selective depth, and say whether the side to move is in check.
    #[inline]
    fn enter_node(&mut self, shared: &Shared, ply: usize) -> Option<bool> {
        self.pv_len[ply] = ply;
        self.nodes += 1;
        if self.check_stop(shared) {
            return None;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        Some(self.pos.is_check())
    }

    fn qsearch(&mut self, shared: &Shared, mut alpha: i32, beta: i32, ply: usize) -> i32 {
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
        if !in_check {
            stand_pat = match tte {
                Some(e) => e.eval,
                None if shared.noise == 0 => {
                    let s = self
                        .eval
                        .evaluate_bounded(&self.pos, Score(alpha), Score(beta))
                        .0
                        .clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
                    // A bound is outside the window: at most alpha or at least beta.
                    lazy = s <= alpha || s >= beta;
                    s
                }
                None => self.evaluate(shared),
            };
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
            let (m, _) = Self::pick(&mut list, &mut scores, idx, idx >= 3, &mut sorted);
            any = true;
            if !in_check {
                let v = role_of(&self.pos, m.to()).map_or(0, see_value);
                if p.delta_pruning && stand_pat + v + 200 <= alpha && v < 10_000 {
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
                if in_check { 0 } else { stand_pat },
                0,
                bound,
            );
        }
        best
    }
}
