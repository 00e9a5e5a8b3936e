//! `Engine`: the searcher of `xiangqi-search`, searching with the GIL released.
//!
//! Progress comes once per iteration, to a callback (`search(..., info=f)`) or through an
//! iterator (`analysis(...)`, the search running on a thread of its own); `stop()` ends a
//! search from any thread.

use crate::board::Board;
use crate::errors::value_error;
use crate::moves::Move;
use crate::outcome::rules_arg;
use pyo3::exceptions::PyStopIteration;
use pyo3::prelude::*;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;
use xiangqi_core::Game;
use xiangqi_nnue::{EvalChoice, LoadError, Network};
use xiangqi_search::{Info, Level, Limits, Score, SearchResult as CoreResult, StopHandle};

/// The module's engine: the net by default (see `xiangqi-nnue`), or the hand-written
/// evaluator (`Engine(evaluator="classical")`).
type Searcher = xiangqi_search::Searcher<EvalChoice>;

/// Centipawns and mate distance of a score, for Python.
fn score_parts(score: Score) -> (i32, Option<i32>) {
    (score.0, score.mate_moves())
}

fn pv_moves(pv: &[xiangqi_core::Move]) -> Vec<Move> {
    pv.iter().copied().map(Move).collect()
}

/// A principal variation as ICCS text, for `repr`.
fn pv_text(pv: &[Move]) -> String {
    let moves: Vec<String> = pv.iter().map(|m| m.0.to_string()).collect();
    moves.join(" ")
}

/// Progress of a search, once per completed iteration (and per line with `multipv`).
#[pyclass(module = "xiangqi_rs", frozen, get_all)]
#[derive(Clone)]
pub struct SearchInfo {
    /// Iteration depth in plies.
    depth: u32,
    /// Deepest ply reached.
    seldepth: u32,
    /// Which line, 1 = best.
    multipv: usize,
    /// Score in centipawns for the side to move (mate scores are near +-30000).
    score: i32,
    /// Mate in this many moves (negative: the side to move is mated), else `None`.
    mate: Option<i32>,
    /// Nodes searched so far, all threads.
    nodes: u64,
    /// Nodes per second.
    nps: u64,
    /// Transposition table use, per mille.
    hashfull: u32,
    /// Seconds since the search started.
    time: f64,
    /// The principal variation.
    pv: Vec<Move>,
}

impl From<&Info> for SearchInfo {
    fn from(i: &Info) -> SearchInfo {
        let (score, mate) = score_parts(i.score);
        SearchInfo {
            depth: i.depth,
            seldepth: i.seldepth,
            multipv: i.multipv,
            score,
            mate,
            nodes: i.nodes,
            nps: i.nps,
            hashfull: i.hashfull,
            time: i.time.as_secs_f64(),
            pv: pv_moves(&i.pv),
        }
    }
}

#[pymethods]
impl SearchInfo {
    fn __repr__(&self) -> String {
        format!(
            "SearchInfo(depth={}, multipv={}, score={}, mate={:?}, nodes={}, pv='{}')",
            self.depth,
            self.multipv,
            self.score,
            self.mate,
            self.nodes,
            pv_text(&self.pv)
        )
    }
}

/// What a search found.
#[pyclass(module = "xiangqi_rs", frozen, get_all)]
#[derive(Clone)]
pub struct SearchResult {
    /// The move to play; `None` only when the side to move has no legal move.
    best_move: Option<Move>,
    /// The expected reply.
    ponder_move: Option<Move>,
    /// Score in centipawns for the side to move.
    score: i32,
    /// Mate in this many moves (negative: the side to move is mated), else `None`.
    mate: Option<i32>,
    /// The principal variation.
    pv: Vec<Move>,
    /// Depth of the last completed iteration.
    depth: u32,
    /// Nodes searched.
    nodes: u64,
}

impl From<CoreResult> for SearchResult {
    fn from(r: CoreResult) -> SearchResult {
        let (score, mate) = score_parts(r.score);
        SearchResult {
            best_move: r.best_move.map(Move),
            ponder_move: r.ponder_move.map(Move),
            score,
            mate,
            pv: pv_moves(&r.pv),
            depth: r.depth,
            nodes: r.nodes,
        }
    }
}

