//! Evaluation cost per call over a fixed position set: 64 positions from master games (plies
//! 16, 40, 64 and 88 of the first games in `xiangqi-eval/tests/data/master_sample.txt`, CCPD,
//! CC BY 4.0), with the default evaluator in step with each position (the search's case), from
//! scratch, and the cost of the make/unmake hooks.
//!
//! The same for the NNUE evaluator (`xiangqi-nnue`, the embedded net), and the engine's node
//! rate with each: a fixed-node search of eight of the positions.
//!
//! `cargo bench --bench eval`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use std::time::Duration;
use xiangqi::core::Game;
use xiangqi::core::Position;
use xiangqi::eval::{DefaultEvaluator, Evaluator, Material};
use xiangqi::nnue::{EvalChoice, NnueEvaluator};
use xiangqi::search::{Limits, Searcher};

fn positions() -> Vec<Position> {
    let mut out = Vec::new();
    for line in include_str!("../xiangqi-eval/tests/data/master_sample.txt").lines() {
        let moves: Vec<&str> = line
            .split('\t')
            .nth(1)
            .unwrap_or("")
            .split_whitespace()
            .collect();
        let mut pos = Position::startpos();
        for (ply, m) in moves.iter().enumerate() {
            if [16, 40, 64, 88].contains(&ply) {
                out.push(pos.clone());
            }
            let m = pos.parse_uci(m).expect("legal master move");
            pos.play(m).expect("legal master move");
        }
        if out.len() >= 64 {
            break;
        }
    }
    out.truncate(64);
    out
}

fn eval(c: &mut Criterion) {
    let positions = positions();
    let n = positions.len();
    let mut group = c.benchmark_group("eval");
    group.throughput(Throughput::Elements(n as u64));

    // One evaluator per position, already in step: what a search pays per evaluate().
    let mut evaluators: Vec<DefaultEvaluator> = positions
        .iter()
        .map(|p| {
            let mut e = DefaultEvaluator::new();
            e.set_cache_size(0); // measure the evaluation itself, not cache hits
            e.reset(p);
            e
        })
        .collect();
    group.bench_function(format!("default, in step ({n} positions)"), |b| {
        b.iter(|| {
            for (e, p) in evaluators.iter_mut().zip(&positions) {
                black_box(e.evaluate(black_box(p)));
            }
        })
    });

    let mut e = DefaultEvaluator::new();
    e.set_cache_size(0);
    group.bench_function(format!("default, from scratch ({n} positions)"), |b| {
        b.iter(|| {
            for p in &positions {
                e.reset(p);
                black_box(e.evaluate(black_box(p)));
            }
        })
    });

    let mut nnue: Vec<NnueEvaluator> = positions
        .iter()
        .map(|p| {
            let mut e = NnueEvaluator::new();
            e.reset(p);
            e
        })
        .collect();
    group.bench_function(format!("nnue, in step ({n} positions)"), |b| {
        b.iter(|| {
            for (e, p) in nnue.iter_mut().zip(&positions) {
                black_box(e.evaluate(black_box(p)));
            }
        })
    });
    let fresh = NnueEvaluator::new();
    group.bench_function(format!("nnue, from scratch ({n} positions)"), |b| {
        b.iter(|| {
            for p in &positions {
                black_box(fresh.evaluate_fresh(black_box(p)));
            }
        })
    });

    let mut m = Material;
    group.bench_function(format!("material ({n} positions)"), |b| {
        b.iter(|| {
            for p in &positions {
                black_box(m.evaluate(black_box(p)));
            }
        })
    });
    group.finish();

    // The hooks: make_move + unmake_move around every legal move of every position.
    let total: usize = positions.iter().map(|p| p.legal_moves().len()).sum();
    let mut group = c.benchmark_group("eval_hooks");
    group.throughput(Throughput::Elements(total as u64));
    let moves: Vec<_> = positions.iter().map(|p| p.legal_moves()).collect();
    group.bench_function(format!("make+unmake hooks ({total} moves)"), |b| {
        b.iter(|| {
            for ((e, p), ms) in evaluators.iter_mut().zip(&positions).zip(&moves) {
                for &mv in ms {
                    e.make_move(p, mv);
                    e.unmake_move(p, mv);
                }
            }
        })
    });
    group.bench_function(format!("nnue make+unmake hooks ({total} moves)"), |b| {
        b.iter(|| {
            for ((e, p), ms) in nnue.iter_mut().zip(&positions).zip(&moves) {
                for &mv in ms {
                    e.make_move(p, mv);
                    e.unmake_move(p, mv);
                }
            }
        })
    });
    group.finish();

    // The engine's node rate with each evaluator: nodes per second is the throughput.
    const NODES: u64 = 100_000;
    let roots: Vec<Game> = positions
        .iter()
        .step_by(8)
        .map(|p| Game::new(p.clone()))
        .collect();
    let mut group = c.benchmark_group("search_nodes");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    for (name, eval) in [
        ("default", EvalChoice::default()),
        ("nnue", EvalChoice::Nnue(NnueEvaluator::new())),
    ] {
        let mut searcher = Searcher::with_evaluator(eval);
        let limits = Limits {
            nodes: Some(NODES),
            ..Limits::default()
        };
        // Nodes actually searched (a search stops within a few nodes of its budget).
        let searched: u64 = roots
            .iter()
            .map(|g| {
                searcher.new_game();
                searcher.search(g, &limits, &mut |_| {}).nodes
            })
            .sum();
        group.throughput(Throughput::Elements(searched));
        group.bench_function(
            format!("{name} ({} roots, {NODES} nodes each)", roots.len()),
            |b| {
                b.iter(|| {
                    for g in &roots {
                        searcher.new_game();
                        black_box(searcher.search(g, &limits, &mut |_| {}));
                    }
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, eval);
criterion_main!(benches);
