//! Tables generated into a temporary folder, checked against themselves (every position's
//! value is the best over its moves, by the core's rules), against FelicityEgtb's values,
//! against hand-worked positions, and read back from damaged files.

use std::path::Path;
use std::sync::OnceLock;
use xiangqi_core::Position;
use xiangqi_egtb::{
    generate_into, table_path, verify_table, Comparison, Dtm, FormatError, Material, TableData,
    Tablebase, Wdl,
};

/// One folder of small tables for the whole test binary.
fn tables() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let wanted: Vec<Material> = ["krkaa", "knka", "kckaa", "kpkaa", "krakab", "kcbkb"]
            .iter()
            .map(|n| n.parse().unwrap())
            .collect();
        generate_into(dir.path(), &wanted, false, &mut |_| {}).expect("generated");
        dir
    })
    .path()
}

fn tb() -> Tablebase {
    Tablebase::open(tables()).expect("opens")
}

fn dtm(fen: &str) -> Option<Dtm> {
    tb().probe_dtm(&Position::from_fen(fen).unwrap()).unwrap()
}

#[test]
fn every_position_is_the_best_over_its_moves() {
    let tb = tb();
    let mut checked = 0;
    for m in tb.materials() {
        let data = TableData::load(&table_path(tables(), m)).unwrap();
        let r = verify_table(&data, &tb, 1).unwrap();
        assert_eq!(r.mismatches, 0, "{}: {:?}", r.name, r.examples);
        assert!(r.checked > 1000, "{}: {} positions", r.name, r.checked);
        checked += r.checked;
    }
    assert!(checked > 1_000_000, "{checked}");
}

#[test]
fn agrees_with_felicity_egtb() {
    // Through `Comparison`, the code of `xiangqi-egtb compare`.
    let text = include_str!("data/felicity_sample.tsv");
    let tb = tb();
    let mut c = Comparison::new(5);
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        c.line(&tb, line).expect("a well-formed line");
    }
    assert_eq!(c.total, 6000);
    assert_eq!(c.disagreements(), 0, "{}", c.report("felicity_sample.tsv"));
}

#[test]
fn the_compare_command_finds_a_planted_difference() {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("dump.tsv");
    let mut text: String = include_str!("data/felicity_sample.tsv")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(50)
        .map(|l| format!("{l}\n"))
        .collect();
    let run = |dump: &Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_xiangqi-egtb"))
            .args(["compare", "--dir"])
            .arg(tables())
            .arg(dump)
            .output()
            .expect("the command runs")
    };
    std::fs::write(&dump, &text).unwrap();
    let out = run(&dump);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{report}");
    assert!(report.contains("50 positions, 50 agree"), "{report}");
    // A mate in 1 said to be a mate in 3, and a drawn position said to be won.
    text.push_str("3k5/9/9/9/R8/9/9/9/9/4K4 w - - 0 1\twin 3\n");
    text.push_str("3k5/9/9/9/9/9/9/4r4/4K4/9 w - - 0 1\tloss 4\n");
    std::fs::write(&dump, &text).unwrap();
    let out = run(&dump);
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(
        report.contains("52 positions, 50 agree; a: 0, b: 1, c: 0, d: 1"),
        "{report}"
    );
    assert!(
        report.contains("3k5/9/9/9/R8/9/9/9/9/4K4 w - - 0 1: theirs win 3, ours win 1"),
        "{report}"
    );
    // A line without a value is an error (exit 2) that names the line.
    std::fs::write(&dump, "3k5/9/9/9/R8/9/9/9/9/4K4 w - - 0 1\n").unwrap();
    let out = run(&dump);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1"));
}

#[test]
fn hand_worked_positions() {
    // The chariot mates on file d: the general cannot step to file e (the red general
    // watches it) and the d-file is covered.
    assert_eq!(dtm("3k5/9/9/9/R8/9/9/9/9/4K4 w - - 0 1"), Some(Dtm::Win(1)));
    assert_eq!(
        dtm("3k5/9/9/9/3R5/9/9/9/9/4K4 b - - 0 1"),
        Some(Dtm::Loss(0))
    );
    // Stalemate loses in xiangqi: Rd9 leaves the black general no move and no check.
    assert_eq!(
        dtm("3R5/9/4k4/9/9/9/9/9/9/5K3 w - - 0 1"),
        Some(Dtm::Win(1))
    );
    // The advisor takes the chariot: nothing can attack any more.
    assert_eq!(
        dtm("4k4/4a4/3R5/9/9/9/9/9/9/3K5 b - - 0 1"),
        Some(Dtm::Draw)
    );
    // Without attackers on either side: a draw by the rules, no table needed.
    assert_eq!(dtm("4k4/4a4/9/9/9/9/9/9/9/3K5 w - - 0 1"), Some(Dtm::Draw));
    // A material without a table here.
    assert_eq!(dtm("4k4/9/9/9/9/9/9/9/9/R2K4R w - - 0 1"), None);
}

