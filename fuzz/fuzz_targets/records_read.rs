//! Any bytes through `xiangqi_records::read` (format detection, then the reader): an error
//! or records; each record read is written as PGN and read back to the same tree, its
//! comments trimmed and a CR before a line feed taken as part of the line end (what PGN holds
//! of a comment; the writer writes them so).
#![no_main]
use libfuzzer_sys::fuzz_target;
use xiangqi_records::{pgn, read, GameTree};

/// A comment as PGN holds it.
fn as_pgn_holds(comment: &str) -> String {
    let mut text = comment.trim().to_string();
    while text.contains("\r\n") {
        text = text.replace("\r\n", "\n");
    }
    text
}

fn trimmed(tree: &GameTree) -> GameTree {
    let mut t = tree.clone();
    for n in t.preorder() {
        let node = t.node_mut(n);
        node.comment = as_pgn_holds(&node.comment);
        node.starting_comment = as_pgn_holds(&node.starting_comment);
    }
    t
}

fuzz_target!(|data: &[u8]| {
    let Ok(loaded) = read(data) else {
        return;
    };
    for record in &loaded.records {
        let text = pgn::write_record(record, &pgn::WriteOptions::default());
        let back = read(text.as_bytes()).expect("our PGN reads back");
        assert_eq!(back.records.len(), 1, "{text}");
        assert_eq!(back.records[0].tree, trimmed(&record.tree), "{text}");
    }
});
