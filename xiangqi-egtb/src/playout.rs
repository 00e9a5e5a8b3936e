//! Playing a table's line out in a [`Game`] until the rules end it: the check that a
//! value by the perpetual-check rule is what the repetition judge of `xiangqi-core`
//! (which knows nothing of the tables) rules at the end of the line.
//!
//! Both sides play the tables' best move ([`Tablebase::best_move`]): the winner the
//! quickest mate or the lowest rank, the loser the slowest mate or, under the rule, the
//! highest rank, so that it keeps checking for as long as the rules let it.

use crate::format::FormatError;
use crate::probe::Tablebase;
use crate::value::Dtm;
use xiangqi_core::{Color, Game, GameOutcome, Move, Position, RuleSet};

/// A line played out from a position.
#[derive(Clone, Debug)]
pub struct PlayOut {
    /// The table's value of the start position.
    pub value: Dtm,
    /// The winner the value says (`None` for a draw).
    pub expected: Option<Color>,
    /// The moves played.
    pub moves: Vec<Move>,
    /// How the rules ended the game; `None` when `max_plies` ran out first.
    pub outcome: Option<GameOutcome>,
}

impl PlayOut {
    /// Whether the rules' verdict is the table's.
    pub fn agrees(&self) -> bool {
        self.outcome
            .as_ref()
            .is_some_and(|o| o.winner == self.expected)
    }
}

/// How the losing side (or, from a draw, either side) chooses its moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Defence {
    /// The tables' best move: the slowest mate, or the highest rank under the rule.
    Best,
    /// A legal move drawn at random with this seed: the winner's strategy must win
    /// against any defence, not only the best.
    Random(u64),
}

/// Plays the tables' moves from `start` under the Asian rules until the game ends or
/// `max_plies` have been played; `None` when the start has no table or a position on
/// the way leaves the tables.
///
/// # Errors
/// When a table cannot be read.
pub fn play_out(
    tb: &Tablebase,
    start: &Position,
    max_plies: usize,
) -> Result<Option<PlayOut>, FormatError> {
    play_out_with(tb, start, max_plies, Defence::Best)
}

/// As [`play_out`], the side that does not win defending as `defence` says.
///
/// # Errors
/// When a table cannot be read.
pub fn play_out_with(
    tb: &Tablebase,
    start: &Position,
    max_plies: usize,
    defence: Defence,
) -> Result<Option<PlayOut>, FormatError> {
    let Some(value) = tb.probe_dtm(start)? else {
        return Ok(None);
    };
    let us = start.side_to_move();
    let expected = match value.wdl() {
        crate::Wdl::Win => Some(us),
        crate::Wdl::Loss => Some(us.other()),
        crate::Wdl::Draw => None,
    };
    let mut game = Game::new(start.clone());
    let mut moves = Vec::new();
    let mut outcome = game.outcome(RuleSet::Asian);
    let mut state = match defence {
        Defence::Best => 0,
        Defence::Random(seed) => seed ^ 0x2545_F491_4F6C_DD1D,
    };
    while outcome.is_none() && moves.len() < max_plies {
        let pos = game.position();
        let defending = expected != Some(pos.side_to_move());
        let m = if let (true, Defence::Random(_)) = (defending, defence) {
            // xorshift64: reproducible from the seed.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let legal = pos.legal_moves();
            if legal.is_empty() {
                return Ok(None);
            }
            legal[(state % legal.len() as u64) as usize]
        } else {
            let Some((m, _)) = tb.best_move(pos)? else {
                return Ok(None);
            };
            m
        };
        game.play(m).expect("a table's move is legal");
        moves.push(m);
        outcome = game.outcome(RuleSet::Asian);
    }
    Ok(Some(PlayOut {
        value,
        expected,
        moves,
        outcome,
    }))
}
