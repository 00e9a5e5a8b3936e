//! Net files: any bytes are refused or read; and the embedded net, or the embedded net with
//! four output buckets (the second format), with the fuzzer's bytes written over part of it
//! (the checksum made right, so the fuzzer gets past it): a net the loader takes must
//! evaluate any position without overflow.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};
use xiangqi_core::Position;
use xiangqi_nnue::train::FloatNet;
use xiangqi_nnue::{Network, NnueEvaluator};

const FENS: [&str; 3] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "4k4/4a4/5a3/3PR4/6r2/9/2pp5/9/4A4/4KA3 b - - 0 1",
    "3k5/9/2P3P2/2P3P2/6P2/9/9/9/9/4K4 w - - 0 1",
];

fuzz_target!(|data: &[u8]| {
    let _ = Network::from_bytes(data);
    if data.len() < 4 {
        return;
    }
    static BASES: OnceLock<[Vec<u8>; 2]> = OnceLock::new();
    let bases = BASES.get_or_init(|| {
        let net = Network::embedded();
        let bucketed = FloatNet::from_network(&net)
            .with_output_buckets(4)
            .quantise();
        [net.to_bytes(), bucketed.to_bytes()]
    });
    // The lowest bit of the first byte picks the base, the first four bytes where to write.
    let mut bytes = bases[usize::from(data[0] & 1)].clone();
    let size = bytes.len();
    let at = u32::from_le_bytes([data[0], data[1], data[2], data[3]]) as usize % size;
    let patch = &data[4..];
    let end = (at + patch.len()).min(size - 4);
    if at < end {
        bytes[at..end].copy_from_slice(&patch[..end - at]);
    }
    let crc = crc32fast::hash(&bytes[..size - 4]);
    bytes[size - 4..].copy_from_slice(&crc.to_le_bytes());
    if let Ok(net) = Network::from_bytes(&bytes) {
        let eval = NnueEvaluator::with_network(Arc::new(net));
        for fen in FENS {
            let _ = eval.evaluate_fresh(&Position::from_fen(fen).unwrap());
        }
    }
});
