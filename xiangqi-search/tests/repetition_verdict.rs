//! The repetition judge's verdicts reach the search: a move that completes a repetition
//! is scored as `xiangqi_core::judge_repetition` rules it (a draw, or a loss for the side
//! that breaks the rules), also for the cycles the differential test against
//! Fairy-Stockfish fixed (docs/REPETITION.md).

use xiangqi_core::{Game, Move, Position};
use xiangqi_search::{Limits, Score, Searcher};

/// The search's score for `last`, the move that closes the second cycle, after `cycle`
/// was played once and then all of it but its last move again.
fn score_of_closing_move(fen: &str, cycle: &str) -> Score {
    let mut game = Game::new(Position::from_fen(fen).unwrap());
    let moves: Vec<&str> = cycle.split_whitespace().collect();
    for t in moves.iter().chain(&moves[..moves.len() - 1]) {
        let m: Move = game.position().parse_uci(t).unwrap();
        game.play(m).unwrap();
    }
    let last: Move = game.position().parse_uci(moves[moves.len() - 1]).unwrap();
    let r = Searcher::new().search(
        &game,
        &Limits {
            depth: Some(4),
            search_moves: vec![last],
            ..Limits::default()
        },
        &mut |_| {},
    );
    assert_eq!(r.best_move, Some(last));
    r.score
}

/// Class E1: black's advisor answers a cannon check (f9e8), which makes the chariot's
/// existing attack on b8 a legal capture again, then steps back. Answering a check makes
/// no new chase: a draw, not black's loss by perpetual chase.
#[test]
fn answering_a_check_is_no_chase_in_the_search() {
    let s = score_of_closing_move(
        "2Rcka3/1C4C2/1r4n2/p3p3p/2b6/5N3/P3P3P/4B4/3cA4/2BAK4 w - - 0 34",
        "g8g9 f9e8 g9g8 e8f9",
    );
    assert_eq!(s, Score::DRAW, "{s:?}");
}

/// A perpetual chase still loses in the search: the red chariot that follows the
/// unprotected black cannon may not close the cycle (a loss, far below a draw).
#[test]
fn perpetual_chase_loses_in_the_search() {
    let s = score_of_closing_move(
        "5k3/9/9/9/c8/1R7/9/9/9/3K5 w - - 0 1",
        "b4a4 a5b5 a4b4 b5a5 ",
    );
    assert!(
        s.0 > 10_000,
        "black closes red's chase: black should win, got {s:?}"
    );
}
