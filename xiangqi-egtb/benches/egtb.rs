//! Tablebase costs: generation positions per second for a few tables, probes with the block
//! cached and cold (a fresh `Tablebase`, so the block is read and unpacked), and the
//! search with and without tables on endgame positions.
//!
//! `cargo bench -p xiangqi-egtb`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::collections::HashMap;
use std::hint::black_box;
use xiangqi_core::Position;
use xiangqi_egtb::{generate, generate_into, Dtm, Material, Tablebase};

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let names = ["krkaa", "knkab", "kpkaabb", "kckaab"];
    let wanted: Vec<Material> = names.iter().map(|n| n.parse().unwrap()).collect();
    generate_into(dir.path(), &wanted, false, &mut |_| {}).expect("generated");
    let tb = Tablebase::open(dir.path()).unwrap();

    // Generation of one table, its sub-tables loaded: positions (both sides) per second.
    let mut g = c.benchmark_group("generate");
    g.sample_size(10);
    for name in ["krkaa", "knka"] {
        let m: Material = name.parse().unwrap();
        let mut subs = HashMap::new();
        for s in xiangqi_egtb::direct_subs(m) {
            let data =
                xiangqi_egtb::TableData::load(&xiangqi_egtb::table_path(dir.path(), s)).unwrap();
            subs.insert(s, std::sync::Arc::new(data));
        }
        let size = xiangqi_egtb::Layout::new(m.canonical()).size();
        g.throughput(Throughput::Elements(2 * size));
        g.bench_function(name, |b| {
            b.iter(|| generate(m, &subs, &mut |_| {}).unwrap())
        });
    }
    g.finish();

    // Probes of positions of the four endings, every kind of result.
    let mut positions: Vec<Position> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let m: Material = name.parse().unwrap();
        for seed in 0..64 {
            if let Some(p) = tb
                .random_position(m, |_| true, seed * 7 + i as u64)
                .unwrap()
            {
                positions.push(p);
            }
        }
    }
    let mut g = c.benchmark_group("probe");
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("dtm cached", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(tb.probe_dtm(p).unwrap());
            }
        })
    });
    g.finish();
    let mut g = c.benchmark_group("probe cold");
    g.bench_function("open + first probe", |b| {
        b.iter(|| {
            let fresh = Tablebase::open(dir.path()).unwrap();
            black_box(fresh.probe_dtm(&positions[0]).unwrap())
        })
    });
    g.bench_function("moves (every move's value)", |b| {
        b.iter(|| black_box(tb.probe_moves(&positions[1]).unwrap()))
    });
    g.finish();
    assert!(positions.iter().all(|p| tb.probe_dtm(p).unwrap().is_some()));
    let _ = Dtm::Draw;
}

criterion_group!(benches, bench);
criterion_main!(benches);
