//! The first hidden layer with AVX-512 VNNI intrinsics: the crate's only `unsafe` code.
//!
//! # Why intrinsics here
//!
//! The first hidden layer is most of the layered net's cost: every evaluation multiplies
//! the whole clipped accumulator (1,024 values at the default width) by each of its 16
//! rows. The portable pass ([`super::infer`]) widens activations and weights to `i16` and
//! uses `pmaddwd`, 32 products an AVX-512 instruction. `vpdpbusd` (AVX-512 VNNI) multiplies
//! 64 unsigned bytes by 64 signed bytes and adds each four products into an `i32` lane,
//! exactly (the sum of four products of at most 255 × 128 cannot saturate), so the
//! activations stay bytes and the products are twice as many an instruction. LLVM does not
//! form it from portable code (a build with the `avx512vnni` target enabled has no
//! `vpdpbusd` or `vpdpwssd`), hence this module. The gain is measured in docs/NNUE.md.
//!
//! # Layout
//!
//! The 16 `i32` lanes of one register are 16 rows' sums. For each group of four inputs,
//! the four activations are broadcast to every lane and multiplied by the 16 rows' four
//! weights for those inputs, stored together as 64 bytes. Rows beyond a multiple of 16 are
//! padded with zero weights.
//!
//! # Safety
//!
//! The intrinsics run only after [`Vnni::new`] has found the CPU features at run time, and
//! every load reads inside a slice whose length [`Vnni::sums`] checks first. The results
//! equal the portable pass's bit for bit (integer sums, added in another order); a test
//! compares them on random weights over the whole `i8` range and random activations.
#![allow(unsafe_code)]

/// Rows one register holds.
const LANES: usize = 16;

/// A layer's weights in the order [`Vnni::sums`] reads them, for a CPU that has AVX-512 F,
/// BW and VNNI.
#[derive(Clone, Debug)]
// Elsewhere than x86-64 `new` never makes one, and nothing reads the fields.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct Vnni {
    inputs: usize,
    rows: usize,
    /// Per block of 16 rows, per group of four inputs: the 16 rows' four weights.
    weights: Vec<i8>,
}

impl Vnni {
    /// The layout of a layer of `rows` rows of `inputs` weights each (`weights` row by
    /// row), or `None` when this CPU lacks the instructions or `inputs` is not a multiple
    /// of four.
    pub(crate) fn new(weights: &[i8], inputs: usize, rows: usize) -> Option<Vnni> {
        if !Vnni::available() || !inputs.is_multiple_of(4) || weights.len() != inputs * rows {
            return None;
        }
        let blocks = rows.div_ceil(LANES);
        let mut laid = vec![0i8; blocks * inputs * LANES];
        for (row, weights) in weights.chunks_exact(inputs).enumerate() {
            let (block, lane) = (row / LANES, row % LANES);
            for (group, four) in weights.chunks_exact(4).enumerate() {
                let at = ((block * inputs / 4 + group) * LANES + lane) * 4;
                laid[at..at + 4].copy_from_slice(four);
            }
        }
        Some(Vnni {
            inputs,
            rows,
            weights: laid,
        })
    }

    /// Whether this CPU has the instructions.
    fn available() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512vnni")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// Each row's sum `Σ activations[i] × weight[i]` into `sums` (at least `rows` long).
    pub(crate) fn sums(&self, activations: &[u8], sums: &mut [i32]) {
        assert!(activations.len() == self.inputs && sums.len() >= self.rows);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `new` returned this value only after finding AVX-512 F, BW and VNNI on
        // this CPU, and the lengths were checked above.
        unsafe {
            self.sums_avx512(activations, sums)
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    unsafe fn sums_avx512(&self, activations: &[u8], sums: &mut [i32]) {
        use std::arch::x86_64::*;
        let groups = self.inputs / 4;
        for (block, out) in sums[..self.rows].chunks_mut(LANES).enumerate() {
            let weights = &self.weights[block * groups * 64..(block + 1) * groups * 64];
            // Four sums in flight, so that each `vpdpbusd` does not wait for the last, in
            // four named registers (an array indexed in the loop was kept on the stack).
            // `inputs` is a multiple of four, not of sixteen: the tail goes to the first.
            let (mut s0, mut s1, mut s2, mut s3) = (
                _mm512_setzero_si512(),
                _mm512_setzero_si512(),
                _mm512_setzero_si512(),
                _mm512_setzero_si512(),
            );
            let broadcast = |four: &[u8]| {
                _mm512_set1_epi32(i32::from_le_bytes([four[0], four[1], four[2], four[3]]))
            };
            // SAFETY (each load): the weight chunk is 64 or 256 bytes long, as each read;
            // the loads are unaligned.
            let load =
                |w: &[i8], at: usize| unsafe { _mm512_loadu_si512(w[at..at + 64].as_ptr().cast()) };
            let whole = self.inputs / 16 * 16;
            for (a, w) in activations[..whole]
                .chunks_exact(16)
                .zip(weights.chunks_exact(256))
            {
                s0 = _mm512_dpbusd_epi32(s0, broadcast(&a[0..4]), load(w, 0));
                s1 = _mm512_dpbusd_epi32(s1, broadcast(&a[4..8]), load(w, 64));
                s2 = _mm512_dpbusd_epi32(s2, broadcast(&a[8..12]), load(w, 128));
                s3 = _mm512_dpbusd_epi32(s3, broadcast(&a[12..16]), load(w, 192));
            }
            for (a, w) in activations[whole..]
                .chunks_exact(4)
                .zip(weights[whole * 16..].chunks_exact(64))
            {
                s0 = _mm512_dpbusd_epi32(s0, broadcast(a), load(w, 0));
            }
            let sum = _mm512_add_epi32(_mm512_add_epi32(s0, s1), _mm512_add_epi32(s2, s3));
            let mut lanes = [0i32; LANES];
            // SAFETY: `lanes` is 64 bytes long; the store is unaligned.
            unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), sum) };
            out.copy_from_slice(&lanes[..out.len()]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On random weights over the whole `i8` range and random activations (zero and 255
    /// included), odd row counts too, the sums equal the plain ones; skipped, with a
    /// message, on a CPU without the instructions.
    #[test]
    fn equals_the_plain_sums() {
        if !Vnni::available() {
            println!("skipped: this CPU has no AVX-512 VNNI");
            return;
        }
        let mut rng = fastrand::Rng::with_seed(7);
        for (inputs, rows) in [(1024, 16), (64, 3), (128, 33), (4, 1), (512, 32), (36, 5)] {
            let weights: Vec<i8> = (0..inputs * rows).map(|_| rng.i8(..)).collect();
            let vnni = Vnni::new(&weights, inputs, rows).unwrap();
            for _ in 0..50 {
                let activations: Vec<u8> = (0..inputs)
                    .map(|_| match rng.u8(..4) {
                        0 => 0,
                        1 => 255,
                        _ => rng.u8(..),
                    })
                    .collect();
                let mut sums = vec![0; rows];
                vnni.sums(&activations, &mut sums);
                for (row, &sum) in sums.iter().enumerate() {
                    let plain: i32 = activations
                        .iter()
                        .zip(&weights[row * inputs..(row + 1) * inputs])
                        .map(|(&a, &w)| i32::from(a) * i32::from(w))
                        .sum();
                    assert_eq!(sum, plain, "{inputs} inputs, row {row}");
                }
            }
        }
    }
}
