//! The layered net (format 3): its incremental accumulators equal fresh ones on random
//! lines with many general moves, its file reads back byte for byte and damaged files are
//! refused, and every older net still loads through [`AnyNet`] and evaluates as before.

use proptest::prelude::*;
use std::sync::Arc;
use xiangqi_core::{Move, Position, Role};
use xiangqi_eval::Evaluator;
use xiangqi_nnue::buckets::{king_key, BucketMap};
use xiangqi_nnue::layered::Shape;
use xiangqi_nnue::{AnyNet, EvalChoice, LayeredEvaluator, LayeredNet, NetError, Network};

fn shape(width: usize, hidden2: usize, stacks: usize, buckets: BucketMap) -> Shape {
    Shape {
        width,
        hidden1: 8,
        hidden2,
        stacks,
        buckets,
        pairwise: false,
    }
}

/// The nets under test: random weights (every input's column non-zero, so that a wrong
/// column cannot hide behind a zero), the default shape, a small one with stacks, one
/// with three buckets and one with pairwise products.
fn nets() -> Vec<Arc<LayeredNet>> {
    vec![
        Arc::new(LayeredNet::random(Shape::default(), 1).unwrap()),
        Arc::new(LayeredNet::random(shape(64, 8, 4, BucketMap::SIX), 2).unwrap()),
        Arc::new(LayeredNet::random(shape(32, 0, 1, BucketMap::RANKS), 3).unwrap()),
        Arc::new(
            LayeredNet::random(
                Shape {
                    pairwise: true,
                    ..shape(64, 8, 2, BucketMap::SIX)
                },
                4,
            )
            .unwrap(),
        ),
    ]
}

/// Positions whose generals have room to walk: few pieces, so that random lines cross
/// buckets and the mirror often.
const OPEN_FENS: [&str; 3] = [
    "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1",
    "4k4/4a4/3a5/9/2p3p2/9/2P3P2/4B4/3NA4/4K4 w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
];

/// A random line of up to `plies` moves from `fen`, general moves chosen three times as
/// often as others; the positions before each move, with the move.
fn line(fen: &str, seed: u64, plies: usize) -> Vec<(Position, Move)> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut pos = Position::from_fen(fen).unwrap();
    let mut out = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let generals: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| pos.piece_at(m.from()).is_some_and(|p| p.role == Role::King))
            .collect();
        let m = if !generals.is_empty() && rng.u8(..4) < 3 {
            generals[rng.usize(..generals.len())]
        } else {
            moves[rng.usize(..moves.len())]
        };
        out.push((pos.clone(), m));
        pos.make_move(m);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Down a random line and back up, with null moves on the way: at every step the
    /// accumulators equal fresh ones, whether the general stayed in its bucket (an update)
    /// or left it (a rebuild from the refresh cache).
    #[test]
    fn incremental_equals_fresh(seed in any::<u64>(), plies in 1usize..120, which in 0usize..3) {
        for net in nets() {
            let mut eval = LayeredEvaluator::new(net.clone());
            let fresh = eval.clone();
            let fen = OPEN_FENS[which];
            let moves = line(fen, seed, plies);
            let mut pos = Position::from_fen(fen).unwrap();
            eval.reset(&pos);
            let mut undos = Vec::new();
            for (i, (_, m)) in moves.iter().enumerate() {
                eval.make_move(&pos, *m);
                undos.push(pos.make_move(*m));
                prop_assert!(eval.matches_fresh(&pos), "after {} plies", i + 1);
                prop_assert_eq!(eval.evaluate(&pos), fresh.evaluate_fresh(&pos));
                if i % 5 == 2 && !pos.is_check() {
                    eval.make_null(&pos);
                    let undo = pos.make_null();
                    prop_assert_eq!(eval.evaluate(&pos), fresh.evaluate_fresh(&pos));
                    pos.unmake_null(undo);
                    eval.unmake_null(&pos);
                }
            }
            for (_, m) in moves.iter().rev() {
                pos.unmake_move(*m, undos.pop().unwrap());
                eval.unmake_move(&pos, *m);
                prop_assert!(eval.matches_fresh(&pos));
            }
        }
    }

    /// The colour-swapped position gives the side to move the same inputs (the bucket is
    /// taken from each side's own view), so exactly the same score.
    #[test]
    fn colour_swap_gives_the_same_score(seed in any::<u64>(), plies in 0usize..80, which in 0usize..3) {
        for net in nets() {
            let eval = LayeredEvaluator::new(net);
            let pos = match line(OPEN_FENS[which], seed, plies).last() {
                Some((p, m)) => p.after(*m).unwrap(),
                None => Position::from_fen(OPEN_FENS[which]).unwrap(),
            };
            prop_assert_eq!(eval.evaluate_fresh(&pos), eval.evaluate_fresh(&pos.swap_colors()));
        }
    }
}

