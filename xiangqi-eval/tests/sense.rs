//! Sense checks of the default evaluator against xiangqi knowledge and master game results.

use xiangqi_core::Position;
use xiangqi_eval::{DefaultEvaluator, Evaluator, Score};

fn eval(fen: &str) -> i32 {
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    DefaultEvaluator::new().evaluate(&pos).0
}

#[test]
fn start_position_is_near_zero() {
    let s = eval(xiangqi_core::START_FEN);
    assert!(s.abs() <= 30, "start position scores {s}");
}

#[test]
fn a_chariot_up_is_clearly_winning() {
    // Black's a9 chariot removed; either side to move.
    let red = eval("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    let black = eval("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    assert!(red >= 600, "red a chariot up, red to move: {red}");
    assert!(black <= -600, "red a chariot up, black to move: {black}");
}

#[test]
fn a_horse_up_is_winning_but_less_than_a_chariot() {
    let horse = eval("r1bakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    let chariot = eval("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    assert!(horse >= 250, "{horse}");
    assert!(horse < chariot, "{horse} {chariot}");
}

/// Endings that theory calls drawn score near zero, though one side has more material.
#[test]
fn known_drawn_endings_score_near_zero() {
    let drawn = [
        // no attacking material: advisors and elephants alone cannot mate
        ("4k4/9/9/9/9/9/9/9/3K5/2BA1AB2 w - - 0 1", "defenders only"),
        (
            "4k4/9/9/9/9/9/9/9/3K5/2BA1AB2 b - - 0 1",
            "defenders only, black to move",
        ),
        // a pawn on the last rank (底兵) cannot mate
        ("P3k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "bottom pawn"),
        // a lone horse cannot mate two advisors (单马对双士)
        (
            "3aka3/9/9/9/9/9/9/9/4N4/3K5 w - - 0 1",
            "horse vs two advisors",
        ),
        // a lone cannon cannot mate a general with advisors and elephants
        (
            "2bakab2/9/9/9/9/C8/9/9/9/3K5 w - - 0 1",
            "cannon vs full defenders",
        ),
        (
            "2bakab2/9/9/9/9/C8/9/9/9/3K5 b - - 0 1",
            "cannon vs full defenders, black to move",
        ),
        // chariot against chariot, one side with extra defenders
        (
            "3k5/9/9/9/9/2r6/9/9/9/2BAKAB1R w - - 0 1",
            "chariot vs chariot",
        ),
        // two cannons cannot break a full set of defenders
        (
            "2bakab2/9/9/9/9/C7C/9/9/9/3K5 w - - 0 1",
            "two cannons vs full defenders",
        ),
        // a lone chariot against a horse with full defenders
        (
            "2bakab2/9/4n4/9/9/R8/9/9/9/3K5 w - - 0 1",
            "chariot vs horse and full defenders",
        ),
        // a lone cannon against a bare general has no screen
        (
            "4k4/9/9/9/9/C8/9/9/9/3K5 w - - 0 1",
            "lone cannon vs bare general",
        ),
    ];
    for (fen, what) in drawn {
        let s = eval(fen);
        assert!(s.abs() <= 80, "{what}: {fen} scores {s}");
    }
}

/// Endings that are wins stay clearly winning (the drawish scaling does not overreach).
#[test]
fn won_endings_stay_winning() {
    let won = [
        // a chariot against a lone general with advisors
        (
            "3aka3/9/9/9/9/9/9/9/R8/3K5 w - - 0 1",
            "chariot vs two advisors",
        ),
        // a horse against a bare general (单马胜光将)
        (
            "4k4/9/9/9/9/9/9/9/4N4/3K5 w - - 0 1",
            "horse vs bare general",
        ),
        // two chariots against horse and advisors
        (
            "3aka3/9/4n4/9/9/9/9/9/4R4/3K4R w - - 0 1",
            "two chariots vs horse",
        ),
    ];
    for (fen, what) in won {
        let s = eval(fen);
        assert!(s >= 300, "{what}: {fen} scores {s}");
    }
}

#[test]
fn central_cannon_is_good_and_empty_centre_cannon_better() {
    // 炮二平五 (central cannon) is better for red than retreating the cannon (炮二退一), and
    // about as good as the other main developing move of that cannon (炮二平四)...
    let central = eval("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    let aside = eval("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C3C3/9/RNBAKABNR b - - 1 1");
    let back = eval("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C7/7C1/RNBAKABNR b - - 1 1");
    assert!(
        central < back - 15,
        "black to move: against 炮二平五 {central}, 炮二退一 {back}"
    );
    assert!(
        central <= aside + 10,
        "black to move: against 炮二平五 {central}, 炮二平四 {aside}"
    );
    // ...and in the middlegame a cannon facing the general with nothing between (空头炮)
    // is worth more than one whose file black has closed with an elephant and an advisor
    // (the same material; the central pawns are gone in both).
    let empty = eval("rnbakabnr/9/1c5c1/p1p3p1p/9/9/P1P3P1P/1C2C4/9/RNBAKABNR b - - 0 1");
    let shielded = eval("rn2kabnr/4a4/1c2b2c1/p1p3p1p/9/9/P1P3P1P/1C2C4/9/RNBAKABNR b - - 0 1");
    assert!(
        empty < shielded - 30,
        "空头炮 {empty} vs screened {shielded}"
    );
}

/// Over positions of master games (the sample in tests/data), the evaluation of the side
/// that went on to win is positive more often than not, and clearly so late in the game.
#[test]
fn evaluation_agrees_with_master_results() {
    let text = include_str!("data/master_sample.txt");
    let mut agree = 0;
    let mut disagree = 0;
    for line in text.lines() {
        let (result, moves) = line.split_once('\t').expect("result<TAB>moves");
        let red_won = match result {
            "1-0" => true,
            "0-1" => false,
            _ => continue,
        };
        let mut pos = Position::startpos();
        let mut evaluator = DefaultEvaluator::new();
        let moves: Vec<&str> = moves.split_whitespace().collect();
        // Look at the position 10 plies before the end.
        let upto = moves.len().saturating_sub(10);
        for m in &moves[..upto] {
            let m = pos.parse_uci(m).expect("legal master move");
            pos.play(m).expect("legal master move");
        }
        let s = evaluator.evaluate(&pos);
        let red = if pos.side_to_move() == xiangqi_core::Color::Red {
            s
        } else {
            -s
        };
        if red == Score::ZERO {
            continue;
        }
        if (red.0 > 0) == red_won {
            agree += 1;
        } else {
            disagree += 1;
        }
    }
    assert!(agree > 3 * disagree, "agree {agree}, disagree {disagree}");
}

/// Clones of one evaluator used on several threads agree with each other and with a fresh one.
#[test]
fn evaluators_work_on_several_threads() {
    let text = include_str!("data/master_sample.txt");
    let mut positions = Vec::new();
    for line in text.lines().take(20) {
        let mut pos = Position::startpos();
        for m in line
            .split('\t')
            .nth(1)
            .unwrap_or("")
            .split_whitespace()
            .take(50)
        {
            let m = pos.parse_uci(m).expect("legal master move");
            pos.play(m).expect("legal master move");
        }
        positions.push(pos);
    }
    let shared = DefaultEvaluator::new();
    let expected: Vec<Score> = positions
        .iter()
        .map(|p| DefaultEvaluator::new().evaluate(p))
        .collect();
    std::thread::scope(|scope| {
        for _ in 0..4 {
            let mut mine = shared.clone();
            let (positions, expected) = (&positions, &expected);
            scope.spawn(move || {
                for _ in 0..3 {
                    for (p, e) in positions.iter().zip(expected) {
                        assert_eq!(mine.evaluate(p), *e);
                    }
                }
            });
        }
    });
}
