#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
// The one exception, the audited intrinsics of `layered/vnni.rs`, allows it there.
#![deny(unsafe_code)]

mod anynet;
pub mod buckets;
mod choice;
pub mod data;
pub mod datagen;
mod evaluator;
pub mod features;
pub mod layered;
pub mod net;
pub mod shard;
pub mod speed;
pub mod train;

pub use anynet::AnyNet;
pub use choice::EvalChoice;
pub use evaluator::NnueEvaluator;
pub use layered::{LayeredEvaluator, LayeredNet};
pub use net::{LoadError, NetError, Network};
