//! Parameters fitted by `examples/tune.rs` (generated; see [`crate::params`] for the
//! method and the data: CCPD master games, CC BY 4.0, Yu-Han Tseng & Bo-Nian Chen, 2026).
//!
//! Fit: 402667 training positions (one in 3 quiet positions from ply 12, 9 games in 10),
//! 44882 held out; K = 1.63; 1 rounds of 150 epochs plus local search.
//! Mean squared error, train 0.125847 -> 0.124580, held out 0.125328 -> 0.124049.

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
    [   0,   0,   0, -48, -42],
    [   0,   0,   0, -28, -14],
    [   0,   0,   0, -11,  24],
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
    [   0,   0,   0, -23, -20],
    [   0,   0,   0, -12,  -3],
    [   0,   0,   0,   0,   9],
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
    [   0,   0,   0, -18,   0],
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
    [   0,   0,   0, -19,   0],
    [   0,   0,   0,   0,  -4],
    [   0,   0,   0, -32,   0],
];
#[rustfmt::skip]
pub(crate) const ELEPHANT_MG: HalfTable = [
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0, -28,   0,   0],
    [   0,   0,   0,   0,   0],
    [ -15,   0,   0,   0,  13],
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
    [   0,   0, -17,   0,   0],
    [   0,   0,   0,   0,   0],
    [ -17,   0,   0,   0,  -1],
    [   0,   0,   0,   0,   0],
    [   0,   0, -20,   0,   0],
];
#[rustfmt::skip]
pub(crate) const HORSE_MG: HalfTable = [
    [   0,  -3,   4,  12, -10],
    [   4,  15,  41,  19,  10],
    [  11,  25,  23,  29,  20],
    [  -2,  37,  18,  44,  22],
    [   3,  15,  18,  50,  22],
    [   3,   5,  27,  31,  13],
    [  -1,  -1,   6,   6,  17],
    [ -22,  -4, -19,   7, -13],
    [ -24,  -5,  -4, -17, -18],
    [  -8, -31,  -7, -19, -14],
];
#[rustfmt::skip]
pub(crate) const HORSE_EG: HalfTable = [
    [  -4,   0,   4,   8,   0],
    [   0,  11,  27,  16,  12],
    [   7,  15,  16,  20,  20],
    [   0,  31,  12,  29,  18],
    [   2,  10,  12,  27,  17],
    [   0,   1,  15,  18,  10],
    [  -2,  -1,   2,   6,   9],
    [ -16,  -4, -20,   4,  -3],
    [ -16,  -7,  -6, -10, -12],
    [ -12, -17,  -8, -14, -12],
];
#[rustfmt::skip]
pub(crate) const CHARIOT_MG: HalfTable = [
    [   4,  16,   8,  14,  12],
    [   6,  23,  11,  22,  14],
    [   6,  16,   7,  16,  14],
    [   9,  28,  22,   9,  17],
    [   4,  12,  11,  11,  16],
    [   5,  20,  17,  17,  15],
    [   2,  16,   4,  11,  13],
    [  -4,  -1,  -1,   6,   7],
    [ -10,  -6,   2,  -2,   0],
    [ -35,   8,  -8,   6,   0],
];
#[rustfmt::skip]
pub(crate) const CHARIOT_EG: HalfTable = [
    [   7,  14,  11,  10,  10],
    [   8,  13,  11,  14,  12],
    [   6,  10,   8,  10,  10],
    [   8,  15,  16,  12,  11],
    [   4,   6,   6,   5,  10],
    [   1,   7,   3,   6,   7],
    [   0,   4,   4,   7,   7],
    [  -3,  -2,   1,   1,   4],
    [  -5,  -3,   0,  -2,   2],
    [  -9,  -7,  -6,  -1,   0],
];
#[rustfmt::skip]
pub(crate) const CANNON_MG: HalfTable = [
    [  26,  16,  -5,  -7,  -6],
    [   4,   5,  -4,  -6,  -6],
    [   2,   0,  -7,  -6,  -3],
    [  -2,  -1, -14,  -3,  11],
    [   1,   0,  -1,   2,  17],
    [  -4,  -9,  -7,  -4,   9],
    [  -1,  -9,   3,   1,   7],
    [  -4,  -7,  16,  16,  15],
    [   6,  -3,  23,  -2,   8],
    [  -1,  -4,  -6,   3,   0],
];
#[rustfmt::skip]
pub(crate) const CANNON_EG: HalfTable = [
    [  15,  10,  -3,  -3,   0],
    [   3,   3,  -3,  -2,   0],
    [   0,  -1,  -4,  -3,  -3],
    [   2,   1,  -1,  -3,   5],
    [   0,   0,   0,   0,   3],
    [  -3,   0,  -2,  -3,   3],
    [   0,  -1,   3,   1,   3],
    [   2,  -3,   5,   2,  12],
    [   1,  -3,   3,  -1,   4],
    [   0,  -3,  -3,   3,   4],
];
#[rustfmt::skip]
pub(crate) const PAWN_MG: HalfTable = [
    [   0,   3,   6,   9,  12],
    [  18,  39,  59,  87, 120],
    [  14,  29,  46,  63,  82],
    [  10,  20,  40,  47,  49],
    [   1,  12,  20,  37,  37],
    [ -23,   0,  -9,   0,   9],
    [ -35,   0, -49,   0,   8],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
];
#[rustfmt::skip]
pub(crate) const PAWN_EG: HalfTable = [
    [  10,  14,  18,  22,  26],
    [  40,  60,  81, 104, 110],
    [  40,  59,  73,  87,  93],
    [  36,  51,  64,  83,  80],
    [  26,  43,  50,  70,  68],
    [ -19,   0,  -5,   0,  13],
    [ -25,   0, -20,   0,   5],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
];

/// The fitted parameters.
pub(crate) fn tuned() -> EvalParams {
    EvalParams {
        material: [
            [0, 0],
            [173, 127],
            [177, 127],
            [376, 436],
            [905, 961],
            [466, 424],
            [80, 146],
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
        phase_weight: [0, 1, 0, 3, 8, 0, 0],
        chariot_mobility: [6, 7],
        chariot_mobility_base: 8,
        horse_mobility: [13, 21],
        horse_mobility_base: 4,
        horse_blocked_leg: [0, -2],
        cannon_mobility: [3, 5],
        cannon_mobility_base: 6,
        missing_advisor_vs_chariot: 0,
        missing_advisor_vs_horse: 0,
        missing_elephant_vs_cannon: 0,
        missing_elephant_vs_chariot: 4,
        open_king_file: 40,
        central_cannon: [30, 10],
        empty_centre_cannon: [150, 0],
        cannon_on_king_file: [44, 73],
        chariot_facing_king: [61, 0],
        king_zone_attackers: [0, 23, 74, 140, 140, 140, 140, 180],
        connected_pawns: [4, 98],
        pawn_near_palace_missing_advisor: 54,
        trade_when_ahead: 36,
        tempo: 3,
    }
}
