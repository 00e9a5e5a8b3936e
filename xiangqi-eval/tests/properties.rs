//! Property tests over random positions: symmetry of every evaluator, and incremental
//! state equal to the state computed from scratch after random playouts.

use proptest::prelude::*;
use xiangqi_core::{Color, Move, Piece, Position, Problems, Role, Setup, Square};
use xiangqi_eval::{DefaultEvaluator, Evaluator, Material, Score};

/// The user evaluator of the `Evaluator` docs: material with crossed pawns, kept through
/// the hooks with a stack.
#[derive(Clone, Default)]
struct PawnsAndMaterial {
    red: i32,
    history: Vec<i32>,
}

fn value(p: Piece, sq: Square) -> i32 {
    let v = match p.role {
        Role::King => 0,
        Role::Advisor | Role::Elephant => 200,
        Role::Horse => 400,
        Role::Cannon => 450,
        Role::Chariot => 900,
        Role::Pawn if sq.on_side_of(p.color) => 100,
        Role::Pawn => 200,
    };
    if p.color == Color::Red {
        v
    } else {
        -v
    }
}

impl Evaluator for PawnsAndMaterial {
    fn evaluate(&mut self, pos: &Position) -> Score {
        match pos.side_to_move() {
            Color::Red => Score(self.red),
            Color::Black => Score(-self.red),
        }
    }
    fn reset(&mut self, pos: &Position) {
        self.history.clear();
        self.red = pos.all_pieces().map(|(sq, p)| value(p, sq)).sum();
    }
    fn make_move(&mut self, pos: &Position, m: Move) {
        self.history.push(self.red);
        let p = pos.piece_at(m.from()).expect("a piece on the from-square");
        self.red += value(p, m.to()) - value(p, m.from());
        if let Some(captured) = pos.piece_at(m.to()) {
            self.red -= value(captured, m.to());
        }
    }
    fn unmake_move(&mut self, _pos: &Position, _m: Move) {
        self.red = self.history.pop().expect("make_move came first");
    }
    fn make_null(&mut self, _pos: &Position) {
        self.history.push(self.red);
    }
    fn unmake_null(&mut self, _pos: &Position) {
        self.red = self.history.pop().expect("make_null came first");
    }
}

/// Follows a random playout (null moves mixed in) with the hooks, forward and all the way
/// back, comparing the evaluator with a fresh one reset to each position.
fn check_incremental<E: Evaluator>(
    new: impl Fn() -> E,
    choices: &[u16],
    nulls: u64,
) -> Result<(), TestCaseError> {
    let mut pos = Position::startpos();
    let mut eval = new();
    eval.reset(&pos);
    let fresh = |pos: &Position| {
        let mut e = new();
        e.reset(pos);
        e.evaluate(pos)
    };
    let mut stack = Vec::new();
    for (i, &c) in choices.iter().enumerate() {
        if nulls >> (i % 64) & 1 == 1 && !pos.is_check() {
            eval.make_null(&pos);
            let undo = pos.make_null();
            stack.push((None, undo));
        } else {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[c as usize % moves.len()];
            eval.make_move(&pos, m);
            let undo = pos.make_move(m);
            stack.push((Some(m), undo));
        }
        prop_assert_eq!(eval.evaluate(&pos), fresh(&pos), "forward at {}", pos.fen());
    }
    while let Some((m, undo)) = stack.pop() {
        match m {
            Some(m) => {
                pos.unmake_move(m, undo);
                eval.unmake_move(&pos, m);
            }
            None => {
                pos.unmake_null(undo);
                eval.unmake_null(&pos);
            }
        }
        prop_assert_eq!(eval.evaluate(&pos), fresh(&pos), "back at {}", pos.fen());
    }
    Ok(())
}

/// A position reached by `choices.len()` random legal moves from the start (fewer if the game
/// ends), each choice picking a move by index modulo the number of legal moves.
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

/// A random playout position thinned out: each non-general piece is removed when its bit in
/// `mask` is set, to reach endgames. `None` when the result is not a legal position (say the
/// side not to move is in check, or the generals face each other).
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

