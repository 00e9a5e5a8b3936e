//! Any bytes through `xiangqi_records::read` (format detection, then the reader): an error
//! or records; each record read is written as PGN and read back to the same tree.
#![no_main]
use libfuzzer_sys::fuzz_target;
use xiangqi_records::{pgn, read};

fuzz_target!(|data: &[u8]| {
    let Ok(loaded) = read(data) else {
        return;
    };
    for record in &loaded.records {
        let text = pgn::write_record(record, &pgn::WriteOptions::default());
        let back = read(text.as_bytes()).expect("our PGN reads back");
        assert_eq!(back.records.len(), 1, "{text}");
        assert_eq!(back.records[0].tree, record.tree, "{text}");
    }
});
