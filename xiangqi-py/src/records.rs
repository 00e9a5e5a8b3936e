//! Game records: PGN (read and write; UTF-8, GB18030/GBK, Big5) and XQF (read), through
//! `xiangqi-records`.

use crate::board::Board;
use crate::errors::py;
use crate::moves::Move;
use pyo3::prelude::*;
use xiangqi_records::pgn::{self, PgnComment, PgnGame, PgnResult};
use xiangqi_records::xqf;

/// A game record: tags, the start position, the main line, comments and the result.
#[pyclass(module = "xiangqi")]
#[derive(Clone)]
pub struct Game {
    record: PgnGame,
}

/// Record text as bytes: `str` is taken as UTF-8.
fn record_bytes(data: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(text) = data.extract::<String>() {
        return Ok(text.into_bytes());
    }
    data.extract::<Vec<u8>>()
        .map_err(|_| pyo3::exceptions::PyTypeError::new_err("expected the record as bytes or str"))
}

/// The games of PGN `bytes`, read with the GIL released.
fn pgn_games(python: Python<'_>, bytes: Vec<u8>) -> PyResult<Vec<Game>> {
    let games = py(python.detach(move || pgn::read(&bytes)))?;
    Ok(games.into_iter().map(|record| Game { record }).collect())
}

/// Every game of a PGN record (`bytes` in any supported encoding, or `str`).
#[pyfunction]
pub fn read_pgn(data: &Bound<'_, PyAny>) -> PyResult<Vec<Game>> {
    pgn_games(data.py(), record_bytes(data)?)
}

/// The game of an XQF record (XQStudio's binary format, encrypted versions included).
#[pyfunction]
pub fn read_xqf(data: &[u8]) -> PyResult<Game> {
    let game = py(xqf::read(data))?;
    Ok(Game {
        record: game.to_pgn(),
    })
}

/// Every game of the PGN file at `path` (cchess's name).
#[pyfunction]
pub fn read_from_pgn(python: Python<'_>, path: std::path::PathBuf) -> PyResult<Vec<Game>> {
    pgn_games(python, std::fs::read(&path)?)
}

/// The game of the XQF file at `path` (cchess's name).
#[pyfunction]
pub fn read_from_xqf(path: std::path::PathBuf) -> PyResult<Game> {
    let bytes = std::fs::read(&path)?;
    read_xqf(&bytes)
}

#[pymethods]
impl Game {
    /// A record of the moves played on `board` (from its start position), or an empty
    /// record from the standard start.
    #[new]
    #[pyo3(signature = (board = None))]
    fn new(board: Option<PyRef<'_, Board>>) -> Game {
        let game = board.map_or_else(xiangqi_core::Game::default, |b| b.game.clone());
        let mut record = PgnGame::new(game);
        record.set_tag("Game", "Chinese Chess");
        Game { record }
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

    /// The main line's moves.
    #[getter]
    fn moves(&self) -> Vec<Move> {
        self.record.game.moves().iter().copied().map(Move).collect()
    }

    /// The result: `"1-0"`, `"0-1"`, `"1/2-1/2"` or `"*"`.
    #[getter]
    fn result(&self) -> &'static str {
        self.record.result.as_str()
    }

    #[setter]
    fn set_result(&mut self, result: &str) -> PyResult<()> {
        self.record.result = PgnResult::from_token(result).ok_or_else(|| {
            crate::errors::value_error(format!("result {result:?} is not 1-0, 0-1, 1/2-1/2 or *"))
        })?;
        self.record.set_tag("Result", self.record.result.as_str());
        Ok(())
    }

    /// The comments as `(ply, text)`: `ply` moves into the game (0 = before the first).
    #[getter]
    fn comments(&self) -> Vec<(usize, String)> {
        self.record
            .comments
            .iter()
            .map(|c| (c.ply, c.text.clone()))
            .collect()
    }

    /// Adds a comment after `ply` moves.
    fn add_comment(&mut self, ply: usize, text: &str) -> PyResult<()> {
        let plies = self.record.game.moves().len();
        if ply > plies {
            return Err(crate::errors::value_error(format!(
                "ply {ply} is past the game's {plies} moves"
            )));
        }
        self.record.comments.push(PgnComment {
            ply,
            text: text.to_string(),
        });
        Ok(())
    }

    /// A board at the start position of the record.
    fn start_board(&self) -> Board {
        Board {
            game: xiangqi_core::Game::new(self.record.game.start_position().clone()),
        }
    }

    /// A board after the main line, with its history (so `outcome()` can judge it).
    fn board(&self) -> Board {
        Board {
            game: self.record.game.clone(),
        }
    }

    /// The record as PGN text (UTF-8, moves in the notation of its `Format` tag, Chinese by
    /// default).
    fn to_pgn(&self) -> String {
        pgn::write(&self.record)
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(red={:?}, black={:?}, moves={}, result={:?})",
            self.record.tag("Red").unwrap_or("?"),
            self.record.tag("Black").unwrap_or("?"),
            self.record.game.moves().len(),
            self.record.result.as_str()
        )
    }
}

/// Writes `game` as PGN text.
#[pyfunction]
pub fn write_pgn(game: PyRef<'_, Game>) -> String {
    game.to_pgn()
}
