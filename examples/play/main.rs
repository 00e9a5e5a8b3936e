//! Play xiangqi (象棋) against the computer in the terminal (人机对弈).
//!
//! ```text
//! cargo run --release --example play -- [--black | --both] [--level N] [--fen FEN | --load FILE]
//!     [--ascii] [--color | --no-color] [--depth D] [--nodes N] [--movetime MS] [--no-book]
//!     [--hint-nodes N | --hint-time MS] [--rules asian|chinese] [--threads N] [--hash MB]
//!     [--egtb DIR|off]
//! ```
//! (`--help` explains each.)
//! Moves are typed as ICCS (`h2e2`), WXF (`C2.5`) or Chinese (`炮二平五`); `help` lists the
//! commands. Works with the input from a pipe (a scripted game): then the input lines are
//! echoed, no prompt is shown and colours are off unless `--color` is given.
//!
//! Three threads: one reads the input, one runs the search (the engine), and the main one
//! keeps the game and talks to the player, so the player can stop the search at any time.

mod board;
mod engine;
mod notation;
mod record;
mod rules;
mod session;

use session::{Event, Notation, Players, Session, Settings};
use std::io::{BufRead, IsTerminal};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;
use xiangqi::core::{Color, Game, Position, RuleSet};
use xiangqi::search::Limits;

const USAGE: &str = "\
usage: play [options]
  --red | --black | --both   your side (default red; both = you play both sides, the computer hints)
  --level N                  strength level (`--levels` lists them)
  --levels                   list the strength levels and exit
  --fen FEN                  start from a position
  --load FILE[#N]            start from a saved game (PGN, XQF, DhtmlXQ, CBF, CBR/CBL, text),
                             at the end of its main line or of line N of its variations
  --depth D | --nodes N | --movetime MS   the computer's limits per move, instead of a level
  --hint-nodes N | --hint-time MS          the limits of a hint (default 2000 ms)
  --rules asian|chinese      the rules that judge repetitions (default asian)
  --no-book                  the computer does not play from the opening book
  --threads N | --hash MB    search threads (default 1) and hash table size (default 64 MiB)
  --egtb DIR|off             endgame tablebases for hints and full-strength play (default: the
                             cache folder, its starter set generated in the background if missing)
  --ascii                    letters instead of Chinese characters (terminals without CJK fonts)
  --color | --no-color       ANSI colours (default: on when the output is a terminal)
  --wxf | --iccs             write the move list in WXF or ICCS instead of Chinese";

struct Args {
    settings: Settings,
    fen: Option<String>,
    load: Option<String>,
    ask: bool,
    threads: usize,
    hash_mb: usize,
    egtb: engine::Tables,
}

fn parse_args() -> Result<Option<Args>, String> {
    let mut args = std::env::args().skip(1);
    let stdin_tty = std::io::stdin().is_terminal();
    let mut settings = Settings {
        players: Players::Human(Color::Red),
        level: 3,
        limits: None,
        hint_limits: Limits {
            movetime: Some(Duration::from_secs(2)),
            ..Limits::default()
        },
        rules: RuleSet::default(),
        style: board::Style {
            ascii: false,
            color: std::io::stdout().is_terminal(),
            flipped: false,
        },
        notation: Notation::Chinese,
        book: true,
        echo: !stdin_tty,
        prompt: stdin_tty,
    };
    let mut fen = None;
    let mut load = None;
    let mut chose = false;
    let mut limits = Limits::default();
    let mut custom = false;
    let mut threads = 1;
    let mut hash_mb = 64;
    let mut egtb = engine::Tables::Default;
    fn value<T: std::str::FromStr>(
        args: &mut impl Iterator<Item = String>,
        flag: &str,
    ) -> Result<T, String> {
        let v = args.next().ok_or(format!("{flag} needs a value"))?;
        v.parse().map_err(|_| format!("{flag}: cannot read {v:?}"))
    }
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--red" => (settings.players, chose) = (Players::Human(Color::Red), true),
            "--black" => (settings.players, chose) = (Players::Human(Color::Black), true),
            "--both" => (settings.players, chose) = (Players::Both, true),
            "--level" => {
                let n: usize = value(&mut args, "--level")?;
                let count = engine::levels().len();
                if !(1..=count).contains(&n) {
                    return Err(format!("--level must be 1..{count}"));
                }
                settings.level = n - 1;
                chose = true;
            }
            "--levels" => {
                for (i, l) in engine::levels().iter().enumerate() {
                    println!("{} {} — {}", i + 1, l.name, l.description);
                }
                return Ok(None);
            }
            "--fen" => fen = Some(value::<String>(&mut args, "--fen")?),
            "--load" => load = Some(value::<String>(&mut args, "--load")?),
            "--depth" => (limits.depth, custom) = (Some(value(&mut args, "--depth")?), true),
            "--nodes" => (limits.nodes, custom) = (Some(value(&mut args, "--nodes")?), true),
            "--movetime" => {
                let ms: u64 = value(&mut args, "--movetime")?;
                (limits.movetime, custom) = (Some(Duration::from_millis(ms)), true);
            }
            "--hint-nodes" => {
                settings.hint_limits = Limits {
                    nodes: Some(value(&mut args, "--hint-nodes")?),
                    ..Limits::default()
                }
            }
            "--hint-time" => {
                let ms: u64 = value(&mut args, "--hint-time")?;
                settings.hint_limits = Limits {
                    movetime: Some(Duration::from_millis(ms)),
                    ..Limits::default()
                }
            }
            "--rules" => {
                settings.rules = match value::<String>(&mut args, "--rules")?.as_str() {
                    "asian" => RuleSet::Asian,
                    "chinese" => RuleSet::Chinese,
                    other => {
                        return Err(format!("--rules asian or --rules chinese, not {other:?}"))
                    }
                }
            }
            "--no-book" => settings.book = false,
            "--threads" => threads = value::<usize>(&mut args, "--threads")?.clamp(1, 256),
            "--hash" => hash_mb = value::<usize>(&mut args, "--hash")?.clamp(1, 65536),
            "--egtb" => {
                egtb = match value::<String>(&mut args, "--egtb")?.as_str() {
                    "off" => engine::Tables::Off,
                    dir => engine::Tables::Dir(dir.into()),
                }
            }
            "--ascii" => settings.style.ascii = true,
            "--color" | "--colour" => settings.style.color = true,
            "--no-color" | "--no-colour" => settings.style.color = false,
            "--wxf" => settings.notation = Notation::Wxf,
            "--iccs" => settings.notation = Notation::Iccs,
            "--help" | "-h" => {
                println!("{USAGE}");
                return Ok(None);
            }
            other => return Err(format!("unknown option {other:?}\n{USAGE}")),
        }
    }
    if custom {
        settings.limits = Some(limits);
    }
    settings.style.flipped = settings.players == Players::Human(Color::Black);
    Ok(Some(Args {
        settings,
        fen,
        load,
        ask: stdin_tty && !chose,
        threads,
        hash_mb,
        egtb,
    }))
}

