//! The layered net in `f32`: its parameters in one flat vector, its forward and backward
//! passes, its checkpoint file and its quantisation into a [`LayeredNet`].
//!
//! One flat vector makes the optimiser, the gradient's sum over threads and the checkpoint
//! a loop each, whatever the shape; [`Layout`] says where each layer lives in it.
//!
//! **Factoriser.** Besides each bucket's own feature weights the float net has one shared
//! set, 1,260 columns that every bucket adds to its own (nnue-pytorch calls them virtual
//! features): a piece-point seen in any bucket trains the shared column, so what holds
//! whatever the general's place is learnt from six times the positions, and each bucket's
//! own columns (starting at zero) learn only the difference. Quantisation folds the shared
//! columns into every bucket's, so the integer net and its file do not know of them.

use super::float::CLIP;
use super::kernels;
use crate::buckets::{input, is_general, king_key, KingKey};
use crate::features::FEATURES;
use crate::layered::net::{QH1, QH2, QO};
use crate::layered::{LayeredNet, Shape};
use crate::net::{output_bucket, NetError, QA, SCALE};
use xiangqi_core::{Color, Piece, Position, Square};

/// First hidden layer weights stay within this so that they round into an `i8` at scale
/// [`QH1`].
const L1_CLIP: f32 = 127.0 / QH1 as f32;
/// Second hidden layer weights: the same at [`QH2`].
const L2_CLIP: f32 = 127.0 / QH2 as f32;
/// Output weights stay within this so that they round into an `i16` at scale [`QO`].
const OUTPUT_CLIP: f32 = 32_000.0 / QO as f32;
/// Hidden and output biases stay within this (far inside the integer format's limit).
const BIAS_CLIP: f32 = 64.0;

/// Where each layer's parameters start in the flat vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Layout {
    pub(super) ft_bias: usize,
    pub(super) stacks: usize,
    pub(super) stack_len: usize,
    pub(super) l1_bias: usize,
    pub(super) l2_weights: usize,
    pub(super) l2_bias: usize,
    pub(super) out_weights: usize,
    pub(super) out_bias: usize,
    /// The factoriser's shared columns: piece-point `g`'s is `factor + g * width`.
    pub(super) factor: usize,
    pub(super) total: usize,
}

impl Layout {
    /// The layout of `shape`. Within a stack, offsets are relative to the stack's start.
    pub(super) fn of(shape: &Shape) -> Layout {
        let w = shape.width;
        let (h1, h2) = (shape.hidden1, shape.hidden2);
        let ft_bias = shape.inputs() * w;
        let stacks = ft_bias + w;
        let l1_bias = h1 * shape.l1_inputs();
        let l2_weights = l1_bias + h1;
        let l2_bias = l2_weights + h2 * h1;
        let out_weights = l2_bias + h2;
        let out_bias = out_weights + shape.last_hidden();
        let stack_len = out_bias + 1;
        Layout {
            ft_bias,
            stacks,
            stack_len,
            l1_bias,
            l2_weights,
            l2_bias,
            out_weights,
            out_bias,
            factor: stacks + shape.stacks * stack_len,
            total: stacks + shape.stacks * stack_len + FEATURES * w,
        }
    }
}

/// The active inputs of one position: the side to move's, then the other side's.
pub(super) struct LayeredInputs {
    pub(super) us: [u16; 32],
    pub(super) them: [u16; 32],
    pub(super) len: usize,
}

impl LayeredInputs {
    /// The inputs of `pieces` with `side` to move, the board mirrored left to right first
    /// when `mirror` (the trainer shows half the positions so).
    pub(super) fn new(
        shape: &Shape,
        side: Color,
        pieces: impl Iterator<Item = (Square, Piece)>,
        mirror: bool,
    ) -> LayeredInputs {
        let mut list = [(
            Square::from_index_unchecked(0),
            Piece::new(side, xiangqi_core::Role::King),
        ); 32];
        let mut len = 0;
        let mut kings = [
            Square::from_index_unchecked(4),
            Square::from_index_unchecked(85),
        ];
        for (square, piece) in pieces.take(32) {
            let square = if mirror {
                square.flip_horizontal()
            } else {
                square
            };
            if is_general(piece) {
                kings[piece.color.index()] = square;
            }
            list[len] = (square, piece);
            len += 1;
        }
        let key = |c: Color| -> KingKey { king_key(&shape.buckets, c, kings[c.index()]) };
        let (ku, kt) = (key(side), key(side.other()));
        let mut inputs = LayeredInputs {
            us: [0; 32],
            them: [0; 32],
            len,
        };
        for (i, &(square, piece)) in list[..len].iter().enumerate() {
            inputs.us[i] = input(ku, side, piece, square) as u16;
            inputs.them[i] = input(kt, side.other(), piece, square) as u16;
        }
        inputs
    }
}

