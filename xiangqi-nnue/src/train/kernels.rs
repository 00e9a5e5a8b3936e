//! The float trainer's inner loops, written so that the compiler vectorises them: the
//! feature layer's sparse sums and gradients, and the hidden layers' dense ones.
//!
//! A sum of `f32` products taken in order cannot be vectorised: floating-point addition is
//! not associative and Rust does not let the compiler reorder it, so a plain `.sum()` of
//! products runs one multiply-add at a time, each waiting for the last. The dot product
//! here keeps sixteen partial sums, one per lane, and adds them at the end, which the
//! compiler turns into whole-register multiplies and adds. Each layer's forward and
//! backward pass is one `multiversion` function compiled for SSE2 (every x86-64), AVX2 and
//! AVX-512 and chosen at run time, so the lanes fill the widest register the machine has.
//! The sums differ from the in-order ones only in rounding. Measured in docs/NNUE.md.

use multiversion::multiversion;

/// Partial sums kept by [`dot`]: one AVX-512 register of `f32`, two AVX2 ones.
const LANES: usize = 16;

/// `Σ a[i] × b[i]` in [`LANES`] partial sums.
#[inline(always)]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let split = n - n % LANES;
    let mut lanes = [0f32; LANES];
    for (x, y) in a[..split]
        .chunks_exact(LANES)
        .zip(b[..split].chunks_exact(LANES))
    {
        for k in 0..LANES {
            lanes[k] += x[k] * y[k];
        }
    }
    let mut tail = 0.0;
    for (x, y) in a[split..n].iter().zip(&b[split..n]) {
        tail += x * y;
    }
    lanes.iter().sum::<f32>() + tail
}

/// The feature layer's sums for one perspective: `acc = bias + Σ_f row f of weights`
/// over the active `features`, rows `acc.len()` long.
#[multiversion(targets("x86_64+avx512f+avx512bw", "x86_64+avx2"))]
pub(super) fn sparse_forward(acc: &mut [f32], bias: &[f32], weights: &[f32], features: &[u16]) {
    let w = acc.len();
    acc.copy_from_slice(&bias[..w]);
    for &f in features {
        let f = usize::from(f);
        for (a, &x) in acc.iter_mut().zip(&weights[f * w..(f + 1) * w]) {
            *a += x;
        }
    }
}

/// The backward pass of [`sparse_forward`] given the gradient `d` of the sums: adds `d` to
/// the bias's gradient and to the gradient of every row the sums took.
#[multiversion(targets("x86_64+avx512f+avx512bw", "x86_64+avx2"))]
pub(super) fn sparse_backward(
    d: &[f32],
    g_bias: &mut [f32],
    g_weights: &mut [f32],
    features: &[u16],
) {
    let w = d.len();
    let add = |dst: &mut [f32]| {
        for (x, &y) in dst[..w].iter_mut().zip(d) {
            *x += y;
        }
    };
    add(g_bias);
    for &f in features {
        let f = usize::from(f);
        add(&mut g_weights[f * w..(f + 1) * w]);
    }
}

/// A dense layer's sums: `z[j] = bias[j] + Σ_i x[i] × weights[j × n + i]` with
/// `n = x.len()`, for each of `z.len()` rows.
#[multiversion(targets("x86_64+avx512f+avx512bw", "x86_64+avx2"))]
pub(super) fn forward(x: &[f32], weights: &[f32], bias: &[f32], z: &mut [f32]) {
    for ((z, row), &b) in z.iter_mut().zip(weights.chunks_exact(x.len())).zip(bias) {
        *z = b + dot(x, row);
    }
}

/// The backward pass of [`forward`] given the gradient `d_z` of its sums: adds `d_z[j] × x`
/// to row `j`'s weight gradient and `d_z[j]` to its bias gradient, and `Σ_j d_z[j] × row j`
/// to `d_x` (which the caller clears first). Rows whose gradient is zero (a clipped unit)
/// are skipped.
#[multiversion(targets("x86_64+avx512f+avx512bw", "x86_64+avx2"))]
pub(super) fn backward(
    x: &[f32],
    weights: &[f32],
    d_z: &[f32],
    g_weights: &mut [f32],
    g_bias: &mut [f32],
    d_x: &mut [f32],
) {
    let n = x.len();
    let d_x = &mut d_x[..n];
    for (j, (&d, g_b)) in d_z.iter().zip(g_bias.iter_mut()).enumerate() {
        if d == 0.0 {
            continue;
        }
        *g_b += d;
        let row = &weights[j * n..(j + 1) * n];
        let g_row = &mut g_weights[j * n..(j + 1) * n];
        for i in 0..n {
            g_row[i] += d * x[i];
            d_x[i] += d * row[i];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lane-wise passes agree with the plain in-order ones (up to rounding) on odd
    /// sizes too, where the tail is summed apart.
    #[test]
    fn lanes_agree_with_the_plain_sums() {
        let mut rng = fastrand::Rng::with_seed(3);
        for (n, rows) in [(1024, 16), (16, 32), (35, 3), (7, 5), (1, 2)] {
            let x: Vec<f32> = (0..n).map(|_| rng.f32() - 0.5).collect();
            let w: Vec<f32> = (0..n * rows).map(|_| rng.f32() - 0.5).collect();
            let bias: Vec<f32> = (0..rows).map(|_| rng.f32()).collect();
            let mut z = vec![0.0; rows];
            forward(&x, &w, &bias, &mut z);
            for j in 0..rows {
                let plain: f32 = bias[j] + (0..n).map(|i| x[i] * w[j * n + i]).sum::<f32>();
                assert!(
                    (z[j] - plain).abs() < 1e-4,
                    "n {n} row {j}: {} {plain}",
                    z[j]
                );
            }
            let d_z: Vec<f32> = (0..rows)
                .map(|j| if j % 3 == 1 { 0.0 } else { rng.f32() - 0.5 })
                .collect();
            let (mut g_w, mut g_b, mut d_x) = (vec![0.5; n * rows], vec![0.25; rows], vec![0.0; n]);
            backward(&x, &w, &d_z, &mut g_w, &mut g_b, &mut d_x);
            for j in 0..rows {
                assert_eq!(g_b[j], 0.25 + d_z[j]);
                for i in 0..n {
                    assert_eq!(g_w[j * n + i], 0.5 + d_z[j] * x[i]);
                }
            }
            for i in 0..n {
                let plain: f32 = (0..rows).map(|j| d_z[j] * w[j * n + i]).sum();
                assert!((d_x[i] - plain).abs() < 1e-4, "n {n} input {i}");
            }
        }
    }
}
