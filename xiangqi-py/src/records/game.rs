//! `Game`: one record — tags, result, the start position and the variation tree.

use super::node::GameNode;
use super::warning::RecordWarning;
use crate::board::Board;
use crate::errors::value_error;
use crate::moves::Move;
use pyo3::prelude::*;
use xiangqi_records::pgn::{PgnGame, PgnResult};
use xiangqi_records::{ecco, GameTree, NodeId, Record, Warning};

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

#[pymethods]
impl Game {
    /// A record of the moves played on `board` (from its start position), or an empty
    /// record from the standard start.
    #[new]
    #[pyo3(signature = (board = None))]
    fn new(board: Option<PyRef<'_, Board>>) -> Game {
        let game = board.map_or_else(xiangqi_core::Game::default, |b| b.game.clone());
        let mut record = Record::new(GameTree::from_game(&game));
        record.set_tag("Game", "Chinese Chess");
        Game::from_record(record, Vec::new())
    }

    /// The tags in file order, as `(name, value)` pairs.
    #[getter]
    fn tags(&self) -> Vec<(String, String)> {
        self.record.tags.clone()
    }

    /// The tags as a dict (a copy: change tags with `set_tag`).
    #[getter]
    fn headers(&self) -> std::collections::HashMap<String, String> {
        self.record.tags.iter().cloned().collect()
    }

    /// The value of tag `name` (case-insensitive), or `None`.
    fn tag(&self, name: &str) -> Option<String> {
        self.record.tag(name).map(str::to_string)
    }

    /// Sets tag `name` to `value`.
    fn set_tag(&mut self, name: &str, value: &str) {
        self.record.set_tag(name, value);
    }

    /// Removes tag `name` (case-insensitive).
    fn remove_tag(&mut self, name: &str) {
        self.record.remove_tag(name);
    }

    /// The main line's moves.
    #[getter]
    fn moves(&self) -> Vec<Move> {
        self.tree()
            .main_line_moves()
            .into_iter()
            .map(Move)
            .collect()
    }

