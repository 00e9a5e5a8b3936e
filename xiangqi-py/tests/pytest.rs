//! The Python suite (`tests/test_*.py`) from `cargo test`.
//!
//! Which interpreter runs it:
//! - `XIANGQI_PY_PYTHON`, when set: an interpreter that already has the `xiangqi_rs` module
//!   (a wheel built from this tree, as CI installs it) and the test packages; it is run as is.
//! - otherwise the virtual environment `target/py-venv` of the workspace: the module is
//!   rebuilt into it from this tree (`maturin develop --release`), then pytest runs.
//!
//! With neither, the test fails when `CI` is set, and otherwise passes saying what to
//! install. pytest's own output goes straight to the terminal, its summary line included.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The packages the suite imports, besides `xiangqi_rs` itself.
const TEST_PACKAGES: &str = "pytest hypothesis pyffish cchess numpy";

/// Writes past libtest's capture of `print!`, so a skip is seen by whoever runs the test.
fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Can `python` import every test package (and `xiangqi_rs`, when `with_module`)?
fn has_packages(python: &Path, with_module: bool) -> bool {
    let mut modules: Vec<&str> = TEST_PACKAGES.split(' ').collect();
    if with_module {
        modules.push("xiangqi_rs");
    }
    Command::new(python)
        .args(["-c", &format!("import {}", modules.join(", "))])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The interpreter to run the suite with, after building the module into the workspace's
/// virtual environment when that is the one; `Err` says what is missing.
fn interpreter() -> Result<PathBuf, String> {
    if let Some(python) = std::env::var_os("XIANGQI_PY_PYTHON") {
        let python = PathBuf::from(python);
        return if has_packages(&python, true) {
            Ok(python)
        } else {
            Err(format!(
                "XIANGQI_PY_PYTHON={} cannot import xiangqi_rs and {TEST_PACKAGES}",
                python.display()
            ))
        };
    }
    let venv = crate_dir().join("../target/py-venv");
    let python = venv.join("bin/python");
    let maturin = venv.join("bin/maturin");
    if !python.exists() || !maturin.exists() || !has_packages(&python, false) {
        return Err(format!(
            "no virtual environment with maturin and the test packages at {}",
            venv.display()
        ));
    }
    let status = Command::new(&maturin)
        .args(["develop", "--release", "--quiet"])
        .current_dir(crate_dir())
        .env("VIRTUAL_ENV", &venv)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", maturin.display()))?;
    assert!(status.success(), "maturin develop failed ({status})");
    Ok(python)
}

#[test]
fn python_suite() {
    let python = match interpreter() {
        Ok(python) => python,
        Err(missing) => {
            xiangqi_test_support::skip(
                "the xiangqi-py Python suite",
                &missing,
                &format!(
                    "To run it: python3 -m venv target/py-venv && \
                     target/py-venv/bin/pip install maturin {TEST_PACKAGES}"
                ),
            );
            return;
        }
    };
    let status = Command::new(&python)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"])
        .current_dir(crate_dir())
        .status()
        .expect("pytest starts");
    match status.code() {
        Some(0) => {}
        Some(5) => panic!("pytest collected no tests in {}", crate_dir().display()),
        _ => panic!("the Python suite failed ({status})"),
    }
}
