//! How the API writes moves, scores and game ends.

use serde::Serialize;
use xiangqi_core::{
    Color, GameEndReason, GameOutcome, Move, Piece, Position, RepetitionVerdict, Role, RuleSet,
};
use xiangqi_search::Score;

/// A move in the three notations.
#[derive(Clone, Debug, Serialize)]
pub struct MoveView {
    /// ICCS coordinates, `h2e2`.
    pub iccs: String,
    /// WXF, `C2.5`.
    pub wxf: String,
    /// Chinese, `炮二平五`.
    pub chinese: String,
}

impl MoveView {
    /// Move `m` of position `pos`.
    pub fn new(pos: &Position, m: Move) -> MoveView {
        MoveView {
            iccs: m.to_string(),
            wxf: pos.to_wxf(m),
            chinese: pos.to_chinese(m),
        }
    }
}

/// The moves of a line played from `pos`, each in the three notations.
pub fn line(pos: &Position, moves: &[Move]) -> Vec<MoveView> {
    let mut pos = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        if !pos.is_legal(m) {
            break;
        }
        out.push(MoveView::new(&pos, m));
        pos.make_move(m);
    }
    out
}

/// A score, from the side to move's view and from red's.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ScoreView {
    /// Centipawns for the side to move (absent for a mate score).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// Mate in this many moves: positive when the side to move mates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    /// The same as centipawns from red's point of view (mates as ±30000 minus the plies).
    pub red_cp: i32,
}

impl ScoreView {
    /// `score` for the side to move `side`.
    pub fn new(score: Score, side: Color) -> ScoreView {
        let mate = score.mate_moves();
        let sign = if side == Color::Red { 1 } else { -1 };
        ScoreView {
            cp: if mate.is_none() { Some(score.0) } else { None },
            mate,
            red_cp: sign * score.0,
        }
    }
}

/// The end of a game.
#[derive(Clone, Debug, Serialize)]
pub struct OutcomeView {
    /// `red`, `black`, or absent for a draw.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<&'static str>,
    /// `checkmate`, `stalemate`, `perpetual_check`, `perpetual_chase`,
    /// `perpetual_mate_threat`, `mixed_perpetual`, `repetition`, `move_limit` or
    /// `no_attacking_material`.
    pub reason: &'static str,
    /// For a perpetual chase: the chased piece's square at the start of the cycle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chased: Option<String>,
    /// For a perpetual chase: the chased piece by colour and role (`{"color": "black",
    /// "role": "horse"}`), so that a client names it in its own language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chased_piece: Option<PieceView>,
    /// The rule set that judged a repetition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// The verdict in words, as the core says it.
    pub text: String,
}

/// A piece by colour and role, as the API names them.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct PieceView {
    /// `red` or `black`.
    pub color: &'static str,
    /// `general`, `advisor`, `elephant`, `horse`, `chariot`, `cannon` or `pawn`.
    pub role: &'static str,
}

impl PieceView {
    /// The view of `piece`.
    pub fn new(piece: Piece) -> PieceView {
        PieceView {
            color: color_name(piece.color),
            role: match piece.role {
                Role::King => "general",
                Role::Advisor => "advisor",
                Role::Elephant => "elephant",
                Role::Horse => "horse",
                Role::Chariot => "chariot",
                Role::Cannon => "cannon",
                Role::Pawn => "pawn",
            },
        }
    }
}

/// The colour's name in the API.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

/// The API's name of why a game ended (`checkmate`, `perpetual_chase`, ...) and, for a
/// perpetual chase, the chased piece's point.
pub fn reason_code(reason: &GameEndReason) -> (&'static str, Option<String>) {
    use xiangqi_core::Violation as V;
    match reason {
        GameEndReason::Checkmate => ("checkmate", None),
        GameEndReason::Stalemate => ("stalemate", None),
        GameEndReason::MoveLimit => ("move_limit", None),
        GameEndReason::NoAttackingMaterial => ("no_attacking_material", None),
        GameEndReason::Repetition(RepetitionVerdict::Draw { .. }) => ("repetition", None),
        GameEndReason::Repetition(RepetitionVerdict::Loss {
            violation, target, ..
        }) => {
            let code = match violation {
                V::PerpetualCheck => "perpetual_check",
                V::PerpetualChase => "perpetual_chase",
                V::PerpetualMateThreat => "perpetual_mate_threat",
                V::Mixed => "mixed_perpetual",
            };
            (code, target.map(|s| s.to_string()))
        }
    }
}

impl OutcomeView {
    /// The view of `outcome`, judged under `rules`, in the game's final position `last`.
    pub fn new(outcome: &GameOutcome, rules: RuleSet, last: &Position) -> OutcomeView {
        let (reason, chased) = reason_code(&outcome.reason);
        // A repetition ends the game on the cycle's first position again, so the chased
        // piece stands on its square at the cycle's start in the final position too.
        let chased_piece = match &outcome.reason {
            GameEndReason::Repetition(RepetitionVerdict::Loss {
                target: Some(square),
                ..
            }) => last.piece_at(*square).map(PieceView::new),
            _ => None,
        };
        let by_rules =
            matches!(outcome.reason, GameEndReason::Repetition(_)).then(|| rules.to_string());
        OutcomeView {
            winner: outcome.winner.map(color_name),
            reason,
            chased,
            chased_piece,
            rules: by_rules,
            text: outcome.to_string(),
        }
    }
}
