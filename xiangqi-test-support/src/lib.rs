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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_the_test_what_is_missing_and_how_to_get_it() {
        let line = skip_line("t", "X", "apt-get install x");
        assert_eq!(line, "SKIPPED t: it needs X. apt-get install x");
    }
}
