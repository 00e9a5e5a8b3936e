//! Endgame tablebases through the binary: `EGTBPath` (UCI), `egtbpaths` (UCCI), `egtpath`
//! (CECP), `UseEGTB`, and the default folder filled in the background at start.

mod common;

use common::{info_field, Engine};
use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use xiangqi_core::{Move, Position};
use xiangqi_egtb::{Dtm, Material, Tablebase};

/// krka, knka and what they need, generated once into a temporary folder.
fn tables() -> &'static (tempfile::TempDir, Tablebase) {
    static TABLES: OnceLock<(tempfile::TempDir, Tablebase)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let endings: Vec<Material> = ["krka", "knka"]
            .iter()
            .map(|n| n.parse().unwrap())
            .collect();
        xiangqi_egtb::generate_into(dir.path(), &endings, false, &mut |_| {}).unwrap();
        let tb = Tablebase::open(dir.path()).unwrap();
        (dir, tb)
    })
}

fn dir() -> &'static Path {
    tables().0.path()
}

/// A won knka position (red to move) whose mate is `plies` or more away, and its distance.
fn won(seed: u64) -> (Position, u16) {
    let tb = &tables().1;
    let want = |d| matches!(d, Dtm::Win(n) if n >= 9);
    let pos = tb
        .random_position("knka".parse().unwrap(), want, seed)
        .unwrap()
        .unwrap();
    let Some(Dtm::Win(n)) = tb.probe_dtm(&pos).unwrap() else {
        unreachable!()
    };
    (pos, n)
}

/// Whether `m` is one of the table's quickest mates in `pos`.
fn is_table_best(pos: &Position, m: Move) -> bool {
    let moves = tables().1.probe_moves(pos).unwrap().unwrap();
    let best = moves[0].value;
    moves.iter().any(|v| v.mv == m && v.value == best)
}

fn mv(pos: &Position, text: &str) -> Move {
    pos.parse_uci(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", pos.fen()))
}

#[test]
fn uci_egtbpath_plays_the_tables_quickest_mate() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    for option in [
        "option name UseEGTB type check default true",
        "option name EGTBPath type string default <empty>",
    ] {
        assert!(lines.iter().any(|l| l == option), "{option}: {lines:?}");
    }
    e.send(&format!(
        "setoption name EGTBPath value {}",
        dir().display()
    ));
    let notes = e.sync();
    assert!(
        notes
            .iter()
            .any(|l| l.contains("endgame tablebases: ") && l.contains("tables")),
        "{notes:?}"
    );
    for seed in 0..3 {
        let (pos, plies) = won(seed);
        e.send(&format!("position fen {}", pos.fen()));
        e.send("go depth 12");
        let (lines, best) = e.read_bestmove();
        let m = common::legal_bestmove(&best, &pos);
        assert!(is_table_best(&pos, m), "{}: {best}", pos.fen());
        let info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap();
        assert_eq!(info_field(info, "depth"), Some("1"), "{info}");
        let mate = (i32::from(plies) + 1) / 2;
        assert!(info.contains(&format!("score mate {mate} ")), "{info}");
        assert!(info_field(info, "tbhits").unwrap().parse::<u64>().unwrap() > 0);
    }
    // Off: the engine searches.
    e.send("setoption name UseEGTB value false");
    let (pos, _) = won(7);
    e.send(&format!("position fen {}", pos.fen()));
    e.send("go depth 4");
    let (lines, _) = e.read_bestmove();
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 4")),
        "{lines:?}"
    );
    assert!(lines.iter().all(|l| !l.contains("tbhits")), "{lines:?}");
    // A folder that cannot be read is refused, and the option keeps its value.
    e.send("setoption name UseEGTB value true");
    e.send("setoption name EGTBPath value /nonexistent/tables");
    let notes = e.sync();
    assert!(
        notes.iter().any(|l| l.contains("/nonexistent/tables")),
        "{notes:?}"
    );
    e.send("go depth 3");
    let (lines, best) = e.read_bestmove();
    assert!(
        is_table_best(&pos, common::legal_bestmove(&best, &pos)),
        "{lines:?}"
    );
    e.send("quit");
    e.wait_exit();
}

#[test]
fn ucci_egtbpaths_and_cecp_egtpath() {
    let (pos, plies) = won(11);
    let mut e = Engine::start();
    e.send("ucci");
    let lines = e.read_until(|l| l == "ucciok");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option egtbpaths type string")));
    e.send(&format!("setoption egtbpaths {}", dir().display()));
    e.send(&format!("position fen {}", pos.fen()));
    e.send("go depth 10");
    let (lines, best) = e.read_bestmove();
    assert!(
        is_table_best(&pos, common::legal_bestmove(&best, &pos)),
        "{lines:?}"
    );
    let expected = format!("score {} ", 10_000 - i32::from(plies));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth 1 ") && l.contains(&expected)),
        "{lines:?}"
    );
    e.send("quit");
    e.wait_exit();

    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let features = e.read_until(|l| l == "feature done=1").join(" ");
    assert!(features.contains("egt=\"xiangqi\""), "{features}");
    e.send(&format!("egtpath xiangqi {}", dir().display()));
    e.send("egtpath syzygy /somewhere");
    e.send("new");
    e.send("force");
    e.send(&format!("setboard {}", pos.fen()));
    e.send("sd 10");
    e.send("go");
    let lines = e.read_until(|l| l.starts_with("move "));
    assert!(lines
        .iter()
        .any(|l| l.contains("Error (unsupported tablebase kind syzygy)")));
    let text = lines.last().unwrap().strip_prefix("move ").unwrap();
    assert!(is_table_best(&pos, mv(&pos, text)), "{lines:?}");
    e.send("quit");
    e.wait_exit();
}

