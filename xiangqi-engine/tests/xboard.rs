//! The engine in XBoard itself: Debian's `xboard` under `Xvfb`, in match mode against
//! Fairy-Stockfish, loading our binary as a CECP engine, then as a UCI engine and as a UCCI
//! engine through `uci2wb` (Debian's `polyglot` 2.0.4 adapts chess engines only: it offers
//! XBoard the variants `normal` and `fischerandom`, so it cannot carry a xiangqi engine).
//! The PGN XBoard saves is read back with `xiangqi-records`: every game is legal and ends
//! as our rules say.
//!
//! Needs `xboard`, `xvfb`, `uci2wb` and `fairy-stockfish` (Debian packages). Without them
//! the test says what to install and passes, unless `CI` is set: then it fails.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use xiangqi_core::{Game, Move, Position, Role, RuleSet};
use xiangqi_records::pgn;

/// A program by name: on `PATH`, or in Debian's `/usr/games`.
fn find(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/games"), PathBuf::from("/usr/bin")])
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// The programs, or `None` (after saying what is missing) when the test cannot run here.
fn programs() -> Option<[PathBuf; 4]> {
    let names = ["xboard", "Xvfb", "uci2wb", "fairy-stockfish"];
    let found: Vec<Option<PathBuf>> = names.iter().map(|n| find(n)).collect();
    let missing: Vec<&str> = names
        .iter()
        .zip(&found)
        .filter(|(_, f)| f.is_none())
        .map(|(n, _)| *n)
        .collect();
    if missing.is_empty() {
        let f: Vec<PathBuf> = found.into_iter().flatten().collect();
        return Some([f[0].clone(), f[1].clone(), f[2].clone(), f[3].clone()]);
    }
    xiangqi_test_support::skip(
        "the XBoard test",
        &missing.join(", "),
        "Debian: apt-get install xboard xvfb uci2wb fairy-stockfish.",
    );
    None
}

/// A virtual X display, killed on drop.
struct Display {
    child: Child,
    name: String,
}

impl Display {
    fn start(xvfb: &Path) -> Display {
        for n in (100 + std::process::id() % 300)..1000 {
            if Path::new(&format!("/tmp/.X11-unix/X{n}")).exists() {
                continue;
            }
            let name = format!(":{n}");
            let child = Command::new(xvfb)
                .args([&name, "-screen", "0", "1280x1024x24", "-nolisten", "tcp"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("Xvfb starts");
            // Killed and waited for on drop, whatever happens next.
            let display = Display { child, name };
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(20) {
                if Path::new(&format!("/tmp/.X11-unix/X{n}")).exists() {
                    return display;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            panic!("Xvfb did not open display {}", display.name);
        }
        panic!("no free X display number");
    }
}

impl Drop for Display {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Plays a match in XBoard and returns the saved PGN's text.
fn xboard_match(
    xboard: &Path,
    display: &Display,
    dir: &Path,
    name: &str,
    engine_args: &[String],
    games: u32,
) -> String {
    let pgn = dir.join(format!("{name}.pgn"));
    let log = dir.join(format!("{name}.debug"));
    let _ = std::fs::remove_file(&pgn);
    let mut args: Vec<String> = vec![
        "-variant".into(),
        "xiangqi".into(),
        // Exit when the match is over, without a dialog waiting for a click.
        "-xexit".into(),
        // No pondering (both engines thinking all the time on a small machine starve the
        // one on move: tests/cecp.rs covers `hard`), no animation.
        "-ponderNextMove".into(),
        "false".into(),
        "-animateMoving".into(),
        "false".into(),
        // Xiangqi's move limit is 60 moves without a capture; XBoard's default is chess's 50.
        "-ruleMoves".into(),
        "60".into(),
        "-mg".into(),
        games.to_string(),
        "-tc".into(),
        "0:10".into(),
        "-inc".into(),
        "0.2".into(),
        "-sgf".into(),
        pgn.display().to_string(),
        "-debug".into(),
        "-nameOfDebugFile".into(),
        log.display().to_string(),
        "-fd".into(),
        dir.display().to_string(),
        "-sd".into(),
        dir.display().to_string(),
    ];
    // A debug build on a busy machine answers later than XBoard's clock expects: keep
    // back more than the default 10 ms for lag (the timing runs in docs/ENGINE.md use the
    // default, with a release build).
    args.extend(["-firstOptions".into(), "Move Overhead=150".into()]);
    args.extend(engine_args.iter().cloned());
    let mut child = Command::new(xboard)
        .args(&args)
        .env("DISPLAY", &display.name)
        // The engines XBoard starts find the tests' starter tables, not the user's cache.
        .env(xiangqi_egtb::DIR_VARIABLE, common::starter_tables())
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("xboard starts");
    // Generous: a hang guard, not a timing.
    let limit = Duration::from_secs(200 * games as u64);
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "XBoard did not finish {games} games in {limit:?}; see {}",
                log.display()
            );
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    std::fs::read_to_string(&pgn).unwrap_or_else(|e| panic!("{}: {e}", pgn.display()))
}

/// XBoard's xiangqi move text (`Hc2`, `cxc6`, `E5e7`, `Rxd0+`) as the legal move it names.
fn xboard_san(pos: &Position, san: &str) -> Result<Move, String> {
    let text: String = san
        .chars()
        .filter(|c| !matches!(c, 'x' | '+' | '#' | '!' | '?' | '-'))
        .collect();
    let chars: Vec<char> = text.chars().collect();
    if chars.len() < 2 {
        return Err(format!("{san:?} is too short"));
    }
    let (role, rest) = match chars[0] {
        'K' => (Role::King, &chars[1..]),
        'A' => (Role::Advisor, &chars[1..]),
        'E' | 'B' => (Role::Elephant, &chars[1..]),
        'H' | 'N' => (Role::Horse, &chars[1..]),
        'R' => (Role::Chariot, &chars[1..]),
        'C' => (Role::Cannon, &chars[1..]),
        'P' => (Role::Pawn, &chars[1..]),
        _ => (Role::Pawn, &chars[..]),
    };
    if rest.len() < 2 {
        return Err(format!("{san:?} has no target square"));
    }
    let to = format!("{}{}", rest[rest.len() - 2], rest[rest.len() - 1]);
    let mut hint: Vec<char> = rest[..rest.len() - 2].to_vec();
    // XBoard writes a pawn move without a letter and always with the file it leaves:
    // `i4` is the pawn on file i stepping straight on, `hi4` (or `hxi4`) one on file h
    // stepping sideways. So a bare `i4` is the pawn already on file i, even where a pawn
    // beside it could step sideways onto the same point.
    if chars[0].is_ascii_lowercase() && hint.is_empty() {
        hint.push(rest[0]);
    }
    let found: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| {
            let t = m.to_string();
            pos.piece_at(m.from()).map(|p| p.role) == Some(role)
                && t[2..] == to
                && hint.iter().all(|h| t[..2].contains(*h))
        })
        .collect();
    match found.as_slice() {
        [m] => Ok(*m),
        [] => Err(format!("{san:?} names no legal move in {}", pos.fen())),
        _ => Err(format!("{san:?} is ambiguous in {}", pos.fen())),
    }
}

/// The games of XBoard's PGN: its moves turned into ICCS and the file read back with
/// `xiangqi-records`, each game checked to end as our rules say.
fn check_games(text: &str, ours: &str) -> usize {
    let mut checked = 0;
    for block in text.split("[Event ").filter(|b| !b.trim().is_empty()) {
        let (tags, moves) = block
            .split_once("\n\n")
            .unwrap_or_else(|| panic!("a game without moves: {block}"));
        let result = tags
            .lines()
            .find_map(|l| l.strip_prefix("[Result \""))
            .and_then(|r| r.split('"').next())
            .expect("a Result tag");
        assert!(
            tags.contains(ours),
            "our engine does not play in this game: {tags}"
        );
        // The move text without comments and move numbers.
        let mut plain = String::new();
        let mut depth = 0;
        for c in moves.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => plain.push(c),
                _ => {}
            }
        }
        let comment = moves
            .rsplit_once('{')
            .map_or("", |(_, c)| c.split('}').next().unwrap_or(""));
        // Our engine must never lose on time nor forfeit; the opponent losing on time ends
        // the game before the rules do.
        let ours_is_red = tags
            .lines()
            .any(|l| l.starts_with("[White ") && l.contains(ours));
        let red_won = result == "1-0";
        // Time, a false claim (XBoard tests claims), or a crash: the game ends outside the
        // rules. Our engine must never be the one; the opponent may.
        let forfeit = ["on time", "False", "forfeit", "disconnect", "illegal"]
            .iter()
            .any(|w| comment.contains(w));
        let we_lost = result != "1/2-1/2" && red_won != ours_is_red;
        assert!(
            !(forfeit && we_lost),
            "our engine lost on time or forfeited: {comment}"
        );
        let mut game = Game::new(Position::startpos());
        let mut iccs = Vec::new();
        for word in plain.split_whitespace() {
            if word.ends_with('.') || word.chars().all(|c| c.is_ascii_digit() || c == '.') {
                continue;
            }
            if pgn::PgnResult::from_token(word).is_some() {
                break;
            }
            let m = xboard_san(game.position(), word).unwrap_or_else(|e| panic!("{e}"));
            game.play(m).unwrap();
            iccs.push(m.to_string());
        }
        // Read back with xiangqi-records, in a form it reads (ICCS moves).
        let record = format!(
            "[Game \"Chinese Chess\"]\n[Result \"{result}\"]\n[Format \"ICCS\"]\n\n{} {result}\n",
            iccs.join(" ")
        );
        let read = pgn::read_str(&record).unwrap_or_else(|e| panic!("{e}: {record}"));
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].game.moves(), game.moves());
        // XBoard adjudicates some endings a draw by its own material rule, where the rules
        // play on (to the 60-move rule): a general and advisor against a general and a pawn
        // on the last rank, which can never mate, is one seen here. A draw by adjudication is
        // the GUI's verdict, not a claim of the rules, and costs our engine nothing.
        let adjudicated_draw =
            result == "1/2-1/2" && comment.contains("Insufficient mating material");
        if forfeit || adjudicated_draw {
            checked += 1;
            continue;
        }
        let end = read[0].game.outcome(RuleSet::Asian).unwrap_or_else(|| {
            panic!(
                "XBoard ended the game {result} ({comment}) where our rules see it go on: {}",
                game.position().fen()
            )
        });
        assert_eq!(
            pgn::PgnResult::from_token(result).and_then(|r| r.winner()),
            end.winner,
            "XBoard says {result} ({comment}); our rules say {end}"
        );
        checked += 1;
    }
    checked
}

