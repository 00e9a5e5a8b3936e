//! Property tests over random playouts from the perft suite's positions.

mod common;

use common::reference;
use proptest::prelude::*;
use xiangqi_core::{Move, Position, Square};

fn suite_fens() -> Vec<String> {
    include_str!("data/perft.epd")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split(';').next().unwrap().trim().to_string())
        .collect()
}

/// A random playout: a suite position and a sequence of choices (each picks a legal move).
fn playout() -> impl Strategy<Value = (usize, Vec<u16>)> {
    (0..14usize, prop::collection::vec(any::<u16>(), 0..80))
}

/// Plays the playout, calling `check` on every position reached (and the move played next).
fn walk(start: usize, choices: &[u16], mut check: impl FnMut(&mut Position)) {
    let fens = suite_fens();
    let mut pos = Position::from_fen(&fens[start]).unwrap();
    for &c in choices {
        check(&mut pos);
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return;
        }
        let m = moves[c as usize % moves.len()];
        pos.make_move(m);
    }
    check(&mut pos);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn make_unmake_restores_everything((start, choices) in playout()) {
        walk(start, &choices, |pos| {
            let before = pos.clone();
            for m in pos.legal_moves() {
                let undo = pos.make_move(m);
                pos.unmake_move(m, undo);
                assert_eq!(*pos, before, "after make/unmake of {m}");
                assert_eq!(pos.key(), before.key());
            }
            if !pos.is_check() {
                let undo = pos.make_null();
                pos.unmake_null(undo);
                assert_eq!(*pos, before, "after a null move");
            }
        });
    }

    #[test]
    fn incremental_key_equals_key_from_scratch((start, choices) in playout()) {
        walk(start, &choices, |pos| {
            assert_eq!(pos.key(), pos.compute_key(), "{}", pos.fen());
            let reparsed = Position::from_fen(&pos.fen()).unwrap();
            assert_eq!(reparsed.key(), pos.key());
        });
    }

    #[test]
    fn fen_round_trips((start, choices) in playout()) {
        walk(start, &choices, |pos| {
            let fen = pos.fen();
            let back = Position::from_fen(&fen).unwrap();
            assert_eq!(&back, pos);
            assert_eq!(back.fen(), fen);
        });
    }

    #[test]
    fn generated_moves_equal_the_simple_model((start, choices) in playout()) {
        walk(start, &choices, |pos| {
            let mut ours: Vec<Move> = pos.legal_moves().to_vec();
            ours.sort();
            let model = reference::legal_moves(pos);
            assert_eq!(ours, model, "legal moves of {}", pos.fen());
            assert_eq!(pos.count_legal_moves(), model.len());
            assert_eq!(pos.is_check(), reference::in_check(pos, pos.side_to_move()));
            // Captures only: exactly the legal moves that land on an enemy piece.
            let mut caps: Vec<Move> = pos.legal_captures().to_vec();
            caps.sort();
            let expected: Vec<Move> = model.iter().copied().filter(|m| pos.piece_at(m.to()).is_some()).collect();
            assert_eq!(caps, expected);
            // Quiet moves only: exactly the others, in the order of the full generation.
            let mut quiets = xiangqi_core::MoveList::new();
            pos.legal_quiets_into(&mut quiets);
            let in_order: Vec<Move> = pos.legal_moves().iter().copied().filter(|m| pos.piece_at(m.to()).is_none()).collect();
            assert_eq!(quiets.to_vec(), in_order);
        });
    }

    #[test]
    fn generated_moves_are_legal_and_play_accepts_them((start, choices) in playout()) {
        walk(start, &choices, |pos| {
            let us = pos.side_to_move();
            for m in pos.legal_moves() {
                let mut after = pos.clone();
                prop_assert_eq_ok(after.play(m).is_ok(), m);
                // Our own general is not attacked and the generals do not face each other,
                // by the simple separate attack test.
                assert!(!reference::in_check(&after, us), "{m} leaves the general attacked in {}", pos.fen());
            }
        });
    }

    #[test]
    fn is_legal_agrees_with_generation_for_every_pair((start, choices) in playout()) {
        walk(start, &choices, |pos| {
            let legal = pos.legal_moves();
            for from in Square::all() {
                for to in Square::all() {
                    if let Some(m) = Move::try_new(from, to) {
                        assert_eq!(pos.is_legal(m), legal.contains(&m), "{m} in {}", pos.fen());
                    }
                }
            }
        });
    }

    #[test]
    fn illegal_play_leaves_the_position_unchanged((start, choices) in playout(), from in 0..90u8, to in 0..90u8) {
        walk(start, &choices, |pos| {
            if let Some(m) = Move::try_new(Square::new(from).unwrap(), Square::new(to).unwrap()) {
                let before = pos.clone();
                let mut p = pos.clone();
                match p.play(m) {
                    Ok(_) => assert!(before.legal_moves().contains(&m)),
                    Err(_) => assert_eq!(p, before),
                }
            }
        });
    }

    #[test]
    fn mirrored_positions_have_mirrored_moves((start, choices) in playout()) {
        walk(start, &choices, |pos| {
            let mut flipped: Vec<Move> = pos.legal_moves().iter().map(|m| m.flip_horizontal()).collect();
            flipped.sort();
            let mut theirs: Vec<Move> = pos.flip_horizontal().legal_moves().to_vec();
            theirs.sort();
            assert_eq!(flipped, theirs);
            let mut swapped: Vec<Move> = pos.legal_moves().iter().map(|m| m.flip_vertical()).collect();
            swapped.sort();
            let mut theirs: Vec<Move> = pos.swap_colors().legal_moves().to_vec();
            theirs.sort();
            assert_eq!(swapped, theirs);
        });
    }
}

