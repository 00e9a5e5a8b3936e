//! The network in `f32`: its forward pass, its checkpoint file and its quantisation.

use crate::data::Sample;
use crate::features::{feature, mirrored, FEATURES};
use crate::net::{
    output_bucket, Network, HIDDEN, MAX_OUTPUT_BUCKETS, MAX_OUTPUT_WEIGHT, QA, QB, SCALE,
};
use xiangqi_core::{Color, Position};

/// Feature weights and biases are kept within this so that 32 pieces' weights and the bias,
/// at scale 255, stay inside an `i16`.
pub(super) const CLIP: f32 = 1.98;
/// Output weights are kept within this so that their quantised values stay within
/// [`MAX_OUTPUT_WEIGHT`] (127 / 256).
pub(super) const OUTPUT_CLIP: f32 = MAX_OUTPUT_WEIGHT as f32 / QB as f32;

/// The network in `f32`.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// Feature `f`'s column is `feature_weights[f * HIDDEN..(f + 1) * HIDDEN]`.
    pub feature_weights: Vec<f32>,
    /// The accumulator's biases.
    pub feature_bias: Vec<f32>,
    /// Output weights, bucket by bucket: the side to move's 256, then the other side's.
    pub output_weights: Vec<f32>,
    /// The output biases, one per bucket.
    pub output_bias: Vec<f32>,
}

/// The active features of one position: the side to move's view and the other side's.
pub(super) struct Inputs {
    pub(super) us: [u16; 32],
    pub(super) them: [u16; 32],
    pub(super) len: usize,
}

impl Inputs {
    pub(super) fn of_pieces(
        side: Color,
        pieces: impl Iterator<Item = (xiangqi_core::Square, xiangqi_core::Piece)>,
        mirror: bool,
    ) -> Inputs {
        let mut inputs = Inputs {
            us: [0; 32],
            them: [0; 32],
            len: 0,
        };
        for (square, piece) in pieces.take(32) {
            let (mut us, mut them) = (
                feature(side, piece, square),
                feature(side.other(), piece, square),
            );
            if mirror {
                us = mirrored(us);
                them = mirrored(them);
            }
            inputs.us[inputs.len] = us as u16;
            inputs.them[inputs.len] = them as u16;
            inputs.len += 1;
        }
        inputs
    }
}

/// Intermediate values of one forward pass.
pub(super) struct Forward {
    pub(super) acc: [[f32; HIDDEN]; 2],
    /// The output bucket used.
    pub(super) bucket: usize,
    /// The output before scaling to centipawns.
    pub(super) out: f32,
}

/// The first bytes of a float checkpoint.
pub const FLOAT_MAGIC: &[u8; 8] = b"XQNNFLT1";
/// The first bytes of a float checkpoint with output buckets (a `u32` count follows).
pub const FLOAT_MAGIC_BUCKETS: &[u8; 8] = b"XQNNFLT2";