fn random_position() -> impl Strategy<Value = Position> {
    (
        prop::collection::vec(any::<u16>(), 0..160),
        any::<u64>(),
        any::<bool>(),
    )
        .prop_filter_map("illegal thinned setup", |(choices, mask, thin)| {
            if thin {
                thinned(&choices, mask)
            } else {
                Some(playout(&choices))
            }
        })
}

fn check_symmetry<E: Evaluator>(eval: &mut E, pos: &Position) -> Result<(), TestCaseError> {
    let s = eval.evaluate(pos);
    let swapped = pos.swap_colors();
    prop_assert_eq!(s, eval.evaluate(&swapped), "colour swap of {}", pos.fen());
    let mirrored = pos.flip_horizontal();
    prop_assert_eq!(
        s,
        eval.evaluate(&mirrored),
        "left-right mirror of {}",
        pos.fen()
    );
    prop_assert_eq!(
        s,
        eval.evaluate(&mirrored.swap_colors()),
        "both mirrors of {}",
        pos.fen()
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn default_evaluator_is_symmetric(pos in random_position()) {
        check_symmetry(&mut DefaultEvaluator::new(), &pos)?;
    }

    #[test]
    fn material_evaluator_is_symmetric(pos in random_position()) {
        check_symmetry(&mut Material, &pos)?;
    }

    /// The lazy (bounded) evaluation is never on the wrong side of the window compared
    /// with the full evaluation, and equals it inside the window; the incremental state is
    /// followed through a playout so that the lazy path sees real incremental state.
    #[test]
    fn bounded_evaluation_is_on_the_right_side(
        choices in prop::collection::vec(any::<u16>(), 1..120),
        centre in -1500i32..1500,
        width in 1i32..400,
    ) {
        let mut pos = Position::startpos();
        let mut lazy = DefaultEvaluator::new();
        lazy.reset(&pos);
        for &c in &choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[c as usize % moves.len()];
            lazy.make_move(&pos, m);
            pos.make_move(m);
            // A fresh evaluator for the truth, so that the lazy one's cache stays cold.
            let full = DefaultEvaluator::new().evaluate(&pos).0;
            let (alpha, beta) = (centre - width, centre + width);
            let b = lazy.evaluate_bounded(&pos, Score(alpha), Score(beta)).0;
            if b >= beta {
                prop_assert!(full >= b, "{}: bound {b} >= beta {beta} but full {full}", pos.fen());
            } else if b <= alpha {
                prop_assert!(full <= b, "{}: bound {b} <= alpha {alpha} but full {full}", pos.fen());
            } else {
                prop_assert_eq!(b, full, "{}", pos.fen());
            }
        }
    }

    /// The hooks followed along a random playout (with null moves mixed in) keep the state
    /// equal to the state computed from scratch, going forward and all the way back.
    #[test]
    fn incremental_equals_scratch(
        choices in prop::collection::vec(any::<u16>(), 1..200),
        nulls in any::<u64>(),
    ) {
        let mut pos = Position::startpos();
        let mut eval = DefaultEvaluator::new();
        eval.reset(&pos);
        let mut stack = Vec::new();
        for (i, &c) in choices.iter().enumerate() {
            if nulls >> (i % 64) & 1 == 1 && !pos.is_check() {
                eval.make_null(&pos);
                let undo = pos.make_null();
                stack.push((None, undo));
            } else {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[c as usize % moves.len()];
                eval.make_move(&pos, m);
                let undo = pos.make_move(m);
                stack.push((Some(m), undo));
            }
            prop_assert!(eval.in_step_with(&pos));
            prop_assert_eq!(eval.state(), eval.state_from_scratch(&pos), "at {}", pos.fen());
            let fresh = DefaultEvaluator::new().evaluate(&pos);
            prop_assert_eq!(eval.evaluate(&pos), fresh);
        }
        while let Some((m, undo)) = stack.pop() {
            match m {
                Some(m) => {
                    pos.unmake_move(m, undo);
                    eval.unmake_move(&pos, m);
                }
                None => {
                    pos.unmake_null(undo);
                    eval.unmake_null(&pos);
                }
            }
            prop_assert!(eval.in_step_with(&pos));
            prop_assert_eq!(eval.state(), eval.state_from_scratch(&pos), "at {}", pos.fen());
        }
    }

    /// The same for every hook-using evaluator, through `evaluate` alone.
    #[test]
    fn every_hook_using_evaluator_follows_the_moves(
        choices in prop::collection::vec(any::<u16>(), 1..150),
        nulls in any::<u64>(),
    ) {
        check_incremental(DefaultEvaluator::new, &choices, nulls)?;
        check_incremental(|| {
            // No score cache: every answer comes from the incremental state.
            let mut e = DefaultEvaluator::new();
            e.set_cache_size(0);
            e
        }, &choices, nulls)?;
        check_incremental(PawnsAndMaterial::default, &choices, nulls)?;
        check_incremental(|| Material, &choices, nulls)?;
    }

    /// Without hooks (or with the hooks called out of step) the evaluator still returns the
    /// right score: it notices the position changed and rebuilds its state.
    #[test]
    fn evaluate_without_hooks_is_right(a in random_position(), b in random_position()) {
        let mut eval = DefaultEvaluator::new();
        eval.reset(&a);
        let fresh = DefaultEvaluator::new().evaluate(&b);
        prop_assert_eq!(eval.evaluate(&b), fresh);
    }
}

