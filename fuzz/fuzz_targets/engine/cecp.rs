//! The engine's CECP command parser (its `cecp/parse.rs`).

#[path = "../../../xiangqi-engine/src/cecp/parse.rs"]
pub mod parse;