#[test]
fn games_in_xboard() {
    let Some([xboard, xvfb, uci2wb, fsf]) = programs() else {
        return;
    };
    let ours = env!("CARGO_BIN_EXE_xiangqi-engine");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("xboard");
    std::fs::create_dir_all(&dir).unwrap();
    let display = Display::start(&xvfb);
    let fsf = fsf.display().to_string();

    // Our binary as a CECP engine, both colours.
    let text = xboard_match(
        &xboard,
        &display,
        &dir,
        "cecp",
        &["-fcp".into(), ours.into(), "-scp".into(), fsf.clone()],
        2,
    );
    assert_eq!(check_games(&text, "xiangqi-engine"), 2, "{text}");

    // Our binary as a UCI engine and as a UCCI engine, through uci2wb.
    for (name, flag) in [("uci", "-c"), ("ucci", "-x")] {
        let adapted = format!("{} {flag} {ours}", uci2wb.display());
        let text = xboard_match(
            &xboard,
            &display,
            &dir,
            name,
            &["-fcp".into(), adapted, "-scp".into(), fsf.clone()],
            1,
        );
        assert_eq!(check_games(&text, "xiangqi-engine"), 1, "{text}");
    }
}

/// The move text reader on XBoard's own words, without XBoard: a bare pawn move names the
/// pawn on the target's file, a sideways one names the file it leaves (the position is from
/// a game XBoard recorded, where two black pawns can reach i4).
#[test]
fn xboard_move_text_is_read_as_xboard_writes_it() {
    let pos: Position = "3aka3/9/9/R8/3r2cRp/P6p1/8P/4B4/4A4/2BAK4 b - - 0 38"
        .parse()
        .unwrap();
    let read = |san| xboard_san(&pos, san).map(|m| m.to_string());
    assert_eq!(read("i4"), Ok("i5i4".into()));
    assert_eq!(read("hi4"), Ok("h4i4".into()));
    assert_eq!(read("h3"), Ok("h4h3".into()));
    assert_eq!(read("Rxd0"), Ok("d5d0".into()));
    assert_eq!(read("Cg2"), Ok("g5g2".into()));
    assert!(read("Hc2").is_err(), "no black horse is on the board");
}
