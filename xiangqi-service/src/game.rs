//! The game a request carries: a start FEN (or `startpos`) and its moves in any notation,
//! replayed into a [`Game`] with every problem named by its field.

use crate::error::ApiError;
use crate::limits::RequestLimits;
use serde::{Deserialize, Serialize};
use xiangqi_core::{Game, Move, Position, RuleSet, Square};

/// The game part of every position and engine request.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct GameInput {
    /// The start position as FEN, or `startpos` (the default).
    #[serde(default)]
    pub fen: Option<String>,
    /// The moves played from it, in ICCS (`h2e2`), WXF (`C2.5`) or Chinese (`炮二平五`).
    #[serde(default)]
    pub moves: Vec<String>,
    /// The rules that judge repetitions: `asian` (the default) or `chinese`.
    #[serde(default)]
    pub rules: Rules,
}

/// Which rule book judges repetitions, as the API names it.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Rules {
    /// AXF/WXF rules.
    #[default]
    Asian,
    /// CXA 1999 rules.
    Chinese,
}

impl From<Rules> for RuleSet {
    fn from(r: Rules) -> RuleSet {
        match r {
            Rules::Asian => RuleSet::Asian,
            Rules::Chinese => RuleSet::Chinese,
        }
    }
}

/// Reads a FEN or `startpos` (also an empty string).
pub fn parse_fen(fen: Option<&str>, field: &str) -> Result<Position, ApiError> {
    match fen.map(str::trim) {
        None | Some("") | Some("startpos") => Ok(Position::startpos()),
        Some(text) => Position::from_fen(text)
            .map_err(|e| ApiError::invalid("bad_fen", field, e.to_string()).fen_problem(&e)),
    }
}

/// Reads move text in any notation as a legal move of `pos`; an illegal coordinate move
/// gets the reason it is illegal.
pub fn parse_move(pos: &Position, text: &str, index: usize) -> Result<Move, ApiError> {
    parse_move_in(pos, text, index, format!("moves[{index}]"))
}

/// [`parse_move`] for move `index` of a list named by `field` (`tree[3].move`).
pub fn parse_move_in(
    pos: &Position,
    text: &str,
    index: usize,
    field: String,
) -> Result<Move, ApiError> {
    // A "move" from a point to itself is no move: the notation reader refuses it below.
    if let Some(m) = iccs_squares(text).and_then(|(from, to)| Move::try_new(from, to)) {
        return pos.check_legal(m).map(|()| m).map_err(|e| {
            ApiError::invalid(
                "illegal_move",
                field,
                format!("move {index} ({}) is illegal: {}", text.trim(), e.reason),
            )
            .index(index)
            .reason(e.reason)
        });
    }
    pos.parse_move(text).map_err(|e| {
        use xiangqi_core::NotationError as N;
        let code = match e {
            N::NoSuchMove { .. } => "illegal_move",
            N::Ambiguous { .. } => "ambiguous_move",
            N::Empty | N::Syntax { .. } => "bad_notation",
        };
        ApiError::invalid(code, field, format!("move {index}: {e}")).index(index)
    })
}

/// The two squares of coordinate text (`h2e2`, `H2-E2`), if it is that: how a move that is
/// not legal is recognised as one meant on the board, to say why it is refused.
pub fn iccs_squares(text: &str) -> Option<(Square, Square)> {
    let compact: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect();
    if compact.len() != 4 || !compact.is_ascii() {
        return None;
    }
    Some((
        Square::from_iccs(&compact[..2])?,
        Square::from_iccs(&compact[2..])?,
    ))
}

impl GameInput {
    /// The game: the start position with every move played, checked against `limits`.
    pub fn build(&self, limits: &RequestLimits) -> Result<Game, ApiError> {
        if self.moves.len() > limits.max_moves {
            return Err(ApiError::over_limit(
                "moves",
                format!("{} moves long", self.moves.len()),
                limits.max_moves,
            ));
        }
        let mut game = Game::new(parse_fen(self.fen.as_deref(), "fen")?);
        for (i, text) in self.moves.iter().enumerate() {
            let m = parse_move(game.position(), text, i)?;
            game.play(m).map_err(|e| {
                ApiError::invalid("illegal_move", format!("moves[{i}]"), e.to_string()).index(i)
            })?;
        }
        Ok(game)
    }

    /// The rule set to judge repetitions by.
    pub fn rule_set(&self) -> RuleSet {
        self.rules.into()
    }
}
