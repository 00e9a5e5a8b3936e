//! `Tablebase`: the endgame tablebases of `xiangqi-egtb` (distance to mate), probed from
//! Python.
//!
//! Values are ints from the side to move's point of view, as python-chess's Gaviota and
//! Syzygy probes give them: `probe_dtm` is the distance to mate in plies, positive when the
//! side to move wins, negative when it loses, `0` for a draw (and for a side with no legal
//! move, mated or stalemated now: `probe_wdl` says `"loss"` there). A win or loss by the
//! perpetual-check rule (tables where both sides have an attacking piece) has no distance:
//! `probe_dtm` says `None` for it, and `probe` (a dict with `by_rule`) tells it apart from
//! a missing table. Opening, generating and `random_position` release the GIL.

use crate::board::Board;
use crate::errors::TablebaseError;
use crate::moves::Move;
use pyo3::exceptions::{PyOSError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::{Path, PathBuf};
use xiangqi_core::{Game, Position};
use xiangqi_egtb::{BatchError, Dtm, FormatError, Material, Wdl};

/// A folder that cannot be read: an `OSError` whose class follows the system's error
/// (`FileNotFoundError`, `PermissionError`...) with `.filename` set; a table that is not
/// one: a `TablebaseError` with `.path`.
fn format_error(py: Python<'_>, e: FormatError) -> PyErr {
    match e {
        FormatError::Io { path, error } => io_error(&path, &error),
        FormatError::Corrupt { ref path, .. } => {
            let path = path.display().to_string();
            let err = TablebaseError::new_err(e.to_string());
            match err.value(py).setattr("path", path) {
                Ok(()) => err,
                Err(e) => e,
            }
        }
    }
}

/// `OSError(errno, strerror, filename)` (Python picks the subclass from the errno), or,
/// for an error without an errno (a file cut short), the subclass PyO3 picks from its kind.
fn io_error(path: &Path, error: &std::io::Error) -> PyErr {
    match error.raw_os_error() {
        Some(errno) => {
            let strerror = std::io::Error::from_raw_os_error(errno).to_string();
            // Rust appends " (os error N)"; Python's own message has "[Errno N]" instead.
            let strerror = strerror
                .split(" (os error")
                .next()
                .unwrap_or_default()
                .to_string();
            PyOSError::new_err((errno, strerror, path.display().to_string()))
        }
        None => PyErr::from(std::io::Error::new(
            error.kind(),
            format!("{}: {error}", path.display()),
        )),
    }
}

fn batch_error(py: Python<'_>, e: BatchError) -> PyErr {
    match e {
        BatchError::Format(e) => format_error(py, e),
        BatchError::Io(path, error) => io_error(&path, &error),
        BatchError::Generate(e) => TablebaseError::new_err(e.to_string()),
    }
}

/// An ending's name (`"krkaa"`, either side first, case-insensitive; `h`/`e` for horse and
/// elephant) as a `Material`.
fn material_arg(name: &str) -> PyResult<Material> {
    name.parse::<Material>()
        .map_err(|e| TablebaseError::new_err(e.to_string()))
}

/// The endings of `generate`: one name, or a sequence of names.
fn endings_arg(endings: &Bound<'_, PyAny>) -> PyResult<Vec<Material>> {
    if let Ok(name) = endings.extract::<String>() {
        return Ok(vec![material_arg(&name)?]);
    }
    let names: Vec<String> = endings.extract().map_err(|_| {
        PyTypeError::new_err("endings: an ending name like 'krkaa' or a list of them")
    })?;
    names.iter().map(|n| material_arg(n)).collect()
}

/// The Python value of a distance to mate: plies, positive when the side to move wins,
/// negative when it loses, 0 for a draw; `None` for a value by the perpetual-check rule,
/// which has no distance.
fn dtm_int(d: Dtm) -> Option<i32> {
    match d {
        Dtm::Win(n) => Some(i32::from(n)),
        Dtm::Loss(n) => Some(-i32::from(n)),
        Dtm::Draw => Some(0),
        Dtm::WinByRule(_) | Dtm::LossByRule(_) => None,
    }
}

/// A move with its value for the mover, as `moves` lists them.
type MoveValue = (Move, Option<i32>);

/// A move with its value for the mover as a dict (`None` without a table), as
/// `probe_moves` lists them.
type MoveValueDict<'py> = (Move, Option<Bound<'py, PyDict>>);

