//! The gradient of one sample and the optimiser (Adam) that applies a batch's.

use super::float::{FloatNet, Inputs};
use super::target::sigmoid;
use crate::features::FEATURES;
use crate::net::{HIDDEN, SCALE};

/// The gradient of the loss, laid out like [`FloatNet`], plus the loss summed.
pub(super) struct Gradient {
    pub(super) net: FloatNet,
    pub(super) loss: f64,
}

impl Gradient {
    pub(super) fn zero(buckets: usize) -> Gradient {
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
    pub(super) fn clear(&mut self) {
        self.net.feature_weights.fill(0.0);
        self.net.feature_bias.fill(0.0);
        self.net.output_weights.fill(0.0);
        self.net.output_bias.fill(0.0);
        self.loss = 0.0;
    }
    pub(super) fn add(&mut self, other: &Gradient) {
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

/// Adds the loss and gradient of one sample to `grad`.
pub(super) fn accumulate(
    net: &FloatNet,
    inputs: &Inputs,
    target: f32,
    k: f32,
    grad: &mut Gradient,
) {
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

/// Adam's running moments.
pub(super) struct Adam {
    m: FloatNet,
    v: FloatNet,
    step: i32,
}

impl Adam {
    pub(super) fn new(buckets: usize) -> Adam {
        let zero = Gradient::zero(buckets).net;
        Adam {
            m: zero.clone(),
            v: zero,
            step: 0,
        }
    }

    pub(super) fn update(&mut self, net: &mut FloatNet, grad: &FloatNet, lr: f32, batch: f32) {
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
