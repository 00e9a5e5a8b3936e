//! Writing: PGN (UTF-8 or GB18030, in any notation), XQF, DhtmlXQ/UBB and CBF; ECCO names.

use super::game_data::Game;
use crate::errors::value_error;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use xiangqi_records::pgn::{self, MoveFormat, WriteOptions};
use xiangqi_records::{cbf, ubb, xqf, Record};

/// A PGN move notation named `chinese`, `wxf` or `iccs` (case-insensitive).
fn notation_arg(name: Option<&str>) -> PyResult<Option<MoveFormat>> {
    let Some(name) = name else { return Ok(None) };
    Ok(Some(match name.to_ascii_lowercase().as_str() {
        "chinese" => MoveFormat::Chinese,
        "wxf" => MoveFormat::Wxf,
        "iccs" | "uci" => MoveFormat::Iccs,
        _ => {
            return Err(value_error(format!(
                "notation {name:?} is not chinese, wxf or iccs"
            )))
        }
    }))
}

/// `records` as PGN text, a blank line between games.
pub(crate) fn pgn_text(records: &[Record], notation: Option<&str>) -> PyResult<String> {
    let options = WriteOptions {
        notation: notation_arg(notation)?,
    };
    Ok(pgn::write_records(records, &options))
}

/// Text in `encoding`: UTF-8, or GB18030 (GBK's superset, for programs that read only it).
fn encode_text(text: String, encoding: &str) -> PyResult<Vec<u8>> {
    match encoding.to_ascii_lowercase().replace('_', "-").as_str() {
        "utf-8" | "utf8" => Ok(text.into_bytes()),
        "gb18030" | "gbk" | "gb2312" => Ok(pgn::to_gb18030(&text)),
        _ => Err(value_error(format!(
            "encoding {encoding:?} is not utf-8 or gb18030"
        ))),
    }
}

/// The one record a single-game format can hold.
fn single<'a>(records: &'a [Record], format: &str) -> PyResult<&'a Record> {
    match records {
        [one] => Ok(one),
        _ => Err(value_error(format!(
            "{format} holds one game; {} given",
            records.len()
        ))),
    }
}

/// `records` as the bytes of a file in `format`.
pub(crate) fn encode(
    records: &[Record],
    format: &str,
    encoding: &str,
    notation: Option<&str>,
) -> PyResult<Vec<u8>> {
    if notation.is_some() && !format.eq_ignore_ascii_case("pgn") {
        return Err(value_error("notation applies to PGN only"));
    }
    match format.to_ascii_lowercase().as_str() {
        "pgn" => encode_text(pgn_text(records, notation)?, encoding),
        "xqf" => Ok(xqf::write(single(records, "XQF")?)),
        "ubb" | "dhtmlxq" => encode_text(ubb::write(single(records, "UBB")?), encoding),
        "cbf" => {
            // The XML declares itself UTF-8.
            if !matches!(encoding.to_ascii_lowercase().as_str(), "utf-8" | "utf8") {
                return Err(value_error("CBF is written in UTF-8 only"));
            }
            Ok(cbf::write(single(records, "CBF")?).into_bytes())
        }
        _ => Err(value_error(format!(
            "cannot write format {format:?}: pgn, xqf, ubb and cbf can be written"
        ))),
    }
}

/// The format a file name's extension names.
pub(crate) fn format_of_path(path: &std::path::Path) -> PyResult<String> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    match ext.as_str() {
        "pgn" | "xqf" | "ubb" | "cbf" => Ok(ext),
        "txt" => Ok("ubb".into()),
        _ => Err(value_error(format!(
            "cannot tell the format from {}: give format=",
            path.display()
        ))),
    }
}

/// The records of a `Game` or a sequence of them.
fn records_of(games: &Bound<'_, PyAny>) -> PyResult<Vec<Record>> {
    if let Ok(g) = games.cast::<Game>() {
        return Ok(vec![g.borrow().record.clone()]);
    }
    let mut out = Vec::new();
    for item in games.try_iter()? {
        out.push(item?.cast::<Game>()?.borrow().record.clone());
    }
    Ok(out)
}

/// Writes a `Game` (or, for PGN, a sequence of them) as the bytes of a file in `format`
/// (`"pgn"`, `"xqf"`, `"ubb"`, `"cbf"`); `encoding` `"utf-8"` or `"gb18030"` for PGN and
/// UBB; `notation` (`"chinese"`, `"wxf"`, `"iccs"`) for PGN, by default each game's
/// `Format` tag. What each format keeps: PGN everything; XQF the tree and one comment a
/// move (no NAGs, header strings cut to their fields); UBB the tree and comments; CBF
/// the main line and its comments.
#[pyfunction]
#[pyo3(signature = (games, format = "pgn", *, encoding = "utf-8", notation = None))]
pub fn write<'py>(
    py: Python<'py>,
    games: &Bound<'py, PyAny>,
    format: &str,
    encoding: &str,
    notation: Option<&str>,
) -> PyResult<Bound<'py, PyBytes>> {
    let records = records_of(games)?;
    let bytes = py.detach(|| encode(&records, format, encoding, notation))?;
    Ok(PyBytes::new(py, &bytes))
}

/// Writes `game` as PGN text, every variation and comment included; moves in `notation`
/// (`"chinese"`, `"wxf"`, `"iccs"`), by default that of its `Format` tag.
#[pyfunction]
#[pyo3(signature = (game, notation = None))]
pub fn write_pgn(game: PyRef<'_, Game>, notation: Option<&str>) -> PyResult<String> {
    pgn_text(std::slice::from_ref(&game.record), notation)
}

/// Writes `game` as XQF bytes (version 1.0, not encrypted).
#[pyfunction]
pub fn write_xqf<'py>(py: Python<'py>, game: PyRef<'_, Game>) -> Bound<'py, PyBytes> {
    PyBytes::new(py, &xqf::write(&game.record))
}

/// Writes `game` as DhtmlXQ/UBB text.
#[pyfunction]
pub fn write_ubb(game: PyRef<'_, Game>) -> String {
    ubb::write(&game.record)
}

/// Writes `game` as 象棋桥 CBF (XML text).
#[pyfunction]
pub fn write_cbf(game: PyRef<'_, Game>) -> String {
    cbf::write(&game.record)
}

/// The name of ECCO code `code` (`"D30"` → `"中炮不进三兵对左炮封车转列炮"`), or `None`.
#[pyfunction]
pub fn ecco_name(code: &str) -> Option<&'static str> {
    xiangqi_records::ecco::name(code)
}
