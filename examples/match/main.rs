//! Plays a match between two engines and reports W-D-L, score, Elo with its error bar and
//! optionally an SPRT verdict. Each opening is played twice, colours swapped.
//!
//! ```text
//! cargo run --release --example match -- \
//!     --engine name=new --engine name=old,off=null_move \
//!     --engine name=fsf,cmd=/usr/games/fairy-stockfish,option.Hash=16 \
//!     --games 200 --concurrency 2 --tc 2+0.05 [--nodes N | --depth D | --movetime MS] \
//!     [--openings FILE] [--pgn games.pgn] [--sprt elo0,elo1] [--max-plies 400]
//! ```
//!
//! Engines (`--engine`, exactly two; key=value list):
//! - in-process (no `cmd`): `name`, `threads`, `hash`, `level` (see `Level::all`), `off`
//!   (search features to turn off, `+`-separated, e.g. `off=lmr+null_move`), `on` (those
//!   off by default to turn on), `tune.NAME`
//!   (a search constant, e.g. `tune.rfp_margin=100`; see `Tunables::SPECS`);
//! - external: `cmd` (path), `proto=uci|ucci` (uci by default), `arg` (repeatable),
//!   `option.NAME=VALUE` (setoption), `threads`, `hash`, `ranks=1` for UCI engines that
//!   number ranks 1-10 (set automatically for fairy-stockfish, with UCI_Variant=xiangqi);
//! - either kind: `tc=BASE+INC` (seconds), `nodes=N`, `depth=D` or `movetime=MS`: this
//!   engine's own control in place of the match's `--tc` (`--nodes`, ...), for time odds,
//!   e.g. `--engine name=ours,tc=0.3125+0.003 --engine name=fsf,cmd=...,tc=10+0.1`. Each
//!   side's clock runs on its own base and increment and its flag falls on its own clock;
//!   `go` tells an engine both clocks as they stand (UCI `wtime`/`winc` red's and
//!   `btime`/`binc` black's; UCCI `time`/`increment` its own, `opptime`/`oppincrement` the
//!   other's; a side without a clock is left out). The summary says `time odds: ...` and the
//!   PGN has `RedTimeControl`/`BlackTimeControl` in place of `TimeControl`.
//!
//! The games are judged here: no legal move loses (checkmate or stalemate), a position
//! repeated three times is judged by the rules (perpetual check or chase loses, else a draw),
//! 60 moves without capture draw, neither side able to attack draws, and a cap on game length
//! (`--max-plies`) draws. Losing on time (beyond `--time-margin` ms) or an illegal move
//! loses. Openings: `--openings FILE`, one per line, either a FEN or `moves m1 m2 ...` from
//! the start position (`#` comments); by default 100 two-move openings built in.

mod clock;
mod players;
mod stats;

use clock::{SideClock, TimeControl};
use players::{EngineSpec, Player};
use stats::Wdl;
use std::fmt::Write as _;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use xiangqi::core::{Color, Game, Position, RuleSet};

/// Common first moves of red, then of black (ICCS), combined into 10 x 10 openings.
const RED_FIRST: [&str; 10] = [
    "h2e2", "b2e2", "c3c4", "g3g4", "b0c2", "h0g2", "c0e2", "g0e2", "h2f2", "b2d2",
];
const BLACK_FIRST: [&str; 10] = [
    "h9g7", "b9c7", "h7e7", "b7e7", "c6c5", "g6g5", "c9e7", "g9e7", "h7f7", "b7d7",
];

struct Config {
    engines: Vec<EngineSpec>,
    games: usize,
    concurrency: usize,
    /// Each engine's control (by engine, as given): its `tc=` (or `nodes=` ...), else the
    /// match's `--tc` (or `--nodes` ...).
    tcs: [TimeControl; 2],
    openings: Vec<Game>,
    pgn: Option<String>,
    sprt: Option<(f64, f64)>,
    max_plies: usize,
    time_margin: Duration,
    rules: RuleSet,
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("match: {e}");
            ExitCode::FAILURE
        }
    }
}

