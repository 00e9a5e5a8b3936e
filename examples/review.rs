//! Reviews every game of a PGN file (复盘) and writes it back annotated: on each inaccuracy,
//! mistake and blunder its NAG (`?!`, `?`, `??`), a comment with the loss and the engine's
//! move, and the engine's line as a variation.
//!
//! ```text
//! cargo run --release --example review -- IN.pgn --out OUT.pgn
//!     [--depth N | --movetime MS | --nodes N] [--threads T] [--hash MB]
//!     [--rules asian|chinese] [--classical]
//! ```
//!
//! Each position is searched once with the limit given (depth 10 within 1 s by default);
//! the moves are judged as `xiangqi_search::review` says (win% lost against the engine's
//! move: 10 points an inaccuracy, 20 a mistake, 30 a blunder). The games are shared out to
//! `T` threads (every core by default), each with an engine of its own, and written in the
//! file's order whatever the number of threads. Progress goes to standard error: games done
//! of the total, moves per second, the time taken and the time left.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};
use xiangqi::core::{Color, RuleSet};
use xiangqi::nnue::EvalChoice;
use xiangqi::records::pgn::{self, WriteOptions};
use xiangqi::records::Record;
use xiangqi::search::review::{review, Review, ReviewOptions};
use xiangqi::search::{Limits, Searcher};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("review: {e}");
            ExitCode::FAILURE
        }
    }
}

/// What the command line asks for.
struct Args {
    input: String,
    output: String,
    options: ReviewOptions,
    threads: usize,
    hash_mb: usize,
    classical: bool,
}

