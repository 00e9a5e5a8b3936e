//! The trainer's tests: the gradient against finite differences, checkpoints and buckets.

use super::float::inputs_of;
use super::optim::{accumulate, Gradient};
use super::*;
use crate::data::{Outcome, Source};
use crate::net::{Network, HIDDEN};
use xiangqi_core::Position;

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
