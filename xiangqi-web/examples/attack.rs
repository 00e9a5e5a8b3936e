//! The web service under attack, on loopback: starts the release server (`--server PATH`,
//! default `target/release/xiangqi-web`) and runs one scenario after another while a prober
//! asks `/healthz` on a fresh connection every 100 ms and the server's memory is read every
//! 100 ms. Each scenario's row: what it did, how the server answered, `/healthz` latency
//! (median, 99th percentile, worst; a probe unanswered in 5 s is a failure), peak RSS, and
//! whether everything was back to idle afterwards (no search running or waiting, no stream
//! open, within 5 s). With `--soak SECONDS` it then runs a mixed load for that long and
//! prints RSS and `/healthz` latency each minute.
//!
//! ```text
//! cargo build --release -p xiangqi-web
//! cargo run --release -p xiangqi-web --example attack -- [--secs 20] [--soak 3600]
//! ```

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// The defaults a public deployment runs with (README, "Limits and safety").
const MAX_BODY: usize = 1_048_576;
const HEADER_TIMEOUT_MS: u64 = 10_000;

struct Watch {
    latencies_ms: Mutex<Vec<f64>>,
    failures: AtomicU64,
    peak_rss_kb: AtomicU64,
    stop: AtomicBool,
}

impl Watch {
    fn new() -> Arc<Watch> {
        Arc::new(Watch {
            latencies_ms: Mutex::new(Vec::new()),
            failures: AtomicU64::new(0),
            peak_rss_kb: AtomicU64::new(0),
            stop: AtomicBool::new(false),
        })
    }

    /// Median, 99th percentile and worst latency in ms, and failures.
    fn summary(&self) -> (f64, f64, f64, u64) {
        let mut v = self.latencies_ms.lock().unwrap().clone();
        v.sort_by(f64::total_cmp);
        let at = |q: f64| {
            if v.is_empty() {
                f64::NAN
            } else {
                v[((v.len() - 1) as f64 * q).round() as usize]
            }
        };
        (
            at(0.5),
            at(0.99),
            at(1.0),
            self.failures.load(Ordering::Relaxed),
        )
    }
}

fn rss_kb(pid: u32) -> u64 {
    status_field(pid, "VmRSS:")
}

fn threads(pid: u32) -> u64 {
    status_field(pid, "Threads:")
}

fn status_field(pid: u32, name: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

/// One request on a fresh connection; the status and the body.
async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &[u8],
) -> std::io::Result<(u16, String)> {
    let mut s = TcpStream::connect(addr).await?;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: attack\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).await?;
    s.write_all(body).await?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).await?;
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    Ok((status, body))
}