/// At a terminal with no side or level given, asks for them.
fn ask_side_and_level(settings: &mut Settings, lines: &mpsc::Receiver<Event>) {
    println!("象棋 xiangqi — strength levels:");
    for (i, l) in engine::levels().iter().enumerate() {
        println!("  {} {} — {}", i + 1, l.name, l.description);
    }
    println!(
        "Choose your side and level, e.g. `red 3` or `black 2` (Enter = red, level {}):",
        settings.level + 1
    );
    let Ok(Event::Line(answer)) = lines.recv() else {
        return;
    };
    for word in answer.split_whitespace() {
        match word {
            "red" | "r" | "红" => settings.players = Players::Human(Color::Red),
            "black" | "b" | "黑" => settings.players = Players::Human(Color::Black),
            "both" => settings.players = Players::Both,
            n => {
                if let Ok(n) = n.parse::<usize>() {
                    if (1..=engine::levels().len()).contains(&n) {
                        settings.level = n - 1;
                    }
                }
            }
        }
    }
    settings.style.flipped = settings.players == Players::Human(Color::Black);
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(Some(a)) => a,
        Ok(None) => return ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let mut settings = args.settings;
    let game = if let Some(path) = &args.load {
        match record::load(path) {
            Ok((rec, notes)) => {
                for n in notes {
                    eprintln!("{n}");
                }
                rec.game
            }
            Err(e) => {
                eprintln!("cannot load {path}: {e}");
                return ExitCode::from(2);
            }
        }
    } else if let Some(fen) = &args.fen {
        match Position::from_fen(fen) {
            Ok(pos) => Game::new(pos),
            Err(e) => {
                eprintln!("bad FEN {fen:?}: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        Game::new(Position::startpos())
    };

    let (events, inbox) = mpsc::channel::<Event>();
    // The input thread: reads lines and nothing else.
    let input = events.clone();
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            for line in stdin.lock().lines() {
                let Ok(line) = line else { break };
                if input.send(Event::Line(line)).is_err() {
                    return;
                }
            }
            let _ = input.send(Event::Eof);
        })
        .expect("start the input thread");
    if args.ask {
        ask_side_and_level(&mut settings, &inbox);
    }
    let engine =
        engine::Engine::start(events, Event::Engine, args.threads, args.hash_mb, args.egtb);
    let stdout = std::io::stdout();
    let mut session = Session::new(stdout.lock(), settings, game, engine);
    if session.run(inbox) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
