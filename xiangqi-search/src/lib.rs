#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
// Audited exceptions, both hints to the machine in `tt.rs`: cache prefetch and huge pages.
#![deny(unsafe_code)]

mod level;
mod params;
mod search;
mod see;
mod time;
mod tt;

pub use level::Level;
pub use params::Params;
use search::{Shared, Worker};
pub use see::{see, see_ge, see_value};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
pub use tt::{score_from_tt, score_to_tt, Bound, TableView, Tt, TtEntry, TtProbe};
use xiangqi_core::{Game, Move, Position, RuleSet};
pub use xiangqi_eval::{DefaultEvaluator, Evaluator, Score};

/// A player's clock, for clock play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left for the side to move.
    pub time: Duration,
    /// Increment per move for the side to move.
    pub increment: Duration,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}

/// When to stop searching. Several limits may be set; the first reached stops the search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// Clock play.
    pub clock: Option<Clock>,
    /// Search until stopped.
    pub infinite: bool,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Pondering: time limits wait until [`StopHandle::ponderhit`].
    pub ponder: bool,
    /// Only consider these root moves (all when empty).
    pub search_moves: Vec<Move>,
}

/// Progress of the search, reported once per iteration (and per MultiPV line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Which line (1 = best) when MultiPV is on.
    pub multipv: usize,
    /// Score for the side to move.
    pub score: Score,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition table use, per mille.
    pub hashfull: u32,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play (`None` only when there is no legal move).
    pub best_move: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder_move: Option<Move>,
    /// Score for the side to move.
    pub score: Score,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// Stops a running search from another thread.
#[derive(Clone, Debug, Default)]
pub struct StopHandle {
    stop: Arc<AtomicBool>,
    ponderhit: Arc<AtomicBool>,
}

impl StopHandle {
    /// Asks the search to stop as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
    /// Has a stop been asked for?
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// The opponent played the pondered move: start the clock.
    pub fn ponderhit(&self) {
        self.ponderhit.store(true, Ordering::Relaxed);
    }
}

/// The engine. Keeps its transposition table, histories and threads' state between searches.
pub struct Searcher<E: Evaluator = DefaultEvaluator> {
    evaluator: E,
    stop: StopHandle,
    hash_mb: usize,
    threads: usize,
    multipv: usize,
    tt: Arc<Tt>,
    workers: Vec<Worker<E>>,
    params: Params,
    level: Option<Level>,
    seed: u64,
    rules: RuleSet,
}

impl Searcher<DefaultEvaluator> {
    /// A searcher with the default evaluator, 16 MiB of hash and one thread.
    pub fn new() -> Self {
        Searcher::with_evaluator(DefaultEvaluator::new())
    }
}

impl Default for Searcher<DefaultEvaluator> {
    fn default() -> Self {
        Searcher::new()
    }
}

