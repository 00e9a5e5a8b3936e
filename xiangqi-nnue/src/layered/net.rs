//! The layered net's weights and its file format (`XQNNUE03`).
//!
//! A file is the 8-byte magic `XQNNUE03`; then `u32` little-endian words: the feature set
//! (2, general-bucketed with the mirror), the accumulator width, the first hidden layer's
//! size, the second's (0: one hidden layer), the number of layer stacks, the first hidden
//! layer's weight scale ([`QH1`]; the second's is [`QH2`]) and the output weights' scale
//! ([`QO`]); then 8 bytes, the palace bucket
//! map's six entries ([`BucketMap`]), a flags byte (bit 0: pairwise products,
//! [`Shape::pairwise`]) and a zero. The body follows, little-endian: the
//! feature weights (`buckets × 1260` rows of `width` `i16`), the feature biases (`width`
//! `i16`), then per stack the first hidden layer's weights (`hidden1` rows of
//! [`Shape::l1_inputs`] `i8`, the side to move's half first), its biases (`hidden1` `i32`), the second's
//! (`hidden2` rows of `hidden1` `i8`, `hidden2` `i32`), the output weights (`i16`, one per
//! unit of the last hidden layer) and the output bias (`i32`); then the CRC-32 of
//! everything before it. Everything the inference needs to know is in the header, so a net
//! of another width or depth loads without a new build.

use crate::buckets::{inputs, BucketMap};
use crate::net::{NetError, QA};

/// The magic of a layered net.
pub const MAGIC: &[u8; 8] = b"XQNNUE03";
/// The feature set of a layered net: general-bucketed inputs with the left-right mirror.
pub const FEATURE_SET: u32 = 2;
/// The first hidden layer's weight scale: 1.0 is 128, so an `i8` holds weights up to
/// ±0.99. Its fan-in is the whole accumulator (1,024 inputs at the default width), so its
/// weights are small and their rounding, summed over a thousand inputs, is what costs
/// precision: at 64 the integer net was about twice as far from the float one.
pub const QH1: i32 = 128;
/// The second hidden layer's weight scale: 1.0 is 64 (`i8` up to ±1.98; its fan-in is
/// small and its weights larger).
pub const QH2: i32 = 64;
/// The output weights' scale: 1.0 is 256 (`i16`, up to ±128).
pub const QO: i32 = 256;
/// The header's size in bytes.
pub const HEADER_BYTES: usize = 8 + 7 * 4 + 8;
/// The widest accumulator a file may ask for.
pub const MAX_WIDTH: usize = 2048;
/// The largest hidden layer.
pub const MAX_HIDDEN: usize = 128;
/// The most layer stacks (one per piece-count range, as [`crate::net::output_bucket`]).
pub const MAX_STACKS: usize = 16;

/// The architecture of a layered net: what its header names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The accumulator's width per perspective, a multiple of 32.
    pub width: usize,
    /// The first hidden layer's size.
    pub hidden1: usize,
    /// The second hidden layer's size; 0 for a single hidden layer.
    pub hidden2: usize,
    /// Layer stacks, chosen by the number of pieces on the board.
    pub stacks: usize,
    /// The palace bucket map.
    pub buckets: BucketMap,
    /// Pairwise products: each perspective's clipped accumulator is cut in two halves and
    /// multiplied element by element, so the first hidden layer sees `width / 2` values a
    /// side instead of `width` (as Stockfish's and Pikafish's nets since 2023). Flag bit 0
    /// of the header's first padding byte; older files have it clear.
    pub pairwise: bool,
}

impl Default for Shape {
    /// The default size: 6 buckets, 512 wide, 16 → 32 → 1, one stack. Pikafish's reduced
    /// net is 1,024 wide with 8 stacks; half the width costs half the updates, and stacks
    /// did not pay at our data sizes (docs/NNUE.md).
    fn default() -> Self {
        Shape {
            width: 512,
            hidden1: 16,
            hidden2: 32,
            stacks: 1,
            buckets: BucketMap::SIX,
            pairwise: false,
        }
    }
}

