//! What a request may ask for: the server sets these from its flags, the WebAssembly build
//! from its own defaults.

use serde::Serialize;
use std::time::Duration;

/// The most a request may ask for; serialized as `/info` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RequestLimits {
    /// The longest search per engine move, in milliseconds.
    pub max_movetime_ms: u64,
    /// The longest analysis, in milliseconds (an analysis without limits ends then).
    pub max_analysis_ms: u64,
    /// The deepest search, in plies.
    pub max_depth: u32,
    /// The most nodes.
    pub max_nodes: u64,
    /// The most moves a game may have.
    pub max_moves: usize,
    /// The most MultiPV lines.
    pub max_multipv: usize,
}

impl Default for RequestLimits {
    /// The server's documented defaults (`xiangqi-web --help`).
    fn default() -> RequestLimits {
        RequestLimits {
            max_movetime_ms: 10_000,
            max_analysis_ms: 300_000,
            max_depth: 64,
            max_nodes: 100_000_000,
            max_moves: 1_000,
            max_multipv: 5,
        }
    }
}

impl RequestLimits {
    /// [`RequestLimits::max_movetime_ms`] as a duration.
    pub fn max_movetime(&self) -> Duration {
        Duration::from_millis(self.max_movetime_ms)
    }

    /// [`RequestLimits::max_analysis_ms`] as a duration.
    pub fn max_analysis(&self) -> Duration {
        Duration::from_millis(self.max_analysis_ms)
    }
}
