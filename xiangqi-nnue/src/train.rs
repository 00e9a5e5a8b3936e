//! The trainer: the network in `f32`, trained by gradient descent on search scores and game
//! results, then quantised into a [`Network`].
//!
//! Written here rather than in a deep-learning framework: the net is one sparse layer and
//! one output, so its gradient is a few lines; the trainer shares [`crate::features`] with
//! the inference, so the two cannot disagree on what a feature is; and it runs with nothing
//! but this crate (PyTorch's wheels on PyPI bring gigabytes of GPU libraries, and the CPU
//! ones live outside the registry).
//!
//! The target is a blend, `λ · sigmoid(score / K) + (1 − λ) · result`, where the result is
//! 0, ½ or 1 for the side to move and `K` turns centipawns into an expected result (fitted to
//! the data unless given). The prediction is `sigmoid(eval / K)`, the loss the squared
//! difference. Optimiser: Adam, the learning rate falling along a cosine to a tenth.

use crate::data::{Sample, Source};
use crate::features::{feature, mirrored, FEATURES};
use crate::net::{
    output_bucket, Network, HIDDEN, MAX_OUTPUT_BUCKETS, MAX_OUTPUT_WEIGHT, QA, QB, SCALE,
};
use std::io::{self, Write};
use std::time::Instant;
use xiangqi_core::{Color, Position};

/// Feature weights and biases are kept within this so that 32 pieces' weights and the bias,
/// at scale 255, stay inside an `i16`.
const CLIP: f32 = 1.98;
/// Output weights are kept within this so that their quantised values stay within
/// [`MAX_OUTPUT_WEIGHT`] (127 / 256).
const OUTPUT_CLIP: f32 = MAX_OUTPUT_WEIGHT as f32 / QB as f32;

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
struct Inputs {
    us: [u16; 32],
    them: [u16; 32],
    len: usize,
}

