//! `bench`: a fixed search over fixed positions. Its total node count is a signature of the
//! search (it changes only when the search does); its speed is a rough figure for this
//! machine. Every position is searched from a cleared searcher with one thread and the
//! default hash, so the count does not depend on the options or on what ran before.

use std::time::Instant;
use xiangqi_search::bench_positions::{game, POSITIONS};
use xiangqi_search::{Limits, Searcher};

/// Depth searched in each position when `bench` is given none.
pub const DEFAULT_DEPTH: u32 = 12;

/// Runs the benchmark to `depth`, writing progress and the totals to `out`; returns the
/// total nodes.
pub fn run(depth: u32, out: &dyn Fn(&str)) -> u64 {
    // The hand-written evaluator even when the engine plays with the net: the node count is
    // the search's signature and should not change with every net.
    let mut searcher = Searcher::new();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let start = Instant::now();
    let mut total = 0u64;
    for i in 0..POSITIONS.len() {
        let Some(game) = game(i) else {
            out(&format!("info string bench position {} is invalid", i + 1));
            continue;
        };
        searcher.new_game();
        let result = searcher.search(&game, &limits, &mut |_| {});
        out(&format!(
            "Position {:2}/{}: nodes {:>10} bestmove {} {}",
            i + 1,
            POSITIONS.len(),
            result.nodes,
            result
                .best_move
                .map_or("(none)".to_string(), |m| m.to_string()),
            game.position().fen()
        ));
        total += result.nodes;
    }
    let ms = start.elapsed().as_millis().max(1);
    out("===========================");
    out(&format!("Total time (ms) : {ms}"));
    out(&format!("Nodes searched  : {total}"));
    out(&format!("Nodes/second    : {}", total as u128 * 1000 / ms));
    total
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_bench_position_is_valid() {
        for i in 0..super::POSITIONS.len() {
            assert!(super::game(i).is_some(), "bench position {}", i + 1);
        }
    }
}
