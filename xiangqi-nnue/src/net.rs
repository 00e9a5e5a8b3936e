//! The quantised network: its layout, its file format and its arithmetic.
//!
//! The architecture is `(1260 → 256) × 2 → 1`: each side's perspective ([`crate::features`])
//! feeds a 256-wide feature transformer (the *accumulator*, kept up to date move by move),
//! the side to move's accumulator and then the other side's are squared after clipping to
//! `[0, 1]` (SCReLU) and a single output neuron weighs the 512 values. With a few million
//! training positions that is as much network as the data fills; a hidden layer adds
//! parameters that only pay with far more data (see `docs/NNUE.md`).
//!
//! Quantisation: the accumulator in `i16` at scale [`QA`] = 255, the output weights in `i16` at
//! scale [`QB`] = 256, the output bias in `i32` at `QA × QB`; the network's output times
//! [`SCALE`] is centipawns.
//!
//! A net file is the 8-byte magic `XQNNUE01`, then `u32` little-endian: the feature set
//! (1), the accumulator width (256) and the output weights' scale [`QB`] (256); then the feature weights
//! (1260 rows of 256 `i16`), the feature biases (256 `i16`), the output weights (512 `i16`)
//! and the output bias (`i32`), all little-endian; then the CRC-32 of everything before it.

use crate::features::FEATURES;
use core::fmt;
use multiversion::multiversion;

/// The accumulator's width (per perspective).
pub const HIDDEN: usize = 256;
/// The accumulator's quantisation scale: 1.0 is 255.
pub const QA: i32 = 255;
/// The output weights' quantisation scale: 1.0 is 256. Fine enough that rounding the output
/// weights costs a few centipawns (at 64 it cost 14 cp on average, see `docs/NNUE.md`); the
/// price is that an output weight is at most 127 / 256 ≈ 0.5, which trained nets stay well
/// inside.
pub const QB: i32 = 256;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// The largest output weight the quantised arithmetic allows: a clipped accumulator value
/// (at most 255) times a weight must fit in an `i16`.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;

const MAGIC: &[u8; 8] = b"XQNNUE01";
const FEATURE_SET: u32 = 1;
/// The size of a net file in bytes.
pub const FILE_BYTES: usize = 8 + 3 * 4 + (FEATURES * HIDDEN + HIDDEN + 2 * HIDDEN) * 2 + 4 + 4;

/// Why bytes are not a net this build can use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The bytes do not start with the magic `XQNNUE01`.
    NotANet,
    /// The file is shorter or longer than the architecture needs.
    WrongSize {
        /// The size the header's architecture needs.
        expected: usize,
        /// The size found.
        found: usize,
    },
    /// The net is for another feature set, width or output weights' scale.
    OtherArchitecture {
        /// What the header says: feature set, width, output weights' scale.
        found: [u32; 3],
    },
    /// The checksum does not match: the file is damaged.
    Checksum {
        /// The CRC-32 stored in the file.
        stored: u32,
        /// The CRC-32 of the bytes.
        computed: u32,
    },
    /// A weight lies outside what the integer arithmetic handles without overflow.
    WeightOutOfRange(&'static str),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::NotANet => write!(f, "not an NNUE net file (it does not start with XQNNUE01)"),
            NetError::WrongSize { expected, found } => write!(
                f,
                "a net file of this architecture has {expected} bytes, this one {found}: truncated or not for this build"
            ),
            NetError::OtherArchitecture { found } => write!(
                f,
                "the net is for feature set {}, width {}, output weight scale {}; this build reads feature set {FEATURE_SET}, width {HIDDEN}, output weight scale {QB}",
                found[0], found[1], found[2]
            ),
            NetError::Checksum { stored, computed } => write!(
                f,
                "the net file is damaged: its checksum is {stored:08x}, its bytes give {computed:08x}"
            ),
            NetError::WeightOutOfRange(which) => {
                write!(f, "the net's {which} are too large for the integer arithmetic")
            }
        }
    }
}

impl std::error::Error for NetError {}

/// Why a net file could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// Reading the file failed.
    Io(std::io::Error),
    /// The file is not a usable net.
    Net(NetError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(e) => write!(f, "cannot read the net: {e}"),
            LoadError::Net(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Io(e) => Some(e),
            LoadError::Net(e) => Some(e),
        }
    }
}