impl Inputs {
    fn of_pieces(
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

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Intermediate values of one forward pass.
struct Forward {
    acc: [[f32; HIDDEN]; 2],
    /// The output bucket used.
    bucket: usize,
    /// The output before scaling to centipawns.
    out: f32,
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

    fn column(&self, f: u16) -> &[f32] {
        let f = usize::from(f);
        &self.feature_weights[f * HIDDEN..(f + 1) * HIDDEN]
    }

    fn forward(&self, inputs: &Inputs) -> Forward {
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

    fn clip(&mut self) {
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

/// The gradient of the loss, laid out like [`FloatNet`], plus the loss summed.
struct Gradient {
    net: FloatNet,
    loss: f64,
}

impl Gradient {
    fn zero(buckets: usize) -> Gradient {
        Gradient {
            net: FloatNet {
                feature_weights: vec![0.0; FEATURES * HIDDEN],
                feature_bias: vec![0.0; HIDDEN],
                output_weights: vec![0.0; buckets * 2 * HIDDEN],
                output_bias: vec![0.0; buckets],
            },
            loss: 0.0,
        }
    }
    fn clear(&mut self) {
        self.net.feature_weights.fill(0.0);
        self.net.feature_bias.fill(0.0);
        self.net.output_weights.fill(0.0);
        self.net.output_bias.fill(0.0);
        self.loss = 0.0;
    }
    fn add(&mut self, other: &Gradient) {
        for (a, b) in self
            .net
            .feature_weights
            .iter_mut()
            .zip(&other.net.feature_weights)
        {
            *a += b;
        }
        for (a, b) in self
            .net
            .feature_bias
            .iter_mut()
            .zip(&other.net.feature_bias)
        {
            *a += b;
        }
        for (a, b) in self
            .net
            .output_weights
            .iter_mut()
            .zip(&other.net.output_weights)
        {
            *a += b;
        }
        for (a, b) in self.net.output_bias.iter_mut().zip(&other.net.output_bias) {
            *a += b;
        }
        self.loss += other.loss;
    }
}

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per optimiser step.
    pub batch_size: usize,
    /// The starting learning rate (Adam).
    pub learning_rate: f32,
    /// The weight of the search score in the target; the game result has `1 − λ`.
    pub lambda: f32,
    /// Centipawns per unit of logistic: `None` fits it to the data.
    pub wdl_scale: Option<f32>,
    /// Worker threads for the gradient.
    pub threads: usize,
    /// Seeds the initial weights and the shuffling.
    pub seed: u64,
    /// One game in this many is held out for validation.
    pub validation_every: u32,
    /// Output buckets (1: none). A one-bucket starting net is widened to this many
    /// ([`FloatNet::with_output_buckets`]).
    pub output_buckets: usize,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            epochs: 20,
            batch_size: 16_384,
            learning_rate: 1e-3,
            lambda: 0.75,
            wdl_scale: None,
            threads: 2,
            seed: 1,
            validation_every: 20,
            output_buckets: 1,
        }
    }
}

/// Whether a sample's game is held out: a hash of the game's number and source, so that a
/// whole game lands on one side.
fn held_out(sample: &Sample, every: u32) -> bool {
    let source = u64::from(sample.source() == Source::Master);
    let mut z = u64::from(sample.game()) ^ (source << 40);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    every > 0 && z % u64::from(every) == 0
}

/// The `K` for which `sigmoid(score / K)` best predicts the results (least squares, by a
/// golden-section search between 50 and 2,000 centipawns).
pub fn fit_wdl_scale(samples: &[Sample]) -> f32 {
    let error = |k: f32| -> f64 {
        samples
            .iter()
            .map(|s| {
                let d = sigmoid(f32::from(s.score()) / k) - s.outcome().value();
                f64::from(d * d)
            })
            .sum()
    };
    let (mut lo, mut hi) = (50f32, 2000f32);
    let phi = 0.618_034f32;
    for _ in 0..40 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if error(a) < error(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Adds the loss and gradient of one sample to `grad`.
fn accumulate(net: &FloatNet, inputs: &Inputs, target: f32, k: f32, grad: &mut Gradient) {
    let forward = net.forward(inputs);
    let scale = SCALE as f32 / k;
    let p = sigmoid(forward.out * scale);
    let diff = p - target;
    grad.loss += f64::from(diff * diff);
    let d_out = 2.0 * diff * p * (1.0 - p) * scale;
    let bucket = forward.bucket;
    grad.net.output_bias[bucket] += d_out;
    for (side, features) in [&inputs.us, &inputs.them].into_iter().enumerate() {
        let acc = &forward.acc[side];
        let at = (2 * bucket + side) * HIDDEN;
        let weights = &net.output_weights[at..at + HIDDEN];
        let mut d_acc = [0f32; HIDDEN];
        let g_out = &mut grad.net.output_weights[at..at + HIDDEN];
        for j in 0..HIDDEN {
            let c = acc[j].clamp(0.0, 1.0);
            g_out[j] += d_out * c * c;
            // d(c²)/dx = 2x inside (0, 1), 0 outside.
            d_acc[j] = if acc[j] > 0.0 && acc[j] < 1.0 {
                d_out * weights[j] * 2.0 * acc[j]
            } else {
                0.0
            };
        }
        for (b, d) in grad.net.feature_bias.iter_mut().zip(&d_acc) {
            *b += d;
        }
        for &f in &features[..inputs.len] {
            let f = usize::from(f);
            let column = &mut grad.net.feature_weights[f * HIDDEN..(f + 1) * HIDDEN];
            for (w, d) in column.iter_mut().zip(&d_acc) {
                *w += d;
            }
        }
    }
}

fn target(sample: &Sample, lambda: f32, k: f32) -> f32 {
    lambda * sigmoid(f32::from(sample.score()) / k) + (1.0 - lambda) * sample.outcome().value()
}

fn inputs_of(sample: &Sample, mirror: bool) -> Inputs {
    Inputs::of_pieces(sample.side_to_move(), sample.pieces(), mirror)
}

/// The mean loss of `net` on `samples` (no mirroring), over `threads` threads.
pub fn mean_loss(net: &FloatNet, samples: &[Sample], lambda: f32, k: f32, threads: usize) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    let chunk = samples.len().div_ceil(threads.max(1));
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|s| {
                            let p =
                                sigmoid(net.forward(&inputs_of(s, false)).out * SCALE as f32 / k);
                            let d = p - target(s, lambda, k);
                            f64::from(d * d)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(f64::NAN))
            .sum()
    });
    total / samples.len() as f64
}

/// Adam's running moments.
struct Adam {
    m: FloatNet,
    v: FloatNet,
    step: i32,
}

impl Adam {
    fn new(buckets: usize) -> Adam {
        let zero = Gradient::zero(buckets).net;
        Adam {
            m: zero.clone(),
            v: zero,
            step: 0,
        }
    }