impl Shape {
    /// The number of buckets (from the map).
    pub fn bucket_count(&self) -> usize {
        self.buckets.count().unwrap_or(1)
    }

    /// Inputs per perspective.
    pub fn inputs(&self) -> usize {
        inputs(self.bucket_count())
    }

    /// The first hidden layer's inputs: both perspectives' clipped accumulators, or their
    /// pairwise products (half as many).
    pub fn l1_inputs(&self) -> usize {
        if self.pairwise {
            self.width
        } else {
            2 * self.width
        }
    }

    /// The size of the layer that feeds the output.
    pub fn last_hidden(&self) -> usize {
        if self.hidden2 == 0 {
            self.hidden1
        } else {
            self.hidden2
        }
    }

    /// Checks the limits the file format and the integer arithmetic set.
    pub fn check(&self) -> Result<(), NetError> {
        if self.width == 0 || !self.width.is_multiple_of(32) || self.width > MAX_WIDTH {
            return Err(NetError::Shape(
                "the width must be a multiple of 32 up to 2048",
            ));
        }
        if !(1..=MAX_HIDDEN).contains(&self.hidden1) || self.hidden2 > MAX_HIDDEN {
            return Err(NetError::Shape("hidden layers have 1 to 128 units"));
        }
        if !(1..=MAX_STACKS).contains(&self.stacks) {
            return Err(NetError::Shape("a net has 1 to 16 layer stacks"));
        }
        if self.buckets.count().is_none() {
            return Err(NetError::Shape(
                "the bucket map must use buckets 0..n, n at most 6",
            ));
        }
        Ok(())
    }

    /// The size of a file of this shape in bytes.
    pub fn file_bytes(&self) -> usize {
        let w = self.width;
        let stack = self.hidden1 * self.l1_inputs()
            + 4 * self.hidden1
            + self.hidden2 * self.hidden1
            + 4 * self.hidden2
            + 2 * self.last_hidden()
            + 4;
        HEADER_BYTES + 2 * (self.inputs() * w + w) + self.stacks * stack + 4
    }
}

/// One stack's hidden and output layers, quantised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stack {
    /// First hidden layer: row `j` is `l1_weights[j * inputs..]` with
    /// [`Shape::l1_inputs`] inputs, the side to move's half first, at scale [`QH1`].
    pub l1_weights: Vec<i8>,
    /// First hidden layer's biases, at scale `QA × QH1`.
    pub l1_bias: Vec<i32>,
    /// Second hidden layer: row `j` is `l2_weights[j * hidden1..]` (empty without it), at
    /// scale [`QH2`].
    pub l2_weights: Vec<i8>,
    /// Second hidden layer's biases, at scale `QA × QH2`.
    pub l2_bias: Vec<i32>,
    /// Output weights, at scale [`QO`].
    pub out_weights: Vec<i16>,
    /// Output bias, at scale `QA × QO`.
    pub out_bias: i32,
}

/// A quantised layered net, ready for inference. Share it between evaluators with an `Arc`.
#[derive(Clone, PartialEq, Eq)]
pub struct LayeredNet {
    /// The architecture.
    pub(crate) shape: Shape,
    /// Input `i`'s column is `ft_weights[i * width..(i + 1) * width]`, at scale `QA`.
    pub(crate) ft_weights: Vec<i16>,
    /// The accumulator's biases, at scale `QA`.
    pub(crate) ft_bias: Vec<i16>,
    /// The layer stacks.
    pub(crate) stacks: Vec<Stack>,
}

impl core::fmt::Debug for LayeredNet {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let bytes = self.to_bytes();
        write!(
            f,
            "LayeredNet({:?}, crc32 {:08x})",
            self.shape,
            crc32fast::hash(&bytes[..bytes.len() - 4])
        )
    }
}