impl FloatNet {
    /// The float weights as a checkpoint file's bytes (`XQNNFLT1`, then every weight as a
    /// little-endian `f32` in [`FloatNet`]'s field order; with output buckets `XQNNFLT2` and
    /// their number as a `u32` before the weights): for resuming training from a generation
    /// and for measuring the quantisation error.
    pub fn to_bytes(&self) -> Vec<u8> {
        let buckets = self.output_buckets();
        let mut out = if buckets == 1 {
            FLOAT_MAGIC.to_vec()
        } else {
            let mut out = FLOAT_MAGIC_BUCKETS.to_vec();
            out.extend_from_slice(&(buckets as u32).to_le_bytes());
            out
        };
        let all = self
            .feature_weights
            .iter()
            .chain(&self.feature_bias)
            .chain(&self.output_weights)
            .chain(&self.output_bias);
        for w in all {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// Reads a checkpoint written by [`FloatNet::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<FloatNet, String> {
        let (buckets, header) = match bytes.get(..8) {
            Some(m) if m == FLOAT_MAGIC => (1, 8),
            Some(m) if m == FLOAT_MAGIC_BUCKETS && bytes.len() >= 12 => {
                let n = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize;
                if !(2..=MAX_OUTPUT_BUCKETS).contains(&n) {
                    return Err(format!(
                        "the checkpoint has {n} output buckets; one with buckets has 2 to {MAX_OUTPUT_BUCKETS}"
                    ));
                }
                (n, 12)
            }
            _ => {
                return Err(
                    "not a float checkpoint (it does not start with XQNNFLT1 or XQNNFLT2)".into(),
                )
            }
        };
        let count = FEATURES * HIDDEN + HIDDEN + buckets * (2 * HIDDEN + 1);
        if bytes.len() != header + 4 * count {
            return Err(format!(
                "a float checkpoint with {buckets} output bucket(s) has {} bytes, this one {}",
                header + 4 * count,
                bytes.len()
            ));
        }
        let mut values = bytes[header..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let mut take = |n: usize| -> Vec<f32> { values.by_ref().take(n).collect() };
        let feature_weights = take(FEATURES * HIDDEN);
        let feature_bias = take(HIDDEN);
        let output_weights = take(buckets * 2 * HIDDEN);
        let output_bias = take(buckets);
        Ok(FloatNet {
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        })
    }

    /// Small random weights from `seed`, one output bucket.
    pub fn random(seed: u64) -> FloatNet {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut uniform = |n: usize, a: f32| -> Vec<f32> {
            (0..n).map(|_| (rng.f32() * 2.0 - 1.0) * a).collect()
        };
        FloatNet {
            feature_weights: uniform(FEATURES * HIDDEN, 0.1),
            feature_bias: vec![0.0; HIDDEN],
            output_weights: uniform(2 * HIDDEN, 1.0 / (2.0 * HIDDEN as f32).sqrt()),
            output_bias: vec![0.0],
        }
    }

    /// How many output buckets the net has.
    pub fn output_buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// The net with `n` output buckets, each a copy of this one-bucket net's output: it
    /// evaluates as before, and training then lets each bucket go its own way (from a trained
    /// net, or from random weights).
    ///
    /// # Panics
    /// If the net already has more than one bucket, or `n` is 0.
    pub fn with_output_buckets(mut self, n: usize) -> FloatNet {
        assert_eq!(self.output_buckets(), 1, "only a one-bucket net is widened");
        assert!(n >= 1, "a net has at least one output bucket");
        self.output_weights = self.output_weights.repeat(n);
        self.output_bias = self.output_bias.repeat(n);
        self
    }

    pub(super) fn column(&self, f: u16) -> &[f32] {
        let f = usize::from(f);
        &self.feature_weights[f * HIDDEN..(f + 1) * HIDDEN]
    }

    pub(super) fn forward(&self, inputs: &Inputs) -> Forward {
        let mut acc = [[0f32; HIDDEN]; 2];
        for (side, features) in [&inputs.us, &inputs.them].into_iter().enumerate() {
            let a = &mut acc[side];
            a.copy_from_slice(&self.feature_bias);
            for &f in &features[..inputs.len] {
                for (v, w) in a.iter_mut().zip(self.column(f)) {
                    *v += w;
                }
            }
        }
        let bucket = output_bucket(inputs.len as u32, self.output_buckets());
        let mut out = self.output_bias[bucket];
        let bucket_weights = &self.output_weights[bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN];
        for (side, a) in acc.iter().enumerate() {
            let weights = &bucket_weights[side * HIDDEN..(side + 1) * HIDDEN];
            out += a
                .iter()
                .zip(weights)
                .map(|(&x, &w)| {
                    let c = x.clamp(0.0, 1.0);
                    c * c * w
                })
                .sum::<f32>();
        }
        Forward { acc, bucket, out }
    }

    /// The evaluation of `pos` in centipawns for the side to move, in floating point.
    pub fn evaluate(&self, pos: &Position) -> f32 {
        let inputs = Inputs::of_pieces(pos.side_to_move(), pos.all_pieces(), false);
        self.forward(&inputs).out * SCALE as f32
    }

    /// The integer network: every weight rounded to its scale (see [`crate::net`]).
    pub fn quantise(&self) -> Network {
        let q16 = |x: f32, scale: i32| (x * scale as f32).round() as i16;
        let mut feature_weights = vec![[0i16; HIDDEN]; FEATURES];
        for (f, row) in feature_weights.iter_mut().enumerate() {
            for (j, w) in row.iter_mut().enumerate() {
                *w = q16(self.feature_weights[f * HIDDEN + j], QA);
            }
        }
        let mut feature_bias = [0i16; HIDDEN];
        for (b, &x) in feature_bias.iter_mut().zip(&self.feature_bias) {
            *b = q16(x, QA);
        }
        let mut output_weights = vec![[[0i16; HIDDEN]; 2]; self.output_buckets()];
        for (half, floats) in output_weights
            .iter_mut()
            .flatten()
            .zip(self.output_weights.chunks_exact(HIDDEN))
        {
            for (w, &x) in half.iter_mut().zip(floats) {
                *w = q16(x, QB).clamp(-MAX_OUTPUT_WEIGHT, MAX_OUTPUT_WEIGHT);
            }
        }
        Network {
            feature_weights,
            feature_bias,
            output_weights,
            output_bias: self
                .output_bias
                .iter()
                .map(|&b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
        }
    }

    /// The float network a quantised one stands for: each weight divided by its scale, the
    /// inverse of [`FloatNet::quantise`] (which gives the same integers back). A run can start
    /// from a net whose float checkpoint is gone, the embedded one included, and go on
    /// learning from new data without the data that net was trained on.
    pub fn from_network(net: &Network) -> FloatNet {
        let qa = QA as f32;
        let qb = QB as f32;
        FloatNet {
            feature_weights: net
                .feature_weights
                .iter()
                .flat_map(|column| column.iter().map(|&w| f32::from(w) / qa))
                .collect(),
            feature_bias: net
                .feature_bias
                .iter()
                .map(|&b| f32::from(b) / qa)
                .collect(),
            output_weights: net
                .output_weights
                .iter()
                .flatten()
                .flat_map(|half| half.iter().map(|&w| f32::from(w) / qb))
                .collect(),
            output_bias: net
                .output_bias
                .iter()
                .map(|&b| b as f32 / (qa * qb))
                .collect(),
        }
    }

    pub(super) fn clip(&mut self) {
        for w in self
            .feature_weights
            .iter_mut()
            .chain(&mut self.feature_bias)
        {
            *w = w.clamp(-CLIP, CLIP);
        }
        for w in &mut self.output_weights {
            *w = w.clamp(-OUTPUT_CLIP, OUTPUT_CLIP);
        }
    }
}

pub(super) fn inputs_of(sample: &Sample, mirror: bool) -> Inputs {
    Inputs::of_pieces(sample.side_to_move(), sample.pieces(), mirror)
}
