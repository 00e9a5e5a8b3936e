//! Parameters fitted by `examples/tune.rs` (generated, then one field added by hand; see the
//! docs of `EvalParams` for the method and the data: CCPD master games, CC BY 4.0, Yu-Han
//! Tseng & Bo-Nian Chen, 2026).
//!
//! Third fit, in two runs from the second fit, on 610,242 training positions (one in 2 quiet
//! positions from ply 12, 9 games in 10) with 67,989 held out:
//! `tune GAMES --start default --rounds 1 --epochs 150 --every 2 --local-every 3`: K = 1.81,
//! held-out error 0.124777 -> 0.123914 (tables, then terms); then, with the side-cannon term
//! added by hand at [20, 10], `--epochs 0` (terms only): K = 1.96, held-out error
//! 0.123973 -> 0.123878.

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
    [   0,   0,   0, -49, -43],
    [   0,   0,   0, -30, -15],
    [   0,   0,   0, -10,  29],
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
    [   0,   0,   0, -24, -20],
    [   0,   0,   0, -13,  -2],
    [   0,   0,   0,   2,   9],
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
    [   0,   0,   0, -21,   0],
    [   0,   0,   0,   0,  11],
    [   0,   0,   0, -20,   0],
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
    [   0,   0,   0, -21,   0],
    [   0,   0,   0,   0,  -7],
    [   0,   0,   0, -38,   0],
];
#[rustfmt::skip]
pub(crate) const ELEPHANT_MG: HalfTable = [
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0, -32,   0,   0],
    [   0,   0,   0,   0,   0],
    [ -17,   0,   0,   0,  15],
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
    [ -20,   0,   0,   0,  -2],
    [   0,   0,   0,   0,   0],
    [   0,   0, -23,   0,   0],
];
#[rustfmt::skip]
pub(crate) const HORSE_MG: HalfTable = [
    [   0,  -3,   4,  12, -10],
    [   4,  16,  44,  20,  10],
    [  12,  25,  21,  30,  20],
    [  -4,  43,  15,  48,  21],
    [   3,  16,  18,  56,  24],
    [   4,   4,  31,  31,  13],
    [  -1,  -2,   5,   5,  20],
    [ -25,  -6, -19,  10, -14],
    [ -29,  -6,  -6, -20, -19],
    [  -8, -38,  -9, -23, -14],
];
#[rustfmt::skip]
pub(crate) const HORSE_EG: HalfTable = [
    [  -4,   0,   4,   8,   0],
    [   0,  12,  30,  16,  12],
    [   8,  16,  14,  20,  20],
    [  -1,  37,  10,  31,  17],
    [   2,  11,  12,  30,  18],
    [   0,   0,  16,  19,  10],
    [  -2,  -2,   1,   6,  10],
    [ -18,  -5, -24,   5,  -4],
    [ -18,  -8,  -7, -11, -13],
    [ -12, -19,  -9, -15, -12],
];
#[rustfmt::skip]
pub(crate) const CHARIOT_MG: HalfTable = [
    [   4,  19,   8,  15,  12],
    [   6,  26,  11,  22,  14],
    [   6,  17,   6,  16,  14],
    [  10,  30,  23,   7,  17],
    [   3,  12,  12,  10,  17],
    [   5,  19,  20,  18,  16],
    [   2,  18,   5,  12,  15],
    [  -5,  -2,  -2,   6,   7],
    [ -13,  -9,   2,  -5,   0],
    [ -38,   8, -10,   5,   0],
];
#[rustfmt::skip]
pub(crate) const CHARIOT_EG: HalfTable = [
    [   7,  15,  11,  10,  10],
    [   8,  14,  11,  14,  12],
    [   6,  10,   8,  10,  10],
    [   9,  17,  17,  12,  11],
    [   4,   6,   6,   5,  10],
    [   1,   8,   3,   7,   7],
    [   0,   4,   5,   8,   8],
    [  -4,  -3,   1,   0,   4],
    [  -6,  -4,   0,  -3,   2],
    [ -10,  -9,  -7,  -1,   0],
];
#[rustfmt::skip]
pub(crate) const CANNON_MG: HalfTable = [
    [  32,  20,  -6,  -8,  -6],
    [   4,   5,  -6,  -8,  -6],
    [   2,  -2, -10,  -7,  -4],
    [  -1,  -2, -19,  -5,  11],
    [   2,   0,  -1,   2,  19],
    [  -4, -11,  -9,  -6,   9],
    [  -2, -11,   4,   0,   8],
    [  -4,  -7,  18,  18,  13],
    [   9,  -3,  29,  -2,  10],
    [  -1,  -5,  -7,   4,   0],
];
#[rustfmt::skip]
pub(crate) const CANNON_EG: HalfTable = [
    [  19,  13,  -4,  -4,   0],
    [   4,   4,  -4,  -3,   0],
    [   0,  -2,  -6,  -4,  -4],
    [   2,   2,  -2,  -5,   5],
    [   0,   0,   0,   0,   3],
    [  -3,   0,  -3,  -4,   3],
    [   0,  -2,   4,   1,   4],
    [   3,  -4,   6,   1,  14],
    [   1,  -3,   4,  -1,   4],
    [   0,  -4,  -4,   3,   4],
];
#[rustfmt::skip]
pub(crate) const PAWN_MG: HalfTable = [
    [   0,   3,   6,   9,  12],
    [  18,  40,  60,  89, 120],
    [  14,  30,  47,  64,  83],
    [  10,  20,  41,  49,  51],
    [  -1,  12,  20,  42,  41],
    [ -27,   0, -14,   0,   9],
    [ -40,   0, -53,   0,   7],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
];
#[rustfmt::skip]
pub(crate) const PAWN_EG: HalfTable = [
    [  10,  14,  18,  22,  26],
    [  40,  60,  80, 104, 110],
    [  40,  59,  73,  88,  94],
    [  36,  51,  64,  86,  82],
    [  24,  43,  50,  75,  71],
    [ -24,   0,  -6,   0,  15],
    [ -31,   0, -25,   0,   5],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
    [   0,   0,   0,   0,   0],
];

/// The fitted parameters.
pub(crate) fn tuned() -> EvalParams {
    EvalParams {
        material: [
            [0, 0],
            [170, 116],
            [173, 118],
            [372, 433],
            [905, 964],
            [463, 424],
            [78, 145],
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
        horse_mobility: [11, 16],
        horse_mobility_base: 4,
        horse_blocked_leg: [0, -6],
        cannon_mobility: [3, 3],
        cannon_mobility_base: 6,
        missing_advisor_vs_chariot: 3,
        missing_advisor_vs_horse: 0,
        missing_elephant_vs_cannon: 0,
        missing_elephant_vs_chariot: 0,
        open_king_file: 31,
        central_cannon: [30, 10],
        empty_centre_cannon: [98, 0],
        cannon_on_king_file: [27, 80],
        cannon_on_king_rank: [20, 10],
        chariot_facing_king: [48, 4],
        king_zone_attackers: [0, 21, 58, 124, 140, 140, 140, 180],
        connected_pawns: [0, 67],
        pawn_near_palace_missing_advisor: 45,
        trade_when_ahead: 0,
        tempo: 4,
    }
}
