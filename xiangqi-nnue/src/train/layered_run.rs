//! The training run of the layered net: the same data split, target, loss, learning-rate
//! schedule and mirroring as the first format's run ([`super::train`]), over the flat
//! parameter vector of [`LayeredFloat`].

use super::layered::{LayeredFloat, LayeredInputs, Scratch};
use super::target::{fit_wdl_scale, held_out, sigmoid, target};
use super::{log_epoch, TrainConfig, TrainReport};
use crate::data::Sample;
use crate::layered::Shape;
use crate::net::SCALE;
use std::io::{self, Write};
use std::time::Instant;

/// Adam over a flat parameter vector.
struct FlatAdam {
    m: Vec<f32>,
    v: Vec<f32>,
    step: i32,
}

impl FlatAdam {
    fn new(n: usize) -> FlatAdam {
        FlatAdam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            step: 0,
        }
    }

    fn update(&mut self, params: &mut [f32], grad: &[f32], lr: f32, batch: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.step += 1;
        let c1 = 1.0 - B1.powi(self.step);
        let c2 = 1.0 - B2.powi(self.step);
        for (((w, &g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            let g = g / batch;
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *w -= lr * (*m / c1) / ((*v / c2).sqrt() + EPS);
        }
    }
}

/// The inputs of a sample, mirrored left to right when `mirror`.
fn inputs_of(shape: &Shape, sample: &Sample, mirror: bool) -> LayeredInputs {
    LayeredInputs::new(shape, sample.side_to_move(), sample.pieces(), mirror)
}

/// The loss of one sample, its gradient added to `grad` (unless `grad` is empty).
fn sample_loss(
    net: &LayeredFloat,
    folded: &[f32],
    inputs: &LayeredInputs,
    target: f32,
    k: f32,
    scratch: &mut Scratch,
    grad: &mut [f32],
) -> f64 {
    let out = net.forward(folded, inputs, scratch);
    let scale = SCALE as f32 / k;
    let p = sigmoid(out * scale);
    let diff = p - target;
    if !grad.is_empty() {
        let d_out = 2.0 * diff * p * (1.0 - p) * scale;
        net.backward(inputs, scratch, d_out, grad);
    }
    f64::from(diff * diff)
}

/// The mean loss of `net` on `samples` (no mirroring), over `threads` threads.
pub fn layered_mean_loss(
    net: &LayeredFloat,
    samples: &[Sample],
    lambda: f32,
    k: f32,
    threads: usize,
) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    let chunk = samples.len().div_ceil(threads.max(1));
    let folded = &net.folded_features();
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut scratch = Scratch::new(&net.shape);
                    part.iter()
                        .map(|s| {
                            let inputs = inputs_of(&net.shape, s, false);
                            let t = target(s, lambda, k);
                            sample_loss(net, folded, &inputs, t, k, &mut scratch, &mut [])
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

/// Trains a layered net of `shape` (or continues `start`) on `samples`, printing per epoch
/// the training loss, the held-out games' loss and the speed to `log`. `config`'s
/// `output_buckets` is not used: the shape's stacks take its place.
pub fn train_layered(
    samples: &[Sample],
    config: &TrainConfig,
    shape: Shape,
    start: Option<LayeredFloat>,
    log: &mut dyn Write,
) -> io::Result<(LayeredFloat, TrainReport)> {
    let invalid = |e: crate::NetError| io::Error::new(io::ErrorKind::InvalidInput, e.to_string());
    let begin = Instant::now();
    let (validation, training): (Vec<Sample>, Vec<Sample>) = samples
        .iter()
        .partition(|s| held_out(s, config.validation_every));
    let k = config.wdl_scale.unwrap_or_else(|| fit_wdl_scale(&training));
    let mut net = match start {
        Some(net) => net,
        None => LayeredFloat::random(shape, config.seed).map_err(invalid)?,
    };
    writeln!(
        log,
        "layered net {:?}: {} parameters; {} training positions, {} held out (one game in {}), K = {k:.1}",
        net.shape,
        net.params.len(),
        training.len(),
        validation.len(),
        config.validation_every
    )?;
    let threads = config.threads.max(1);
    let before = layered_mean_loss(&net, &validation, config.lambda, k, threads);
    writeln!(log, "validation loss of the starting net {before:.6}")?;
    let n = net.params.len();
    let mut adam = FlatAdam::new(n);
    let mut grads: Vec<Vec<f32>> = (0..threads).map(|_| vec![0.0; n]).collect();
    let mut scratches: Vec<Scratch> = (0..threads).map(|_| Scratch::new(&net.shape)).collect();
    let mut rng = fastrand::Rng::with_seed(config.seed ^ 0x5EED);
    let mut order: Vec<u32> = (0..training.len() as u32).collect();
    let mut folded = Vec::new();
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
            net.fold_features_into(&mut folded);
            let folded = &folded;
            let parts: Vec<f64> = std::thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .chunks(per_thread)
                    .zip(grads.iter_mut().zip(scratches.iter_mut()))
                    .map(|(part, (grad, scratch))| {
                        let (net, training) = (&net, &training);
                        let seed = rng.u64(..);
                        scope.spawn(move || {
                            grad.fill(0.0);
                            let mut flips = fastrand::Rng::with_seed(seed);
                            let mut loss = 0.0;
                            for &i in part {
                                let sample = &training[i as usize];
                                let inputs = inputs_of(&net.shape, sample, flips.bool());
                                let t = target(sample, config.lambda, k);
                                loss += sample_loss(net, folded, &inputs, t, k, scratch, grad);
                            }
                            loss
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(f64::NAN))
                    .collect()
            });
            loss += parts.iter().sum::<f64>();
            let (first, rest) = grads.split_at_mut(1);
            for other in &rest[..parts.len() - 1] {
                for (a, b) in first[0].iter_mut().zip(other) {
                    *a += b;
                }
            }
            net.add_shared_gradient(&mut first[0]);
            adam.update(&mut net.params, &first[0], lr, batch.len() as f32);
            net.clip();
        }
        let train_loss = loss / training.len().max(1) as f64;
        let validation_loss = layered_mean_loss(&net, &validation, config.lambda, k, threads);
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
