//! # xiangqi-eval
//!
//! Position evaluation behind a trait: [`Evaluator`]. The search evaluates only through it,
//! so a user can plug in their own evaluation. [`Material`] is the simplest evaluator.
#![deny(missing_docs)]

mod board;
mod default;
mod geometry;
mod params;
mod score;
mod terms;

pub use default::{DefaultEvaluator, Trace};
pub use params::{half_table_index, EvalParams, HalfTable, Pair};
pub use score::Score;
use xiangqi_core::{Color, Move, Position, Role};

/// An evaluation of positions, pluggable into the search.
///
/// `evaluate` returns the score from the side to move's point of view. The hooks
/// `make_move`/`unmake_move` (and the null-move pair) let an evaluator keep incremental state
/// (an accumulator) in step with the search: the search calls [`Evaluator::reset`] with the
/// root, then `make_move(pos, m)` with the position *before* `m` just before making it,
/// and `unmake_move(pos, m)` with the position *before* `m` right after taking it back. All
/// hooks do nothing by default, so a plain evaluator implements `evaluate` alone.
///
/// Each search thread owns its own clone (`Clone + Send`); share read-only data such as
/// big tables through an `Arc` inside the evaluator.
pub trait Evaluator: Clone + Send + 'static {
    /// The score of `pos` for the side to move.
    fn evaluate(&mut self, pos: &Position) -> Score;

    /// Rebuilds incremental state for `pos` (called before each search, with the root).
    fn reset(&mut self, _pos: &Position) {}

    /// Called just before `m` is made on `pos`.
    fn make_move(&mut self, _pos: &Position, _m: Move) {}

    /// Called just after `m` was taken back; `pos` is again the position before `m`.
    fn unmake_move(&mut self, _pos: &Position, _m: Move) {}

    /// Called just before a null move (passing the turn) is made on `pos`.
    fn make_null(&mut self, _pos: &Position) {}

    /// Called just after a null move was taken back.
    fn unmake_null(&mut self, _pos: &Position) {}
}

/// Material only, with the customary values (pawn 100 before the river). Mostly an
/// example and a baseline for matches.
#[derive(Clone, Copy, Debug, Default)]
pub struct Material;

impl Material {
    /// The value of a piece of `role`.
    pub const fn value(role: Role) -> i32 {
        match role {
            Role::King => 0,
            Role::Advisor => 200,
            Role::Elephant => 200,
            Role::Horse => 400,
            Role::Chariot => 900,
            Role::Cannon => 450,
            Role::Pawn => 100,
        }
    }
}

impl Evaluator for Material {
    fn evaluate(&mut self, pos: &Position) -> Score {
        let us = pos.side_to_move();
        let mut s = 0;
        for role in Role::ALL {
            let diff = pos.count(us, role) as i32 - pos.count(us.other(), role) as i32;
            s += diff * Material::value(role);
        }
        let _ = Color::Red;
        Score(s)
    }
}