#[pymethods]
impl SearchResult {
    fn __repr__(&self) -> String {
        format!(
            "SearchResult(best_move={}, score={}, mate={:?}, depth={}, nodes={}, pv='{}')",
            self.best_move
                .map_or("None".into(), |m| format!("'{}'", m.0)),
            self.score,
            self.mate,
            self.depth,
            self.nodes,
            pv_text(&self.pv)
        )
    }
}

/// The engine: iterative deepening alpha-beta with a transposition table kept between
/// searches, Lazy SMP threads and optional strength levels.
#[pyclass(module = "xiangqi_rs", frozen)]
pub struct Engine {
    /// The searcher, shared with `analysis()` threads and `review()`.
    pub(crate) searcher: Arc<Mutex<Searcher>>,
    stop: StopHandle,
    /// The strength level caps the search by depth or nodes, so a search needs no limit.
    level_limits: bool,
    /// `"nnue"` or `"classical"`.
    evaluator: &'static str,
}

/// The evaluator `Engine(evaluator=, eval_file=)` asks for.
fn evaluator_arg(name: &str, eval_file: Option<std::path::PathBuf>) -> PyResult<EvalChoice> {
    match (name, eval_file) {
        ("nnue", None) => Ok(EvalChoice::default()),
        ("nnue", Some(path)) => {
            let net = Network::load(&path).map_err(|e| net_error(&path, e))?;
            Ok(EvalChoice::with_network(Arc::new(net)))
        }
        ("classical", None) => Ok(EvalChoice::classical()),
        ("classical", Some(_)) => Err(value_error(
            "eval_file is a net for evaluator=\"nnue\"; the classical evaluator takes none",
        )),
        (other, _) => Err(value_error(format!(
            "unknown evaluator {other:?}; evaluators: nnue, classical"
        ))),
    }
}

/// A net file that cannot be used: an `OSError` (`FileNotFoundError`...) when it cannot be
/// read, else a `XiangqiError` saying what is wrong with it.
fn net_error(path: &std::path::Path, e: LoadError) -> PyErr {
    match e {
        LoadError::Io(io) => {
            // PyO3 picks the OSError subclass from the error's kind; the message adds the path.
            let message = format!("cannot read the net {}: {io}", path.display());
            PyErr::from(std::io::Error::new(io.kind(), message))
        }
        LoadError::Net(e) => value_error(format!("{}: {e}", path.display())),
    }
}

/// The searcher, even if a search panicked while holding it (its state is still usable:
/// the next search starts afresh from the root).
pub(crate) fn lock(searcher: &Mutex<Searcher>) -> MutexGuard<'_, Searcher> {
    searcher.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How often a search called from Python looks for a KeyboardInterrupt.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// One search with the engine's searcher (waiting for a search already running on it).
fn run(
    searcher: &Mutex<Searcher>,
    game: &Game,
    limits: &Limits,
    multipv: usize,
    observer: &mut dyn FnMut(&Info),
) -> CoreResult {
    let mut s = lock(searcher);
    s.set_multipv(multipv);
    s.search(game, limits, observer)
}

/// Starts a search with the engine's searcher on a thread of its own: its reports come
/// through the receiver (one per iteration), its result from the thread.
fn spawn_search(
    searcher: &Arc<Mutex<Searcher>>,
    game: Game,
    limits: Limits,
    multipv: usize,
) -> (Receiver<SearchInfo>, JoinHandle<SearchResult>) {
    let searcher = Arc::clone(searcher);
    let (tx, rx) = channel();
    let thread = std::thread::spawn(move || {
        let result = run(&searcher, &game, &limits, multipv, &mut |i: &Info| {
            // A receiver gone only means nobody listens any more.
            let _ = tx.send(SearchInfo::from(i));
        });
        SearchResult::from(result)
    });
    (rx, thread)
}

