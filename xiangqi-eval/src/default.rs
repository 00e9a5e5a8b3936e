//! The default evaluator: tapered material and piece-square tables kept incrementally, plus
//! general safety, mobility, pawn structure and endgame knowledge computed per call.

use crate::board::{code, row, Board, ROWS};
use crate::geometry::Geometry;
use crate::packed::{eg_of, mg_of, pack};
use crate::params::EvalParams;
use crate::{terms, Evaluator, Score};
use core::fmt;
use core::num::NonZeroU16;
use std::sync::Arc;
use xiangqi_core::zobrist::{piece_key, side_key};
use xiangqi_core::{Color, Move, Piece, Position, Role, Square};

/// What a piece standing on a square adds to the incremental state.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct OnSquare {
    /// Its Zobrist key ([`piece_key`]), so that the hooks follow the position's key.
    key: u64,
    /// Packed material + table value, red's view.
    psq: i32,
    /// Its phase weight (the same on every square), so that a capture finds everything it
    /// takes away in one entry.
    phase: i16,
    /// Its middlegame material, red's view (negative for black; the same on every square).
    material: i16,
}

/// Tables derived from [`EvalParams`] once, shared read-only by every clone. Indexed by the
/// table row of a mailbox code ([`row`]), so that the hooks need not decode pieces.
#[derive(Debug)]
pub(crate) struct Tables {
    pub(crate) params: EvalParams,
    /// Per row and square index (128 entries, so that a move's 7-bit square indices need no
    /// bounds check).
    on_square: [[OnSquare; 128]; ROWS],
    /// Phase weight per row.
    phase: [i16; ROWS],
    /// Middlegame material per row, red's view (negative for black).
    material: [i16; ROWS],
    /// The positional terms' weights, packed.
    weights: terms::Weights,
    /// [`EvalParams::full_phase`], taken as 1 to 65,535: a divisor known to be positive
    /// and small needs no checks for zero or overflow.
    full_phase: NonZeroU16,
}

impl Tables {
    /// The phase with all attackers on the board (a divisor of the blend).
    #[inline]
    fn full_phase(&self) -> i32 {
        i32::from(self.full_phase.get())
    }

