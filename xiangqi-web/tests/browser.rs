//! The page in a real browser: headless Chromium driven by `playwright-core` (the script is
//! `e2e/board.test.mjs`) against a server started here. It needs `node`, Chromium
//! (`/usr/bin/chromium`, or the path in `CHROMIUM`) and `npm ci --prefix xiangqi-web/e2e`.
//! Without them the test says what to install and skips, unless `CI` is set: then it fails.
//!
//! Screenshots go to `target/xiangqi-web-screenshots/`, or to the folder in
//! `XIANGQI_WEB_SCREENSHOTS` (`xiangqi-web/screenshots` refreshes the committed ones).

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(p)).filter(|p| p.exists());
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

fn node_works() -> bool {
    Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// What is missing to run the browser test, if anything.
fn missing(e2e: &Path) -> Vec<&'static str> {
    let mut missing = Vec::new();
    if !node_works() {
        missing.push("node (Debian: apt-get install nodejs npm)");
    }
    if chromium().is_none() {
        missing.push("Chromium (Debian: apt-get install chromium; or set CHROMIUM)");
    }
    if !e2e.join("node_modules/playwright-core").exists() {
        missing.push("playwright-core (npm ci --prefix xiangqi-web/e2e)");
    }
    missing
}

#[test]
fn the_board_in_a_real_browser() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let e2e = root.join("e2e");
    let missing = missing(&e2e);
    if !missing.is_empty() {
        xiangqi_test_support::skip(
            "the_board_in_a_real_browser",
            &missing.join(", "),
            "Install them, then run `cargo test -p xiangqi-web --test browser`.",
        );
        return;
    }
    let shots = std::env::var_os("XIANGQI_WEB_SCREENSHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../target/xiangqi-web-screenshots"));
    std::fs::create_dir_all(&shots).expect("a screenshot folder");
    // With small endgame tables (车对单士, 马对单士, 卒对双士) for the table's panel and the trainer.
    let base = common::start(common::egtb_config());
    let mut child = Command::new("node")
        .arg(e2e.join("board.test.mjs"))
        .env("XQ_URL", format!("{base}/"))
        .env("XQ_SCREENSHOTS", &shots)
        .env(
            "XQ_PGN",
            root.join("tests/data/pgn_utf8_chinese_multigame_noresult.pgn"),
        )
        .env("XQ_UBB", root.join("tests/data/dhtmlxq_ubb_variations.txt"))
        .env("CHROMIUM", chromium().expect("checked above"))
        // Its report (a few kilobytes, well within a pipe's buffer) is shown through the
        // test harness: on failure, or with --nocapture.
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node starts");
    let began = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            break status;
        }
        if began.elapsed() > Duration::from_secs(240) {
            let _ = child.kill();
            panic!("the browser test ran over 240 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut report = String::new();
    if let Some(mut out) = child.stdout.take() {
        let _ = out.read_to_string(&mut report);
    }
    if let Some(mut err) = child.stderr.take() {
        let _ = err.read_to_string(&mut report);
    }
    println!("{report}");
    assert!(
        status.success(),
        "the browser test failed ({status}):\n{report}"
    );
    println!("screenshots in {}", shots.display());
}
