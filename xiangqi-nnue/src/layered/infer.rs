//! The layered net's integer forward pass from the two accumulators to centipawns.
//!
//! Activations are clipped ReLUs at scale [`QA`] (1.0 is 255): the accumulator's values
//! clipped to `[0, 255]`, each hidden unit `clamp((Σ a × w + b) / Q, 0, 255)`, with `i8`
//! weights at scale `Q` ([`QH1`], [`QH2`]) and the sums in `i32`; the output `Σ x × w + b` with `i16`
//! weights at scale [`QO`], turned into centipawns by [`SCALE`]. Nothing here allocates:
//! the clipped accumulators go into the caller's scratch buffer and the hidden layers live
//! in small fixed arrays on the stack.
//!
//! # Why the weights are widened ([`Prepared`]) and the pass is one function
//!
//! With `i8` weights next to `i16` activations the compiler widens both to `i32` and
//! multiplies with `pmulld` (slow, and a quarter of the lanes); with the weights widened
//! to `i16` once per evaluator, each row's dot product is the plain `i16 × i16 → i32`
//! reduction that LLVM lowers to `pmaddwd`, which multiplies and adds adjacent pairs in
//! one instruction. The whole pass is one `multiversion` function, so the rows' dot
//! products are inlined (the first version dispatched each of the 48 rows through a
//! function pointer), and the clipped accumulators are written into a reused buffer
//! instead of a zeroed 8 KiB stack array. The results are the same bit for bit: every
//! product is exact and the `i32` sums cannot overflow ([`LayeredNet::check_ranges`]);
//! tests compare this pass with the first, row-by-row one ([`reference`], kept for them)
//! on random inputs and on random positions. Measured in docs/NNUE.md.

use super::net::{LayeredNet, MAX_HIDDEN, QH1, QH2, QO};
use super::vnni::Vnni;
use crate::net::{QA, SCALE};
use multiversion::multiversion;

/// One stack's hidden layers with their weights widened to `i16` (same row layout as the
/// net's `i8` rows), so that each row's dot product is the `i16 × i16 → i32` multiply-add
/// of adjacent pairs that LLVM turns into `pmaddwd`.
#[derive(Clone, Debug)]
struct PreparedStack {
    l1: Vec<i16>,
    l2: Vec<i16>,
    /// The first hidden layer for `vpdpbusd`, where the CPU has it ([`Vnni`]).
    vnni: Option<Vnni>,
}

/// A net's hidden-layer weights in the layout the forward pass reads (see the module
/// documentation). Built once per evaluator from the net, which stays the source of truth.
#[derive(Clone, Debug)]
pub(crate) struct Prepared {
    stacks: Vec<PreparedStack>,
}

impl Prepared {
    /// The layout of `net`'s weights, with the first hidden layer in VNNI's where this CPU
    /// has AVX-512 VNNI.
    pub(crate) fn new(net: &LayeredNet) -> Prepared {
        Prepared::with_vnni(net, true)
    }

    /// The layout of `net`'s weights for the portable pass alone (`vnni` false).
    pub(crate) fn with_vnni(net: &LayeredNet, vnni: bool) -> Prepared {
        let widen = |w: &[i8]| w.iter().map(|&x| i16::from(x)).collect();
        let inputs = net.shape.l1_inputs();
        let stacks = net
            .stacks
            .iter()
            .map(|s| PreparedStack {
                l1: widen(&s.l1_weights),
                l2: widen(&s.l2_weights),
                vnni: vnni
                    .then(|| Vnni::new(&s.l1_weights, inputs, net.shape.hidden1))
                    .flatten(),
            })
            .collect();
        Prepared { stacks }
    }
}

/// Working memory of the forward pass, kept by the evaluator so that no large array is
/// zeroed per call: the clipped accumulators as `i16` (portable pass) or bytes (VNNI).
#[derive(Clone, Debug)]
pub(crate) struct Scratch {
    wide: Vec<i16>,
    bytes: Vec<u8>,
}

impl Scratch {
    /// Room for two accumulators of `width`.
    pub(crate) fn new(width: usize) -> Scratch {
        Scratch {
            wide: vec![0; 2 * width],
            bytes: vec![0; 2 * width],
        }
    }
}

/// `Σ a × w` over `i16` activations and weights in `i32`: the plain reduction that LLVM
/// vectorises into `pmaddwd` and `paddd` with several accumulators.
#[inline(always)]
fn dot(activations: &[i16], weights: &[i16]) -> i32 {
    let mut sum = 0i32;
    for (&a, &w) in activations.iter().zip(weights) {
        sum = sum.wrapping_add(i32::from(a) * i32::from(w));
    }
    sum
}

