//! The engine under UCCI (chosen by a first command `ucci`), as ElephantEye speaks it.

mod common;

use common::{game_after, info_field, legal_bestmove, Engine};
use std::time::Duration;
use xiangqi_core::Position;

fn ucci_engine() -> Engine {
    let mut e = Engine::start();
    e.send("ucci");
    e.read_until(|l| l == "ucciok");
    e
}

#[test]
fn handshake_and_options_in_ucci_syntax() {
    let mut e = Engine::start();
    e.send_raw(b"ucci\r\n");
    let lines = e.read_until(|l| l == "ucciok");
    assert!(lines[0].starts_with("id name "), "{lines:?}");
    for name in [
        "usemillisec",
        "hashsize",
        "threads",
        "ponder",
        "multipv",
        "repetition",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option {name} type "))),
            "option {name} missing: {lines:?}"
        );
    }
    // ElephantEye's options, as GUIs send them: accepted, and those we have no use for are
    // only noted.
    for set in [
        "setoption usebook false",
        "setoption hashsize 32",
        "setoption threads 1",
        "setoption batch on",
        "setoption newgame",
        "setoption ponder true",
        "setoption usemillisec true",
        "setoption repetition Chinese",
        "setoption Skill Level 20",
    ] {
        e.send(set);
        let lines = e.sync();
        assert!(
            lines.iter().all(|l| !l.contains("no such option")
                && !l.contains("is not")
                && !l.contains("needs")),
            "{set}: {lines:?}"
        );
    }
    e.send("quit");
    let (status, log) = (e.wait_exit(), e.log.clone());
    assert!(status.success());
    assert_eq!(log.last().map(String::as_str), Some("bye"));
}

#[test]
fn searches_by_depth_nodes_and_clock() {
    let mut e = ucci_engine();
    let moves = "h2e2 h9g7";
    let pos = game_after(None, moves).position().clone();
    e.send(&format!("position startpos moves {moves}"));
    for go in [
        "go depth 3",
        "go nodes 4000",
        "go time 1000 increment 0",
        "go time 3000 movestogo 20 opptime 3000",
        "go time 0 increment 0 opptime 100 oppincrement 0",
        "go draw time 500 increment 100",
    ] {
        e.send(go);
        let (lines, best) = e.read_bestmove();
        legal_bestmove(&best, &pos);
        // UCCI scores are plain numbers.
        for l in lines.iter().filter(|l| l.starts_with("info depth")) {
            info_field(l, "score").unwrap().parse::<i32>().unwrap();
        }
    }
    // Seconds when usemillisec is off: 1 second, not 1 millisecond, still a legal move.
    e.send("setoption usemillisec false");
    e.send("go time 1 increment 0");
    let (_, best) = e.read_bestmove();
    legal_bestmove(&best, &pos);
}

#[test]
fn banmoves_are_not_played() {
    let mut e = ucci_engine();
    e.send("position startpos");
    e.send("go depth 3");
    let (_, best) = e.read_bestmove();
    let first = legal_bestmove(&best, &Position::startpos());
    // Ban the move it chose (and a few more): it must choose another.
    e.send("position startpos");
    e.send(&format!("banmoves {first} h2e2 b2e2"));
    e.send("go depth 3");
    let (_, best) = e.read_bestmove();
    let second = legal_bestmove(&best, &Position::startpos());
    assert!(
        ![first.to_string().as_str(), "h2e2", "b2e2"].contains(&second.to_string().as_str()),
        "{second} was banned"
    );
    // The ban lasts for one search (a new position clears it).
    e.send("position startpos");
    e.send("go depth 3");
    let (_, best) = e.read_bestmove();
    assert_eq!(legal_bestmove(&best, &Position::startpos()), first);
}

#[test]
fn stop_ponderhit_probe_and_no_move() {
    let mut e = ucci_engine();
    e.send("position startpos moves h2e2");
    e.send("go depth infinite");
    e.send("isready");
    let lines = e.read_until(|l| l == "readyok");
    assert!(lines.iter().all(|l| !l.starts_with("bestmove")));
    e.send("stop");
    let (_, best) = e.read_bestmove();
    legal_bestmove(&best, game_after(None, "h2e2").position());

    e.send("go ponder depth 2");
    let mut seen = Vec::new();
    match e.is_quiet_for(Duration::from_millis(300)) {
        Ok(()) => {}
        Err(l) => {
            assert!(!l.starts_with("bestmove"), "{l}");
            seen.push(l);
        }
    }
    // A draw offered with the ponder hit is accepted when the engine does not expect to
    // win (a score below 50), with `bestmove ... draw`.
    e.send("ponderhit draw");
    let (lines, best) = e.read_bestmove();
    seen.extend(lines);
    legal_bestmove(&best, game_after(None, "h2e2").position());
    let score: i32 = seen
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .filter_map(|l| info_field(l, "score")?.parse().ok())
        .next_back()
        .expect("an info line with a score");
    assert_eq!(best.ends_with(" draw"), score < 50, "{seen:?}");

    // A probe reads the hash table: a position never searched is unknown; after a search
    // of a position where red mates at once (mates.epd), its best move and a winning value.
    let mate = "2Rckab1C/4a4/4R3n/p5p2/9/2N6/2P5P/C5r2/4K4/2B2A3 w - - 0 1";
    e.send("setoption newgame");
    e.send(&format!("probe fen {mate}"));
    e.read_until(|l| l == "pophash");
    e.send(&format!("position fen {mate}"));
    e.send("go depth 4");
    e.read_bestmove();
    e.send(&format!("probe fen {mate}"));
    let line = e.read_until(|l| l.starts_with("pophash")).pop().unwrap();
    assert!(
        line.starts_with("pophash bestmove e7e8 lowerbound "),
        "{line}"
    );
    let value: i32 = line.split_whitespace().nth(4).unwrap().parse().unwrap();
    assert!(value > 9000, "{line}");
    // After a search, the position after its move is in the table too (the reply
    // searched below the root), with a legal move and a bound.
    e.send("position startpos");
    e.send("go depth 6");
    let (_, best) = e.read_bestmove();
    let first = legal_bestmove(&best, &Position::startpos());
    e.send(&format!("probe startpos moves {first}"));
    let line = e.read_until(|l| l.starts_with("pophash")).pop().unwrap();
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.get(1), Some(&"bestmove"), "{line}");
    let after = Position::startpos().after(first).unwrap();
    after.parse_uci(words[2]).unwrap();
    assert!(
        words.contains(&"lowerbound") || words.contains(&"upperbound"),
        "{line}"
    );
    // While thinking, the engine answers at once from the table being filled.
    e.send("go infinite");
    e.send(&format!("probe startpos moves {first}"));
    e.read_until(|l| l.starts_with("pophash"));
    e.send("stop");
    e.read_bestmove();

    e.send("position fen 3k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1");
    e.send("go depth 2");
    let (_, best) = e.read_bestmove();
    assert_eq!(best, "nobestmove");

    e.send("bye-bye");
    let lines = e.sync();
    assert!(
        lines.iter().all(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    assert!(e.close().success());
}

#[test]
fn usebook_answers_from_the_opening_book() {
    let mut e = Engine::start();
    e.send("ucci");
    let lines = e.read_until(|l| l == "ucciok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option usebook type check")),
        "{lines:?}"
    );
    e.send("setoption usebook true");
    e.send("position startpos");
    e.send("go time 60000 increment 0");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.starts_with("info string book move")),
        "{lines:?}"
    );
}
