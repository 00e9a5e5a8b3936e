//! The layered net (file format 3): general-bucketed inputs ([`crate::buckets`]), an
//! accumulator of any width, one or two small hidden layers in integers, and layer stacks
//! chosen by material. The first format's net ([`crate::Network`]) and its evaluator stay as
//! they are; [`crate::AnyNet`] reads either file.

mod cache;
mod evaluator;
mod infer;
pub mod net;
mod update;
mod vnni;

pub use evaluator::LayeredEvaluator;
pub use net::{LayeredNet, Shape, Stack};
