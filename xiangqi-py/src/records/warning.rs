//! `RecordWarning`: what a lenient reader skipped or repaired, and where.

use pyo3::prelude::*;
use xiangqi_records::Warning;

/// A problem a reader got past: its `kind` (`"bad_move"`, `"truncated"`, ...), the
/// `message`, and the place: `game` (0-based), `line` and `column` (text formats, 1-based),
/// `offset` (binary formats), `ply` (1 = the first move) where known. `str()` gives all of
/// it in words.
#[pyclass(module = "xiangqi_rs", frozen)]
#[derive(Clone)]
pub struct RecordWarning(pub Warning);

/// `CamelCase` to `snake_case`.
fn snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

impl RecordWarning {
    /// The kind's name: its variant in `snake_case`, taken from the debug form so a kind
    /// added to the records crate gets its name here without a change.
    pub fn kind_name(w: &Warning) -> String {
        let debug = format!("{:?}", w.kind);
        let end = debug
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(debug.len());
        snake(&debug[..end])
    }
}

#[pymethods]
impl RecordWarning {
    /// What: `"text_outside_game"`, `"separator_line"`, `"bad_tag"`, `"unknown_tag"`,
    /// `"fen_repaired"`, `"bad_fen"`, `"bad_move"`, `"unterminated"`,
    /// `"unbalanced_parenthesis"`, `"variation_without_move"`, `"missing_result"`,
    /// `"result_mismatch"`, `"truncated"`, `"bad_square"`, `"bad_field"`,
    /// `"mismatched_close"`, `"bad_encoding"`, `"not_this_format"`, `"no_game"`.
    #[getter]
    fn kind(&self) -> String {
        RecordWarning::kind_name(&self.0)
    }

    /// What, in words (without the place).
    #[getter]
    fn message(&self) -> String {
        self.0.kind.to_string()
    }

    /// The place in words: `game 1, line 12, column 20, move 3...`.
    #[getter]
    fn place(&self) -> String {
        self.0.place.to_string()
    }

    /// Which game of the file (0-based).
    #[getter]
    fn game(&self) -> usize {
        self.0.place.game
    }

    /// The line (text formats, 1-based).
    #[getter]
    fn line(&self) -> Option<usize> {
        self.0.place.line
    }

    /// The column (text formats, 1-based, in characters).
    #[getter]
    fn column(&self) -> Option<usize> {
        self.0.place.column
    }

    /// The byte offset (binary formats).
    #[getter]
    fn offset(&self) -> Option<usize> {
        self.0.place.offset
    }

    /// The ply concerned (1 = the first move), if any.
    #[getter]
    fn ply(&self) -> Option<usize> {
        self.0.place.ply
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "RecordWarning(kind={:?}, place={:?}, message={:?})",
            self.kind(),
            self.place(),
            self.message()
        )
    }
}
