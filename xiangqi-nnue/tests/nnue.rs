//! The evaluator's invariants: the incremental accumulators equal fresh ones, the colour
//! symmetry the architecture promises, quantised against float arithmetic, and files that
//! are not nets refused.

use proptest::prelude::*;
use std::sync::Arc;
use xiangqi_core::{Move, Position};
use xiangqi_eval::Evaluator;
use xiangqi_nnue::train::FloatNet;
use xiangqi_nnue::{NetError, Network, NnueEvaluator};

/// The nets under test: the embedded one, a random one (whose weights reach every
/// feature, so a wrong column in an update cannot hide behind a zero weight), and a random
/// one with 8 output buckets that differ (so that a wrong bucket changes the score).
fn nets() -> Vec<Arc<Network>> {
    let mut bucketed = FloatNet::random(43).with_output_buckets(8);
    for (i, w) in bucketed.output_weights.iter_mut().enumerate() {
        *w *= 1.0 - (i / 512) as f32 * 0.1;
    }
    vec![
        Arc::new(Network::embedded()),
        Arc::new(FloatNet::random(42).quantise()),
        Arc::new(bucketed.quantise()),
    ]
}

/// A random playout of up to `plies` moves from the start position, with the moves.
fn playout(seed: u64, plies: usize) -> Vec<(Position, Move)> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut pos = Position::startpos();
    let mut line = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.usize(..moves.len())];
        line.push((pos.clone(), m));
        pos.make_move(m);
    }
    line
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Down a random line and back up, with null moves on the way: at every step the
    /// incremental evaluation equals a fresh one.
    #[test]
    fn incremental_equals_fresh(seed in any::<u64>(), plies in 1usize..160) {
        for net in nets() {
            let mut eval = NnueEvaluator::with_network(net);
            let fresh = eval.clone();
            let line = playout(seed, plies);
            let mut pos = Position::startpos();
            eval.reset(&pos);
            let mut undos = Vec::new();
            for (i, (_, m)) in line.iter().enumerate() {
                eval.make_move(&pos, *m);
                undos.push(pos.make_move(*m));
                prop_assert_eq!(eval.evaluate(&pos), fresh.evaluate_fresh(&pos), "after {} plies", i + 1);
                if i % 7 == 3 && !pos.is_check() {
                    eval.make_null(&pos);
                    let undo = pos.make_null();
                    prop_assert_eq!(eval.evaluate(&pos), fresh.evaluate_fresh(&pos), "null after {}", i + 1);
                    pos.unmake_null(undo);
                    eval.unmake_null(&pos);
                }
            }
            for (_, m) in line.iter().rev() {
                pos.unmake_move(*m, undos.pop().unwrap());
                eval.unmake_move(&pos, *m);
                prop_assert_eq!(eval.evaluate(&pos), fresh.evaluate_fresh(&pos));
            }
        }
    }

    /// The colour-swapped position gives the side to move the same inputs, so exactly the
    /// same score (see `features`).
    #[test]
    fn colour_swap_gives_the_same_score(seed in any::<u64>(), plies in 0usize..120) {
        for net in nets() {
            let eval = NnueEvaluator::with_network(net);
            let pos = match playout(seed, plies).last() {
                Some((p, m)) => p.after(*m).unwrap(),
                None => Position::startpos(),
            };
            prop_assert_eq!(eval.evaluate_fresh(&pos), eval.evaluate_fresh(&pos.swap_colors()));
        }
    }
}

/// A random float net with weights of a trained net's size (output weights up to ±0.35,
/// evaluations spread over thousands of centipawns), accumulators spread over the clipped
/// unit's (0, 1) so that every unit takes part.
fn float_net(seed: u64) -> FloatNet {
    let mut net = FloatNet::random(seed);
    for w in &mut net.output_weights {
        *w *= 8.0;
    }
    for b in &mut net.feature_bias {
        *b = 0.3;
    }
    net
}

/// The integer inference against the float network it was rounded from. The error comes
/// from rounding the feature weights to 1/255 and the output weights to 1/256 (each off by
/// up to half a step, independently, and summed over 512 units): over 2,000 positions of
/// two random nets the mean difference is about 7.5 cp and the largest about 29 cp, against
/// evaluations reaching 1,500 cp (the trained nets: about 3.5 cp and 22 cp, see
/// `docs/NNUE.md`). The bounds leave a third more room; a wrong scale or a misplaced weight
/// is off by hundreds.
#[test]
fn quantised_and_float_agree() {
    let (mut worst, mut total, mut count, mut spread) = (0f32, 0f32, 0, 0f32);
    for net_seed in [9, 10] {
        let float = float_net(net_seed);
        let eval = NnueEvaluator::with_network(Arc::new(float.quantise()));
        for seed in 0..100 {
            for (pos, _) in playout(seed, 100).iter().step_by(10) {
                let f = float.evaluate(pos);
                let q = eval.evaluate_fresh(pos).0 as f32;
                let error = (q - f).abs();
                worst = worst.max(error);
                spread = spread.max(f.abs());
                total += error;
                count += 1;
                assert!(error < 40.0, "float {f}, quantised {q} for {pos}");
            }
        }
    }
    let mean = total / count as f32;
    eprintln!("{count} positions: mean difference {mean:.2} cp, largest {worst:.2} cp, largest |eval| {spread:.0} cp");
    assert!(mean < 10.0, "mean difference {mean}");
}

#[test]
fn truncated_and_corrupt_nets_fail_cleanly() {
    let bytes = Network::embedded().to_bytes();
    for cut in [0, 7, 8, 19, 20, 1_000, bytes.len() - 1] {
        let err = Network::from_bytes(&bytes[..cut]).unwrap_err();
        assert!(
            matches!(err, NetError::NotANet | NetError::WrongSize { .. }),
            "{cut}: {err}"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        Network::from_bytes(&longer),
        Err(NetError::WrongSize { .. })
    ));
    // Any single flipped bit past the header is caught by the checksum.
    let mut rng = fastrand::Rng::with_seed(3);
    for _ in 0..200 {
        let mut damaged = bytes.clone();
        let at = rng.usize(20..bytes.len());
        damaged[at] ^= 1 << rng.u8(0..8);
        let err = Network::from_bytes(&damaged).unwrap_err();
        assert!(matches!(err, NetError::Checksum { .. }), "byte {at}: {err}");
    }
    assert_eq!(
        Network::from_bytes(b"XQNNDAT1 a data file, not a net")
            .unwrap_err()
            .to_string(),
        "not an NNUE net file (it does not start with XQNNUE01, XQNNUE02 or XQNNUE03)"
    );
}
