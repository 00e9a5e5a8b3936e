//! Search behaviour checked against independent truth: the mate suite (mate lengths and
//! mating moves verified with Fairy-Stockfish and exhaustive search), determinism, repetition
//! rules and the stop handle.

use std::time::Duration;
use xiangqi_core::{Game, Move, Position};
use xiangqi_search::{Limits, Searcher};

struct MateCase {
    fen: String,
    dm: i32,
    best: Vec<String>,
    id: String,
}

fn mate_cases() -> Vec<MateCase> {
    let text = include_str!("data/mates.epd");
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim().to_string();
        let mut dm = 0;
        let mut best = Vec::new();
        let mut id = String::new();
        for p in parts {
            let p = p.trim();
            if let Some(v) = p.strip_prefix("dm ") {
                dm = v.trim().parse().unwrap();
            } else if let Some(v) = p.strip_prefix("bm ") {
                best = v.split_whitespace().map(str::to_string).collect();
            } else if let Some(v) = p.strip_prefix("id ") {
                id = v.trim_matches('"').to_string();
            }
        }
        out.push(MateCase { fen, dm, best, id });
    }
    out
}

#[test]
fn solves_every_mate_in_the_suite() {
    let cases = mate_cases();
    assert!(cases.len() >= 16);
    let mut searcher = Searcher::new();
    for case in &cases {
        searcher.new_game();
        let game = Game::new(Position::from_fen(&case.fen).unwrap());
        // A node limit, not a time limit: well under a second each on any machine.
        let limits = Limits {
            nodes: Some(300_000),
            mate: Some(case.dm as u32),
            ..Limits::default()
        };
        let r = searcher.search(&game, &limits, &mut |_| {});
        let m = r.best_move.unwrap().to_string();
        assert!(
            case.best.contains(&m),
            "{}: played {m}, expected one of {:?}",
            case.id,
            case.best
        );
        assert_eq!(
            r.score.mate_moves(),
            Some(case.dm),
            "{}: score {}",
            case.id,
            r.score
        );
    }
}

#[test]
fn one_thread_with_a_node_limit_is_deterministic() {
    let fens = [
        xiangqi_core::START_FEN,
        "1r1akab2/4c4/c3b1n2/4p3p/p1pR5/4P4/P1P1N1PrP/4C4/R5C2/2BAKAB2 w - - 3 16",
    ];
    for fen in fens {
        let game = Game::new(Position::from_fen(fen).unwrap());
        let limits = Limits {
            nodes: Some(60_000),
            ..Limits::default()
        };
        let run = || {
            let mut s = Searcher::new();
            let mut infos = Vec::new();
            let r = s.search(&game, &limits, &mut |i| {
                infos.push((i.depth, i.score, i.nodes, i.pv.clone()))
            });
            (r, infos)
        };
        let (a, ia) = run();
        let (b, ib) = run();
        assert_eq!(a, b);
        assert_eq!(ia, ib);
        // The limit is checked at every node below the root.
        assert!((60_000..60_200).contains(&a.nodes), "{}", a.nodes);
    }
}

fn play(game: &mut Game, moves: &[&str]) {
    for t in moves {
        let m: Move = game.position().parse_uci(t).unwrap();
        game.play(m).unwrap();
    }
}

#[test]
fn perpetual_check_loses_other_repetitions_draw() {
    // Red: chariot a9 checking the black general; black can only shuffle d9-d8. If red keeps
    // checking, the position repeats under red's perpetual check, which loses for red.
    // Black has an extra chariot so red's only hope would be the perpetual: the engine must
    // not rely on it. Game history: the cycle was already played once.
    let start = Position::from_fen("R2k5/9/9/9/9/9/9/9/2n5r/5K3 b - - 1 1").unwrap();
    let mut game = Game::new(start);
    play(&mut game, &["d9d8", "a9a8", "d8d9", "a8a9", "d9d8"]);
    let mut s = Searcher::new();
    let r = s.search(
        &game,
        &Limits {
            depth: Some(6),
            ..Limits::default()
        },
        &mut |_| {},
    );
    // Red to move; a8 (the check that repeats the position) is forbidden, so red must not
    // play it.
    assert_ne!(r.best_move.unwrap().to_string(), "a9a8");
}

#[test]
fn stop_handle_ends_an_infinite_search() {
    let mut s = Searcher::new();
    let stop = s.stop_handle();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        stop.stop();
    });
    let r = s.search(
        &Game::default(),
        &Limits {
            infinite: true,
            ..Limits::default()
        },
        &mut |_| {},
    );
    t.join().unwrap();
    assert!(r.best_move.is_some());
}

#[test]
fn no_legal_move_gives_no_best_move() {
    // Black is stalemated (a loss in xiangqi).
    let game = Game::new(Position::from_fen("3k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1").unwrap());
    let r = Searcher::new().search(
        &game,
        &Limits {
            depth: Some(3),
            ..Limits::default()
        },
        &mut |_| {},
    );
    assert_eq!(r.best_move, None);
}

#[test]
fn search_moves_and_multipv() {
    let game = Game::default();
    let only: Move = game.position().parse_uci("a3a4").unwrap();
    let mut s = Searcher::new();
    let r = s.search(
        &game,
        &Limits {
            depth: Some(4),
            search_moves: vec![only],
            ..Limits::default()
        },
        &mut |_| {},
    );
    assert_eq!(r.best_move, Some(only));
    s.set_multipv(3);
    let mut lines = std::collections::BTreeMap::new();
    s.search(
        &game,
        &Limits {
            depth: Some(5),
            ..Limits::default()
        },
        &mut |i| {
            lines.insert((i.depth, i.multipv), i.pv[0]);
        },
    );
    let firsts: std::collections::BTreeSet<_> = (1..=3).map(|k| lines[&(5, k)]).collect();
    assert_eq!(firsts.len(), 3, "three different first moves");
}
