//! The parameters of the default evaluator, in one struct so that they can be tuned.
//!
//! # Where the starting values come from
//!
//! - **Material** starts from the values every xiangqi primer gives (chariot 9, cannon 4.5,
//!   horse 4, advisor and elephant 2, pawn 1 before the river and about 2 after it), with the
//!   endgame shift the issue asks for: the horse gains and the cannon loses value as pieces come
//!   off (the cannon needs screens, the horse needs room; both are textbook maxims, e.g.
//!   "残局马胜炮"). The values in [`EvalParams::default`] are these, refit by the logistic
//!   ("Texel") fit described below.
//! - **Piece-square tables** were first drawn by hand from well-known good squares: the horse
//!   at 卧槽 (c8/g8) and 挂角 (d9/f9), never in the palace centre (窝心马); the chariot on
//!   the river bank (巡河车) and the enemy's pawn rank, and out of its corner; the central
//!   cannon (当头炮); pawns that crossed the river, best near the enemy palace and weak on the
//!   last rank (老兵); the general at home. They were then refit, together with material, by
//!   a logistic regression of game results on the evaluation (Texel's tuning method,
//!   <https://www.chessprogramming.org/Texel%27s_Tuning_Method>) over positions from 27,704
//!   master games (1950–2013) of the *Chinese Chess Practical Dataset* (CCPD, CC BY 4.0,
//!   Yu-Han Tseng & Bo-Nian Chen, 2026), see `examples/tune.rs` in this crate.
//! - **General safety, mobility, pawn structure and endgame terms** are hand-set (see each
//!   field), from the maxims 缺士怕双车 (missing advisors fear chariots and horses), 缺象怕炮
//!   (missing elephants fear cannons), 当头炮 and 空头炮 (a cannon facing the general), and
//!   the endgame theory of which lone pieces cannot mate a defended general.
//!
//! Tables are given for red, from red's side, as *half boards*: ten rows (row 0 is the far
//! rank 9, row 9 is red's back rank 0) of five files (`a` to the centre file `e`); files `f`–`i`
//! mirror `d`–`a`. So every table is left-right symmetric by construction, and black uses the
//! same tables mirrored top-bottom: the evaluation is symmetric by construction.

use xiangqi_core::{Color, Role, Square};

/// A half-board table: `[row][file]`, row 0 = the far rank (9 for red), row 9 = the own back
/// rank; files `a`..=`e` (the centre). See the [module docs](self).
pub type HalfTable = [[i32; 5]; 10];

/// A middlegame / endgame pair of values, blended by game phase.
pub type Pair = [i32; 2];

/// Where a square falls in a [`HalfTable`] for a piece of `color`: `(row, column)`.
///
/// ```
/// use xiangqi_core::{Color, Square};
/// use xiangqi_eval::half_table_index;
/// let c8 = Square::from_iccs("c8").unwrap();
/// assert_eq!(half_table_index(Color::Red, c8), (1, 2));
/// // black's mirror square of red c8 is c1; g1 mirrors it again left-right
/// assert_eq!(half_table_index(Color::Black, Square::from_iccs("g1").unwrap()), (1, 2));
/// ```
#[inline]
pub const fn half_table_index(color: Color, square: Square) -> (usize, usize) {
    let rank = square.rank().relative_to(color) as usize;
    let file = square.file().index() as usize;
    let col = if file > 4 { 8 - file } else { file };
    (9 - rank, col)
}