impl<E: Evaluator> Searcher<E> {
    /// A searcher using `evaluator` (16 MiB of hash, one thread).
    pub fn with_evaluator(evaluator: E) -> Self {
        Searcher {
            workers: vec![Worker::new(0, evaluator.clone())],
            evaluator,
            stop: StopHandle::default(),
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            tt: Arc::new(Tt::new(16)),
            params: Params::default(),
            level: None,
            seed: 0x9e37_79b9_7f4a_7c15,
            rules: RuleSet::default(),
        }
    }
    /// Replaces the evaluator (each search thread gets its own clone). The transposition
    /// table keeps its entries: call [`Searcher::new_game`] as well when the old scores
    /// should not guide the new evaluator.
    pub fn set_evaluator(&mut self, evaluator: E) {
        for w in &mut self.workers {
            w.eval = evaluator.clone();
        }
        self.evaluator = evaluator;
    }
    /// The evaluator the searches use.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }
    /// Sets the transposition table size in MiB (clears it). If that much memory cannot be
    /// had, the largest half-size that can is used instead: [`Searcher::hash_size`] tells.
    pub fn set_hash_size(&mut self, mb: usize) {
        self.tt = Arc::new(Tt::new(mb.max(1)));
        // Smaller than asked when the memory could not be had.
        self.hash_mb = self.tt.size_mb().clamp(1, mb.max(1));
    }
    /// The transposition table size in MiB.
    pub fn hash_size(&self) -> usize {
        self.hash_mb
    }
    /// Sets the number of search threads (Lazy SMP; at least one).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, 256);
    }
    /// Sets how many best lines to report (MultiPV; at least one).
    pub fn set_multipv(&mut self, n: usize) {
        self.multipv = n.max(1);
    }
    /// The search feature switches.
    pub fn params(&self) -> &Params {
        &self.params
    }
    /// Replaces the search feature switches.
    pub fn set_params(&mut self, params: Params) {
        self.params = params;
    }
    /// Plays at a strength level (`None`: full strength). See [`Level::all`].
    pub fn set_level(&mut self, level: Option<Level>) {
        self.level = level;
    }
    /// Sets the rules that judge repetitions met in the search (perpetual check and chase).
    pub fn set_rules(&mut self, rules: RuleSet) {
        self.rules = rules;
    }
    /// Seeds the randomness of the weaker levels (each game should get its own seed).
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }
    /// What the transposition table holds for `pos`, read without changing anything: the
    /// bound, depth, score and move the last search that reached `pos` stored, if that entry
    /// is still there. The move, if any, is legal in `pos`.
    ///
    /// ```
    /// use xiangqi_core::Game;
    /// use xiangqi_search::{Limits, Searcher};
    /// let mut searcher = Searcher::new();
    /// let game = Game::default();
    /// let limits = Limits { depth: Some(5), ..Limits::default() };
    /// let result = searcher.search(&game, &limits, &mut |_| {});
    /// let entry = searcher.probe(game.position()).expect("the root was stored");
    /// assert_eq!(entry.best_move, result.best_move);
    /// ```
    pub fn probe(&self, pos: &Position) -> Option<TtProbe> {
        self.tt.probe_position(pos)
    }
    /// A read-only view of the transposition table that can be probed from another thread,
    /// also while a search runs. It sees the table of this moment: after
    /// [`Searcher::set_hash_size`] the searcher has a new table and the view keeps the old.
    pub fn table(&self) -> TableView {
        TableView::new(Arc::clone(&self.tt))
    }
    /// A handle that stops a running search from another thread.
    pub fn stop_handle(&self) -> StopHandle {
        self.stop.clone()
    }
    /// Forgets everything learned (TT, histories) before a new game.
    pub fn new_game(&mut self) {
        self.tt.clear();
        for w in &mut self.workers {
            w.clear();
        }
        self.seed = self
            .seed
            .wrapping_mul(0x5851_f42d_4c95_7f2d)
            .wrapping_add(1442695040888963407);
    }

    /// Searches the current position of `game` (whose earlier positions count for
    /// repetitions) within `limits`, calling `observer` with progress once per iteration
    /// (and per line with MultiPV), from the calling thread.
    ///
    /// A stop asked through [`StopHandle::stop`] before the call is forgotten: the flag is
    /// cleared when the search starts.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        observer: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let start = Instant::now();
        self.stop.stop.store(false, Ordering::Relaxed);
        self.stop.ponderhit.store(false, Ordering::Relaxed);
        let root = game.position();
        let mut root_moves: Vec<Move> = root.legal_moves().into_iter().collect();
        if !limits.search_moves.is_empty() {
            root_moves.retain(|m| limits.search_moves.contains(m));
        }
        if root_moves.is_empty() {
            return SearchResult {
                best_move: None,
                ponder_move: None,
                score: Score::mated_in(0),
                pv: Vec::new(),
                depth: 0,
                nodes: 0,
            };
        }
        let mut limits = limits.clone();
        let mut noise = 0;
        if let Some(level) = &self.level {
            limits.depth = min_opt(limits.depth, level.depth);
            limits.nodes = min_opt(limits.nodes, level.nodes);
            noise = level.noise;
        }
        self.tt.new_search();
        while self.workers.len() < self.threads {
            let id = self.workers.len();
            self.workers.push(Worker::new(id, self.evaluator.clone()));
        }
        let positions = game.positions();
        let history = &positions[..positions.len() - 1];
        let threads = self.threads;
        for w in &mut self.workers[..threads] {
            w.prepare(history, game.moves(), root, &root_moves, threads == 1);
        }
        self.workers[0].tm = Some(time::TimeManager::new(&limits, start));
        let shared = Shared {
            tt: &self.tt,
            stop: &self.stop.stop,
            ponderhit: &self.stop.ponderhit,
            abort: AtomicBool::new(false),
            params: &self.params,
            limits: &limits,
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            multipv: self.multipv,
            noise,
            seed: self.seed,
            rules: self.rules,
        };
        let (main, helpers) = self.workers[..threads].split_at_mut(1);
        std::thread::scope(|s| {
            for h in helpers.iter_mut() {
                let shared = &shared;
                s.spawn(move || h.iterate(shared, &mut |_| {}));
            }
            main[0].iterate(&shared, observer);
            shared.abort.store(true, Ordering::Relaxed);
        });
        let nodes = shared
            .nodes
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .sum::<u64>();
        let w = &self.workers[0];
        let best = &w.root_moves[0];
        let score = if best.score == -Score::INFINITE.0 {
            best.prev_score
        } else {
            best.score
        };
        let score = if score == -Score::INFINITE.0 {
            0
        } else {
            score
        };
        let depth = w.completed_depth.max(1);
        // The root is searched outside the table (its moves are ordered by their own
        // scores); store what the search found there, so that a probe of the position just
        // searched (UCCI's `probe`) reads its answer.
        let mut eval = self.evaluator.clone();
        eval.reset(root);
        self.tt.store(
            root.key(),
            Some(best.mv),
            score_to_tt(score, 0),
            eval.evaluate(root).0,
            depth as i32,
            tt::Bound::Exact,
        );
        SearchResult {
            best_move: Some(best.mv),
            ponder_move: best.pv.get(1).copied(),
            score: Score(score),
            pv: best.pv.to_vec(),
            depth,
            nodes,
        }
    }
}

fn min_opt<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, None) => a,
        (None, b) => b,
    }
}