/// Per-thread working memory of a forward and backward pass, allocated once: each layer's
/// sums (`acc`, `z1`, `z2`), their activations (`x0`, `x1`, `x2`; `x0` the first hidden
/// layer's inputs: clipped accumulators or their pairwise products) and their gradients.
pub(super) struct Scratch {
    acc: Vec<f32>,
    x0: Vec<f32>,
    z1: Vec<f32>,
    x1: Vec<f32>,
    z2: Vec<f32>,
    x2: Vec<f32>,
    d_x0: Vec<f32>,
    d_acc: Vec<f32>,
    d_x1: Vec<f32>,
    d_z1: Vec<f32>,
    d_z2: Vec<f32>,
    stack: usize,
}

impl Scratch {
    pub(super) fn new(shape: &Shape) -> Scratch {
        let (w, h1, h2) = (2 * shape.width, shape.hidden1, shape.hidden2);
        Scratch {
            acc: vec![0.0; w],
            x0: vec![0.0; shape.l1_inputs()],
            d_x0: vec![0.0; shape.l1_inputs()],
            z1: vec![0.0; h1],
            x1: vec![0.0; h1],
            z2: vec![0.0; h2],
            x2: vec![0.0; h2],
            d_acc: vec![0.0; w],
            d_x1: vec![0.0; h1],
            d_z1: vec![0.0; h1],
            d_z2: vec![0.0; h2],
            stack: 0,
        }
    }
}

