//! Search speed: a fixed-depth search of a fixed position set with the default evaluator on
//! one thread, reported as nodes per second (criterion's element throughput = nodes).
//!
//! Positions: the start position, two master-game middlegames (the first two games of
//! `xiangqi-eval/tests/data/master_sample.txt`, CCPD, CC BY 4.0, after 30 and 40 plies), a
//! mate-in-2 puzzle from `xiangqi-search/tests/data/mates.epd` and a chariot ending.
//!
//! `cargo bench --bench search`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xiangqi::core::{Game, Position};
use xiangqi::search::{Limits, Searcher};

const POSITIONS: [(&str, u32); 5] = [
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        9,
    ),
    (
        "1r1akab2/4c4/c3b1n2/4p3p/p1pR5/4P4/P1P1N1PrP/4C4/R5C2/2BAKAB2 w - - 3 16",
        8,
    ),
    (
        "rCnak1b2/4a1c2/4b4/p3p4/6p1p/P1R6/4P1c1r/N2CB4/4A4/1R2KAB2 w - - 4 21",
        8,
    ),
    (
        "3ak1b2/3Pa2N1/4b4/p4R2p/4p4/6B2/2n2c2P/4B4/4A1n2/3K1A3 w - - 0 1",
        8,
    ),
    ("3k5/4a4/4ba3/9/9/2R6/9/9/4A4/3AK1r2 w - - 0 1", 10),
];

fn search(c: &mut Criterion) {
    let games: Vec<(Game, u32)> = POSITIONS
        .iter()
        .map(|&(fen, d)| (Game::new(Position::from_fen(fen).expect("valid FEN")), d))
        .collect();
    let run = |searcher: &mut Searcher| -> u64 {
        let mut nodes = 0;
        for (game, depth) in &games {
            searcher.new_game();
            let limits = Limits {
                depth: Some(*depth),
                ..Limits::default()
            };
            nodes += searcher.search(game, &limits, &mut |_| {}).nodes;
        }
        nodes
    };
    let mut searcher = Searcher::new();
    let nodes = run(&mut searcher);
    let mut group = c.benchmark_group("search");
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    group.bench_function("fixed depth, 5 positions", |b| {
        b.iter(|| run(&mut searcher))
    });
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
