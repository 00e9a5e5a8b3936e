//! The default evaluator returns bit for bit what its earlier, slower code returned: every
//! part of [`DefaultEvaluator::trace`] and the score of [`Evaluator::evaluate`] are compared
//! with a frozen copy of that code (`tests/reference/`) over the positions of the game records
//! in the tests' data (both crates), the positions one capture after them, and random
//! positions (playouts, thinned out to reach endgames, mirrored and colour-swapped).

mod reference;

use proptest::prelude::*;
use xiangqi_core::{Position, Problems, Role};
use xiangqi_eval::{DefaultEvaluator, Evaluator, Score};

/// An evaluator without a score cache, so that every answer is computed.
fn uncached() -> DefaultEvaluator {
    let mut e = DefaultEvaluator::new();
    e.set_cache_size(0);
    e
}

/// Compares `eval` (in step with `pos` or not) with the reference on `pos`.
fn check(eval: &mut DefaultEvaluator, pos: &Position) -> Result<(), TestCaseError> {
    let want = reference::trace(pos, eval.params());
    let score = want
        .side_to_move
        .clamp(-Score::MATE_BOUND.0 + 1, Score::MATE_BOUND.0 - 1);
    // `evaluate` first, so that it is the one to use the incremental state as it stands.
    prop_assert_eq!(
        eval.evaluate(pos),
        Score(score),
        "evaluate at {}",
        pos.fen()
    );
    let wide = eval.evaluate_bounded(pos, -Score::INFINITE, Score::INFINITE);
    prop_assert_eq!(wide, Score(score), "evaluate_bounded at {}", pos.fen());
    prop_assert_eq!(eval.trace(pos), want, "trace at {}", pos.fen());
    Ok(())
}

/// Checks `pos` with `eval` in step, then every capture from `pos` through the hooks.
fn check_with_captures(eval: &mut DefaultEvaluator, pos: &mut Position) -> usize {
    check(eval, pos).unwrap();
    let mut n = 1;
    for m in pos.legal_moves() {
        if pos.piece_at(m.to()).is_none() {
            continue;
        }
        eval.make_move(pos, m);
        let undo = pos.make_move(m);
        check(eval, pos).unwrap();
        pos.unmake_move(m, undo);
        eval.unmake_move(pos, m);
        n += 1;
    }
    n
}

/// Plays `moves` (ICCS) from `pos` with the evaluator following through the hooks, checking
/// every position on the way and every capture from it. Returns the positions checked.
fn follow(pos: &mut Position, moves: &str) -> usize {
    let mut eval = uncached();
    eval.reset(pos);
    let mut n = check_with_captures(&mut eval, pos);
    for text in moves.split_whitespace() {
        let m = pos
            .parse_uci(text)
            .unwrap_or_else(|e| panic!("{text} at {}: {e}", pos.fen()));
        eval.make_move(pos, m);
        pos.make_move(m);
        n += check_with_captures(&mut eval, pos);
    }
    n
}

#[test]
fn master_games_match_the_reference() {
    let mut n = 0;
    for line in include_str!("data/master_sample.txt").lines() {
        let moves = line.split('\t').nth(1).unwrap_or("");
        n += follow(&mut Position::startpos(), moves);
    }
    assert!(n > 100_000, "only {n} positions");
}

#[test]
fn core_test_positions_match_the_reference() {
    let fen = |fen: &str| {
        Position::from_fen_allowing(fen, Problems::all()).unwrap_or_else(|e| panic!("{fen}: {e}"))
    };
    let mut n = 0;
    for line in include_str!("../../xiangqi-core/tests/data/perft.epd").lines() {
        let f = line.split(';').next().unwrap_or("").trim();
        if !f.is_empty() && !f.starts_with('#') {
            n += follow(&mut fen(f), "");
        }
    }
    // Tab-separated tables with a header line: (file, FEN column, moves column).
    let tables = [
        (
            include_str!("../../xiangqi-core/tests/data/notation.tsv"),
            2,
            None,
        ),
        (
            include_str!("../../xiangqi-core/tests/data/gameend.tsv"),
            1,
            Some(2),
        ),
        (
            include_str!("../../xiangqi-core/tests/data/repetition_wxf.tsv"),
            1,
            Some(2),
        ),
    ];
    for (text, fen_col, moves_col) in tables {
        for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
            let cols: Vec<&str> = line.split('\t').collect();
            let moves = moves_col.map_or("", |c| cols.get(c).copied().unwrap_or(""));
            n += follow(&mut fen(cols[fen_col]), moves);
        }
    }
    assert!(n > 1_000, "only {n} positions");
}

/// A position reached by random legal moves from the start, each choice picking a move by
/// index modulo the number of legal moves.
fn playout(choices: &[u16]) -> Position {
    let mut pos = Position::startpos();
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.make_move(moves[c as usize % moves.len()]);
    }
    pos
}

/// A playout thinned out (each non-general piece removed when its bit in `mask` is set) to
/// reach endgames; `None` when that is not a legal position.
fn thinned(choices: &[u16], mask: u64) -> Option<Position> {
    let pos = playout(choices);
    let mut setup = pos.to_setup();
    for (i, (sq, p)) in pos.all_pieces().enumerate() {
        if p.role != Role::King && mask >> (i % 64) & 1 == 1 {
            setup = setup.remove(sq);
        }
    }
    Position::from_setup(&setup, Problems::empty()).ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Random middlegames and endgames, and their mirror images, evaluated from scratch and
    /// after the random legal moves that follow them (through the hooks).
    #[test]
    fn random_positions_match_the_reference(
        choices in prop::collection::vec(any::<u16>(), 0..160),
        mask in any::<u64>(),
        thin in any::<bool>(),
        after in prop::collection::vec(any::<u16>(), 0..8),
    ) {
        let Some(pos) = (if thin { thinned(&choices, mask) } else { Some(playout(&choices)) })
        else {
            return Ok(());
        };
        for mut pos in [
            pos.clone(),
            pos.swap_colors(),
            pos.flip_horizontal(),
            pos.flip_horizontal().swap_colors(),
        ] {
            check(&mut uncached(), &pos)?;
            let mut eval = uncached();
            eval.reset(&pos);
            for &c in &after {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[c as usize % moves.len()];
                eval.make_move(&pos, m);
                pos.make_move(m);
                check(&mut eval, &pos)?;
            }
        }
    }
}
