//! The `Game` class's data and the board at one of its nodes: what `GameNode` and the writers
//! need of a game, below them, so that they do not import `game.rs` (whose methods hand out
//! `GameNode`s and call the writers).

use crate::board::Board;
use pyo3::prelude::*;
use xiangqi_records::{GameTree, NodeId, Record, Warning};

/// A game record: tags, the result, the start position and the tree of moves (the main
/// line and every variation, with comments and NAGs on each move).
///
/// `Game()` is an empty record from the standard start, `Game(board)` a record of the
/// moves played on `board`. `root()` is the tree's first node (see `GameNode`);
/// `moves`, `comments` and `board()` speak of the main line.
#[pyclass(module = "xiangqi_rs")]
#[derive(Clone)]
pub struct Game {
    pub(crate) record: Record,
    /// The warnings its reader gave for this game.
    pub(crate) warnings: Vec<Warning>,
    /// Bumped when nodes are removed (the tree renumbers them): older `GameNode`s are stale.
    pub(crate) generation: u64,
}

impl Game {
    /// A game of `record` with the reader's `warnings`.
    pub fn from_record(record: Record, warnings: Vec<Warning>) -> Game {
        Game {
            record,
            warnings,
            generation: 0,
        }
    }

    pub(crate) fn tree(&self) -> &GameTree {
        &self.record.tree
    }
}

/// A board at node `id` of `tree`: the start position with the moves to it played.
pub(crate) fn board_at(tree: &GameTree, id: NodeId) -> Board {
    let mut game = xiangqi_core::Game::new(tree.start().clone());
    for m in tree.moves_to(id) {
        // Every move in the tree is legal in its position.
        if game.play(m).is_err() {
            break;
        }
    }
    Board { game }
}
