//! # xiangqi-search
//!
//! The engine. API SKELETON: the search helper replaces the implementation but keeps
//! these public names and signatures (it may add to them).
#![deny(missing_docs)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use xiangqi_core::{Game, Move};
pub use xiangqi_eval::{Evaluator, Score};

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

/// The engine. Keeps its transposition table and history between searches.
pub struct Searcher<E: Evaluator = xiangqi_eval::Material> {
    evaluator: E,
    stop: StopHandle,
    hash_mb: usize,
    threads: usize,
    multipv: usize,
}

impl Searcher<xiangqi_eval::Material> {
    /// A searcher with the default evaluator.
    pub fn new() -> Self {
        Searcher::with_evaluator(xiangqi_eval::Material)
    }
}

impl Default for Searcher<xiangqi_eval::Material> {
    fn default() -> Self {
        Searcher::new()
    }
}

impl<E: Evaluator> Searcher<E> {
    /// A searcher using `evaluator`.
    pub fn with_evaluator(evaluator: E) -> Self {
        Searcher {
            evaluator,
            stop: StopHandle::default(),
            hash_mb: 16,
            threads: 1,
            multipv: 1,
        }
    }
    /// Sets the transposition table size in MiB (clears it).
    pub fn set_hash_size(&mut self, mb: usize) {
        self.hash_mb = mb;
    }
    /// Sets the number of search threads.
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }
    /// Sets how many best lines to report.
    pub fn set_multipv(&mut self, n: usize) {
        self.multipv = n.max(1);
    }
    /// A handle that stops a running search from another thread.
    pub fn stop_handle(&self) -> StopHandle {
        self.stop.clone()
    }
    /// Forgets everything learned (TT, history) before a new game.
    pub fn new_game(&mut self) {}

    /// Searches the current position of `game` (whose earlier positions count for
    /// repetitions) within `limits`, calling `observer` with progress.
    pub fn search(&mut self, game: &Game, limits: &Limits, observer: &mut dyn FnMut(&Info)) -> SearchResult {
        let _ = (&mut self.evaluator, limits, observer);
        let moves = game.position().legal_moves();
        SearchResult {
            best_move: moves.first().copied(),
            ponder_move: None,
            score: Score::ZERO,
            pv: moves.first().copied().into_iter().collect(),
            depth: 1,
            nodes: 1,
        }
    }
}
