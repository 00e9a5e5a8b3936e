//! FEN: any text is refused with an error or read into a position whose FEN reads back to
//! the same position, and whose moves can be generated.
#![no_main]
use libfuzzer_sys::fuzz_target;
use xiangqi_core::Position;

fuzz_target!(|text: &str| {
    let Ok(pos) = Position::from_fen(text) else {
        return;
    };
    let fen = pos.fen();
    let again = Position::from_fen(&fen).expect("a written FEN reads back");
    assert_eq!(again.fen(), fen);
    for m in pos.legal_moves() {
        let mut next = pos.clone();
        next.play(m).expect("a legal move plays");
    }
});
