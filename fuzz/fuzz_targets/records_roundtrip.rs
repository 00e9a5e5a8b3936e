//! Every writer on trees the fuzzer builds (structure-aware: its bytes choose where each move
//! hangs, which legal move it is, its comments and marks): read back, PGN in each notation
//! gives the same tree, and XQF, DhtmlXQ and CBF the same main line from the same start.
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use xiangqi_core::Position;
use xiangqi_records::{cbf, pgn, read_with, ubb, xqf, GameTree, Options, Record};

#[derive(Arbitrary, Debug)]
struct Step {
    at: u16,
    choice: u16,
    comment: String,
    before: String,
    nag: Option<u8>,
}

#[derive(Arbitrary, Debug)]
struct Input {
    start: u8,
    root_comment: String,
    steps: Vec<Step>,
    tags: [String; 3],
}

const STARTS: [&str; 3] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "4k4/4a4/5a3/3PR4/6r2/9/2pp5/9/4A4/4KA3 b - - 0 1",
    "3k5/9/2P3P2/2P3P2/6P2/9/9/9/9/4K4 w - - 0 1",
];

/// A comment as PGN holds it: trimmed, and a CR before a line feed is part of the line end.
fn as_pgn_holds(comment: &str) -> String {
    let mut text = comment.trim().to_string();
    while text.contains("\r\n") {
        text = text.replace("\r\n", "\n");
    }
    text
}

fn build(input: &Input) -> Record {
    let start = Position::from_fen(STARTS[usize::from(input.start) % STARTS.len()]).unwrap();
    let mut tree = GameTree::new(start);
    let root = tree.root();
    tree.node_mut(root).comment = as_pgn_holds(&input.root_comment);
    let mut nodes = vec![root];
    for step in input.steps.iter().take(200) {
        let parent = nodes[usize::from(step.at) % nodes.len()];
        let moves = tree.position_at(parent).legal_moves();
        if moves.is_empty() {
            continue;
        }
        let m = moves[usize::from(step.choice) % moves.len()];
        if tree.child_with(parent, m).is_some() {
            continue;
        }
        let n = tree.add_move(parent, m).unwrap();
        // Comments as PGN holds them (the writer writes them so).
        tree.node_mut(n).comment = as_pgn_holds(&step.comment);
        tree.node_mut(n).nags.extend(step.nag.map(|v| 1 + v % 7));
        if tree.node(parent).main_child() != Some(n) {
            tree.node_mut(n).starting_comment = as_pgn_holds(&step.before);
        }
        nodes.push(n);
    }
    let mut record = Record::new(tree);
    for (name, value) in ["Red", "Black", "Event"].iter().zip(&input.tags) {
        record.set_tag(name, value);
    }
    record
}

fuzz_target!(|input: Input| {
    let record = build(&input);
    let strict = Options {
        strict: true,
        ..Options::default()
    };
    for notation in [
        pgn::MoveFormat::Chinese,
        pgn::MoveFormat::Wxf,
        pgn::MoveFormat::Iccs,
    ] {
        let text = pgn::write_record(
            &record,
            &pgn::WriteOptions {
                notation: Some(notation),
            },
        );
        let back = read_with(text.as_bytes(), &strict).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.records[0].tree, record.tree, "{text}");
        // Tags as PGN holds them: one line, control characters written as spaces.
        for name in ["Red", "Black", "Event"] {
            let one_line = record.tag(name).map(|v| {
                v.chars()
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .collect::<String>()
            });
            assert_eq!(back.records[0].tag(name), one_line.as_deref(), "{text}");
        }
    }
    let main = record.tree.main_line_moves();
    // DhtmlXQ has no side-to-move field: without a move it reads as red to move.
    let keeps_side = |format: &str| format != "DhtmlXQ" || !main.is_empty();
    let written: [(&str, Vec<u8>); 3] = [
        ("XQF", xqf::write(&record)),
        ("DhtmlXQ", ubb::write(&record).into_bytes()),
        ("CBF", cbf::write(&record).into_bytes()),
    ];
    for (format, bytes) in written {
        let back = read_with(&bytes, &strict).unwrap_or_else(|e| panic!("{format}: {e}"));
        let tree = &back.records[0].tree;
        assert_eq!(tree.main_line_moves(), main, "{format}");
        let placement = |p: &Position| p.fen().split(' ').next().unwrap().to_string();
        assert_eq!(
            placement(tree.start()),
            placement(record.tree.start()),
            "{format}"
        );
        if keeps_side(format) {
            assert_eq!(tree.start(), record.tree.start(), "{format}");
        }
    }
});
