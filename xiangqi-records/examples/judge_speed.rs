//! How long one repetition judgement takes: every WXF ruling of
//! `xiangqi-core/tests/data/repetition_wxf.tsv`, one cycle each, judged many times.
//!
//! `cargo run --release -p xiangqi-records --example judge_speed`

use std::time::Instant;
use xiangqi_core::{judge_repetition, Position, Problems, RuleSet};

fn main() {
    let data = include_str!("../../xiangqi-core/tests/data/repetition_wxf.tsv");
    let mut cases = Vec::new();
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("id\t"))
    {
        let f: Vec<&str> = line.split('\t').collect();
        let Ok(mut pos) = Position::from_fen_allowing(f[1], Problems::PAWN_OFF_POINTS) else {
            continue;
        };
        let start = pos.clone();
        let mut moves = Vec::new();
        for text in f[2].split_whitespace() {
            let m = pos.parse_uci(text).expect("legal move in the data");
            pos.play(m).expect("legal move in the data");
            moves.push(m);
        }
        // The data runs to the third occurrence: two cycles. Judge one.
        let half = moves.len() / 2;
        cases.push((start, moves[..half].to_vec()));
    }
    for rules in [RuleSet::Asian, RuleSet::Chinese] {
        let rounds = 100;
        let t = Instant::now();
        let mut losses = 0;
        for _ in 0..rounds {
            for (start, cycle) in &cases {
                losses += usize::from(judge_repetition(start, cycle, rules).loser().is_some());
            }
        }
        let elapsed = t.elapsed();
        let n = rounds * cases.len();
        println!(
            "{rules}: {n} judgements in {elapsed:?}: {:.1} µs each ({} losses per round)",
            elapsed.as_secs_f64() * 1e6 / n as f64,
            losses / rounds
        );
    }
}
