//! Net files: any bytes are refused or read; and the embedded net with the fuzzer's bytes
//! written over part of it (the checksum made right, so the fuzzer gets past it): a net the
//! loader takes must evaluate any position without overflow.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};
use xiangqi_core::Position;
use xiangqi_nnue::net::FILE_BYTES;
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
    static EMBEDDED: OnceLock<Vec<u8>> = OnceLock::new();
    let mut bytes = EMBEDDED
        .get_or_init(|| Network::embedded().to_bytes())
        .clone();
    let at = u32::from_le_bytes([data[0], data[1], data[2], data[3]]) as usize % FILE_BYTES;
    let patch = &data[4..];
    let end = (at + patch.len()).min(FILE_BYTES - 4);
    if at < end {
        bytes[at..end].copy_from_slice(&patch[..end - at]);
    }
    let crc = crc32fast::hash(&bytes[..FILE_BYTES - 4]);
    bytes[FILE_BYTES - 4..].copy_from_slice(&crc.to_le_bytes());
    if let Ok(net) = Network::from_bytes(&bytes) {
        let eval = NnueEvaluator::with_network(Arc::new(net));
        for fen in FENS {
            let _ = eval.evaluate_fresh(&Position::from_fen(fen).unwrap());
        }
    }
});