#[test]
fn the_best_move_mates_in_the_distance_said() {
    let tb = tb();
    let m: Material = "knka".parse().unwrap();
    for seed in 0..40 {
        let pos = tb
            .random_position(m, |d| matches!(d, Dtm::Win(n) if n >= 5), seed)
            .unwrap()
            .expect("knka has long wins");
        let Some(Dtm::Win(n)) = tb.probe_dtm(&pos).unwrap() else {
            panic!("not a win")
        };
        // Play the table's moves for both sides: the game ends in mate after n plies.
        let mut p = pos.clone();
        for ply in 0..n {
            let moves = tb.probe_moves(&p).unwrap().unwrap();
            let here = tb.probe_dtm(&p).unwrap().unwrap();
            assert_eq!(moves[0].value, Some(here), "{}", p.fen());
            for mv in &moves {
                let mut after = p.clone();
                after.make_move(mv.mv);
                assert_eq!(mv.value, tb.probe_dtm(&after).unwrap().map(Dtm::before));
            }
            p.make_move(moves[0].mv);
            assert_eq!(
                tb.probe_dtm(&p).unwrap().unwrap().plies(),
                Some(n - ply - 1)
            );
        }
        assert!(p.legal_moves().is_empty(), "{} after {n} plies", p.fen());
    }
}

#[test]
fn colours_and_mirror_give_the_same_answer() {
    let tb = tb();
    for name in ["krkaa", "kpkaa", "kcbkb", "krakab"] {
        let m: Material = name.parse().unwrap();
        for seed in 0..200 {
            let Some(pos) = tb.random_position(m, |_| true, seed).unwrap() else {
                continue;
            };
            let v = tb.probe_dtm(&pos).unwrap();
            assert!(v.is_some());
            assert_eq!(
                tb.probe_dtm(&pos.swap_colors()).unwrap(),
                v,
                "{}",
                pos.fen()
            );
            assert_eq!(
                tb.probe_dtm(&pos.flip_horizontal()).unwrap(),
                v,
                "{}",
                pos.fen()
            );
            assert_eq!(tb.probe_wdl(&pos).unwrap(), v.map(|d| d.wdl()));
        }
    }
    assert_eq!(Wdl::Win.flip(), Wdl::Loss);
}

/// A copy of one table in a folder of its own, to damage.
fn copy_of(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let m: Material = name.parse().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let to = table_path(dir.path(), m);
    std::fs::copy(table_path(tables(), m), &to).unwrap();
    (dir, to)
}

#[test]
fn damaged_files_give_typed_errors_never_wrong_answers() {
    let pos = Position::from_fen("3k5/9/9/9/R8/9/9/9/9/4K4 w - - 0 1").unwrap();
    let (dir, path) = copy_of("krk");
    let good = std::fs::read(&path).unwrap();

    // A byte flipped in the last block (black to move's only block: krk has fewer than
    // 65,536 positions a side): the header opens; a probe of red to move still answers,
    // one of black to move says the block is damaged.
    let mut bad = good.clone();
    let last = bad.len() - 3;
    bad[last] ^= 0x40;
    std::fs::write(&path, &bad).unwrap();
    let tb = Tablebase::open(dir.path()).unwrap();
    assert_eq!(tb.probe_dtm(&pos).unwrap(), Some(Dtm::Win(1)));
    let black = Position::from_fen("3k5/9/9/9/3R5/9/9/9/9/4K4 b - - 0 1").unwrap();
    match tb.probe_dtm(&black) {
        Err(FormatError::Corrupt { what, .. }) => assert!(what.contains("checksum"), "{what}"),
        other => panic!("{other:?}"),
    }

    // Truncated, a header byte changed, another magic, another version: refused at open.
    let cases: [(&str, Vec<u8>); 4] = [
        ("truncated", good[..good.len() - 10].to_vec()),
        ("checksum", {
            let mut b = good.clone();
            b[50] ^= 1;
            b
        }),
        ("magic", {
            let mut b = good.clone();
            b[0] = b'Y';
            b
        }),
        ("version", {
            let mut b = good.clone();
            b[8] = 9;
            b
        }),
    ];
    for (what, bytes) in cases {
        std::fs::write(&path, &bytes).unwrap();
        let e = Tablebase::open(dir.path()).expect_err(what);
        assert!(matches!(e, FormatError::Corrupt { .. }), "{what}: {e}");
        assert!(e.to_string().contains("krk.xqtb"), "{e}");
    }
    // Empty file.
    std::fs::write(&path, b"").unwrap();
    assert!(Tablebase::open(dir.path()).is_err());
    // Restored, it answers again.
    std::fs::write(&path, &good).unwrap();
    let tb = Tablebase::open(dir.path()).unwrap();
    assert_eq!(tb.probe_dtm(&pos).unwrap(), Some(Dtm::Win(1)));
    // A folder that does not exist.
    assert!(matches!(
        Tablebase::open(dir.path().join("nowhere")),
        Err(FormatError::Io { .. })
    ));
}

#[test]
fn stats_are_written_beside_each_table() {
    let text = std::fs::read_to_string(
        table_path(tables(), "knka".parse().unwrap()).with_extension("json"),
    )
    .unwrap();
    let s: xiangqi_egtb::TableStats = serde_json::from_str(&text).unwrap();
    assert_eq!(s.name, "knka");
    assert_eq!(s.chinese, "马对单士");
    // FelicityEgtb's knka: the longest mate is 38 plies.
    assert_eq!(s.red.longest.max(s.black.longest), 38);
    for (side, stats) in [("red", &s.red), ("black", &s.black)] {
        let fen = stats.longest_fen.as_ref().unwrap();
        let v = tb()
            .probe_dtm(&Position::from_fen(fen).unwrap())
            .unwrap()
            .unwrap();
        assert_eq!(v.plies(), Some(stats.longest), "{side}: {fen}");
    }
    assert!(s.red.wins > 0 && s.red.draws > 0 && s.black.losses > 0);
}
