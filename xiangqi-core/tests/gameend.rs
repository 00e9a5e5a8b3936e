//! `Game::outcome` against `tests/data/gameend.tsv` (verdicts checked with pyffish, with
//! our 60-move rule of 120 plies where Fairy-Stockfish uses 100), and the move-limit rule.

use xiangqi_core::{Color, Game, GameEndReason, Position, RuleSet, MOVE_LIMIT_PLIES};

fn play(fen: &str, moves: &str) -> Game {
    let mut game = Game::new(Position::from_fen(fen).unwrap());
    for text in moves.split_whitespace() {
        let m = game.position().parse_uci(text).unwrap();
        game.play(m).unwrap();
    }
    game
}

#[test]
fn gameend_scenarios() {
    let data = include_str!("data/gameend.tsv");
    let mut rows = 0;
    for line in data.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let (id, fen, moves) = (f[0], f[1], f[2]);
        let legal_after: usize = f[3].parse().unwrap();
        let in_check = f[4] == "True";
        let no_moves_result = f[5];
        let optional_end = f[6];
        let game = play(fen, moves);
        let pos = game.position();
        assert_eq!(pos.legal_moves().len(), legal_after, "{id}");
        assert_eq!(pos.is_check(), in_check, "{id}");
        let outcome = game.outcome(RuleSet::Asian);
        let stm = pos.side_to_move();
        // Our own draw for lack of attacking material applies before Fairy-Stockfish's verdicts.
        let bare = [Color::Red, Color::Black].iter().all(|&c| {
            pos.count(c, xiangqi_core::Role::Chariot)
                + pos.count(c, xiangqi_core::Role::Horse)
                + pos.count(c, xiangqi_core::Role::Cannon)
                + pos.count(c, xiangqi_core::Role::Pawn)
                == 0
        });
        if no_moves_result == "-32000" {
            let o = outcome.expect(id);
            assert_eq!(o.winner, Some(stm.other()), "{id}");
            let expected = if in_check {
                GameEndReason::Checkmate
            } else {
                GameEndReason::Stalemate
            };
            assert_eq!(o.reason, expected, "{id}");
        } else if id.starts_with("move_rule") {
            // FSF's 50-move verdict differs by design: we count to 120 plies.
            assert!(game.plies_toward_move_limit() < MOVE_LIMIT_PLIES, "{id}");
            let o = outcome.expect(id);
            assert_eq!(o.reason, GameEndReason::NoAttackingMaterial, "{id}");
        } else if let Some(score) = optional_end.strip_prefix("True,") {
            let o = outcome.unwrap_or_else(|| panic!("{id}: no end"));
            let expected = match score {
                "0" => None,
                "32000" => Some(stm),
                "-32000" => Some(stm.other()),
                s => panic!("{id}: {s}"),
            };
            assert_eq!(o.winner, expected, "{id}: {o}");
            if !bare {
                assert!(
                    matches!(o.reason, GameEndReason::Repetition(_)),
                    "{id}: {o}"
                );
            }
        } else if bare {
            assert_eq!(
                outcome.map(|o| o.reason),
                Some(GameEndReason::NoAttackingMaterial)
            );
        } else {
            assert_eq!(outcome, None, "{id}");
        }
        rows += 1;
    }
    assert_eq!(rows, 9);
}

#[test]
fn sixty_move_rule_counts_120_plies_since_the_last_capture() {
    let fen = "3k5/9/9/9/9/9/9/9/R8/5K3 w - - 118 80";
    let game = play(fen, "a1a2 d9d8");
    assert_eq!(game.plies_toward_move_limit(), 120);
    let o = game.outcome(RuleSet::Asian).unwrap();
    assert_eq!((o.winner, o.reason), (None, GameEndReason::MoveLimit));
    assert!(play(fen, "a1a2").outcome(RuleSet::Asian).is_none());
    // A capture resets the count.
    let game = play("3k5/9/9/9/9/9/9/9/r8/R4K3 w - - 100 80", "a0a1");
    assert_eq!(game.plies_toward_move_limit(), 0);
}

#[test]
fn checks_beyond_the_tenth_do_not_count() {
    // Red's chariot checks from the side; black's general walks back and forth.
    let mut game = Game::new(Position::from_fen("3k5/9/9/9/9/9/9/9/9/R4K3 w - - 0 1").unwrap());
    let cycle = ["d9d8", "a9a8", "d8d9", "a8a9"];
    let texts = std::iter::once("a0a9")
        .chain(cycle.iter().copied().cycle())
        .take(30);
    for text in texts {
        let m = game.position().parse_uci(text).unwrap();
        game.play(m).unwrap();
    }
    // 30 plies: 15 red checks (5 not counted) and 15 black moves.
    assert_eq!(game.plies_toward_move_limit(), 25);
}