/// The prober and the memory reader, until `watch.stop`.
fn start_watch(addr: SocketAddr, pid: u32, watch: Arc<Watch>) {
    let w = watch.clone();
    tokio::spawn(async move {
        while !w.stop.load(Ordering::Relaxed) {
            let t = Instant::now();
            match tokio::time::timeout(
                Duration::from_secs(5),
                request(addr, "GET", "/healthz", b""),
            )
            .await
            {
                Ok(Ok((200, _))) => w
                    .latencies_ms
                    .lock()
                    .unwrap()
                    .push(t.elapsed().as_secs_f64() * 1e3),
                _ => {
                    w.failures.fetch_add(1, Ordering::Relaxed);
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
    tokio::spawn(async move {
        while !watch.stop.load(Ordering::Relaxed) {
            watch.peak_rss_kb.fetch_max(rss_kb(pid), Ordering::Relaxed);
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
}

/// Whether the server is idle (nothing running, waiting or streaming) within 5 s.
async fn back_to_idle(addr: SocketAddr) -> bool {
    let began = Instant::now();
    while began.elapsed() < Duration::from_secs(5) {
        if let Ok((200, body)) = request(addr, "GET", "/healthz", b"").await {
            if body.contains("\"searches_running\":0")
                && body.contains("\"searches_waiting\":0")
                && body.contains("\"streams_open\":0")
            {
                return true;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

/// A connection from loopback address `127.0.0.n`, so that the server sees many clients.
async fn connect_from(n: u8, addr: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(IpAddr::V4(Ipv4Addr::new(127, 0, 0, n)), 0))?;
    socket.connect(addr).await
}

/// Slow clients: `n` connections sending a request's headers a byte every 500 ms. Returns
/// how many the server had closed by the end (the header time limit).
async fn slowloris(addr: SocketAddr, n: usize, secs: u64) -> String {
    let closed = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for i in 0..n {
        let closed = closed.clone();
        tasks.push(tokio::spawn(async move {
            let Ok(mut s) = connect_from(2 + (i % 200) as u8, addr).await else {
                return;
            };
            let head = b"POST /api/v1/position HTTP/1.1\r\nHost: slow\r\nContent-Length: 2\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n";
            for b in head.iter().cycle() {
                if s.write_all(&[*b]).await.is_err() {
                    closed.fetch_add(1, Ordering::Relaxed);
                    return;
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }));
    }
    tokio::time::sleep(Duration::from_secs(secs)).await;
    for t in &tasks {
        t.abort();
    }
    format!(
        "{n} connections sending headers a byte each 500 ms: {} cut off by the server within {secs} s",
        closed.load(Ordering::Relaxed)
    )
}

/// Idle keep-alive connections: each asks once, then keeps its connection open and silent.
async fn idle(addr: SocketAddr, n: usize, secs: u64) -> String {
    let closed = Arc::new(AtomicU64::new(0));
    let answered = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for i in 0..n {
        let (closed, answered) = (closed.clone(), answered.clone());
        tasks.push(tokio::spawn(async move {
            let Ok(mut s) = connect_from(2 + (i % 200) as u8, addr).await else {
                return;
            };
            if s.write_all(b"GET /healthz HTTP/1.1\r\nHost: idle\r\n\r\n")
                .await
                .is_err()
            {
                return;
            }
            let mut buf = [0u8; 4096];
            if matches!(s.read(&mut buf).await, Ok(n) if n > 0) {
                answered.fetch_add(1, Ordering::Relaxed);
            }
            // The server closing the idle connection shows as the end of the stream.
            if matches!(s.read(&mut buf).await, Ok(0) | Err(_)) {
                closed.fetch_add(1, Ordering::Relaxed);
            }
        }));
    }
    tokio::time::sleep(Duration::from_secs(secs)).await;
    for t in &tasks {
        t.abort();
    }
    format!(
        "{n} keep-alive connections, one request each, then idle: {} answered, {} closed by the server within {secs} s",
        answered.load(Ordering::Relaxed),
        closed.load(Ordering::Relaxed)
    )
}

/// The most analysis streams: `clients` addresses, each opening 6 streams (the limit is 4 a
/// client) of the longest analysis, held for `secs`, then all dropped at once.
async fn streams(addr: SocketAddr, clients: u8, secs: u64) -> String {
    let statuses = Arc::new(Mutex::new(std::collections::BTreeMap::<u16, u64>::new()));
    let mut tasks = Vec::new();
    for c in 0..clients {
        for _ in 0..6 {
            let statuses = statuses.clone();
            tasks.push(tokio::spawn(async move {
                let Ok(mut s) = connect_from(2 + c, addr).await else {
                    return;
                };
                let body = br#"{"moves":["h2e2"],"limits":{"movetime_ms":300000}}"#;
                let head = format!(
                    "POST /api/v1/analysis HTTP/1.1\r\nHost: s\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
                    body.len()
                );
                if s.write_all(head.as_bytes()).await.is_err() || s.write_all(body).await.is_err() {
                    return;
                }
                let mut buf = vec![0u8; 16384];
                if let Ok(Ok(n)) = tokio::time::timeout(Duration::from_secs(15), s.read(&mut buf)).await {
                    let text = String::from_utf8_lossy(&buf[..n]).to_string();
                    let code = text.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
                    *statuses.lock().unwrap().entry(code).or_default() += 1;
                }
                // Hold the stream open, reading what comes.
                loop {
                    match s.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {}
                    }
                }
            }));
        }
    }
    tokio::time::sleep(Duration::from_secs(secs)).await;
    for t in &tasks {
        t.abort();
    }
    let by: Vec<String> = statuses
        .lock()
        .unwrap()
        .iter()
        .map(|(k, v)| format!("{v}× {k}"))
        .collect();
    format!(
        "{} analysis streams of 300 s from {clients} addresses (6 each, 4 allowed), dropped after {secs} s: {}",
        clients as usize * 6,
        by.join(", ")
    )
}

/// The largest legal body in a tight loop: `workers` clients posting 1 MiB record uploads.
async fn big_bodies(addr: SocketAddr, workers: usize, secs: u64) -> String {
    let mut body = b"[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 ".to_vec();
    while body.len() < MAX_BODY {
        body.extend_from_slice(b"{ a comment that goes on } ");
    }
    body.truncate(MAX_BODY);
    let body = Arc::new(body);
    let statuses = Arc::new(Mutex::new(std::collections::BTreeMap::<u16, u64>::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    for _ in 0..workers {
        let (body, statuses, stop) = (body.clone(), statuses.clone(), stop.clone());
        tasks.push(tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let code = request(addr, "POST", "/api/v1/records", &body)
                    .await
                    .map_or(0, |r| r.0);
                *statuses.lock().unwrap().entry(code).or_default() += 1;
            }
        }));
    }
    tokio::time::sleep(Duration::from_secs(secs)).await;
    stop.store(true, Ordering::Relaxed);
    for t in tasks {
        let _ = t.await;
    }
    let mut over = body.to_vec();
    over.push(b' ');
    let too_big = request(addr, "POST", "/api/v1/records", &over)
        .await
        .map_or(0, |r| r.0);
    let by: Vec<String> = statuses
        .lock()
        .unwrap()
        .iter()
        .map(|(k, v)| format!("{v}× {k}"))
        .collect();
    format!(
        "{workers} clients posting 1 MiB records for {secs} s: {}; 1 MiB + 1 byte: {too_big}",
        by.join(", ")
    )
}

/// Requests at each limit's edge: the limit itself answered, one past it refused.
async fn edges(addr: SocketAddr) -> String {
    let moves = |n: usize| {
        let cycle = ["h0g2", "h9g7", "g2h0", "g7h9"];
        let list: Vec<String> = (0..n).map(|i| format!("\"{}\"", cycle[i % 4])).collect();
        list.join(",")
    };
    let cases: Vec<(&str, &str, String, u16)> = vec![
        (
            "multipv 5",
            "/api/v1/move",
            r#"{"multipv":5,"limits":{"depth":2},"book":false}"#.into(),
            200,
        ),
        (
            "multipv 6",
            "/api/v1/move",
            r#"{"multipv":6,"limits":{"depth":2}}"#.into(),
            422,
        ),
        (
            "depth 64 (time-capped)",
            "/api/v1/move",
            r#"{"limits":{"depth":64,"movetime_ms":200},"book":false}"#.into(),
            200,
        ),
        (
            "depth 65",
            "/api/v1/move",
            r#"{"limits":{"depth":65}}"#.into(),
            422,
        ),
        (
            "nodes 100 000 000 (time-capped)",
            "/api/v1/move",
            r#"{"limits":{"nodes":100000000,"movetime_ms":200},"book":false}"#.into(),
            200,
        ),
        (
            "nodes 100 000 001",
            "/api/v1/move",
            r#"{"limits":{"nodes":100000001}}"#.into(),
            422,
        ),
        (
            "movetime 10 000 ms",
            "/api/v1/move",
            r#"{"limits":{"movetime_ms":10000,"depth":1},"book":false}"#.into(),
            200,
        ),
        (
            "movetime 10 001 ms",
            "/api/v1/move",
            r#"{"limits":{"movetime_ms":10001}}"#.into(),
            422,
        ),
        (
            "1 000 moves",
            "/api/v1/position",
            format!("{{\"moves\":[{}],\"rules\":\"chinese\"}}", moves(1000)),
            0,
        ),
        (
            "1 001 moves",
            "/api/v1/position",
            format!("{{\"moves\":[{}]}}", moves(1001)),
            422,
        ),
    ];
    let mut out = Vec::new();
    let mut all = true;
    for (name, path, body, want) in cases {
        let got = request(addr, "POST", path, body.as_bytes())
            .await
            .map_or(0, |r| r.0);
        // 1 000 moves of shuffling horses end the game by repetition on the way: a 422 for
        // the move after the end is the rules' answer, not the limit's.
        let ok = if want == 0 {
            got == 200 || got == 422
        } else {
            got == want
        };
        all &= ok;
        out.push(format!("{name} → {got}"));
    }
    format!(
        "{}: {}",
        if all {
            "as documented"
        } else {
            "NOT as documented"
        },
        out.join("; ")
    )
}

async fn scenario<F: std::future::Future<Output = String>>(
    name: &str,
    addr: SocketAddr,
    pid: u32,
    run: F,
) {
    let watch = Watch::new();
    start_watch(addr, pid, watch.clone());
    let what = run.await;
    watch.stop.store(true, Ordering::Relaxed);
    let (p50, p99, worst, failed) = watch.summary();
    let idle = back_to_idle(addr).await;
    println!(
        "| {name} | {what} | {p50:.1} / {p99:.1} / {worst:.1} | {failed} | {} MiB | {} (threads {}) |",
        watch.peak_rss_kb.load(Ordering::Relaxed) / 1024,
        if idle { "yes" } else { "NO" },
        threads(pid)
    );
}

/// A mixed load for `secs`, RSS and `/healthz` latency printed each minute.
async fn soak(addr: SocketAddr, pid: u32, secs: u64) {
    println!(
        "\n| minute | RSS | /healthz p50 / p99 / worst ms | failed probes | requests (by status) |"
    );
    println!("|---|---|---|---|---|");
    let counts = Arc::new(Mutex::new(std::collections::BTreeMap::<u16, u64>::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let mut workers = Vec::new();
    for w in 0..4u64 {
        let (counts, stop) = (counts.clone(), stop.clone());
        workers.push(tokio::spawn(async move {
            let mut i = w;
            while !stop.load(Ordering::Relaxed) {
                i += 1;
                let (path, body): (&str, String) = match i % 5 {
                    0 => ("/api/v1/move", format!("{{\"limits\":{{\"nodes\":20000}},\"book\":false,\"seed\":{i}}}")),
                    1 => ("/api/v1/position", r#"{"moves":["h2e2","h9g7","h0g2","i9h9"]}"#.into()),
                    2 => ("/api/v1/notation", r#"{"moves":["h2e2","h9g7"],"to":"chinese"}"#.into()),
                    3 => ("/api/v1/records", "[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 2. h0g2 *\n".into()),
                    _ => ("/api/v1/pgn", r#"{"moves":["h2e2","h9g7"],"tags":[["Red","soak"]]}"#.into()),
                };
                let code = request(addr, "POST", path, body.as_bytes()).await.map_or(0, |r| r.0);
                *counts.lock().unwrap().entry(code).or_default() += 1;
                // Now and then an analysis stream, dropped after a second.
                if i % 20 == 0 {
                    if let Ok(mut s) = TcpStream::connect(addr).await {
                        let body = br#"{"limits":{"movetime_ms":60000}}"#;
                        let head = format!("POST /api/v1/analysis HTTP/1.1\r\nHost: s\r\nContent-Length: {}\r\n\r\n", body.len());
                        let _ = s.write_all(head.as_bytes()).await;
                        let _ = s.write_all(body).await;
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }));
    }
    let minutes = secs.div_ceil(60);
    let mut first = 0;
    let mut last = 0;
    for m in 1..=minutes {
        let watch = Watch::new();
        start_watch(addr, pid, watch.clone());
        tokio::time::sleep(Duration::from_secs(60.min(secs))).await;
        watch.stop.store(true, Ordering::Relaxed);
        let (p50, p99, worst, failed) = watch.summary();
        let rss = rss_kb(pid);
        if m == 1 {
            first = rss;
        }
        last = rss;
        let by: Vec<String> = std::mem::take(&mut *counts.lock().unwrap())
            .iter()
            .map(|(k, v)| format!("{v}× {k}"))
            .collect();
        println!(
            "| {m} | {:.1} MiB | {p50:.1} / {p99:.1} / {worst:.1} | {failed} | {} |",
            rss as f64 / 1024.0,
            by.join(", ")
        );
    }
    stop.store(true, Ordering::Relaxed);
    for w in workers {
        let _ = w.await;
    }
    println!(
        "\nRSS after the first minute {:.1} MiB, at the end {:.1} MiB ({:+.1} %); back to idle: {}",
        first as f64 / 1024.0,
        last as f64 / 1024.0,
        (last as f64 / first.max(1) as f64 - 1.0) * 100.0,
        back_to_idle(addr).await
    );
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut args = std::env::args().skip(1);
    let mut server = std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../target/release/xiangqi-web"
    ));
    let mut secs = 20;
    let mut soak_secs = 0;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--server" => server = args.next().expect("a path").into(),
            "--secs" => secs = args.next().and_then(|s| s.parse().ok()).expect("seconds"),
            "--soak" => soak_secs = args.next().and_then(|s| s.parse().ok()).expect("seconds"),
            other => panic!("unknown argument {other}"),
        }
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr: SocketAddr = ([127, 0, 0, 1], port).into();
    let mut child = std::process::Command::new(&server)
        .args(["--listen", &addr.to_string(), "--no-egtb"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e} (cargo build --release -p xiangqi-web)",
                server.display()
            )
        });
    let pid = child.id();
    let began = Instant::now();
    while request(addr, "GET", "/healthz", b"").await.is_err() {
        assert!(
            began.elapsed() < Duration::from_secs(20),
            "the server did not start"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    println!(
        "server {} (pid {pid}), default limits (header time limit {HEADER_TIMEOUT_MS} ms, body {MAX_BODY} bytes); idle RSS {} MiB, {} threads\n",
        server.display(),
        rss_kb(pid) / 1024,
        threads(pid)
    );
    println!("| scenario | what happened | /healthz p50 / p99 / worst ms | failed probes | peak RSS | idle after (threads) |");
    println!("|---|---|---|---|---|---|");
    scenario("slow clients", addr, pid, slowloris(addr, 2000, secs)).await;
    scenario("idle keep-alive", addr, pid, idle(addr, 5000, secs)).await;
    scenario("analysis streams", addr, pid, streams(addr, 40, secs)).await;
    scenario("largest bodies", addr, pid, big_bodies(addr, 8, secs)).await;
    scenario("limit edges", addr, pid, edges(addr)).await;
    if soak_secs > 0 {
        soak(addr, pid, soak_secs).await;
    }
    let _ = child.kill();
    let _ = child.wait();
}
