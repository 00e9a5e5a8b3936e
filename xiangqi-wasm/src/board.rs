//! `Board`: a game from a start position, with the moves played and the repetition judge.

use crate::error::Error;
use crate::view::{color_name, rule_set, to_js, MoveView, OutcomeView};
use wasm_bindgen::prelude::*;
use xiangqi_core::{Game, Move, NotationError, Position, Square};
use xiangqi_service::game::iccs_squares;

/// A game: a start position and the moves played from it. Moves are taken in any notation
/// (ICCS `h2e2`, WXF `C2.5`, Chinese `炮二平五`); an illegal one is refused with the rule it
/// breaks and the board stays as it was.
#[wasm_bindgen]
#[derive(Clone, Debug)]
pub struct Board {
    game: Game,
}

/// Reads a FEN; `startpos`, an empty string or nothing is the start position.
pub fn parse_fen(fen: Option<&str>) -> Result<Position, Error> {
    match fen.map(str::trim) {
        None | Some("") | Some("startpos") => Ok(Position::startpos()),
        Some(text) => Position::from_fen(text).map_err(|e| Error::new("fen", e.to_string())),
    }
}

/// Reads move text in any notation as a legal move of `pos`; a coordinate move that
/// breaks a rule gets that rule as its `reason`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, Error> {
    if let Some(m) = iccs_squares(text).and_then(|(from, to)| Move::try_new(from, to)) {
        return pos.check_legal(m).map(|()| m).map_err(|e| Error {
            kind: "illegal",
            message: format!("{} is illegal: {}", text.trim(), e.reason),
            reason: Some(e.reason.code()),
            index: None,
        });
    }
    pos.parse_move(text).map_err(|e| {
        let kind = match e {
            NotationError::NoSuchMove { .. } | NotationError::Ambiguous { .. } => "illegal",
            _ => "notation",
        };
        Error::new(kind, e.to_string())
    })
}

impl Board {
    /// The game inside.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// A board of `game`.
    pub fn from_game(game: Game) -> Board {
        Board { game }
    }

    /// Plays `text`: the move's view, or the error with the board unchanged.
    pub fn play_text(&mut self, text: &str) -> Result<MoveView, Error> {
        let pos = self.game.position();
        let m = parse_move(pos, text)?;
        let view = MoveView::new(pos, m);
        self.game
            .play(m)
            .map_err(|e| Error::new("illegal", e.to_string()))?;
        Ok(view)
    }
}

#[wasm_bindgen]
impl Board {
    /// A board at `fen` (the start position when it is left out or `startpos`).
    #[wasm_bindgen(constructor)]
    pub fn new(fen: Option<String>) -> Result<Board, JsValue> {
        Ok(Board {
            game: Game::new(parse_fen(fen.as_deref())?),
        })
    }

    /// The current position as FEN.
    pub fn fen(&self) -> String {
        self.game.position().fen()
    }

    /// The start position as FEN.
    #[wasm_bindgen(js_name = startFen)]
    pub fn start_fen(&self) -> String {
        self.game.start_position().fen()
    }

    /// The side to move: `red` or `black`.
    pub fn turn(&self) -> String {
        color_name(self.game.position().side_to_move()).to_string()
    }

    /// Whether the side to move is in check.
    #[wasm_bindgen(js_name = inCheck)]
    pub fn in_check(&self) -> bool {
        !self.game.position().checkers().is_empty()
    }

    /// The legal moves, each in the three notations.
    #[wasm_bindgen(js_name = legalMoves, unchecked_return_type = "Move[]")]
    pub fn legal_moves(&self) -> JsValue {
        let pos = self.game.position();
        let moves: Vec<MoveView> = pos
            .legal_moves()
            .into_iter()
            .map(|m| MoveView::new(pos, m))
            .collect();
        to_js(&moves)
    }

    /// The legal moves in ICCS (`h2e2`) alone (`legalMoves()` writes each in three
    /// notations).
    #[wasm_bindgen(js_name = legalMovesIccs)]
    pub fn legal_moves_iccs(&self) -> Vec<String> {
        let pos = self.game.position();
        pos.legal_moves().into_iter().map(iccs).collect()
    }

    /// The legal moves as numbers, for generating moves in bulk (a search or playouts in
    /// JavaScript): one copy out of the module instead of a string a move. Each is
    /// `from | to << 7`, a point's number being `rank * 9 + file` (`a0` = 0, `i0` = 8,
    /// `a1` = 9, `i9` = 89), so `h2e2` is `25 | 22 << 7`; `moveText(code)` writes one as
    /// text for `play()`.
    #[wasm_bindgen(js_name = legalMovesPacked)]
    pub fn legal_moves_packed(&self) -> Vec<u16> {
        let pos = self.game.position();
        pos.legal_moves().into_iter().map(Move::to_u16).collect()
    }

