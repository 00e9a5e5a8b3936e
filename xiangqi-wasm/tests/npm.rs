//! The npm package built and tested as a user installs it: `build.sh` (the crate for
//! wasm32-unknown-unknown, wasm-bindgen, `npm pack`), then `test/run.sh` (the tarball
//! installed into a scratch folder, Node's test runner over it). Skipped, with a line saying
//! what to install, where the WebAssembly toolchain, wasm-bindgen or Node is missing; under
//! CI that is a failure.

use std::path::{Path, PathBuf};
use std::process::Command;

fn on_path(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn wasm_toolchain() -> bool {
    let rustup = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("wasm32-unknown-unknown"));
    rustup
        || (Path::new("/usr/bin/cargo").exists()
            && Path::new("/usr/lib/rustlib/src/rust/library").exists())
}

#[test]
fn the_npm_package_in_node() {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let bindgen = std::env::var("WASM_BINDGEN").unwrap_or_else(|_| "wasm-bindgen".into());
    let mut missing = Vec::new();
    if !wasm_toolchain() {
        missing.push("a wasm32-unknown-unknown toolchain");
    }
    if !on_path(&bindgen) {
        missing.push("wasm-bindgen");
    }
    if !on_path("node") || !on_path("npm") {
        missing.push("node and npm");
    }
    if !missing.is_empty() {
        xiangqi_test_support::skip(
            "the npm package test",
            &missing.join(", "),
            "rustup target add wasm32-unknown-unknown (or Debian: apt-get install rustc-web \
             cargo-web rust-web-src rust-web-llvm lld-22), cargo install wasm-bindgen-cli \
             --version =0.2.130, and Node.js with npm",
        );
        return;
    }
    for script in ["build.sh", "test/run.sh"] {
        let out = Command::new("bash")
            .arg(here.join(script))
            .output()
            .unwrap_or_else(|e| panic!("{script}: {e}"));
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success(), "{script} failed:\n{text}");
        if script == "test/run.sh" {
            assert!(
                text.contains("# fail 0") && !text.contains("# pass 0"),
                "{text}"
            );
        }
    }
}
