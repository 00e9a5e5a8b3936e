//! Parameters fitted by `examples/tune.rs` (generated; see [`crate::params`] for the
//! method and the data: CCPD master games, CC BY 4.0, Yu-Han Tseng & Bo-Nian Chen, 2026).
//!
//! Fit: 402667 training positions (one in 3 quiet positions from ply 12, 9 games in 10),
//! 44882 held out; K = 1.45; 2 rounds of 150 epochs plus local search.
//! Mean squared error, train 0.134142 -> 0.126109, held out 0.130878 -> 0.125329.

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
    [   0,   0,   0, -47, -41],
    [   0,   0,   0, -25, -13],
    [   0,   0,   0, -11,  19],
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
    [   0,   0,   0, -22, -20],
    [   0,   0,   0, -10,  -4],
    [   0,   0,   0,  -1,   8],
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
    [   0,   0,   0, -15,   0],
    [   0,   0,   0,   0,   8],
    [   0,   0,   0, -15,   0],
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
    [   0,   0,   0, -15,   0],
    [   0,   0,   0,   0,  -2],
    [   0,   0,   0, -24,   0],
];
#[rustfmt::skip]
pub(crate) const ELEPHANT_MG: HalfTable = [
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0, -22,   0,   0],
    [   0,   0,   0,   0,   0],
    [ -12,   0,   0,   0,   9],
    [   0,   0,   0,   0,   0],
    [   0,   0,   5,   0,   0],
];
#[rustfmt::skip]
pub(crate) const ELEPHANT_EG: HalfTable = [
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0, -14,   0,   0],
    [   0,   0,   0,   0,   0],
    [ -13,   0,   0,   0,   1],
    [   0,   0,   0,   0,   0],
    [   0,   0, -15,   0,   0],
];
#[rustfmt::skip]
pub(crate) const HORSE_MG: HalfTable = [
    [   0,  -3,   4,  12, -10],
    [   4,  14,  38,  18,  10],
    [  10,  24,  24,  29,  20],
    [   0,  30,  22,  40,  23],
    [   3,  14,  18,  42,  20],
    [   2,   6,  23,  30,  13],
    [  -1,   1,   7,   7,  14],
    [ -19,  -2, -17,   5, -12],
    [ -19,  -4,  -2, -14, -17],
    [  -8, -24,  -5, -15, -14],
];
#[rustfmt::skip]
pub(crate) const HORSE_EG: HalfTable = [
    [  -4,   0,   4,   8,   0],
    [   0,  10,  24,  16,  12],
    [   6,  14,  18,  20,  20],
    [   1,  25,  15,  27,  19],
    [   2,   9,  12,  24,  16],
    [   0,   2,  13,  16,  10],
    [  -2,   0,   3,   6,   8],
    [ -14,  -3, -15,   3,  -2],
    [ -14,  -6,  -5,  -9, -11],
    [ -12, -15,  -7, -13, -12],
];
#[rustfmt::skip]
pub(crate) const CHARIOT_MG: HalfTable = [
    [   4,  13,   7,  13,  12],
    [   6,  20,  11,  21,  14],
    [   6,  15,   8,  16,  14],
    [   8,  24,  21,  13,  17],
    [   5,  12,  10,  12,  15],
    [   5,  19,  14,  15,  14],
    [   2,  14,   4,  10,  12],
    [  -3,   1,   0,   6,   7],
    [  -8,  -2,   2,   1,   0],
    [ -29,   7,  -6,   6,   0],
];
#[rustfmt::skip]
pub(crate) const CHARIOT_EG: HalfTable = [
    [   7,  12,  10,  10,  10],
    [   8,  12,  11,  14,  12],
    [   6,  10,   8,  10,  10],
    [   7,  13,  14,  12,  11],
    [   4,   6,   6,   6,   9],
    [   1,   6,   3,   6,   6],
    [   0,   4,   3,   6,   6],
    [  -2,  -1,   1,   2,   4],
    [  -4,  -2,   0,  -1,   2],
    [  -8,  -5,  -5,  -1,   0],
];
#[rustfmt::skip]
pub(crate) const CANNON_MG: HalfTable = [
    [  19,  12,  -3,  -6,  -6],
    [   3,   5,  -2,  -5,  -6],
    [   2,   1,  -4,  -4,  -2],
    [  -2,   0,  -8,  -1,  11],
    [   0,   0,  -1,   2,  14],
    [  -3,  -6,  -5,  -2,   9],
    [   0,  -6,   2,   1,   6],
    [  -3,  -6,  13,  13,  16],
    [   3,  -2,  15,  -1,   6],
    [  -1,  -3,  -4,   2,   0],
];
#[rustfmt::skip]
pub(crate) const CANNON_EG: HalfTable = [
    [  10,   7,  -2,  -2,   0],
    [   2,   2,  -2,  -1,   0],
    [   0,   0,  -2,  -2,  -2],
    [   1,   1,   0,  -1,   5],
    [   0,   0,   0,   0,   3],
    [  -2,   0,  -2,  -2,   3],
    [   0,  -1,   2,   1,   2],
    [   1,  -2,   4,   2,  10],
    [   0,  -2,   2,  -1,   4],
    [   0,  -2,  -2,   3,   4],
];
#[rustfmt::skip]
pub(crate) const PAWN_MG: HalfTable = [
    [   0,   3,   6,   9,  12],
    [  18,  38,  58,  85, 120],
    [  14,  28,  45,  62,  82],
    [  10,  20,  38,  44,  47],
    [   3,  12,  19,  31,  32],
    [ -17,   0,  -3,   0,   9],
    [ -26,   0, -41,   0,   8],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
];
#[rustfmt::skip]
pub(crate) const PAWN_EG: HalfTable = [
    [  10,  14,  18,  22,  26],
    [  40,  60,  81, 103, 110],
    [  40,  58,  73,  86,  92],
    [  36,  50,  63,  79,  77],
    [  27,  42,  49,  64,  64],
    [ -14,   0,  -2,   0,  11],
    [ -18,   0, -15,   0,   6],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
];

/// The fitted parameters.
pub(crate) fn tuned() -> EvalParams {
    EvalParams {
        material: [
            [0, 0],
            [179, 141],
            [181, 141],
            [381, 438],
            [904, 958],
            [467, 422],
            [85, 143],
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
        phase_weight: [0, 0, 0, 2, 4, 2, 0],
        chariot_mobility: [6, 9],
        chariot_mobility_base: 8,
        horse_mobility: [16, 22],
        horse_mobility_base: 4,
        horse_blocked_leg: [0, -1],
        cannon_mobility: [2, 8],
        cannon_mobility_base: 6,
        missing_advisor_vs_chariot: 0,
        missing_advisor_vs_horse: 0,
        missing_elephant_vs_cannon: 0,
        missing_elephant_vs_chariot: 3,
        open_king_file: 57,
        central_cannon: [30, 10],
        empty_centre_cannon: [150, 0],
        cannon_on_king_file: [44, 97],
        chariot_facing_king: [89, 0],
        king_zone_attackers: [0, 23, 86, 140, 140, 140, 140, 180],
        connected_pawns: [12, 142],
        pawn_near_palace_missing_advisor: 54,
        trade_when_ahead: 68,
        tempo: 2,
    }
}