/// A quantised network, ready for inference. Share it between evaluators with an `Arc`.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// Per feature, its column of the feature transformer.
    pub(crate) feature_weights: Vec<[i16; HIDDEN]>,
    /// The feature transformer's biases.
    pub(crate) feature_bias: [i16; HIDDEN],
    /// The output weights: the side to move's half, then the other side's.
    pub(crate) output_weights: [[i16; HIDDEN]; 2],
    /// The output bias, at scale `QA × QB`.
    pub(crate) output_bias: i32,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The checksum of the file's body (the CRC of a whole file, checksum included, is
        // the same for every file).
        let bytes = self.to_bytes();
        write!(
            f,
            "Network(crc32 {:08x})",
            crc32fast::hash(&bytes[..bytes.len() - 4])
        )
    }
}

/// The net built into this crate (`nets/default.nnue`).
static EMBEDDED: &[u8] = include_bytes!("../nets/default.nnue");

impl Network {
    /// The net built into the binary.
    pub fn embedded() -> Network {
        // The embedded file is checked by a test; a build with a bad one fails loudly.
        Network::from_bytes(EMBEDDED).expect("the embedded net is valid")
    }

    /// The embedded net, read once per process and shared.
    pub fn shared_embedded() -> std::sync::Arc<Network> {
        static NET: std::sync::OnceLock<std::sync::Arc<Network>> = std::sync::OnceLock::new();
        NET.get_or_init(|| std::sync::Arc::new(Network::embedded()))
            .clone()
    }

    /// Reads the net file at `path`.
    pub fn load(path: impl AsRef<std::path::Path>) -> Result<Network, LoadError> {
        let bytes = std::fs::read(path.as_ref()).map_err(LoadError::Io)?;
        Network::from_bytes(&bytes).map_err(LoadError::Net)
    }

