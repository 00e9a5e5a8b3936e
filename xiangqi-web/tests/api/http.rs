//! Calls to the server and readings of its answers that every part of the test uses.

use reqwest::{Client, StatusCode};
use serde_json::Value;
use std::time::{Duration, Instant};

pub async fn post(base: &str, path: &str, body: Value) -> (StatusCode, Value) {
    let res = Client::new()
        .post(format!("{base}{path}"))
        .json(&body)
        .send()
        .await
        .expect("the server answers");
    let status = res.status();
    let body = res.json().await.expect("a JSON answer");
    (status, body)
}

pub async fn get(base: &str, path: &str) -> (StatusCode, Value) {
    let res = reqwest::get(format!("{base}{path}"))
        .await
        .expect("the server answers");
    (res.status(), res.json().await.expect("a JSON answer"))
}

/// The error of a 4xx answer: its code and field.
pub fn error(body: &Value) -> (&str, Option<&str>, &str) {
    let e = &body["error"];
    (
        e["code"].as_str().expect("an error code"),
        e["field"].as_str(),
        e["message"].as_str().expect("an error message"),
    )
}

/// The events of an SSE body: (name, data).
pub fn events(text: &str) -> Vec<(String, Value)> {
    text.split("\n\n")
        .filter_map(|block| {
            let mut name = None;
            let mut data = String::new();
            for line in block.lines() {
                if let Some(n) = line.strip_prefix("event:") {
                    name = Some(n.trim().to_string());
                } else if let Some(d) = line.strip_prefix("data:") {
                    data.push_str(d.trim());
                }
            }
            Some((name?, serde_json::from_str(&data).ok()?))
        })
        .collect()
}

/// Waits until no search runs and no stream is open (at most 2 s), and says how long it took.
pub async fn until_idle(base: &str) {
    let dropped = Instant::now();
    loop {
        let (_, health) = get(base, "/healthz").await;
        if health["searches_running"] == 0 && health["streams_open"] == 0 {
            break;
        }
        assert!(
            dropped.elapsed() < Duration::from_secs(2),
            "the search still runs: {health}"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    println!(
        "search stopped {:?} after the client went away",
        dropped.elapsed()
    );
}

pub async fn upload(base: &str, bytes: impl Into<Vec<u8>>) -> (StatusCode, Value) {
    let res = Client::new()
        .post(format!("{base}/api/v1/records"))
        .body(bytes.into())
        .send()
        .await
        .unwrap();
    (res.status(), res.json().await.unwrap())
}
