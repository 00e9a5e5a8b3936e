//! Move text in any notation against a position: refused with an error, or a legal move
//! that each notation writes and reads back as the same move.
#![no_main]
use libfuzzer_sys::fuzz_target;
use xiangqi_core::Position;

/// Positions with doubled pieces on a file (the tandem forms of WXF and Chinese notation),
/// checks and a bare board.
const FENS: [&str; 4] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "3k5/9/2P3P2/2P3P2/6P2/9/9/9/9/4K4 w - - 0 1",
    "4k4/4a4/5a3/3PR4/6r2/9/2pp5/9/4A4/4KA3 b - - 0 1",
    "2bak4/4a4/4b4/p1C1P1p1p/4c4/2P6/P5r1P/4C4/4A4/2BAK1B2 w - - 0 1",
];

fuzz_target!(|input: (u8, &str)| {
    let (which, text) = input;
    let pos = Position::from_fen(FENS[usize::from(which) % FENS.len()]).expect("a good FEN");
    let parsed = [
        pos.parse_move(text).ok(),
        pos.parse_wxf(text).ok(),
        pos.parse_chinese(text).ok(),
        pos.parse_uci(text).ok(),
    ];
    for m in parsed.into_iter().flatten() {
        assert!(
            pos.legal_moves().contains(&m),
            "{text:?} read as an illegal move"
        );
        assert_eq!(pos.parse_move(&m.to_string()).ok(), Some(m));
        assert_eq!(pos.parse_move(&pos.to_wxf(m)).ok(), Some(m));
        assert_eq!(pos.parse_move(&pos.to_chinese(m)).ok(), Some(m));
    }
});