/// A hidden layer's sums (before bias) over `inputs`, `sums.len()` rows of `weights`.
#[inline(always)]
fn layer(inputs: &[i16], weights: &[i16], sums: &mut [i32]) {
    let n = inputs.len();
    for (sum, row) in sums.iter_mut().zip(weights.chunks_exact(n)) {
        *sum = dot(inputs, row);
    }
}

/// The first hidden layer's inputs from the two perspectives' accumulators into `out`
/// ([`super::Shape::l1_inputs`] long), the side to move's first: each value clipped to
/// `[0, QA]`; or, with pairwise products, each half's clipped value times the other half's,
/// divided by `QA` and rounded (the product of two activations in `[0, 1]`, at the same
/// scale). `to` stores a value in `[0, QA]`. One loop a half: a chained iterator is not
/// vectorised.
#[inline(always)]
fn first_inputs<T>(us: &[i16], them: &[i16], pairwise: bool, out: &mut [T], to: impl Fn(i16) -> T) {
    let clip = |v: i16| v.clamp(0, QA as i16);
    let per_side = out.len() / 2;
    let (out_us, out_them) = out.split_at_mut(per_side);
    for (dst, src) in [(out_us, us), (out_them, them)] {
        if pairwise {
            let (a, b) = src.split_at(per_side);
            for ((d, &x), &y) in dst.iter_mut().zip(a).zip(b) {
                let product = i32::from(clip(x)) * i32::from(clip(y));
                *d = to(((product + QA / 2) / QA) as i16);
            }
        } else {
            for (d, &x) in dst.iter_mut().zip(src) {
                *d = to(clip(x));
            }
        }
    }
}

/// A unit's activation from its sum and bias: rounded to the nearest, then clipped to
/// `[0, 1]` (as the reference pass).
#[inline(always)]
fn activate<const Q: i32>(sum: i32, bias: i32) -> i16 {
    let sum = bias.wrapping_add(sum);
    ((sum + Q / 2) >> Q.trailing_zeros()).clamp(0, QA) as i16
}

/// The value of stack `stack` for the side to move, whose accumulator is `us`, the other
/// side's `them` (both `width` long), in centipawns; `scratch` (made for at least `width`)
/// receives the clipped accumulators. The first hidden layer goes through [`Vnni`] where
/// the CPU has it. One
/// function, compiled for SSE2, AVX2 and AVX-512 and chosen at run time by `multiversion`
/// as the accumulator updates are, so that the whole pass is inlined into one body with no
/// per-row dispatch.
#[multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512vnni",
    "x86_64+avx512f+avx512bw",
    "x86_64+avx2"
))]
pub(crate) fn evaluate(
    net: &LayeredNet,
    prepared: &Prepared,
    stack: usize,
    us: &[i16],
    them: &[i16],
    scratch: &mut Scratch,
) -> i32 {
    let s = &net.stacks[stack];
    let p = &prepared.stacks[stack];
    let shape = &net.shape;
    let n = shape.l1_inputs();
    let mut sums = [0i32; MAX_HIDDEN];
    if let Some(vnni) = &p.vnni {
        let bytes = &mut scratch.bytes[..n];
        first_inputs(us, them, shape.pairwise, bytes, |v| v as u8);
        vnni.sums(bytes, &mut sums[..shape.hidden1]);
    } else {
        let ft = &mut scratch.wide[..n];
        first_inputs(us, them, shape.pairwise, ft, |v| v);
        layer(ft, &p.l1, &mut sums[..shape.hidden1]);
    }
    let mut h1 = [0i16; MAX_HIDDEN];
    for ((h, &sum), &b) in h1.iter_mut().zip(&sums).zip(&s.l1_bias) {
        *h = activate::<QH1>(sum, b);
    }
    let h1 = &h1[..shape.hidden1];
    let mut h2 = [0i16; MAX_HIDDEN];
    let last: &[i16] = if shape.hidden2 == 0 {
        h1
    } else {
        layer(h1, &p.l2, &mut sums[..shape.hidden2]);
        for ((h, &sum), &b) in h2.iter_mut().zip(&sums).zip(&s.l2_bias) {
            *h = activate::<QH2>(sum, b);
        }
        &h2[..shape.hidden2]
    };
    let mut sum = i64::from(s.out_bias);
    for (&x, &wo) in last.iter().zip(&s.out_weights) {
        sum += i64::from(x) * i64::from(wo);
    }
    (sum * i64::from(SCALE) / i64::from(QA * QO)) as i32
}