fn parse_args() -> Result<Config, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut engines = Vec::new();
    let mut games = 20;
    let mut concurrency = 1;
    let mut tc = TimeControl::Clock {
        base: Duration::from_millis(2000),
        inc: Duration::from_millis(50),
    };
    let mut openings_file = None;
    let mut opening_offset = 0;
    let mut pgn = None;
    let mut sprt = None;
    let mut max_plies = 400;
    let mut time_margin = Duration::from_millis(100);
    let mut rules = RuleSet::Asian;
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        if flag == "-h" || flag == "--help" {
            println!("{}", include_str!("usage.txt"));
            std::process::exit(0);
        }
        if flag == "--list-tunables" {
            // For tools/spsa: the search constants a `tune.NAME` key can set.
            println!("name default min max step");
            for t in xiangqi::search::Tunables::SPECS {
                println!("{} {} {} {} {}", t.name, t.default, t.min, t.max, t.step);
            }
            std::process::exit(0);
        }
        let v = args
            .get(i + 1)
            .ok_or_else(|| format!("{flag} needs a value"))?
            .clone();
        let num = |v: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("{flag}: `{v}` is not a number"))
        };
        match flag {
            "--engine" => engines.push(EngineSpec::parse(&v)?),
            "--games" => games = num(&v)? as usize,
            "--concurrency" => concurrency = num(&v)?.max(1) as usize,
            "--tc" => tc = TimeControl::parse_clock(&v)?,
            "--nodes" => tc = TimeControl::Nodes(num(&v)?),
            "--depth" => tc = TimeControl::Depth(num(&v)? as u32),
            "--movetime" => tc = TimeControl::MoveTime(num(&v)?),
            "--openings" => openings_file = Some(v),
            "--opening-offset" => opening_offset = num(&v)? as usize,
            "--pgn" => pgn = Some(v),
            "--max-plies" => max_plies = num(&v)? as usize,
            "--time-margin" => time_margin = Duration::from_millis(num(&v)?),
            "--rules" => {
                rules = match v.as_str() {
                    "asian" => RuleSet::Asian,
                    "chinese" => RuleSet::Chinese,
                    _ => return Err(format!("--rules {v}: asian or chinese")),
                }
            }
            "--sprt" => {
                let (a, b) = v.split_once(',').ok_or("--sprt elo0,elo1")?;
                let f = |s: &str| {
                    s.parse::<f64>()
                        .map_err(|_| format!("--sprt: `{s}` is not a number"))
                };
                sprt = Some((f(a)?, f(b)?));
            }
            _ => return Err(format!("unknown argument `{flag}` (try --help)")),
        }
        i += 2;
    }
    if engines.len() != 2 {
        return Err(format!("need exactly two --engine, got {}", engines.len()));
    }
    if engines[0].name == engines[1].name {
        engines[1].name.push_str("-2");
    }
    let openings = match openings_file {
        Some(f) => read_openings(&std::fs::read_to_string(&f).map_err(|e| format!("{f}: {e}"))?)?,
        None => builtin_openings(),
    };
    if openings.is_empty() {
        return Err("no openings".into());
    }
    let mut openings = openings;
    let n = openings.len();
    openings.rotate_left(opening_offset % n);
    let tcs = [engines[0].tc.unwrap_or(tc), engines[1].tc.unwrap_or(tc)];
    Ok(Config {
        engines,
        games,
        concurrency,
        tcs,
        openings,
        pgn,
        sprt,
        max_plies,
        time_margin,
        rules,
    })
}

fn builtin_openings() -> Vec<Game> {
    let mut out = Vec::new();
    for r in RED_FIRST {
        for b in BLACK_FIRST {
            let mut g = Game::default();
            for t in [r, b] {
                let m = g.position().parse_uci(t).expect("built-in opening move");
                g.play(m).expect("built-in opening move is legal");
            }
            out.push(g);
        }
    }
    out
}

fn read_openings(text: &str) -> Result<Vec<Game>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let game = if let Some(moves) = line.strip_prefix("moves") {
            let mut g = Game::default();
            for t in moves.split_whitespace() {
                let m = g
                    .position()
                    .parse_uci(t)
                    .map_err(|e| format!("openings line {}: {t}: {e}", n + 1))?;
                g.play(m)
                    .map_err(|e| format!("openings line {}: {e}", n + 1))?;
            }
            g
        } else {
            Game::new(
                Position::from_fen(line).map_err(|e| format!("openings line {}: {e}", n + 1))?,
            )
        };
        out.push(game);
    }
    Ok(out)
}

/// The result of one game from red's point of view.
struct GameRecord {
    index: usize,
    red: usize,
    winner: Option<Color>,
    reason: String,
    game: Game,
    comments: Vec<String>,
}

