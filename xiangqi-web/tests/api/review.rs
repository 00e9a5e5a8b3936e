//! The game review: its stream of verdicts, its typed errors, and a client that goes away.

use crate::common;
use crate::http::{error, events, get, post, until_idle};
use futures_util::StreamExt;
use reqwest::{Client, StatusCode};
use serde_json::json;

/// Red, a chariot up, throws the win away in one move (`b6b7??`, the chariot left where the
/// black chariot takes it): the game the review tests judge.
const THROWN: &str = "3aka3/9/r8/9/9/9/9/1R6R/9/3K5 w";
const THROWN_MOVES: [&str; 6] = ["i2e2", "f9e8", "b2b6", "a7g7", "b6b7", "g7b7"];

#[tokio::test]
async fn a_review_streams_each_move_then_the_summary() {
    let base = common::start(common::config());
    let res = Client::new()
        .post(format!("{base}/api/v1/review"))
        .json(&json!({"fen": THROWN, "moves": THROWN_MOVES, "limits": {"depth": 6}}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/event-stream"));
    let events = events(&res.text().await.unwrap());
    let names: Vec<&str> = events.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["move", "move", "move", "move", "move", "move", "summary"]
    );
    for (i, (_, m)) in events[..6].iter().enumerate() {
        assert_eq!(m["ply"], i + 1);
        assert_eq!(m["total"], 6);
        assert_eq!(m["side"], if i % 2 == 0 { "red" } else { "black" });
        assert_eq!(m["played"]["iccs"], THROWN_MOVES[i]);
        assert!(m["played"]["chinese"].is_string() && m["played"]["wxf"].is_string());
        assert!(m["best"]["iccs"].is_string(), "{m}");
        assert_eq!(m["best_line"][0], m["best"]);
        assert!(m["score_before"]["red_cp"].is_i64() && m["score_after"]["red_cp"].is_i64());
        assert!(m["loss"].as_f64().unwrap() >= 0.0);
        let class = m["class"].as_str().unwrap();
        assert!(
            ["best", "good", "inaccuracy", "mistake", "blunder"].contains(&class),
            "{class}"
        );
        if i == 4 {
            assert_eq!((class, m["nag"].as_str()), ("blunder", Some("??")), "{m}");
            assert!(m["loss"].as_f64().unwrap() >= 30.0);
            assert_ne!(m["best"]["iccs"], "b6b7");
        } else {
            assert!(["best", "good"].contains(&class), "move {}: {m}", i + 1);
            assert!(m["nag"].is_null());
        }
        if class == "best" {
            assert_eq!(m["best"], m["played"]);
            assert_eq!(m["loss"], 0.0);
        }
    }
    let summary = &events[6].1;
    assert_eq!(summary["red"]["moves"], 3);
    assert_eq!(summary["red"]["blunders"], 1);
    assert_eq!(summary["black"]["moves"], 3);
    assert_eq!(summary["black"]["blunders"], 0);
    for side in ["red", "black"] {
        let s = &summary[side];
        let classes = ["best", "good", "inaccuracies", "mistakes", "blunders"]
            .iter()
            .map(|k| s[k].as_u64().unwrap())
            .sum::<u64>();
        assert_eq!(classes, 3, "every move in one class: {s}");
        assert!(s["average_loss"].as_f64().is_some() && s["average_cp_loss"].as_f64().is_some());
    }
    assert!(
        summary["red"]["average_loss"].as_f64().unwrap()
            > summary["black"]["average_loss"].as_f64().unwrap()
    );
    assert_eq!(
        summary["thresholds"],
        json!({"inaccuracy": 10.0, "mistake": 20.0, "blunder": 30.0})
    );
    assert_eq!(summary["complete"], true);
    let pgn = summary["pgn"].as_str().expect("the annotated PGN");
    assert!(pgn.contains("$4") && pgn.contains("Blunder (-"), "{pgn}");
    until_idle(&base).await;
}

#[tokio::test]
async fn review_bad_input_gets_typed_errors() {
    let base = common::start(common::config());
    let (status, body) = post(
        &base,
        "/api/v1/review",
        json!({"moves": ["h2e2", "h9g7", "e2e9"]}),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(error(&body).0, "illegal_move");
    assert_eq!(error(&body).1, Some("moves[2]"));
    assert_eq!(body["error"]["index"], 2);
    let shuffle = ["h2e2", "h9g7", "e2h2", "g7h9"];
    let too_many = shuffle.repeat(300);
    let long = shuffle.repeat(50);
    let cases = [
        (
            json!({"moves": ["h2e2"], "limits": {"depth": 0}}),
            "bad_limit",
            "limits.depth",
        ),
        (
            json!({"moves": ["h2e2"], "limits": {"depth": 1000}}),
            "over_limit",
            "limits.depth",
        ),
        (
            json!({"moves": ["h2e2"], "limits": {"nodes": 0}}),
            "bad_limit",
            "limits.nodes",
        ),
        (
            json!({"moves": ["h2e2"], "limits": {"movetime_ms": 99_999_999}}),
            "over_limit",
            "limits.movetime_ms",
        ),
        (json!({"moves": []}), "no_moves", "moves"),
        (
            json!({"fen": "not a fen", "moves": ["h2e2"]}),
            "bad_fen",
            "fen",
        ),
        (json!({"moves": too_many}), "over_limit", "moves"),
        // 300 s for the whole review: 201 positions at 2 s each is too much.
        (
            json!({"moves": long, "limits": {"movetime_ms": 2000}}),
            "over_limit",
            "limits.movetime_ms",
        ),
    ];
    for (request, code, field) in cases {
        let (status, body) = post(&base, "/api/v1/review", request.clone()).await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{request}: {body}"
        );
        assert_eq!(error(&body).0, code, "{request}: {body}");
        assert_eq!(error(&body).1, Some(field), "{request}: {body}");
    }
    // A body that is not a review request is a 4xx naming what is wrong, not a 5xx.
    for bad in [
        json!({"moves": "h2e2"}),
        json!({"moves": ["h2e2"], "limits": {"depth": "deep"}}),
        json!({"moves": ["h2e2"], "limits": {"plies": 3}}),
    ] {
        let (status, body) = post(&base, "/api/v1/review", bad.clone()).await;
        assert!(status.is_client_error(), "{bad}: {status} {body}");
        assert!(error(&body).0.len() > 1);
    }
    let (_, health) = get(&base, "/healthz").await;
    assert_eq!(health["searches_running"], 0, "no review ran");
}

#[tokio::test]
async fn a_client_that_goes_away_stops_its_review() {
    let base = common::start(common::config());
    // 20 plies at half a second each: ten seconds of work unless stopped.
    let all = [
        "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "b7b3", "c3c4", "c9e7", "g3g4",
        "a9b9", "a0b0", "b3b7", "b2b6", "g6g5", "g4g5", "e7g5", "i3i4", "a6a5",
    ];
    let res = Client::new()
        .post(format!("{base}/api/v1/review"))
        .json(&json!({"moves": all, "limits": {"movetime_ms": 500}}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "{:?}", res.text().await);
    let mut body = res.bytes_stream();
    let mut seen = String::new();
    while !seen.contains("event: move") {
        let chunk = body.next().await.unwrap().unwrap();
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }
    let (_, health) = get(&base, "/healthz").await;
    assert_eq!(
        health["searches_running"], 1,
        "the review runs on: {health}"
    );
    assert_eq!(health["streams_open"], 1);
    drop(body);
    until_idle(&base).await;
}
