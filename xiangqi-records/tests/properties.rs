//! Property tests: random trees (random legal moves, random nesting, comments with every
//! awkward character) survive write → read in every format; no reader panics on any
//! bytes.

use proptest::prelude::*;
use xiangqi_core::Position;
use xiangqi_records::pgn::{self, PgnResult};
use xiangqi_records::{cbf, ubb, xqf, Format, GameTree, Options, Record};

/// Characters that break naive writers: the delimiters of every format, quotes, line
/// breaks, CJK (simplified and traditional), full-width forms and an emoji.
const AWKWARD: &[char] = &[
    'a', 'Z', '0', ' ', ' ', '\n', '{', '}', '(', ')', '[', ']', ';', '$', '"', '\\', '%', '<',
    '>', '&', '|', '/', '-', '!', '?', '*', '炮', '馬', '进', '平', '，', '。', '＋', '１', '😀',
    '\t',
];

fn comment() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(AWKWARD), 0..12).prop_map(|cs| {
        let s: String = cs.into_iter().collect();
        // Readers trim comments: leading and trailing white space is not content.
        s.trim().to_string()
    })
}

fn name() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        proptest::sample::select(&['许', '银', '川', 'A', 'b', ' ', '"'][..]),
        1..7,
    )
    .prop_map(|cs| cs.into_iter().collect::<String>().trim().to_string())
    .prop_filter("non-empty", |s| !s.is_empty())
}

/// Where to add each move: which existing node, which of its legal moves, the comments
/// and marks of the new node.
type Op = (usize, usize, String, String, Option<u8>);

fn ops() -> impl Strategy<Value = Vec<Op>> {
    proptest::collection::vec(
        (
            any::<usize>(),
            any::<usize>(),
            comment(),
            comment(),
            proptest::option::of(1u8..8),
        ),
        1..40,
    )
}

const STARTS: [&str; 3] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "4k4/4a4/5a3/3PR4/6r2/9/2pp5/9/4A4/4KA3 b - - 0 1",
    "3k5/9/2P3P2/2P3P2/6P2/9/9/9/9/4K4 w - - 0 1",
];

/// A record grown by `ops`: moves hang anywhere in the tree, so side lines nest at
/// random depths. Starting comments go on side lines' first moves only (the only place a
/// reader puts them).
fn build(start: usize, ops: &[Op], root_comment: &str, result: u8, tags: &[String]) -> Record {
    let pos = Position::from_fen(STARTS[start % STARTS.len()]).unwrap();
    let mut tree = GameTree::new(pos);
    tree.node_mut(tree.root()).comment = root_comment.to_string();
    let mut nodes = vec![tree.root()];
    for (at, choice, after, before, nag) in ops {
        let parent = nodes[at % nodes.len()];
        let moves = tree.position_at(parent).legal_moves();
        if moves.is_empty() {
            continue;
        }
        let m = moves[choice % moves.len()];
        if tree.child_with(parent, m).is_some() {
            continue;
        }
        let n = tree.add_move(parent, m).unwrap();
        let node = tree.node_mut(n);
        node.comment = after.clone();
        node.nags.extend(nag);
        if tree.node(parent).main_child() != Some(n) {
            tree.node_mut(n).starting_comment = before.clone();
        }
        nodes.push(n);
    }
    let mut r = Record::new(tree);
    r.result = [
        PgnResult::Unknown,
        PgnResult::RedWins,
        PgnResult::BlackWins,
        PgnResult::Draw,
    ][usize::from(result) % 4];
    for (tag, value) in ["Red", "Black", "Event"].iter().zip(tags) {
        r.set_tag(tag, value);
    }
    r
}

mod common;
use common::{reduced, ubb_lines};

