//! The session UCI and UCCI share: the game the GUI set up, the moves it banned, the rank
//! numbering it speaks, and the engine core. [`crate::uci`] and [`crate::ucci`] add their
//! commands to it.

use crate::command::{PositionSpec, Protocol};
use crate::core::{Core, Sink};
use crate::notation::{self, Ranks};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use xiangqi_core::{Game, Move, Position};

/// A UCI (or UCCI) session.
pub struct Session {
    pub(crate) core: Core,
    pub(crate) protocol: Protocol,
    pub(crate) game: Game,
    pub(crate) banned: Vec<Move>,
    pub(crate) ranks: Ranks,
    /// Whether a draw is offered to the running search (shared with its report).
    pub(crate) draw_offered: Arc<AtomicBool>,
}

impl Session {
    /// A session writing to `out`, in UCI until the GUI says `ucci`.
    pub fn new(out: Sink) -> Session {
        Session::with_core(Core::new(out))
    }

    /// A session over an engine core already running.
    pub fn with_core(core: Core) -> Session {
        Session {
            core,
            protocol: Protocol::Uci,
            game: Game::new(Position::startpos()),
            banned: Vec::new(),
            ranks: Ranks::FromZero,
            draw_offered: Arc::new(AtomicBool::new(false)),
        }
    }

    pub(crate) fn info(&self, text: &str) {
        self.core.say(&format!("info string {text}"));
    }

    /// Stops any search and ends the search thread.
    pub fn shutdown(&mut self) {
        self.core.shutdown();
    }

    /// The engine core, for another protocol to go on with (after `xboard`).
    pub fn into_core(self) -> Core {
        self.core.stop_and_wait();
        self.core
    }

    /// The legal move `text` names in `pos`, in this session's rank numbering.
    pub(crate) fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, String> {
        notation::parse(pos, text, self.ranks)
    }

    /// The game a `position`/`probe` command describes. On a bad FEN, reports it and returns
    /// `None`; on a bad move, reports it and keeps the moves before it.
    pub(crate) fn build_game(&self, spec: &PositionSpec, command: &str) -> Option<Game> {
        let start = match &spec.fen {
            None => Position::startpos(),
            Some(fen) => match Position::from_fen(fen) {
                Ok(p) => p,
                Err(e) => {
                    // A FEN of the board alone: assume red to move.
                    match (
                        fen.split_whitespace().count(),
                        Position::from_fen(&format!("{fen} w")),
                    ) {
                        (1, Ok(p)) => p,
                        _ => {
                            self.info(&format!(
                                "{command}: bad FEN: {e}; the position is unchanged"
                            ));
                            return None;
                        }
                    }
                }
            },
        };
        let mut game = Game::new(start);
        for (i, text) in spec.moves.iter().enumerate() {
            match self.parse_move(game.position(), text) {
                Ok(m) => {
                    // The move was checked legal, so play cannot fail.
                    let _ = game.play(m);
                }
                Err(e) => {
                    self.info(&format!(
                        "{command}: move {} {text:?}: {e}; it and the moves after it are ignored",
                        i + 1
                    ));
                    break;
                }
            }
        }
        Some(game)
    }
}
