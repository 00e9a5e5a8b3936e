//! Reading: `read` (any format, detected; from bytes or a path), the per-format readers,
//! and `Records`, what a read returns.

// `ReadError` (a warning with its place, about 160 bytes) comes once per file read, as
// in `xiangqi-records`: not worth a box.
#![allow(clippy::result_large_err)]

use super::game_data::Game;
use super::warning::RecordWarning;
use super::{format_arg, record_bytes};
use crate::errors::{PgnError, RecordError, XqfError};
use pyo3::prelude::*;
use pyo3::types::{PyIterator, PyList};
use xiangqi_records::{Format, Loaded, Options, ReadError, Warning, WarningKind};

/// The games of one file with what the reader found: `format` (`"PGN"`, `"XQF"`,
/// `"DhtmlXQ"`, `"CBF"`, `"CBR"`, `"CBL"`, `"text"`), `encoding` (`"UTF-8"`, `"GB18030"`,
/// `"Big5"`, ...) and every `warnings` of the file. A sequence of `Game`s: `len()`,
/// indexing and iteration work on it.
#[pyclass(module = "xiangqi_rs", frozen, sequence)]
pub struct Records {
    games: Vec<Py<Game>>,
    format: &'static str,
    encoding: &'static str,
    warnings: Vec<Warning>,
}

impl Records {
    fn new(py: Python<'_>, loaded: Loaded) -> PyResult<Records> {
        let Loaded {
            format,
            encoding,
            records,
            games,
            warnings,
        } = loaded;
        let games = records
            .into_iter()
            .zip(games)
            .map(|(record, index)| {
                let own = warnings
                    .iter()
                    .filter(|w| w.place.game == index)
                    .cloned()
                    .collect();
                Py::new(py, Game::from_record(record, own))
            })
            .collect::<PyResult<_>>()?;
        Ok(Records {
            games,
            format: format.name(),
            encoding,
            warnings,
        })
    }
}

#[pymethods]
impl Records {
    /// The games, in file order.
    #[getter]
    fn games(&self, py: Python<'_>) -> Vec<Py<Game>> {
        self.games.iter().map(|g| g.clone_ref(py)).collect()
    }

    /// The format read.
    #[getter]
    fn format(&self) -> &'static str {
        self.format
    }

    /// The text encoding found (binary formats: that of their strings).
    #[getter]
    fn encoding(&self) -> &'static str {
        self.encoding
    }

    /// What was skipped or repaired, in file order (`RecordWarning`s).
    #[getter]
    fn warnings(&self) -> Vec<RecordWarning> {
        self.warnings.iter().cloned().map(RecordWarning).collect()
    }

    fn __len__(&self) -> usize {
        self.games.len()
    }

    fn __getitem__(&self, py: Python<'_>, index: isize) -> PyResult<Py<Game>> {
        let n = self.games.len() as isize;
        let i = if index < 0 { index + n } else { index };
        if !(0..n).contains(&i) {
            return Err(pyo3::exceptions::PyIndexError::new_err(
                "game index out of range",
            ));
        }
        Ok(self.games[i as usize].clone_ref(py))
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        PyList::new(py, &self.games)?.try_iter()
    }

    fn __repr__(&self) -> String {
        format!(
            "Records(format={:?}, encoding={:?}, games={}, warnings={})",
            self.format,
            self.encoding,
            self.games.len(),
            self.warnings.len()
        )
    }
}

/// The exception for a file that could not be read: `PgnError` for PGN and plain text,
/// `XqfError` for XQF, `RecordError` for the others; `.warning` holds the
/// `RecordWarning` and `.format` the format.
fn read_error(py: Python<'_>, format: Format, warning: Warning, message: String) -> PyErr {
    let err = match format {
        Format::Pgn | Format::Text => PgnError::new_err(message),
        Format::Xqf => XqfError::new_err(message),
        _ => RecordError::new_err(message),
    };
    let value = err.value(py);
    let attached = Py::new(py, RecordWarning(warning))
        .and_then(|w| value.setattr("warning", w))
        .and_then(|()| value.setattr("format", format.name()));
    match attached {
        Ok(()) => err,
        Err(e) => e,
    }
}

fn from_read_error(py: Python<'_>, e: ReadError) -> PyErr {
    let message = e.to_string();
    read_error(py, e.format, e.warning, message)
}

/// Reads `bytes` with the GIL released.
fn load(py: Python<'_>, bytes: Vec<u8>, format: Option<Format>, strict: bool) -> PyResult<Records> {
    let options = Options { strict, format };
    let loaded = py
        .detach(move || xiangqi_records::read_with(&bytes, &options))
        .map_err(|e| from_read_error(py, e))?;
    Records::new(py, loaded)
}

