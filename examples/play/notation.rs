//! Move text for the game: ICCS (`h2e2`), WXF (`C2.5`) and Chinese (`炮二平五`), from the
//! rules crate's notation, with a clearer reason when a coordinate move is refused.

use xiangqi::core::{Move, Position, UciMove};

/// Chinese notation (`炮二平五`, `马２进３`, `前车进一`).
pub fn to_chinese(pos: &Position, m: Move) -> String {
    pos.to_chinese(m)
}

/// WXF notation (`C2.5`, `H8+7`, `R+.3`).
pub fn to_wxf(pos: &Position, m: Move) -> String {
    pos.to_wxf(m)
}

/// Reads a move in ICCS, WXF or Chinese notation and checks that it is legal here; the
/// error says why not (for a coordinate move, the rule it breaks).
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
    let text = text.trim();
    pos.parse_move(text).map_err(|e| {
        let reason = text
            .parse::<UciMove>()
            .ok()
            .and_then(|uci| pos.illegal_reason(Move::new(uci.from, uci.to)));
        match reason {
            Some(reason) => format!("{text} is not a legal move here: {reason}"),
            None => e.to_string(),
        }
    })
}