    /// The result: `"1-0"`, `"0-1"`, `"1/2-1/2"` or `"*"`.
    #[getter]
    fn result(&self) -> &'static str {
        self.record.result.as_str()
    }

    #[setter]
    fn set_result(&mut self, result: &str) -> PyResult<()> {
        self.record.result = PgnResult::from_token(result).ok_or_else(|| {
            value_error(format!("result {result:?} is not 1-0, 0-1, 1/2-1/2 or *"))
        })?;
        self.record.set_tag("Result", self.record.result.as_str());
        Ok(())
    }

    /// The main line's comments as `(ply, text)`: `ply` moves into the game (0 = before
    /// the first move); a comment before move `n` is at ply `n - 1`.
    #[getter]
    fn comments(&self) -> Vec<(usize, String)> {
        PgnGame::from_record(&self.record)
            .comments
            .into_iter()
            .map(|c| (c.ply, c.text))
            .collect()
    }

    /// Adds a comment after `ply` moves of the main line (0: before the first move), on a
    /// new line after any comment already there.
    fn add_comment(&mut self, ply: usize, text: &str) -> PyResult<()> {
        let tree = &mut self.record.tree;
        let node = match ply {
            0 => tree.root(),
            p => *tree.main_line().get(p - 1).ok_or_else(|| {
                value_error(format!(
                    "ply {ply} is past the game's {} moves",
                    tree.main_line().len()
                ))
            })?,
        };
        let comment = &mut tree.node_mut(node).comment;
        if !comment.is_empty() {
            comment.push('\n');
        }
        comment.push_str(text);
        Ok(())
    }

    /// The first node of the tree (the start position, no move).
    fn root(slf: Bound<'_, Game>) -> GameNode {
        let root = slf.borrow().tree().root();
        GameNode::new(&slf, root)
    }

    /// The moves from the start position, main line first (`root().variations`).
    #[getter]
    fn variations(slf: Bound<'_, Game>) -> Vec<GameNode> {
        let ids: Vec<NodeId> = {
            let g = slf.borrow();
            g.tree().node(g.tree().root()).children().collect()
        };
        ids.into_iter().map(|id| GameNode::new(&slf, id)).collect()
    }

    /// The nodes of the main line, in order (`root()` excluded).
    fn mainline(slf: Bound<'_, Game>) -> Vec<GameNode> {
        let ids = slf.borrow().tree().main_line();
        ids.into_iter().map(|id| GameNode::new(&slf, id)).collect()
    }

    /// The moves of the main line (as `moves`).
    fn mainline_moves(&self) -> Vec<Move> {
        self.moves()
    }

    /// The last node of the main line (`root()` when there are no moves).
    fn end(slf: Bound<'_, Game>) -> GameNode {
        let id = {
            let g = slf.borrow();
            let tree = g.tree();
            tree.main_line().last().copied().unwrap_or(tree.root())
        };
        GameNode::new(&slf, id)
    }

    /// The number of moves in the tree, every variation included.
    fn move_count(&self) -> usize {
        self.tree().move_count()
    }

    /// The number of lines (leaves of the tree; 1 for a game with no side lines).
    fn line_count(&self) -> usize {
        self.tree().leaf_count()
    }

    /// The number of non-empty comments, before and after moves, on every line.
    fn comment_count(&self) -> usize {
        self.tree().comment_count()
    }

    /// Every line from the start to a leaf, main line first, as move lists.
    fn lines(&self) -> Vec<Vec<Move>> {
        let tree = self.tree();
        tree.leaves()
            .into_iter()
            .map(|leaf| tree.moves_to(leaf).into_iter().map(Move).collect())
            .collect()
    }

    /// The warnings its reader gave for this game (see `RecordWarning`).
    #[getter]
    fn warnings(&self) -> Vec<RecordWarning> {
        self.warnings.iter().cloned().map(RecordWarning).collect()
    }

    /// The opening of the main line as `(ECCO code, name)`, e.g. `("D30",
    /// "中炮不进三兵对左炮封车转列炮")`; `None` for a game from another start or with no moves.
    fn ecco(&self) -> Option<(&'static str, &'static str)> {
        ecco::classify(self.tree()).map(|o| (o.code, o.name))
    }

    /// Sets the `ECCO` and `Opening` tags from the main line (when it has a code).
    fn set_ecco_tags(&mut self) {
        ecco::tag(&mut self.record);
    }

    /// A board at the start position of the record.
    fn start_board(&self) -> Board {
        Board {
            game: xiangqi_core::Game::new(self.tree().start().clone()),
        }
    }

    /// A board after the main line, with its history (so `outcome()` can judge it).
    fn board(&self) -> Board {
        Board {
            game: self.tree().main_game(),
        }
    }

    /// The record as PGN text with every variation and comment; moves in `notation`
    /// (`"chinese"`, `"wxf"`, `"iccs"`), by default in that of its `Format` tag (Chinese
    /// when it has none).
    #[pyo3(signature = (notation = None))]
    fn to_pgn(&self, notation: Option<&str>) -> PyResult<String> {
        super::writing::pgn_text(std::slice::from_ref(&self.record), notation)
    }

    /// The record as XQF bytes (version 1.0): the tree, one comment a move, no NAGs.
    fn to_xqf<'py>(&self, py: Python<'py>) -> Bound<'py, pyo3::types::PyBytes> {
        pyo3::types::PyBytes::new(py, &xiangqi_records::xqf::write(&self.record))
    }

    /// The record as DhtmlXQ/UBB text: the tree and comments, no NAGs.
    fn to_ubb(&self) -> String {
        xiangqi_records::ubb::write(&self.record)
    }

    /// The record as 象棋桥 CBF (XML): the main line and its comments.
    fn to_cbf(&self) -> String {
        xiangqi_records::cbf::write(&self.record)
    }

    /// The record in `format` (`"pgn"`, `"xqf"`, `"ubb"`, `"cbf"`) as file bytes;
    /// `encoding` `"utf-8"` or `"gb18030"` for the text formats, `notation` for PGN.
    #[pyo3(signature = (format = "pgn", *, encoding = "utf-8", notation = None))]
    fn write<'py>(
        &self,
        py: Python<'py>,
        format: &str,
        encoding: &str,
        notation: Option<&str>,
    ) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
        let bytes = super::writing::encode(
            std::slice::from_ref(&self.record),
            format,
            encoding,
            notation,
        )?;
        Ok(pyo3::types::PyBytes::new(py, &bytes))
    }

    /// Writes the record to the file at `path` (cchess's name), in `format`, by default
    /// the one its extension names (`.pgn`, `.xqf`, `.ubb`/`.txt`, `.cbf`).
    #[pyo3(signature = (path, format = None, *, encoding = "utf-8", notation = None))]
    fn save_to(
        &self,
        path: std::path::PathBuf,
        format: Option<&str>,
        encoding: &str,
        notation: Option<&str>,
    ) -> PyResult<()> {
        let format = match format {
            Some(f) => f.to_string(),
            None => super::writing::format_of_path(&path)?,
        };
        let bytes = super::writing::encode(
            std::slice::from_ref(&self.record),
            &format,
            encoding,
            notation,
        )?;
        std::fs::write(&path, bytes)?;
        Ok(())
    }

    /// A copy (nodes of the copy are its own).
    fn copy(&self) -> Game {
        Game {
            generation: 0,
            ..self.clone()
        }
    }

    fn __copy__(&self) -> Game {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.copy()
    }

    /// Equal when tags, result and tree (moves, order, comments, NAGs) are.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Game>()
            .is_ok_and(|o| o.borrow().record == self.record)
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(red={:?}, black={:?}, moves={}, lines={}, result={:?})",
            self.record.tag("Red").unwrap_or("?"),
            self.record.tag("Black").unwrap_or("?"),
            self.tree().main_line().len(),
            self.tree().leaf_count(),
            self.record.result.as_str()
        )
    }
}
