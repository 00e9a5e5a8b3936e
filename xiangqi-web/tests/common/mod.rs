//! Starting a real server on an ephemeral port for the tests.

#![allow(dead_code)]

use std::net::SocketAddr;
use xiangqi_web::Config;

/// A test configuration: small tables, two engines.
pub fn config() -> Config {
    Config {
        searches: 2,
        hash_mb: 4,
        ..Config::default()
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