/// Every parameter of [`DefaultEvaluator`](crate::DefaultEvaluator).
///
/// Values are centipawn-like (a pawn before the river is about 100). `[mg, eg]` pairs are
/// blended by game phase: `mg` counts fully with all attacking pieces on the board, `eg`
/// with none. Change any field and build an evaluator with
/// [`DefaultEvaluator::with_params`](crate::DefaultEvaluator::with_params).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// Material per role (index [`Role::index`]), `[mg, eg]`. The general's entry is unused.
    pub material: [Pair; 7],
    /// Piece-square tables, middlegame, per role (red's view, half boards).
    pub pst_mg: [HalfTable; 7],
    /// Piece-square tables, endgame, per role.
    pub pst_eg: [HalfTable; 7],
    /// Weight of each role in the game phase (the sum over the start position is the full
    /// middlegame). Only attacking pieces count: the game's stage is set by what can attack.
    pub phase_weight: [i32; 7],

    /// Per square a chariot can move to (empty or enemy), `[mg, eg]`, counted from
    /// [`EvalParams::chariot_mobility_base`].
    pub chariot_mobility: Pair,
    /// Mobility a chariot is expected to have; fewer squares cost, more gain.
    pub chariot_mobility_base: i32,
    /// Per point a horse can move to (leg free, not an own piece).
    pub horse_mobility: Pair,
    /// Mobility a horse is expected to have.
    pub horse_mobility_base: i32,
    /// Per blocked horse leg (蹩马腿), on top of lost mobility.
    pub horse_blocked_leg: Pair,
    /// Per square a cannon can move to quietly or capture on.
    pub cannon_mobility: Pair,
    /// Mobility a cannon is expected to have.
    pub cannon_mobility_base: i32,

    /// Per missing advisor, per enemy chariot (缺士怕双车).
    pub missing_advisor_vs_chariot: i32,
    /// Per missing advisor, per enemy horse.
    pub missing_advisor_vs_horse: i32,
    /// Per missing elephant, per enemy cannon (缺象怕炮).
    pub missing_elephant_vs_cannon: i32,
    /// Per missing elephant, per enemy chariot.
    pub missing_elephant_vs_chariot: i32,
    /// The general's file open (no piece at all in front of it) while the enemy has a chariot.
    pub open_king_file: i32,
    /// An enemy cannon on the general's file with exactly one piece between (当头炮).
    pub central_cannon: Pair,
    /// An enemy cannon on the general's file with nothing between (空头炮).
    pub empty_centre_cannon: Pair,
    /// An enemy cannon on the general's file with two pieces between (the opening's central
    /// cannon, pressing the central pawn and the general behind it).
    pub cannon_on_king_file: Pair,
    /// An enemy chariot on the general's file behind exactly one of the general's own pieces
    /// (it pins that piece).
    pub chariot_facing_king: Pair,
    /// Penalty by the number of enemy attackers (chariot, horse, cannon, crossed pawn) in the
    /// zone around the general (its palace and the rank in front), index = count (capped).
    pub king_zone_attackers: [i32; 8],

    /// A crossed pawn with a friendly pawn beside it on the same rank (connected pawns).
    pub connected_pawns: Pair,
    /// A crossed pawn next to or inside the enemy palace, per missing enemy advisor.
    pub pawn_near_palace_missing_advisor: i32,

    /// Trading down when ahead: the side ahead in material gets this many 1/256ths of its
    /// lead with no attacking piece left, proportionally less as the phase rises, so trading
    /// pieces when ahead pays.
    pub trade_when_ahead: i32,
    /// For the side to move.
    pub tempo: i32,
}

// The hand-drawn tables; see the module docs. Row 0 is the far rank.
#[rustfmt::skip]
const KING_MG: HalfTable = [
    [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0], [0, 0, 0, 0, 0],
    [0, 0, 0, -45, -40],
    [0, 0, 0, -20, -12],
    [0, 0, 0, -8, 6],
];
#[rustfmt::skip]
const KING_EG: HalfTable = [
    [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0], [0, 0, 0, 0, 0],
    [0, 0, 0, -20, -20],
    [0, 0, 0, -6, -6],
    [0, 0, 0, 0, 2],
];
#[rustfmt::skip]
const ADVISOR_MG: HalfTable = [
    [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0], [0, 0, 0, 0, 0],
    [0, 0, 0, -6, 0],
    [0, 0, 0, 0, 4],
    [0, 0, 0, 0, 0],
];
const ADVISOR_EG: HalfTable = ADVISOR_MG;
#[rustfmt::skip]
const ELEPHANT_MG: HalfTable = [
    [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0],
    [0, 0, -4, 0, 0],
    [0, 0, 0, 0, 0],
    [-4, 0, 0, 0, 6],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
];
const ELEPHANT_EG: HalfTable = ELEPHANT_MG;
#[rustfmt::skip]
const HORSE_MG: HalfTable = [
    [ 0, -3,  4, 12, -10],
    [ 4, 12, 30, 16,  10],
    [ 8, 24, 24, 28,  20],
    [ 6, 16, 22, 26,  24],
    [ 4, 12, 18, 20,  16],
    [ 2,  8, 14, 14,  12],
    [ 0,  4,  8,  8,   8],
    [-2,  2,  6,  2, -10],
    [-6, -2,  2, -6, -14],
    [-8, -4,  0, -6, -14],
];
#[rustfmt::skip]
const HORSE_EG: HalfTable = [
    [-4,  0,  4,  8,   0],
    [ 0,  8, 16, 16,  12],
    [ 4, 12, 18, 20,  20],
    [ 4, 12, 16, 18,  20],
    [ 2,  8, 12, 14,  14],
    [ 0,  4,  8, 10,  10],
    [-2,  2,  4,  6,   6],
    [-4,  0,  2,  2,   0],
    [-8, -4, -2, -4,  -8],
    [-12,-8, -4, -8, -12],
];
#[rustfmt::skip]
const CHARIOT_MG: HalfTable = [
    [ 4,  8,  6, 12, 12],
    [ 6, 12, 10, 16, 14],
    [ 6, 10,  8, 14, 14],
    [ 8, 14, 12, 16, 16],
    [ 8, 12, 10, 14, 14],
    [ 6, 14, 10, 14, 14],
    [ 2,  8,  4, 10, 10],
    [ 0,  6,  2,  8,  8],
    [-4,  6,  2,  8,  0],
    [-8,  4,  0,  6,  0],
];
#[rustfmt::skip]
const CHARIOT_EG: HalfTable = [
    [ 6,  8,  8, 10, 10],
    [ 8, 10, 10, 12, 12],
    [ 6,  8,  8, 10, 10],
    [ 6,  8,  8, 10, 10],
    [ 4,  6,  6,  8,  8],
    [ 2,  4,  4,  6,  6],
    [ 0,  2,  2,  4,  4],
    [ 0,  2,  2,  4,  4],
    [-2,  0,  0,  2,  2],
    [-4, -2, -2,  0,  0],
];
#[rustfmt::skip]
const CANNON_MG: HalfTable = [
    [ 6,  4,  0, -4, -6],
    [ 2,  2,  0, -4, -6],
    [ 2,  2,  0, -2, -2],
    [ 0,  0,  0,  2,  4],
    [ 0,  0,  0,  2,  6],
    [ 0,  0,  0,  2,  6],
    [ 0,  0,  0,  2,  4],
    [ 0,  2,  2,  4,  8],
    [ 0,  0,  0,  2,  4],
    [ 0,  0,  0,  0,  0],
];
#[rustfmt::skip]
const CANNON_EG: HalfTable = [
    [ 0,  0,  0,  0,  0],
    [ 0,  0,  0,  0,  0],
    [ 0,  0,  0,  0,  0],
    [ 0,  0,  0,  0,  0],
    [ 0,  0,  0,  0,  0],
    [ 0,  0,  0,  0,  0],
    [ 0,  0,  0,  0,  0],
    [ 0,  0,  0,  2,  4],
    [ 0,  0,  0,  2,  4],
    [ 0,  0,  0,  2,  4],
];
#[rustfmt::skip]
const PAWN_MG: HalfTable = [
    [ 0,  3,  6,  9, 12],
    [18, 36, 56, 80, 120],
    [14, 26, 42, 60, 80],
    [10, 20, 30, 34, 40],
    [ 6, 12, 18, 18, 20],
    [ 0,  0, -2,  0,  6],
    [ 0,  0, -2,  0,  6],
    [ 0,  0,  0,  0,  0],
    [ 0,  0,  0,  0,  0],
    [ 0,  0,  0,  0,  0],
];
#[rustfmt::skip]
const PAWN_EG: HalfTable = [
    [10, 14, 18, 22, 26],
    [40, 60, 80, 100, 110],
    [40, 56, 70, 84, 90],
    [36, 48, 56, 64, 68],
    [30, 40, 46, 50, 52],
    [ 0,  0,  0,  0,  4],
    [ 0,  0,  0,  0,  4],
    [ 0,  0,  0,  0,  0],
    [ 0,  0,  0,  0,  0],
    [ 0,  0,  0,  0,  0],
];

