//! The exceptions: every one a `ValueError` subclass, carrying the core's message.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

create_exception!(
    xiangqi,
    XiangqiError,
    PyValueError,
    "Base class of the errors of this module (a ValueError)."
);
create_exception!(
    xiangqi,
    FenError,
    XiangqiError,
    "A FEN that cannot be read, or a position that breaks the rules."
);
create_exception!(
    xiangqi,
    IllegalMoveError,
    XiangqiError,
    "A move that is not legal in the position (the board is left unchanged)."
);
create_exception!(
    xiangqi,
    NotationError,
    XiangqiError,
    "Move text (ICCS, WXF or Chinese) that names no legal move, or names several."
);
create_exception!(
    xiangqi,
    RecordError,
    XiangqiError,
    "A game record that cannot be read, or (strict mode) one with a warning; `.warning` \
     is the `RecordWarning` (kind, message, place) and `.format` the format."
);
create_exception!(
    xiangqi,
    PgnError,
    RecordError,
    "A PGN record that cannot be read (the message gives line and column)."
);
create_exception!(
    xiangqi,
    XqfError,
    RecordError,
    "An XQF record that cannot be read (the message gives the byte offset)."
);
create_exception!(
    xiangqi,
    TablebaseError,
    XiangqiError,
    "A tablebase file that is damaged or not a table (`.path` names it), an ending that \
     cannot be generated, or a bad ending name. A file or folder that cannot be read at all \
     raises an `OSError` (`FileNotFoundError`...) instead."
);

/// A `XiangqiError` carrying `message` (bad arguments: squares, depths, names).
pub fn value_error(message: impl Into<String>) -> PyErr {
    XiangqiError::new_err(message.into())
}

/// Maps a core error type to its exception class with the error's own message.
pub trait IntoPyErr {
    /// The exception.
    fn into_py_err(self) -> PyErr;
}

macro_rules! maps_to {
    ($($error:ty => $exception:ident),* $(,)?) => {
        $(impl IntoPyErr for $error {
            fn into_py_err(self) -> PyErr {
                $exception::new_err(self.to_string())
            }
        })*
    };
}

maps_to!(
    xiangqi_core::FenError => FenError,
    xiangqi_core::IllegalMove => IllegalMoveError,
    xiangqi_core::NotationError => NotationError,
    xiangqi_records::pgn::PgnError => PgnError,
    xiangqi_records::xqf::XqfError => XqfError,
);

/// Coordinate text: bad syntax is a notation error, a well-formed illegal move an illegal move.
impl IntoPyErr for xiangqi_core::UciMoveError {
    fn into_py_err(self) -> PyErr {
        match self {
            xiangqi_core::UciMoveError::Syntax(e) => NotationError::new_err(e.to_string()),
            xiangqi_core::UciMoveError::Illegal(e) => IllegalMoveError::new_err(e.to_string()),
        }
    }
}

/// `result.map_err(IntoPyErr::into_py_err)` in one call.
pub fn py<T, E: IntoPyErr>(result: Result<T, E>) -> pyo3::PyResult<T> {
    result.map_err(IntoPyErr::into_py_err)
}
