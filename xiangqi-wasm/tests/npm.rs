//! The npm package built and tested as a user installs it: `build.sh` (the crate for
//! wasm32-unknown-unknown, wasm-bindgen, `npm pack`), then `test/run.sh` (the tarball
//! installed into a scratch folder, Node's test runner over it). Skipped, with a line saying
//! what to install, where the WebAssembly toolchain, wasm-bindgen or Node is missing; under
//! CI that is a failure.

use std::path::PathBuf;
use std::process::Command;

#[test]
fn the_npm_package_in_node() {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let missing = xiangqi_test_support::wasm_build_missing();
    if !missing.is_empty() {
        xiangqi_test_support::skip(
            "the npm package test",
            &missing.join(", "),
            xiangqi_test_support::WASM_BUILD_HOW,
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
            // Node's report, shown on failure or with --nocapture.
            println!("{text}");
            assert!(
                text.contains("# fail 0") && !text.contains("# pass 0"),
                "{text}"
            );
        }
    }
}