/// The limits of a search call, checked; `capped` when the level limits the search anyway.
pub(crate) fn limits(
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<f64>,
    infinite: bool,
    capped: bool,
) -> PyResult<Limits> {
    let movetime = match movetime {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 && t < 1e9 => Some(Duration::from_secs_f64(t)),
        Some(t) => {
            return Err(value_error(format!(
                "movetime {t} is not a positive number of seconds"
            )))
        }
    };
    if depth == Some(0) || nodes == Some(0) {
        return Err(value_error("depth and nodes must be at least 1"));
    }
    if depth.is_none() && nodes.is_none() && movetime.is_none() && !infinite && !capped {
        return Err(value_error(
            "give a limit: depth, nodes or movetime (or infinite=True and stop() later)",
        ));
    }
    Ok(Limits {
        depth,
        nodes,
        movetime,
        infinite,
        ..Limits::default()
    })
}

#[pymethods]
impl Engine {
    /// An engine with `threads` search threads, `hash_mb` MiB of transposition table, at
    /// strength `level` (`None` for full strength; see `Engine.levels()`), judging
    /// repetitions in the search by `rules` (`"asian"` or `"chinese"`), evaluating with
    /// `evaluator`: `"nnue"` (the built-in net, or the net file `eval_file`) or
    /// `"classical"` (the hand-written evaluator).
    #[new]
    #[pyo3(signature = (threads = 1, hash_mb = 16, level = None, rules = "asian", evaluator = "nnue", eval_file = None))]
    fn new(
        threads: usize,
        hash_mb: usize,
        level: Option<&str>,
        rules: &str,
        evaluator: &str,
        eval_file: Option<std::path::PathBuf>,
    ) -> PyResult<Engine> {
        if !(1..=256).contains(&threads) {
            return Err(value_error(format!("threads {threads} is not in 1..=256")));
        }
        if !(1..=1 << 20).contains(&hash_mb) {
            return Err(value_error(format!(
                "hash_mb {hash_mb} is not in 1..=1048576"
            )));
        }
        let level = match level {
            None => None,
            Some(name) => Some(Level::by_name(name).ok_or_else(|| {
                let names: Vec<&str> = Level::all().iter().map(|l| l.name).collect();
                value_error(format!(
                    "unknown level {name:?}; levels: {}",
                    names.join(", ")
                ))
            })?),
        };
        let choice = evaluator_arg(evaluator, eval_file)?;
        let evaluator = if choice.is_nnue() {
            "nnue"
        } else {
            "classical"
        };
        let mut searcher = Searcher::with_evaluator(choice);
        searcher.set_threads(threads);
        searcher.set_hash_size(hash_mb);
        searcher.set_level(level);
        searcher.set_rules(rules_arg(rules)?);
        let stop = searcher.stop_handle();
        Ok(Engine {
            searcher: Arc::new(Mutex::new(searcher)),
            stop,
            level_limits: level.is_some_and(|l| l.depth.is_some() || l.nodes.is_some()),
            evaluator,
        })
    }

