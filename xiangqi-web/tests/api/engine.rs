//! Engine moves and analysis streams: results, dropped clients, overload and the limit of streams
//! per client.

use crate::common;
use crate::http::{error, events, get, post, until_idle};
use futures_util::StreamExt;
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};
use std::time::Duration;
use xiangqi_core::Position;

#[tokio::test]
async fn an_engine_move() {
    let base = common::start(common::config());
    let (status, body) = post(
        &base,
        "/api/v1/move",
        json!({"moves": ["h2e2"], "limits": {"nodes": 20000}, "book": false}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["source"], "search");
    let mut pos = Position::startpos();
    pos.play(pos.parse_uci("h2e2").unwrap()).unwrap();
    let best = pos
        .parse_uci(body["best_move"]["iccs"].as_str().unwrap())
        .expect("a legal move");
    assert_eq!(body["best_move"]["chinese"], pos.to_chinese(best));
    assert!(body["nodes"].as_u64().unwrap() <= 20000 + 2000, "{body}");
    assert!(body["score"]["cp"].is_i64());
    assert_eq!(body["pv"][0]["iccs"], body["best_move"]["iccs"]);
    // The book answers the start position; a level answers within its node budget.
    let (_, body) = post(&base, "/api/v1/move", json!({})).await;
    assert_eq!(body["source"], "book");
    assert!(!body["book"].as_array().unwrap().is_empty());
    let (_, body) = post(
        &base,
        "/api/v1/move",
        json!({"level": "beginner", "book": false, "seed": 7}),
    )
    .await;
    assert_eq!(body["source"], "search");
    assert!(body["nodes"].as_u64().unwrap() <= 400, "{body}");
    // Mate in one is found and scored as a mate.
    let fen = "4k4/9/9/4P4/9/9/8p/1R7/R8/3K5 w - - 0 1";
    let (_, body) = post(
        &base,
        "/api/v1/move",
        json!({"fen": fen, "moves": ["a1a9", "e9e8"], "limits": {"depth": 4}}),
    )
    .await;
    assert_eq!(body["best_move"]["iccs"], "b2b8", "{body}");
    assert_eq!(body["score"]["mate"], 1);
    // MultiPV gives every line.
    let (_, body) = post(
        &base,
        "/api/v1/move",
        json!({"moves": ["h2e2"], "multipv": 3, "limits": {"depth": 4}}),
    )
    .await;
    assert_eq!(body["lines"].as_array().unwrap().len(), 3, "{body}");
    // A finished game has no move.
    let (status, body) = post(
        &base,
        "/api/v1/move",
        json!({"fen": fen, "moves": ["a1a9", "e9e8", "b2b8"]}),
    )
    .await;
    assert_eq!(
        (status, error(&body).0),
        (StatusCode::UNPROCESSABLE_ENTITY, "game_over")
    );
}

#[tokio::test]
async fn an_analysis_stream() {
    let base = common::start(common::config());
    let res = Client::new()
        .post(format!("{base}/api/v1/analysis"))
        .json(&json!({"moves": ["h2e2", "h9g7"], "multipv": 2, "limits": {"depth": 6}}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/event-stream"));
    let events = events(&res.text().await.unwrap());
    let infos: Vec<&Value> = events
        .iter()
        .filter(|(n, _)| n == "info")
        .map(|(_, d)| d)
        .collect();
    assert!(
        infos.len() >= 6,
        "one event per iteration and line: {}",
        infos.len()
    );
    for depth in 1..=6 {
        for line in 1..=2 {
            assert!(
                infos
                    .iter()
                    .any(|i| i["depth"] == depth && i["multipv"] == line),
                "depth {depth} line {line}"
            );
        }
    }
    let (name, best) = events.last().unwrap();
    assert_eq!(name, "bestmove");
    assert_eq!(best["depth"], 6);
    assert!(best["pv"][0]["chinese"].is_string());
}

#[tokio::test]
async fn a_dropped_stream_stops_its_search() {
    let base = common::start(common::config());
    let res = Client::new()
        .post(format!("{base}/api/v1/analysis"))
        .json(&json!({"moves": ["h2e2"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let mut body = res.bytes_stream();
    let first = body.next().await.unwrap().unwrap();
    assert!(String::from_utf8_lossy(&first).contains("event: info"));
    let (_, health) = get(&base, "/healthz").await;
    assert_eq!(
        health["searches_running"], 1,
        "an analysis without limits runs on"
    );
    drop(body);
    until_idle(&base).await;
}

#[tokio::test]
async fn a_dropped_move_request_stops_its_search() {
    let base = common::start(common::config());
    let request = Client::new()
        .post(format!("{base}/api/v1/move"))
        .json(&json!({"moves": ["h2e2"], "limits": {"movetime_ms": 10000}, "book": false}))
        .send();
    // Give up on the request after a moment: the connection closes.
    assert!(tokio::time::timeout(Duration::from_millis(300), request)
        .await
        .is_err());
    until_idle(&base).await;
}

#[tokio::test]
async fn overload_gets_503_with_retry_after() {
    let base = common::start(xiangqi_web::Config {
        searches: 1,
        queue: 1,
        queue_wait_ms: 5_000,
        ..common::config()
    });
    let long = || {
        let base = base.clone();
        tokio::spawn(async move {
            post(
                &base,
                "/api/v1/move",
                json!({"moves": ["h2e2"], "limits": {"movetime_ms": 1500}, "book": false}),
            )
            .await
            .0
        })
    };
    let running = long();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let queued = long();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let res = Client::new()
        .post(format!("{base}/api/v1/move"))
        .json(&json!({"moves": ["h2e2"], "limits": {"nodes": 1000}, "book": false}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(res.headers().get("retry-after").is_some());
    let json: Value = res.json().await.unwrap();
    assert_eq!(error(&json).0, "busy");
    assert_eq!(running.await.unwrap(), 200);
    assert_eq!(queued.await.unwrap(), 200, "the queued request is served");
    let (status, _) = post(
        &base,
        "/api/v1/move",
        json!({"moves": ["h2e2"], "limits": {"nodes": 1000}, "book": false}),
    )
    .await;
    assert_eq!(status, 200, "served again once the load is gone");
}

#[tokio::test]
async fn streams_per_client_are_limited() {
    let base = common::start(xiangqi_web::Config {
        max_streams_per_client: 1,
        ..common::config()
    });
    let open = || {
        Client::new()
            .post(format!("{base}/api/v1/analysis"))
            .json(&json!({}))
            .send()
    };
    let first = open().await.unwrap();
    assert_eq!(first.status(), 200);
    let second = open().await.unwrap();
    assert_eq!(second.status(), StatusCode::TOO_MANY_REQUESTS);
    let json: Value = second.json().await.unwrap();
    assert_eq!(error(&json).0, "too_many_streams");
}
