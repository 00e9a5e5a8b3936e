//! Starting a real server on an ephemeral port for the tests.

#![allow(dead_code)]

use std::net::SocketAddr;
use xiangqi_web::Config;

/// A test configuration: small tables, two engines, no endgame tables (nothing generated
/// into the user's cache folder).
pub fn config() -> Config {
    Config {
        searches: 2,
        hash_mb: 4,
        no_egtb: true,
        ..Config::default()
    }
}

/// A folder of small endgame tables for the tests, generated afresh once per test binary
/// (well under a second each) under `target/tmp`: 车对单士 (krka), 马对单士 (knka), 卒对双士
/// (kpkaa), with the tables their captures lead into.
pub fn egtb_dir() -> std::path::PathBuf {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("xiangqi-web-egtb-{}", env!("CARGO_CRATE_NAME")));
        // Tables of an earlier run may be of an older format: start afresh.
        let _ = std::fs::remove_dir_all(&dir);
        let wanted: Vec<xiangqi_egtb::Material> = ["krka", "knka", "kpkaa"]
            .iter()
            .map(|m| m.parse().expect("an ending"))
            .collect();
        xiangqi_egtb::generate_into(&dir, &wanted, false, &mut |_| {})
            .expect("the test tables are generated");
        dir
    })
    .clone()
}

/// A folder with the table of 车对马 (krkn), where both sides have an attacking piece and
/// values can be by the perpetual-check rule, and the tables it needs (krk, knk), generated
/// afresh once per test binary under `target/tmp` (under a second).
pub fn rule_egtb_dir() -> std::path::PathBuf {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "xiangqi-web-egtb-rule-{}",
            env!("CARGO_CRATE_NAME")
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let wanted = ["krkn".parse().expect("an ending")];
        xiangqi_egtb::generate_into(&dir, &wanted, false, &mut |_| {})
            .expect("the test tables are generated");
        dir
    })
    .clone()
}

/// The test configuration with the tables of [`rule_egtb_dir`], opened as they are.
pub fn rule_egtb_config() -> Config {
    Config {
        no_egtb: false,
        egtb_dir: Some(rule_egtb_dir()),
        no_egtb_generate: true,
        ..config()
    }
}

/// The test configuration with the tables of [`egtb_dir`], opened as they are.
pub fn egtb_config() -> Config {
    Config {
        no_egtb: false,
        egtb_dir: Some(egtb_dir()),
        no_egtb_generate: true,
        ..config()
    }
}

/// Starts `config`'s server on 127.0.0.1 on a free port, on a runtime of its own thread,
/// and returns its base URL (`http://127.0.0.1:PORT`).
pub fn start(config: Config) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("a port");
            let addr: SocketAddr = listener.local_addr().expect("its address");
            tx.send(addr).expect("the test waits");
            xiangqi_web::serve(listener, config)
                .await
                .expect("the server runs");
        });
    });
    let addr = rx.recv().expect("the server starts");
    format!("http://{addr}")
}