/// The straightforward forward pass over the net's rows, as first written: the reference
/// the rearranged pass must equal bit for bit.
#[cfg(test)]
pub(crate) fn reference(net: &LayeredNet, stack: usize, us: &[i16], them: &[i16]) -> i32 {
    fn hidden<const Q: i32>(inputs: &[i16], weights: &[i8], bias: &[i32], outputs: &mut [i16]) {
        let n = inputs.len();
        for (j, (out, &b)) in outputs.iter_mut().zip(bias).enumerate() {
            let mut sum = 0i32;
            for (&a, &w) in inputs.iter().zip(&weights[j * n..(j + 1) * n]) {
                sum = sum.wrapping_add(i32::from(a) * i32::from(w));
            }
            let sum = b.wrapping_add(sum);
            *out = ((sum + Q / 2) >> Q.trailing_zeros()).clamp(0, QA) as i16;
        }
    }
    let s = &net.stacks[stack];
    let shape = &net.shape;
    let clip = |v: i16| i32::from(v.clamp(0, QA as i16));
    let mut ft: Vec<i16> = Vec::new();
    for side in [us, them] {
        if shape.pairwise {
            let half = side.len() / 2;
            for i in 0..half {
                let product = clip(side[i]) * clip(side[half + i]);
                ft.push(((product + QA / 2) / QA) as i16);
            }
        } else {
            ft.extend(side.iter().map(|&v| clip(v) as i16));
        }
    }
    let mut h1 = vec![0i16; shape.hidden1];
    hidden::<QH1>(&ft, &s.l1_weights, &s.l1_bias, &mut h1);
    let last = if shape.hidden2 == 0 {
        h1
    } else {
        let mut h2 = vec![0i16; shape.hidden2];
        hidden::<QH2>(&h1, &s.l2_weights, &s.l2_bias, &mut h2);
        h2
    };
    let mut sum = i64::from(s.out_bias);
    for (&x, &wo) in last.iter().zip(&s.out_weights) {
        sum += i64::from(x) * i64::from(wo);
    }
    (sum * i64::from(SCALE) / i64::from(QA * QO)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buckets::BucketMap;
    use crate::layered::Shape;

    /// Random accumulators (negative and above 255 too, so the clipping is exercised) and
    /// nets of several shapes, odd hidden sizes and every block count included: the
    /// rearranged pass equals the reference exactly, with VNNI (where the CPU has it) and
    /// without.
    #[test]
    fn rearranged_pass_equals_the_reference() {
        let shapes = [
            (512, 16, 32, 1),
            (64, 8, 4, 4),
            (32, 3, 0, 1),
            (96, 33, 17, 2),
            (128, 128, 128, 1),
            (256, 70, 5, 3),
        ];
        let mut rng = fastrand::Rng::with_seed(11);
        let mut seen = std::collections::HashSet::new();
        for (seed, &(width, hidden1, hidden2, stacks)) in shapes.iter().enumerate() {
            let shape = Shape {
                width,
                hidden1,
                hidden2,
                stacks,
                buckets: BucketMap::SIX,
                pairwise: seed % 2 == 1,
            };
            let mut net = LayeredNet::random(shape, seed as u64).unwrap();
            // Weights over the whole i8 range, beyond what `random` draws.
            for s in &mut net.stacks {
                s.l1_weights.iter_mut().for_each(|w| *w = rng.i8(..));
                s.l2_weights.iter_mut().for_each(|w| *w = rng.i8(..));
            }
            let prepared = [Prepared::new(&net), Prepared::with_vnni(&net, false)];
            let mut scratch = Scratch::new(width);
            for _ in 0..200 {
                let us: Vec<i16> = (0..width).map(|_| rng.i16(-300..=400)).collect();
                let them: Vec<i16> = (0..width).map(|_| rng.i16(-300..=400)).collect();
                let stack = rng.usize(..stacks);
                let expected = reference(&net, stack, &us, &them);
                for prepared in &prepared {
                    assert_eq!(
                        evaluate(&net, prepared, stack, &us, &them, &mut scratch),
                        expected,
                        "shape {shape:?}"
                    );
                }
                seen.insert(expected);
            }
        }
        assert!(seen.len() > 300, "only {} distinct values", seen.len());
    }
}