/// Data given as `bytes` (or `bytearray`), or a path (`str` or `os.PathLike`) to read.
fn data_or_path(source: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if source.extract::<String>().is_err() {
        if let Ok(bytes) = source.extract::<Vec<u8>>() {
            return Ok(bytes);
        }
    }
    let path: std::path::PathBuf = source.extract().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err("expected bytes, or a path as str or os.PathLike")
    })?;
    Ok(std::fs::read(path)?)
}

/// Reads a record file of any format: `source` is the file's bytes, or its path (`str`
/// or `os.PathLike`). The format (PGN, XQF, DhtmlXQ/UBB, CBF, CBR, CBL, plain move list)
/// and the text encoding are found from the bytes, or `format` names the format. Every
/// game comes with its tags, start position, variations and comments.
///
/// Lenient by default: what cannot be read is skipped and reported in `warnings`; with
/// `strict=True` the first warning raises instead. A file with nothing readable raises
/// `RecordError` (`PgnError` for PGN and text, `XqfError` for XQF; all `ValueError`s).
#[pyfunction]
#[pyo3(signature = (source, *, format = None, strict = false))]
pub fn read(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
    strict: bool,
) -> PyResult<Records> {
    let format = format.map(format_arg).transpose()?;
    load(py, data_or_path(source)?, format, strict)
}

/// Reads DhtmlXQ/UBB data (`bytes` in any supported encoding, or `str`).
#[pyfunction]
#[pyo3(signature = (data, *, strict = false))]
pub fn read_ubb(data: &Bound<'_, PyAny>, strict: bool) -> PyResult<Records> {
    load(data.py(), record_bytes(data)?, Some(Format::Ubb), strict)
}

/// Reads 象棋桥 CBF (XML) data (`bytes` or `str`).
#[pyfunction]
#[pyo3(signature = (data, *, strict = false))]
pub fn read_cbf(data: &Bound<'_, PyAny>, strict: bool) -> PyResult<Records> {
    load(data.py(), record_bytes(data)?, Some(Format::Cbf), strict)
}

/// Reads 象棋桥 CBR (one game) or CBL (a library of games) data.
#[pyfunction]
#[pyo3(signature = (data, *, strict = false))]
pub fn read_cbr(py: Python<'_>, data: Vec<u8>, strict: bool) -> PyResult<Records> {
    let format = if data.starts_with(b"CCBridgeLibrary") {
        Format::Cbl
    } else {
        Format::Cbr
    };
    load(py, data, Some(format), strict)
}

/// Whether a PGN warning is one the main-line reader of earlier versions refused a file
/// for (`read_pgn` still raises for these; the others stay warnings).
fn refuses(w: &Warning) -> bool {
    matches!(
        w.kind,
        WarningKind::BadTag(_)
            | WarningKind::Unterminated(_)
            | WarningKind::UnbalancedParenthesis
            | WarningKind::BadFen(_)
            | WarningKind::BadMove { .. }
    )
}

/// The games of PGN `bytes`.
fn pgn_games(py: Python<'_>, bytes: Vec<u8>) -> PyResult<Vec<Py<Game>>> {
    let result = py.detach(move || {
        xiangqi_records::read_with(
            &bytes,
            &Options {
                strict: false,
                format: Some(Format::Pgn),
            },
        )
    });
    let loaded = match result {
        Ok(loaded) => loaded,
        Err(e) if refuses(&e.warning) => return Err(from_read_error(py, e)),
        // No game at all (empty text, text outside games): an empty list, as before.
        Err(_) => return Ok(Vec::new()),
    };
    if let Some(w) = loaded.warnings.iter().find(|w| refuses(w)) {
        let message = format!("PGN {w}");
        return Err(read_error(py, Format::Pgn, w.clone(), message));
    }
    Ok(Records::new(py, loaded)?.games)
}

/// Every game of a PGN record (`bytes` in any supported encoding, or `str`), with its
/// variations and comments. Raises `PgnError` (with line and column) for a malformed
/// tag, an unclosed comment or variation, a bad FEN or an illegal move; `read` reads
/// such files leniently instead.
#[pyfunction]
pub fn read_pgn(data: &Bound<'_, PyAny>) -> PyResult<Vec<Py<Game>>> {
    pgn_games(data.py(), record_bytes(data)?)
}

/// The game of an XQF record (XQStudio's binary format, encrypted versions included),
/// with its variations and comments.
#[pyfunction]
pub fn read_xqf(py: Python<'_>, data: Vec<u8>) -> PyResult<Py<Game>> {
    let records = load(py, data, Some(Format::Xqf), false)?;
    records
        .games
        .first()
        .map(|g| g.clone_ref(py))
        .ok_or_else(|| XqfError::new_err("XQF: no game found"))
}

/// Every game of the PGN file at `path` (cchess's name).
#[pyfunction]
pub fn read_from_pgn(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Vec<Py<Game>>> {
    pgn_games(py, std::fs::read(&path)?)
}

/// The game of the XQF file at `path` (cchess's name).
#[pyfunction]
pub fn read_from_xqf(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Py<Game>> {
    read_xqf(py, std::fs::read(&path)?)
}
