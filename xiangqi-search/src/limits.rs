//! What a search is asked ([`Limits`], with a [`Clock`]) and what it answers ([`Info`] as
//! it goes, [`SearchResult`] at the end): the types the searcher and its parts share, below
//! them all so that no part imports the crate's root.

use std::time::Duration;
use xiangqi_core::Move;
use xiangqi_eval::Score;

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
    /// Pondering: time limits wait until [`StopHandle::ponderhit`](crate::StopHandle::ponderhit).
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
    /// Positions whose value came from an endgame table so far (all threads).
    pub tbhits: u64,
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
    /// Positions whose value came from an endgame table.
    pub tbhits: u64,
}