#[test]
fn the_default_folder_gets_the_starter_set_in_the_background() {
    let folder = tempfile::tempdir().unwrap();
    let default = folder.path().join("egtb");
    let mut e = Engine::start_with_tables(&default);
    e.send("uci");
    e.read_until(|l| l == "uciok");
    // The handshake did not wait for the tables (the largest takes seconds).
    assert!(!default.join("krkaabb.xqtb").exists());
    until_tbhits(&mut e);
    assert!(xiangqi_egtb::is_complete(
        &default,
        &xiangqi_egtb::starter_endings()
    ));
    let left: Vec<_> = std::fs::read_dir(&default)
        .unwrap()
        .map(|d| d.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.') || n.ends_with(".part"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    e.send("quit");
    e.wait_exit();
}

/// A default folder whose starter tables cannot be read (here: not tables at all, as tables
/// of an older format would be) gets them generated again.
#[test]
fn unreadable_tables_in_the_default_folder_are_generated_again() {
    let folder = tempfile::tempdir().unwrap();
    let default = folder.path().join("egtb");
    std::fs::create_dir_all(&default).unwrap();
    for m in xiangqi_egtb::with_dependencies(&xiangqi_egtb::starter_endings()) {
        std::fs::write(xiangqi_egtb::table_path(&default, m), b"not a table").unwrap();
    }
    assert!(Tablebase::open(&default).is_err());
    let mut e = Engine::start_with_tables(&default);
    e.send("uci");
    e.read_until(|l| l == "uciok");
    until_tbhits(&mut e);
    assert!(Tablebase::open(&default).is_ok());
    e.send("quit");
    e.wait_exit();
}

/// Searches a chariot against a bare general (a starter table) until the engine probes the
/// tables, at most ten minutes.
fn until_tbhits(e: &mut Engine) {
    let fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
    let start = Instant::now();
    loop {
        e.send(&format!("position fen {fen}"));
        e.send("go depth 3");
        let (lines, _) = e.read_bestmove();
        if lines
            .iter()
            .any(|l| l.starts_with("info depth 1 ") && l.contains("tbhits"))
        {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "no tables after ten minutes"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// A lone chariot against the full defence (车对士象全): a draw, which a search without the
/// table scores as a large advantage.
const CHARIOT_AGAINST_FULL_DEFENCE: &str = "2bakab2/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";

/// On a first run (an empty cache folder) `isready` waits until the starter set is made and
/// attached, saying so: the first search after it already probes the tables and scores the
/// draw, as it would on every later run.
#[test]
fn isready_waits_for_the_starter_set_on_a_first_run() {
    let folder = tempfile::tempdir().unwrap();
    let default = folder.path().join("egtb");
    let mut e = Engine::start_with_tables(&default);
    e.send("uci");
    e.read_until(|l| l == "uciok");
    let notes = e.sync();
    assert!(
        notes
            .iter()
            .any(|l| l.starts_with("info string waiting for the endgame tablebases")),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|l| l.starts_with("info string endgame tablebases ready: ")),
        "{notes:?}"
    );
    assert!(xiangqi_egtb::is_complete(
        &default,
        &xiangqi_egtb::starter_endings()
    ));
    e.send(&format!("position fen {CHARIOT_AGAINST_FULL_DEFENCE}"));
    e.send("go depth 6");
    let (lines, _) = e.read_bestmove();
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .collect();
    assert!(!infos.is_empty(), "{lines:?}");
    for l in &infos {
        let hits: u64 = info_field(l, "tbhits").map_or(0, |h| h.parse().unwrap());
        assert!(hits > 0, "no tablebase hits: {l}");
        assert_eq!(info_field(l, "cp"), Some("0"), "not a draw: {l}");
    }
    // The tables are there now: a second `isready` waits for nothing and says nothing.
    assert_eq!(e.sync(), Vec::<String>::new());
    e.send("quit");
    e.wait_exit();
}

/// CECP's `ping` waits as `isready` does; the notes are comments.
#[test]
fn cecp_ping_waits_for_the_starter_set_on_a_first_run() {
    let folder = tempfile::tempdir().unwrap();
    let default = folder.path().join("egtb");
    let mut e = Engine::start_with_tables(&default);
    e.send("xboard");
    e.send("protover 2");
    e.read_until(|l| l == "feature done=1");
    e.send("ping 7");
    let lines = e.read_until(|l| l == "pong 7");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("# endgame tablebases ready: ")),
        "{lines:?}"
    );
    assert!(xiangqi_egtb::is_complete(
        &default,
        &xiangqi_egtb::starter_endings()
    ));
    e.send("quit");
    e.wait_exit();
}
