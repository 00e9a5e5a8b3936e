//! Each kind of damage real files carry, with the warning it must produce, the place it
//! names, what still loads, and the error strict mode makes of it.

use xiangqi_records::{Options, Warning, WarningKind};

const XQF: &[u8] = include_bytes!("data/xqf10_sample_1997.xqf");
const UBB: &str = include_str!("data/dhtmlxq_ubb_variations.txt");

const BOARD: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

/// Reads leniently and strictly: the records' main-line lengths, the warnings, and checks
/// strict mode fails with the first warning.
fn read(bytes: &[u8]) -> (Vec<usize>, Vec<Warning>) {
    let loaded = xiangqi_records::read(bytes).unwrap();
    let strict = xiangqi_records::read_with(
        bytes,
        &Options {
            strict: true,
            ..Options::default()
        },
    );
    match loaded.warnings.first() {
        Some(w) => assert_eq!(&strict.unwrap_err().warning, w),
        None => assert!(strict.is_ok()),
    }
    let lens = loaded
        .records
        .iter()
        .map(|r| r.tree.main_line_moves().len())
        .collect();
    (lens, loaded.warnings)
}

fn kinds(w: &[Warning]) -> Vec<&WarningKind> {
    w.iter().map(|w| &w.kind).collect()
}

#[test]
fn text_after_the_last_game_and_between_games() {
    let text = "[Red \"A\"]\n1. h2e2 h9g7 1-0\nSome notes about the match.\n\n\
                [Red \"B\"]\n1. h2e2 *\nThe end.\n";
    let (lens, w) = read(text.as_bytes());
    assert_eq!(lens, vec![2, 1]);
    assert_eq!(
        kinds(&w),
        vec![
            &WarningKind::TextOutsideGame("Some".into()),
            &WarningKind::TextOutsideGame("The".into())
        ]
    );
    assert_eq!((w[0].place.line, w[0].place.column), (Some(3), Some(1)));
    assert_eq!((w[1].place.game, w[1].place.line), (2, Some(7)));
}

#[test]
fn separator_lines_between_games() {
    let text = "1. h2e2 h9g7 1-0\n==========\n1. b2e2 *\n";
    let (lens, w) = read(text.as_bytes());
    assert_eq!(lens, vec![2, 1]);
    assert_eq!(
        kinds(&w),
        vec![&WarningKind::SeparatorLine("==========".into())]
    );
    assert_eq!(w[0].place.line, Some(2));
}

#[test]
fn fen_with_a_malformed_side_or_counters_is_repaired() {
    for (fen, used, mv) in [
        (
            format!("{BOARD} x - - 0 1"),
            format!("{BOARD} w - - 0 1"),
            "1. h2e2",
        ),
        (
            format!("{BOARD} b - - x y"),
            format!("{BOARD} b - - 0 1"),
            "1... h7e7",
        ),
    ] {
        let text = format!("[FEN \"{fen}\"]\n{mv} *\n");
        let loaded = xiangqi_records::read(text.as_bytes()).unwrap();
        let expected = WarningKind::FenRepaired {
            found: fen.clone(),
            used: used.clone(),
        };
        assert_eq!(kinds(&loaded.warnings), vec![&expected]);
        assert_eq!(loaded.records[0].tree.start().fen(), used);
    }
    // With black to move, h2e2 is no move: the line stops there.
    let text = format!("[FEN \"{BOARD} b - - x y\"]\n1... h7e7 *\n");
    let (lens, w) = read(text.as_bytes());
    assert_eq!((lens, w.len()), (vec![1], 1));
    // A board that is not a position: the game is skipped, the next one loads.
    let text = "[FEN \"xyz\"]\n1. h2e2 *\n\n[Red \"B\"]\n1. h2e2 *\n";
    let (lens, w) = read(text.as_bytes());
    assert_eq!(lens, vec![1]);
    assert!(matches!(w[0].kind, WarningKind::BadFen(_)));
    assert_eq!(w[0].place.game, 0);
}

#[test]
fn an_illegal_or_unreadable_move_stops_its_line_only() {
    let text = "1. h2e2 h9g7 (1... h7e7 2. h2e2 h9g7) 2. h0g2 i9h9 3. zz99 i0h0 *\n\
                [Red \"B\"]\n1. h2e2 *\n";
    let loaded = xiangqi_records::read(text.as_bytes()).unwrap();
    let w = &loaded.warnings;
    assert_eq!(w.len(), 2, "{w:?}");
    // In the side line: `2. h2e2` (the cannon is on e2 already).
    assert!(matches!(&w[0].kind, WarningKind::BadMove { text, .. } if text == "h2e2"));
    assert_eq!(
        (w[0].place.line, w[0].place.column, w[0].place.ply),
        (Some(1), Some(28), Some(3))
    );
    // On the main line: `zz99`.
    assert!(matches!(&w[1].kind, WarningKind::BadMove { text, .. } if text == "zz99"));
    assert_eq!(w[1].place.ply, Some(5));
    assert!(w[1].to_string().contains("move 3"), "{}", w[1]);
    let t = &loaded.records[0].tree;
    assert_eq!(t.main_line_moves().len(), 4);
    assert_eq!(t.move_count(), 5);
    assert_eq!(loaded.records.len(), 2);
}

