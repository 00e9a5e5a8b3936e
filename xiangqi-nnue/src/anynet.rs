//! A net file of any format: the first two (one accumulator, [`Network`]) or the layered one
//! ([`LayeredNet`]), told apart by the magic. Callers that load a file named by a user (the
//! engine's `EvalFile`, the command line) go through here so that every net ever written
//! still loads.

use crate::choice::EvalChoice;
use crate::layered::{LayeredEvaluator, LayeredNet};
use crate::net::{LoadError, NetError, Network};
use crate::NnueEvaluator;
use std::sync::Arc;

/// A loaded net of either family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyNet {
    /// A net of format 1 or 2.
    Simple(Arc<Network>),
    /// A net of format 3.
    Layered(Arc<LayeredNet>),
}

impl AnyNet {
    /// Reads a net file's bytes of any format.
    pub fn from_bytes(bytes: &[u8]) -> Result<AnyNet, NetError> {
        if bytes.get(..8) == Some(crate::layered::net::MAGIC.as_slice()) {
            LayeredNet::from_bytes(bytes).map(|n| AnyNet::Layered(Arc::new(n)))
        } else {
            Network::from_bytes(bytes).map(|n| AnyNet::Simple(Arc::new(n)))
        }
    }

    /// Reads the net file at `path`.
    pub fn load(path: impl AsRef<std::path::Path>) -> Result<AnyNet, LoadError> {
        let bytes = std::fs::read(path.as_ref()).map_err(LoadError::Io)?;
        AnyNet::from_bytes(&bytes).map_err(LoadError::Net)
    }

    /// The net as a file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            AnyNet::Simple(n) => n.to_bytes(),
            AnyNet::Layered(n) => n.to_bytes(),
        }
    }

    /// An evaluator running this net.
    pub fn evaluator(&self) -> EvalChoice {
        match self {
            AnyNet::Simple(n) => EvalChoice::Nnue(NnueEvaluator::with_network(n.clone())),
            AnyNet::Layered(n) => EvalChoice::Layered(LayeredEvaluator::new(n.clone())),
        }
    }
}