    fn new(params: EvalParams) -> Tables {
        let mut on_square = [[OnSquare::default(); 128]; ROWS];
        let mut phase = [0; ROWS];
        let mut material = [0; ROWS];
        for color in Color::ALL {
            for role in Role::ALL {
                let p = Piece::new(color, role);
                let r = row(code(p));
                phase[r] = params.phase_weight[role.index()] as i16;
                let m = params.material[role.index()][0] as i16;
                material[r] = if color == Color::Red { m } else { -m };
                for sq in Square::all() {
                    let [mg, eg] = params.piece_square(color, role, sq);
                    on_square[r][sq.index()] = OnSquare {
                        key: piece_key(p, sq),
                        psq: pack(mg, eg),
                        phase: phase[r],
                        material: material[r],
                    };
                }
            }
        }
        let full_phase = NonZeroU16::new(params.full_phase().clamp(1, u16::MAX as i32) as u16)
            .unwrap_or(NonZeroU16::MIN);
        let weights = terms::Weights::new(&params);
        Tables {
            params,
            on_square,
            phase,
            material,
            weights,
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
#[derive(Clone)]
pub struct DefaultEvaluator {
    tables: Arc<Tables>,
    /// Scores already computed, by Zobrist key: `key's high half << 32 | score as u32`.
    cache: Box<[u64]>,
    /// Material, tables, phase and key, kept in O(1) per move.
    inc: Incremental,
    /// Mailbox, bitboards by colour and role, file and rank occupancy by colour.
    board: Board,
    /// One entry per move made through the hooks and not yet taken back, a ring indexed by
    /// `depth` modulo its size: deeper lines overwrite old entries, which the checks in
    /// [`Evaluator::unmake_move`] then refuse (the state is rebuilt when next needed). Held
    /// in the evaluator itself (8 KiB), so that the hooks reach it without loading a pointer.
    undo: [Undo; UNDO_SIZE],
    /// Moves made through the hooks and not yet taken back (wrapping).
    depth: usize,
    /// Whether the state describes any position yet.
    valid: bool,
}

/// The part of the state that the hooks update by table lookups.
#[derive(Clone, Copy, Debug, Default)]
struct Incremental {
    /// Zobrist key of the position the state describes.
    key: u64,
    /// Packed material + tables, red's view.
    psq: i32,
    /// Current phase (sum of phase weights of the pieces on the board).
    phase: i16,
    /// Middlegame material, red's view (for trading down when ahead).
    material: i16,
}

/// Entries of the ring of [`Undo`]s (a power of two, above any search depth).
const UNDO_SIZE: usize = 256;

/// What [`Evaluator::unmake_move`] needs to take a move back without recomputing anything.
#[derive(Clone, Copy, Debug, Default)]
struct Undo {
    /// The state before the move.
    before: Incremental,
    /// The key after it: the state must still be there when the move is taken back.
    after_key: u64,
    /// The move as the hook made it on the evaluator's board.
    from: u8,
    to: u8,
    /// The mailbox code of the piece captured, 0 for none.
    captured: u8,
}

/// The largest swing, in centipawns, that the positional terms (everything but material,
/// piece-square tables and the trading bonus) add to the blended score, used by
/// [`Evaluator::evaluate_bounded`]. Measured over 135,472 positions (those of the master
/// sample games in the tests' data and those one capture after them): the largest
/// `max(|terms_mg|, |terms_eg|)` was 341 in game positions and 395 after a capture (98 %
/// are under 150); 450 leaves room.
pub const LAZY_MARGIN: i32 = 450;

/// A digest of the evaluator's board (bitboards, line occupancies, mailbox), to compare
/// states in tests.
fn board_digest(b: &Board) -> u128 {
    const K: u128 = 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835;
    let lines = b.lines().iter().copied();
    let mailbox = b.mailbox.iter().map(|&code| code as u16);
    b.role_sets()
        .iter()
        .copied()
        .chain(lines.chain(mailbox).map(u128::from))
        .fold(0u128, |d, x| d.wrapping_mul(K) ^ x)
}

/// Entries of the per-evaluator score cache (a power of two).
const CACHE_SIZE: usize = 1 << 13;

impl fmt::Debug for DefaultEvaluator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DefaultEvaluator")
            .field("params", &self.tables.params)
            .field("psq", &[mg_of(self.inc.psq), eg_of(self.inc.psq)])
            .field("phase", &self.inc.phase)
            .field("key", &self.inc.key)
            .finish_non_exhaustive()
    }
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
    ///
    /// Middlegame and endgame sums are packed in 16 bits each, so one side's material plus
    /// tables must stay well within ±16,000 (the defaults are about 5,000), and so must the
    /// positional terms. The phase and the material balance are kept in 16 bits too: the
    /// full phase ([`EvalParams::full_phase`]) must stay within 32,767 (the default is 32).
    pub fn with_params(params: EvalParams) -> DefaultEvaluator {
        DefaultEvaluator {
            tables: Arc::new(Tables::new(params)),
            cache: vec![0; CACHE_SIZE].into_boxed_slice(),
            inc: Incremental::default(),
            board: Board::default(),
            undo: [Undo::default(); UNDO_SIZE],
            depth: 0,
            valid: false,
        }
    }

    /// Sets the size of the score cache (scores already computed, by Zobrist key), in
    /// entries of 8 bytes, rounded down to a power of two; 0 turns it off. The default is
    /// 8192 entries (64 KiB) per evaluator, i.e. per search thread.
    pub fn set_cache_size(&mut self, entries: usize) {
        let n = if entries == 0 {
            0
        } else {
            1 << (usize::BITS - 1 - entries.leading_zeros())
        };
        self.cache = vec![0; n].into_boxed_slice();
    }

    /// The parameters in use.
    pub fn params(&self) -> &EvalParams {
        &self.tables.params
    }

    /// Whether the incremental state describes `pos` as it stands, without recomputing
    /// (for tests: after the hooks were called in step with the moves, this holds and the
    /// state equals a fresh one; see [`DefaultEvaluator::state_from_scratch`]).
    pub fn in_step_with(&self, pos: &Position) -> bool {
        self.valid && self.inc.key == pos.key()
    }

    /// The incremental state as it stands — the material and tables `[mg, eg]` (red's view),
    /// the phase, the middlegame material balance and a digest of the evaluator's own
    /// bitboards — without bringing it up to date.
    pub fn state(&self) -> ([i32; 2], i32, i32, u128) {
        (
            [mg_of(self.inc.psq), eg_of(self.inc.psq)],
            self.inc.phase.into(),
            self.inc.material.into(),
            board_digest(&self.board),
        )
    }

    /// The incremental state computed from scratch for `pos` (what [`DefaultEvaluator::state`]
    /// must equal after the hooks followed the moves to `pos`).
    pub fn state_from_scratch(&self, pos: &Position) -> ([i32; 2], i32, i32, u128) {
        let Incremental {
            psq,
            phase,
            material,
            ..
        } = self.scratch(pos);
        (
            [mg_of(psq), eg_of(psq)],
            phase.into(),
            material.into(),
            board_digest(&Board::from_position(pos)),
        )
    }

    /// The incremental part (material and tables, packed, phase, key), computed from
    /// scratch.
    fn scratch(&self, pos: &Position) -> Incremental {
        let t = &*self.tables;
        let mut inc = Incremental {
            key: pos.key(),
            ..Incremental::default()
        };
        for (sq, p) in pos.all_pieces() {
            let r = row(code(p));
            inc.psq = inc.psq.wrapping_add(t.on_square[r][sq.index()].psq);
            inc.phase += t.phase[r];
            inc.material += t.material[r];
        }
        inc
    }

    #[inline]
    fn sync(&mut self, pos: &Position) {
        if !self.valid || self.inc.key != pos.key() {
            self.reset(pos);
        }
    }

    /// The score cache's slot for `key`.
    #[inline]
    fn cache_slot(&self, key: u64) -> usize {
        key as usize & self.cache.len().wrapping_sub(1)
    }

    /// The score cached in `slot` for `key`, if any.
    #[inline]
    fn cached(&self, slot: usize, key: u64) -> Option<Score> {
        match self.cache.get(slot) {
            Some(&entry) if entry != 0 && entry >> 32 == key >> 32 => {
                Some(Score(entry as u32 as i32))
            }
            _ => None,
        }
    }

    /// The full evaluation of `pos`, stored in the score cache's `slot`.
    #[inline]
    fn evaluate_into(&mut self, pos: &Position, slot: usize) -> Score {
        // Static scores stay well inside the mate bounds.
        let s = self
            .full(pos)
            .side_to_move
            .clamp(-Score::MATE_BOUND.0 + 1, Score::MATE_BOUND.0 - 1);
        if let Some(entry) = self.cache.get_mut(slot) {
            *entry = (pos.key() >> 32) << 32 | s as u32 as u64;
        }
        Score(s)
    }

    /// The evaluation of `pos` split into its parts. Brings the incremental state up to date
    /// with `pos` (as [`Evaluator::evaluate`] does).
    pub fn trace(&mut self, pos: &Position) -> Trace {
        self.full(pos)
    }

    /// The full evaluation, inlined into [`Evaluator::evaluate`] so that the parts of the
    /// [`Trace`] it does not need are never computed.
    #[inline(always)]
    fn full(&mut self, pos: &Position) -> Trace {
        self.sync(pos);
        let t = &*self.tables;
        let terms = terms::positional(pos, &t.weights, Geometry::get(), &self.board);
        let (terms_mg, terms_eg) = (mg_of(terms), eg_of(terms));
        let phase = i32::from(self.inc.phase).min(t.full_phase());
        let mg = mg_of(self.inc.psq) + terms_mg;
        let eg = eg_of(self.inc.psq) + terms_eg;
        let mut blended = (mg * phase + eg * (t.full_phase() - phase)) / t.full_phase();
        blended += terms::trade_bonus(self.inc.material.into(), &t.params, phase, t.full_phase());
        let scale = terms::endgame_scale(pos, blended);
        // Mostly unscaled: then the product and division (with its rounding toward zero)
        // give `blended` back, and are skipped.
        let red = if scale == 64 {
            blended
        } else {
            blended * scale / 64
        };
        let stm = match pos.side_to_move() {
            Color::Red => red,
            Color::Black => -red,
        };
        Trace {
            psq_mg: mg_of(self.inc.psq),
            psq_eg: eg_of(self.inc.psq),
            terms_mg,
            terms_eg,
            phase,
            full_phase: t.full_phase(),
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
        let slot = self.cache_slot(pos.key());
        match self.cached(slot, pos.key()) {
            Some(s) => s,
            None => self.evaluate_into(pos, slot),
        }
    }

    /// Lazy evaluation: from the incremental material and tables (and the trading bonus)
    /// alone when these are more than [`LAZY_MARGIN`] outside the window, since the
    /// positional terms cannot bring the score back into it and the endgame scale only
    /// moves it toward zero; otherwise the full evaluation.
    #[inline]
    fn evaluate_bounded(&mut self, pos: &Position, alpha: Score, beta: Score) -> Score {
        let slot = self.cache_slot(pos.key());
        if let Some(s) = self.cached(slot, pos.key()) {
            return s;
        }
        self.sync(pos);
        let t = &*self.tables;
        let phase = i32::from(self.inc.phase).min(t.full_phase());
        let lazy = (mg_of(self.inc.psq) * phase + eg_of(self.inc.psq) * (t.full_phase() - phase))
            / t.full_phase()
            + terms::trade_bonus(self.inc.material.into(), &t.params, phase, t.full_phase());
        // The full score, red's view, lies in [lo, hi] (+1 for the rounding of the blend).
        let lo = (lazy - LAZY_MARGIN - 1).min(0);
        let hi = (lazy + LAZY_MARGIN + 1).max(0);
        let (lo, hi) = match pos.side_to_move() {
            Color::Red => (lo, hi),
            Color::Black => (-hi, -lo),
        };
        let bound = Score::MATE_BOUND.0 - 1;
        let lo = (lo + t.params.tempo).clamp(-bound, bound);
        let hi = (hi + t.params.tempo).clamp(-bound, bound);
        if lo >= beta.0 {
            return Score(lo);
        }
        if hi <= alpha.0 {
            return Score(hi);
        }
        self.evaluate_into(pos, slot)
    }

    fn reset(&mut self, pos: &Position) {
        self.inc = self.scratch(pos);
        self.board = Board::from_position(pos);
        self.depth = 0;
        self.valid = true;
    }

    /// Table lookups on the evaluator's own board (the key check makes it the board of
    /// `pos`), the state before the move saved for [`Evaluator::unmake_move`].
    #[inline]
    fn make_move(&mut self, pos: &Position, m: Move) {
        self.sync(pos);
        let (from, to) = (m.from().index(), m.to().index());
        let (piece, captured) = (self.board.mailbox[from], self.board.mailbox[to]);
        if piece == 0 {
            // Not a move of this position: leave the state to be rebuilt when needed.
            self.valid = false;
            return;
        }
        let t = &*self.tables;
        // The state before the move is copied as a whole, then updated in place.
        let undo = &mut self.undo[self.depth % UNDO_SIZE];
        undo.before = self.inc;
        let inc = &mut self.inc;
        let on = &t.on_square[row(piece)];
        inc.key ^= on[from].key ^ on[to].key ^ side_key();
        inc.psq = inc.psq.wrapping_add(on[to].psq).wrapping_sub(on[from].psq);
        if captured != 0 {
            let gone = &t.on_square[row(captured)][to];
            inc.key ^= gone.key;
            inc.psq = inc.psq.wrapping_sub(gone.psq);
            inc.phase -= gone.phase;
            inc.material -= gone.material;
        }
        undo.after_key = inc.key;
        undo.from = from as u8;
        undo.to = to as u8;
        undo.captured = captured;
        self.depth = self.depth.wrapping_add(1);
        self.board.make(piece, from, to, captured);
    }

    /// Restores the state saved by [`Evaluator::make_move`] when the state is still the one
    /// that move left (its key is the one the move gave); else the state is marked out of
    /// step (and rebuilt when next needed). `pos` is not compared: the state restored
    /// describes the position the move was made from, board and all, and if that is not
    /// `pos` the key check of the next hook or evaluation rebuilds it.
    #[inline]
    fn unmake_move(&mut self, _pos: &Position, _m: Move) {
        self.depth = self.depth.wrapping_sub(1);
        let u = &self.undo[self.depth % UNDO_SIZE];
        if self.valid && self.inc.key == u.after_key {
            self.board
                .unmake(u.from as usize, u.to as usize, u.captured);
            self.inc = u.before;
        } else {
            self.valid = false;
        }
    }

    #[inline]
    fn make_null(&mut self, pos: &Position) {
        self.sync(pos);
        self.inc.key ^= side_key();
    }

    #[inline]
    fn unmake_null(&mut self, pos: &Position) {
        if self.valid && self.inc.key == pos.key() ^ side_key() {
            self.inc.key = pos.key();
        } else {
            self.valid = false;
        }
    }
}