fn play_game(
    cfg: &Config,
    players: &mut [Box<dyn Player>; 2],
    red: usize,
    index: usize,
) -> GameRecord {
    let opening = &cfg.openings[(index / 2) % cfg.openings.len()];
    let mut game = Game::new(opening.start_position().clone());
    for &m in opening.moves() {
        game.play(m).expect("opening moves are legal");
    }
    let engine_of = |c: Color| if c == Color::Red { red } else { 1 - red };
    let seed = 0x1234_5678 + index as u64 * 7919;
    for p in players.iter_mut() {
        if let Err(e) = p.new_game(seed) {
            eprintln!("warning: {e}");
        }
    }
    // Each colour's control and clock: the control of the engine playing it.
    let tc_of = |c: Color| cfg.tcs[engine_of(c)];
    let mut clocks = start_clocks([tc_of(Color::Red), tc_of(Color::Black)]);
    let mut comments = Vec::new();
    let end = |w: Option<Color>, r: String, game: Game, comments: Vec<String>| GameRecord {
        index,
        red,
        winner: w,
        reason: r,
        game,
        comments,
    };
    loop {
        if let Some(o) = game.outcome(cfg.rules) {
            return end(o.winner, o.to_string(), game, comments);
        }
        if game.moves().len() >= cfg.max_plies {
            return end(
                None,
                format!("draw by the length cap ({} plies)", cfg.max_plies),
                game,
                comments,
            );
        }
        let side = game.position().side_to_move();
        let who = engine_of(side);
        let t0 = Instant::now();
        let answer = players[who].go(&game, &tc_of(side), clocks);
        let spent = t0.elapsed();
        let name = players[who].name().to_string();
        let (mv, thought) = match answer {
            Ok(a) => a,
            Err(e) => {
                return end(
                    Some(side.other()),
                    format!("{name} failed: {e}"),
                    game,
                    comments,
                )
            }
        };
        if let Some(c) = &mut clocks[side.index()] {
            // Flag-fall on this side's own clock; then its own increment.
            if !c.charge(spent, cfg.time_margin) {
                return end(
                    Some(side.other()),
                    format!("{side} ({name}) loses on time"),
                    game,
                    comments,
                );
            }
        }
        let Some(m) = mv else {
            return end(
                Some(side.other()),
                format!("{side} ({name}) made no move"),
                game,
                comments,
            );
        };
        if game.play(m).is_err() {
            return end(
                Some(side.other()),
                format!("{side} ({name}) played the illegal move {m}"),
                game,
                comments,
            );
        }
        comments.push(format!(
            "{}/{} {:.2}s",
            thought.score.unwrap_or_else(|| "?".into()),
            thought.depth.map_or("?".into(), |d| d.to_string()),
            spent.as_secs_f64()
        ));
    }
}

/// The clocks a game starts with, by colour, from each colour's control (`None` for a side
/// that plays by nodes, depth or time a move).
fn start_clocks(tcs: [TimeControl; 2]) -> [Option<SideClock>; 2] {
    [tcs[0].start_clock(), tcs[1].start_clock()]
}

/// The controls in words for the summary: `2+0.05` when both engines share it, else
/// `time odds: A 0.3125+0.003, B 10+0.1`.
fn tc_summary(names: [&str; 2], tcs: [TimeControl; 2]) -> String {
    if tcs[0] == tcs[1] {
        tcs[0].to_string()
    } else {
        format!(
            "time odds: {} {}, {} {}",
            names[0], tcs[0], names[1], tcs[1]
        )
    }
}

/// The PGN's time-control tags: `TimeControl` when both sides share one, else `RedTimeControl`
/// and `BlackTimeControl` (cutechess's per-side tags, by colour).
fn pgn_tc_tags(red: TimeControl, black: TimeControl) -> String {
    if red == black {
        format!("[TimeControl \"{red}\"]\n")
    } else {
        format!("[RedTimeControl \"{red}\"]\n[BlackTimeControl \"{black}\"]\n")
    }
}

