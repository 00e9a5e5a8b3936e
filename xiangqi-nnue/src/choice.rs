//! One evaluator type for the engine that can be either the hand-written evaluator or the
//! net, chosen at run time (the engine's `EvalFile` and `UseNNUE` options).

use crate::evaluator::NnueEvaluator;
use crate::layered::LayeredEvaluator;
use crate::net::Network;
use std::sync::Arc;
use xiangqi_core::{Move, Position};
use xiangqi_eval::{DefaultEvaluator, Evaluator, Score};

/// The hand-written evaluator or the net. A `match` per call, which the branch predictor
/// learns at once: the search runs one of them for its whole life.
#[derive(Clone, Debug)]
pub enum EvalChoice {
    /// [`DefaultEvaluator`], the hand-written evaluation.
    Classical(Box<DefaultEvaluator>),
    /// An [`NnueEvaluator`].
    Nnue(NnueEvaluator),
    /// A [`LayeredEvaluator`] (a net of format 3).
    Layered(LayeredEvaluator),
}

impl Default for EvalChoice {
    /// The net built into the crate: it measured stronger than the hand-written evaluator
    /// at equal time (`docs/NNUE.md`).
    fn default() -> Self {
        EvalChoice::Nnue(NnueEvaluator::new())
    }
}

impl EvalChoice {
    /// The hand-written evaluator ([`DefaultEvaluator`]).
    pub fn classical() -> Self {
        EvalChoice::Classical(Box::default())
    }

    /// The net `network` (shared, not copied, by every evaluator made from it).
    pub fn with_network(network: Arc<Network>) -> Self {
        EvalChoice::Nnue(NnueEvaluator::with_network(network))
    }
}

impl EvalChoice {
    /// Whether this is the net.
    pub fn is_nnue(&self) -> bool {
        matches!(self, EvalChoice::Nnue(_) | EvalChoice::Layered(_))
    }
}

macro_rules! forward {
    ($self:ident, $e:ident => $call:expr) => {
        match $self {
            EvalChoice::Classical($e) => $call,
            EvalChoice::Nnue($e) => $call,
            EvalChoice::Layered($e) => $call,
        }
    };
}

impl Evaluator for EvalChoice {
    #[inline]
    fn evaluate(&mut self, pos: &Position) -> Score {
        forward!(self, e => e.evaluate(pos))
    }
    fn reset(&mut self, pos: &Position) {
        forward!(self, e => e.reset(pos))
    }
    #[inline]
    fn make_move(&mut self, pos: &Position, m: Move) {
        forward!(self, e => e.make_move(pos, m))
    }
    #[inline]
    fn unmake_move(&mut self, pos: &Position, m: Move) {
        forward!(self, e => e.unmake_move(pos, m))
    }
    #[inline]
    fn make_null(&mut self, pos: &Position) {
        forward!(self, e => e.make_null(pos))
    }
    #[inline]
    fn unmake_null(&mut self, pos: &Position) {
        forward!(self, e => e.unmake_null(pos))
    }
    #[inline]
    fn evaluate_bounded(&mut self, pos: &Position, alpha: Score, beta: Score) -> Score {
        forward!(self, e => e.evaluate_bounded(pos, alpha, beta))
    }
}
