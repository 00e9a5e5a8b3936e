//! The terminal game (`examples/play`) driven through a pipe, as a scripted player would.
//!
//! The expected positions, notations and checks come from `tests/data/play_notation.tsv`, a
//! copy of the shared notation table (200 plies of two games: positions, ICCS, Chinese and
//! WXF, checked with pyffish and cchess), not from our own output.

// The board drawing is checked by its own unit tests, run from here (examples' unit tests
// are not run by `cargo test`).
#[path = "../examples/play/board.rs"]
#[allow(dead_code)]
mod board;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use xiangqi::core::Position;

/// Builds the example once (with the profile this test was built with) and returns its path.
fn play_binary() -> &'static PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        // This test runs as <target>/<profile dir>/deps/play-<hash>; examples land in
        // <target>/<profile dir>/examples/.
        let exe = std::env::current_exe().expect("test executable path");
        let profile_dir = exe
            .parent()
            .and_then(|d| d.parent())
            .expect("target profile dir");
        let target_dir = profile_dir.parent().expect("target dir");
        let release = profile_dir.file_name().is_some_and(|n| n == "release");
        // `--workspace`: features resolved as `cargo test --workspace` resolves them, so
        // under that command (CI's) the example it built is reused, not built again with the
        // root package's features alone (40 s on two cores).
        let mut cmd = Command::new(env!("CARGO"));
        cmd.args(["build", "--quiet", "--workspace", "--example", "play"])
            .env("CARGO_TARGET_DIR", target_dir)
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        cmd.args(if release {
            ["--profile", "release"]
        } else {
            ["--profile", "test"]
        });
        let status = cmd.status().expect("run cargo build");
        assert!(status.success(), "cargo build --example play failed");
        let name = format!("play{}", std::env::consts::EXE_SUFFIX);
        profile_dir.join("examples").join(name)
    })
}

/// Runs the game with `args`, feeding `script` through stdin; returns stdout.
fn run(args: &[&str], script: &str) -> String {
    let mut child = Command::new(play_binary())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the play example");
    let mut stdin = child.stdin.take().expect("stdin");
    let script = script.to_string();
    // Write from another thread so that a full stdout pipe cannot block us both.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(script.as_bytes());
    });
    let output = child.wait_with_output().expect("wait for the play example");
    writer.join().expect("writer thread");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");
    assert!(
        output.status.success(),
        "play failed: {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// The rows of the notation table: (iccs, chinese, wxf, fen before, check mark, game).
fn table() -> Vec<[String; 6]> {
    include_str!("data/play_notation.tsv")
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            [f[3], f[5], f[7], f[2], f.get(9).unwrap_or(&""), f[0]].map(str::to_string)
        })
        .collect()
}

/// The plies of game A, which starts from the opening.
fn game_a() -> Vec<[String; 6]> {
    table().into_iter().filter(|r| r[5] == "A").collect()
}