/// A value as `probe` gives it: `{"result": "win", "plies": 13, "by_rule": False}`, with
/// `plies` `None` for a draw and for a value by the perpetual-check rule.
fn value_dict(py: Python<'_>, d: Dtm) -> PyResult<Bound<'_, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("result", wdl_name(d.wdl()))?;
    dict.set_item("plies", d.plies())?;
    dict.set_item("by_rule", d.is_by_rule())?;
    Ok(dict)
}

fn wdl_name(w: Wdl) -> &'static str {
    match w {
        Wdl::Win => "win",
        Wdl::Draw => "draw",
        Wdl::Loss => "loss",
    }
}

/// A folder of endgame tables (残局库): the exact value of every position of each ending it
/// has, with the distance to mate.
///
/// `Tablebase()` opens the default folder (`$XIANGQI_EGTB_DIR`, else
/// `~/.cache/xiangqi/egtb`), generating the starter set there on first use (a lone
/// chariot, cannon, horse or pawn against every defence of advisors and elephants: 64
/// small files, seconds of work); `Tablebase(path)` opens the tables in `path` as they are.
/// `Tablebase.generate(endings, path)` makes more.
///
/// A value is what best play from the position reaches, whatever the board's history (the
/// tables know nothing of the 60-move rule). Where both sides have an attacking piece
/// (`"krkn"`, 车对马), the tables follow the Asian perpetual-check rule: a side that can
/// hold only by checking for ever loses, a win or loss *by the rule* without a distance to
/// mate (`probe` says `by_rule`); elsewhere nobody can give perpetual check and an endless
/// line is a draw.
#[pyclass(module = "xiangqi_rs", frozen)]
pub struct Tablebase {
    tb: xiangqi_egtb::Tablebase,
}

impl Tablebase {
    fn dtm(&self, py: Python<'_>, pos: &Position) -> PyResult<Option<Dtm>> {
        self.tb.probe_dtm(pos).map_err(|e| format_error(py, e))
    }
}

#[pymethods]
impl Tablebase {
    /// Opens the tables in `path` (a folder; a missing one raises `FileNotFoundError`, a
    /// damaged table `TablebaseError`). Without `path`: the default folder, where the
    /// starter set is generated first if any of it is missing.
    #[new]
    #[pyo3(signature = (path = None))]
    fn new(py: Python<'_>, path: Option<PathBuf>) -> PyResult<Tablebase> {
        let tb = match path {
            Some(dir) => py
                .detach(|| xiangqi_egtb::Tablebase::open(&dir))
                .map_err(|e| format_error(py, e))?,
            None => {
                let dir = xiangqi_egtb::default_dir();
                py.detach(|| xiangqi_egtb::open_with_starter(&dir, &mut |_| {}))
                    .map_err(|e| batch_error(py, e))?
            }
        };
        Ok(Tablebase { tb })
    }

    /// Generates the tables of `endings` (a name like `"krkaa"` or a list of names) and
    /// every table they need into `path` (the default folder when `None`; created if
    /// missing), keeping tables already there unless `force`, and returns the folder opened.
    /// The tables of one attacking piece take well under a second each; each added attacking
    /// piece multiplies time and size many times over. The GIL is released meanwhile; it
    /// cannot be interrupted.
    #[staticmethod]
    #[pyo3(signature = (endings, path = None, *, force = false))]
    fn generate(
        py: Python<'_>,
        endings: &Bound<'_, PyAny>,
        path: Option<PathBuf>,
        force: bool,
    ) -> PyResult<Tablebase> {
        let wanted = endings_arg(endings)?;
        let dir = path.unwrap_or_else(xiangqi_egtb::default_dir);
        py.detach(|| xiangqi_egtb::generate_into(&dir, &wanted, force, &mut |_| {}))
            .map_err(|e| batch_error(py, e))?;
        let tb = py
            .detach(|| xiangqi_egtb::Tablebase::open(&dir))
            .map_err(|e| format_error(py, e))?;
        Ok(Tablebase { tb })
    }