/// Reads little-endian values from a byte slice whose length was checked beforehand.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        out.copy_from_slice(&self.bytes[self.at..self.at + N]);
        self.at += N;
        out
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn i32s(&mut self, n: usize) -> Vec<i32> {
        (0..n).map(|_| i32::from_le_bytes(self.take())).collect()
    }
    fn i16s(&mut self, n: usize) -> Vec<i16> {
        (0..n).map(|_| i16::from_le_bytes(self.take())).collect()
    }
    fn i8s(&mut self, n: usize) -> Vec<i8> {
        (0..n).map(|_| i8::from_le_bytes(self.take())).collect()
    }
}

/// The largest bias magnitude a hidden or output layer may have: with it, the sums stay
/// far inside an `i32` (2 × 2048 inputs × 255 × 128 < 2^28).
const MAX_BIAS: i32 = 1 << 28;

impl LayeredNet {
    /// A net of `shape` with every weight zero (the trainer fills it).
    pub fn zeroed(shape: Shape) -> Result<LayeredNet, NetError> {
        shape.check()?;
        let w = shape.width;
        let stack = Stack {
            l1_weights: vec![0; shape.hidden1 * shape.l1_inputs()],
            l1_bias: vec![0; shape.hidden1],
            l2_weights: vec![0; shape.hidden2 * shape.hidden1],
            l2_bias: vec![0; shape.hidden2],
            out_weights: vec![0; shape.last_hidden()],
            out_bias: 0,
        };
        Ok(LayeredNet {
            shape,
            ft_weights: vec![0; shape.inputs() * w],
            ft_bias: vec![0; w],
            stacks: vec![stack; shape.stacks],
        })
    }

    /// The architecture.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// Reads a layered net file's bytes, checking its header, size, checksum and ranges.
    pub fn from_bytes(bytes: &[u8]) -> Result<LayeredNet, NetError> {
        if bytes.get(..8) != Some(MAGIC.as_slice()) {
            return Err(NetError::NotANet);
        }
        if bytes.len() < HEADER_BYTES {
            return Err(NetError::WrongSize {
                expected: HEADER_BYTES,
                found: bytes.len(),
            });
        }
        let mut r = Reader { bytes, at: 8 };
        let words: [u32; 7] = core::array::from_fn(|_| r.u32());
        let map: [u8; 8] = r.take();
        if words[0] != FEATURE_SET || words[5] != QH1 as u32 || words[6] != QO as u32 {
            return Err(NetError::OtherArchitecture {
                found: [words[0], words[5], words[6]],
            });
        }
        let small = |w: u32| (w as usize).min(1 << 20);
        let mut buckets = [0u8; 6];
        buckets.copy_from_slice(&map[..6]);
        let shape = Shape {
            width: small(words[1]),
            hidden1: small(words[2]),
            hidden2: small(words[3]),
            stacks: small(words[4]),
            buckets: BucketMap(buckets),
            pairwise: map[6] & 1 != 0,
        };
        shape.check()?;
        if map[6] & !1 != 0 || map[7] != 0 {
            return Err(NetError::Shape(
                "unknown flags after the bucket map (a newer format?)",
            ));
        }
        let size = shape.file_bytes();
        if bytes.len() != size {
            return Err(NetError::WrongSize {
                expected: size,
                found: bytes.len(),
            });
        }
        let stored = u32::from_le_bytes([
            bytes[size - 4],
            bytes[size - 3],
            bytes[size - 2],
            bytes[size - 1],
        ]);
        let computed = crc32fast::hash(&bytes[..size - 4]);
        if stored != computed {
            return Err(NetError::Checksum { stored, computed });
        }
        let w = shape.width;
        let ft_weights = r.i16s(shape.inputs() * w);
        let ft_bias = r.i16s(w);
        let stacks = (0..shape.stacks)
            .map(|_| Stack {
                l1_weights: r.i8s(shape.hidden1 * shape.l1_inputs()),
                l1_bias: r.i32s(shape.hidden1),
                l2_weights: r.i8s(shape.hidden2 * shape.hidden1),
                l2_bias: r.i32s(shape.hidden2),
                out_weights: r.i16s(shape.last_hidden()),
                out_bias: r.i32s(1)[0],
            })
            .collect();
        let net = LayeredNet {
            shape,
            ft_weights,
            ft_bias,
            stacks,
        };
        net.check_ranges()?;
        Ok(net)
    }