    /// What the engine evaluates with: `"nnue"` or `"classical"`.
    #[getter]
    fn evaluator(&self) -> &'static str {
        self.evaluator
    }

    /// The names of the strength levels, weakest first (`"full"` is full strength).
    #[staticmethod]
    fn levels() -> Vec<&'static str> {
        Level::all().iter().map(|l| l.name).collect()
    }

    /// Searches the board's position (its history counts for repetitions) until a limit
    /// is reached: `depth` plies, `nodes`, `movetime` seconds, or `stop()` with
    /// `infinite=True`; an engine with a capped level needs none of them. `multipv` lines
    /// are reported to `info`, a callable given a `SearchInfo` once per iteration; an
    /// exception it raises (or a KeyboardInterrupt, looked for every 50 ms) stops
    /// the search and is raised here. The GIL is released while searching.
    #[pyo3(signature = (board, depth = None, nodes = None, movetime = None, multipv = 1, infinite = false, info = None))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        board: PyRef<'_, Board>,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<f64>,
        multipv: usize,
        infinite: bool,
        info: Option<Py<PyAny>>,
    ) -> PyResult<SearchResult> {
        let limits = limits(depth, nodes, movetime, infinite, self.level_limits)?;
        let game = board.game.clone();
        drop(board);
        // The search runs on a thread of its own while this (the calling) thread waits for
        // its reports with the GIL released, looking for a KeyboardInterrupt between them
        // every SIGNAL_POLL: CPython runs signal handlers on the main thread only, and a
        // look once per iteration would leave Ctrl-C unanswered for as long as a deep
        // iteration takes.
        let (mut rx, thread) = spawn_search(&self.searcher, game, limits, multipv);
        let mut failure: Option<PyErr> = None;
        loop {
            // The receiver goes into the GIL-free closure and back (it is not `Sync`).
            let (back, next) = py.detach(move || {
                let next = rx.recv_timeout(SIGNAL_POLL);
                (rx, next)
            });
            rx = back;
            let outcome = match next {
                Ok(report) => match (&info, &failure) {
                    (Some(callback), None) => callback.call1(py, (report,)).map(drop),
                    _ => Ok(()),
                },
                Err(RecvTimeoutError::Timeout) => Ok(()),
                Err(RecvTimeoutError::Disconnected) => break,
            };
            if let Err(e) = outcome.and_then(|()| py.check_signals()) {
                failure.get_or_insert(e);
            }
            if failure.is_some() {
                // Again at every poll: a stop asked before the search thread started its
                // search would be forgotten when it starts.
                self.stop.stop();
            }
        }
        let result = py
            .detach(|| thread.join())
            .map_err(|_| value_error("the search thread panicked"))?;
        match failure {
            Some(e) => Err(e),
            None => Ok(result),
        }
    }

    /// Starts a search on a thread of its own and returns an iterator of its `SearchInfo`
    /// (one per iteration); its `result` holds the `SearchResult` once the iterator is
    /// exhausted. Arguments as `search`.
    #[pyo3(signature = (board, depth = None, nodes = None, movetime = None, multipv = 1, infinite = false))]
    fn analysis(
        &self,
        board: PyRef<'_, Board>,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<f64>,
        multipv: usize,
        infinite: bool,
    ) -> PyResult<Analysis> {
        let limits = limits(depth, nodes, movetime, infinite, self.level_limits)?;
        let game: Game = board.game.clone();
        let (rx, thread) = spawn_search(&self.searcher, game, limits, multipv);
        Ok(Analysis {
            state: Mutex::new(AnalysisState {
                infos: rx,
                thread: Some(thread),
                result: None,
            }),
            stop: self.stop.clone(),
        })
    }

    /// Stops the running search (from any thread); it returns its best move so far.
    fn stop(&self) {
        self.stop.stop();
    }

    /// Forgets what earlier searches learned (before an unrelated game).
    fn new_game(&self, py: Python<'_>) {
        let searcher = Arc::clone(&self.searcher);
        py.detach(move || lock(&searcher).new_game());
    }
}

struct AnalysisState {
    infos: Receiver<SearchInfo>,
    thread: Option<JoinHandle<SearchResult>>,
    result: Option<SearchResult>,
}

/// The iterator `Engine.analysis` returns: `SearchInfo` as the search goes, then
/// `StopIteration`; `result` is the `SearchResult` after that (`None` before).
#[pyclass(module = "xiangqi_rs", frozen)]
pub struct Analysis {
    state: Mutex<AnalysisState>,
    stop: StopHandle,
}

/// An iterator dropped before its search ended stops the search, which would otherwise run
/// on (an infinite one forever) and hold the engine.
impl Drop for Analysis {
    fn drop(&mut self) {
        let state = self.state.get_mut().unwrap_or_else(PoisonError::into_inner);
        if state.thread.as_ref().is_some_and(|t| !t.is_finished()) {
            self.stop.stop();
        }
    }
}

#[pymethods]
impl Analysis {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<SearchInfo> {
        py.detach(|| {
            let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            if let Ok(info) = state.infos.recv() {
                return Ok(info);
            }
            // The search is over (its sender is gone): collect the result once.
            if let Some(thread) = state.thread.take() {
                match thread.join() {
                    Ok(result) => state.result = Some(result),
                    Err(_) => return Err(value_error("the search thread panicked")),
                }
            }
            Err(PyStopIteration::new_err(()))
        })
    }

    /// The search's result once the iterator is exhausted, else `None`.
    #[getter]
    fn result(&self) -> Option<SearchResult> {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .result
            .clone()
    }

    /// Stops the search; iteration then ends soon.
    fn stop(&self) {
        self.stop.stop();
    }
}
