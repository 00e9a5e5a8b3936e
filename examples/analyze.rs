//! Searches a position and prints the engine's thinking, one line per iteration.
//!
//! ```text
//! cargo run --release --example analyze -- [FEN | --fen FEN | --position start|middlegame]
//!     [--moves m1 m2 ...] [--depth D] [--nodes N] [--movetime MS] [--mate N] [--stop-after MS]
//!     [--threads T] [--hash MB] [--multipv K] [--level NAME] [--off FEATURE,...]
//! ```
//!
//! Without a limit it searches for 10 seconds. Each line shows depth/seldepth, the score
//! (centipawns for the side to move, or mate in N moves), nodes, nodes per second, hash use
//! and the principal variation in ICCS coordinates. The last line is always
//! `bestmove <move> [ponder <move>]`.

use std::process::ExitCode;
use std::time::Duration;
use xiangqi::core::{Game, Position};
use xiangqi::search::{Info, Level, Limits, Searcher};

/// A middlegame from master play: the first game of `xiangqi-eval/tests/data/master_sample.txt`
/// (CCPD, CC BY 4.0) after 30 plies.
const MIDDLEGAME: &str = "1r1akab2/4c4/c3b1n2/4p3p/p1pR5/4P4/P1P1N1PrP/4C4/R5C2/2BAKAB2 w - - 3 16";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("analyze: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut fen = Position::startpos().fen();
    let mut moves: Vec<String> = Vec::new();
    let mut limits = Limits::default();
    let mut searcher = Searcher::new();
    let mut stop_after = None;
    let mut i = 0;
    let value = |i: usize| -> Result<&String, String> {
        args.get(i + 1)
            .ok_or_else(|| format!("{} needs a value", args[i]))
    };
    let num = |i: usize| -> Result<u64, String> {
        let v = value(i)?;
        v.parse::<u64>()
            .map_err(|_| format!("{}: `{v}` is not a number", args[i]))
    };
    while i < args.len() {
        match args[i].as_str() {
            "--fen" => fen = value(i)?.clone(),
            "--position" => {
                fen = match value(i)?.as_str() {
                    "start" => Position::startpos().fen(),
                    "middlegame" => MIDDLEGAME.to_string(),
                    other => return Err(format!("unknown position `{other}` (start, middlegame)")),
                }
            }
            "--moves" => {
                while i + 1 < args.len() && !args[i + 1].starts_with("--") {
                    moves.push(args[i + 1].clone());
                    i += 1;
                }
                i += 1;
                continue;
            }
            "--depth" => limits.depth = Some(num(i)? as u32),
            "--nodes" => limits.nodes = Some(num(i)?),
            "--movetime" => limits.movetime = Some(Duration::from_millis(num(i)?)),
            "--mate" => limits.mate = Some(num(i)? as u32),
            "--stop-after" => stop_after = Some(Duration::from_millis(num(i)?)),
            "--threads" => searcher.set_threads(num(i)? as usize),
            "--hash" => searcher.set_hash_size(num(i)? as usize),
            "--multipv" => searcher.set_multipv(num(i)? as usize),
            "--level" => {
                let name = value(i)?;
                let level = Level::by_name(name).ok_or_else(|| {
                    let names: Vec<_> = Level::all().iter().map(|l| l.name).collect();
                    format!("unknown level `{name}` ({})", names.join(", "))
                })?;
                searcher.set_level(Some(level));
            }
            "--off" => {
                let mut p = searcher.params().clone();
                for f in value(i)?.split(',') {
                    p.set(f, false)?;
                }
                searcher.set_params(p);
            }
            "-h" | "--help" => {
                println!("usage: analyze [FEN | --fen FEN | --position start|middlegame] [--moves m1 m2 ...] [--depth D] [--nodes N] [--movetime MS] [--mate N] [--stop-after MS] [--threads T] [--hash MB] [--multipv K] [--level NAME] [--off FEATURE,...]");
                return Ok(());
            }
            // A bare FEN, as in `analyze -- <FEN> --moves ...`: every word up to the next flag.
            other if !other.starts_with('-') => {
                let mut words = vec![other.to_string()];
                while i + 1 < args.len() && !args[i + 1].starts_with("--") {
                    words.push(args[i + 1].clone());
                    i += 1;
                }
                fen = words.join(" ");
                i += 1;
                continue;
            }
            other => return Err(format!("unknown argument `{other}` (try --help)")),
        }
        i += 2;
    }
    if limits.depth.is_none()
        && limits.nodes.is_none()
        && limits.movetime.is_none()
        && limits.mate.is_none()
    {
        limits.movetime = Some(Duration::from_secs(10));
    }
    let start = Position::from_fen(&fen).map_err(|e| format!("bad FEN: {e}"))?;
    let mut game = Game::new(start);
    for text in &moves {
        let m = game
            .position()
            .parse_uci(text)
            .map_err(|e| format!("move `{text}`: {e}"))?;
        game.play(m).map_err(|e| format!("move `{text}`: {e}"))?;
    }
    println!("{}", game.position());
    println!(
        "{:>5} {:>8} {:>10} {:>10} {:>5} {:>7}  pv",
        "depth", "score", "nodes", "nps", "hash", "time"
    );
    // --stop-after MS: an infinite search stopped from another thread, timing the stop.
    let stopped_at = std::sync::Arc::new(std::sync::Mutex::new(None));
    let stopper = stop_after.map(|after| {
        limits = Limits {
            infinite: true,
            ..limits.clone()
        };
        let handle = searcher.stop_handle();
        let stopped_at = std::sync::Arc::clone(&stopped_at);
        std::thread::spawn(move || {
            std::thread::sleep(after);
            *stopped_at.lock().unwrap() = Some(std::time::Instant::now());
            handle.stop();
        })
    });
    let result = searcher.search(&game, &limits, &mut |info: &Info| {
        let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
        let line = if info.multipv > 1 {
            format!(" [{}]", info.multipv)
        } else {
            String::new()
        };
        println!(
            "{:>2}/{:<2} {:>8} {:>10} {:>10} {:>5} {:>7.3}  {}{line}",
            info.depth,
            info.seldepth,
            info.score.to_string(),
            info.nodes,
            info.nps,
            info.hashfull,
            info.time.as_secs_f64(),
            pv.join(" ")
        );
    });
    if let Some(t) = stopper {
        let returned = std::time::Instant::now();
        t.join().map_err(|_| "stopper thread panicked")?;
        if let Some(at) = *stopped_at.lock().unwrap() {
            println!(
                "stop latency: {:.3} ms from stop() to search() returning",
                returned.duration_since(at).as_secs_f64() * 1000.0
            );
        }
    }
    match result.best_move {
        Some(m) => {
            // The last line is exactly `bestmove <move> [ponder <move>]`, for scripts.
            println!(
                "score {}, depth {}, {} nodes",
                result.score, result.depth, result.nodes
            );
            println!(
                "bestmove {m}{}",
                result
                    .ponder_move
                    .map(|p| format!(" ponder {p}"))
                    .unwrap_or_default()
            );
        }
        None => println!("no legal move: the side to move has lost"),
    }
    Ok(())
}
