//! What JavaScript receives: moves in the three notations, game ends and scores, as plain
//! objects (serde through `serde-wasm-bindgen`).

use serde::Serialize;
use wasm_bindgen::JsValue;
use xiangqi_core::{GameOutcome, Move, Position, RuleSet};
use xiangqi_search::Score;

/// A move in the three notations, with the piece that moves and the one it takes.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MoveView {
    /// ICCS coordinates, `h2e2`.
    pub iccs: String,
    /// WXF, `C2.5`.
    pub wxf: String,
    /// Chinese, `炮二平五`.
    pub chinese: String,
    /// The starting point, `h2`.
    pub from: String,
    /// The destination, `e2`.
    pub to: String,
    /// The moving piece as a FEN letter (`C`: red cannon, `n`: black horse).
    pub piece: char,
    /// The piece taken, as a FEN letter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub captured: Option<char>,
}

impl MoveView {
    /// Move `m` of `pos` (legal in it).
    pub fn new(pos: &Position, m: Move) -> MoveView {
        MoveView {
            iccs: m.to_string(),
            wxf: pos.to_wxf(m),
            chinese: pos.to_chinese(m),
            from: m.from().to_string(),
            to: m.to().to_string(),
            piece: pos.piece_at(m.from()).map_or('?', |p| p.char()),
            captured: pos.piece_at(m.to()).map(|p| p.char()),
        }
    }
}

pub use xiangqi_service::view::color_name;

/// The end of a game.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct OutcomeView {
    /// `red`, `black`, or `null` for a draw.
    pub winner: Option<&'static str>,
    /// `checkmate`, `stalemate`, `perpetual_check`, `perpetual_chase`,
    /// `perpetual_mate_threat`, `mixed_perpetual`, `repetition`, `move_limit` or
    /// `no_attacking_material`.
    pub reason: &'static str,
    /// For a perpetual chase: the chased piece's point.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chased: Option<String>,
    /// The verdict in words.
    pub text: String,
}

impl OutcomeView {
    /// The view of `outcome`.
    pub fn new(outcome: &GameOutcome) -> OutcomeView {
        let (reason, chased) = xiangqi_service::view::reason_code(&outcome.reason);
        OutcomeView {
            winner: outcome.winner.map(color_name),
            reason,
            chased,
            text: outcome.to_string(),
        }
    }
}

/// A score for the side to move: centipawns, or moves to mate (negative: being mated).
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct ScoreView {
    /// Centipawns (absent for a mate score).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// Mate in this many moves, negative when the side to move is mated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
}

impl From<Score> for ScoreView {
    fn from(score: Score) -> ScoreView {
        let mate = score.mate_moves();
        ScoreView {
            cp: if mate.is_none() { Some(score.0) } else { None },
            mate,
        }
    }
}

/// The rules by name: `asian` (the default) or `chinese`.
pub fn rule_set(name: Option<String>) -> Result<RuleSet, crate::error::Error> {
    match name.as_deref().map(str::to_ascii_lowercase).as_deref() {
        None | Some("") | Some("asian") => Ok(RuleSet::Asian),
        Some("chinese") => Ok(RuleSet::Chinese),
        Some(other) => Err(crate::error::Error::new(
            "option",
            format!("unknown rules {other:?}: asian or chinese"),
        )),
    }
}

/// `value` as a JavaScript value (plain objects, `null` for `None`).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}
