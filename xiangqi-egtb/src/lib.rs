#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod batch;
mod board;
mod compare;
mod format;
mod generate;
mod index;
mod material;
mod platform;
mod playout;
mod probe;
mod retro;
mod rules;
mod sets;
mod starter;
mod stats;
mod table;
mod value;
mod verify;

pub use batch::{direct_subs, generate_into, BatchError, Event};
pub use compare::{Class, Comparison, Disagreement, LineError, Value, ValueError};
pub use format::{is_usable, table_path, write_table, FormatError, BLOCK, MAGIC, VERSION};
pub use generate::{generate, Progress};
pub use index::Layout;
pub use material::{Material, MaterialError, ATTACKERS};
pub use playout::{play_out, play_out_with, Defence, PlayOut};
pub use probe::{MoveValue, Tablebase};
pub use retro::GenerateError;
pub use sets::{set1, set2, set3, with_dependencies};
pub use starter::{
    default_dir, is_complete, open_if_present, open_with_starter, starter_endings, DIR_VARIABLE,
};
pub use stats::{SideStats, TableStats};
pub use table::{Rules, TableData, MAX_PLIES};
pub use value::{Dtm, Wdl};
pub use verify::{verify_table, verify_table_with, VerifyReport};
