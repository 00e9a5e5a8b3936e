//! The layered trainer's tests: the gradient against finite differences, the integer
//! inference against the float one, the checkpoint, and a tiny run that learns.

use super::layered::{LayeredInputs, Scratch};
use super::{train_layered, LayeredFloat, TrainConfig};
use crate::buckets::BucketMap;
use crate::data::{Outcome, Sample, Source};
use crate::layered::{LayeredEvaluator, Shape};
use crate::net::SCALE;
use std::sync::Arc;
use xiangqi_core::{Position, Role};

/// Positions of random playouts from the start, every `step`-th ply.
fn positions(seeds: core::ops::Range<u64>, plies: usize, step: usize) -> Vec<Position> {
    let mut out = Vec::new();
    for seed in seeds {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut pos = Position::startpos();
        for ply in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.usize(..moves.len())]);
            if ply % step == step - 1 {
                out.push(pos.clone());
            }
        }
    }
    out
}

/// A small shape with two hidden layers and two stacks, so that every layer is exercised.
fn small_shape(hidden2: usize, stacks: usize) -> Shape {
    Shape {
        width: 32,
        hidden1: 8,
        hidden2,
        stacks,
        buckets: BucketMap::SIX,
        pairwise: false,
    }
}

/// The analytic gradient of the loss against central differences, for weights of every
/// layer, with one hidden layer and with two, with pairwise products and without.
#[test]
fn the_gradient_matches_finite_differences() {
    for (hidden2, stacks, pairwise) in [(0, 1, false), (8, 2, false), (8, 1, true), (0, 2, true)] {
        let shape = Shape {
            pairwise,
            ..small_shape(hidden2, stacks)
        };
        let net = LayeredFloat::random(shape, 5).unwrap();
        let data: Vec<(LayeredInputs, f32)> = positions(0..3, 40, 13)
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let inputs =
                    LayeredInputs::new(&shape, p.side_to_move(), p.all_pieces(), i % 2 == 1);
                (inputs, 0.2 + 0.1 * i as f32)
            })
            .collect();
        let k = 200.0;
        let scale = SCALE as f32 / k;
        let loss = |net: &LayeredFloat| -> f64 {
            let mut s = Scratch::new(&shape);
            let folded = net.folded_features();
            data.iter()
                .map(|(inputs, t)| {
                    let p = super::sigmoid(net.forward(&folded, inputs, &mut s) * scale);
                    f64::from((p - t) * (p - t))
                })
                .sum()
        };
        let mut grad = vec![0f32; net.params.len()];
        let mut s = Scratch::new(&shape);
        let folded = net.folded_features();
        for (inputs, t) in &data {
            let p = super::sigmoid(net.forward(&folded, inputs, &mut s) * scale);
            let d_out = 2.0 * (p - t) * p * (1.0 - p) * scale;
            net.backward(inputs, &mut s, d_out, &mut grad);
        }
        net.add_shared_gradient(&mut grad);
        let l = net.layout();
        let first_input = usize::from(data[0].0.us[0]);
        let last_stack = l.stacks + (stacks - 1) * l.stack_len;
        let mut checks = vec![
            first_input * shape.width + 3,
            first_input * shape.width + shape.width / 2 + 5,
            l.factor + (first_input % crate::features::FEATURES) * shape.width + 4,
            l.ft_bias + 5,
            last_stack + 7,
            last_stack + l.l1_bias + 2,
            last_stack + l.out_weights + 1,
            last_stack + l.out_bias,
        ];
        if hidden2 > 0 {
            checks.extend([last_stack + l.l2_weights + 9, last_stack + l.l2_bias + 3]);
        }
        let mut nonzero = 0;
        for i in checks {
            // Small enough that no unit crosses a kink of its clipped ReLU.
            let h = 1e-3f32;
            let mut plus = net.clone();
            let mut minus = net.clone();
            plus.params[i] += h;
            minus.params[i] -= h;
            let numeric = (loss(&plus) - loss(&minus)) / f64::from(2.0 * h);
            let analytic = f64::from(grad[i]);
            nonzero += usize::from(analytic.abs() > 1e-6);
            assert!(
                (numeric - analytic).abs() <= 2e-4 + 0.05 * numeric.abs(),
                "{shape:?}, parameter {i}: numeric {numeric}, analytic {analytic}"
            );
        }
        assert!(nonzero >= 4, "too few gradients were not zero: {nonzero}");
    }
}

/// A random net with weights of a trained net's size: the first hidden layer's initial
/// weights (scaled to their fan-in, ±0.03 for 1,024 inputs) are finer than an `i8` at scale
/// 128 resolves, so they are made ±0.25 whatever the width, and the output weights 4 times
/// larger, so that evaluations spread over hundreds of centipawns as a trained net's do.
fn trained_size(mut net: LayeredFloat) -> LayeredFloat {
    let l = net.layout();
    let l1_scale = 0.25 * (2.0 * net.shape.width as f32).sqrt();
    for s in 0..net.shape.stacks {
        let stack = &mut net.params[l.stacks + s * l.stack_len..][..l.stack_len];
        for (i, x) in stack.iter_mut().enumerate() {
            if i < l.l1_bias {
                *x *= l1_scale;
            } else if (l.out_weights..l.out_bias).contains(&i) {
                *x *= 4.0;
            }
        }
    }
    // Within the ranges training keeps them to (and quantisation clamps them to).
    net.clip();
    net
}

