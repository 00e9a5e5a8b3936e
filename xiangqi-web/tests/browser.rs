//! The page in a real browser: headless Chromium driven by `playwright-core` (the script is
//! `e2e/board.test.mjs`), once against a server started here and once over the static site
//! (`export.sh`, the page with the library as WebAssembly) served by a plain static file
//! server, Python's `http.server`, which sends no special headers. It needs `node`, Chromium
//! (`/usr/bin/chromium`, or the path in `CHROMIUM`) and `npm ci --prefix xiangqi-web/e2e`; the
//! static site also needs what `xiangqi-wasm/build.sh` needs and `python3`. Without them a
//! test says what to install and skips, unless `CI` is set: then it fails.
//!
//! Screenshots go to `target/xiangqi-web-screenshots/` (the static site's to `static/` in
//! it), or to the folder in `XIANGQI_WEB_SCREENSHOTS` (`xiangqi-web/screenshots` refreshes the
//! committed ones).

mod common;

use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One browser at a time: the two tests share two cores with the searches they watch.
static BROWSER: Mutex<()> = Mutex::new(());

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

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn screenshots() -> PathBuf {
    std::env::var_os("XIANGQI_WEB_SCREENSHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../target/xiangqi-web-screenshots"))
}

/// Runs the browser scripts (`e2e/board.test.mjs`, then `e2e/features.test.mjs`: review,
/// arrows, editor, lines, themes and sound, a phone) on the page at `url`, their screenshots
/// into `shots`; panics with a script's report if it fails.
fn run_board_test(url: &str, shots: &Path, static_site: bool) {
    for script in ["board.test.mjs", "features.test.mjs"] {
        run_script(script, url, shots, static_site);
    }
}

fn run_script(script: &str, url: &str, shots: &Path, static_site: bool) {
    std::fs::create_dir_all(shots).expect("a screenshot folder");
    let root = root();
    let mut child = Command::new("node")
        .arg(root.join("e2e").join(script))
        .env("XQ_URL", url)
        .env("XQ_STATIC", if static_site { "1" } else { "0" })
        .env("XQ_SCREENSHOTS", shots)
        .env(
            "XQ_PGN",
            root.join("tests/data/pgn_utf8_chinese_multigame_noresult.pgn"),
        )
        .env("XQ_UBB", root.join("tests/data/dhtmlxq_ubb_variations.txt"))
        .env("CHROMIUM", chromium().expect("checked before"))
        // Its report (a few kilobytes, well within a pipe's buffer) is shown through the
        // test harness: on failure, or with --nocapture.
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node starts");
    let status = wait(&mut child, Duration::from_secs(300), script);
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
        "the browser test {script} failed ({status}):\n{report}"
    );
    println!("screenshots in {}", shots.display());
}

fn wait(child: &mut Child, limit: Duration, what: &str) -> std::process::ExitStatus {
    let began = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            return status;
        }
        if began.elapsed() > limit {
            let _ = child.kill();
            panic!("{what} ran over {} s", limit.as_secs());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A child process killed when the test ends, passed or not.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_board_in_a_real_browser() {
    let missing = missing(&root().join("e2e"));
    if !missing.is_empty() {
        xiangqi_test_support::skip(
            "the_board_in_a_real_browser",
            &missing.join(", "),
            "Install them, then run `cargo test -p xiangqi-web --test browser`.",
        );
        return;
    }
    let _one = BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    // With small endgame tables (车对单士, 马对单士, 卒对双士) for the table's panel and the trainer.
    let base = common::start(common::egtb_config());
    run_board_test(&format!("{base}/"), &screenshots(), false);
}

#[test]
fn the_static_site_in_a_real_browser() {
    let mut missing = missing(&root().join("e2e"));
    missing.extend(xiangqi_test_support::wasm_build_missing());
    let python = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !python {
        missing.push("python3 (its http.server serves the site)");
    }
    if !missing.is_empty() {
        xiangqi_test_support::skip(
            "the_static_site_in_a_real_browser",
            &missing.join(", "),
            &format!(
                "{}; then run `cargo test -p xiangqi-web --test browser`.",
                xiangqi_test_support::WASM_BUILD_HOW
            ),
        );
        return;
    }
    let _one = BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let site = root().join("../target/xiangqi-web-static-site");
    let export = Command::new("bash")
        .arg(root().join("export.sh"))
        .arg(&site)
        .output()
        .expect("bash runs export.sh");
    assert!(
        export.status.success(),
        "export.sh failed:\n{}{}",
        String::from_utf8_lossy(&export.stdout),
        String::from_utf8_lossy(&export.stderr)
    );
    println!("{}", String::from_utf8_lossy(&export.stdout));
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let server = KillOnDrop(
        Command::new("python3")
            .args(["-m", "http.server", "--bind", "127.0.0.1"])
            .arg(port.to_string())
            .arg("--directory")
            .arg(&site)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 starts"),
    );
    let url = format!("http://127.0.0.1:{port}/");
    let began = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            began.elapsed() < Duration::from_secs(20),
            "the static file server did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    run_board_test(&url, &screenshots().join("static"), true);
    drop(server);
}
