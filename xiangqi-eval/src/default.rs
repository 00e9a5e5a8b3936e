//! The default evaluator: tapered material and piece-square tables kept incrementally, plus
//! general safety, mobility, pawn structure and endgame knowledge computed per call.

use crate::params::EvalParams;
use crate::{terms, Evaluator, Score};
use std::sync::Arc;
use xiangqi_core::zobrist::{piece_key, side_key};
use xiangqi_core::{Color, Move, Piece, Position, Role, Square};

/// Packs a middlegame and an endgame value into one `i32` (endgame in the high half), so
/// that both are added in one instruction. The same trick as Stockfish's `Score`.
#[inline]
pub(crate) const fn pack(mg: i32, eg: i32) -> i32 {
    (eg << 16).wrapping_add(mg)
}

/// The middlegame half of a packed pair.
#[inline]
pub(crate) const fn mg_of(s: i32) -> i32 {
    s as i16 as i32
}

/// The endgame half of a packed pair.
#[inline]
pub(crate) const fn eg_of(s: i32) -> i32 {
    (s.wrapping_add(0x8000) >> 16) as i16 as i32
}

/// Tables derived from [`EvalParams`] once, shared read-only by every clone.
#[derive(Debug)]
pub(crate) struct Tables {
    pub(crate) params: EvalParams,
    /// Packed material + table value per piece index (`Piece::index`) and square, red's view.
    pub(crate) psq: [[i32; 90]; 14],
    /// Phase weight per piece index.
    pub(crate) phase: [i32; 14],
    pub(crate) full_phase: i32,
}

impl Tables {
    fn new(params: EvalParams) -> Tables {
        let mut psq = [[0; 90]; 14];
        let mut phase = [0; 14];
        for color in Color::ALL {
            for role in Role::ALL {
                let p = Piece::new(color, role);
                phase[p.index()] = params.phase_weight[role.index()];
                for sq in Square::all() {
                    let [mg, eg] = params.piece_square(color, role, sq);
                    psq[p.index()][sq.index()] = pack(mg, eg);
                }
            }
        }
        let full_phase = params.full_phase().max(1);
        Tables {
            params,
            psq,
            phase,
            full_phase,
        }
    }
}

/// The default evaluator: as strong as we could make it while staying cheap.
///
/// - Material and piece-square tables for all seven roles, middlegame and endgame values
///   blended by game phase, mirrored for black; kept **incrementally** through the
///   [`Evaluator`] hooks (O(1) per move).
/// - Per call: general safety (missing advisors and elephants against the attackers left,
///   open file, 当头炮 and 空头炮, attackers near the palace), mobility of chariots, horses
///   (blocked legs) and cannons, connected pawns and pawns at the palace, trading down when
///   ahead, and the drawish endings (a lone horse or cannon cannot mate a defended general,
///   no attacking material, chariot against chariot...).
///
/// Every parameter is in [`EvalParams`]. Cloning is cheap (the tables are shared through an
/// `Arc`); give each search thread its own clone.
///
/// The incremental state follows the position it was last reset to or moved to; if
/// `evaluate` is called with another position (say, the hooks were not called), it notices
/// by the Zobrist key and recomputes from scratch, so the answer is always right.
///
/// ```
/// use xiangqi_core::Position;
/// use xiangqi_eval::{DefaultEvaluator, Evaluator};
///
/// let mut eval = DefaultEvaluator::new();
/// let start = eval.evaluate(&Position::startpos());
/// assert!(start.0.abs() < 50);
/// // red is a chariot up (black's a9 chariot is gone)
/// let pos = Position::from_fen("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")?;
/// assert!(eval.evaluate(&pos).0 > 500);
/// # Ok::<_, xiangqi_core::FenError>(())
/// ```
#[derive(Clone, Debug)]
pub struct DefaultEvaluator {
    tables: Arc<Tables>,
    /// Packed material + tables, red's view.
    psq: i32,
    /// Current phase (sum of phase weights of the pieces on the board).
    phase: i32,
    /// Zobrist key of the position the incremental state describes.
    key: u64,
    /// Whether the state describes any position yet.
    valid: bool,
}

impl Default for DefaultEvaluator {
    fn default() -> DefaultEvaluator {
        DefaultEvaluator::new()
    }
}

/// The parts of an evaluation, red's view (positive is good for red), for tuning and for
/// explaining a score. See [`DefaultEvaluator::trace`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// Material plus piece-square tables, middlegame.
    pub psq_mg: i32,
    /// Material plus piece-square tables, endgame.
    pub psq_eg: i32,
    /// Everything else, middlegame (safety, mobility, pawns).
    pub terms_mg: i32,
    /// Everything else, endgame.
    pub terms_eg: i32,
    /// The phase: `full_phase` with all attackers on the board, 0 with none.
    pub phase: i32,
    /// The phase of the start position.
    pub full_phase: i32,
    /// The blended score before endgame scaling, red's view.
    pub blended: i32,
    /// The endgame scale applied, in 1/64ths (64 = unchanged, 0 = dead draw).
    pub scale: i32,
    /// The final score, red's view (before the tempo bonus).
    pub red: i32,
    /// The final score for the side to move (what [`Evaluator::evaluate`] returns).
    pub side_to_move: i32,
}

impl DefaultEvaluator {
    /// The default evaluator with the default (tuned) parameters.
    pub fn new() -> DefaultEvaluator {
        DefaultEvaluator::with_params(EvalParams::default())
    }

    /// A default evaluator with the given parameters.
    pub fn with_params(params: EvalParams) -> DefaultEvaluator {
        DefaultEvaluator {
            tables: Arc::new(Tables::new(params)),
            psq: 0,
            phase: 0,
            key: 0,
            valid: false,
        }
    }

