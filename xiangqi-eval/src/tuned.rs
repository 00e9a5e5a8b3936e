//! Parameters fitted by `examples/tune.rs` (generated; see [`crate::params`] for the
//! method and the data: CCPD master games, CC BY 4.0, Yu-Han Tseng & Bo-Nian Chen, 2026).
//!
//! Fit: 610242 training positions (one in 2 quiet positions from ply 12, 9 games in 10),
//! 67989 held out; K = 2.03; 1 rounds of 150 epochs plus local search.
//! Mean squared error, train 0.123775 -> 0.123292, held out 0.123934 -> 0.123478.

use crate::params::{EvalParams, HalfTable};

#[rustfmt::skip]
pub(crate) const KING_MG: HalfTable = [
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0, -51, -44],
    [   0,   0,   0, -32, -16],
    [   0,   0,   0,  -8,  33],
];
#[rustfmt::skip]
pub(crate) const KING_EG: HalfTable = [
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0, -25, -20],
    [   0,   0,   0, -14,  -1],
    [   0,   0,   0,   5,   8],
];
#[rustfmt::skip]
pub(crate) const ADVISOR_MG: HalfTable = [
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0, -23,   0],
    [   0,   0,   0,   0,  10],
    [   0,   0,   0, -19,   0],
];
#[rustfmt::skip]
pub(crate) const ADVISOR_EG: HalfTable = [
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0, -22,   0],
    [   0,   0,   0,   0, -10],
    [   0,   0,   0, -42,   0],
];
#[rustfmt::skip]
pub(crate) const ELEPHANT_MG: HalfTable = [
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0, -35,   0,   0],
    [   0,   0,   0,   0,   0],
    [ -18,   0,   0,   0,  17],
    [   0,   0,   0,   0,   0],
    [   0,   0,   6,   0,   0],
];
#[rustfmt::skip]
pub(crate) const ELEPHANT_EG: HalfTable = [
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0, -19,   0,   0],
    [   0,   0,   0,   0,   0],
    [ -22,   0,   0,   0,  -3],
    [   0,   0,   0,   0,   0],
    [   0,   0, -24,   0,   0],
];
#[rustfmt::skip]
pub(crate) const HORSE_MG: HalfTable = [
    [   0,  -3,   4,  12, -10],
    [   4,  17,  47,  21,  10],
    [  13,  26,  19,  31,  21],
    [  -6,  50,  13,  52,  19],
    [   3,  16,  18,  61,  27],
    [   5,   3,  35,  30,  14],
    [  -1,  -4,   4,   4,  23],
    [ -27,  -8, -18,  13, -15],
    [ -34,  -7,  -8, -22, -20],
    [  -8, -44, -11, -27, -14],
];
#[rustfmt::skip]
pub(crate) const HORSE_EG: HalfTable = [
    [  -4,   0,   4,   8,   0],
    [   0,  13,  32,  16,  12],
    [   9,  17,  13,  20,  20],
    [  -2,  42,   9,  32,  16],
    [   2,  11,  12,  32,  19],
    [   0,   0,  17,  20,  10],
    [  -2,  -3,   0,   6,  10],
    [ -19,  -6, -26,   6,  -4],
    [ -20,  -9,  -8, -12, -14],
    [ -12, -21, -10, -16, -12],
];
#[rustfmt::skip]
pub(crate) const CHARIOT_MG: HalfTable = [
    [   5,  22,   8,  16,  12],
    [   6,  29,  11,  22,  14],
    [   6,  18,   5,  17,  14],
    [  11,  31,  24,   7,  17],
    [   2,  12,  13,  10,  18],
    [   5,  17,  23,  19,  17],
    [   2,  19,   6,  13,  17],
    [  -7,  -4,  -3,   6,   6],
    [ -16, -12,   2,  -7,   0],
    [ -41,   5, -13,   4,   0],
];
#[rustfmt::skip]
pub(crate) const CHARIOT_EG: HalfTable = [
    [   7,  16,  11,  10,  10],
    [   8,  15,  11,  14,  12],
    [   6,  10,   8,  10,  10],
    [  10,  18,  18,  12,  11],
    [   4,   6,   6,   5,  10],
    [   1,   8,   2,   7,   7],
    [   0,   4,   6,   9,   9],
    [  -5,  -4,   1,  -1,   4],
    [  -7,  -5,   0,  -4,   2],
    [ -11, -11,  -8,  -2,   0],
];
#[rustfmt::skip]
pub(crate) const CANNON_MG: HalfTable = [
    [  38,  24,  -8,  -9,  -6],
    [   4,   5,  -8, -10,  -6],
    [   2,  -4, -13,  -9,  -5],
    [   0,  -3, -22,  -7,  11],
    [   3,   0,  -1,   2,  22],
    [  -4, -13, -10,  -8,  10],
    [  -3, -13,   5,   0,   9],
    [  -4,  -8,  19,  18,  12],
    [  12,  -4,  33,  -2,  12],
    [  -1,  -6,  -8,   5,   0],
];
#[rustfmt::skip]
pub(crate) const CANNON_EG: HalfTable = [
    [  22,  15,  -5,  -5,   0],
    [   5,   5,  -5,  -4,   0],
    [   0,  -3,  -8,  -5,  -5],
    [   2,   3,  -2,  -6,   5],
    [   0,   0,   0,   0,   3],
    [  -3,   1,  -3,  -5,   3],
    [   0,  -2,   5,   1,   4],
    [   4,  -5,   6,  -1,  15],
    [   1,  -3,   4,  -1,   4],
    [   0,  -5,  -5,   3,   4],
];
#[rustfmt::skip]
pub(crate) const PAWN_MG: HalfTable = [
    [   0,   3,   6,   9,  12],
    [  18,  41,  60,  91, 120],
    [  14,  31,  47,  65,  84],
    [  10,  20,  41,  51,  53],
    [  -3,  12,  19,  47,  45],
    [ -31,   0, -18,   0,   9],
    [ -43,   0, -55,   0,   7],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
];
#[rustfmt::skip]
pub(crate) const PAWN_EG: HalfTable = [
    [  10,  14,  18,  22,  26],
    [  40,  60,  79, 104, 110],
    [  40,  59,  73,  89,  95],
    [  36,  51,  63,  88,  84],
    [  23,  43,  50,  79,  73],
    [ -27,   0,  -7,   0,  16],
    [ -34,   0, -28,   0,   5],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
];