proptest! {
    /// A search-like walk (down a random move or back up), each hook call skipped when its
    /// bit in `skips` is set: the evaluator must notice whenever it is out of step, so that
    /// every score equals a fresh evaluator's.
    #[test]
    fn skipped_hooks_never_give_a_wrong_score(
        steps in prop::collection::vec((any::<u16>(), any::<bool>()), 1..300),
        skips in any::<u64>(),
    ) {
        let mut pos = Position::startpos();
        let mut eval = DefaultEvaluator::new();
        eval.set_cache_size(0);
        eval.reset(&pos);
        let mut stack = Vec::new();
        for (i, &(c, down)) in steps.iter().enumerate() {
            let call = skips >> (i % 64) & 1 == 0;
            if down || stack.is_empty() {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[c as usize % moves.len()];
                if call {
                    eval.make_move(&pos, m);
                }
                stack.push((m, pos.make_move(m)));
            } else if let Some((m, undo)) = stack.pop() {
                pos.unmake_move(m, undo);
                if call {
                    eval.unmake_move(&pos, m);
                }
            }
            let fresh = DefaultEvaluator::new().evaluate(&pos);
            prop_assert_eq!(eval.evaluate(&pos), fresh, "at {}", pos.fen());
        }
    }
}

/// A line longer than the evaluator's record of moves to take back (so that the oldest
/// records are overwritten; the horses shuffle, so positions recur), followed with the hooks
/// all the way down and back.
#[test]
fn long_lines_are_followed_back() {
    let mut pos = Position::startpos();
    let mut eval = DefaultEvaluator::new();
    eval.set_cache_size(0);
    eval.reset(&pos);
    let mut stack = Vec::new();
    let shuffle = [
        "h0g2", "h9g7", "g2h0", "g7h9", "b0c2", "b9c7", "c2b0", "c7b9",
    ];
    for text in shuffle.iter().cycle().take(601) {
        let m = pos.parse_uci(text).unwrap();
        eval.make_move(&pos, m);
        stack.push((m, pos.make_move(m)));
        assert!(eval.in_step_with(&pos));
    }
    while let Some((m, undo)) = stack.pop() {
        pos.unmake_move(m, undo);
        eval.unmake_move(&pos, m);
        let fresh = DefaultEvaluator::new().evaluate(&pos);
        assert_eq!(eval.evaluate(&pos), fresh, "at {}", pos.fen());
        assert_eq!(eval.state(), eval.state_from_scratch(&pos));
    }
}

/// `Setup` is used above only through `to_setup`; make sure an emptied board with two
/// generals is also handled (the smallest endgame).
#[test]
fn bare_generals() {
    let setup = Setup::empty()
        .put(
            xiangqi_core::Square::from_iccs("d0").unwrap(),
            xiangqi_core::Piece::new(Color::Red, Role::King),
        )
        .put(
            xiangqi_core::Square::from_iccs("e9").unwrap(),
            xiangqi_core::Piece::new(Color::Black, Role::King),
        );
    let pos = Position::from_setup(&setup, Problems::empty()).unwrap();
    let s = DefaultEvaluator::new().evaluate(&pos);
    assert!(s.0.abs() <= 20, "{s}");
}
