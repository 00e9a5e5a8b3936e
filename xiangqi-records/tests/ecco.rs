//! ECCO classification against the codes the sample files carry (the CCPD game's own
//! `ECCO` tag), and its invariants.

use xiangqi_core::Position;
use xiangqi_records::ecco;

const BIG5_TRAD: &[u8] = include_bytes!("data/pgn_big5_trad_front_back.pgn");

fn moves(iccs: &str) -> Vec<xiangqi_core::Move> {
    let mut pos = Position::startpos();
    iccs.split_whitespace()
        .map(|t| {
            let m = pos.parse_uci(t).unwrap();
            pos.make_move(m);
            m
        })
        .collect()
}

#[test]
fn the_sample_games_code_is_the_one_its_tag_gives() {
    let loaded = xiangqi_records::read(BIG5_TRAD).unwrap();
    let r = &loaded.records[0];
    assert_eq!(r.tag("ECCO"), Some("D30"));
    let o = ecco::classify(&r.tree).unwrap();
    assert_eq!(o.code, "D30");
    assert_eq!(o.name, "中炮不进三兵对左炮封车转列炮");
}

#[test]
fn transpositions_and_mirrors_get_the_same_code() {
    let start = Position::startpos();
    // 列炮 with black's moves in another order, and the whole game mirrored.
    let a = ecco::classify_moves(
        &start,
        &moves("h2e2 h9g7 h0g2 i9h9 g3g4 c6c5 b0c2 h7h3 e3e4 b7e7"),
    )
    .unwrap();
    let b = ecco::classify_moves(
        &start,
        &moves("h2e2 h9g7 h0g2 c6c5 g3g4 i9h9 b0c2 h7h3 e3e4 b7e7"),
    )
    .unwrap();
    let c = ecco::classify_moves(
        &start,
        &moves("b2e2 b9c7 b0c2 a9b9 c3c4 g6g5 h0g2 b7b3 e3e4 h7e7"),
    )
    .unwrap();
    assert_eq!(a, b);
    assert_eq!(a, c);
    assert_eq!(a.code, "D30");
    // 仙人指路 opened on either wing is E.
    assert!(ecco::classify_moves(&start, &moves("c3c4"))
        .unwrap()
        .code
        .starts_with('E'));
    assert!(ecco::classify_moves(&start, &moves("g3g4"))
        .unwrap()
        .code
        .starts_with('E'));
    // Not from the initial position, or no move: no code.
    let endgame = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1").unwrap();
    assert_eq!(ecco::classify_moves(&endgame, &[]), None);
    assert_eq!(ecco::classify_moves(&start, &[]), None);
    assert_eq!(ecco::name("B05"), Some("中炮对进左马(其他)"));
}

#[test]
fn every_code_of_the_table_is_a_to_e_and_named() {
    for letter in ['A', 'B', 'C', 'D', 'E'] {
        for n in 0..100 {
            let code = format!("{letter}{n:02}");
            if let Some(name) = ecco::name(&code) {
                assert!(!name.is_empty() && name != "空", "{code}");
            }
        }
    }
    assert!(ecco::name("C30").is_some() && ecco::name("E48").is_some());
    assert!(ecco::name("F00").is_none());
}
