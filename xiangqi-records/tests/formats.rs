//! Every format through the one entry point: the public samples read with the moves,
//! lines and comments they hold (checked by hand against the files), and round trips
//! through every writable format.

use xiangqi_core::{Move, Position};
use xiangqi_records::{cbf, pgn, ubb, xqf, Format, GameTree, Options, Record};

const UBB: &[u8] = include_bytes!("data/dhtmlxq_ubb_variations.txt");
const XQF: &[u8] = include_bytes!("data/xqf10_sample_1997.xqf");
const CHINESE: &[u8] = include_bytes!("data/pgn_utf8_chinese_multigame_noresult.pgn");
const BIG5_TRAD: &[u8] = include_bytes!("data/pgn_big5_trad_front_back.pgn");
const BIG5_ENDGAME: &[u8] = include_bytes!("data/pgn_big5_endgame_black_first.pgn");
const SPEC: &[u8] = include_bytes!("data/xqbase_spec_example.pgn");

fn iccs(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The moves from the start to each leaf, in ICCS.
fn lines(tree: &GameTree) -> Vec<String> {
    tree.leaves()
        .into_iter()
        .map(|l| iccs(&tree.moves_to(l)))
        .collect()
}

#[test]
fn dhtmlxq_sample_has_its_four_lines_and_nine_comments() {
    let loaded = xiangqi_records::read(UBB).unwrap();
    assert_eq!(loaded.format, Format::Ubb);
    assert_eq!(loaded.records.len(), 1);
    let r = &loaded.records[0];
    let t = &r.tree;
    // movelist 7747 7242 7967 7062 2625 6364 1715 8070 6665 (x, row from the top).
    assert_eq!(
        iccs(&t.main_line_moves()),
        "h2e2 h7e7 h0g2 h9g7 c3c4 g6g5 b2b4 i9h9 g3g4"
    );
    // Three branches replacing ply 5 (c3c4): move_0_5_1, move_0_5_2, move_0_5_3.
    let head = "h2e2 h7e7 h0g2 h9g7";
    assert_eq!(
        lines(t),
        vec![
            "h2e2 h7e7 h0g2 h9g7 c3c4 g6g5 b2b4 i9h9 g3g4".to_string(),
            format!("{head} i0h0 i9h9 h0h9 g7h9"),
            format!("{head} b0c2 b9c7 i0h0 i9h9"),
            format!("{head} a0a1 a9a8 i0i1 i9i8 f0e1 d9e8"),
        ]
    );
    assert_eq!(t.move_count(), 9 + 4 + 4 + 6);
    assert_eq!(t.comment_count(), 9);
    let main = t.main_line();
    assert_eq!(t.node(main[0]).comment, "start of main line");
    assert_eq!(t.node(main[4]).comment, "Here branching occurrs");
    assert_eq!(t.node(main[8]).comment, "end of main line");
    let fork = main[3];
    let v: Vec<_> = t.node(fork).children().skip(1).collect();
    assert_eq!(t.node(v[0]).comment, "variation 1");
    let v3_end = t.line_from(v[2]);
    assert_eq!(
        t.node(*v3_end.last().unwrap()).comment,
        "end of variation 3"
    );
    assert_eq!(r.tag("Title"), Some("无标题"));
    // The file closes `blacktime` with `[/DhtmlXQ_time]`, twice: reported, values kept.
    assert_eq!(loaded.warnings.len(), 2, "{:?}", loaded.warnings);
    assert!(xiangqi_records::read_with(
        UBB,
        &Options {
            strict: true,
            ..Options::default()
        }
    )
    .is_err());
}

#[test]
fn the_sample_files_load_with_the_moves_they_hold() {
    let x = xiangqi_records::read(XQF).unwrap();
    assert_eq!(x.format, Format::Xqf);
    assert_eq!(x.records[0].tree.main_line_moves().len(), 16);
    assert!(x.warnings.is_empty());
    let c = xiangqi_records::read(CHINESE).unwrap();
    assert_eq!(c.records.len(), 15);
    assert_eq!(c.encoding, "UTF-8");
    // The file has no results: one warning per game.
    assert_eq!(c.warnings.len(), 15);
    let b = xiangqi_records::read(BIG5_TRAD).unwrap();
    assert_eq!(b.encoding, "Big5");
    assert_eq!(b.records[0].tree.main_line_moves().len(), 68);
    let e = xiangqi_records::read(BIG5_ENDGAME).unwrap();
    assert_eq!(
        e.records[0].tree.start().side_to_move(),
        xiangqi_core::Color::Black
    );
    let s = xiangqi_records::read(SPEC).unwrap();
    assert_eq!(s.records.len(), 1);
}

mod common;
use common::{reduced, ubb_lines};

/// Writes `r` in every format and reads it back; the tree survives as far as each
/// format holds it.
fn round_trip(r: &Record) {
    let pgn_text = pgn::write_record(r, &pgn::WriteOptions::default());
    let back = xiangqi_records::read(pgn_text.as_bytes()).unwrap();
    assert_eq!(back.records.len(), 1, "{pgn_text}");
    assert_eq!(back.records[0].tree, r.tree, "PGN\n{pgn_text}");
    assert_eq!(back.records[0].result, r.result);
    for notation in [
        pgn::MoveFormat::Iccs,
        pgn::MoveFormat::Wxf,
        pgn::MoveFormat::Chinese,
    ] {
        let o = pgn::WriteOptions {
            notation: Some(notation),
        };
        let text = pgn::write_record(r, &o);
        let back = xiangqi_records::read(text.as_bytes()).unwrap();
        assert_eq!(back.records[0].tree, r.tree, "{notation:?}\n{text}");
    }
    let xqf_bytes = xqf::write(r);
    let back = xiangqi_records::read(&xqf_bytes).unwrap();
    assert_eq!(back.format, Format::Xqf);
    assert!(back.warnings.is_empty(), "{:?}", back.warnings);
    assert_eq!(back.records[0].tree, reduced(&r.tree, false, false), "XQF");
    let ubb_text = ubb::write(r);
    let back = xiangqi_records::read(ubb_text.as_bytes()).unwrap();
    assert_eq!(back.format, Format::Ubb);
    assert!(back.warnings.is_empty(), "{:?}\n{ubb_text}", back.warnings);
    let expected = ubb_lines(&reduced(&r.tree, false, true));
    assert_eq!(back.records[0].tree, expected, "UBB\n{ubb_text}");
    let cbf_text = cbf::write(r);
    let back = xiangqi_records::read(cbf_text.as_bytes()).unwrap();
    assert_eq!(back.format, Format::Cbf);
    assert_eq!(
        back.records[0].tree.main_line_moves(),
        r.tree.main_line_moves()
    );
    assert_eq!(back.records[0].tree.start(), r.tree.start());
    assert_eq!(back.records[0].result, r.result);
}

#[test]
fn samples_round_trip_through_every_format() {
    for bytes in [UBB, XQF, CHINESE, BIG5_TRAD, BIG5_ENDGAME, SPEC] {
        for r in xiangqi_records::read(bytes).unwrap().records {
            round_trip(&r);
        }
    }
}

#[test]
fn pgn_variations_comments_and_nags_read() {
    let text = "[Game \"Chinese Chess\"]\n{开局} 1. 炮二平五! {中炮} 马８进７ \
        (1... 炮８平５ {顺炮} 2. 马二进三 (2. 车一进一 $2) 2... 马８进７) \
        ({列手炮?} 1... 马２进３) 2. 马二进三 $1 *\n";
    let loaded = xiangqi_records::read(text.as_bytes()).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let t = &loaded.records[0].tree;
    assert_eq!(
        lines(t),
        vec![
            "h2e2 h9g7 h0g2",
            "h2e2 h7e7 h0g2 h9g7",
            "h2e2 h7e7 i0i1",
            "h2e2 b9c7"
        ]
    );
    let main = t.main_line();
    assert_eq!(t.node(t.root()).comment, "开局");
    assert_eq!(t.node(main[0]).comment, "中炮");
    assert_eq!(t.node(main[0]).nags, vec![1]);
    assert_eq!(t.node(main[2]).nags, vec![1]);
    let sides: Vec<_> = t.node(main[0]).children().collect();
    assert_eq!(t.node(sides[1]).comment, "顺炮");
    assert_eq!(t.node(sides[2]).starting_comment, "列手炮?");
    assert_eq!(t.comment_count(), 4);
    round_trip(&loaded.records[0]);
}

#[test]
fn tree_editing_keeps_the_tree_consistent() {
    let text = "1. h2e2 h9g7 (1... h7e7 2. h0g2) (1... b9c7) 2. h0g2 *";
    let mut r = xiangqi_records::read(text.as_bytes())
        .unwrap()
        .records
        .remove(0);
    let t = &mut r.tree;
    let first = t.main_line()[0];
    let sides: Vec<_> = t.node(first).children().collect();
    t.promote_to_main(sides[2]);
    assert_eq!(iccs(&t.main_line_moves()), "h2e2 b9c7");
    t.demote(sides[2]);
    assert_eq!(iccs(&t.main_line_moves()), "h2e2 h9g7 h0g2");
    t.delete(sides[1]);
    assert_eq!(t.leaf_count(), 2);
    assert_eq!(t.move_count(), 4);
    let pos = t.position_at(t.main_line()[1]);
    assert!(t
        .add_move(
            t.main_line()[1],
            Position::startpos().parse_move("h2e2").unwrap()
        )
        .is_err());
    let m = pos.parse_move("b0c2").unwrap();
    let n = t.add_move(t.main_line()[1], m).unwrap();
    assert_eq!(t.ply_of(n), 3);
    round_trip(&r);
}

#[test]
fn plain_text_move_lists() {
    // A FEN on the first line, one Chinese move a line, the result in words.
    let text = "4k4/9/9/9/9/9/9/9/R8/3K5 w\n车九进八\n将５进１\n车九平五\n红胜\n";
    let loaded = xiangqi_records::read(text.as_bytes()).unwrap();
    assert_eq!(loaded.format, Format::Text);
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let r = &loaded.records[0];
    assert_eq!(iccs(&r.tree.main_line_moves()), "a1a9 e9e8 a9e9");
    assert_eq!(r.result, xiangqi_records::pgn::PgnResult::RedWins);
    // FEN, moves and result on one line, comma separated.
    let text = "9/3k5/4c4/4N4/9/6R2/9/5p3/4r4/5K3 w, g4g8 d8d9 e6c7 d9e9 g8g9, 1-0\n";
    let r = &xiangqi_records::read(text.as_bytes()).unwrap().records[0];
    assert_eq!(r.tree.main_line_moves().len(), 5);
    // Numbered, several moves a line, WXF.
    let text = "1. C2.5 H8+7\n2. H2+3 R9.8\n";
    let r = &xiangqi_records::read(text.as_bytes()).unwrap().records[0];
    assert_eq!(iccs(&r.tree.main_line_moves()), "h2e2 h9g7 h0g2 i9h9");
}
