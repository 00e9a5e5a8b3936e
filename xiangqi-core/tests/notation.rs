//! WXF and Chinese notation against `tests/data/notation.tsv` (200 plies of two games,
//! notation from Fairy-Stockfish 0.0.90 (`get_san`, WXF) and cchess 1.25.5 (Chinese)).

use xiangqi_core::{NotationError, Position};

struct Row {
    id: String,
    fen: String,
    iccs: String,
    chinese: String,
    chinese_ascii: String,
    wxf: String,
}

fn rows() -> Vec<Row> {
    include_str!("data/notation.tsv")
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Row {
                id: format!("{} ply {}", f[0], f[1]),
                fen: f[2].into(),
                iccs: f[3].into(),
                chinese: f[5].into(),
                chinese_ascii: f[6].into(),
                wxf: f[7].into(),
            }
        })
        .collect()
}

#[test]
fn two_hundred_plies_both_ways() {
    let rows = rows();
    assert_eq!(rows.len(), 200);
    for r in &rows {
        let pos = Position::from_fen(&r.fen).unwrap();
        let m = pos.parse_uci(&r.iccs).unwrap();
        assert_eq!(pos.to_chinese(m), r.chinese, "{} {}", r.id, r.iccs);
        assert_eq!(
            pos.to_wxf(m),
            r.wxf.replace('=', "."),
            "{} {}",
            r.id,
            r.iccs
        );
        assert_eq!(pos.parse_chinese(&r.chinese), Ok(m), "{}", r.id);
        assert_eq!(pos.parse_chinese(&r.chinese_ascii), Ok(m), "{}", r.id);
        assert_eq!(pos.parse_wxf(&r.wxf), Ok(m), "{}", r.id);
        assert_eq!(pos.parse_wxf(&pos.to_wxf(m)), Ok(m), "{}", r.id);
        for text in [&r.chinese, &r.chinese_ascii, &r.wxf, &r.iccs] {
            assert_eq!(pos.parse_move(text), Ok(m), "{} {text}", r.id);
        }
    }
}

/// Every legal move of every position in the data formats to text that parses back to it.
#[test]
fn every_legal_move_round_trips() {
    for r in rows() {
        let pos = Position::from_fen(&r.fen).unwrap();
        for m in pos.legal_moves() {
            assert_eq!(pos.parse_wxf(&pos.to_wxf(m)), Ok(m), "{} {m}", r.fen);
            assert_eq!(
                pos.parse_chinese(&pos.to_chinese(m)),
                Ok(m),
                "{} {m}",
                r.fen
            );
        }
    }
}

#[test]
fn traditional_characters_and_full_width() {
    let pos = Position::startpos();
    let m = pos.parse_uci("h2e2").unwrap();
    for text in [
        "砲二平五",
        "炮2平5",
        "炮２平５",
        "Ｃ２＝５",
        "c2=5",
        "C2.5",
        "H2-E2",
    ] {
        assert_eq!(pos.parse_move(text), Ok(m), "{text}");
    }
    let m = pos.parse_uci("b0c2").unwrap();
    for text in ["馬八進七", "傌八进七", "N8+7", "H8+7"] {
        assert_eq!(pos.parse_move(text), Ok(m), "{text}");
    }
}

#[test]
fn tandem_pieces() {
    // Two red chariots on file c (red's 7): 前车 is the one further up.
    let pos = Position::from_fen("3k5/9/9/9/2R6/9/9/2R6/9/4K4 w - - 0 1").unwrap();
    let front = pos.parse_uci("c5e5").unwrap();
    assert_eq!(pos.to_chinese(front), "前车平五");
    assert_eq!(pos.to_wxf(front), "R+.5");
    assert_eq!(pos.parse_move("前車平五"), Ok(front));
    let rear = pos.parse_uci("c2c1").unwrap();
    assert_eq!(pos.to_chinese(rear), "后车退一");
    assert_eq!(pos.to_wxf(rear), "R--1");
    assert_eq!(pos.parse_move("後車退一"), Ok(rear));
    // Plain file notation is ambiguous here.
    assert!(matches!(
        pos.parse_wxf("R7.5"),
        Err(NotationError::Ambiguous { .. })
    ));
}

