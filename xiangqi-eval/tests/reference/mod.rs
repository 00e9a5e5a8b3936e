//! A frozen copy of the default evaluator's per-call code as of commit e8ac392, before the
//! evaluation was rewritten for speed: the rewrite must return exactly the same scores.
//!
//! `board.rs`, `geometry.rs` and `terms.rs` are the old files nearly verbatim (imports
//! adjusted, the board's hooks dropped); [`trace`] is the old `DefaultEvaluator::trace` with
//! the incremental part (material, tables, phase) computed from scratch.

mod board;
mod geometry;
mod terms;

use xiangqi_core::{Color, Position};
use xiangqi_eval::{EvalParams, Trace};

/// Packs a middlegame and an endgame value into one `i32`, as the evaluator does.
const fn pack(mg: i32, eg: i32) -> i32 {
    (eg << 16).wrapping_add(mg)
}

/// The middlegame half of a packed pair.
const fn mg_of(s: i32) -> i32 {
    s as i16 as i32
}

/// The endgame half of a packed pair.
const fn eg_of(s: i32) -> i32 {
    (s.wrapping_add(0x8000) >> 16) as i16 as i32
}

/// The old `DefaultEvaluator::trace` of `pos` with parameters `params`.
pub fn trace(pos: &Position, params: &EvalParams) -> Trace {
    let mut psq = 0i32;
    let mut phase = 0;
    let mut material = 0;
    for (sq, p) in pos.all_pieces() {
        let [mg, eg] = params.piece_square(p.color, p.role, sq);
        psq = psq.wrapping_add(pack(mg, eg));
        phase += params.phase_weight[p.role.index()];
        let m = params.material[p.role.index()][0];
        material += if p.color == Color::Red { m } else { -m };
    }
    let full_phase = params.full_phase().max(1);
    let board = board::Board::from_position(pos);
    let geometry = geometry::Geometry::get();

    let (terms_mg, terms_eg) = terms::positional(pos, params, geometry, &board);
    let phase = phase.min(full_phase);
    let mg = mg_of(psq) + terms_mg;
    let eg = eg_of(psq) + terms_eg;
    let mut blended = (mg * phase + eg * (full_phase - phase)) / full_phase;
    blended += terms::trade_bonus(material, params, phase, full_phase);
    let scale = terms::endgame_scale(pos, blended);
    let red = blended * scale / 64;
    let stm = match pos.side_to_move() {
        Color::Red => red,
        Color::Black => -red,
    };
    Trace {
        psq_mg: mg_of(psq),
        psq_eg: eg_of(psq),
        terms_mg,
        terms_eg,
        phase,
        full_phase,
        blended,
        scale,
        red,
        side_to_move: stm + params.tempo,
    }
}