    fn update(&mut self, net: &mut FloatNet, grad: &FloatNet, lr: f32, batch: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.step += 1;
        let c1 = 1.0 - B1.powi(self.step);
        let c2 = 1.0 - B2.powi(self.step);
        let step = |w: &mut f32, g: f32, m: &mut f32, v: &mut f32| {
            let g = g / batch;
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *w -= lr * (*m / c1) / ((*v / c2).sqrt() + EPS);
        };
        let parts = [
            (
                &mut net.feature_weights,
                &grad.feature_weights,
                &mut self.m.feature_weights,
                &mut self.v.feature_weights,
            ),
            (
                &mut net.feature_bias,
                &grad.feature_bias,
                &mut self.m.feature_bias,
                &mut self.v.feature_bias,
            ),
            (
                &mut net.output_weights,
                &grad.output_weights,
                &mut self.m.output_weights,
                &mut self.v.output_weights,
            ),
            (
                &mut net.output_bias,
                &grad.output_bias,
                &mut self.m.output_bias,
                &mut self.v.output_bias,
            ),
        ];
        for (w, g, m, v) in parts {
            for i in 0..w.len() {
                step(&mut w[i], g[i], &mut m[i], &mut v[i]);
            }
        }
    }
}

/// What a training run measured.
#[derive(Clone, Debug)]
pub struct TrainReport {
    /// Positions trained on and held out.
    pub train_positions: usize,
    /// See [`TrainReport::train_positions`].
    pub validation_positions: usize,
    /// The fitted (or given) `K`.
    pub wdl_scale: f32,
    /// Per epoch: training loss, validation loss.
    pub losses: Vec<(f64, f64)>,
    /// Seconds spent.
    pub seconds: f64,
}

/// Trains a net on `samples`, printing the loss per epoch and the held-out games'
/// validation loss to `log`. Half of the positions, picked afresh each epoch, are shown
/// mirrored left to right.
pub fn train(
    samples: &[Sample],
    config: &TrainConfig,
    start: Option<FloatNet>,
    log: &mut dyn Write,
) -> io::Result<(FloatNet, TrainReport)> {
    let begin = Instant::now();
    let (validation, training): (Vec<Sample>, Vec<Sample>) = samples
        .iter()
        .partition(|s| held_out(s, config.validation_every));
    let k = config.wdl_scale.unwrap_or_else(|| fit_wdl_scale(&training));
    writeln!(
        log,
        "{} training positions, {} held out (one game in {}), K = {k:.1}",
        training.len(),
        validation.len(),
        config.validation_every
    )?;
    let buckets = config.output_buckets;
    if !(1..=MAX_OUTPUT_BUCKETS).contains(&buckets) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("output buckets: {buckets}; a net has 1 to {MAX_OUTPUT_BUCKETS}"),
        ));
    }
    let started = start.is_some();
    let mut net = start.unwrap_or_else(|| FloatNet::random(config.seed));
    if net.output_buckets() != buckets {
        if net.output_buckets() != 1 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "the starting net has {} output buckets and the run asks for {buckets}",
                    net.output_buckets()
                ),
            ));
        }
        net = net.with_output_buckets(buckets);
    }
    let threads = config.threads.max(1);
    if started {
        let before = mean_loss(&net, &validation, config.lambda, k, threads);
        writeln!(log, "validation loss of the starting net {before:.6}")?;
    }
    let mut adam = Adam::new(buckets);
    let mut grads: Vec<Gradient> = (0..threads).map(|_| Gradient::zero(buckets)).collect();
    let mut rng = fastrand::Rng::with_seed(config.seed ^ 0x5EED);
    let mut order: Vec<u32> = (0..training.len() as u32).collect();
    let mut losses = Vec::new();
    for epoch in 0..config.epochs {
        let epoch_start = Instant::now();
        rng.shuffle(&mut order);
        let progress = epoch as f32 / config.epochs.max(1) as f32;
        let lr = config.learning_rate
            * (0.1 + 0.9 * 0.5 * (1.0 + (core::f32::consts::PI * progress).cos()));
        let mut loss = 0.0;
        for batch in order.chunks(config.batch_size.max(1)) {
            let per_thread = batch.len().div_ceil(threads);
            std::thread::scope(|scope| {
                for (part, grad) in batch.chunks(per_thread).zip(grads.iter_mut()) {
                    let (net, training) = (&net, &training);
                    let seed = rng.u64(..);
                    scope.spawn(move || {
                        grad.clear();
                        let mut flips = fastrand::Rng::with_seed(seed);
                        for &i in part {
                            let sample = &training[i as usize];
                            let inputs = inputs_of(sample, flips.bool());
                            accumulate(net, &inputs, target(sample, config.lambda, k), k, grad);
                        }
                    });
                }
            });
            let used = batch.len().div_ceil(per_thread);
            let (first, rest) = grads.split_at_mut(1);
            for other in &rest[..used - 1] {
                first[0].add(other);
            }
            loss += first[0].loss;
            adam.update(&mut net, &first[0].net, lr, batch.len() as f32);
            net.clip();
        }
        let train_loss = loss / training.len().max(1) as f64;
        let validation_loss = mean_loss(&net, &validation, config.lambda, k, threads);
        losses.push((train_loss, validation_loss));
        let secs = epoch_start.elapsed().as_secs_f64();
        writeln!(
            log,
            "epoch {:>3}/{}  train loss {train_loss:.6}  validation loss {validation_loss:.6}  lr {lr:.6}  {secs:.1} s ({:.0} positions/s)",
            epoch + 1,
            config.epochs,
            training.len() as f64 / secs
        )?;
        log.flush()?;
    }
    let report = TrainReport {
        train_positions: training.len(),
        validation_positions: validation.len(),
        wdl_scale: k,
        losses,
        seconds: begin.elapsed().as_secs_f64(),
    };
    Ok((net, report))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Outcome;

    fn samples() -> Vec<Sample> {
        let fens = [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "r1bakabr1/9/1cn4cn/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1",
            "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1",
        ];
        fens.iter()
            .enumerate()
            .map(|(i, fen)| {
                let pos = Position::from_fen(fen).unwrap();
                Sample::new(
                    &pos,
                    [30, -80, 900][i],
                    [Outcome::Draw, Outcome::Loss, Outcome::Win][i],
                    Source::SelfPlay,
                    i as u32,
                )
            })
            .collect()
    }

    fn weight_mut<'a>(n: &'a mut FloatNet, kind: &str, i: usize) -> &'a mut f32 {
        match kind {
            "feature" => &mut n.feature_weights[i],
            "bias" => &mut n.feature_bias[i],
            "output bias" => &mut n.output_bias[i],
            _ => &mut n.output_weights[i],
        }
    }

    /// A net whose float checkpoint is gone (the embedded one) can seed a run: dequantised,
    /// it rounds back to the same integers.
    #[test]
    fn a_net_dequantised_quantises_back_to_itself() {
        let net = Network::embedded();
        assert_eq!(FloatNet::from_network(&net).quantise(), net);
    }

    /// The analytic gradient against central differences of the loss, for a few weights
    /// of each kind, without output buckets and with four (the sample positions fall in
    /// buckets 3 and 0, whose weights are made to differ).
    #[test]
    fn the_gradient_matches_finite_differences() {
        for buckets in [1, 4] {
            let mut net = FloatNet::random(7).with_output_buckets(buckets);
            // Spread the accumulators over (0, 1) so that the clipped units take part.
            for b in &mut net.feature_bias {
                *b = 0.4;
            }
            for (i, w) in net.output_weights.iter_mut().enumerate() {
                *w *= 1.0 + (i / (2 * HIDDEN)) as f32 * 0.5;
            }
            let (lambda, k) = (0.6, 300.0);
            let data = samples();
            let loss = |net: &FloatNet| -> f64 {
                data.iter()
                    .map(|s| {
                        let p = sigmoid(net.forward(&inputs_of(s, false)).out * SCALE as f32 / k);
                        let d = f64::from(p) - f64::from(target(s, lambda, k));
                        d * d
                    })
                    .sum()
            };
            let mut grad = Gradient::zero(buckets);
            for s in &data {
                accumulate(
                    &net,
                    &inputs_of(s, false),
                    target(s, lambda, k),
                    k,
                    &mut grad,
                );
            }
            let first_feature = usize::from(inputs_of(&data[0], false).us[0]);
            let last = buckets - 1;
            let checks: Vec<(&str, usize)> = vec![
                ("feature", first_feature * HIDDEN + 3),
                ("feature", first_feature * HIDDEN + 100),
                ("bias", 5),
                ("output", last * 2 * HIDDEN + 7),
                ("output", last * 2 * HIDDEN + HIDDEN + 9),
                ("output", HIDDEN + 11),
                ("output bias", last),
                ("output bias", 0),
            ];
            for (kind, i) in checks {
                let h = 1e-2f32;
                let mut plus = net.clone();
                let mut minus = net.clone();
                *weight_mut(&mut plus, kind, i) += h;
                *weight_mut(&mut minus, kind, i) -= h;
                let numeric = (loss(&plus) - loss(&minus)) / f64::from(2.0 * h);
                let analytic = f64::from(*weight_mut(&mut grad.net, kind, i));
                assert!(
                    (numeric - analytic).abs() <= 1e-3 + 0.05 * numeric.abs(),
                    "{buckets} buckets, {kind} {i}: numeric {numeric}, analytic {analytic}"
                );
            }
        }
    }

    /// A bucketed net's checkpoint and net file read back the same, and its integer
    /// inference follows its float one bucket by bucket.
    #[test]
    fn a_bucketed_net_round_trips() {
        let mut net = FloatNet::random(3).with_output_buckets(8);
        for (i, w) in net.output_weights.iter_mut().enumerate() {
            *w *= 1.0 + (i / (2 * HIDDEN)) as f32 * 0.3;
        }
        net.output_bias = (0..8).map(|b| b as f32 * 0.01).collect();
        assert_eq!(FloatNet::from_bytes(&net.to_bytes()), Ok(net.clone()));
        let quantised = net.quantise();
        assert_eq!(quantised.output_buckets(), 8);
        let bytes = quantised.to_bytes();
        assert_eq!(bytes.len(), crate::net::file_bytes(8));
        assert_eq!(&bytes[..8], b"XQNNUE02");
        assert_eq!(Network::from_bytes(&bytes), Ok(quantised.clone()));
        assert_eq!(FloatNet::from_network(&quantised).quantise(), quantised);
        let eval = crate::NnueEvaluator::with_network(std::sync::Arc::new(quantised));
        for (i, s) in samples().iter().enumerate() {
            let pos = s.position().unwrap();
            let float = net.evaluate(&pos);
            let int = eval.evaluate_fresh(&pos).0 as f32;
            assert!(
                (float - int).abs() < 40.0,
                "sample {i}: float {float}, integer {int}"
            );
        }
    }
}