    /// Reads a net file's bytes, checking its header, size, checksum and weight ranges.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(NetError::NotANet);
        }
        if bytes.len() < 20 {
            return Err(NetError::WrongSize {
                expected: FILE_BYTES,
                found: bytes.len(),
            });
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let header = [word(8), word(12), word(16)];
        if header != [FEATURE_SET, HIDDEN as u32, QB as u32] {
            return Err(NetError::OtherArchitecture { found: header });
        }
        if bytes.len() != FILE_BYTES {
            return Err(NetError::WrongSize {
                expected: FILE_BYTES,
                found: bytes.len(),
            });
        }
        let body = &bytes[..FILE_BYTES - 4];
        let stored = word(FILE_BYTES - 4);
        let computed = crc32fast::hash(body);
        if stored != computed {
            return Err(NetError::Checksum { stored, computed });
        }
        let mut at = 20;
        let mut next_i16 = || {
            let v = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
            at += 2;
            v
        };
        let mut feature_weights = vec![[0i16; HIDDEN]; FEATURES];
        for row in &mut feature_weights {
            for w in row.iter_mut() {
                *w = next_i16();
            }
        }
        let mut feature_bias = [0i16; HIDDEN];
        for b in &mut feature_bias {
            *b = next_i16();
        }
        let mut output_weights = [[0i16; HIDDEN]; 2];
        for half in &mut output_weights {
            for w in half.iter_mut() {
                *w = next_i16();
            }
        }
        let output_bias = word(FILE_BYTES - 8) as i32;
        let net = Network {
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        };
        net.check_ranges()?;
        Ok(net)
    }

    /// Checks that no sum the inference makes can overflow: at most 32 pieces add their
    /// weights to the bias in `i16`, and a clipped activation times an output weight fits
    /// an `i16`.
    fn check_ranges(&self) -> Result<(), NetError> {
        let widest = self
            .feature_weights
            .iter()
            .flatten()
            .map(|w| i32::from(*w).abs())
            .max()
            .unwrap_or(0);
        let bias = self
            .feature_bias
            .iter()
            .map(|b| i32::from(*b).abs())
            .max()
            .unwrap_or(0);
        if bias + 32 * widest > i32::from(i16::MAX) {
            return Err(NetError::WeightOutOfRange("feature weights"));
        }
        if self
            .output_weights
            .iter()
            .flatten()
            // `unsigned_abs`: `i16::MIN.abs()` overflows (and wraps to itself, negative, in a
            // release build, which let such a weight through: found by the fuzz target `net`).
            .any(|w| w.unsigned_abs() > MAX_OUTPUT_WEIGHT.unsigned_abs())
        {
            return Err(NetError::WeightOutOfRange("output weights"));
        }
        Ok(())
    }

    /// The net as a file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(MAGIC);
        for word in [FEATURE_SET, HIDDEN as u32, QB as u32] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        let values = self
            .feature_weights
            .iter()
            .flatten()
            .chain(&self.feature_bias)
            .chain(self.output_weights.iter().flatten());
        for v in values {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// The evaluation in centipawns for the side to move, from the side to move's
    /// accumulator `us` and the other side's `them`.
    #[inline]
    pub(crate) fn output(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        // Each half sums at most 256 × 255² × 127 < 2^31, so it fits an i32; the two
        // halves are added in i64.
        let sum = screlu_dots(us, them, &self.output_weights);
        let value = sum / i64::from(QA) + i64::from(self.output_bias);
        (value * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}

/// Both halves of the output sum, each in `i32` and added in `i64`. Compiled for SSE2 (every
/// x86-64), AVX2 and AVX-512 and chosen at run time by `multiversion` (see
/// `evaluator::add_sub`); `docs/NNUE.md` has what each costs.
#[multiversion(targets("x86_64+avx512f+avx512bw", "x86_64+avx2"))]
fn screlu_dots(us: &[i16; HIDDEN], them: &[i16; HIDDEN], weights: &[[i16; HIDDEN]; 2]) -> i64 {
    i64::from(screlu_dot(us, &weights[0])) + i64::from(screlu_dot(them, &weights[1]))
}

/// `Σ clamp(acc, 0, QA)² × w`. Written as `(c × w) × c` with the first product in `i16`
/// (it fits: `|c × w| ≤ 255 × 127`) so that the compiler can use the 16-bit multiply and
/// the multiply-add of two 16-bit vectors into 32-bit lanes, which every x86-64 has.
#[inline(always)]
fn screlu_dot(acc: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    let mut sum = 0i32;
    for (&a, &w) in acc.iter().zip(weights) {
        let c = a.clamp(0, QA as i16);
        sum = sum.wrapping_add(i32::from(c.wrapping_mul(w)) * i32::from(c));
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_net_loads_and_round_trips() {
        assert_eq!(EMBEDDED.len(), FILE_BYTES);
        let net = Network::embedded();
        assert_eq!(net.to_bytes(), EMBEDDED);
    }

    #[test]
    fn damaged_files_are_refused() {
        let good = Network::embedded().to_bytes();
        assert_eq!(Network::from_bytes(b"hello"), Err(NetError::NotANet));
        assert_eq!(
            Network::from_bytes(&good[..1000]),
            Err(NetError::WrongSize {
                expected: FILE_BYTES,
                found: 1000
            })
        );
        let mut flipped = good.clone();
        flipped[5000] ^= 0x40;
        assert!(matches!(
            Network::from_bytes(&flipped),
            Err(NetError::Checksum { .. })
        ));
        let mut other = good.clone();
        other[12..16].copy_from_slice(&128u32.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&other),
            Err(NetError::OtherArchitecture {
                found: [1, 128, 256]
            })
        ));
        let mut huge = Network::embedded();
        huge.output_weights[1][3] = 500;
        assert_eq!(
            Network::from_bytes(&huge.to_bytes()),
            Err(NetError::WeightOutOfRange("output weights"))
        );
        // The most negative weight, whose absolute value does not fit an i16 (found by the
        // fuzz target `net`).
        for w in [i16::MIN, -128, 128] {
            let mut extreme = Network::embedded();
            extreme.output_weights[0][0] = w;
            assert_eq!(
                Network::from_bytes(&extreme.to_bytes()),
                Err(NetError::WeightOutOfRange("output weights")),
                "{w}"
            );
        }
        let mut edge = Network::embedded();
        edge.output_weights[0][0] = -MAX_OUTPUT_WEIGHT;
        assert!(Network::from_bytes(&edge.to_bytes()).is_ok());
    }
}