impl EvalParams {
    /// The hand-set starting values, before any fitting (see the module docs). Kept so that a
    /// tuning run can start from them again.
    pub fn hand_set() -> EvalParams {
        EvalParams {
            material: [
                [0, 0],
                [200, 180],
                [200, 180],
                [400, 450],
                [900, 950],
                [450, 400],
                [100, 110],
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
            chariot_mobility: [4, 4],
            chariot_mobility_base: 8,
            horse_mobility: [6, 8],
            horse_mobility_base: 4,
            horse_blocked_leg: [-4, -4],
            cannon_mobility: [2, 2],
            cannon_mobility_base: 6,
            missing_advisor_vs_chariot: 20,
            missing_advisor_vs_horse: 12,
            missing_elephant_vs_cannon: 16,
            missing_elephant_vs_chariot: 8,
            open_king_file: 30,
            central_cannon: [30, 10],
            empty_centre_cannon: [90, 30],
            cannon_on_king_file: [15, 5],
            chariot_facing_king: [20, 20],
            king_zone_attackers: [0, 0, 10, 30, 60, 100, 140, 180],
            connected_pawns: [12, 20],
            pawn_near_palace_missing_advisor: 10,
            trade_when_ahead: 24,
            tempo: 10,
        }
    }

    /// The material and tables of a piece of `role` and `color` on `square`, red's view
    /// (positive is good for red), as `[mg, eg]`.
    pub fn piece_square(&self, color: Color, role: Role, square: Square) -> Pair {
        let (row, col) = half_table_index(color, square);
        let r = role.index();
        let mg = self.material[r][0] + self.pst_mg[r][row][col];
        let eg = self.material[r][1] + self.pst_eg[r][row][col];
        match color {
            Color::Red => [mg, eg],
            Color::Black => [-mg, -eg],
        }
    }

    /// The phase of the start position: the sum of [`EvalParams::phase_weight`] over it.
    pub fn full_phase(&self) -> i32 {
        2 * Role::ALL
            .iter()
            .map(|r| self.phase_weight[r.index()] * r.max_count() as i32)
            .sum::<i32>()
    }
}

impl Default for EvalParams {
    /// The tuned values (see the module docs).
    fn default() -> EvalParams {
        EvalParams::hand_set()
    }
}
