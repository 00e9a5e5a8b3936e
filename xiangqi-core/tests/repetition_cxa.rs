//! The repetition judge under the Chinese rules (中国象棋竞赛规则, CXA 1999): one case per
//! rule article, rebuilt as positions and moves from the published examples (细则, the
//! detailed examples of chapter 7, whose move sequences the positions reproduce) and
//! from the articles' definitions (25.3, 26, 27, 28). Each case also states the Asian
//! (AXF/WXF) verdict where the two rule books differ, so that a rule set that leaked into
//! the other shows. Rule text: CXA 1999 arts. 24-29 and examples 1-13, as summarised in
//! `shared/notes/rules.md` [S13].
//!
//! Files in the comments: red counts files 一..九 from its right (一 = i), black 1..9 from
//! its right (1 = a).

use xiangqi_core::{Color, Game, Position, Problems, RuleSet};

/// Plays `moves` (one cycle, ICCS) twice from `fen`, so that the position stands for the
/// third time, and gives the loser under `rules`: "red", "black" or "draw".
fn verdict(fen: &str, moves: &str, rules: RuleSet) -> String {
    let start = Position::from_fen_allowing(fen, Problems::PAWN_OFF_POINTS)
        .unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut game = Game::new(start);
    for _ in 0..2 {
        for text in moves.split_whitespace() {
            let m = game
                .position()
                .parse_uci(text)
                .unwrap_or_else(|e| panic!("{fen} {text}: {e}"));
            game.play(m).unwrap_or_else(|e| panic!("{fen} {text}: {e}"));
        }
    }
    let outcome = game
        .outcome(rules)
        .unwrap_or_else(|| panic!("{fen} {moves}: no end after two cycles"));
    let text = outcome.to_string();
    match outcome.winner {
        Some(Color::Red) => format!("black ({text})"),
        Some(Color::Black) => format!("red ({text})"),
        None => format!("draw ({text})"),
    }
}

/// One cycle of a WXF ruling of `tests/data/repetition_wxf.tsv` (whose moves run to the
/// third occurrence: two cycles).
fn wxf_cycle(id: &str) -> (String, String) {
    let data = include_str!("data/repetition_wxf.tsv");
    let line = data
        .lines()
        .find(|l| l.starts_with(&format!("{id}\t")))
        .unwrap_or_else(|| panic!("{id} not in the data"));
    let f: Vec<&str> = line.split('\t').collect();
    let moves: Vec<&str> = f[2].split_whitespace().collect();
    (f[1].to_string(), moves[..moves.len() / 2].join(" "))
}

/// Checks the cycle `(fen, moves)` under the Chinese and the Asian rules: each
/// expectation is the loser ("red", "black" or "draw") and words of the verdict.
fn judged(cycle: (&str, &str), chinese: (&str, &str), asian: (&str, &str)) {
    for (rules, (loser, why)) in [(RuleSet::Chinese, chinese), (RuleSet::Asian, asian)] {
        assert_verdict(cycle.0, cycle.1, rules, loser, why);
    }
}

fn assert_verdict(fen: &str, moves: &str, rules: RuleSet, loser: &str, why: &str) {
    let got = verdict(fen, moves, rules);
    assert!(
        got.starts_with(loser),
        "{rules}: expected {loser} for {fen} / {moves}, got {got}"
    );
    assert!(got.contains(why), "{rules}: expected `{why}` in {got}");
}

/// 细则1, art. 26.1 (24.1): one-sided perpetual check loses in every case, even when
/// the checking chariot is the only piece that can vary. 车四平五 将5平6 车五平四 将6平5.
#[test]
fn example_1_perpetual_check_always_loses() {
    judged(
        ("4k4/9/5R3/9/9/9/9/9/9/3K5 w - - 0 1", "f7e7 e9f9 e7f7 f9e9"),
        ("red", "perpetual check"),
        ("red", "perpetual check"),
    );
}

/// 细则2, art. 29.2: a chase that did not exist before the move and exists after it
/// (从没捉到捉) is a chase, even though the chariot could take the horse from the same
/// point before it checked. 车三平四(+) 将6平5 车四平三(捉马) 将5平6: one check, one
/// chase (一将一捉), forbidden by art. 25.2, against idle moves: red loses. Under the Asian
/// rules a check between the chases breaks them: a draw.
#[test]
fn example_2_check_then_chase_is_forbidden() {
    judged(
        (
            "5k3/9/6R2/9/9/9/6n2/9/9/3K5 w - - 0 1",
            "g7f7 f9e9 f7g7 e9f9",
        ),
        ("red", "mixed"),
        ("draw", "no side broke"),
    );
}

