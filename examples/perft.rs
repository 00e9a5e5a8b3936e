//! Counts the leaves of the legal move tree (perft), the standard check of move generation.
//!
//! ```text
//! cargo run --release --example perft -- <depth> [FEN] [--divide]
//! ```
//! With `--divide`, one line per root move (`h2e2: 3541`). The last line is always
//! `nodes <N> time <ms> ms nps <N>`.

use std::process::ExitCode;
use std::time::Instant;
use xiangqi::core::Position;

fn main() -> ExitCode {
    let mut depth = None;
    let mut divide = false;
    let mut fen_words = Vec::new();
    for arg in std::env::args().skip(1) {
        if arg == "--divide" {
            divide = true;
        } else if depth.is_none() && arg.parse::<u32>().is_ok() {
            depth = arg.parse().ok();
        } else {
            fen_words.push(arg);
        }
    }
    let Some(depth) = depth else {
        eprintln!("usage: perft <depth> [FEN] [--divide]");
        return ExitCode::from(2);
    };
    let pos = if fen_words.is_empty() {
        Position::startpos()
    } else {
        match Position::from_fen(&fen_words.join(" ")) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("bad FEN: {e}");
                return ExitCode::from(2);
            }
        }
    };
    let start = Instant::now();
    let nodes = if divide {
        let mut total = 0;
        for (m, n) in pos.divide(depth) {
            println!("{m}: {n}");
            total += n;
        }
        total
    } else {
        pos.perft(depth)
    };
    let elapsed = start.elapsed();
    let ms = elapsed.as_millis();
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    println!("nodes {nodes} time {ms} ms nps {nps}");
    ExitCode::SUCCESS
}