/// The lines above do exercise the cache: many of their general moves change the key.
#[test]
fn the_lines_cross_buckets_and_the_mirror() {
    let (mut changes, mut mirrors) = (0, 0);
    for seed in 0..20 {
        for (pos, m) in line(OPEN_FENS[0], seed, 60) {
            let Some(piece) = pos.piece_at(m.from()) else {
                continue;
            };
            if piece.role != Role::King {
                continue;
            }
            let before = king_key(&BucketMap::SIX, piece.color, m.from());
            let after = king_key(&BucketMap::SIX, piece.color, m.to());
            changes += usize::from(before != after);
            mirrors += usize::from(before.mirror != after.mirror);
        }
    }
    assert!(
        changes > 100 && mirrors > 30,
        "{changes} key changes, {mirrors} mirror flips"
    );
}

#[test]
fn layered_files_round_trip_and_damaged_ones_are_refused() {
    for net in nets() {
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), net.shape().file_bytes());
        assert_eq!(&bytes[..8], b"XQNNUE03");
        assert_eq!(LayeredNet::from_bytes(&bytes).as_ref(), Ok(&*net));
        assert_eq!(LayeredNet::from_bytes(&bytes).unwrap().to_bytes(), bytes);
        assert_eq!(AnyNet::from_bytes(&bytes), Ok(AnyNet::Layered(net.clone())));
        for cut in [0, 7, 8, 30, 44, 1000, bytes.len() - 1] {
            let err = LayeredNet::from_bytes(&bytes[..cut]).unwrap_err();
            assert!(
                matches!(err, NetError::NotANet | NetError::WrongSize { .. }),
                "{cut}: {err}"
            );
        }
        let mut rng = fastrand::Rng::with_seed(5);
        for _ in 0..100 {
            let mut damaged = bytes.clone();
            let at = rng.usize(44..bytes.len());
            damaged[at] ^= 1 << rng.u8(0..8);
            assert!(matches!(
                LayeredNet::from_bytes(&damaged),
                Err(NetError::Checksum { .. })
            ));
        }
    }
    let bytes = nets()[1].to_bytes();
    // Header words: width 33 (not a multiple of 32), no hidden layer, 99 stacks, another
    // weight scale, a bucket map with a gap.
    for (at, value, bad) in [(12, 33u32, "width"), (16, 0, "hidden"), (24, 99, "stacks")] {
        let mut other = bytes.clone();
        other[at..at + 4].copy_from_slice(&value.to_le_bytes());
        assert!(
            matches!(LayeredNet::from_bytes(&other), Err(NetError::Shape(_))),
            "{bad}"
        );
    }
    let mut scale = bytes.clone();
    scale[28..32].copy_from_slice(&7u32.to_le_bytes());
    assert!(matches!(
        LayeredNet::from_bytes(&scale),
        Err(NetError::OtherArchitecture { .. })
    ));
    let mut map = bytes.clone();
    map[36..42].copy_from_slice(&[0, 2, 2, 2, 2, 2]);
    assert!(matches!(
        LayeredNet::from_bytes(&map),
        Err(NetError::Shape(_))
    ));
    // Unknown flags after the bucket map (a newer format) are refused; flipping the
    // pairwise flag alone changes the body's size.
    for (at, value) in [(42, 2u8), (43, 1)] {
        let mut flags = bytes.clone();
        flags[at] = value;
        assert!(matches!(
            LayeredNet::from_bytes(&flags),
            Err(NetError::Shape(_))
        ));
    }
    let mut flipped = bytes.clone();
    flipped[42] = 1;
    assert!(matches!(
        LayeredNet::from_bytes(&flipped),
        Err(NetError::WrongSize { .. })
    ));
    // Feature weights too large for 32 pieces in an i16.
    let mut huge = (*nets()[2]).clone();
    let mut bytes = huge.to_bytes();
    bytes[44..46].copy_from_slice(&2000i16.to_le_bytes());
    let crc = crc32fast::hash(&bytes[..bytes.len() - 4]);
    let n = bytes.len();
    bytes[n - 4..].copy_from_slice(&crc.to_le_bytes());
    assert_eq!(
        LayeredNet::from_bytes(&bytes),
        Err(NetError::WeightOutOfRange("feature weights"))
    );
    huge = LayeredNet::random(Shape::default(), 9).unwrap();
    assert_ne!(huge.to_bytes(), nets()[0].to_bytes());
}

/// Every older net still loads, through [`AnyNet`] as directly, reads back byte for byte
/// and evaluates exactly as the first format's evaluator does.
#[test]
fn older_nets_load_and_evaluate_as_before() {
    let embedded = Network::embedded();
    let gen3 = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/gen3.nnue")).unwrap();
    let default = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/default.nnue")).unwrap();
    assert_eq!(embedded.to_bytes(), default);
    for bytes in [default, gen3] {
        let any = AnyNet::from_bytes(&bytes).unwrap();
        assert_eq!(any.to_bytes(), bytes);
        let AnyNet::Simple(net) = &any else {
            panic!("an older net loaded as a layered one");
        };
        let mut direct = xiangqi_nnue::NnueEvaluator::with_network(net.clone());
        let mut through = any.evaluator();
        assert!(matches!(through, EvalChoice::Nnue(_)));
        for (pos, _) in line(OPEN_FENS[2], 4, 40) {
            direct.reset(&pos);
            through.reset(&pos);
            assert_eq!(direct.evaluate(&pos), through.evaluate(&pos));
        }
    }
    assert_eq!(
        AnyNet::from_bytes(b"XQNNDAT1 a data file").unwrap_err(),
        NetError::NotANet
    );
}
