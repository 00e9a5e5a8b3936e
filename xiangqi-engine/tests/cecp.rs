//! The engine under CECP (the XBoard protocol 2), spoken to through its binary as XBoard
//! speaks to it: every command XBoard sends, commands that arrive mid-search, malformed
//! lines, and a GUI that closes the pipe.

mod common;

use common::Engine;
use std::time::Duration;
use xiangqi_core::{Game, Move, Position};

fn cecp_engine() -> Engine {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let lines = e.read_until(|l| l == "feature done=1");
    let features = lines.join(" ");
    for f in [
        "variants=\"xiangqi\"",
        "setboard=1",
        "usermove=1",
        "ping=1",
        "sigint=0",
        "sigterm=0",
        "colors=0",
        "analyze=1",
        "memory=1",
        "smp=1",
        "option=\"Skill Level -spin 20 0 20\"",
    ] {
        assert!(features.contains(f), "{f} missing: {features}");
    }
    e
}

/// Waits for `pong n` and returns the lines before it.
fn ping(e: &mut Engine, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    let mut lines = e.read_until(|l| l == format!("pong {n}"));
    lines.pop();
    lines
}

/// Reads until the engine's `move` line; returns the move, checked legal in `game`, played.
fn engine_move(e: &mut Engine, game: &mut Game) -> Move {
    let line = e.read_until(|l| l.starts_with("move ")).pop().unwrap();
    let text = line.strip_prefix("move ").unwrap();
    let m = game
        .position()
        .parse_uci(text)
        .unwrap_or_else(|err| panic!("{text} is not legal in {}: {err}", game.position().fen()));
    game.play(m).unwrap();
    m
}

#[test]
fn a_game_as_xboard_plays_it() {
    let mut e = cecp_engine();
    for l in [
        "memory 32",
        "cores 1",
        "new",
        "variant xiangqi",
        "level 40 0:30 0",
        "post",
        "easy",
    ] {
        e.send(l);
    }
    assert_eq!(ping(&mut e, 1), Vec::<String>::new());
    // The engine plays black: the GUI's move, then its answer, with thinking output.
    let mut game = Game::new(Position::startpos());
    e.send("time 3000");
    e.send("otim 3000");
    e.send("usermove h2e2");
    game.play(game.position().parse_uci("h2e2").unwrap())
        .unwrap();
    let lines = e.read_until(|l| l.starts_with("move "));
    let thinking: Vec<&String> = lines.iter().filter(|l| l.contains('\t')).collect();
    assert!(!thinking.is_empty(), "{lines:?}");
    for t in thinking {
        let nums: Vec<&str> = t.split('\t').next().unwrap().split_whitespace().collect();
        assert!(
            nums.len() >= 4 && nums.iter().all(|n| n.parse::<i64>().is_ok()),
            "{t}"
        );
    }
    let text = lines.last().unwrap().strip_prefix("move ").unwrap();
    let m = game.position().parse_uci(text).unwrap();
    game.play(m).unwrap();
    // Then a few more moves by the GUI, each answered.
    for _ in 0..3 {
        let reply = game.position().legal_moves()[0];
        e.send("time 2900");
        e.send(&format!("usermove {reply}"));
        game.play(reply).unwrap();
        engine_move(&mut e, &mut game);
    }
    // Take back two plies (`remove`) and one (`undo`), then let it play the side to move.
    e.send("force");
    e.send("remove");
    e.send("undo");
    for _ in 0..3 {
        game.undo();
    }
    e.send("st 0.2");
    e.send("go");
    engine_move(&mut e, &mut game);
    e.send("result 1/2-1/2 {adjourned}");
    e.send("quit");
    assert!(e.wait_exit().success());
}

