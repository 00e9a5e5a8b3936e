#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod choice;
pub mod data;
pub mod datagen;
mod evaluator;
pub mod features;
pub mod net;
pub mod shard;
pub mod train;

pub use choice::EvalChoice;
pub use evaluator::NnueEvaluator;
pub use net::{LoadError, NetError, Network};
