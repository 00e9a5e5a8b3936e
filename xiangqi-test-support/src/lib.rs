//! Helpers shared by the workspace's tests.
//!
//! A test that needs a component from outside Rust (Chromium, XBoard, a Python
//! environment) and does not find it must not pass in silence. [`skip`] says so where the
//! person running `cargo test` looks: the test harness captures `print!` and `eprint!` of a
//! passing test and shows nothing, so the line is written to the process's standard error
//! directly, past the capture. Under CI (the `CI` variable set) a missing component is a
//! failure, never a skip: CI installs everything its tests need.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

use std::io::Write;

/// What [`skip`] decided.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// The test is skipped; the line naming what to install has been written.
    Skipped,
}

/// The line [`skip`] writes.
pub fn skip_line(test: &str, missing: &str, how: &str) -> String {
    format!("SKIPPED {test}: it needs {missing}. {how}")
}

/// Skips `test` for lack of `missing` (what is not there), telling the reader `how` to
/// get it; under CI, panics instead (a test CI should run must not be skipped there).
///
/// ```should_panic
/// // With CI set this fails the test:
/// std::env::set_var("CI", "1");
/// xiangqi_test_support::skip("the_board", "Chromium", "apt-get install chromium");
/// ```
pub fn skip(test: &str, missing: &str, how: &str) -> Skip {
    let line = skip_line(test, missing, how);
    if std::env::var_os("CI").is_some() {
        panic!("CI is set, and {line}");
    }
    // Straight to the file descriptor: `eprintln!` would go into the harness's capture.
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "\n{line}");
    let _ = err.flush();
    Skip::Skipped
}

/// What is missing here to build the WebAssembly package (`xiangqi-wasm/build.sh`): a
/// toolchain for `wasm32-unknown-unknown` (rustup's target, or Debian's `rustc-web` with the
/// standard library's source), the `wasm-bindgen` command (`WASM_BINDGEN` or on `PATH`),
/// Node.js and npm. Empty when all are there.
pub fn wasm_build_missing() -> Vec<&'static str> {
    use std::path::Path;
    use std::process::Command;
    let runs = |program: &str| {
        Command::new(program)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let rustup = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("wasm32-unknown-unknown"));
    let debian = Path::new("/usr/bin/cargo").exists()
        && Path::new("/usr/lib/rustlib/src/rust/library").exists();
    let bindgen = std::env::var("WASM_BINDGEN").unwrap_or_else(|_| "wasm-bindgen".into());
    let mut missing = Vec::new();
    if !rustup && !debian {
        missing.push("a wasm32-unknown-unknown toolchain");
    }
    if !runs(&bindgen) {
        missing.push("wasm-bindgen");
    }
    if !runs("node") || !runs("npm") {
        missing.push("node and npm");
    }
    missing
}

/// How to get what [`wasm_build_missing`] names.
pub const WASM_BUILD_HOW: &str = "rustup target add wasm32-unknown-unknown (or Debian: \
    apt-get install rustc-web cargo-web rust-web-src rust-web-llvm lld-22), cargo install \
    wasm-bindgen-cli --version =0.2.130, and Node.js with npm";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_the_test_what_is_missing_and_how_to_get_it() {
        let line = skip_line("t", "X", "apt-get install x");
        assert_eq!(line, "SKIPPED t: it needs X. apt-get install x");
    }
}