fn prop_assert_eq_ok(ok: bool, m: Move) {
    assert!(ok, "play refused generated move {m}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn gives_check_agrees_with_make_and_is_check((start, choices) in playout()) {
        walk(start, &choices, |pos| {
            for m in pos.legal_moves() {
                let predicted = pos.gives_check(m);
                let undo = pos.make_move(m);
                let actual = pos.is_check();
                pos.unmake_move(m, undo);
                assert_eq!(predicted, actual, "gives_check({m}) in {}", pos.fen());
            }
        });
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// `illegal_reason` is `None` exactly for the legal moves, and its class agrees with the
    /// simple model: a piece-rule reason only for a point the piece cannot reach, a
    /// general-safety reason only for one it can (the model's own safety test then fails).
    #[test]
    fn illegal_reasons_agree_with_the_simple_model((start, choices) in playout()) {
        use xiangqi_core::IllegalReason as R;
        walk(start, &choices, |pos| {
            let board = reference::board_of(pos);
            let us = pos.side_to_move();
            for from in Square::all() {
                let (f, r) = (i32::from(from.file().index()), i32::from(from.rank().index()));
                let reach = pos.piece_at(from).map(|_| reference::destinations(&board, f, r));
                for to in Square::all() {
                    let Some(m) = Move::try_new(from, to) else { continue };
                    let reason = pos.illegal_reason(m);
                    assert_eq!(reason.is_none(), pos.is_legal(m), "{m} in {}", pos.fen());
                    let Some(reason) = reason else { continue };
                    let target = (i32::from(to.file().index()), i32::from(to.rank().index()));
                    let own = pos.piece_at(to).is_some_and(|p| p.color == us);
                    match reason {
                        R::NoPiece { .. } => assert!(reach.is_none()),
                        R::NotSideToMove { .. } => assert_ne!(pos.piece_at(from).unwrap().color, us),
                        R::OwnPiece { .. } => assert!(own),
                        R::GeneralsFace | R::IgnoresCheck | R::ExposesGeneral => {
                            assert!(reach.as_ref().unwrap().contains(&target), "{m} {reason:?} in {}", pos.fen());
                            let mut after = pos.clone();
                            after.make_move(m);
                            assert!(reference::in_check(&after, us), "{m} {reason:?} in {}", pos.fen());
                            match reason {
                                R::IgnoresCheck => assert!(pos.is_check(), "{m} in {}", pos.fen()),
                                R::ExposesGeneral => assert!(!pos.is_check(), "{m} in {}", pos.fen()),
                                _ => {}
                            }
                        }
                        _ => assert!(
                            !own && !reach.as_ref().unwrap().contains(&target),
                            "{m} {reason:?} in {}", pos.fen()
                        ),
                    }
                }
            }
        });
    }
}
