//! The terms computed per call: general safety, mobility, pawn structure, trading down and
//! endgame scaling.

use crate::params::EvalParams;
use xiangqi_core::Position;

/// Safety, mobility and pawn terms, red's view, `(mg, eg)`.
pub(crate) fn positional(_pos: &Position, _params: &EvalParams) -> (i32, i32) {
    (0, 0)
}

/// Bonus for trading down when ahead, red's view.
pub(crate) fn trade_bonus(_pos: &Position, _params: &EvalParams, _phase: i32, _full: i32) -> i32 {
    0
}

/// Scale for drawish endings in 1/64ths, given the blended score (red's view).
pub(crate) fn endgame_scale(_pos: &Position, _blended: i32) -> i32 {
    64
}
