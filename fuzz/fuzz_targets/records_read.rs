//! Any bytes through `xiangqi_records::read` (format detection, then the reader): an error
//! or records; each record read is written as PGN and read back to the same tree, its
//! comments trimmed (what PGN holds of a comment; the writer writes them so).
#![no_main]
use libfuzzer_sys::fuzz_target;
use xiangqi_records::{pgn, read, GameTree};

fn trimmed(tree: &GameTree) -> GameTree {
    let mut t = tree.clone();
    for n in t.preorder() {
        let node = t.node_mut(n);
        node.comment = node.comment.trim().to_string();
        node.starting_comment = node.starting_comment.trim().to_string();
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
