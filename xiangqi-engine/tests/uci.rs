//! The engine under UCI, spoken to through its binary as a GUI would.

mod common;

use common::{data_lines, game_after, info_field, legal_bestmove, Engine};
use std::time::Duration;
use xiangqi_core::Position;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn uci_engine() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    e
}

/// Reads until `bestmove`, failing if one arrives within `wait` (the engine must hold it).
fn assert_holds_bestmove(e: &mut Engine, wait: Duration) {
    let deadline = std::time::Instant::now() + wait;
    while let Some(left) = deadline.checked_duration_since(std::time::Instant::now()) {
        if let Err(line) = e.is_quiet_for(left) {
            assert!(
                !line.starts_with("bestmove"),
                "bestmove before stop/ponderhit: {line}"
            );
        } else {
            return;
        }
    }
}

#[test]
fn handshake_lists_every_option() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name "), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for name in [
        "Hash",
        "Threads",
        "MultiPV",
        "Ponder",
        "Move Overhead",
        "Skill Level",
        "UCI_LimitStrength",
        "UCI_Elo",
        "Repetition Rule",
        "Sixty Move Rule",
        "Clear Hash",
        "OwnBook",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "option {name} missing: {lines:?}"
        );
    }
    assert!(e.sync().is_empty());
    for set in [
        "setoption name Hash value 32",
        "setoption name Threads value 2",
        "setoption name Move Overhead value 20",
        "setoption name Skill Level value 10",
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1500",
        "setoption name Repetition Rule value Chinese",
        "setoption name Sixty Move Rule value false",
        "setoption name Clear Hash",
        "setoption name Ponder value true",
        "ucinewgame",
    ] {
        e.send(set);
    }
    // All accepted: at most a note on the strength level chosen, no complaint.
    let lines = e.sync();
    assert!(
        lines.iter().all(
            |l| l.starts_with("info string strength level") || l == "info string full strength"
        ),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("strength level")),
        "{lines:?}"
    );
    e.send("quit");
    assert!(e.wait_exit().success());
}

#[test]
fn search_by_each_limit_gives_legal_moves() {
    let mut e = uci_engine();
    let moves = "h2e2 h9g7 h0g2";
    let pos = game_after(None, moves).position().clone();
    e.send(&format!("position startpos moves {moves}"));
    for go in [
        "go depth 4",
        "go nodes 5000",
        "go movetime 100",
        "go wtime 2000 btime 2000 winc 10 binc 10",
        "go wtime 5000 btime 3000 movestogo 20",
        "go wtime 0 btime 0",
        "go movetime 0",
        "go btime 0 wtime 0 binc 0 winc 0",
        "go mate 2",
    ] {
        e.send(go);
        let (lines, best) = e.read_bestmove();
        legal_bestmove(&best, &pos);
        if let Some(d) = go.strip_prefix("go depth ") {
            let d: u32 = d.parse().unwrap();
            for l in &lines {
                if let Some(depth) = info_field(l, "depth") {
                    assert!(depth.parse::<u32>().unwrap() <= d, "{l}");
                }
            }
        }
    }
    e.send("quit");
    assert!(e.wait_exit().success());
}

#[test]
fn stop_during_go_infinite() {
    let mut e = uci_engine();
    e.send("position startpos");
    e.send("go infinite");
    // The engine answers isready while it thinks, and does not move before stop.
    e.send("isready");
    let before = e.read_until(|l| l == "readyok");
    assert!(
        before.iter().all(|l| !l.starts_with("bestmove")),
        "{before:?}"
    );
    assert_holds_bestmove(&mut e, Duration::from_millis(300));
    e.send("stop");
    let (_, best) = e.read_bestmove();
    legal_bestmove(&best, &Position::startpos());
    // A stop with nothing to stop is ignored.
    e.send("stop");
    assert!(e.sync().is_empty());
}

#[test]
fn stop_right_after_go_is_not_lost() {
    let mut e = uci_engine();
    for _ in 0..5 {
        e.send("position startpos moves c3c4");
        e.send("go infinite");
        e.send("stop");
        let (_, best) = e.read_bestmove();
        legal_bestmove(&best, game_after(None, "c3c4").position());
    }
}

#[test]
fn ponder_then_ponderhit() {
    let mut e = uci_engine();
    e.send("setoption name Ponder value true");
    let moves = "h2e2 h9g7";
    let pos = game_after(None, moves).position().clone();
    e.send(&format!("position startpos moves {moves}"));
    // A ponder search that would be done at once must still wait for the ponderhit.
    e.send("go ponder depth 2");
    assert_holds_bestmove(&mut e, Duration::from_millis(300));
    e.send("ponderhit");
    let (_, best) = e.read_bestmove();
    legal_bestmove(&best, &pos);

    // With a clock: ponder, then ponderhit turns it into a normal timed search.
    e.send("go ponder wtime 1000 btime 1000");
    assert_holds_bestmove(&mut e, Duration::from_millis(200));
    e.send("ponderhit");
    let (_, best) = e.read_bestmove();
    legal_bestmove(&best, &pos);

    // A ponderhit that comes at once (perhaps before the search has begun) is not lost.
    for _ in 0..5 {
        e.send("go ponder depth 3");
        e.send("ponderhit");
        let (_, best) = e.read_bestmove();
        legal_bestmove(&best, &pos);
    }

    // A ponder miss: the GUI stops, then searches the real position.
    e.send("go ponder wtime 1000 btime 1000");
    e.send("stop");
    let (_, best) = e.read_bestmove();
    legal_bestmove(&best, &pos);
}