fn pgn_of(cfg: &Config, rec: &GameRecord) -> String {
    let names = [&cfg.engines[rec.red].name, &cfg.engines[1 - rec.red].name];
    let result = match rec.winner {
        Some(Color::Red) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "[Event \"match\"]\n[Round \"{}\"]\n[Red \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]",
        rec.index + 1,
        names[0],
        names[1]
    );
    s.push_str(&pgn_tc_tags(cfg.tcs[rec.red], cfg.tcs[1 - rec.red]));
    let start = rec.game.start_position();
    if *start != Position::startpos() {
        let _ = writeln!(s, "[FEN \"{}\"]", start.fen());
    }
    let _ = writeln!(s, "[Format \"ICCS\"]\n[Termination \"{}\"]\n", rec.reason);
    let opening_len = cfg.openings[(rec.index / 2) % cfg.openings.len()]
        .moves()
        .len();
    for (i, m) in rec.game.moves().iter().enumerate() {
        if i % 2 == 0 {
            let _ = write!(s, "{}. ", i / 2 + 1);
        }
        let _ = write!(s, "{m} ");
        if i >= opening_len {
            if let Some(c) = rec.comments.get(i - opening_len) {
                let _ = write!(s, "{{{c}}} ");
            }
        }
    }
    let _ = writeln!(s, "{result}\n");
    s
}

