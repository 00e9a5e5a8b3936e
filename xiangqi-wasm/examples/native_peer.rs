//! The native side of the package's benchmark (`bench/run.sh`): the same work as
//! `bench/bench.mjs` does in Node, on the same positions, with the same engine and options,
//! printed as one JSON line that the Node run turns into ratios.
//!
//! `cargo run --release -p xiangqi-wasm --example native_peer -- EPD DEPTH`

use std::time::{Duration, Instant};
use xiangqi_core::{Game, Position};
use xiangqi_nnue::EvalChoice;
use xiangqi_search::{Limits, Searcher};
use xiangqi_wasm::move_text;

/// Calls `f` for about `time`, returning what it counted per second.
fn rate(time: Duration, mut f: impl FnMut() -> usize) -> f64 {
    let start = Instant::now();
    let mut n = 0usize;
    while start.elapsed() < time {
        n += f();
    }
    n as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let epd = args.next().expect("usage: native_peer EPD DEPTH");
    let depth: u32 = args
        .next()
        .and_then(|d| d.parse().ok())
        .expect("a search depth");
    let text = std::fs::read_to_string(&epd).expect("the EPD file");
    let positions: Vec<Position> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| Position::from_fen(l.split(';').next().unwrap_or("").trim()).expect("a FEN"))
        .collect();

    let two = Duration::from_secs(2);
    let generated = rate(two, || {
        positions.iter().map(|p| p.legal_moves().len()).sum()
    });
    // The package's legalMovesIccs(): each move written as text, by the package's own code.
    let as_text = rate(two, || {
        positions
            .iter()
            .map(|p| {
                p.legal_moves()
                    .into_iter()
                    .map(|m| move_text(m.to_u16()).expect("a legal move"))
                    .collect::<Vec<_>>()
                    .len()
            })
            .sum()
    });

    let start = Instant::now();
    let leaves = Position::startpos().perft(5);
    let perft_s = start.elapsed().as_secs_f64();

    // As the package's engine: the embedded net, 16 MB, one thread, full strength.
    let mut searcher = Searcher::with_evaluator(EvalChoice::default());
    searcher.set_hash_size(16);
    searcher.set_threads(1);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let start = Instant::now();
    let result = searcher.search(&Game::new(Position::startpos()), &limits, &mut |_| {});
    let search_s = start.elapsed().as_secs_f64();

    println!(
        "{{\"legalMovesPerSecond\":{generated:.0},\"legalMovesAsTextPerSecond\":{as_text:.0},\
         \"perftLeaves\":{leaves},\"perftSeconds\":{perft_s:.4},\"searchDepth\":{},\
         \"searchNodes\":{},\"searchSeconds\":{search_s:.4}}}",
        result.depth, result.nodes
    );
}
