//! Search speed with a given evaluator over the engine's bench positions: the figure by
//! which a larger net's cost is weighed against its strength.
//!
//! The positions are those of `xiangqi-engine`'s `bench` (the start, three openings, middle
//! games and endgames), repeated here because that list lives in the engine's binary.
//! The engine's own `bench` always searches with the hand-written evaluator (its node count
//! is the search's signature); this one searches with any evaluator, so two nets can be
//! timed in the same run, alternately, on a machine whose load changes.

use std::time::{Duration, Instant};
use xiangqi_core::{Game, Position};
use xiangqi_eval::Evaluator;
use xiangqi_search::{Limits, Searcher};

/// The engine's bench positions: a FEN and the moves played from it.
pub const POSITIONS: &[(&str, &str)] = &[
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "",
    ),
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 g6g5 h0h6 h7i7",
    ),
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "g3g4 c6c5 b2c2 h7e7 h0g2 h9g7 i0h0 b9c7 c2c5 i9i8 b0c2 i8d8",
    ),
    (
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "",
    ),
    (
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        "",
    ),
    (
        "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
        "",
    ),
    (
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        "",
    ),
    (
        "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
        "",
    ),
    ("5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1", ""),
    ("CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1", ""),
];

/// The game of bench position `i`, or `None` past the end (or for a bad entry).
pub fn game(i: usize) -> Option<Game> {
    let (fen, moves) = POSITIONS.get(i)?;
    let mut game = Game::new(Position::from_fen(fen).ok()?);
    for text in moves.split_whitespace() {
        let m = game.position().parse_uci(text).ok()?;
        game.play(m).ok()?;
    }
    Some(game)
}

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