#[test]
fn pawns_on_two_files() {
    // Red pawns: two on file c (7), two on file g (3), all across the river.
    let pos = Position::from_fen("3k5/9/2P3P2/2P3P2/9/9/9/9/9/4K4 w - - 0 1").unwrap();
    let m = pos.parse_uci("c7b7").unwrap();
    assert_eq!(pos.to_chinese(m), "前七平八");
    assert_eq!(pos.to_wxf(m), "7+.8");
    assert_eq!(pos.parse_move("前七平八"), Ok(m));
    assert_eq!(pos.parse_move("7+.8"), Ok(m));
    let m = pos.parse_uci("g6f6").unwrap();
    assert_eq!(pos.parse_move("后三平四"), Ok(m));
    assert_eq!(pos.to_wxf(m), "3-.4");
    // Three pawns on one file: 前/中/后.
    let pos = Position::from_fen("3k5/9/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1").unwrap();
    let middle = pos.parse_uci("e6d6").unwrap();
    assert_eq!(pos.to_chinese(middle), "中兵平六");
    assert_eq!(pos.parse_move("中兵平六"), Ok(middle));
    assert_eq!(pos.parse_move(&pos.to_wxf(middle)), Ok(middle));
}

#[test]
fn errors_name_what_is_wrong() {
    let pos = Position::startpos();
    assert_eq!(pos.parse_wxf(""), Err(NotationError::Empty));
    assert!(matches!(
        pos.parse_wxf("X2.5"),
        Err(NotationError::Syntax { at: 0, .. })
    ));
    assert!(matches!(
        pos.parse_wxf("C2*5"),
        Err(NotationError::Syntax { at: 2, .. })
    ));
    assert!(matches!(
        pos.parse_chinese("炮二平"),
        Err(NotationError::Syntax { at: 3, .. })
    ));
    assert!(matches!(
        pos.parse_chinese("炮二跳五"),
        Err(NotationError::Syntax { at: 2, .. })
    ));
    assert!(matches!(
        pos.parse_wxf("C2+9"),
        Err(NotationError::NoSuchMove { .. })
    ));
    let e = pos.parse_chinese("车一进九").unwrap_err();
    assert!(e.to_string().contains("no legal move"), "{e}");
}

mod never_panic {
    use proptest::prelude::*;
    use xiangqi_core::Position;

    fn positions() -> Vec<Position> {
        super::rows()
            .iter()
            .step_by(40)
            .map(|r| Position::from_fen(&r.fen).unwrap())
            .chain([Position::startpos()])
            .collect()
    }

    proptest! {
        #[test]
        fn arbitrary_strings(text in any::<String>()) {
            for pos in positions() {
                let _ = pos.parse_wxf(&text);
                let _ = pos.parse_chinese(&text);
                let _ = pos.parse_move(&text);
            }
        }

        /// Along random games every move played, and every legal move at the end, formats
        /// to text that reads back as the same move.
        #[test]
        fn random_games_round_trip(choices in proptest::collection::vec(any::<u16>(), 0..150)) {
            let mut pos = Position::startpos();
            for c in choices {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer captures, to reach positions with few pieces and odd tandems.
                let captures = pos.legal_captures();
                let m = if c % 3 == 0 && !captures.is_empty() {
                    captures[usize::from(c / 3) % captures.len()]
                } else {
                    moves[usize::from(c) % moves.len()]
                };
                prop_assert_eq!(pos.parse_wxf(&pos.to_wxf(m)), Ok(m));
                prop_assert_eq!(pos.parse_chinese(&pos.to_chinese(m)), Ok(m));
                pos.play(m).unwrap();
            }
            for m in pos.legal_moves() {
                prop_assert_eq!(pos.parse_wxf(&pos.to_wxf(m)), Ok(m));
                prop_assert_eq!(pos.parse_chinese(&pos.to_chinese(m)), Ok(m));
            }
        }

        #[test]
        fn notation_like_strings(text in "[KAEHRCPNB+=.\\-1-9前中后後车車马馬炮砲兵卒帅将士仕相象进進退平一二三四五六七八九１２３４５６７８９ａ-ｉａ-ｉa-i０]{0,6}") {
            for pos in positions() {
                if let Ok(m) = pos.parse_move(&text) {
                    prop_assert!(pos.is_legal(m));
                }
                let _ = pos.parse_wxf(&text);
                let _ = pos.parse_chinese(&text);
            }
        }
    }
}
