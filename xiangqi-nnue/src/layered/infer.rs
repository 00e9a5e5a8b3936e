//! The layered net's integer forward pass from the two accumulators to centipawns.
//!
//! Activations are clipped ReLUs at scale [`QA`] (1.0 is 255): the accumulator's values
//! clipped to `[0, 255]`, each hidden unit `clamp((Σ a × w + b) / Q, 0, 255)`, with `i8`
//! weights at scale `Q` ([`QH1`], [`QH2`]) and the sums in `i32`; the output `Σ x × w + b` with `i16`
//! weights at scale [`QO`], turned into centipawns by [`SCALE`]. Nothing here allocates:
//! the activations live in fixed arrays on the stack.

use super::net::{LayeredNet, Stack, MAX_HIDDEN, MAX_WIDTH, QH1, QH2, QO};
use crate::net::{QA, SCALE};
use multiversion::multiversion;

/// `Σ a × w` over `i16` activations and `i8` weights, in `i32`. Compiled for SSE2, AVX2
/// and AVX-512 and chosen at run time by `multiversion`, like the accumulator updates.
#[multiversion(targets("x86_64+avx512f+avx512bw", "x86_64+avx2"))]
fn dot(activations: &[i16], weights: &[i8]) -> i32 {
    let mut sum = 0i32;
    for (&a, &w) in activations.iter().zip(weights) {
        sum = sum.wrapping_add(i32::from(a) * i32::from(w));
    }
    sum
}

/// The clipped ReLU of `src` into `dst`, `[0, QA]`.
#[multiversion(targets("x86_64+avx512f+avx512bw", "x86_64+avx2"))]
fn clip(dst: &mut [i16], src: &[i16]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = s.clamp(0, QA as i16);
    }
}

/// One hidden layer: `outputs.len()` units over `inputs`, rows of `weights`.
#[inline]
fn hidden<const Q: i32>(inputs: &[i16], weights: &[i8], bias: &[i32], outputs: &mut [i16]) {
    let n = inputs.len();
    for (j, (out, &b)) in outputs.iter_mut().zip(bias).enumerate() {
        let sum = b.wrapping_add(dot(inputs, &weights[j * n..(j + 1) * n]));
        // Rounded to the nearest, then clipped to [0, 1].
        *out = ((sum + Q / 2) >> Q.trailing_zeros()).clamp(0, QA) as i16;
    }
}

/// The value of stack `stack` for the side to move, whose accumulator is `us`, the other
/// side's `them` (both `width` long), in centipawns.
pub(crate) fn evaluate(net: &LayeredNet, stack: usize, us: &[i16], them: &[i16]) -> i32 {
    let s: &Stack = &net.stacks[stack];
    let shape = &net.shape;
    let w = shape.width;
    let mut ft = [0i16; 2 * MAX_WIDTH];
    clip(&mut ft[..w], us);
    clip(&mut ft[w..2 * w], them);
    let mut h1 = [0i16; MAX_HIDDEN];
    let h1 = &mut h1[..shape.hidden1];
    hidden::<QH1>(&ft[..2 * w], &s.l1_weights, &s.l1_bias, h1);
    let mut h2 = [0i16; MAX_HIDDEN];
    let last: &[i16] = if shape.hidden2 == 0 {
        h1
    } else {
        let h2 = &mut h2[..shape.hidden2];
        hidden::<QH2>(h1, &s.l2_weights, &s.l2_bias, h2);
        h2
    };
    let mut sum = i64::from(s.out_bias);
    for (&x, &wo) in last.iter().zip(&s.out_weights) {
        sum += i64::from(x) * i64::from(wo);
    }
    (sum * i64::from(SCALE) / i64::from(QA * QO)) as i32
}