#[test]
fn multipv_lines() {
    let mut e = uci_engine();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 4");
    let (lines, best) = e.read_bestmove();
    legal_bestmove(&best, &Position::startpos());
    let last_depth = lines
        .iter()
        .filter_map(|l| info_field(l, "depth"))
        .filter_map(|d| d.parse::<u32>().ok())
        .max()
        .unwrap();
    let mut firsts = Vec::new();
    for k in 1..=3 {
        let line = lines
            .iter()
            .rev()
            .find(|l| {
                info_field(l, "depth") == Some(&last_depth.to_string())
                    && info_field(l, "multipv") == Some(&k.to_string())
            })
            .unwrap_or_else(|| panic!("no multipv {k} line at depth {last_depth}: {lines:?}"));
        let first = info_field(line, "pv").unwrap().to_string();
        Position::startpos().parse_uci(&first).unwrap();
        firsts.push(first);
    }
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "three different lines");
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut e = uci_engine();
    e.send("position startpos");
    e.send("go depth 3 searchmoves a0a1 i3i4");
    let (_, best) = e.read_bestmove();
    let m = legal_bestmove(&best, &Position::startpos());
    assert!(["a0a1", "i3i4"].contains(&m.to_string().as_str()), "{best}");
}

#[test]
fn finds_the_mates_of_the_puzzle_set() {
    let mut e = uci_engine();
    for line in data_lines("mates.epd") {
        let fen = line.split(';').next().unwrap().trim();
        let field = |key: &str| {
            line.split(';')
                .map(str::trim)
                .find_map(|f| f.strip_prefix(key))
                .unwrap()
                .trim()
                .to_string()
        };
        let dm: i32 = field("dm ").parse().unwrap();
        let bm = field("bm ");
        e.send(&format!("position fen {fen}"));
        e.send(&format!("go depth {}", 2 * dm + 6));
        let (lines, best) = e.read_bestmove();
        let m = legal_bestmove(&best, &Position::from_fen(fen).unwrap());
        assert!(
            bm.split_whitespace().any(|b| b == m.to_string()),
            "{fen}: played {m}, mates are {bm}"
        );
        let score = lines.iter().rev().find_map(|l| {
            let i = l.find("score mate ")?;
            l[i + 11..].split_whitespace().next()?.parse::<i32>().ok()
        });
        assert_eq!(score, Some(dm), "{fen}: {lines:?}");
    }
}

#[test]
fn perft_matches_the_published_counts() {
    let mut e = uci_engine();
    e.send("go perft 3");
    let lines = e.read_until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 79666");
    assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), 44 + 1);
    let l = &data_lines("perft.epd")[1];
    let fen = l.split(';').next().unwrap().trim();
    let d3 = l
        .split(';')
        .find_map(|f| f.trim().strip_prefix("D3 "))
        .unwrap();
    e.send(&format!("position fen {fen}"));
    e.send("go perft 3");
    let lines = e.read_until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), &format!("Nodes searched: {d3}"));
}

#[test]
fn what_guis_actually_send() {
    let mut e = Engine::start();
    // CRLF line ends.
    e.send_raw(b"uci\r\n");
    e.read_until(|l| l == "uciok");
    e.send_raw(b"isready\r\n");
    e.read_until(|l| l == "readyok");
    // A go with no prior position searches the start position.
    e.send_raw(b"go depth 2\r\n");
    let (_, best) = e.read_bestmove();
    legal_bestmove(&best, &Position::startpos());
    // A FEN of only board and side, side `r`, moves without the `moves` keyword.
    let board = START.split(' ').next().unwrap();
    e.send_raw(format!("position fen {board} r h2e2 h9g7\r\n").as_bytes());
    e.send("d");
    let lines = e.read_until(|l| l.starts_with("Fen: "));
    let expected = game_after(None, "h2e2 h9g7");
    assert_eq!(
        lines.last().unwrap(),
        &format!("Fen: {}", expected.position().fen())
    );
    // ... and the keyword after a full FEN.
    e.send(&format!("position fen {START} moves h2e2"));
    e.send("go depth 2");
    let (_, best) = e.read_bestmove();
    legal_bestmove(&best, game_after(None, "h2e2").position());
    // Unknown and malformed commands: reported with info string, nothing else.
    for bad in [
        "xyzzy",
        "position",
        "position fen",
        "position fen not/a/fen w",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNK w",
        "position startpos moves h2e2 h2e2",
        "setoption",
        "setoption name",
        "setoption name Hash value lots",
        "setoption name NoSuchOption value 3",
        "bench x",
        "\u{feff}uci2",
        "position startpos moves z9z9",
    ] {
        e.send(bad);
        let lines = e.sync();
        assert!(
            !lines.is_empty() && lines.iter().all(|l| l.starts_with("info string")),
            "{bad:?} -> {lines:?}"
        );
    }
    // A go with a bad limit warns and searches by the others.
    e.send("go nodes -5 depth 1");
    let (lines, best) = e.read_bestmove();
    assert!(lines[0].starts_with("info string go: "), "{lines:?}");
    legal_bestmove(&best, &Position::startpos());
    // After a bad move the moves before it stand: the position is startpos.
    e.send("d");
    let lines = e.read_until(|l| l.starts_with("Fen: "));
    assert_eq!(lines.last().unwrap(), &format!("Fen: {START}"));
    // `position` and `go` while a search runs.
    e.send("go infinite");
    e.send("position startpos moves b2e2");
    e.send("go depth 3");
    let (_, first) = e.read_bestmove();
    legal_bestmove(&first, &Position::startpos());
    let (_, second) = e.read_bestmove();
    legal_bestmove(&second, game_after(None, "b2e2").position());
    // End of input: a clean exit.
    assert!(e.close().success());
}

