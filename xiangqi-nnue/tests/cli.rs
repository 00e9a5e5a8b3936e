//! The `xiangqi-nnue` command's measuring tools run as a user runs them: `info` on a net of
//! each format, a damaged file refused with the reason, and `budget` on a small data file.

use std::path::PathBuf;
use std::process::Command;
use xiangqi_core::{Position, START_FEN};
use xiangqi_nnue::data::{DataWriter, Outcome, Sample, Source};
use xiangqi_nnue::layered::Shape;
use xiangqi_nnue::LayeredNet;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("xq-nnue-cli-{}-{name}", std::process::id()))
}

fn run(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi-nnue"))
        .args(args)
        .output()
        .expect("the command runs");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

/// `info` reads the embedded net, a layered net (with pairwise products) and refuses a
/// file that is not a net, naming it.
#[test]
fn info_reads_every_format() {
    let (ok, text) = run(&["info", "embedded"]);
    assert!(ok && text.contains("a valid net"), "{text}");
    let shape = Shape {
        width: 64,
        hidden1: 8,
        hidden2: 4,
        pairwise: true,
        ..Shape::default()
    };
    let net = temp("layered.nnue");
    std::fs::write(&net, LayeredNet::random(shape, 3).unwrap().to_bytes()).unwrap();
    let (ok, text) = run(&["info", net.to_str().unwrap()]);
    assert!(ok, "{text}");
    assert!(text.contains("a valid layered net"), "{text}");
    assert!(text.contains("pairwise: true"), "{text}");
    assert!(text.contains(START_FEN), "{text}");
    let bad = temp("bad.nnue");
    std::fs::write(&bad, b"not a net at all").unwrap();
    let (ok, text) = run(&["info", bad.to_str().unwrap()]);
    assert!(!ok && text.contains("bad.nnue"), "{text}");
    for f in [net, bad] {
        let _ = std::fs::remove_file(f);
    }
}

/// `budget` prints one row per budget, each with its distance, sign agreement and time.
#[test]
fn budget_prints_a_row_per_budget() {
    let data = temp("budget.bin");
    let mut w = DataWriter::create(&data).unwrap();
    let fens = [
        START_FEN,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
        "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1",
    ];
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap();
        w.write(&Sample::new(&pos, 0, Outcome::Draw, Source::SelfPlay, 0))
            .unwrap();
    }
    w.finish().unwrap();
    let (ok, text) = run(&[
        "budget",
        "--data",
        data.to_str().unwrap(),
        "--count",
        "3",
        "--nodes",
        "200,400",
        "--reference",
        "2000",
    ]);
    assert!(ok, "{text}");
    assert!(text.contains("3 positions"), "{text}");
    for budget in ["200", "400"] {
        let row = text
            .lines()
            .find(|l| l.split('\t').next() == Some(budget))
            .unwrap_or_else(|| panic!("no row for {budget}: {text}"));
        assert_eq!(row.split('\t').count(), 4, "{row}");
    }
    let _ = std::fs::remove_file(data);
}