    /// The parameters in use.
    pub fn params(&self) -> &EvalParams {
        &self.tables.params
    }

    /// Whether the incremental state describes `pos` as it stands, without recomputing
    /// (for tests: after the hooks were called in step with the moves, this holds and the
    /// state equals a fresh one; see [`DefaultEvaluator::state_from_scratch`]).
    pub fn in_step_with(&self, pos: &Position) -> bool {
        self.valid && self.key == pos.key()
    }

    /// The incremental state as it stands — the material and tables `[mg, eg]` (red's view)
    /// and the phase — without bringing it up to date.
    pub fn state(&self) -> ([i32; 2], i32) {
        ([mg_of(self.psq), eg_of(self.psq)], self.phase)
    }

    /// The incremental state computed from scratch for `pos` (what [`DefaultEvaluator::state`]
    /// must equal after the hooks followed the moves to `pos`).
    pub fn state_from_scratch(&self, pos: &Position) -> ([i32; 2], i32) {
        let (psq, phase) = self.scratch(pos);
        ([mg_of(psq), eg_of(psq)], phase)
    }

    /// The incremental part (material and tables, packed) and phase, computed from scratch.
    fn scratch(&self, pos: &Position) -> (i32, i32) {
        let mut psq = 0i32;
        let mut phase = 0;
        for (sq, p) in pos.all_pieces() {
            psq = psq.wrapping_add(self.tables.psq[p.index()][sq.index()]);
            phase += self.tables.phase[p.index()];
        }
        (psq, phase)
    }

    #[inline]
    fn sync(&mut self, pos: &Position) {
        if !self.valid || self.key != pos.key() {
            self.reset(pos);
        }
    }

    /// The evaluation of `pos` split into its parts. Brings the incremental state up to date
    /// with `pos` (as [`Evaluator::evaluate`] does).
    pub fn trace(&mut self, pos: &Position) -> Trace {
        self.sync(pos);
        let t = &*self.tables;
        let (terms_mg, terms_eg) = terms::positional(pos, &t.params);
        let phase = self.phase.min(t.full_phase);
        let mg = mg_of(self.psq) + terms_mg;
        let eg = eg_of(self.psq) + terms_eg;
        let mut blended = (mg * phase + eg * (t.full_phase - phase)) / t.full_phase;
        blended += terms::trade_bonus(pos, &t.params, phase, t.full_phase);
        let scale = terms::endgame_scale(pos, blended);
        let red = blended * scale / 64;
        let stm = match pos.side_to_move() {
            Color::Red => red,
            Color::Black => -red,
        };
        Trace {
            psq_mg: mg_of(self.psq),
            psq_eg: eg_of(self.psq),
            terms_mg,
            terms_eg,
            phase,
            full_phase: t.full_phase,
            blended,
            scale,
            red,
            side_to_move: stm + t.params.tempo,
        }
    }
}

impl Evaluator for DefaultEvaluator {
    #[inline]
    fn evaluate(&mut self, pos: &Position) -> Score {
        let s = self.trace(pos).side_to_move;
        // Static scores stay well inside the mate bounds.
        Score(s.clamp(-Score::MATE_BOUND.0 + 1, Score::MATE_BOUND.0 - 1))
    }

    fn reset(&mut self, pos: &Position) {
        let (psq, phase) = self.scratch(pos);
        self.psq = psq;
        self.phase = phase;
        self.key = pos.key();
        self.valid = true;
    }

    #[inline]
    fn make_move(&mut self, pos: &Position, m: Move) {
        self.sync(pos);
        let (from, to) = (m.from(), m.to());
        let Some(piece) = pos.piece_at(from) else {
            // Not a move of this position: leave the state to be rebuilt when needed.
            self.valid = false;
            return;
        };
        let t = &*self.tables;
        let pi = piece.index();
        let mut psq = self
            .psq
            .wrapping_add(t.psq[pi][to.index()])
            .wrapping_sub(t.psq[pi][from.index()]);
        let mut key = pos.key() ^ piece_key(piece, from) ^ piece_key(piece, to) ^ side_key();
        if let Some(captured) = pos.piece_at(to) {
            psq = psq.wrapping_sub(t.psq[captured.index()][to.index()]);
            self.phase -= t.phase[captured.index()];
            key ^= piece_key(captured, to);
        }
        self.psq = psq;
        self.key = key;
    }

    #[inline]
    fn unmake_move(&mut self, pos: &Position, m: Move) {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = pos.piece_at(from) else {
            self.valid = false;
            return;
        };
        let t = &*self.tables;
        let pi = piece.index();
        let mut after = pos.key() ^ piece_key(piece, from) ^ piece_key(piece, to) ^ side_key();
        let captured = pos.piece_at(to);
        if let Some(c) = captured {
            after ^= piece_key(c, to);
        }
        if !self.valid || self.key != after {
            // Out of step (the hooks were not called in pairs): rebuild lazily.
            self.valid = false;
            return;
        }
        let mut psq = self
            .psq
            .wrapping_sub(t.psq[pi][to.index()])
            .wrapping_add(t.psq[pi][from.index()]);
        if let Some(c) = captured {
            psq = psq.wrapping_add(t.psq[c.index()][to.index()]);
            self.phase += t.phase[c.index()];
        }
        self.psq = psq;
        self.key = pos.key();
    }

    #[inline]
    fn make_null(&mut self, pos: &Position) {
        self.sync(pos);
        self.key ^= side_key();
    }

    #[inline]
    fn unmake_null(&mut self, pos: &Position) {
        if self.valid && self.key == pos.key() ^ side_key() {
            self.key = pos.key();
        } else {
            self.valid = false;
        }
    }
}