#[inline]
fn crelu(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

#[inline]
fn crelu_slope(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 {
        1.0
    } else {
        0.0
    }
}

/// The layered net in `f32`.
#[derive(Clone, Debug, PartialEq)]
pub struct LayeredFloat {
    /// The architecture.
    pub shape: Shape,
    /// Every parameter, laid out as the private `Layout` says: the feature weights (input
    /// by input, `width` each), the feature biases, then each stack's layers.
    pub params: Vec<f32>,
}

/// The first bytes of a layered float checkpoint; the 44-byte header of a net file follows
/// the magic's place (see [`LayeredFloat::to_bytes`]).
pub const LAYERED_FLOAT_MAGIC: &[u8; 8] = b"XQNNFLT3";

impl LayeredFloat {
    /// Random weights from `seed`: small feature weights, hidden layers scaled to their
    /// fan-in, biases that start the hidden units inside their linear range.
    pub fn random(shape: Shape, seed: u64) -> Result<LayeredFloat, NetError> {
        shape.check()?;
        let l = Layout::of(&shape);
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut params = vec![0f32; l.total];
        let mut uniform =
            |xs: &mut [f32], a: f32| xs.iter_mut().for_each(|x| *x = (rng.f32() * 2.0 - 1.0) * a);
        // Each bucket's own columns start at zero: the shared ones carry the start.
        uniform(&mut params[l.factor..], 0.1);
        let (h1, h2) = (shape.hidden1, shape.hidden2);
        for s in 0..shape.stacks {
            let at = l.stacks + s * l.stack_len;
            let stack = &mut params[at..at + l.stack_len];
            uniform(
                &mut stack[..l.l1_bias],
                1.0 / (2.0 * shape.width as f32).sqrt(),
            );
            stack[l.l1_bias..l.l1_bias + h1].fill(0.25);
            uniform(
                &mut stack[l.l2_weights..l.l2_bias],
                1.0 / (h1 as f32).sqrt(),
            );
            stack[l.l2_bias..l.l2_bias + h2].fill(0.25);
            uniform(
                &mut stack[l.out_weights..l.out_bias],
                1.0 / (shape.last_hidden() as f32).sqrt(),
            );
        }
        Ok(LayeredFloat { shape, params })
    }

    pub(super) fn layout(&self) -> Layout {
        Layout::of(&self.shape)
    }

    /// The feature weights with the factoriser's shared columns added into every bucket's
    /// (one row of `width` per input): what the forward pass reads, made once per
    /// optimiser step instead of adding two rows per active input per position.
    pub(super) fn folded_features(&self) -> Vec<f32> {
        let mut folded = Vec::new();
        self.fold_features_into(&mut folded);
        folded
    }

    /// [`LayeredFloat::folded_features`] into `folded`, reusing its memory (the trainer
    /// folds once per optimiser step).
    pub(super) fn fold_features_into(&self, folded: &mut Vec<f32>) {
        let l = self.layout();
        let w = self.shape.width;
        folded.clear();
        folded.extend_from_slice(&self.params[..l.ft_bias]);
        for (f, row) in folded.chunks_exact_mut(w).enumerate() {
            let shared = &self.params[l.factor + (f % FEATURES) * w..][..w];
            for (x, s) in row.iter_mut().zip(shared) {
                *x += s;
            }
        }
    }

    /// The forward pass with `folded` from [`LayeredFloat::folded_features`]: the output
    /// before scaling to centipawns, intermediate values in `s`.
    pub(super) fn forward(&self, folded: &[f32], inputs: &LayeredInputs, s: &mut Scratch) -> f32 {
        let shape = &self.shape;
        let l = self.layout();
        let w = shape.width;
        let p = &self.params;
        for (half, features) in [&inputs.us, &inputs.them].into_iter().enumerate() {
            kernels::sparse_forward(
                &mut s.acc[half * w..(half + 1) * w],
                &p[l.ft_bias..l.stacks],
                folded,
                &features[..inputs.len],
            );
        }
        if shape.pairwise {
            // Each half of a perspective's accumulator times the other half.
            let half = w / 2;
            for (x, acc) in s.x0.chunks_exact_mut(half).zip(s.acc.chunks_exact(w)) {
                let (a, b) = acc.split_at(half);
                for ((x, &a), &b) in x.iter_mut().zip(a).zip(b) {
                    *x = crelu(a) * crelu(b);
                }
            }
        } else {
            for (x, &a) in s.x0.iter_mut().zip(&s.acc) {
                *x = crelu(a);
            }
        }
        s.stack = output_bucket(inputs.len as u32, shape.stacks);
        let stack = &p[l.stacks + s.stack * l.stack_len..][..l.stack_len];
        let (l1, l1_bias) = (&stack[..l.l1_bias], &stack[l.l1_bias..l.l2_weights]);
        kernels::forward(&s.x0, l1, l1_bias, &mut s.z1);
        for (x, &z) in s.x1.iter_mut().zip(&s.z1) {
            *x = crelu(z);
        }
        let last = if shape.hidden2 == 0 {
            &s.x1
        } else {
            let l2 = &stack[l.l2_weights..l.l2_bias];
            kernels::forward(&s.x1, l2, &stack[l.l2_bias..l.out_weights], &mut s.z2);
            for (x, &z) in s.x2.iter_mut().zip(&s.z2) {
                *x = crelu(z);
            }
            &s.x2
        };
        stack[l.out_bias]
            + last
                .iter()
                .zip(&stack[l.out_weights..l.out_bias])
                .map(|(&x, &w)| x * w)
                .sum::<f32>()
    }

    /// The backward pass after [`LayeredFloat::forward`] on the same `inputs` and `s`:
    /// adds `d_out` times the output's gradient to `grad` (laid out as the parameters),
    /// except the factoriser's shared columns: their gradient is the sum of the bucket
    /// columns' and is added once per optimiser step by
    /// [`LayeredFloat::add_shared_gradient`].
    pub(super) fn backward(
        &self,
        inputs: &LayeredInputs,
        s: &mut Scratch,
        d_out: f32,
        grad: &mut [f32],
    ) {
        let shape = &self.shape;
        let l = self.layout();
        let (w, h1) = (shape.width, shape.hidden1);
        let start = l.stacks + s.stack * l.stack_len;
        let (ft_grad, rest) = grad.split_at_mut(l.stacks);
        let stack_grads = &mut rest[..l.factor - l.stacks];
        let g = &mut stack_grads[start - l.stacks..][..l.stack_len];
        let stack = &self.params[start..start + l.stack_len];
        g[l.out_bias] += d_out;
        // The output layer, then the second hidden layer if there is one: d_x1 ends as the
        // gradient of the first hidden layer's activations.
        if shape.hidden2 == 0 {
            for j in 0..h1 {
                g[l.out_weights + j] += d_out * s.x1[j];
                s.d_x1[j] = d_out * stack[l.out_weights + j];
            }
        } else {
            for (k, d) in s.d_z2.iter_mut().enumerate() {
                g[l.out_weights + k] += d_out * s.x2[k];
                *d = d_out * stack[l.out_weights + k] * crelu_slope(s.z2[k]);
            }
            s.d_x1.fill(0.0);
            let (g_l2, g_l2_bias) =
                g[l.l2_weights..l.out_weights].split_at_mut(l.l2_bias - l.l2_weights);
            let l2 = &stack[l.l2_weights..l.l2_bias];
            kernels::backward(&s.x1, l2, &s.d_z2, g_l2, g_l2_bias, &mut s.d_x1);
        }
        for j in 0..h1 {
            s.d_z1[j] = s.d_x1[j] * crelu_slope(s.z1[j]);
        }
        s.d_x0.fill(0.0);
        let (g_l1, g_l1_bias) = g[..l.l2_weights].split_at_mut(l.l1_bias);
        kernels::backward(
            &s.x0,
            &stack[..l.l1_bias],
            &s.d_z1,
            g_l1,
            g_l1_bias,
            &mut s.d_x0,
        );
        if shape.pairwise {
            // x = crelu(a) × crelu(b): each factor's gradient is the other factor.
            let half = w / 2;
            for ((d_acc, acc), d_x) in s
                .d_acc
                .chunks_exact_mut(w)
                .zip(s.acc.chunks_exact(w))
                .zip(s.d_x0.chunks_exact(half))
            {
                let (d_a, d_b) = d_acc.split_at_mut(half);
                let (a, b) = acc.split_at(half);
                for i in 0..half {
                    d_a[i] = d_x[i] * crelu(b[i]) * crelu_slope(a[i]);
                    d_b[i] = d_x[i] * crelu(a[i]) * crelu_slope(b[i]);
                }
            }
        } else {
            for ((d, &a), &d_x) in s.d_acc.iter_mut().zip(&s.acc).zip(&s.d_x0) {
                *d = d_x * crelu_slope(a);
            }
        }
        let (ft_weights, ft_bias) = ft_grad.split_at_mut(l.ft_bias);
        for (half, features) in [&inputs.us, &inputs.them].into_iter().enumerate() {
            kernels::sparse_backward(
                &s.d_acc[half * w..(half + 1) * w],
                ft_bias,
                ft_weights,
                &features[..inputs.len],
            );
        }
    }

    /// Completes a gradient summed by [`LayeredFloat::backward`]: each shared column of
    /// the factoriser takes every input that adds it, so its gradient is the sum of the
    /// gradients of the bucket columns of the same piece-point (1,260 columns a bucket).
    pub(super) fn add_shared_gradient(&self, grad: &mut [f32]) {
        let l = self.layout();
        let w = self.shape.width;
        let (features, rest) = grad.split_at_mut(l.ft_bias);
        let shared = &mut rest[l.factor - l.ft_bias..];
        for bucket in features.chunks_exact(FEATURES * w) {
            for (x, &g) in shared.iter_mut().zip(bucket) {
                *x += g;
            }
        }
    }

    /// The evaluations of `positions` in centipawns for the side to move, in floating point.
    pub fn evaluate_all(&self, positions: &[Position]) -> Vec<f32> {
        let folded = self.folded_features();
        let mut s = Scratch::new(&self.shape);
        positions
            .iter()
            .map(|pos| {
                let inputs =
                    LayeredInputs::new(&self.shape, pos.side_to_move(), pos.all_pieces(), false);
                self.forward(&folded, &inputs, &mut s) * SCALE as f32
            })
            .collect()
    }

    /// The evaluation of one position (see [`LayeredFloat::evaluate_all`], which folds the
    /// factoriser's columns once for many).
    pub fn evaluate(&self, pos: &Position) -> f32 {
        self.evaluate_all(std::slice::from_ref(pos))[0]
    }

    /// Keeps every weight inside the range its integer type holds after quantisation.
    pub(super) fn clip(&mut self) {
        let l = self.layout();
        let shape = self.shape;
        let (features, rest) = self.params.split_at_mut(l.stacks);
        let shared = &mut rest[l.factor - l.stacks..];
        for x in features.iter_mut().chain(shared) {
            *x = x.clamp(-CLIP, CLIP);
        }
        for s in 0..shape.stacks {
            let stack = &mut self.params[l.stacks + s * l.stack_len..][..l.stack_len];
            for (i, x) in stack.iter_mut().enumerate() {
                let limit = if i < l.l1_bias {
                    L1_CLIP
                } else if (l.l2_weights..l.l2_bias).contains(&i) {
                    L2_CLIP
                } else if (l.out_weights..l.out_bias).contains(&i) {
                    OUTPUT_CLIP
                } else {
                    BIAS_CLIP
                };
                *x = x.clamp(-limit, limit);
            }
        }
    }

    /// The integer net: every weight rounded to its scale (see [`crate::layered::net`]).
    pub fn quantise(&self) -> Result<LayeredNet, NetError> {
        let mut net = LayeredNet::zeroed(self.shape)?;
        let l = self.layout();
        let p = &self.params;
        let q16 = |x: f32, s: i32| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16;
        let q8 = |x: f32, s: i32| (x * s as f32).round().clamp(-127.0, 127.0) as i8;
        let q32 = |x: f32, s: i32| (x * s as f32).round() as i32;
        for (q, &x) in net.ft_weights.iter_mut().zip(&self.folded_features()) {
            *q = q16(x.clamp(-CLIP, CLIP), QA);
        }
        for (q, &x) in net.ft_bias.iter_mut().zip(&p[l.ft_bias..l.stacks]) {
            *q = q16(x, QA);
        }
        for (s, stack) in net.stacks.iter_mut().enumerate() {
            let f = &p[l.stacks + s * l.stack_len..][..l.stack_len];
            for (q, &x) in stack.l1_weights.iter_mut().zip(&f[..l.l1_bias]) {
                *q = q8(x, QH1);
            }
            for (q, &x) in stack.l1_bias.iter_mut().zip(&f[l.l1_bias..]) {
                *q = q32(x, QA * QH1);
            }
            for (q, &x) in stack.l2_weights.iter_mut().zip(&f[l.l2_weights..]) {
                *q = q8(x, QH2);
            }
            for (q, &x) in stack.l2_bias.iter_mut().zip(&f[l.l2_bias..]) {
                *q = q32(x, QA * QH2);
            }
            for (q, &x) in stack.out_weights.iter_mut().zip(&f[l.out_weights..]) {
                *q = q16(x, QO);
            }
            stack.out_bias = q32(f[l.out_bias], QA * QO);
        }
        net.check_ranges()?;
        Ok(net)
    }

    /// The float weights as a checkpoint's bytes: `XQNNFLT3`, the shape as in a net
    /// file's header (seven `u32` and the 8-byte bucket map), then every parameter as a
    /// little-endian `f32`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let header = LayeredNet::zeroed(self.shape)
            .map(|n| n.to_bytes())
            .unwrap_or_default();
        let mut out = LAYERED_FLOAT_MAGIC.to_vec();
        out.extend_from_slice(
            header
                .get(8..crate::layered::net::HEADER_BYTES)
                .unwrap_or(&[]),
        );
        for x in &self.params {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    /// Reads a checkpoint written by [`LayeredFloat::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<LayeredFloat, NetError> {
        let header = crate::layered::net::HEADER_BYTES;
        if bytes.get(..8) != Some(LAYERED_FLOAT_MAGIC.as_slice()) || bytes.len() < header {
            return Err(NetError::NotANet);
        }
        // The shape, read through an empty net file of that header.
        let mut file = crate::layered::net::MAGIC.to_vec();
        file.extend_from_slice(&bytes[8..header]);
        let shape = shape_of_header(&file)?;
        let total = Layout::of(&shape).total;
        if bytes.len() != header + 4 * total {
            return Err(NetError::WrongSize {
                expected: header + 4 * total,
                found: bytes.len(),
            });
        }
        let params = bytes[header..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(LayeredFloat { shape, params })
    }
}

/// The shape a net file's header names (the header alone, checked).
fn shape_of_header(header: &[u8]) -> Result<Shape, NetError> {
    let word = |i: usize| {
        let at = 8 + 4 * i;
        u32::from_le_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]])
    };
    if word(0) != crate::layered::net::FEATURE_SET || word(5) != QH1 as u32 || word(6) != QO as u32
    {
        return Err(NetError::OtherArchitecture {
            found: [word(0), word(5), word(6)],
        });
    }
    let mut map = [0u8; 6];
    map.copy_from_slice(&header[36..42]);
    if header[42] & !1 != 0 || header[43] != 0 {
        return Err(NetError::Shape(
            "unknown flags after the bucket map (a newer format?)",
        ));
    }
    let small = |w: u32| (w as usize).min(1 << 20);
    let shape = Shape {
        width: small(word(1)),
        hidden1: small(word(2)),
        hidden2: small(word(3)),
        stacks: small(word(4)),
        buckets: crate::buckets::BucketMap(map),
        pairwise: header[42] & 1 != 0,
    };
    shape.check()?;
    Ok(shape)
}