    /// The folder `Tablebase()` uses: `$XIANGQI_EGTB_DIR`, else `$XDG_CACHE_HOME/xiangqi/egtb`,
    /// else `~/.cache/xiangqi/egtb`.
    #[staticmethod]
    fn default_path() -> PathBuf {
        xiangqi_egtb::default_dir()
    }

    /// The endings of the starter set, by name (`"krk"`, `"krka"`, ... `"kpkaabb"`).
    #[staticmethod]
    fn starter_endings() -> Vec<String> {
        xiangqi_egtb::starter_endings()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// The name of an ending, strong side first (`"KAAKR"` -> `"krkaa"`).
    #[staticmethod]
    fn ending_name(ending: &str) -> PyResult<String> {
        Ok(material_arg(ending)?.to_string())
    }

    /// The Chinese name of an ending as players say it: `"krkaabb"` -> `"车对士象全"`.
    #[staticmethod]
    fn chinese_name(ending: &str) -> PyResult<String> {
        Ok(material_arg(ending)?.chinese_name())
    }

    /// The ending of a board's position, strong side first (`"kcpkaa"`): the table that
    /// answers for it.
    #[staticmethod]
    fn ending(board: PyRef<'_, Board>) -> String {
        Material::of(board.pos()).to_string()
    }

    /// The folder the tables are in.
    #[getter]
    fn path(&self) -> PathBuf {
        self.tb.dir().to_path_buf()
    }

    /// The endings with a table here, by name, sorted.
    #[getter]
    fn materials(&self) -> Vec<String> {
        self.tb
            .materials()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// Whether the ending (a name, either side first) has a table here.
    fn has(&self, ending: &str) -> PyResult<bool> {
        Ok(self.tb.has(material_arg(ending)?))
    }

    /// `"win"`, `"draw"` or `"loss"` for the side to move (a side without a legal move has
    /// lost: `"loss"`; a win or loss by the perpetual-check rule is a `"win"` or `"loss"`
    /// too), or `None` when the ending has no table here. Positions where neither side has
    /// an attacking piece are draws without a table.
    fn probe_wdl(&self, py: Python<'_>, board: PyRef<'_, Board>) -> PyResult<Option<&'static str>> {
        Ok(self.dtm(py, board.pos())?.map(|d| wdl_name(d.wdl())))
    }

    /// The distance to mate in plies (half-moves) with best play on both sides, for the side
    /// to move: positive when it wins (odd: `1` mates at once), negative when it loses
    /// (even: `-2` is mated after any move), `0` for a draw; `None` when the ending has no
    /// table here. A side with no legal move (mated or stalemated: lost) is also `0`, the
    /// game being over already; `probe_wdl` says `"loss"` for it. A win or loss by the
    /// perpetual-check rule has no distance to mate: `None` too, which `probe` and
    /// `probe_wdl` tell apart from a missing table.
    fn probe_dtm(&self, py: Python<'_>, board: PyRef<'_, Board>) -> PyResult<Option<i32>> {
        Ok(self.dtm(py, board.pos())?.and_then(dtm_int))
    }

    /// The table's value for the side to move as a dict: `{"result": "win", "plies": 13,
    /// "by_rule": False}`; `result` as `probe_wdl` says it, `plies` as `probe_dtm` counts it
    /// but unsigned (`None` for a draw and for a value by the rule), `by_rule` `True` for a
    /// win or loss by the perpetual-check rule. `None` when the ending has no table here.
    fn probe<'py>(
        &self,
        py: Python<'py>,
        board: PyRef<'_, Board>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.dtm(py, board.pos())?
            .map(|d| value_dict(py, d))
            .transpose()
    }

    /// Every legal move with its value for the side that plays it, best first (the
    /// quickest mate, then wins by the perpetual-check rule, draws, losses by the rule, then
    /// the slowest loss): `(Move, dtm)` with `dtm` as `probe_dtm` counts it from the mover's
    /// side before the move (`1` mates at once, `-4`: mated in 4 plies from here), or `None`
    /// for a move into an ending without a table and for a value by the rule (no distance:
    /// `probe_moves` tells them apart). `None` when the position has no table; `[]` when it
    /// has no legal move.
    fn moves(&self, py: Python<'_>, board: PyRef<'_, Board>) -> PyResult<Option<Vec<MoveValue>>> {
        let moves = self
            .tb
            .probe_moves(board.pos())
            .map_err(|e| format_error(py, e))?;
        Ok(moves.map(|v| {
            v.into_iter()
                .map(|m| (Move(m.mv), m.value.and_then(dtm_int)))
                .collect()
        }))
    }

