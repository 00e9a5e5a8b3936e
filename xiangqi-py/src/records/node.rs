//! `GameNode`: a node of a game's variation tree, in the manner of python-chess's
//! `GameNode` (`move`, `comment`, `starting_comment`, `nags`, `parent`, `variations`,
//! `mainline()`, `board()`, `add_variation()`, `promote_to_main()`, ...).

use super::game_data::{board_at, Game};
use crate::board::Board;
use crate::errors::{py as checked, value_error};
use crate::moves::Move;
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use xiangqi_records::{GameTree, NodeId};

/// A node of a game's tree: the move that leads to it (`None` at the root), the comments
/// before (`starting_comment`) and after it (`comment`; at the root, the comment before
/// the first move), its NAGs, and the moves that follow (`variations`, main line first).
///
/// A node is a view of its `Game`: changes show in the game at once. Removing a node
/// renumbers the tree, so nodes taken before a `remove()` raise `ValueError` afterwards
/// (take them again from the game).
#[pyclass(module = "xiangqi_rs")]
pub struct GameNode {
    game: Py<Game>,
    id: NodeId,
    generation: u64,
}

impl GameNode {
    /// The node `id` of `game`.
    pub fn new(game: &Bound<'_, Game>, id: NodeId) -> GameNode {
        GameNode {
            game: game.clone().unbind(),
            id,
            generation: game.borrow().generation,
        }
    }

    fn sibling(&self, py: Python<'_>, id: NodeId) -> GameNode {
        GameNode {
            game: self.game.clone_ref(py),
            id,
            generation: self.generation,
        }
    }

    fn check(&self, game: &Game) -> PyResult<()> {
        if game.generation != self.generation || game.tree().get(self.id).is_none() {
            return Err(value_error(
                "this node was taken before a remove() renumbered the tree; take it again from the game",
            ));
        }
        Ok(())
    }

    /// `f` of the tree, once the node is known to be current.
    fn read<R>(&self, py: Python<'_>, f: impl FnOnce(&GameTree, NodeId) -> R) -> PyResult<R> {
        let game = self.game.borrow(py);
        self.check(&game)?;
        Ok(f(game.tree(), self.id))
    }

    /// `f` of the tree, to change it.
    fn write<R>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut GameTree, NodeId) -> PyResult<R>,
    ) -> PyResult<R> {
        let mut game = self.game.borrow_mut(py);
        self.check(&game)?;
        f(&mut game.record.tree, self.id)
    }

    fn nodes(&self, py: Python<'_>, ids: Vec<NodeId>) -> Vec<GameNode> {
        ids.into_iter().map(|id| self.sibling(py, id)).collect()
    }

    /// The move of this node with the text `notation` renders in its position.
    fn move_text(
        &self,
        py: Python<'_>,
        render: impl FnOnce(&xiangqi_core::Position, xiangqi_core::Move) -> String,
    ) -> PyResult<Option<String>> {
        self.read(py, |tree, id| {
            let node = tree.node(id);
            let parent = node.parent()?;
            Some(render(&tree.position_at(parent), node.mv()?))
        })
    }
}

/// A move given as a `Move` or as text in any notation, read in `pos`.
fn move_in(pos: &xiangqi_core::Position, obj: &Bound<'_, PyAny>) -> PyResult<xiangqi_core::Move> {
    if let Ok(m) = obj.cast::<Move>() {
        return Ok(m.get().0);
    }
    match obj.extract::<String>() {
        Ok(text) => checked(pos.parse_move(&text)),
        Err(_) => Err(pyo3::exceptions::PyTypeError::new_err(
            "expected a Move or move text (ICCS, WXF or Chinese)",
        )),
    }
}

#[pymethods]
impl GameNode {
    /// The move that leads here (`None` at the root).
    #[getter(r#move)]
    fn get_move(&self, py: Python<'_>) -> PyResult<Option<Move>> {
        self.read(py, |tree, id| tree.node(id).mv().map(Move))
    }

    /// The comment after the move (at the root: before the first move).
    #[getter]
    fn comment(&self, py: Python<'_>) -> PyResult<String> {
        self.read(py, |tree, id| tree.node(id).comment.clone())
    }

    #[setter]
    fn set_comment(&self, py: Python<'_>, text: String) -> PyResult<()> {
        self.write(py, |tree, id| {
            tree.node_mut(id).comment = text;
            Ok(())
        })
    }

    /// The comment before the move (PGN's `( {why} 1... h9g7 )`); empty for most nodes.
    #[getter]
    fn starting_comment(&self, py: Python<'_>) -> PyResult<String> {
        self.read(py, |tree, id| tree.node(id).starting_comment.clone())
    }

