//! Search speed with a given evaluator over the engine's bench positions: the figure by
//! which a larger net's cost is weighed against its strength.
//!
//! The positions are those of `xiangqi-engine`'s `bench`
//! ([`xiangqi_search::bench_positions`]).
//! The engine's own `bench` always searches with the hand-written evaluator (its node count
//! is the search's signature); this one searches with any evaluator, so two nets can be
//! timed in the same run, alternately, on a machine whose load changes.

use std::time::{Duration, Instant};
use xiangqi_eval::Evaluator;
use xiangqi_search::{Limits, Searcher};

pub use xiangqi_search::bench_positions::{game, POSITIONS};

/// What one pass over the positions measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Time spent searching.
    pub time: Duration,
    /// The deepest depth reached in each position, summed (equal to positions × depth
    /// when every search finished).
    pub depths: u64,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> f64 {
        self.nodes as f64 / self.time.as_secs_f64().max(1e-9)
    }
}

/// Searches every bench position to `depth` with `evaluator`, from a cleared searcher (one
/// thread, 16 MiB of hash).
pub fn run<E: Evaluator>(evaluator: E, depth: u32) -> BenchResult {
    let mut searcher = Searcher::with_evaluator(evaluator);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut result = BenchResult {
        nodes: 0,
        time: Duration::ZERO,
        depths: 0,
    };
    for game in (0..POSITIONS.len()).filter_map(game) {
        searcher.new_game();
        let start = Instant::now();
        let r = searcher.search(&game, &limits, &mut |_| {});
        result.time += start.elapsed();
        result.nodes += r.nodes;
        result.depths += u64::from(r.depth);
    }
    result
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_bench_position_is_valid() {
        for i in 0..super::POSITIONS.len() {
            assert!(super::game(i).is_some(), "bench position {}", i + 1);
        }
    }

    #[test]
    fn a_shallow_bench_searches() {
        let r = super::run(xiangqi_eval::DefaultEvaluator::new(), 2);
        assert!(r.nodes > 10 && r.depths >= 2 * super::POSITIONS.len() as u64);
    }

    /// The search drives the layered evaluator through its hooks (make, unmake, null
    /// moves, general moves in the endgames) to the depth asked, in every bench position.
    #[test]
    fn the_search_runs_with_a_layered_net() {
        use crate::layered::{LayeredNet, Shape};
        let shape = Shape {
            width: 64,
            hidden1: 8,
            hidden2: 8,
            stacks: 2,
            ..Shape::default()
        };
        let net = std::sync::Arc::new(LayeredNet::random(shape, 7).unwrap());
        let eval = crate::EvalChoice::Layered(crate::LayeredEvaluator::new(net));
        let r = super::run(eval, 4);
        assert!(
            r.nodes > 100 && r.depths >= 4 * super::POSITIONS.len() as u64,
            "{r:?}"
        );
    }
}
