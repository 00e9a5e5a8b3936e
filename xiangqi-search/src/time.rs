//! Time management for clock play.
//!
//! From the clock we derive an *optimum* time (what a move should normally take) and a
//! *maximum* (a hard limit the search checks every 1024 nodes, so a stop takes effect within
//! a millisecond or so). Iterative deepening stops starting new iterations once the optimum,
//! scaled by how unstable the best move is and by how far the score dropped, is used up.

use crate::limits::{Clock, Limits};
use std::time::Duration;
// `web_time` is `std::time` on native targets; in a browser it reads `performance.now()`
// (std's `Instant::now` panics on wasm32-unknown-unknown).
use web_time::Instant;

/// Time kept in reserve for the protocol round trip and process scheduling.
const MOVE_OVERHEAD: Duration = Duration::from_millis(30);

/// The time budget of one search.
#[derive(Clone, Debug)]
pub(crate) struct TimeManager {
    pub start: Instant,
    /// Soft budget: `None` when only depth/nodes/infinite limit the search.
    pub optimum: Option<Duration>,
    /// Hard budget.
    pub maximum: Option<Duration>,
}

impl TimeManager {
    pub fn new(limits: &Limits, start: Instant) -> TimeManager {
        let mut tm = TimeManager {
            start,
            optimum: None,
            maximum: None,
        };
        if limits.infinite {
            return tm;
        }
        if let Some(mt) = limits.movetime {
            // A fixed time: use all of it (no soft limit).
            tm.maximum = Some(mt);
        }
        if let Some(clock) = limits.clock {
            let (opt, max) = clock_budget(&clock);
            tm.optimum = Some(tm.optimum.map_or(opt, |o| o.min(opt)));
            tm.maximum = Some(tm.maximum.map_or(max, |m| m.min(max)));
        }
        tm
    }

    /// Time since the search (or the ponder hit) started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Should a new iteration start? `scale` grows with instability and score drops.
    pub fn should_stop_iterating(&self, scale: f64) -> bool {
        match self.optimum {
            Some(opt) => {
                let e = self.elapsed().as_secs_f64();
                let budget = opt.as_secs_f64() * scale;
                let max = self.maximum.map_or(f64::MAX, |m| m.as_secs_f64());
                // An iteration takes a few times the previous one: do not start one that
                // cannot finish.
                e >= budget.min(max) * 0.7
            }
            None => false,
        }
    }

    /// Is the hard limit reached?
    #[inline]
    pub fn out_of_time(&self) -> bool {
        self.maximum.is_some_and(|m| self.elapsed() >= m)
    }
}

/// (optimum, maximum) for a clock.
fn clock_budget(clock: &Clock) -> (Duration, Duration) {
    let left = clock.time.saturating_sub(MOVE_OVERHEAD);
    let mtg = clock.moves_to_go.unwrap_or(32).clamp(1, 40);
    let inc = clock.increment;
    let left_s = left.as_secs_f64();
    // Spread what is left over the moves to go, counting on most of the increments.
    let per_move = left_s / mtg as f64 + inc.as_secs_f64() * 0.8;
    let hard_cap = if mtg == 1 { left_s * 0.9 } else { left_s * 0.5 };
    let maximum = (per_move * 5.0).min(hard_cap);
    let optimum = per_move.min(maximum);
    (
        Duration::from_secs_f64(optimum.max(0.0)),
        Duration::from_secs_f64(maximum.max(0.0)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_plans_more_than_the_clock() {
        for ms in [10u64, 100, 1000, 2000, 60_000] {
            for inc in [0u64, 50, 1000] {
                for mtg in [None, Some(1), Some(5), Some(40)] {
                    let c = Clock {
                        time: Duration::from_millis(ms),
                        increment: Duration::from_millis(inc),
                        moves_to_go: mtg,
                    };
                    let (opt, max) = clock_budget(&c);
                    assert!(opt <= max);
                    assert!(max <= c.time, "{c:?}: {max:?}");
                }
            }
        }
    }
}
