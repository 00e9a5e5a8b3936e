//! Writes the seed corpora the first campaign started from: the repository's sample record
//! files, each game written by every writer (so the binary readers start from valid files),
//! the perft suite's FENs, move texts in the three notations, and API bodies.
//!
//! `cargo run --example make_seeds` (in `fuzz/`); it adds to the unpacked corpora that
//! `run.sh` fuzzes, `../target/fuzz-corpus/<target>/` (or `$FUZZ_CORPUS_DIR/<target>/`), and
//! `pack.sh` puts what the campaign keeps into the committed archives.

use std::fs;
use std::path::Path;
use xiangqi_records::{cbf, pgn, read, ubb, xqf};

fn put(target: &str, name: &str, bytes: &[u8]) {
    let root = std::env::var_os("FUZZ_CORPUS_DIR")
        .map_or_else(|| Path::new("../target/fuzz-corpus").to_path_buf(), Into::into);
    let dir = root.join(target);
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join(name), bytes).unwrap();
}

fn main() {
    let samples = Path::new("../xiangqi-records/tests/data");
    let mut files: Vec<_> = fs::read_dir(samples)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    for path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e != "md"))
    {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let bytes = fs::read(path).unwrap();
        put("records_read", &name, &bytes);
        let Ok(loaded) = read(&bytes) else { continue };
        for (i, record) in loaded.records.iter().enumerate().take(3) {
            let stem = format!("{name}-{i}");
            let text = pgn::write_record(record, &pgn::WriteOptions::default());
            put("records_pgn", &format!("{stem}.pgn"), text.as_bytes());
            put("records_xqf", &format!("{stem}.xqf"), &xqf::write(record));
            put(
                "records_ubb",
                &format!("{stem}.txt"),
                ubb::write(record).as_bytes(),
            );
            put(
                "records_cbf",
                &format!("{stem}.cbf"),
                cbf::write(record).as_bytes(),
            );
            put(
                "records_read",
                &format!("{stem}.cbf"),
                cbf::write(record).as_bytes(),
            );
            put("records_read", &format!("{stem}.xqf"), &xqf::write(record));
        }
    }
    // CBR: no writer; its signature, so the reader's body is reached.
    let mut cbr = b"CCBridge Record\0".to_vec();
    cbr.resize(2300, 0);
    put("records_cbr", "signature", &cbr);

    let epd = fs::read_to_string("../xiangqi-core/tests/data/perft.epd").unwrap();
    for (i, line) in epd
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .enumerate()
    {
        let fen = line.split(';').next().unwrap().trim();
        put("fen", &format!("perft-{i}"), fen.as_bytes());
        put(
            "service_bodies",
            &format!("position-{i}"),
            format!("\x00{{\"fen\":\"{fen}\",\"moves\":[]}}").as_bytes(),
        );
    }
    for (i, text) in [
        "h2e2",
        "H2-E2",
        "C2.5",
        "C2=5",
        "炮二平五",
        "炮2平5",
        "前兵进一",
        "+P.1",
        "h9g7",
        "马８进７",
    ]
    .iter()
    .enumerate()
    {
        for which in 0..4u8 {
            let mut bytes = vec![which];
            bytes.extend_from_slice(text.as_bytes());
            put("notation", &format!("{i}-{which}"), &bytes);
        }
    }
    let sessions: [(&str, &str); 3] = [
        ("engine_uci", "uci\nsetoption name UCI_Variant value xiangqi\nisready\nucinewgame\nposition startpos moves h2e2 h9g7\ngo wtime 1000 btime 1000 winc 10 binc 10\nstop\nposition fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h3e3 h10g8\ngo depth 3 searchmoves h0g2\nquit\n"),
        ("engine_ucci", "ucci\nsetoption usemillisec true\nisready\nposition fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7\ngo time 1000 increment 10 opptime 1000\nbanmoves a0a1\nprobe startpos moves h2e2\nquit\n"),
        ("engine_cecp", "xboard\nprotover 2\nvariant xiangqi\nnew\nlevel 40 5 0\nst 1\nsd 8\nusermove h2e2\nh9g7\nsetboard rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\nundo\nremove\ngo\nforce\nquit\n"),
    ];
    for (target, text) in sessions {
        put(target, "session", text.as_bytes());
    }
    let bodies: [&[u8]; 4] = [
        br#"{"moves":["h2e2","h9g7"],"to":"chinese"}"#,
        br#"{"fen":"startpos","moves":["h2e2"],"tags":[["Red","A"]]}"#,
        br#"{"moves":["h2e2"],"level":"full","limits":{"movetime_ms":1000,"depth":5},"multipv":3}"#,
        br#"{"moves":[],"rules":"chinese"}"#,
    ];
    for (i, body) in bodies.iter().enumerate() {
        let mut bytes = vec![[1u8, 2, 3, 0][i]];
        bytes.extend_from_slice(body);
        put("service_bodies", &format!("body-{i}"), &bytes);
    }
}
