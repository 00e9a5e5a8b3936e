//! Net files: any bytes are refused or read, in every format; and the embedded net, the
//! embedded net with four output buckets (the second format), or a small layered net with
//! pairwise products (the third), with the fuzzer's bytes written over part of it (the
//! checksum made right, so the fuzzer gets past it): a net the loader takes must evaluate
//! any position without overflow.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use xiangqi_core::Position;
use xiangqi_nnue::layered::Shape;
use xiangqi_nnue::train::FloatNet;
use xiangqi_nnue::{AnyNet, LayeredEvaluator, LayeredNet, Network, NnueEvaluator};

const FENS: [&str; 3] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "4k4/4a4/5a3/3PR4/6r2/9/2pp5/9/4A4/4KA3 b - - 0 1",
    "3k5/9/2P3P2/2P3P2/6P2/9/9/9/9/4K4 w - - 0 1",
];

fuzz_target!(|data: &[u8]| {
    let _ = AnyNet::from_bytes(data);
    if data.len() < 4 {
        return;
    }
    static BASES: OnceLock<[Vec<u8>; 3]> = OnceLock::new();
    let bases = BASES.get_or_init(|| {
        let net = Network::embedded();
        let bucketed = FloatNet::from_network(&net)
            .with_output_buckets(4)
            .quantise();
        let shape = Shape {
            width: 64,
            hidden1: 16,
            hidden2: 8,
            stacks: 2,
            pairwise: true,
            ..Shape::default()
        };
        let layered = LayeredNet::random(shape, 1).expect("a valid shape");
        [net.to_bytes(), bucketed.to_bytes(), layered.to_bytes()]
    });
    // The first byte picks the base, the first four bytes where to write.
    let mut bytes = bases[usize::from(data[0]) % bases.len()].clone();
    let size = bytes.len();
    let at = u32::from_le_bytes([data[0], data[1], data[2], data[3]]) as usize % size;
    let patch = &data[4..];
    let end = (at + patch.len()).min(size - 4);
    if at < end {
        bytes[at..end].copy_from_slice(&patch[..end - at]);
    }
    let crc = crc32fast::hash(&bytes[..size - 4]);
    bytes[size - 4..].copy_from_slice(&crc.to_le_bytes());
    match AnyNet::from_bytes(&bytes) {
        Ok(AnyNet::Simple(net)) => {
            let eval = NnueEvaluator::with_network(net);
            for fen in FENS {
                let _ = eval.evaluate_fresh(&Position::from_fen(fen).unwrap());
            }
        }
        Ok(AnyNet::Layered(net)) => {
            let eval = LayeredEvaluator::new(net);
            for fen in FENS {
                let _ = eval.evaluate_fresh(&Position::from_fen(fen).unwrap());
            }
        }
        Err(_) => {}
    }
});
