//! The end of the game, by the rules (checkmate, stalemate, perpetual check or chase, the
//! 60-move rule, no attacking material) or by resignation.

use xiangqi::core::{Color, Game, RuleSet};

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Why, in words.
    pub reason: String,
}

impl std::fmt::Display for End {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let head = match self.winner {
            Some(Color::Red) => "红胜 red wins",
            Some(Color::Black) => "黑胜 black wins",
            None => "和棋 draw",
        };
        write!(f, "{head} — {}", self.reason)
    }
}

/// The end of `game` in its current position under `rules`, or `None` while it goes on.
pub fn outcome(game: &Game, rules: RuleSet) -> Option<End> {
    let end = game.outcome(rules)?;
    Some(End {
        winner: end.winner,
        reason: end.to_string(),
    })
}
