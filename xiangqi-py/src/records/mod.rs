//! Game records through `xiangqi-records`: every format it reads (PGN, XQF, DhtmlXQ/UBB,
//! CBF, CBR/CBL, plain move lists), detected from the bytes, into games with tags,
//! comments and the whole variation tree; writing PGN (UTF-8 or GB18030), XQF, UBB and
//! CBF; the warnings of the lenient readers; ECCO openings.

mod game;
mod game_data;
mod node;
mod reading;
mod warning;
mod writing;

pub use game_data::Game;
pub use node::GameNode;
pub use reading::{
    read, read_cbf, read_cbr, read_from_pgn, read_from_xqf, read_pgn, read_ubb, read_xqf, Records,
};
pub use warning::RecordWarning;
pub(crate) use writing::pgn_text;
pub use writing::{ecco_name, write, write_cbf, write_pgn, write_ubb, write_xqf};

use pyo3::prelude::*;
use xiangqi_records::Format;

/// A format named by its usual name (case-insensitive): `pgn`, `xqf`, `ubb` (or
/// `dhtmlxq`), `cbf`, `cbr`, `cbl`, `text`.
fn format_arg(name: &str) -> PyResult<Format> {
    Ok(match name.to_ascii_lowercase().as_str() {
        "pgn" => Format::Pgn,
        "xqf" => Format::Xqf,
        "ubb" | "dhtmlxq" => Format::Ubb,
        "cbf" => Format::Cbf,
        "cbr" => Format::Cbr,
        "cbl" => Format::Cbl,
        "text" | "txt" => Format::Text,
        _ => {
            return Err(crate::errors::value_error(format!(
                "format {name:?} is not pgn, xqf, ubb, cbf, cbr, cbl or text"
            )))
        }
    })
}

/// Record data as bytes: `str` is taken as UTF-8 text.
fn record_bytes(data: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(text) = data.extract::<String>() {
        return Ok(text.into_bytes());
    }
    data.extract::<Vec<u8>>()
        .map_err(|_| pyo3::exceptions::PyTypeError::new_err("expected the record as bytes or str"))
}
