//! The fixed positions of the engine's `bench` (the start, openings from master games, and
//! middle games and endgames from the published perft suites, shared/data/perft.epd): one
//! list for every tool that times or counts a search over them (`xiangqi-engine bench`,
//! `xiangqi-nnue bench`).

use xiangqi_core::{Game, Position};

/// The positions: the start, openings from master games, and middle games and endgames
/// from the published perft suites (shared/data/perft.epd).
pub const POSITIONS: &[(&str, &str)] = &[
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "",
    ),
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 g6g5 h0h6 h7i7",
    ),
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "g3g4 c6c5 b2c2 h7e7 h0g2 h9g7 i0h0 b9c7 c2c5 i9i8 b0c2 i8d8",
    ),
    (
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "",
    ),
    (
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        "",
    ),
    (
        "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
        "",
    ),
    (
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        "",
    ),
    (
        "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
        "",
    ),
    ("5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1", ""),
    ("CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1", ""),
];

/// The game for bench position `i`.
pub fn game(i: usize) -> Option<Game> {
    let (fen, moves) = POSITIONS.get(i)?;
    let mut game = Game::new(Position::from_fen(fen).ok()?);
    for text in moves.split_whitespace() {
        let m = game.position().parse_uci(text).ok()?;
        game.play(m).ok()?;
    }
    Some(game)
}
