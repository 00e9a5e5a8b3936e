//! Move generation speed over the perft suite's positions (`xiangqi-core/tests/data/perft.epd`):
//! legal move generation, make+unmake of every legal move, and perft to depth 3 and 4.
//!
//! `cargo bench --bench movegen`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use xiangqi::core::Position;

fn positions() -> Vec<Position> {
    include_str!("../xiangqi-core/tests/data/perft.epd")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| Position::from_fen(l.split(';').next().unwrap().trim()).unwrap())
        .collect()
}

fn movegen(c: &mut Criterion) {
    let positions = positions();
    let total: usize = positions.iter().map(|p| p.legal_moves().len()).sum();

    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("legal_moves (14 positions)", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(p.legal_moves());
            }
        })
    });
    group.bench_function("legal_captures (14 positions)", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(p.legal_captures());
            }
        })
    });
    group.finish();

    let mut group = c.benchmark_group("make_unmake");
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function("every legal move of 14 positions", |b| {
        let mut positions = positions.clone();
        let lists: Vec<_> = positions.iter().map(|p| p.legal_moves()).collect();
        b.iter(|| {
            for (p, moves) in positions.iter_mut().zip(&lists) {
                for &m in moves {
                    let undo = p.make_move(m);
                    black_box(p.key());
                    p.unmake_move(m, undo);
                }
            }
        })
    });
    group.finish();

    let start = Position::startpos();
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.throughput(Throughput::Elements(79_666));
    group.bench_function("startpos depth 3", |b| b.iter(|| black_box(start.perft(3))));
    group.throughput(Throughput::Elements(3_290_240));
    group.bench_function("startpos depth 4", |b| b.iter(|| black_box(start.perft(4))));
    group.finish();
}

criterion_group!(benches, movegen);
criterion_main!(benches);
