//! Evaluation cost without criterion, for `perf stat` (instruction counts are not skewed by
//! a busy machine): `cargo run --release -p xiangqi-eval --example evalspeed -- [mode] [rounds]`
//! with mode `eval` (in step, no cache), `scratch`, `hooks` or `none` (setup only).
use std::time::Instant;
use xiangqi_core::Position;
use xiangqi_eval::{DefaultEvaluator, Evaluator};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map(String::as_str).unwrap_or("eval");
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let mut positions = Vec::new();
    for line in include_str!("../tests/data/master_sample.txt").lines() {
        let moves: Vec<&str> = line
            .split('\t')
            .nth(1)
            .unwrap_or("")
            .split_whitespace()
            .collect();
        let mut pos = Position::startpos();
        for (ply, m) in moves.iter().enumerate() {
            if [16, 40, 64, 88].contains(&ply) {
                positions.push(pos.clone());
            }
            pos.play(pos.parse_uci(m).unwrap()).unwrap();
        }
        if positions.len() >= 64 {
            break;
        }
    }
    positions.truncate(64);
    let mut e = DefaultEvaluator::new();
    e.set_cache_size(0);
    let moves: Vec<_> = positions.iter().map(|p| p.legal_moves()).collect();
    let mut sum = 0i64;
    let mut calls = 0u64;
    let t = Instant::now();
    for _ in 0..rounds {
        for (p, ms) in positions.iter().zip(&moves) {
            match mode {
                "eval" => {
                    e.reset(p);
                    for _ in 0..8 {
                        sum += e.evaluate(std::hint::black_box(p)).0 as i64;
                        calls += 1;
                    }
                }
                "scratch" => {
                    e.reset(p);
                    sum += e.evaluate(p).0 as i64;
                    calls += 1;
                }
                "hooks" => {
                    e.reset(p);
                    for &m in ms {
                        e.make_move(p, m);
                        e.unmake_move(p, m);
                        calls += 1;
                    }
                }
                _ => {
                    e.reset(p);
                    calls += 1;
                }
            }
        }
    }
    let ns = t.elapsed().as_nanos() as f64 / calls as f64;
    println!("{mode}: {calls} calls, {ns:.1} ns per call (checksum {sum})");
}