fn run() -> Result<(), String> {
    let cfg = Arc::new(parse_args()?);
    let names = [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()];
    let tc_text = tc_summary([&names[0], &names[1]], cfg.tcs);
    println!(
        "Match {} vs {}: {} games, {} at a time, {tc_text}, {} openings",
        names[0],
        names[1],
        cfg.games,
        cfg.concurrency,
        cfg.openings.len()
    );
    let next = Arc::new(AtomicUsize::new(0));
    let state = Arc::new(Mutex::new((
        Wdl::default(),
        [Wdl::default(); 2],
        Vec::<String>::new(),
        0usize,
        false,
    )));
    let started = Instant::now();
    let pgn_file = cfg.pgn.clone();
    if let Some(f) = &pgn_file {
        std::fs::write(f, "").map_err(|e| format!("{f}: {e}"))?;
    }
    std::thread::scope(|s| -> Result<(), String> {
        let mut handles = Vec::new();
        for _ in 0..cfg.concurrency.min(cfg.games.max(1)) {
            let cfg = Arc::clone(&cfg);
            let next = Arc::clone(&next);
            let state = Arc::clone(&state);
            let pgn_file = pgn_file.clone();
            handles.push(s.spawn(move || -> Result<(), String> {
                let mut players: [Box<dyn Player>; 2] =
                    [cfg.engines[0].build()?, cfg.engines[1].build()?];
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= cfg.games || state.lock().unwrap().4 {
                        return Ok(());
                    }
                    // Even games: engine 0 is red; odd: colours swapped on the same opening.
                    let red = index % 2;
                    let rec = play_game(&cfg, &mut players, red, index);
                    let first_result = match rec.winner {
                        None => 0,
                        Some(c) => {
                            let winner_engine = if c == Color::Red {
                                rec.red
                            } else {
                                1 - rec.red
                            };
                            if winner_engine == 0 {
                                1
                            } else {
                                -1
                            }
                        }
                    };
                    let mut st = state.lock().unwrap();
                    match first_result {
                        1 => st.0.wins += 1,
                        0 => st.0.draws += 1,
                        _ => st.0.losses += 1,
                    }
                    // Per colour of engine 0.
                    let col = if rec.red == 0 { 0 } else { 1 };
                    match first_result {
                        1 => st.1[col].wins += 1,
                        0 => st.1[col].draws += 1,
                        _ => st.1[col].losses += 1,
                    }
                    st.3 += 1;
                    let result = match rec.winner {
                        Some(Color::Red) => "1-0",
                        Some(Color::Black) => "0-1",
                        None => "1/2-1/2",
                    };
                    let red_name = &cfg.engines[rec.red].name;
                    let black_name = &cfg.engines[1 - rec.red].name;
                    println!(
                        "Finished game {} ({} vs {}): {} {{{}}} [{} plies]",
                        rec.index + 1,
                        red_name,
                        black_name,
                        result,
                        rec.reason,
                        rec.game.moves().len()
                    );
                    let w = st.0;
                    println!(
                        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
                        cfg.engines[0].name,
                        cfg.engines[1].name,
                        w.wins,
                        w.losses,
                        w.draws,
                        w.score(),
                        w.games()
                    );
                    if let Some((e0, e1)) = cfg.sprt {
                        let (lo, hi) = stats::sprt_bounds(0.05, 0.05);
                        let llr = w.llr(e0, e1);
                        if llr <= lo || llr >= hi {
                            st.4 = true;
                        }
                    }
                    if let Some(f) = &pgn_file {
                        use std::io::Write;
                        if let Ok(mut file) = std::fs::OpenOptions::new().append(true).open(f) {
                            let _ = file.write_all(pgn_of(&cfg, &rec).as_bytes());
                        }
                    }
                }
            }));
        }
        for h in handles {
            h.join()
                .map_err(|_| "a game thread panicked".to_string())??;
        }
        Ok(())
    })?;
    let st = state.lock().unwrap();
    let w = st.0;
    let (elo, err, lo, hi) = w.elo_with_error();
    println!();
    println!(
        "Results of {} vs {} ({tc_text}, {} games, {:.0} s):",
        names[0],
        names[1],
        w.games(),
        started.elapsed().as_secs_f64()
    );
    println!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        names[0],
        names[1],
        w.wins,
        w.losses,
        w.draws,
        w.score(),
        w.games()
    );
    for (c, label) in [(0, "red"), (1, "black")] {
        let x = st.1[c];
        println!(
            "...      {} playing {label}: {} - {} - {}  [{:.3}] {}",
            names[0],
            x.wins,
            x.losses,
            x.draws,
            x.score(),
            x.games()
        );
    }
    println!(
        "...      W-D-L {}-{}-{}, score {:.1}%, draw ratio {:.1}%",
        w.wins,
        w.draws,
        w.losses,
        100.0 * w.score(),
        100.0 * w.draws as f64 / w.games().max(1) as f64
    );
    println!(
        "Elo difference: {elo:.1} +/- {err:.1} (95%: {lo:.1} to {hi:.1}), LOS: {:.1} %",
        100.0 * w.los()
    );
    if let Some((e0, e1)) = cfg.sprt {
        let (llr_lo, llr_hi) = stats::sprt_bounds(0.05, 0.05);
        let llr = w.llr(e0, e1);
        let verdict = if llr >= llr_hi {
            "H1 accepted"
        } else if llr <= llr_lo {
            "H0 accepted"
        } else {
            "inconclusive"
        };
        println!("SPRT: elo0={e0} elo1={e1} alpha=0.05 beta=0.05: LLR {llr:.2} ({llr_lo:.2}, {llr_hi:.2}) {verdict}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(text: &str) -> TimeControl {
        TimeControl::parse_clock(text).unwrap()
    }

    #[test]
    fn summary_and_pgn_tags_say_the_odds() {
        let odds = [tc("0.3125+0.003"), tc("10+0.1")];
        assert_eq!(
            tc_summary(["xiangqi", "fsf"], odds),
            "time odds: xiangqi 0.3125+0.003, fsf 10+0.1"
        );
        assert_eq!(tc_summary(["a", "b"], [tc("2+0.05"); 2]), "2+0.05");
        assert_eq!(
            pgn_tc_tags(odds[1], odds[0]),
            "[RedTimeControl \"10+0.1\"]\n[BlackTimeControl \"0.3125+0.003\"]\n"
        );
        assert_eq!(
            pgn_tc_tags(tc("2+0.05"), tc("2+0.05")),
            "[TimeControl \"2+0.05\"]\n"
        );
    }

    /// Each colour's clock runs on its own base and increment: spent time comes off the
    /// mover's clock only, and it gets its own increment back.
    #[test]
    fn clocks_run_on_their_own_base_and_increment() {
        let mut clocks = start_clocks([tc("1+0.01"), tc("4+0.04")]);
        let ms = Duration::from_millis;
        let margin = ms(100);
        assert!(clocks[0].as_mut().unwrap().charge(ms(100), margin));
        assert!(clocks[1].as_mut().unwrap().charge(ms(400), margin));
        assert_eq!(clocks[0].unwrap().time, ms(910));
        assert_eq!(clocks[1].unwrap().time, ms(3640));
        // Red's flag falls beyond its own 0.91 s (+ margin); black's 3.64 s would have held.
        assert!(!clocks[0].as_mut().unwrap().charge(ms(1100), margin));
        assert!(clocks[1].as_mut().unwrap().charge(ms(1100), margin));
        assert_eq!(clocks[1].unwrap().time, ms(2580));
        // Within the margin: the clock stops at zero, then takes the increment.
        let mut c = start_clocks([tc("0.05+0.01"), tc("0.05+0.01")])[0];
        assert!(c.as_mut().unwrap().charge(ms(120), margin));
        assert_eq!(c.unwrap().time, ms(10));
        assert_eq!(start_clocks([TimeControl::Nodes(1), tc("1+0")])[0], None);
    }
}