#[test]
fn moves_in_xboard_coordinates_both_ways() {
    // XBoard numbers xiangqi's ranks 0 to 9 from red's side ('ONE' is '0' on a board ten
    // ranks high), as Fairy-Stockfish's XBoard mode does: a move of red's cannon from h2 to
    // e2 is `h2e2`, and black's horse from h9 to g7 is `h9g7`.
    let mut e = cecp_engine();
    e.send("new");
    e.send("force");
    e.send("usermove h2e2");
    e.send("usermove h9g7");
    e.send("usermove h0g2");
    assert_eq!(ping(&mut e, 2), Vec::<String>::new());
    // Rank 10 does not exist in XBoard's numbering, and moving a piece that is not there is
    // illegal: both refused, the game unchanged.
    e.send("usermove a10a9");
    e.send("usermove h2e2");
    let lines = ping(&mut e, 3);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines.iter().all(|l| l.starts_with("Illegal move")),
        "{lines:?}"
    );
    // The engine's own move for black, from the position after the three moves, must be
    // legal there: its text uses the same numbering.
    e.send("st 0.1");
    e.send("go");
    let mut game = common::game_after(None, "h2e2 h9g7 h0g2");
    engine_move(&mut e, &mut game);
    // setboard with XBoard's letters for xiangqi pieces (h, e) and a black move written
    // with rank 9.
    e.send("force");
    e.send("setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR b - - 0 1");
    e.send("usermove a9a8");
    assert_eq!(ping(&mut e, 4), Vec::<String>::new());
    e.send("quit");
    assert!(e.wait_exit().success());
}

#[test]
fn claims_mate_and_answers_mid_search() {
    let mut e = cecp_engine();
    e.send("new");
    e.send("force");
    // Red mates in one (mates.epd): the engine plays it and claims the win.
    e.send("setboard 2Rckab1C/4a4/4R3n/p5p2/9/2N6/2P5P/C5r2/4K4/2B2A3 w - - 0 1");
    e.send("st 1");
    e.send("go");
    let lines = e.read_until(|l| l.starts_with("1-0"));
    assert!(lines.iter().any(|l| l == "move e7e8"), "{lines:?}");
    assert!(lines.last().unwrap().contains("checkmate"), "{lines:?}");
    // A side with no move claims its loss instead of searching.
    e.send("setboard 3k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1");
    e.send("go");
    let l = e.read_until(|l| l.starts_with("1-0") || l.starts_with("0-1"));
    assert!(l.last().unwrap().starts_with("1-0"), "{l:?}");

    // Mid-search: ping is answered at once, and `?` makes the engine move now.
    e.send("new");
    e.send("force");
    e.send("st 1000");
    e.send("go");
    std::thread::sleep(Duration::from_millis(200));
    e.send("ping 9");
    e.read_until(|l| l == "pong 9");
    e.send("?");
    let mut game = Game::new(Position::startpos());
    engine_move(&mut e, &mut game);

    // Analysis: thinking output until `exit`, no move.
    e.send("force");
    e.send("post");
    e.send("analyze");
    e.read_until(|l| l.contains('\t'));
    e.send(".");
    e.read_until(|l| l.starts_with("stat01: "));
    e.send("usermove b7e7");
    e.send("exit");
    let lines = ping(&mut e, 10);
    assert!(lines.iter().all(|l| !l.starts_with("move")), "{lines:?}");
    e.send("quit");
    assert!(e.wait_exit().success());
}

#[test]
fn pondering_with_hard() {
    let mut e = cecp_engine();
    e.send("new");
    e.send("hard");
    e.send("level 0 0:20 0.1");
    e.send("time 2000");
    e.send("otim 2000");
    e.send("usermove h2e2");
    let mut game = common::game_after(None, "h2e2");
    engine_move(&mut e, &mut game);
    // While it ponders, the GUI's move (predicted or not) is answered with a legal move.
    for _ in 0..3 {
        std::thread::sleep(Duration::from_millis(100));
        let reply = game.position().legal_moves()[1];
        e.send("time 1900");
        e.send(&format!("usermove {reply}"));
        game.play(reply).unwrap();
        engine_move(&mut e, &mut game);
    }
    e.send("easy");
    assert!(ping(&mut e, 5).iter().all(|l| !l.starts_with("move")));
    e.send("quit");
    assert!(e.wait_exit().success());
}

#[test]
fn garbage_options_and_a_closed_pipe() {
    let mut e = cecp_engine();
    e.send("frobnicate 7");
    e.send("level 40 x 0");
    e.send("sd");
    e.send("variant shogi");
    e.send("option Skill Level=3");
    e.send("option Nonsense=3");
    e.send("setboard not a fen");
    e.send_raw(b"\xff\xfe usermove\r\n");
    let lines = ping(&mut e, 1);
    assert!(
        lines
            .iter()
            .any(|l| l == "Error (unknown command): frobnicate"),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Error (unsupported variant)")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("Error (bad option)")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("tellusererror")),
        "{lines:?}"
    );
    // A closed pipe mid-search: the engine exits cleanly.
    e.send("new");
    e.send("sd 30");
    e.send("go");
    std::thread::sleep(Duration::from_millis(100));
    assert!(e.close().success());
}
