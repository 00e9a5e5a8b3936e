//! # xiangqi-records
//!
//! Game records for xiangqi as they are really kept: a [`Record`] holds the tags, the
//! result and a [`GameTree`] of moves with every variation, comment and NAG. Readers and
//! writers for PGN ([`pgn`]), XQF ([`xqf`]), DhtmlXQ/UBB ([`ubb`]), 象棋桥 CBF ([`cbf`])
//! and CBR/CBL ([`cbr`], read), and plain move lists in any notation; [`read`] detects the
//! format and the text encoding from the bytes. [`ecco`] names the opening.
//!
//! Readers are lenient: they load everything they can and report what they skipped as
//! [`Warning`]s with places; [`Options::strict`] turns every warning into an error. None
//! panics on any input.
//!
//! ```
//! let text = "[Game \"Chinese Chess\"]\n1. 炮二平五 (1. 兵七进一 {仙人指路}) 1... 马８进７ *\n";
//! let loaded = xiangqi_records::read(text.as_bytes())?;
//! let record = &loaded.records[0];
//! assert_eq!(loaded.format, xiangqi_records::Format::Pgn);
//! assert_eq!(record.tree.main_line_moves().len(), 2);
//! assert_eq!(record.tree.leaf_count(), 2);
//! let xqf = xiangqi_records::xqf::write(record);
//! let back = xiangqi_records::read(&xqf)?;
//! assert_eq!(back.records[0].tree, record.tree);
//! # Ok::<_, xiangqi_records::ReadError>(())
//! ```
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