    #[setter]
    fn set_starting_comment(&self, py: Python<'_>, text: String) -> PyResult<()> {
        self.write(py, |tree, id| {
            tree.node_mut(id).starting_comment = text;
            Ok(())
        })
    }

    /// The NAGs in order (`1` = `!`, `2` = `?`, `3` = `!!`, `4` = `??`, `5` = `!?`, `6` = `?!`).
    #[getter]
    fn nags(&self, py: Python<'_>) -> PyResult<Vec<u16>> {
        // Not `Vec<u8>`: PyO3 turns that into `bytes`.
        self.read(py, |tree, id| {
            tree.node(id).nags.iter().map(|&n| u16::from(n)).collect()
        })
    }

    #[setter]
    fn set_nags(&self, py: Python<'_>, nags: Vec<u8>) -> PyResult<()> {
        self.write(py, |tree, id| {
            tree.node_mut(id).nags = nags;
            Ok(())
        })
    }

    /// The node before (`None` at the root).
    #[getter]
    fn parent(&self, py: Python<'_>) -> PyResult<Option<GameNode>> {
        let parent = self.read(py, |tree, id| tree.node(id).parent())?;
        Ok(parent.map(|p| self.sibling(py, p)))
    }

    /// The moves that follow, main line first.
    #[getter]
    fn variations(&self, py: Python<'_>) -> PyResult<Vec<GameNode>> {
        let ids = self.read(py, |tree, id| tree.node(id).children().collect())?;
        Ok(self.nodes(py, ids))
    }

    /// The `i`-th of `variations` (0 = the main continuation); `IndexError` past the end.
    fn variation(&self, py: Python<'_>, i: usize) -> PyResult<GameNode> {
        let child = self.read(py, |tree, id| tree.node(id).children().nth(i))?;
        child
            .map(|c| self.sibling(py, c))
            .ok_or_else(|| PyIndexError::new_err(format!("no variation {i}")))
    }

    /// The main continuation (`None` at the end of a line).
    fn next(&self, py: Python<'_>) -> PyResult<Option<GameNode>> {
        let child = self.read(py, |tree, id| tree.node(id).main_child())?;
        Ok(child.map(|c| self.sibling(py, c)))
    }

    /// The nodes of the main continuation from here, this one excluded.
    fn mainline(&self, py: Python<'_>) -> PyResult<Vec<GameNode>> {
        let ids = self.read(py, |tree, id| tree.line_from(id))?;
        Ok(self.nodes(py, ids))
    }

    /// The moves of the main continuation from here.
    fn mainline_moves(&self, py: Python<'_>) -> PyResult<Vec<Move>> {
        self.read(py, |tree, id| {
            tree.line_from(id)
                .into_iter()
                .filter_map(|n| tree.node(n).mv().map(Move))
                .collect()
        })
    }

    /// The last node of the main continuation from here (this one at the end of a line).
    fn end(&self, py: Python<'_>) -> PyResult<GameNode> {
        let last = self.read(py, |tree, id| {
            tree.line_from(id).last().copied().unwrap_or(id)
        })?;
        Ok(self.sibling(py, last))
    }

    /// The root of the tree.
    fn root(&self, py: Python<'_>) -> PyResult<GameNode> {
        let root = self.read(py, |tree, _| tree.root())?;
        Ok(self.sibling(py, root))
    }

    /// The game this node belongs to.
    fn game(&self, py: Python<'_>) -> Py<Game> {
        self.game.clone_ref(py)
    }

    /// A board after this node's move, with the moves from the start as its history.
    fn board(&self, py: Python<'_>) -> PyResult<Board> {
        self.read(py, board_at)
    }

    /// The number of moves from the start to here.
    fn ply(&self, py: Python<'_>) -> PyResult<usize> {
        self.read(py, |tree, id| tree.ply_of(id))
    }

