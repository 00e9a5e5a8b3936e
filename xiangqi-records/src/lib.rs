//! # xiangqi-records
//!
//! Game records for xiangqi: PGN ([`pgn`], read and write, UTF-8, GB18030/GBK and Big5)
//! and XQF ([`xqf`], XQStudio's binary format, read, including the encrypted versions).
//! Moves are read in any notation `xiangqi-core` knows (ICCS, WXF, Chinese).
//!
//! Every reader returns a typed error saying where the input is wrong (line and column,
//! or byte offset) and what is wrong; none panics on any input.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod pgn;
mod text;
pub mod xqf;