/// Board and side of a FEN (the move counters are not what these tests are about).
fn board_and_side(fen: &str) -> String {
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

/// The FENs the game printed for `fen` commands, in order.
fn printed_fens(out: &str) -> Vec<String> {
    out.lines()
        .filter_map(|l| l.strip_prefix("FEN "))
        .map(board_and_side)
        .collect()
}

#[test]
fn scripted_game_in_three_notations_with_undo_redo_hint_save_and_load() {
    let a = game_a();
    let pgn = std::env::temp_dir().join(format!("xiangqi-play-test-{}.pgn", std::process::id()));
    let pgn_path = pgn.to_str().expect("utf-8 temp path");
    // Plies 1-8 of game A, each notation used for both colours.
    let script = format!(
        "{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n\
         fen\nb0b9\nxyzzy\n马五进四\nfen\n\
         undo\nfen\nredo\nfen\nhint\nmoves\nmoves wxf\n\
         save {pgn_path}\nnew\nfen\nload {pgn_path}\nfen\n\
         {}\n{}\nfen\nquit\n",
        a[0][0],  // b2e2    ICCS
        a[1][1],  // 马２进３ Chinese, full-width digits
        a[2][2],  // H8+7    WXF
        "车1平2", // ply 4 in Chinese with ASCII digits
        a[4][2],  // R9=8    WXF with `=` for traverse
        a[5][0],  // h9g7    ICCS
        a[6][1],  // 兵三进一 Chinese
        a[7][2],  // P3+1    WXF, black
        a[8][1],  // 车八进六
        "C2.1",   // ply 10: 炮２平１ in WXF with `.`
    );
    let out = run(&["--both", "--hint-nodes", "3000", "--ascii"], &script);
    let fens = printed_fens(&out);
    let truth = |ply: usize| board_and_side(&a[ply][3]);
    assert_eq!(
        fens,
        vec![
            truth(8),                                 // after 8 plies
            truth(8), // illegal and unreadable moves changed nothing
            truth(7), // undo takes back one ply in two-player mode
            truth(8), // redo
            board_and_side(xiangqi::core::START_FEN), // new
            truth(8), // load restores the saved game
            truth(10), // and play goes on from it
        ],
        "{out}"
    );
    // Refusals say why.
    let refusals: Vec<&str> = out.lines().filter(|l| l.starts_with("refused")).collect();
    assert_eq!(refusals.len(), 3, "{out}");
    assert!(refusals[0].contains("b0b9"), "{}", refusals[0]);
    // Every move is announced in Chinese notation as the shared table writes it.
    for row in &a[..10] {
        let chinese = row[1].as_str();
        assert!(out.contains(chinese), "{chinese} not shown\n{out}");
    }
    // The move list in WXF (traverse written `.` here, `=` in the table).
    assert!(out.contains("  1. C8.5 H2+3"), "{out}");
    // The hint names a legal move of the position after 8 plies.
    let hint = out
        .lines()
        .find(|l| l.starts_with("hint"))
        .expect("a hint line");
    let hinted = hint
        .split(['(', ','])
        .nth(1)
        .expect("hint shows the ICCS move")
        .trim();
    let pos = Position::from_fen(&a[8][3]).expect("table FEN");
    assert!(
        pos.parse_uci(hinted).is_ok(),
        "hint {hinted} is not legal: {hint}"
    );
    // The saved PGN holds the eight moves of the table, as the records crate reads them.
    let bytes = std::fs::read(&pgn).expect("saved PGN");
    let _ = std::fs::remove_file(&pgn);
    let games = xiangqi::records::pgn::read(&bytes).expect("a readable PGN");
    let saved: Vec<String> = games[0]
        .game
        .moves()
        .iter()
        .map(|m| m.to_string())
        .collect();
    let expected: Vec<&str> = a[..8].iter().map(|r| r[0].as_str()).collect();
    assert_eq!(saved, expected, "{}", String::from_utf8_lossy(&bytes));
}

#[test]
fn every_ply_of_the_table_is_read_written_and_checks_announced() {
    // Each ply from its position: Chinese for even rows, WXF (with `=`) for odd ones.
    let rows = table();
    let mut script = String::new();
    for (i, r) in rows.iter().enumerate() {
        let text = if i % 2 == 0 { &r[1] } else { &r[2] };
        script.push_str(&format!("fen {}\n{text}\n", r[3]));
    }
    script.push_str("quit\n");
    let out = run(&["--both", "--ascii"], &script);
    assert!(!out.contains("refused"), "{out}");
    // Every move is announced as `<n>. <side> <chinese> (<iccs>, <wxf>)`.
    let announced: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("红方 red ") || l.contains("黑方 black "))
        .filter(|l| l.contains(". "))
        .filter(|l| !l.starts_with("last move") && !l.starts_with("you play"))
        .collect();
    assert_eq!(announced.len(), rows.len(), "{out}");
    for (line, r) in announced.iter().zip(&rows) {
        let wxf = r[2].replace('=', ".");
        assert!(
            line.contains(&format!("{} ({}, {wxf})", r[1], r[0])),
            "{line} should show {} {} {wxf}",
            r[1],
            r[0]
        );
    }
    let checks = rows.iter().filter(|r| r[4] == "+").count();
    assert_eq!(checks, 10);
    assert_eq!(out.matches("将军! Check!").count(), checks, "{out}");
}

#[test]
fn undo_against_the_computer_takes_back_both_moves() {
    let out = run(
        &["--red", "--nodes", "2000"],
        "h2e2\nfen\nundo\nfen\nredo\nfen\nquit\n",
    );
    let fens = printed_fens(&out);
    assert_eq!(fens.len(), 3, "{out}");
    // After the player's move the computer replied: black has moved, red is to move.
    assert!(fens[0].ends_with(" w"), "{out}");
    assert_ne!(fens[0], board_and_side(xiangqi::core::START_FEN));
    assert_eq!(fens[1], board_and_side(xiangqi::core::START_FEN), "{out}");
    assert_eq!(fens[2], fens[0], "{out}");
    assert!(out.contains("computer 电脑:"), "{out}");
}

