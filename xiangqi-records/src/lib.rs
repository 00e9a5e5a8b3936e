#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]
// A read returns one error, once per file: its size (a warning with its place, about 160
// bytes) costs nothing worth a box.
#![allow(clippy::result_large_err)]

pub mod cbf;
pub mod cbr;
mod detect;
pub mod ecco;

pub mod pgn;
mod record;
mod text;
pub mod tree;
pub mod ubb;
pub mod warning;
pub mod xqf;

pub use detect::{detect, read, read_with};
pub use record::{Format, Loaded, Options, ReadError, Record};
pub use tree::{GameTree, Node, NodeId};
pub use warning::{Place, Warning, WarningKind};