    /// Every legal move with its value for the side that plays it, best first as `moves`
    /// orders them: `(Move, value)` with `value` a dict as `probe` gives it, from the
    /// mover's side before the move (`{"result": "win", "plies": 1, "by_rule": False}` mates
    /// at once), or `None` for a move into an ending without a table. `None` when the
    /// position has no table; `[]` when it has no legal move.
    fn probe_moves<'py>(
        &self,
        py: Python<'py>,
        board: PyRef<'_, Board>,
    ) -> PyResult<Option<Vec<MoveValueDict<'py>>>> {
        let moves = self
            .tb
            .probe_moves(board.pos())
            .map_err(|e| format_error(py, e))?;
        moves
            .map(|v| {
                v.into_iter()
                    .map(|m| Ok((Move(m.mv), m.value.map(|d| value_dict(py, d)).transpose()?)))
                    .collect()
            })
            .transpose()
    }

    /// The best move by the table: the quickest mate when winning, else the table's move
    /// toward a win by the perpetual-check rule, a move that keeps the draw when drawn, the
    /// longest resistance when losing (checking for as long as it may against a win by the
    /// rule, the slowest mate otherwise); `None` without a table or a legal move.
    fn best_move(&self, py: Python<'_>, board: PyRef<'_, Board>) -> PyResult<Option<Move>> {
        let best = self
            .tb
            .best_move(board.pos())
            .map_err(|e| format_error(py, e))?;
        Ok(best.map(|(m, _)| Move(m)))
    }

    /// A random position of `ending` (strong side red, red to move) that is a `result`
    /// (`"win"`, `"draw"` or `"loss"` for red; `None` for any) at least `min_plies` from mate,
    /// the same for the same `seed`; `None` when the ending has no table here or no such
    /// position turned up in 200,000 tries. A win or loss by the perpetual-check rule counts
    /// as a `"win"` or `"loss"` with no distance (only with `min_plies` 0); `by_rule` `True`
    /// asks for values by the rule only, `False` for the others only, `None` for either.
    #[pyo3(signature = (ending, result = Some("win"), seed = 0, *, min_plies = 0, by_rule = None))]
    fn random_position(
        &self,
        py: Python<'_>,
        ending: &str,
        result: Option<&str>,
        seed: u64,
        min_plies: u16,
        by_rule: Option<bool>,
    ) -> PyResult<Option<Board>> {
        let material = material_arg(ending)?;
        let want = match result {
            None => None,
            Some("win") => Some(Wdl::Win),
            Some("draw") => Some(Wdl::Draw),
            Some("loss") => Some(Wdl::Loss),
            Some(other) => {
                return Err(crate::errors::value_error(format!(
                    "result {other:?}: \"win\", \"draw\", \"loss\" or None"
                )))
            }
        };
        if want == Some(Wdl::Draw) && min_plies > 0 {
            return Err(crate::errors::value_error(
                "a draw has no distance to mate: min_plies must be 0",
            ));
        }
        if by_rule == Some(true) && (want == Some(Wdl::Draw) || min_plies > 0) {
            return Err(crate::errors::value_error(
                "a value by the perpetual-check rule is a win or a loss without a distance: \
                 by_rule=True needs a result other than \"draw\" and min_plies 0",
            ));
        }
        let fits = |d: Dtm| {
            want.is_none_or(|w| d.wdl() == w)
                && d.plies().unwrap_or(0) >= min_plies
                && by_rule.is_none_or(|b| d.is_by_rule() == b)
        };
        let pos = py
            .detach(|| self.tb.random_position(material, fits, seed))
            .map_err(|e| format_error(py, e))?;
        Ok(pos.map(|p| Board { game: Game::new(p) }))
    }

    fn __repr__(&self) -> String {
        format!(
            "Tablebase({:?}, tables={})",
            self.tb.dir().display().to_string(),
            self.tb.materials().len()
        )
    }
}
