//! The training target and the split: the blend of the search's score and the game's
//! result a net learns, and which games are held out. Below the trainers and the optimiser,
//! which all use them.

use crate::data::{Sample, Source};

/// Whether a sample's game is held out: a hash of the game's number and source, so that a
/// whole game lands on one side.
pub(crate) fn held_out(sample: &Sample, every: u32) -> bool {
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

/// The logistic function.
#[inline]
pub(crate) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What a net learns for `sample`: `lambda` of the score's win chance at scale `k`, the
/// rest the game's result.
pub(crate) fn target(sample: &Sample, lambda: f32, k: f32) -> f32 {
    lambda * sigmoid(f32::from(sample.score()) / k) + (1.0 - lambda) * sample.outcome().value()
}