    /// Whether no move follows.
    fn is_end(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |tree, id| tree.node(id).child_count() == 0)
    }

    /// Whether this is the first (main) of its parent's variations; true at the root.
    fn is_main_variation(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |tree, id| {
            tree.node(id)
                .parent()
                .is_none_or(|p| tree.node(p).main_child() == Some(id))
        })
    }

    /// Whether this node is on the game's main line (the root included).
    fn is_mainline(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |tree, id| {
            id == tree.root() || tree.main_line().contains(&id)
        })
    }

    /// Whether a side line begins here (the node is not its parent's main continuation).
    fn starts_variation(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |tree, id| {
            tree.node(id)
                .parent()
                .is_some_and(|p| tree.node(p).main_child() != Some(id))
        })
    }

    /// The move in WXF notation (`None` at the root).
    fn wxf(&self, py: Python<'_>) -> PyResult<Option<String>> {
        self.move_text(py, |pos, m| pos.to_wxf(m))
    }

    /// The move in Chinese notation (`None` at the root).
    fn chinese(&self, py: Python<'_>) -> PyResult<Option<String>> {
        self.move_text(py, |pos, m| pos.to_chinese(m))
    }

    /// The move in ICCS (`None` at the root).
    fn uci(&self, py: Python<'_>) -> PyResult<Option<String>> {
        self.read(py, |tree, id| tree.node(id).mv().map(|m| m.to_string()))
    }

    /// Adds `move` (a `Move` or text in any notation) after this node, as the last of its
    /// variations (the main line if it is the first), with its comments and NAGs; returns
    /// the new node. An illegal move raises `IllegalMoveError` and changes nothing.
    #[pyo3(signature = (r#move, *, comment = String::new(), starting_comment = String::new(), nags = Vec::new()))]
    fn add_variation(
        &self,
        py: Python<'_>,
        r#move: &Bound<'_, PyAny>,
        comment: String,
        starting_comment: String,
        nags: Vec<u8>,
    ) -> PyResult<GameNode> {
        let child = self.write(py, |tree, id| {
            let m = move_in(&tree.position_at(id), r#move)?;
            let child = checked(tree.add_move(id, m))?;
            let node = tree.node_mut(child);
            node.comment = comment;
            node.starting_comment = starting_comment;
            node.nags = nags;
            Ok(child)
        })?;
        Ok(self.sibling(py, child))
    }

    /// Adds `move` after this node as its main continuation (the others become side lines).
    #[pyo3(signature = (r#move, *, comment = String::new()))]
    fn add_main_variation(
        &self,
        py: Python<'_>,
        r#move: &Bound<'_, PyAny>,
        comment: String,
    ) -> PyResult<GameNode> {
        let child = self.write(py, |tree, id| {
            let m = move_in(&tree.position_at(id), r#move)?;
            let child = checked(tree.add_move(id, m))?;
            tree.node_mut(child).comment = comment;
            tree.promote(child);
            Ok(child)
        })?;
        Ok(self.sibling(py, child))
    }

    /// The variation after this node that starts with `move`, or `None`.
    fn variation_with(
        &self,
        py: Python<'_>,
        r#move: &Bound<'_, PyAny>,
    ) -> PyResult<Option<GameNode>> {
        let child = self.read(py, |tree, id| {
            move_in(&tree.position_at(id), r#move).map(|m| tree.child_with(id, m))
        })??;
        Ok(child.map(|c| self.sibling(py, c)))
    }

    /// Makes this node the first of its siblings (one step toward the main line).
    fn promote(&self, py: Python<'_>) -> PyResult<()> {
        self.write(py, |tree, id| {
            tree.promote(id);
            Ok(())
        })
    }

    /// Makes the line through this node the game's main line.
    fn promote_to_main(&self, py: Python<'_>) -> PyResult<()> {
        self.write(py, |tree, id| {
            tree.promote_to_main(id);
            Ok(())
        })
    }

    /// Moves this node one place later among its siblings.
    fn demote(&self, py: Python<'_>) -> PyResult<()> {
        self.write(py, |tree, id| {
            tree.demote(id);
            Ok(())
        })
    }

    /// Removes this node and everything after it. Other nodes of the game taken before
    /// are stale afterwards (the tree is renumbered). The root cannot be removed.
    fn remove(&self, py: Python<'_>) -> PyResult<()> {
        let mut game = self.game.borrow_mut(py);
        self.check(&game)?;
        if self.id == game.tree().root() {
            return Err(value_error("the root of a game cannot be removed"));
        }
        game.record.tree.delete(self.id);
        game.generation += 1;
        Ok(())
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<GameNode>().is_ok_and(|o| {
            let o = o.borrow();
            o.game.is(&self.game) && o.id == self.id && o.generation == self.generation
        }) && self.check(&self.game.borrow(py)).is_ok()
    }

    fn __hash__(&self) -> u64 {
        (self.game.as_ptr() as u64) ^ ((self.id.index() as u64) << 1) ^ (self.generation << 40)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        match self.read(py, |tree, id| (tree.ply_of(id), tree.node(id).mv())) {
            Ok((ply, Some(m))) => format!("GameNode(ply={ply}, move={m})"),
            Ok((_, None)) => "GameNode(root)".to_string(),
            Err(_) => "GameNode(stale)".to_string(),
        }
    }
}