/// 细则5, art. 29.1 and 27.4: the horse chases the chariot (it wins the exchange) even
/// though the horse stands where a pawn can take it (送吃): the chase counts, red
/// loses. 马八进六 车2平3 马六退八 车3平2.
#[test]
fn example_5_chase_that_also_offers_a_piece_is_a_chase() {
    let (fen, moves) = (
        "4k4/9/9/1r1p5/9/RN7/9/9/9/3K5 w - - 0 1",
        "b4d5 b6c6 d5b4 c6b6",
    );
    for rules in [RuleSet::Chinese, RuleSet::Asian] {
        assert_verdict(
            fen,
            moves,
            rules,
            "red",
            "perpetual chase of the piece on b6",
        );
    }
}

/// 细则6 (third diagram), art. 29.2: a piece that attacked before its move and attacks
/// the same piece after it makes no new chase (从捉到捉, idle). The black chariot slides
/// g3-h3-g3 attacking the red cannon on a3 all along; the red horse chases the chariot
/// with every move (马三退一 车7平8 马一进三 车8平7): red loses. (Fairy-Stockfish counts
/// a slide along an attack as a new, uncovered one: docs/REPETITION.md, class F3.)
#[test]
fn example_6_chase_to_chase_is_idle() {
    let (fen, moves) = (
        "5k3/9/9/9/5PN2/9/C5r2/9/9/3K5 w - - 0 1",
        "g5i4 g3h3 i4g5 h3g3",
    );
    for rules in [RuleSet::Chinese, RuleSet::Asian] {
        assert_verdict(
            fen,
            moves,
            rules,
            "red",
            "perpetual chase of the piece on g3",
        );
    }
}

/// Art. 28.11 (长杀) and 25.2: a move that threatens mate next move, every move,
/// is forbidden; against idle moves the threatening side loses. The red chariot on h3/h4
/// threatens Rd-file mate (the general on e0 holds the e-file); black's horse shuffles.
/// The Asian rules allow perpetual mate threats: a draw.
#[test]
fn art_28_11_perpetual_mate_threat_is_forbidden() {
    judged(
        (
            "3k4n/9/9/9/9/9/7R1/9/9/4K4 w - - 0 1",
            "h3h4 i9g8 h4h3 g8i9",
        ),
        ("red", "perpetual mate threat"),
        ("draw", "no side broke"),
    );
}

/// Art. 26.3 (细则8): both sides forbidden (and neither a one-sided perpetual check):
/// a draw. The red chariot and the black horse chase each other (WXF ruling D48, the
/// data's oxq-053, read under the Chinese rules).
#[test]
fn art_26_3_both_forbidden_is_a_draw() {
    let (fen, moves) = wxf_cycle("oxq-053");
    for rules in [RuleSet::Chinese, RuleSet::Asian] {
        assert_verdict(&fen, &moves, rules, "draw", "both sides broke");
    }
}

/// Art. 27.1: the general attacking a piece with every move is idle. The red general
/// follows the crossed black pawn along the back rank (e1-d1, above it, where the pawn
/// does not attack it): a draw.
#[test]
fn art_27_1_the_general_may_chase() {
    judged(
        ("5k3/9/9/9/9/9/9/9/4K4/4p4 b - - 0 1", "e0d0 e1d1 d0e0 d1e1"),
        ("draw", "no side broke"),
        ("draw", "no side broke"),
    );
}

/// Art. 25.3: a pawn that has not crossed the river is no material, so attacking it is
/// idle; once across it is material and chasing it is forbidden. (WXF rulings D60 and
/// D59, the data's oxq-065 and oxq-064, read under the Chinese rules.)
#[test]
fn art_25_3_uncrossed_pawn_is_no_material() {
    let (fen, moves) = wxf_cycle("oxq-065");
    assert_verdict(&fen, &moves, RuleSet::Chinese, "draw", "no side broke");
    let (fen, moves) = wxf_cycle("oxq-064");
    assert_verdict(&fen, &moves, RuleSet::Chinese, "red", "perpetual chase");
}

/// Art. 28.16 and 28.8 (跟): attacking a protected piece is no chase. The red chariot
/// follows the black cannon between a5 and b5; unprotected it is a chase (red loses),
/// with a black chariot on i5 guarding both points it is 跟, idle: a draw.
#[test]
fn art_28_16_protected_piece_is_not_chased() {
    let moves = "b4a4 a5b5 a4b4 b5a5";
    let alone = "5k3/9/9/9/c8/1R7/9/9/9/3K5 w - - 0 1";
    let guarded = "5k3/9/9/9/c7r/1R7/9/9/9/3K5 w - - 0 1";
    assert_verdict(alone, moves, RuleSet::Chinese, "red", "perpetual chase");
    assert_verdict(guarded, moves, RuleSet::Chinese, "draw", "no side broke");
}
