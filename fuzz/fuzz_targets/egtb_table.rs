//! Tablebase files: any bytes, and a real table (兵对将, generated once) with the fuzzer's
//! bytes written over part of it, are refused with a typed error or read whole; a table
//! that reads is probed without a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::OnceLock;
use xiangqi_core::Position;
use xiangqi_egtb::{generate, table_path, write_table, Material, TableData, Tablebase};

struct Scratch {
    dir: PathBuf,
    material: Material,
    table: Vec<u8>,
}

fn scratch() -> &'static Scratch {
    static SCRATCH: OnceLock<Scratch> = OnceLock::new();
    SCRATCH.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("xiangqi-fuzz-egtb-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let material: Material = "kpk".parse().unwrap();
        let data = generate(material, &HashMap::new(), &mut |_| {}).unwrap();
        let path = table_path(&dir, material);
        write_table(&path, &data).unwrap();
        let table = std::fs::read(&path).unwrap();
        Scratch {
            dir,
            material,
            table,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let s = scratch();
    let path = table_path(&s.dir, s.material);
    let bytes = if data.first().is_some_and(|b| b & 1 == 1) && data.len() >= 5 {
        let mut bytes = s.table.clone();
        let at = u32::from_le_bytes([data[1], data[2], data[3], data[4]]) as usize % bytes.len();
        let patch = &data[5..];
        let end = (at + patch.len()).min(bytes.len());
        bytes[at..end].copy_from_slice(&patch[..end - at]);
        bytes
    } else {
        data.to_vec()
    };
    std::fs::write(&path, &bytes).unwrap();
    let whole = TableData::load(&path);
    // Opening reads each file's header: a bad one is refused there, with its error.
    let tb = match Tablebase::open(&s.dir) {
        Ok(tb) => tb,
        Err(e) => {
            assert!(
                whole.is_err(),
                "a table that loads is refused on opening: {e}"
            );
            return;
        }
    };
    let probed = tb.probe_dtm(&Position::from_fen("4k4/9/9/9/9/9/4P4/9/9/3K5 w - - 0 1").unwrap());
    if whole.is_ok() {
        assert!(
            probed.is_ok(),
            "a table that loads whole fails a probe: {probed:?}"
        );
    }
    if bytes == s.table {
        assert!(probed.unwrap().is_some());
    }
});
