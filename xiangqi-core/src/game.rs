//! A game: a start position and the moves played from it, with undo and redo, and the
//! end of the game by the tournament rules (board, repetition, move limit, material).

use crate::rules::{judge_repetition, RepetitionVerdict, RuleSet};
use crate::{Color, EndReason, IllegalMove, Move, Position, Role};
use alloc::{vec, vec::Vec};
use core::fmt;

/// Plies without a capture after which the game is drawn (60 moves, CXA 4.2.4).
pub const MOVE_LIMIT_PLIES: u32 = 120;

/// Checks per side, counted since the last capture, that count towards the move limit;
/// later checks do not (as Pikafish counts them).
pub const COUNTED_CHECKS: u32 = 10;

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
    /// `positions[i]` is the position before `moves[i]`; the last entry is the current position.
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
        let next = self
            .position()
            .after(m)
            .expect("a taken-back move is legal again");
        self.positions.push(next);
        self.moves.push(m);
        Some(m)
    }

    /// The moves that [`Game::redo`] would replay, next one last.
    pub fn redo_moves(&self) -> &[Move] {
        &self.redo
    }
}

impl Game {
    /// The game's end by the rules so far, or `None` while it goes on.
    ///
    /// In order: checkmate and stalemate (the side to move loses); a position that has
    /// occurred for the third time, judged by [`judge_repetition`] over the moves since its
    /// first occurrence; the 60-move rule ([`Game::plies_toward_move_limit`] reaching
    /// [`MOVE_LIMIT_PLIES`]); and neither side having a chariot, horse, cannon or pawn (no
    /// piece can cross the river to attack).
    ///
    /// ```
    /// use xiangqi_core::{Color, Game, Position, RuleSet};
    /// let mut game = Game::new(Position::from_fen("3k5/9/9/9/9/9/9/9/R8/5K3 w - - 0 1")?);
    /// for text in ["a1a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8", "a9a8", "d8d9", "a8a9"] {
    ///     let m = game.position().parse_uci(text)?;
    ///     game.play(m)?;
    /// }
    /// let end = game.outcome(RuleSet::Asian).unwrap();
    /// assert_eq!(end.winner, Some(Color::Black));
    /// assert!(end.to_string().contains("perpetual check"));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn outcome(&self, rules: RuleSet) -> Option<GameOutcome> {
        let pos = self.position();
        if let Some(board) = pos.outcome() {
            let reason = match board.reason {
                EndReason::Checkmate => GameEndReason::Checkmate,
                EndReason::Stalemate => GameEndReason::Stalemate,
            };
            return Some(GameOutcome {
                winner: Some(board.winner),
                reason,
            });
        }
        if let Some(first) = self.third_occurrence_start() {
            let verdict = judge_repetition(&self.positions[first], &self.moves[first..], rules);
            return Some(GameOutcome {
                winner: verdict.loser().map(Color::other),
                reason: GameEndReason::Repetition(verdict),
            });
        }
        if self.plies_toward_move_limit() >= MOVE_LIMIT_PLIES {
            return Some(GameOutcome {
                winner: None,
                reason: GameEndReason::MoveLimit,
            });
        }
        let attackers = |c: Color| {
            [Role::Chariot, Role::Horse, Role::Cannon, Role::Pawn]
                .iter()
                .any(|&r| pos.count(c, r) > 0)
        };
        if !attackers(Color::Red) && !attackers(Color::Black) {
            return Some(GameOutcome {
                winner: None,
                reason: GameEndReason::NoAttackingMaterial,
            });
        }
        None
    }

    /// The index in [`Game::positions`] of the first of three occurrences of the current
    /// position, when it has occurred three times since the last capture.
    fn third_occurrence_start(&self) -> Option<usize> {
        let n = self.moves.len();
        let current = self.position();
        let mut seen = 0;
        // Same side to move: every second ply back; a capture ends the search (no
        // position before it can come again).
        let mut i = n;
        while i >= 2 {
            if self.is_capture(i - 1) || self.is_capture(i - 2) {
                break;
            }
            i -= 2;
            let p = &self.positions[i];
            if p.key() == current.key() && p.board == current.board && p.side == current.side {
                seen += 1;
                if seen == 2 {
                    return Some(i);
                }
            }
        }
        None
    }

    /// Did `moves[i]` capture?
    fn is_capture(&self, i: usize) -> bool {
        self.positions[i].piece_at(self.moves[i].to()).is_some()
    }

    /// The plies that count toward the 60-move rule: plies since the last capture (the
    /// start position's half-move clock included when no capture has been played), not
    /// counting a side's checks beyond its tenth ([`COUNTED_CHECKS`]) since that capture.
    ///
    /// ```
    /// use xiangqi_core::{Game, Position};
    /// let game = Game::new(Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 119 80")?);
    /// assert_eq!(game.plies_toward_move_limit(), 119);
    /// # Ok::<_, xiangqi_core::FenError>(())
    /// ```
    pub fn plies_toward_move_limit(&self) -> u32 {
        let mut first = 0;
        let mut base = self.start.halfmove_clock();
        for i in (0..self.moves.len()).rev() {
            if self.is_capture(i) {
                first = i + 1;
                base = 0;
                break;
            }
        }
        let mut checks = [0u32; 2];
        let mut plies = base;
        for i in first..self.moves.len() {
            let mover = self.positions[i].side_to_move();
            if self.positions[i + 1].is_check() {
                checks[mover.index()] += 1;
                if checks[mover.index()] > COUNTED_CHECKS {
                    continue;
                }
            }
            plies += 1;
        }
        plies
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEndReason {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move without being in check (困毙): it loses.
    Stalemate,
    /// A position occurred for the third time; the verdict says who broke which rule.
    Repetition(RepetitionVerdict),
    /// 60 moves (120 plies) without a capture: a draw.
    MoveLimit,
    /// Neither side has a piece that can cross the river to attack: a draw.
    NoAttackingMaterial,
}

/// The end of a game by the rules: who won (`None` for a draw) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: GameEndReason,
}

impl fmt::Display for GameOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.reason, self.winner) {
            (GameEndReason::Checkmate, Some(w)) => write!(f, "{w} wins by checkmate"),
            (GameEndReason::Stalemate, Some(w)) => write!(f, "{w} wins by stalemate"),
            (GameEndReason::Repetition(v), Some(w)) => write!(f, "{w} wins: {v}"),
            (GameEndReason::Repetition(v), None) => write!(f, "{v}"),
            (GameEndReason::MoveLimit, _) => {
                f.write_str("draw by the 60-move rule (120 plies without a capture)")
            }
            (GameEndReason::NoAttackingMaterial, _) => {
                f.write_str("draw: neither side has a piece that can attack")
            }
            (_, None) => f.write_str("draw"),
        }
    }
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Position::startpos())
    }
}