/// The fitted parameters.
fn tuned() -> EvalParams {
    EvalParams {
        material: [
            [0, 0],
            [168, 109],
            [171, 113],
            [369, 431],
            [904, 966],
            [458, 423],
            [77, 144],
        ],
        pst_mg: [
            KING_MG,
            ADVISOR_MG,
            ELEPHANT_MG,
            HORSE_MG,
            CHARIOT_MG,
            CANNON_MG,
            PAWN_MG,
        ],
        pst_eg: [
            KING_EG,
            ADVISOR_EG,
            ELEPHANT_EG,
            HORSE_EG,
            CHARIOT_EG,
            CANNON_EG,
            PAWN_EG,
        ],
        phase_weight: [0, 2, 0, 3, 7, 0, 0],
        chariot_mobility: [5, 7],
        chariot_mobility_base: 8,
        horse_mobility: [11, 15],
        horse_mobility_base: 4,
        horse_blocked_leg: [0, -7],
        cannon_mobility: [3, 3],
        cannon_mobility_base: 6,
        missing_advisor_vs_chariot: 6,
        missing_advisor_vs_horse: 0,
        missing_elephant_vs_cannon: 0,
        missing_elephant_vs_chariot: 0,
        open_king_file: 27,
        central_cannon: [30, 10],
        empty_centre_cannon: [95, 0],
        cannon_on_king_file: [23, 78],
        cannon_on_king_rank: [20, 10],
        chariot_facing_king: [44, 3],
        king_zone_attackers: [0, 19, 57, 116, 140, 140, 140, 180],
        connected_pawns: [0, 50],
        pawn_near_palace_missing_advisor: 46,
        trade_when_ahead: 0,
        tempo: 4,
    }
}

/// The fitted values are the default (see [`EvalParams`]).
impl Default for EvalParams {
    fn default() -> EvalParams {
        tuned()
    }
}