#[test]
fn unknown_tags_are_kept_and_reported() {
    let text = "[Game \"Chinese Chess\"]\n[Weather \"rain\"]\n1. h2e2 *\n";
    let loaded = xiangqi_records::read(text.as_bytes()).unwrap();
    assert_eq!(
        kinds(&loaded.warnings),
        vec![&WarningKind::UnknownTag("Weather".into())]
    );
    assert_eq!(loaded.records[0].tag("Weather"), Some("rain"));
}

#[test]
fn missing_and_contradictory_results() {
    let (_, w) = read(b"1. h2e2 h9g7\n");
    assert_eq!(kinds(&w), vec![&WarningKind::MissingResult]);
    let (_, w) = read(b"[Result \"1-0\"]\n1. h2e2 0-1\n");
    assert_eq!(
        kinds(&w),
        vec![&WarningKind::ResultMismatch {
            tag: "1-0".into(),
            token: "0-1".into()
        }]
    );
}

#[test]
fn broken_brackets() {
    let (lens, w) = read(b"1. h2e2 ) h9g7 *\n");
    assert_eq!(
        (lens, kinds(&w)),
        (vec![2], vec![&WarningKind::UnbalancedParenthesis])
    );
    let (lens, w) = read(b"1. h2e2 h9g7 (1... h7e7 2. h0g2\n");
    assert_eq!(lens, vec![2]);
    assert!(kinds(&w).contains(&&WarningKind::Unterminated('(')));
    let (lens, w) = read(b"(1. b2e2) 1. h2e2 *\n");
    assert_eq!(
        (lens, kinds(&w)),
        (vec![1], vec![&WarningKind::VariationWithoutMove])
    );
    let (lens, w) = read(b"1. h2e2 {never closed\n");
    assert_eq!(lens, vec![1]);
    assert!(kinds(&w).contains(&&WarningKind::Unterminated('{')));
    let (_, w) = read(b"[Red \"A]\n1. h2e2 *\n");
    assert!(kinds(&w).contains(&&WarningKind::Unterminated('"')));
    let (_, w) = read(b"[Red A]\n1. h2e2 *\n");
    assert!(matches!(w[0].kind, WarningKind::BadTag(_)));
}

#[test]
fn bytes_invalid_in_the_encoding() {
    let mut bytes = "[Red \"许银川\"]\n1. 炮二平五 *\n".as_bytes().to_vec();
    bytes.extend_from_slice(&[0xFF, 0xFF, b'\n']);
    let loaded = xiangqi_records::read(&bytes).unwrap();
    assert!(kinds(&loaded.warnings).contains(&&WarningKind::BadEncoding));
    assert_eq!(loaded.records[0].tree.main_line_moves().len(), 1);
}

#[test]
fn xqf_whose_last_move_is_broken_keeps_the_rest() {
    let (lens, w) = read(&XQF[..XQF.len() - 6]);
    assert_eq!(lens, vec![15]);
    assert_eq!(kinds(&w), vec![&WarningKind::Truncated("move record")]);
    assert!(w[0].place.offset.unwrap() >= 0x400);
    // The third move made to jump: the line stops at ply 3.
    let mut bytes = XQF.to_vec();
    bytes[0x400 + 8 * 3 + 1] = 0x20 + 6 * 10 + 9;
    let (lens, w) = read(&bytes);
    assert_eq!(lens, vec![2]);
    assert_eq!(
        (w[0].place.offset, w[0].place.ply),
        (Some(0x400 + 8 * 3), Some(3))
    );
    assert!(matches!(w[0].kind, WarningKind::BadMove { .. }));
    // Not XQF at all: nothing loads.
    let e = xiangqi_records::read_with(
        b"XQ",
        &Options {
            strict: false,
            format: None,
        },
    )
    .unwrap_err();
    assert_eq!(e.warning.kind, WarningKind::Truncated("header"));
}

#[test]
fn dhtmlxq_damage() {
    // The sample closes two fields with the wrong tag.
    let (_, w) = read(UBB.as_bytes());
    assert!(w
        .iter()
        .all(|w| matches!(w.kind, WarningKind::MismatchedClose(_))));
    assert_eq!(w[0].place.line, Some(12));
    // A move that is not legal stops its line; a branch from a line that does not exist.
    let text = UBB
        .replace(
            "[DhtmlXQ_movelist]774772427967",
            "[DhtmlXQ_movelist]774777477967",
        )
        .replace("move_0_5_3", "move_9_5_3");
    let (lens, w) = read(text.as_bytes());
    assert_eq!(lens, vec![1]);
    let bad: Vec<_> = w
        .iter()
        .filter(|w| !matches!(w.kind, WarningKind::MismatchedClose(_)))
        .collect();
    assert!(
        matches!(&bad[0].kind, WarningKind::BadMove { text, .. } if text == "7747"),
        "{bad:?}"
    );
    assert_eq!(bad[0].place.ply, Some(2));
    assert!(bad
        .iter()
        .any(|w| matches!(&w.kind, WarningKind::BadField(t) if t.contains("move_0_5_1"))));
}
