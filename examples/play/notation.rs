//! Move text for the game: ICCS (`h2e2`), WXF (`C2.5`) and Chinese (`炮二平五`), from the
//! rules crate's notation, with a clearer reason when a coordinate move is refused.

use xiangqi::core::{Color, Move, Position, UciMove};

/// Chinese notation (`炮二平五`, `马２进３`, `前车进一`).
pub fn to_chinese(pos: &Position, m: Move) -> String {
    pos.to_chinese(m)
}

/// WXF notation (`C2.5`, `H8+7`, `R+.3`).
pub fn to_wxf(pos: &Position, m: Move) -> String {
    pos.to_wxf(m)
}

/// Reads a move in ICCS, WXF or Chinese notation and checks that it is legal here; the
/// error says why not.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
    let text = text.trim();
    pos.parse_move(text)
        .map_err(|e| match text.parse::<UciMove>() {
            Ok(uci) => format!("{text} is not a legal move here: {}", why_illegal(pos, uci)),
            Err(_) => e.to_string(),
        })
}

fn side_name(color: Color) -> &'static str {
    match color {
        Color::Red => "red",
        Color::Black => "black",
    }
}

/// A short reason why the well-formed coordinate move `m` is not legal in `pos`.
fn why_illegal(pos: &Position, m: UciMove) -> String {
    let Some(piece) = pos.piece_at(m.from) else {
        return format!("there is no piece on {}", m.from);
    };
    let name = piece.chinese();
    if piece.color != pos.side_to_move() {
        return format!(
            "the {name} on {} is {}'s, and it is {}'s turn",
            m.from,
            side_name(piece.color),
            side_name(pos.side_to_move())
        );
    }
    if pos.piece_at(m.to).is_some_and(|p| p.color == piece.color) {
        return format!("{} is occupied by your own piece", m.to);
    }
    if pos.is_check() {
        return format!(
            "the general is in check, and {name} {}{} does not save it",
            m.from, m.to
        );
    }
    if !pos.legal_moves().iter().any(|lm| lm.from() == m.from) {
        return format!("the {name} on {} has no legal move", m.from);
    }
    format!("the {name} on {} cannot move to {}", m.from, m.to)
}
