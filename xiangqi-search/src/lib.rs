#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
// Audited exceptions, both hints to the machine in `tt.rs`: cache prefetch and huge pages.
#![deny(unsafe_code)]

pub mod bench_positions;
mod level;
mod limits;
mod params;
pub mod review;
mod search;
mod see;
mod tablebase;
mod time;
mod tt;
mod tune;

pub use level::Level;
pub use limits::{Clock, Info, Limits, SearchResult};
pub use params::Params;
use search::{Shared, Worker};
pub use see::{see, see_ge, see_value};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
pub use tune::{TunableSpec, Tunables};
// `web_time` is `std::time` on native targets; in a browser it reads `performance.now()`
// (std's `Instant::now` panics on wasm32-unknown-unknown).
pub use tablebase::{TB_WIN, TB_WIN_BOUND};
pub use tt::{score_from_tt, score_to_tt, Bound, TableView, Tt, TtEntry, TtProbe};
use web_time::Instant;
use xiangqi_core::{Game, Move, Position, RuleSet};
pub use xiangqi_egtb::Tablebase;
pub use xiangqi_eval::{DefaultEvaluator, Evaluator, Score};

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
    tablebase: Option<Arc<Tablebase>>,
    tablebase_error: Option<String>,
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
            tablebase: None,
            tablebase_error: None,
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
    /// Plays with endgame tablebases (`None`: without). At full strength (no
    /// [`Searcher::set_level`]):
    ///
    /// - a root position that has a table is not searched: the search plays the table's
    ///   move at once and reports it at depth 1 with the exact distance to mate
    ///   (`Score::mate_in`, or 0 for a draw), its principal variation following the table
    ///   for up to 20 plies, and with MultiPV the table's next best moves. A won position
    ///   plays the quickest mate if it comes before the 60-move rule's limit, else a
    ///   winning capture (which restarts the count) with the shortest mate, else the
    ///   shortest mate; a drawn one a drawing move (not a check or a repetition when
    ///   another draws); a lost one the longest mate.
    /// - in the tree, a position reached by a capture whose material has a table takes its
    ///   value from the table: [`TB_WIN`] less the plies to mate for a win (a score between
    ///   [`TB_WIN_BOUND`] and [`TB_WIN`], below the mate scores), 0 for a draw, the
    ///   negation for a loss; [`Info::tbhits`] counts them.
    ///
    /// A table that cannot be read is treated as absent for the rest of the search;
    /// [`Searcher::take_tablebase_error`] says why. The weaker levels play without tables.
    ///
    /// ```no_run
    /// use std::sync::Arc;
    /// use xiangqi_search::{Searcher, Tablebase};
    /// let mut searcher = Searcher::new();
    /// searcher.set_tablebase(Some(Arc::new(Tablebase::open("tables")?)));
    /// # Ok::<_, xiangqi_egtb::FormatError>(())
    /// ```
    pub fn set_tablebase(&mut self, tablebase: Option<Arc<Tablebase>>) {
        self.tablebase = tablebase;
    }
    /// The tablebase the searches use, if any.
    pub fn tablebase(&self) -> Option<&Arc<Tablebase>> {
        self.tablebase.as_ref()
    }
    /// Why a table could not be read in the last searches (once per error; `None` when
    /// every probe worked). The search went on without that tablebase.
    pub fn take_tablebase_error(&mut self) -> Option<String> {
        self.tablebase_error.take()
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
                tbhits: 0,
            };
        }
        // At full strength, a root with a table is played from the table.
        let mut tablebase = self.tablebase.clone().filter(|_| self.level.is_none());
        if let Some(tb) = tablebase.clone() {
            match tablebase::root_lines(&tb, game, &root_moves) {
                Ok(Some(table)) => {
                    return self.play_from_table(&tb, game, table, limits, observer, start)
                }
                Ok(None) => {}
                Err(e) => {
                    self.tablebase_error = Some(e.to_string());
                    tablebase = None;
                }
            }
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
            w.prepare(
                history,
                game.moves(),
                root,
                &root_moves,
                threads == 1,
                self.params.history_decay,
            );
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
            tb: tablebase.as_deref(),
            tb_pieces: tablebase.as_ref().map_or(0, |t| t.max_pieces()),
            tbhits: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            tb_error: Mutex::new(None),
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
        let tbhits = shared
            .tbhits
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .sum::<u64>();
        if let Some(e) = shared.tb_error.into_inner().ok().flatten() {
            self.tablebase_error = Some(e);
        }
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
        self.store_root(root, best.mv, score, depth);
        SearchResult {
            best_move: Some(best.mv),
            ponder_move: best.pv.get(1).copied(),
            score: Score(score),
            pv: best.pv.to_vec(),
            depth,
            nodes,
            tbhits,
        }
    }

    /// Stores the move chosen at the root in the transposition table.
    fn store_root(&self, root: &Position, mv: Move, score: i32, depth: u32) {
        let mut eval = self.evaluator.clone();
        eval.reset(root);
        self.tt.store(
            root.key(),
            Some(mv),
            score_to_tt(score, 0),
            eval.evaluate(root).0,
            depth as i32,
            tt::Bound::Exact,
        );
    }

    /// Plays the table's move at a root that has a table: reports the best `multipv`
    /// moves at depth 1 with their distances to mate and lines, waits as a search would
    /// when pondering or infinite, and answers.
    fn play_from_table(
        &mut self,
        tb: &Tablebase,
        game: &Game,
        table: tablebase::RootTable,
        limits: &Limits,
        observer: &mut dyn FnMut(&Info),
        start: Instant,
    ) -> SearchResult {
        let root = game.position();
        let mut tbhits = table.probes;
        let mut best = None;
        for (k, &(mv, value)) in table.lines.iter().take(self.multipv).enumerate() {
            let (pv, probes) = tablebase::table_line(tb, root, mv);
            tbhits += probes;
            let time = start.elapsed();
            let nps = if time.as_micros() > 0 {
                (tbhits as u128 * 1_000_000 / time.as_micros()) as u64
            } else {
                0
            };
            let score = tablebase::root_score(value);
            observer(&Info {
                depth: 1,
                seldepth: pv.len() as u32,
                multipv: k + 1,
                score,
                nodes: tbhits,
                nps,
                hashfull: self.tt.hashfull(),
                time,
                pv: pv.clone(),
                tbhits,
            });
            if k == 0 {
                best = Some((mv, score, pv));
            }
        }
        let (mv, score, pv) = best.expect("a table line");
        // Pondering or infinite: the answer waits for the GUI, as after a search.
        if limits.infinite || limits.ponder {
            while !self.stop.stop.load(Ordering::Relaxed)
                && (limits.infinite || !self.stop.ponderhit.load(Ordering::Relaxed))
            {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        self.store_root(root, mv, score.0, 1);
        SearchResult {
            best_move: Some(mv),
            ponder_move: pv.get(1).copied(),
            score,
            pv,
            depth: 1,
            nodes: tbhits,
            tbhits,
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