/// The integer inference against the float net it was rounded from, at the default size
/// and with stacks. The error comes from rounding the feature weights to 1/255, the hidden
/// weights to 1/128 and 1/64 and the activations to 1/255 at each layer, and it grows with
/// the evaluation. Measured on these nets (evaluations up to 700-1,200 cp): mean 4-9 cp,
/// largest 24-41 cp. Bound: 40 cp plus 4 % of the evaluation per position, 12 cp on
/// average; a wrong scale or a misplaced weight is off by hundreds.
#[test]
fn quantised_and_float_agree() {
    let pairwise = Shape {
        pairwise: true,
        ..Shape::default()
    };
    for shape in [
        Shape::default(),
        small_shape(8, 4),
        small_shape(0, 1),
        pairwise,
    ] {
        let float = trained_size(LayeredFloat::random(shape, 11).unwrap());
        let eval = LayeredEvaluator::new(Arc::new(float.quantise().unwrap()));
        let (mut worst, mut total, mut spread) = (0f32, 0f32, 0f32);
        let all = positions(0..30, 100, 10);
        let floats = float.evaluate_all(&all);
        for (pos, &f) in all.iter().zip(&floats) {
            let q = eval.evaluate_fresh(pos).0 as f32;
            let error = (q - f).abs();
            worst = worst.max(error);
            spread = spread.max(f.abs());
            total += error;
            assert!(
                error < 40.0 + 0.04 * f.abs(),
                "{shape:?}: float {f}, quantised {q} for {pos}"
            );
        }
        let mean = total / all.len() as f32;
        eprintln!(
            "{shape:?}: {} positions, mean difference {mean:.2} cp, largest {worst:.2}, largest |eval| {spread:.0}",
            all.len()
        );
        assert!(mean < 12.0, "mean difference {mean}");
        assert!(spread > 150.0, "the random net barely varies: {spread}");
    }
}

#[test]
fn checkpoints_round_trip() {
    let pairwise = Shape {
        pairwise: true,
        ..small_shape(0, 1)
    };
    let other = LayeredFloat::random(pairwise, 4).unwrap();
    assert_eq!(LayeredFloat::from_bytes(&other.to_bytes()), Ok(other));
    let net = LayeredFloat::random(small_shape(8, 2), 3).unwrap();
    let bytes = net.to_bytes();
    assert_eq!(LayeredFloat::from_bytes(&bytes), Ok(net.clone()));
    assert!(LayeredFloat::from_bytes(&bytes[..bytes.len() - 1]).is_err());
    assert!(LayeredFloat::from_bytes(b"XQNNFLT1").is_err());
}

/// Samples from random playouts labelled with the material balance for the side to move
/// (a chariot 900, and so on): a target a net of any shape can learn.
fn material_samples(games: u64) -> Vec<Sample> {
    let value = |r: Role| match r {
        Role::King => 0,
        Role::Advisor | Role::Elephant => 200,
        Role::Pawn => 100,
        Role::Horse => 400,
        Role::Cannon => 450,
        Role::Chariot => 900,
    };
    let mut out = Vec::new();
    for game in 0..games {
        for pos in positions(game..game + 1, 120, 3) {
            let side = pos.side_to_move();
            let material: i32 = pos
                .all_pieces()
                .map(|(_, p)| {
                    if p.color == side {
                        value(p.role)
                    } else {
                        -value(p.role)
                    }
                })
                .sum();
            let outcome = match material {
                m if m > 300 => Outcome::Win,
                m if m < -300 => Outcome::Loss,
                _ => Outcome::Draw,
            };
            out.push(Sample::new(
                &pos,
                material as i16,
                outcome,
                Source::SelfPlay,
                game as u32,
            ));
        }
    }
    out
}

/// A tiny run on a few thousand positions lowers the held-out games' loss well below that
/// of the random starting net.
#[test]
fn a_tiny_run_lowers_the_held_out_loss() {
    let samples = material_samples(100);
    assert!(samples.len() > 3_000, "{}", samples.len());
    let config = TrainConfig {
        epochs: 10,
        batch_size: 64,
        learning_rate: 3e-3,
        lambda: 1.0,
        wdl_scale: Some(400.0),
        threads: 1,
        seed: 2,
        validation_every: 5,
        output_buckets: 1,
    };
    let shape = small_shape(8, 1);
    let start = LayeredFloat::random(shape, 2).unwrap();
    let validation: Vec<Sample> = samples
        .iter()
        .filter(|s| super::held_out(s, 5))
        .cloned()
        .collect();
    let before = super::layered_mean_loss(&start, &validation, 1.0, 400.0, 1);
    let (net, report) = train_layered(
        &samples,
        &config,
        shape,
        Some(start),
        &mut std::io::stderr(),
    )
    .unwrap();
    let after = report.losses.last().unwrap().1;
    // Measured: about 0.091 -> 0.077 (the training loss falls to 0.003: a few thousand
    // positions are far too few for 7,560 inputs, so most of what is learnt does not carry
    // over to other games; the point is that the run learns at all).
    assert!(after < 0.9 * before, "held-out loss {before} -> {after}");
    // The quantised net keeps what was learnt: it prefers the side a chariot up.
    let q = LayeredEvaluator::new(Arc::new(net.quantise().unwrap()));
    let up = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").unwrap();
    assert!(q.evaluate_fresh(&up).0 > 200, "{}", q.evaluate_fresh(&up).0);
}