fn parse_args() -> Result<Args, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut input = None;
    let mut output = None;
    let mut limits = None;
    let mut rules = RuleSet::Asian;
    let mut threads = std::thread::available_parallelism().map_or(1, usize::from);
    let mut hash_mb = 16;
    let mut classical = false;
    let mut i = 0;
    let value = |i: usize| -> Result<&String, String> {
        args.get(i + 1)
            .ok_or_else(|| format!("{} needs a value", args[i]))
    };
    let num = |i: usize| -> Result<u64, String> {
        let v = value(i)?;
        match v.parse::<u64>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(format!("{}: `{v}` is not a positive number", args[i])),
        }
    };
    let one_limit = |limits: &Option<Limits>, flag: &str| -> Result<(), String> {
        match limits {
            Some(_) => Err(format!(
                "{flag}: give one limit of --depth, --movetime, --nodes"
            )),
            None => Ok(()),
        }
    };
    while i < args.len() {
        let flag = args[i].as_str();
        match flag {
            "--out" | "-o" => output = Some(value(i)?.clone()),
            "--depth" => {
                one_limit(&limits, flag)?;
                let depth = u32::try_from(num(i)?).map_err(|_| "--depth: too deep".to_string())?;
                limits = Some(Limits {
                    depth: Some(depth),
                    ..Limits::default()
                });
            }
            "--movetime" => {
                one_limit(&limits, flag)?;
                limits = Some(Limits {
                    movetime: Some(Duration::from_millis(num(i)?)),
                    ..Limits::default()
                });
            }
            "--nodes" => {
                one_limit(&limits, flag)?;
                limits = Some(Limits {
                    nodes: Some(num(i)?),
                    ..Limits::default()
                });
            }
            "--threads" => {
                threads = usize::try_from(num(i)?).map_err(|_| "--threads: too many")?;
            }
            "--hash" => hash_mb = usize::try_from(num(i)?).map_err(|_| "--hash: too large")?,
            "--rules" => {
                rules = match value(i)?.as_str() {
                    "asian" => RuleSet::Asian,
                    "chinese" => RuleSet::Chinese,
                    other => return Err(format!("--rules: `{other}` is not asian or chinese")),
                }
            }
            "--classical" => {
                classical = true;
                i += 1;
                continue;
            }
            "-h" | "--help" => {
                return Err(
                    "usage: review IN.pgn --out OUT.pgn [--depth N | --movetime MS | --nodes N] \
                     [--threads T] [--hash MB] [--rules asian|chinese] [--classical]"
                        .into(),
                )
            }
            other if other.starts_with('-') => return Err(format!("unknown option {other}")),
            other => {
                if input.replace(other.to_string()).is_some() {
                    return Err("give one input file".into());
                }
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    let defaults = ReviewOptions::default();
    Ok(Args {
        input: input.ok_or("no input file: review IN.pgn --out OUT.pgn")?,
        output: output.ok_or("no output file: --out OUT.pgn")?,
        options: ReviewOptions {
            limits: limits.unwrap_or(defaults.limits),
            rules,
            ..defaults
        },
        threads: threads.max(1),
        hash_mb,
        classical,
    })
}

/// `m:ss` (or `h:mm:ss`).
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// One game's line of the report: its players and each side's counts.
fn report(index: usize, record: &Record, review: &Review) -> String {
    let name = |tag: &str, default: &str| record.tag(tag).unwrap_or(default).to_string();
    let side = |c: Color| {
        let s = review.summary(c);
        format!(
            "{} ?! {} ? {} ?? (avg loss {:.1}%)",
            s.inaccuracies, s.mistakes, s.blunders, s.average_loss
        )
    };
    format!(
        "game {}: {} - {}: red {}; black {}",
        index + 1,
        name("Red", "?"),
        name("Black", "?"),
        side(Color::Red),
        side(Color::Black)
    )
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    let bytes = std::fs::read(&args.input).map_err(|e| format!("{}: {e}", args.input))?;
    let loaded = pgn::load(&bytes).map_err(|e| format!("{}: {e}", args.input))?;
    if !loaded.warnings.is_empty() {
        eprintln!(
            "review: {} warnings reading {} (what could not be read is skipped)",
            loaded.warnings.len(),
            args.input
        );
    }
    let total = loaded.records.len();
    let total_moves: usize = loaded
        .records
        .iter()
        .map(|r| r.tree.main_line_moves().len())
        .sum();
    let threads = args.threads.min(total).max(1);
    let l = &args.options.limits;
    let mut per_position = Vec::new();
    if let Some(d) = l.depth {
        per_position.push(format!("depth {d}"));
    }
    if let Some(n) = l.nodes {
        per_position.push(format!("{n} nodes"));
    }
    if let Some(t) = l.movetime {
        per_position.push(format!("{} ms", t.as_millis()));
    }
    eprintln!(
        "review: {total} games, {total_moves} moves, {threads} threads, {} a position",
        per_position.join(" within ")
    );
    let games: Vec<Mutex<Record>> = loaded.records.into_iter().map(Mutex::new).collect();
    let next = AtomicUsize::new(0);
    let done_games = AtomicUsize::new(0);
    let done_moves = AtomicUsize::new(0);
    let never = AtomicBool::new(false);
    let begun = Instant::now();
    let print = Mutex::new(());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut searcher = Searcher::with_evaluator(if args.classical {
                    EvalChoice::classical()
                } else {
                    EvalChoice::default()
                });
                searcher.set_hash_size(args.hash_mb);
                searcher.set_rules(args.options.rules);
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(slot) = games.get(i) else { break };
                    let mut record = slot.lock().unwrap_or_else(PoisonError::into_inner);
                    searcher.new_game();
                    let game = record.main_game();
                    let done = review(&mut searcher, &game, &args.options, &never, &mut |_| {
                        done_moves.fetch_add(1, Ordering::Relaxed);
                    });
                    let line = match xiangqi_service::review::annotate(&mut record.tree, &done) {
                        Ok(_) => report(i, &record, &done),
                        Err(e) => format!("game {}: not annotated: {e}", i + 1),
                    };
                    drop(record);
                    let games_done = done_games.fetch_add(1, Ordering::SeqCst) + 1;
                    let moves = done_moves.load(Ordering::Relaxed);
                    let elapsed = begun.elapsed();
                    let rate = moves as f64 / elapsed.as_secs_f64().max(1e-3);
                    let left = Duration::from_secs_f64(
                        (total_moves.saturating_sub(moves)) as f64 / rate.max(1e-3),
                    );
                    let _lock = print.lock().unwrap_or_else(PoisonError::into_inner);
                    eprintln!("{line}");
                    eprintln!(
                        "review: {games_done}/{total} games, {moves}/{total_moves} moves, \
                         {rate:.1} moves/s, {} taken, ~{} left",
                        clock(elapsed),
                        clock(left)
                    );
                }
            });
        }
    });
    let records: Vec<Record> = games
        .into_iter()
        .map(|m| m.into_inner().unwrap_or_else(PoisonError::into_inner))
        .collect();
    let mut text = pgn::write_records(&records, &WriteOptions::default());
    if !text.ends_with('\n') {
        text.push('\n');
    }
    std::fs::write(&args.output, text).map_err(|e| format!("{}: {e}", args.output))?;
    eprintln!(
        "review: wrote {} ({total} games) in {}",
        args.output,
        clock(begun.elapsed())
    );
    Ok(())
}
