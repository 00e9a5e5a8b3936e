//! Cross-check with cchess (PyPI), an independent implementation: every sample file it can
//! read has the same main line and number of lines here. Needs the virtual environment
//! `tools/.venv-records` with cchess installed (`.ci/run` makes it), or `CCHESS_PYTHON`
//! naming a Python that has cchess; runs for real when `CI` is set, and is skipped with a
//! message otherwise.

use std::path::{Path, PathBuf};
use std::process::Command;

fn python() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let candidate = std::env::var_os("CCHESS_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("tools/.venv-records/bin/python"));
    let ok = Command::new(&candidate)
        .args(["-c", "import cchess"])
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then_some(candidate)
}

#[test]
fn samples_agree_with_cchess() {
    let Some(python) = python() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but cchess is missing: python3 -m venv tools/.venv-records && \
             tools/.venv-records/bin/pip install cchess==1.25.5"
        );
        eprintln!(
            "skipped: cchess not installed (python3 -m venv tools/.venv-records && \
             tools/.venv-records/bin/pip install cchess==1.25.5)"
        );
        return;
    };
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e != "md"))
        .collect();
    files.sort();
    // XQF and DhtmlXQ written here from a PGN with side lines: cchess reads XQF trees.
    let tmp = std::env::temp_dir().join(format!("xiangqi-records-cchess-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let text = "1. 炮二平五 马８进７ (1... 炮８平５ 2. 马二进三 (2. 车一进一) 2... 马８进７) \
                (1... 马２进３) 2. 马二进三 车９平８ *";
    let tree = &xiangqi_records::read(text.as_bytes()).unwrap().records[0];
    let written = tmp.join("variations.xqf");
    std::fs::write(&written, xiangqi_records::xqf::write(tree)).unwrap();
    files.push(written);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/records_vs_cchess.py");
    let out = Command::new(&python)
        .arg(&script)
        .arg("--dump")
        .args(&files)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut compared = 0;
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let f: Vec<&str> = line.splitn(4, '\t').collect();
        if f[1] == "unreadable" {
            eprintln!("cchess cannot read {}: {}", f[0], f[2]);
            continue;
        }
        let game: usize = f[1].parse().unwrap();
        let lines: usize = f[2].parse().unwrap();
        let loaded = xiangqi_records::read(&std::fs::read(f[0]).unwrap()).unwrap();
        let i = loaded.games.iter().position(|&g| g + 1 == game).unwrap();
        let r = &loaded.records[i];
        let main: Vec<String> = r
            .tree
            .main_line_moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(
            main.join(" "),
            f.get(3).copied().unwrap_or(""),
            "{} game {game}",
            f[0]
        );
        assert_eq!(r.tree.leaf_count(), lines, "{} game {game}", f[0]);
        compared += 1;
    }
    std::fs::remove_dir_all(&tmp).ok();
    // The UTF-8 Chinese PGN, the XQF sample and the written XQF at least.
    assert!(compared >= 3, "only {compared} games compared");
}
