//! A game: a start position and the moves played from it, with undo and redo.

use crate::{IllegalMove, Move, Position};

/// A game record in progress: the start position, the moves played, and the moves taken
/// back (for redo). The current position is kept up to date.
///
/// ```
/// use xiangqi_core::{Game, Position};
/// let mut game = Game::new(Position::startpos());
/// let m = game.position().parse_uci("h2e2")?;
/// game.play(m)?;
/// assert_eq!(game.moves().len(), 1);
/// game.undo();
/// assert_eq!(game.position(), &Position::startpos());
/// game.redo();
/// assert_eq!(game.moves(), &[m]);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    start: Position,
    /// positions[i] is the position before moves[i]; the last entry is the current position.
    positions: Vec<Position>,
    moves: Vec<Move>,
    redo: Vec<Move>,
}

impl Game {
    /// A game starting from `start`.
    pub fn new(start: Position) -> Game {
        Game {
            positions: vec![start.clone()],
            start,
            moves: Vec::new(),
            redo: Vec::new(),
        }
    }

    /// The position the game started from.
    pub fn start_position(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always has a position")
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position of the game: `positions()[i]` is the position before `moves()[i]`;
    /// the last one is the current position.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Plays `m` if it is legal in the current position (clearing the redo list).
    ///
    /// # Errors
    /// [`IllegalMove`] if it is not; the game is unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        let next = self.position().after(m)?;
        self.positions.push(next);
        self.moves.push(m);
        self.redo.clear();
        Ok(())
    }

    /// Takes back the last move; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        self.redo.push(m);
        Some(m)
    }

    /// Plays again the last move taken back; returns it, or `None` if there is none.
    pub fn redo(&mut self) -> Option<Move> {
        let m = self.redo.pop()?;
        let next = self.position().after(m).expect("a taken-back move is legal again");
        self.positions.push(next);
        self.moves.push(m);
        Some(m)
    }

    /// The moves that [`Game::redo`] would replay, next one last.
    pub fn redo_moves(&self) -> &[Move] {
        &self.redo
    }
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Position::startpos())
    }
}
