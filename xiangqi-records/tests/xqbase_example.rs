//! The example game of the Chinese-chess PGN specification (xqbase, 黄晨): a handicap FEN
//! with side `r`, Chinese move text with full-width digits and 前/后 tandem horses, long
//! multi-line comments, and a result.

use xiangqi_records::pgn::{self, PgnResult};

#[test]
fn the_specifications_example_reads_to_the_known_final_position() {
    let games = pgn::read(include_bytes!("data/xqbase_spec_example.pgn")).unwrap();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g.tag("Red"), Some("许银川"));
    assert_eq!(g.tag("Black"), Some("聂卫平"));
    assert_eq!(g.result, PgnResult::RedWins);
    // 38 red moves and 37 black replies.
    assert_eq!(g.game.moves().len(), 75);
    let fen = g.game.position().fen();
    let board_and_side: Vec<&str> = fen.split(' ').take(2).collect();
    assert_eq!(board_and_side, ["2R6/5k2C/n8/p1p5p/6b2/6p2/9/9/9/4K4", "b"]);
    assert!(!g.comments.is_empty(), "comments are kept");
    assert!(g.comments.iter().any(|c| c.text.contains("聂棋圣认负")));
    // Writing it out and reading it back gives the same game.
    let again = pgn::read_str(&pgn::write(g)).unwrap();
    assert_eq!(again[0].game.moves(), g.game.moves());
}
