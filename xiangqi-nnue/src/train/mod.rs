//! The trainer: the network in `f32`, trained by gradient descent on search scores and game
//! results, then quantised into a [`Network`](crate::Network).
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
//!
//! Two nets are trained here: the first format's ([`FloatNet`], one sparse layer and an
//! output) and the layered one ([`LayeredFloat`], general-bucketed inputs and one or two
//! hidden layers, [`train_layered`]). Both share the data split, the target and the
//! schedule; each has its own forward and backward pass.

mod float;
mod kernels;
mod layered;
mod layered_run;
mod optim;
mod target;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_layered;

pub use float::{FloatNet, FLOAT_MAGIC, FLOAT_MAGIC_BUCKETS};
pub use layered::{LayeredFloat, LAYERED_FLOAT_MAGIC};
pub use layered_run::{layered_mean_loss, train_layered};

use crate::data::Sample;
use crate::net::{MAX_OUTPUT_BUCKETS, SCALE};
use float::inputs_of;
use optim::{accumulate, Adam, Gradient};
use std::io::{self, Write};
use std::time::Instant;
pub use target::fit_wdl_scale;
pub(crate) use target::{held_out, sigmoid, target};

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
/// One line of the training log per epoch: both losses, the learning rate, the time and the
/// rate; shared by both trainers so that their logs read alike.
pub(crate) fn log_epoch(
    log: &mut dyn Write,
    epoch: usize,
    config: &TrainConfig,
    (train_loss, validation_loss): (f64, f64),
    lr: f32,
    epoch_start: Instant,
    positions: usize,
) -> io::Result<()> {
    let secs = epoch_start.elapsed().as_secs_f64();
    writeln!(
        log,
        "epoch {:>3}/{}  train loss {train_loss:.6}  validation loss {validation_loss:.6}  lr {lr:.6}  {secs:.1} s ({:.0} positions/s)",
        epoch + 1,
        config.epochs,
        positions as f64 / secs
    )?;
    log.flush()
}

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
        log_epoch(
            log,
            epoch,
            config,
            (train_loss, validation_loss),
            lr,
            epoch_start,
            training.len(),
        )?;
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