#[test]
fn a_game_at_the_lowest_level_runs_to_its_end() {
    let pgn = std::env::temp_dir().join(format!("xiangqi-play-end-{}.pgn", std::process::id()));
    let pgn_path = pgn.to_str().expect("utf-8 temp path");
    // The player always plays the engine's hint; enough of them for any game to end.
    let mut script = "hint\nplay\n".repeat(1500);
    script.push_str(&format!("save {pgn_path}\nquit\n"));
    let out = run(
        &["--red", "--level", "1", "--hint-nodes", "1000", "--ascii"],
        &script,
    );
    let over = out
        .lines()
        .find(|l| l.starts_with("Game over"))
        .unwrap_or_else(|| {
            panic!(
                "the game did not end\n{}",
                &out[out.len().saturating_sub(3000)..]
            )
        });
    let text = std::fs::read_to_string(&pgn).expect("saved PGN");
    let _ = std::fs::remove_file(&pgn);
    let games = xiangqi::records::pgn::read(text.as_bytes()).expect("a readable PGN");
    let game = &games[0].game;
    let pos = game.position();
    // Independently of the program: the final position ends the game by the rules.
    let positions = game.positions();
    let repeats = positions
        .iter()
        .filter(|p| p.key() == pos.key() && p.side_to_move() == pos.side_to_move())
        .count();
    use xiangqi::core::{Color, Role};
    let attackers = |c: Color| {
        [Role::Chariot, Role::Horse, Role::Cannon, Role::Pawn]
            .iter()
            .any(|&r| pos.count(c, r) > 0)
    };
    let no_attackers = !attackers(Color::Red) && !attackers(Color::Black);
    let ended =
        pos.outcome().is_some() || pos.halfmove_clock() >= 120 || repeats >= 3 || no_attackers;
    assert!(
        ended,
        "{over}\nfinal position {} is not an end\n{text}",
        pos.fen()
    );
    let result = text
        .lines()
        .find_map(|l| l.strip_prefix("[Result \""))
        .and_then(|r| r.strip_suffix("\"]"))
        .expect("a Result tag");
    assert_ne!(result, "*", "{text}");
    if let Some(end) = pos.outcome() {
        let expected = match end.winner {
            xiangqi::core::Color::Red => "1-0",
            xiangqi::core::Color::Black => "0-1",
        };
        assert_eq!(result, expected, "{over}");
    }
}

#[test]
fn now_makes_the_computer_move_at_once() {
    // Two minutes a move, but the player asks for the move at once: the input is read
    // while the search runs on its own thread.
    let out = run(
        &["--red", "--movetime", "120000", "--no-book", "--ascii"],
        "h2e2\nnow\nh0g2\nnow\nfen\nquit\n",
    );
    let fens = printed_fens(&out);
    assert_eq!(fens.len(), 1, "{out}");
    assert!(fens[0].ends_with(" w"), "the computer did not move\n{out}");
    assert_eq!(out.matches("computer 电脑:").count(), 2, "{out}");
    assert!(!out.contains("from the opening book"), "{out}");
}

#[test]
fn loads_a_game_in_chinese_notation() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let out = run(
        &["--both", "--ascii"],
        &format!("load {dir}/play_game_chinese.pgn\nmoves iccs\nquit\n"),
    );
    assert!(out.contains("loaded 已载入 127 moves"), "{out}");
    let listed: Vec<&str> = out
        .lines()
        .skip_while(|l| *l != "> moves iccs")
        .skip(1)
        .take_while(|l| !l.starts_with('>'))
        .flat_map(str::split_whitespace)
        .filter(|t| !t.ends_with('.'))
        .collect();
    let truth = std::fs::read_to_string(format!("{dir}/play_game_iccs.pgn")).expect("data");
    let expected: Vec<&str> = truth
        .lines()
        .filter(|l| !l.starts_with('['))
        .flat_map(str::split_whitespace)
        .filter(|t| !t.ends_with('.'))
        .collect();
    assert_eq!(expected.len(), 127);
    assert_eq!(listed, expected, "{out}");
}
