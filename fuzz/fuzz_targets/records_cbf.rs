//! The cbf reader alone, on any bytes: an error or records, never a panic, a hang or an
//! allocation out of proportion to the input.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(loaded) = xiangqi_records::cbf::load(data) {
        for record in &loaded.records {
            let _ = record.main_game();
        }
    }
});
