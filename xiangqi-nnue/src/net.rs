//! The quantised network: its layout, its file format and its arithmetic.
//!
//! The architecture is `(1260 → 256) × 2 → 1`: each side's perspective ([`crate::features`])
//! feeds a 256-wide feature transformer (the *accumulator*, kept up to date move by move),
//! the side to move's accumulator and then the other side's are squared after clipping to
//! `[0, 1]` (SCReLU) and an output neuron weighs the 512 values. A net may have several
//! output neurons, *output buckets*, of which the number of pieces on the board picks one
//! ([`output_bucket`]): the accumulators are shared, and each stage of the game gets its own
//! weighing of them. With a few million training positions that is as much network as the
//! data fills; a hidden layer adds parameters that only pay with far more data (see
//! `docs/NNUE.md`).
//!
//! Quantisation: the accumulator in `i16` at scale [`QA`] = 255, the output weights in `i16` at
//! scale [`QB`] = 256, the output bias in `i32` at `QA × QB`; the network's output times
//! [`SCALE`] is centipawns.
//!
//! A net file is the 8-byte magic `XQNNUE01`, then `u32` little-endian: the feature set
//! (1), the accumulator width (256) and the output weights' scale [`QB`] (256); then the feature weights
//! (1260 rows of 256 `i16`), the feature biases (256 `i16`), the output weights (512 `i16`)
//! and the output bias (`i32`), all little-endian; then the CRC-32 of everything before it.
//! A net with `n` > 1 output buckets starts with `XQNNUE02` and has a fourth header word,
//! `n`; its output weights are `n` blocks of 512, bucket by bucket, and its output biases `n`
//! `i32`. A one-bucket net is always written in the first format, so every older file
//! still loads and reads back byte for byte.

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

/// The magic of a one-bucket net (the first format).
const MAGIC: &[u8; 8] = b"XQNNUE01";
/// The magic of a net with output buckets.
const MAGIC_BUCKETS: &[u8; 8] = b"XQNNUE02";
const FEATURE_SET: u32 = 1;
/// The size of a one-bucket net file in bytes.
pub const FILE_BYTES: usize = file_bytes(1);
/// The most output buckets a net may have: one per piece count would be 31.
pub const MAX_OUTPUT_BUCKETS: usize = 32;

/// The size of a net file's header: the magic and three words, and a bucketed net's count.
const fn header_bytes(bucketed: bool) -> usize {
    if bucketed {
        8 + 4 * 4
    } else {
        8 + 3 * 4
    }
}

/// The size of a net file with `buckets` output buckets, in bytes.
pub const fn file_bytes(buckets: usize) -> usize {
    header_bytes(buckets > 1)
        + (FEATURES * HIDDEN + HIDDEN + buckets * 2 * HIDDEN) * 2
        + buckets * 4
        + 4
}

/// The output bucket of a position with `pieces` pieces on the board (generals included), in
/// a net with `buckets` buckets: the counts 2 to 32 cut into `buckets` equal ranges, so that
/// with 8 buckets each holds four counts (2–4, 5–8, …, 29–32).
#[inline]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    let pieces = (pieces.clamp(1, 32) - 1) as usize;
    (pieces * buckets / 32).min(buckets - 1)
}