    /// Checks that no sum of the inference can overflow: 32 pieces' feature weights and the
    /// bias fit an `i16`, and the hidden and output biases stay within [`MAX_BIAS`].
    pub(crate) fn check_ranges(&self) -> Result<(), NetError> {
        let widest = self
            .ft_weights
            .iter()
            .map(|w| i32::from(*w).abs())
            .max()
            .unwrap_or(0);
        let bias = self
            .ft_bias
            .iter()
            .map(|b| i32::from(*b).abs())
            .max()
            .unwrap_or(0);
        if bias + 32 * widest > i32::from(i16::MAX) {
            return Err(NetError::WeightOutOfRange("feature weights"));
        }
        let biases_ok = self.stacks.iter().all(|s| {
            s.l1_bias
                .iter()
                .chain(&s.l2_bias)
                .chain(core::iter::once(&s.out_bias))
                .all(|b| b.unsigned_abs() <= MAX_BIAS as u32)
        });
        if !biases_ok {
            return Err(NetError::WeightOutOfRange("hidden biases"));
        }
        Ok(())
    }

    /// The net as a file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let s = &self.shape;
        let mut out = Vec::with_capacity(s.file_bytes());
        out.extend_from_slice(MAGIC);
        for word in [
            FEATURE_SET,
            s.width as u32,
            s.hidden1 as u32,
            s.hidden2 as u32,
            s.stacks as u32,
            QH1 as u32,
            QO as u32,
        ] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&s.buckets.0);
        out.extend_from_slice(&[u8::from(s.pairwise), 0]);
        for v in self.ft_weights.iter().chain(&self.ft_bias) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for stack in &self.stacks {
            out.extend(stack.l1_weights.iter().map(|&w| w as u8));
            for b in &stack.l1_bias {
                out.extend_from_slice(&b.to_le_bytes());
            }
            out.extend(stack.l2_weights.iter().map(|&w| w as u8));
            for b in &stack.l2_bias {
                out.extend_from_slice(&b.to_le_bytes());
            }
            for w in &stack.out_weights {
                out.extend_from_slice(&w.to_le_bytes());
            }
            out.extend_from_slice(&stack.out_bias.to_le_bytes());
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// A net of `shape` with small random weights from `seed`, in range: for speed
    /// measurements and tests (an untrained net costs what a trained one of its shape costs).
    pub fn random(shape: Shape, seed: u64) -> Result<LayeredNet, NetError> {
        let mut net = LayeredNet::zeroed(shape)?;
        let mut rng = fastrand::Rng::with_seed(seed);
        for w in &mut net.ft_weights {
            *w = rng.i16(-(QA as i16) / 4..=(QA as i16) / 4);
        }
        for b in &mut net.ft_bias {
            *b = rng.i16(0..=(QA as i16) / 2);
        }
        for s in &mut net.stacks {
            s.l1_weights.iter_mut().for_each(|w| *w = rng.i8(-16..=16));
            s.l2_weights.iter_mut().for_each(|w| *w = rng.i8(-32..=32));
            s.l1_bias
                .iter_mut()
                .for_each(|b| *b = rng.i32(-4000..=4000));
            s.l2_bias
                .iter_mut()
                .for_each(|b| *b = rng.i32(-4000..=4000));
            s.out_weights
                .iter_mut()
                .for_each(|w| *w = rng.i16(-QO as i16..=QO as i16));
        }
        Ok(net)
    }
}