fn strict() -> Options {
    Options {
        strict: true,
        ..Options::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_trees_survive_every_format(
        start in 0usize..3,
        ops in ops(),
        root_comment in comment(),
        result in any::<u8>(),
        tags in proptest::collection::vec(name(), 3),
    ) {
        let r = build(start, &ops, &root_comment, result, &tags);
        // PGN, in each notation: everything, tags included.
        for notation in [pgn::MoveFormat::Chinese, pgn::MoveFormat::Wxf, pgn::MoveFormat::Iccs] {
            let text = pgn::write_record(&r, &pgn::WriteOptions { notation: Some(notation) });
            let back = xiangqi_records::read_with(text.as_bytes(), &strict());
            let back = back.map_err(|e| format!("{e}\n{text}"));
            prop_assert!(back.is_ok(), "{:?}", back.err());
            let back = back.unwrap();
            prop_assert_eq!(&back.records[0].tree, &r.tree, "{}", text);
            prop_assert_eq!(back.records[0].result, r.result);
            for t in ["Red", "Black", "Event"] {
                prop_assert_eq!(back.records[0].tag(t), r.tag(t));
            }
        }
        // XQF: no NAGs, one comment a move.
        let bytes = xqf::write(&r);
        let back = xiangqi_records::read_with(&bytes, &strict()).unwrap();
        prop_assert_eq!(back.format, Format::Xqf);
        prop_assert_eq!(&back.records[0].tree, &reduced(&r.tree, false, false));
        prop_assert_eq!(back.records[0].result, r.result);
        for t in ["Red", "Black", "Event"] {
            prop_assert_eq!(back.records[0].tag(t), r.tag(t));
        }
        // DhtmlXQ: no NAGs; starting comments of side lines kept.
        let text = ubb::write(&r);
        let back = xiangqi_records::read_with(text.as_bytes(), &strict());
        prop_assert!(back.is_ok(), "{:?}\n{}", back.err(), text);
        let back = back.unwrap();
        prop_assert_eq!(&back.records[0].tree, &ubb_lines(&reduced(&r.tree, false, true)), "{}", text);
        prop_assert_eq!(back.records[0].result, r.result);
        // CBF: the main line and its comments.
        let text = cbf::write(&r);
        let back = xiangqi_records::read_with(text.as_bytes(), &strict()).unwrap();
        prop_assert_eq!(back.records[0].tree.main_line_moves(), r.tree.main_line_moves());
        prop_assert_eq!(back.records[0].tree.start(), r.tree.start());
        let main: Vec<_> = r.tree.main_line().iter().map(|&n| r.tree.node(n).comment.clone()).collect();
        let got: Vec<_> = back.records[0].tree.main_line().iter().map(|&n| back.records[0].tree.node(n).comment.clone()).collect();
        prop_assert_eq!(got, main);
    }

    #[test]
    fn no_reader_panics_on_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..3000)) {
        for format in [Format::Pgn, Format::Xqf, Format::Ubb, Format::Cbf, Format::Cbr, Format::Cbl, Format::Text] {
            let _ = xiangqi_records::read_with(&bytes, &Options { strict: false, format: Some(format) });
        }
        let _ = xiangqi_records::read(&bytes);
    }

    #[test]
    fn no_reader_panics_on_mangled_files(which in 0usize..4, at in any::<usize>(), byte in any::<u8>(), cut in any::<usize>()) {
        let r = build(0, &[(0, 3, "a".into(), String::new(), None), (0, 5, "{b}".into(), "c".into(), Some(1)), (1, 7, String::new(), String::new(), None)], "x", 1, &[]);
        let file = match which {
            0 => pgn::write_record(&r, &pgn::WriteOptions::default()).into_bytes(),
            1 => xqf::write(&r),
            2 => ubb::write(&r).into_bytes(),
            _ => cbf::write(&r).into_bytes(),
        };
        let mut bytes = file.clone();
        let i = at % bytes.len();
        bytes[i] = byte;
        let _ = xiangqi_records::read(&bytes);
        let _ = xiangqi_records::read(&file[..cut % file.len()]);
        let _ = xiangqi_records::read(&bytes[..cut % bytes.len()]);
    }
}

#[test]
fn cbr_signatures_without_bodies_do_not_panic() {
    let mut cbr = b"CCBridge Record\0".to_vec();
    cbr.resize(2300, 0xFF);
    let _ = xiangqi_records::read(&cbr);
    let mut cbl = b"CCBridgeLibrary\0".to_vec();
    cbl.resize(110_000, 0);
    cbl[60] = 3;
    cbl.extend_from_slice(&cbr);
    let _ = xiangqi_records::read(&cbl);
}