    /// Whether `text` (any notation) is a legal move here.
    #[wasm_bindgen(js_name = isLegal)]
    pub fn is_legal(&self, text: &str) -> bool {
        parse_move(self.game.position(), text).is_ok()
    }

    /// Plays a move given in any notation and returns it in the three notations. Throws a
    /// `XiangqiError` (kind `illegal` with the rule broken as `reason`, or `notation`) and
    /// leaves the board unchanged when it is not a legal move.
    #[wasm_bindgen(unchecked_return_type = "Move")]
    pub fn play(&mut self, text: &str) -> Result<JsValue, JsValue> {
        Ok(to_js(&self.play_text(text)?))
    }

    /// Takes the last move back; `null` at the start.
    #[wasm_bindgen(unchecked_return_type = "Move | null")]
    pub fn undo(&mut self) -> JsValue {
        match self.game.undo() {
            Some(m) => to_js(&MoveView::new(self.game.position(), m)),
            None => JsValue::NULL,
        }
    }

    /// The moves played, in ICCS.
    pub fn history(&self) -> Vec<String> {
        self.game.moves().iter().map(Move::to_string).collect()
    }

    /// The moves played, each in the three notations.
    #[wasm_bindgen(js_name = historyMoves, unchecked_return_type = "Move[]")]
    pub fn history_moves(&self) -> JsValue {
        let views: Vec<MoveView> = self
            .game
            .positions()
            .iter()
            .zip(self.game.moves())
            .map(|(p, &m)| MoveView::new(p, m))
            .collect();
        to_js(&views)
    }

    /// How the game ended by the rules (checkmate, stalemate, a repetition judged by
    /// `rules`: `asian`, the default, or `chinese`; the 60-move rule; no attacking
    /// material), or `null` while it goes on.
    #[wasm_bindgen(unchecked_return_type = "Outcome | null")]
    pub fn outcome(&self, rules: Option<String>) -> Result<JsValue, JsValue> {
        let rules = rule_set(rules)?;
        Ok(match self.game.outcome(rules) {
            Some(o) => to_js(&OutcomeView::new(&o)),
            None => JsValue::NULL,
        })
    }

    /// Leaf nodes of the legal-move tree `depth` plies deep (perft), as a number.
    pub fn perft(&self, depth: u32) -> f64 {
        self.game.position().perft(depth) as f64
    }

    /// A copy of this board.
    #[wasm_bindgen(js_name = clone)]
    pub fn copy(&self) -> Board {
        self.clone()
    }

    /// The position as a text diagram (red at the bottom, FEN letters).
    #[wasm_bindgen(js_name = toString)]
    pub fn diagram(&self) -> String {
        let fen = self.fen();
        let rows = fen.split(' ').next().unwrap_or("");
        let mut out = String::new();
        for (i, row) in rows.split('/').enumerate() {
            out.push_str(&format!("{} ", 9 - i));
            for c in row.chars() {
                match c.to_digit(10) {
                    Some(n) => (0..n).for_each(|_| out.push_str(". ")),
                    None => {
                        out.push(c);
                        out.push(' ');
                    }
                }
            }
            out.push('\n');
        }
        out.push_str("  a b c d e f g h i\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_in_every_notation_and_refusals_leave_the_board() {
        let mut b = Board {
            game: Game::new(Position::startpos()),
        };
        assert_eq!(b.play_text("h2e2").unwrap().chinese, "炮二平五");
        assert_eq!(b.play_text("马8进7").unwrap().iccs, "h9g7");
        assert_eq!(b.play_text("N2+3").unwrap().iccs, "h0g2");
        let fen = b.game.position().fen();
        let e = b.play_text("a0a2").unwrap_err();
        assert_eq!(e.kind, "illegal");
        let e = b.play_text("b9b8").unwrap_err();
        assert_eq!(e.reason, Some("horse_step"), "{e:?}");
        assert_eq!(b.play_text("zz").unwrap_err().kind, "notation");
        assert_eq!(b.game.position().fen(), fen);
        assert!(parse_fen(Some("not a fen")).is_err());
    }
}

/// A move in ICCS, written without the formatting machinery (the bulk lists call it for every
/// move).
fn iccs(m: Move) -> String {
    let point = |sq: Square| [sq.file().char(), sq.rank().char()];
    let [a, b] = point(m.from());
    let [c, d] = point(m.to());
    [a, b, c, d].iter().collect()
}

/// The ICCS text (`h2e2`) of a move number from `Board.legalMovesPacked()`.
#[wasm_bindgen(js_name = moveText)]
pub fn move_text(code: u16) -> Result<String, JsValue> {
    Move::from_u16(code)
        .map(iccs)
        .ok_or_else(|| Error::new("notation", format!("{code} is not a move number")).into())
}
