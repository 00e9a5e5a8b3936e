//! The search proper: one [`Worker`] per thread, iterative deepening with aspiration
//! windows over principal variation search, quiescence, and the usual pruning, reductions
//! and move ordering. Everything the hot path touches is preallocated in the worker.
//!
//! One job a file: `iterate` (iterative deepening, the root move loop, the reports),
//! `node` (the full-width node search with its pruning, reductions and extensions),
//! `qsearch` (quiescence), `movepick` (ordering scores and the staged move picker) and
//! `repetition` (finding a repetition in the tree and judging it by the rules). This file
//! holds the worker's state and what they all use: making and unmaking moves, evaluating,
//! polling for a stop.

mod correction;
mod history;
mod iterate;
mod movepick;
mod node;
mod qsearch;
mod repetition;

use crate::limits::Limits;
use crate::params::Params;
use crate::tablebase::{tree_score, TB_WIN_BOUND};
use crate::time::TimeManager;
use crate::tt::Tt;
use arrayvec::ArrayVec;
use history::mvv_lva;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use xiangqi_core::{Move, Position, RuleSet};
use xiangqi_egtb::Tablebase;
use xiangqi_eval::{Evaluator, Score};

/// The deepest ply the search goes (plies from the root).
pub(crate) const MAX_PLY: usize = 120;
const INF: i32 = Score::INFINITE.0;
const MATE: i32 = Score::MATE.0;
const MATE_BOUND: i32 = Score::MATE_BOUND.0;
/// Scores at or above this (or at or below its negation) are tablebase wins or mates.
const TB_BOUND: i32 = TB_WIN_BOUND.0;
/// The largest evaluation: below the tablebase and mate scores.
const EVAL_MAX: i32 = TB_BOUND - 1;
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
    /// The tablebase probed in the tree, and the most pieces of its tables (0: none).
    pub tb: Option<&'a Tablebase>,
    pub tb_pieces: u32,
    pub tbhits: Vec<AtomicU64>,
    /// The first table error; after it the tree probes no more.
    pub tb_error: Mutex<Option<String>>,
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
    /// Nodes searched under this move so far in this search, every iteration counted
    /// (time management).
    pub nodes: u64,
}

#[derive(Copy, Clone, Default)]
struct Frame {
    /// The move made at this ply (to reach ply + 1), `None` for a null move.
    mv: Option<Move>,
    /// Piece index (0..14) of the piece moved.
    piece: u8,
    static_eval: i32,
    null_done: bool,
    /// The correction history's keys of the position at this ply.
    corr_keys: correction::Keys,
    /// The move left out of this ply's search (a singular extension's verification).
    excluded: Option<Move>,
}

/// One search thread's state, kept between searches (histories age rather than reset).
pub(crate) struct Worker<E: Evaluator> {
    pub id: usize,
    pub pos: Position,
    pub eval: E,
    pub nodes: u64,
    /// Positions valued by a table.
    pub tbhits: u64,
    /// A table could not be read in this search: no more probes.
    tb_failed: bool,
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
    /// Continuation histories: for a move (piece, target) made one or two plies before,
    /// the history of each reply (piece, target); see [`history::ContinuationHistory`].
    cont_history: Box<history::ContinuationHistory>,
    /// Capture history by piece index, target point and the victim's role.
    capture_history: Box<history::CaptureHistory>,
    correction: Box<correction::CorrectionHistory>,
    counter: Box<[[Option<Move>; 128]; 14]>,
    lmr: Box<[[u8; 64]; 64]>,
    pub root_moves: Vec<RootMove>,
    pub completed_depth: u32,
    /// The depth of the iteration under way (bounds the extensions).
    root_depth: i32,
    stopped: bool,
    pub tm: Option<TimeManager>,
    ponder_pending: bool,
    single_thread: bool,
    pub main_result_score: i32,
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
            tbhits: 0,
            tb_failed: false,
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
            cont_history: history::ContinuationHistory::new_boxed(),
            capture_history: Box::new([[[0; 7]; 128]; 14]),
            correction: correction::CorrectionHistory::new_boxed(),
            counter: Box::new([[None; 128]; 14]),
            lmr,
            root_moves: Vec::new(),
            completed_depth: 0,
            root_depth: 0,
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
        self.cont_history.clear();
        *self.capture_history = [[[0; 7]; 128]; 14];
        self.correction.clear();
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
        decay: bool,
    ) {
        self.pos = root.clone();
        self.eval.reset(root);
        self.frames[0].corr_keys = correction::Keys::of(root);
        self.nodes = 0;
        self.tbhits = 0;
        self.tb_failed = false;
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
        // Age the killers; keep the history, damped unless told otherwise.
        *self.killers = [[None; 2]; MAX_PLY + 2];
        if decay {
            for row in self.history.iter_mut() {
                for h in row.iter_mut() {
                    *h /= 2;
                }
            }
            self.cont_history.halve();
            for h in self.capture_history.iter_mut().flatten().flatten() {
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
                nodes: 0,
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
        s.clamp(-EVAL_MAX, EVAL_MAX)
    }

    /// The value of the current position from the tablebase, when the position was just
    /// reached by a capture (only then can its material differ from its parent's, whose
    /// probe would have ended the search there), has few enough pieces and its material a
    /// table. A table error is kept for the searcher to report and ends the probing.
    #[inline]
    fn probe_tablebase(&mut self, shared: &Shared, ply: usize) -> Option<i32> {
        let tb = shared.tb?;
        if self.pos.halfmove_clock() != 0
            || self.pos.piece_count() > shared.tb_pieces
            || self.tb_failed
        {
            return None;
        }
        match tb.probe_dtm(&self.pos) {
            Ok(Some(value)) => {
                self.tbhits += 1;
                Some(tree_score(value, ply))
            }
            Ok(None) => None,
            Err(e) => {
                self.table_failed(shared, e);
                None
            }
        }
    }

    /// The static evaluation `raw` of the position at `ply` with the correction history's
    /// correction added (when that feature is on).
    #[inline]
    fn corrected_eval(&self, shared: &Shared, ply: usize, raw: i32) -> i32 {
        if !shared.params.correction_history {
            return raw;
        }
        let side = self.pos.side_to_move().index();
        let c = self.correction.correction(side, self.frames[ply].corr_keys);
        (raw + c).clamp(-EVAL_MAX, EVAL_MAX)
    }

    #[cold]
    fn table_failed(&mut self, shared: &Shared, e: xiangqi_egtb::FormatError) {
        let mut first = shared.tb_error.lock().unwrap_or_else(|p| p.into_inner());
        first.get_or_insert_with(|| e.to_string());
        self.tb_failed = true;
    }

    #[inline]
    fn make(&mut self, shared: &Shared, m: Move, ply: usize, probes: bool) -> xiangqi_core::Undo {
        // The child probes the table first thing (`probes`): start loading its bucket now,
        // from the key the move will give, so that the load overlaps with making the move.
        if probes {
            shared.tt.prefetch(self.pos.key_after(m));
        }
        let moved = self.pos.piece_at(m.from());
        self.frames[ply].mv = Some(m);
        self.frames[ply].piece = moved.map_or(0, |p| p.index() as u8);
        if let Some(moved) = moved {
            self.frames[ply + 1].corr_keys =
                self.frames[ply]
                    .corr_keys
                    .after_move(m, moved, self.pos.piece_at(m.to()));
        }
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
            shared.tbhits[self.id].store(self.tbhits, Ordering::Relaxed);
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
                        tm.start = web_time::Instant::now();
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
}