#[test]
fn garbage_never_crashes_the_engine() {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;
    let mut e = uci_engine();
    let mut runner = TestRunner::deterministic();
    let words = proptest::collection::vec(
        proptest::prop_oneof![
            proptest::strategy::Just("position".to_string()),
            proptest::strategy::Just("go".to_string()),
            proptest::strategy::Just("setoption".to_string()),
            proptest::strategy::Just("name".to_string()),
            proptest::strategy::Just("value".to_string()),
            proptest::strategy::Just("fen".to_string()),
            proptest::strategy::Just("moves".to_string()),
            proptest::strategy::Just("startpos".to_string()),
            proptest::strategy::Just("depth".to_string()),
            proptest::strategy::Just("banmoves".to_string()),
            "[a-i][0-9][a-i][0-9]",
            "-?[0-9]{1,25}",
            "[rnbakcpRNBAKCP1-9/]{1,30}",
            "\\PC{0,10}",
        ],
        0..10,
    );
    for _ in 0..400 {
        let line = words.new_tree(&mut runner).unwrap().current().join(" ");
        // Keep the session moving: never start a search that waits for stop, and never a
        // long perft or bench.
        if ["go", "bench", "quit", "exit", "ucci"]
            .iter()
            .any(|w| line.trim_start().starts_with(w))
        {
            continue;
        }
        e.send(&line);
    }
    e.sync();
    e.send("position startpos moves h2e2");
    e.send("go depth 1");
    let (_, best) = e.read_bestmove();
    legal_bestmove(&best, game_after(None, "h2e2").position());
    e.send("quit");
    assert!(e.wait_exit().success());
}

#[test]
fn mated_side_reports_no_move() {
    let mut e = uci_engine();
    // Red has just mated: black to move has no legal move.
    let fen = "3k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1";
    e.send(&format!("position fen {fen}"));
    e.send("go depth 3");
    let (lines, best) = e.read_bestmove();
    assert_eq!(best, "bestmove (none)", "{lines:?}");
}

#[test]
fn display_eval_and_bench() {
    let mut e = uci_engine();
    e.send("d");
    let lines = e.read_until(|l| l.starts_with("Checkers:"));
    assert!(lines.contains(&format!("Fen: {START}")), "{lines:?}");
    e.send("eval");
    let line = e.next_line().unwrap();
    assert!(
        line.starts_with("Static evaluation, NNUE (in use): "),
        "{line}"
    );
    let line = e.next_line().unwrap();
    assert!(
        line.starts_with("Static evaluation, hand-written: "),
        "{line}"
    );
    e.send("bench 2");
    let lines = e.read_until(|l| l.starts_with("Nodes/second"));
    let nodes: u64 = lines
        .iter()
        .find_map(|l| l.strip_prefix("Nodes searched  : "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(nodes > 0);
}

#[test]
fn quit_during_a_search_exits() {
    let mut e = uci_engine();
    e.send("go infinite");
    e.send("quit");
    assert!(e.wait_exit().success());
}

#[test]
fn own_book_answers_book_positions_at_once_and_searches_the_rest() {
    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    e.send("setoption name OwnBook value true");
    e.send("position startpos moves h2e2");
    e.send("go movetime 5000");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    // Straight from the book: no search info, and a reply masters play to 炮二平五.
    assert!(
        lines.iter().any(|l| l.starts_with("info string book move")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    let reply = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    let book = xiangqi_book::Book::builtin();
    let mut pos = xiangqi_core::Position::startpos();
    pos.play(pos.parse_uci("h2e2").unwrap()).unwrap();
    assert!(
        book.moves(&pos).iter().any(|m| m.mv.to_string() == reply),
        "{reply}"
    );
    // Out of book: an ordinary search.
    e.send("position fen 3k5/9/9/9/9/9/9/9/4A4/R3K4 w");
    e.send("go depth 4");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    // Off again: the start position is searched.
    e.send("setoption name OwnBook value false");
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    assert!(
        !lines.iter().any(|l| l.starts_with("info string book")),
        "{lines:?}"
    );
}