/// Why bytes are not a net this build can use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The bytes do not start with a net file's magic, `XQNNUE01`, `XQNNUE02` or `XQNNUE03`.
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
    /// The header of a bucketed net gives a number of output buckets outside 2 to
    /// [`MAX_OUTPUT_BUCKETS`].
    OutputBuckets(u32),
    /// The checksum does not match: the file is damaged.
    Checksum {
        /// The CRC-32 stored in the file.
        stored: u32,
        /// The CRC-32 of the bytes.
        computed: u32,
    },
    /// A weight lies outside what the integer arithmetic handles without overflow.
    WeightOutOfRange(&'static str),
    /// A layered net's header asks for a shape outside the format's limits (what is wrong).
    Shape(&'static str),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::NotANet => write!(
                f,
                "not an NNUE net file (it does not start with XQNNUE01, XQNNUE02 or XQNNUE03)"
            ),
            NetError::WrongSize { expected, found } => write!(
                f,
                "a net file of this architecture has {expected} bytes, this one {found}: truncated or not for this build"
            ),
            NetError::OtherArchitecture { found } => write!(
                f,
                "the net is for feature set {}, width {}, output weight scale {}; this build reads feature set {FEATURE_SET}, width {HIDDEN}, output weight scale {QB}",
                found[0], found[1], found[2]
            ),
            NetError::OutputBuckets(n) => write!(
                f,
                "the net has {n} output buckets; a net file with buckets has 2 to {MAX_OUTPUT_BUCKETS}"
            ),
            NetError::Checksum { stored, computed } => write!(
                f,
                "the net file is damaged: its checksum is {stored:08x}, its bytes give {computed:08x}"
            ),
            NetError::WeightOutOfRange(which) => {
                write!(f, "the net's {which} are too large for the integer arithmetic")
            }
            NetError::Shape(what) => write!(f, "the layered net's header is invalid: {what}"),
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
    /// Per output bucket, the output weights: the side to move's half, then the other side's.
    pub(crate) output_weights: Vec<[[i16; HIDDEN]; 2]>,
    /// Per output bucket, the output bias, at scale `QA × QB`.
    pub(crate) output_bias: Vec<i32>,
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
        let bucketed = match bytes.get(..8) {
            Some(magic) if magic == MAGIC => false,
            Some(magic) if magic == MAGIC_BUCKETS => true,
            _ => return Err(NetError::NotANet),
        };
        let header_bytes = header_bytes(bucketed);
        if bytes.len() < header_bytes {
            return Err(NetError::WrongSize {
                expected: file_bytes(if bucketed { 2 } else { 1 }),
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
        let buckets = if bucketed {
            let n = word(20);
            if !(2..=MAX_OUTPUT_BUCKETS as u32).contains(&n) {
                return Err(NetError::OutputBuckets(n));
            }
            n as usize
        } else {
            1
        };
        let size = file_bytes(buckets);
        if bytes.len() != size {
            return Err(NetError::WrongSize {
                expected: size,
                found: bytes.len(),
            });
        }
        let body = &bytes[..size - 4];
        let stored = word(size - 4);
        let computed = crc32fast::hash(body);
        if stored != computed {
            return Err(NetError::Checksum { stored, computed });
        }
        let mut at = header_bytes;
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
        let mut output_weights = vec![[[0i16; HIDDEN]; 2]; buckets];
        for half in output_weights.iter_mut().flatten() {
            for w in half.iter_mut() {
                *w = next_i16();
            }
        }
        let biases_at = size - 4 - 4 * buckets;
        let output_bias = (0..buckets)
            .map(|b| word(biases_at + 4 * b) as i32)
            .collect();
        let net = Network {
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        };
        net.check_ranges()?;
        Ok(net)
    }

    /// How many output buckets the net has (1 for a net without buckets).
    pub fn output_buckets(&self) -> usize {
        self.output_weights.len()
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
        let buckets = self.output_buckets();
        let mut out = Vec::with_capacity(file_bytes(buckets));
        out.extend_from_slice(if buckets == 1 { MAGIC } else { MAGIC_BUCKETS });
        for word in [FEATURE_SET, HIDDEN as u32, QB as u32] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        if buckets > 1 {
            out.extend_from_slice(&(buckets as u32).to_le_bytes());
        }
        let values = self
            .feature_weights
            .iter()
            .flatten()
            .chain(&self.feature_bias)
            .chain(self.output_weights.iter().flatten().flatten());
        for v in values {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for bias in &self.output_bias {
            out.extend_from_slice(&bias.to_le_bytes());
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// The evaluation in centipawns for the side to move, from the side to move's
    /// accumulator `us` and the other side's `them`, by output bucket `bucket` (see
    /// [`output_bucket`]; it must be below [`Network::output_buckets`]).
    #[inline]
    pub(crate) fn output(&self, bucket: usize, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        // Each half sums at most 256 × 255² × 127 < 2^31, so it fits an i32; the two
        // halves are added in i64.
        let sum = screlu_dots(us, them, &self.output_weights[bucket]);
        let value = sum / i64::from(QA) + i64::from(self.output_bias[bucket]);
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
        huge.output_weights[0][1][3] = 500;
        assert_eq!(
            Network::from_bytes(&huge.to_bytes()),
            Err(NetError::WeightOutOfRange("output weights"))
        );
        // The most negative weight, whose absolute value does not fit an i16 (found by the
        // fuzz target `net`).
        for w in [i16::MIN, -128, 128] {
            let mut extreme = Network::embedded();
            extreme.output_weights[0][0][0] = w;
            assert_eq!(
                Network::from_bytes(&extreme.to_bytes()),
                Err(NetError::WeightOutOfRange("output weights")),
                "{w}"
            );
        }
        let mut edge = Network::embedded();
        edge.output_weights[0][0][0] = -MAX_OUTPUT_WEIGHT;
        assert!(Network::from_bytes(&edge.to_bytes()).is_ok());
    }

    /// A net with output buckets: written in the second format, read back the same, and
    /// its header's bucket count checked before anything is allocated or read.
    #[test]
    fn bucketed_nets_round_trip_and_bad_ones_are_refused() {
        let mut net = Network::embedded();
        net.output_weights = vec![net.output_weights[0]; 8];
        net.output_weights[5][1][7] = -3;
        net.output_bias = (0..8).map(|b| b * 1000 - 3000).collect();
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file_bytes(8));
        assert_eq!(&bytes[..8], MAGIC_BUCKETS);
        assert_eq!(Network::from_bytes(&bytes), Ok(net));
        assert_eq!(
            Network::from_bytes(&bytes[..bytes.len() - 1]),
            Err(NetError::WrongSize {
                expected: file_bytes(8),
                found: bytes.len() - 1
            })
        );
        for n in [0u32, 1, 33, u32::MAX] {
            let mut other = bytes.clone();
            other[20..24].copy_from_slice(&n.to_le_bytes());
            assert_eq!(Network::from_bytes(&other), Err(NetError::OutputBuckets(n)));
        }
        assert_eq!(
            Network::from_bytes(&bytes[..22]),
            Err(NetError::WrongSize {
                expected: file_bytes(2),
                found: 22
            })
        );
    }

    #[test]
    fn output_buckets_cut_the_piece_counts_evenly() {
        let buckets: Vec<usize> = (2..=32).map(|n| output_bucket(n, 8)).collect();
        assert_eq!(buckets[0], 0); // two generals
        assert_eq!(buckets[30], 7); // all 32 pieces
        assert!(buckets.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
        assert!((2..=32).all(|n| output_bucket(n, 1) == 0));
    }
}
