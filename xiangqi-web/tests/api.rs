//! The API over real HTTP, against a server started here on an ephemeral port: every
//! endpoint, the error cases, limits and overload, a stream dropped mid-search, and the
//! outcome of a game that ends by perpetual check.

mod common;

use futures_util::StreamExt;
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use xiangqi_core::Position;

async fn post(base: &str, path: &str, body: Value) -> (StatusCode, Value) {
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

async fn get(base: &str, path: &str) -> (StatusCode, Value) {
    let res = reqwest::get(format!("{base}{path}"))
        .await
        .expect("the server answers");
    (res.status(), res.json().await.expect("a JSON answer"))
}

/// The error of a 4xx answer: its code and field.
fn error(body: &Value) -> (&str, Option<&str>, &str) {
    let e = &body["error"];
    (
        e["code"].as_str().expect("an error code"),
        e["field"].as_str(),
        e["message"].as_str().expect("an error message"),
    )
}

#[tokio::test]
async fn health_and_info() {
    let base = common::start(common::config());
    let (status, body) = get(&base, "/healthz").await;
    assert_eq!(status, 200);
    assert_eq!(body["status"], "ok");
    let (status, body) = get(&base, "/api/v1/info").await;
    assert_eq!(status, 200);
    let names: Vec<&str> = body["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = xiangqi_search::Level::all()
        .iter()
        .map(|l| l.name)
        .collect();
    assert_eq!(names, expected);
    // Each level in Chinese too, the page's second language.
    for level in body["levels"].as_array().unwrap() {
        let zh = level["name_zh"].as_str().unwrap();
        assert!(zh.chars().all(|c| !c.is_ascii()), "{level}");
        assert!(
            !level["description_zh"].as_str().unwrap().is_empty(),
            "{level}"
        );
    }
    assert_eq!(body["engines"], 2);
}

#[tokio::test]
async fn the_page_and_its_assets_are_served() {
    let base = common::start(common::config());
    let page = reqwest::get(format!("{base}/")).await.unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    for asset in ["\"assets/style.css\"", "\"assets/app.js\""] {
        // Relative, so the same page works from a static host under any path.
        assert!(html.contains(asset), "the page names {asset}");
    }
    for asset in [
        "style.css",
        "app.js",
        "board.js",
        "api.js",
        "i18n.js",
        "graph.js",
        "favicon.svg",
    ] {
        let res = reqwest::get(format!("{base}/assets/{asset}"))
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "{asset}");
        assert!(!res.bytes().await.unwrap().is_empty());
    }
    // The page fetches nothing from anywhere else.
    for asset in ["", "assets/app.js", "assets/board.js", "assets/style.css"] {
        let text = reqwest::get(format!("{base}/{asset}"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        // The SVG namespace is a name, not an address fetched.
        let stripped = text.replace("http://www.w3.org/2000/svg", "");
        assert!(
            !stripped.contains("http://") && !stripped.contains("https://"),
            "{asset} names another site"
        );
    }
    let (status, body) = get(&base, "/assets/nothing.js").await;
    assert_eq!(
        (status, error(&body).0),
        (StatusCode::NOT_FOUND, "not_found")
    );
}

#[tokio::test]
async fn position_start() {
    let base = common::start(common::config());
    let (status, body) = post(&base, "/api/v1/position", json!({})).await;
    assert_eq!(status, 200);
    assert_eq!(body["fen"], xiangqi_core::START_FEN);
    assert_eq!(body["legal_moves"].as_array().unwrap().len(), 44);
    assert_eq!(body["side_to_move"], "red");
    assert_eq!(body["check"], false);
    assert!(body["outcome"].is_null());
    let h2e2 = body["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["iccs"] == "h2e2")
        .unwrap();
    assert_eq!(
        (h2e2["wxf"].as_str(), h2e2["chinese"].as_str()),
        (Some("C2.5"), Some("炮二平五"))
    );
    assert!(body["book"]
        .as_array()
        .unwrap()
        .iter()
        .any(|b| b["move"]["iccs"] == "h2e2"));
}

#[tokio::test]
async fn position_after_moves_in_any_notation() {
    let base = common::start(common::config());
    let (status, body) = post(
        &base,
        "/api/v1/position",
        json!({"fen": "startpos", "moves": ["炮二平五", "H8+7", "h0g2"]}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let iccs: Vec<&str> = body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["iccs"].as_str().unwrap())
        .collect();
    assert_eq!(iccs, ["h2e2", "h9g7", "h0g2"]);
    assert_eq!(body["side_to_move"], "black");
    assert_eq!(body["last_move"]["chinese"], "马二进三");
    let mut pos = Position::startpos();
    for m in &iccs {
        pos.play(pos.parse_uci(m).unwrap()).unwrap();
    }
    assert_eq!(body["fen"], pos.fen());
}

#[tokio::test]
async fn checkmate_is_the_outcome() {
    let base = common::start(common::config());
    let fen = "4k4/9/9/4P4/9/9/8p/1R7/R8/3K5 w - - 0 1";
    let (_, body) = post(
        &base,
        "/api/v1/position",
        json!({"fen": fen, "moves": ["a1a9", "e9e8", "b2b8"]}),
    )
    .await;
    assert_eq!(body["outcome"]["winner"], "red");
    assert_eq!(body["outcome"]["reason"], "checkmate");
    assert_eq!(body["checked_general"], "e8");
    assert_eq!(body["legal_moves"].as_array().unwrap().len(), 0);
}

/// A perpetual chase names the chased piece by colour and role (the page says it in its own
/// language), besides its square.
#[tokio::test]
async fn perpetual_chase_names_the_chased_piece() {
    let base = common::start(common::config());
    // Red's chariot keeps attacking black's unprotected cannon (shared/data/gameend.tsv).
    let fen = "5k3/9/9/9/c8/1R7/9/9/9/3K5 w - - 0 1";
    let moves = [
        "b4a4", "a5b5", "a4b4", "b5a5", "b4a4", "a5b5", "a4b4", "b5a5",
    ];
    let (status, body) = post(
        &base,
        "/api/v1/position",
        json!({"fen": fen, "moves": moves}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let o = &body["outcome"];
    assert_eq!(o["reason"], "perpetual_chase", "{o}");
    assert_eq!(o["winner"], "black", "{o}");
    assert_eq!(o["chased"], "a5", "{o}");
    assert_eq!(
        o["chased_piece"],
        json!({"color": "black", "role": "cannon"})
    );
    // Other endings name no piece.
    let (_, body) = post(
        &base,
        "/api/v1/position",
        json!({"fen": "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1", "moves": ["b0b9"]}),
    )
    .await;
    assert_eq!(body["outcome"]["reason"], "checkmate");
    assert!(body["outcome"].get("chased_piece").is_none(), "{body}");
}

#[tokio::test]
async fn perpetual_check_loses() {
    let base = common::start(common::config());
    // Red checks with the chariot every move while black's general steps back and forth.
    let fen = "3k5/9/9/9/9/9/9/9/R8/5K3 w - - 0 1";
    let moves = [
        "a1a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8", "a9a8", "d8d9", "a8a9",
    ];
    let (status, body) = post(
        &base,
        "/api/v1/position",
        json!({"fen": fen, "moves": moves}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let o = &body["outcome"];
    assert_eq!(o["winner"], "black", "{o}");
    assert_eq!(o["reason"], "perpetual_check");
    assert!(o["rules"].as_str().unwrap().contains("Asian"));
    // One move short of the third occurrence, the game goes on.
    let (_, body) = post(
        &base,
        "/api/v1/position",
        json!({"fen": fen, "moves": &moves[..8]}),
    )
    .await;
    assert!(body["outcome"].is_null());
}

#[tokio::test]
async fn a_bad_fen_gets_the_cores_error() {
    let base = common::start(common::config());
    for fen in [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1",
        "nonsense",
        "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "kk7/9/9/9/9/9/9/9/9/4K4 w",
    ] {
        let (status, body) = post(&base, "/api/v1/position", json!({"fen": fen})).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{fen}");
        let (code, field, message) = error(&body);
        assert_eq!((code, field), ("bad_fen", Some("fen")));
        let core = Position::from_fen(fen).unwrap_err();
        assert_eq!(message, core.to_string());
        // Stable codes for a client's own words: what is wrong, and every setup problem.
        assert_eq!(body["error"]["reason"], core.code(), "{body}");
        match core {
            xiangqi_core::FenError::Setup(e) => {
                assert_eq!(
                    body["error"]["problems"],
                    json!(e.problems.codes()),
                    "{body}"
                )
            }
            _ => assert!(body["error"].get("problems").is_none(), "{body}"),
        }
    }
    // A setup with several problems names each.
    let (_, body) = post(
        &base,
        "/api/v1/position",
        json!({"fen": "4k4/9/9/9/9/9/9/9/9/4K3A w"}),
    )
    .await;
    assert_eq!(body["error"]["reason"], "setup", "{body}");
    assert_eq!(
        body["error"]["problems"],
        // Facing generals also leave the side not to move in check.
        json!(["advisor_off_points", "generals_facing", "opponent_in_check"]),
        "{body}"
    );
}

#[tokio::test]
async fn an_illegal_move_gets_its_index_and_reason() {
    let base = common::start(common::config());
    let (status, body) = post(
        &base,
        "/api/v1/position",
        json!({"moves": ["h2e2", "b9d8"]}),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (code, field, message) = error(&body);
    assert_eq!((code, field), ("illegal_move", Some("moves[1]")));
    assert_eq!(body["error"]["index"], 1);
    assert!(message.contains("leg is blocked"), "{message}");
    assert_eq!(body["error"]["reason"], "horse_leg");
    // A move that leaves the general in check.
    let fen = "4r4/3k5/9/9/9/9/9/9/R8/4K4 w - - 0 1";
    let (_, body) = post(
        &base,
        "/api/v1/position",
        json!({"fen": fen, "moves": ["a1a2"]}),
    )
    .await;
    assert!(error(&body).2.contains("check"), "{body}");
    assert_eq!(body["error"]["reason"], "ignores_check");
    // A "move" from a point to itself.
    let (status, body) = post(&base, "/api/v1/position", json!({"moves": ["a0a0"]})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(error(&body).1, Some("moves[0]"), "{body}");
    // Text that names no legal move, and text in no notation.
    let (_, body) = post(&base, "/api/v1/position", json!({"moves": ["炮二进五"]})).await;
    assert_eq!(error(&body).0, "illegal_move");
    let (status, body) = post(
        &base,
        "/api/v1/position",
        json!({"moves": ["h2e2", "xyz!"]}),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        (error(&body).0, error(&body).1),
        ("bad_notation", Some("moves[1]"))
    );
}

#[tokio::test]
async fn garbage_bodies_get_a_4xx_naming_the_field() {
    let base = common::start(common::config());
    let client = Client::new();
    for (body, status, code, field) in [
        ("", 400, "bad_json", None),
        ("not json", 400, "bad_json", None),
        ("{\"fen\": ", 400, "bad_json", None),
        ("{} trailing", 400, "bad_json", None),
        ("[1, 2]", 422, "bad_field", Some("[0]")),
        ("{\"moves\": 5}", 422, "bad_field", Some("moves")),
        (
            "{\"moves\": [\"h2e2\", 7]}",
            422,
            "bad_field",
            Some("moves[1]"),
        ),
        ("{\"rules\": \"martian\"}", 422, "bad_field", Some("rules")),
    ] {
        let res = client
            .post(format!("{base}/api/v1/position"))
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), status, "{body}");
        let json: Value = res.json().await.unwrap();
        assert_eq!(
            (error(&json).0, error(&json).1),
            (code, field),
            "{body}: {json}"
        );
    }
    let res = client
        .post(format!("{base}/api/v1/move"))
        .body("{\"limits\": {\"nodes\": \"many\"}}")
        .send()
        .await
        .unwrap();
    let json: Value = res.json().await.unwrap();
    assert_eq!(error(&json).1, Some("limits.nodes"), "{json}");
    let res = client
        .post(format!("{base}/api/v1/move"))
        .body("{\"limits\": {\"nodez\": 5}}")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422);
}

#[tokio::test]
async fn a_huge_body_is_refused() {
    let base = common::start(common::config());
    let huge = format!("{{\"fen\": \"{}\"}}", "x".repeat(2 << 20));
    let res = Client::new()
        .post(format!("{base}/api/v1/position"))
        .body(huge.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let json: Value = res.json().await.unwrap();
    assert_eq!(error(&json).0, "body_too_large");
    let res = Client::new()
        .post(format!("{base}/api/v1/records"))
        .body(huge)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn over_limit_requests_are_refused() {
    let base = common::start(xiangqi_web::Config {
        max_moves: 4,
        ..common::config()
    });
    let d = xiangqi_web::Config::default();
    let cases = [
        (
            json!({"limits": {"nodes": d.max_nodes + 1}}),
            "limits.nodes",
        ),
        (
            json!({"limits": {"depth": d.max_depth + 1}}),
            "limits.depth",
        ),
        (
            json!({"limits": {"movetime_ms": d.max_movetime_ms + 1}}),
            "limits.movetime_ms",
        ),
        (json!({"multipv": d.max_multipv + 1}), "multipv"),
        (json!({"multipv": 0}), "multipv"),
        (json!({"limits": {"depth": 0}}), "limits.depth"),
        (json!({"level": "grandmaster"}), "level"),
        (
            json!({"moves": ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]}),
            "moves",
        ),
    ];
    for (body, field) in cases {
        let (status, answer) = post(&base, "/api/v1/move", body.clone()).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(error(&answer).1, Some(field), "{body}: {answer}");
    }
    let (_, answer) = post(
        &base,
        "/api/v1/position",
        json!({"moves": ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]}),
    )
    .await;
    assert_eq!(error(&answer).0, "over_limit");
}

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

/// The events of an SSE body: (name, data).
fn events(text: &str) -> Vec<(String, Value)> {
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

/// Waits until no search runs and no stream is open (at most 2 s), and says how long it took.
async fn until_idle(base: &str) {
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

#[tokio::test]
async fn notation_conversion() {
    let base = common::start(common::config());
    let rows: Vec<Vec<&str>> = include_str!("data/notation.tsv")
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect();
    for game in ["A", "B"] {
        let game_rows: Vec<&Vec<&str>> = rows.iter().filter(|r| r[0] == game).collect();
        let fen = game_rows[0][2];
        // Sent in Chinese, converted to ICCS and WXF.
        let chinese: Vec<&str> = game_rows.iter().map(|r| r[5]).collect();
        let (status, body) = post(
            &base,
            "/api/v1/notation",
            json!({"fen": fen, "moves": chinese, "to": "iccs"}),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        let iccs: Vec<&str> = game_rows.iter().map(|r| r[3]).collect();
        assert_eq!(body["converted"], json!(iccs));
        let (_, body) = post(
            &base,
            "/api/v1/notation",
            json!({"fen": fen, "moves": iccs, "to": "wxf"}),
        )
        .await;
        // Fairy-Stockfish writes a sideways move with `=`, WXF's other form of `.`.
        let wxf: Vec<String> = game_rows.iter().map(|r| r[7].replace('=', ".")).collect();
        assert_eq!(body["converted"], json!(wxf));
    }
    let (status, body) = post(
        &base,
        "/api/v1/notation",
        json!({"moves": ["h2e2"], "to": "klingon"}),
    )
    .await;
    assert_eq!(
        (status, error(&body).1),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("to"))
    );
}

async fn upload(base: &str, bytes: impl Into<Vec<u8>>) -> (StatusCode, Value) {
    let res = Client::new()
        .post(format!("{base}/api/v1/records"))
        .body(bytes.into())
        .send()
        .await
        .unwrap();
    (res.status(), res.json().await.unwrap())
}

#[tokio::test]
async fn reading_records() {
    let base = common::start(common::config());
    let (status, body) = upload(
        &base,
        include_bytes!("data/pgn_utf8_chinese_multigame_noresult.pgn"),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["format"], "pgn");
    assert_eq!(body["games"].as_array().unwrap().len(), 15);
    assert_eq!(body["games"][0]["moves"][0]["iccs"], "h2e2");
    // Big5, black moving first from a FEN.
    let (status, body) = upload(
        &base,
        include_bytes!("data/pgn_big5_endgame_black_first.pgn"),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let game = &body["games"][0];
    assert_eq!(
        game["start_fen"],
        "4k4/4a4/5a3/3PR4/6r2/9/2pp5/9/4A4/4KA3 b - - 0 1"
    );
    assert_eq!(game["moves"].as_array().unwrap().len(), 43);
    assert_eq!(game["result"], "0-1");
    // XQF, its moves decoded independently (see xiangqi-records/tests/xqf.rs).
    let (status, body) = upload(&base, include_bytes!("data/xqf10_sample_1997.xqf")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["format"], "xqf");
    let moves: Vec<&str> = body["games"][0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["iccs"].as_str().unwrap())
        .collect();
    assert_eq!(
        moves.join(" "),
        "c3c4 h9g7 g3g4 b7c7 c0e2 b9a7 b0c2 a9b9 a0b0 b9b5 b2a2 b5h5 h2h7 c7h7 h0g2 i9h9"
    );
    // Garbage, an empty body, and a broken XQF.
    for bytes in [&b"\x00\x01garbage"[..], b"", b"XQ\x0a\x00broken"] {
        let (status, body) = upload(&base, bytes).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{bytes:?}");
        assert_eq!(error(&body).0, "bad_record");
    }
}

/// The main line of a DhtmlXQ move list decoded here, independently of the reader: four
/// digits a move, file from the left then row from the top (row 0 is black's back rank).
fn dhtmlxq_moves(list: &str) -> Vec<String> {
    let d: Vec<u8> = list.bytes().map(|b| b - b'0').collect();
    d.chunks(4)
        .map(|c| {
            let sq = |x: u8, y: u8| format!("{}{}", (b'a' + x) as char, 9 - y);
            format!("{}{}", sq(c[0], c[1]), sq(c[2], c[3]))
        })
        .collect()
}

#[tokio::test]
async fn reading_every_record_format() {
    let base = common::start(common::config());
    let file = include_str!("data/dhtmlxq_ubb_variations.txt");
    let (status, body) = upload(&base, file.as_bytes()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["format"], "ubb");
    let game = &body["games"][0];
    let list = file
        .split("[DhtmlXQ_movelist]")
        .nth(1)
        .and_then(|rest| rest.split('[').next())
        .unwrap();
    let moves: Vec<&str> = game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["iccs"].as_str().unwrap())
        .collect();
    assert_eq!(moves, dhtmlxq_moves(list));
    // The main line and its three side lines (DhtmlXQ_move_0_5_1 .. _3).
    assert_eq!(game["lines"], 4);
    let comments: Vec<(u64, &str)> = game["comments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["ply"].as_u64().unwrap(), c["text"].as_str().unwrap()))
        .collect();
    assert_eq!(
        comments,
        [
            (1, "start of main line"),
            (5, "Here branching occurrs"),
            (9, "end of main line")
        ]
    );

    // The whole tree: each move names its parent; the side lines DhtmlXQ_move_0_5_k replace
    // the main line's fifth move, so they are its siblings, in the file's order.
    let tree = game["tree"].as_array().unwrap();
    let tag = |name: &str| {
        let open = format!("[{name}]");
        file.split(&open)
            .nth(1)
            .and_then(|rest| rest.split('[').next())
            .unwrap()
    };
    let sides: Vec<Vec<String>> = (1..=3)
        .map(|k| dhtmlxq_moves(tag(&format!("DhtmlXQ_move_0_5_{k}"))))
        .collect();
    let main = dhtmlxq_moves(list);
    assert_eq!(
        tree.len(),
        main.len() + sides.iter().map(Vec::len).sum::<usize>(),
        "{game}"
    );
    let children = |parent: Option<usize>| -> Vec<usize> {
        (0..tree.len())
            .filter(|&i| tree[i]["parent"].as_u64().map(|p| p as usize) == parent)
            .collect()
    };
    // A line: from a move, its first child on and on.
    let line_from = |mut i: usize| {
        let mut out = vec![tree[i]["move"]["iccs"].as_str().unwrap().to_string()];
        while let Some(&c) = children(Some(i)).first() {
            out.push(tree[c]["move"]["iccs"].as_str().unwrap().to_string());
            i = c;
        }
        out
    };
    let roots = children(None);
    assert_eq!(roots.len(), 1);
    assert_eq!(line_from(roots[0]), main);
    let mut fourth = roots[0];
    for _ in 1..4 {
        fourth = children(Some(fourth))[0];
    }
    let branches = children(Some(fourth));
    assert_eq!(
        branches.len(),
        4,
        "the main line's fifth move and three others"
    );
    assert_eq!(line_from(branches[0]), main[4..]);
    for (k, side) in sides.iter().enumerate() {
        assert_eq!(&line_from(branches[k + 1]), side, "side line {}", k + 1);
        assert_eq!(
            tree[branches[k + 1]]["comment"],
            format!("variation {}", k + 1)
        );
    }
    // Every move is given in all three notations.
    assert!(tree
        .iter()
        .all(|n| n["move"]["chinese"].is_string() && n["move"]["wxf"].is_string()));
}

/// The PGN text `/pgn` answers for `request` (which must succeed).
async fn pgn_text(base: &str, request: Value) -> String {
    let res = Client::new()
        .post(format!("{base}/api/v1/pgn"))
        .json(&request)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    res.text().await.unwrap()
}

#[tokio::test]
async fn pgn_round_trip() {
    let base = common::start(common::config());
    let moves = ["h2e2", "h9g7", "h0g2", "i9h9"];
    let text = pgn_text(
        &base,
        json!({"moves": moves, "tags": [["Red", "许银川"], ["Black", "吕钦"]]}),
    )
    .await;
    assert!(
        text.contains("[Red \"许银川\"]") && text.contains("炮二平五"),
        "{text}"
    );
    let back = Client::new()
        .post(format!("{base}/api/v1/records"))
        .body(text)
        .send()
        .await
        .unwrap();
    let body: Value = back.json().await.unwrap();
    let read: Vec<&str> = body["games"][0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["iccs"].as_str().unwrap())
        .collect();
    assert_eq!(read, moves);
    let (status, body) = post(&base, "/api/v1/pgn", json!({"tags": [["Bad Name", "x"]]})).await;
    assert_eq!(
        (status, error(&body).1),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("tags[0]"))
    );
}

#[tokio::test]
async fn unknown_paths_and_methods_get_json() {
    let base = common::start(common::config());
    let (status, body) = get(&base, "/api/v1/nothing").await;
    assert_eq!(
        (status, error(&body).0),
        (StatusCode::NOT_FOUND, "not_found")
    );
    let (status, body) = get(&base, "/api/v1/position").await;
    assert_eq!(
        (status, error(&body).0),
        (StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed")
    );
}

#[tokio::test]
async fn a_panic_in_a_request_does_not_take_the_server_down() {
    use axum::routing::get as route_get;
    let state = xiangqi_web::AppState::new(common::config());
    let router = axum::Router::new()
        .route(
            "/boom",
            route_get(|| async { panic!("boom") as &'static str }),
        )
        .route("/fine", route_get(|| async { "fine" }));
    let app = xiangqi_web::harden(router, &state).with_state(state);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    let (status, body) = get(&base, "/boom").await;
    assert_eq!(
        (status, error(&body).0),
        (StatusCode::INTERNAL_SERVER_ERROR, "internal")
    );
    let fine = reqwest::get(format!("{base}/fine")).await.unwrap();
    assert_eq!(fine.text().await.unwrap(), "fine");
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
        /// No body, however broken, gets a 5xx: bytes, and JSON with random FEN and move text.
        #[test]
        fn never_a_5xx(bytes in proptest::collection::vec(any::<u8>(), 0..200), fen in ".{0,60}", mv in ".{0,8}") {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            let base = BASE.with(|b| b.clone());
            rt.block_on(async {
                for path in ["/api/v1/position", "/api/v1/move", "/api/v1/notation", "/api/v1/records", "/api/v1/pgn"] {
                    let res = Client::new().post(format!("{base}{path}")).body(bytes.clone()).send().await.unwrap();
                    prop_assert!(res.status().as_u16() < 500, "{path}: {}", res.status());
                }
                let body = json!({"fen": fen, "moves": [mv], "limits": {"nodes": 50}});
                for path in ["/api/v1/position", "/api/v1/move", "/api/v1/notation"] {
                    let res = Client::new().post(format!("{base}{path}")).json(&body).send().await.unwrap();
                    prop_assert!(res.status().as_u16() < 500, "{path} {body}: {}", res.status());
                }
                Ok(())
            })?;
        }
    }

    thread_local! {
        static BASE: String = common::start(common::config());
    }
}

#[tokio::test]
async fn a_client_slow_with_its_headers_is_cut_off() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let base = common::start(xiangqi_web::Config {
        header_timeout_ms: 300,
        ..common::config()
    });
    let mut stream = tokio::net::TcpStream::connect(base.trim_start_matches("http://"))
        .await
        .unwrap();
    stream
        .write_all(b"POST /api/v1/position HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let began = Instant::now();
    let mut buf = Vec::new();
    // The server closes the connection (after a 408, or without a word).
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "the connection stays open");
    assert!(
        began.elapsed() >= Duration::from_millis(250),
        "{:?}",
        began.elapsed()
    );
    let answer = String::from_utf8_lossy(&buf);
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 408"),
        "{answer}"
    );
    // Others are served meanwhile.
    let (status, _) = get(&base, "/healthz").await;
    assert_eq!(status, 200);
}

/// An upload whose trees would make a very large answer: the games past the answer's budget
/// of tree moves come with their main line only, and a warning says which.
#[tokio::test]
async fn record_trees_within_the_answer_budget() {
    let base = common::start(common::config());
    // 130 games of 400 legal plies (the horses out and back), 52,000 moves in all.
    let cycle = ["h0g2", "h9g7", "g2h0", "g7h9"];
    let game: Vec<&str> = cycle.iter().copied().cycle().take(400).collect();
    let text: String = (0..130)
        .map(|_| format!("[Format \"ICCS\"]\n\n{} *\n\n", game.join(" ")))
        .collect();
    let (status, body) = upload(&base, text).await;
    assert_eq!(status, 200);
    let games = body["games"].as_array().unwrap();
    assert_eq!(games.len(), 130);
    let budget = xiangqi_web::records::TREE_MOVES_PER_ANSWER;
    let with_tree = budget / 400;
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["moves"].as_array().unwrap().len(), 400, "game {}", i + 1);
        assert_eq!(g["tree"].is_array(), i < with_tree, "game {}", i + 1);
    }
    let warnings = body["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 130 - with_tree, "{warnings:?}");
    assert!(
        warnings[0]
            .as_str()
            .unwrap()
            .starts_with(&format!("game {}: ", with_tree + 1)),
        "{warnings:?}"
    );
}

/// A record's whole tree written back as PGN (`/pgn` with `tree`) and read again: the same
/// moves with the same parents, comments and tags; and trees that do not fit are refused,
/// naming the entry.
#[tokio::test]
async fn writing_record_trees() {
    let base = common::start(common::config());
    let (status, body) = upload(
        &base,
        include_bytes!("data/dhtmlxq_ubb_variations.txt").as_slice(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let game = &body["games"][0];
    let tree: Vec<Value> = game["tree"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            json!({"parent": n["parent"], "move": n["move"]["iccs"], "comment": n["comment"].as_str().unwrap_or("")})
        })
        .collect();
    let tags = json!([
        ["Event", "变例测试"],
        ["Red", "甲"],
        ["Black", "乙"],
        ["Result", "1-0"]
    ]);
    let text = pgn_text(
        &base,
        json!({"fen": game["start_fen"], "tree": tree, "tags": tags}),
    )
    .await;
    assert!(
        text.contains("[Event \"变例测试\"]") && text.contains('('),
        "{text}"
    );
    // The main line has not ended by the rules: the record's result stands.
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    let (status, back) = upload(&base, text.clone()).await;
    assert_eq!(status, 200, "{back}");
    let strip = |nodes: &Value| -> Vec<(Value, Value, Value)> {
        nodes
            .as_array()
            .unwrap()
            .iter()
            .map(|n| {
                (
                    n["parent"].clone(),
                    n["move"]["iccs"].clone(),
                    n["comment"].clone(),
                )
            })
            .collect()
    };
    assert_eq!(
        strip(&back["games"][0]["tree"]),
        strip(&game["tree"]),
        "{text}"
    );

    // A parent after its move, an illegal move, and both moves and a tree: each refused.
    for (request, field) in [
        (
            json!({"tree": [{"parent": 1, "move": "h2e2"}, {"move": "h9g7"}]}),
            "tree[0].parent",
        ),
        (
            json!({"tree": [{"move": "h2e2"}, {"parent": 0, "move": "h0g2"}]}),
            "tree[1].move",
        ),
        (json!({"moves": ["h2e2"], "tree": []}), "moves"),
    ] {
        let (status, body) = post(&base, "/api/v1/pgn", request.clone()).await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{request}: {body}"
        );
        assert_eq!(error(&body).1, Some(field), "{request}: {body}");
    }
}

// ---- Endgame tables --------------------------------------------------------------------

/// 车对单士 (krka), red to move: 车八平六 (b1d1) mates at once. The black general on d7 is
/// checked up the d-file; d8 stays on that file, e7 would face red's general on e0, and its
/// advisor on d9 stands behind it.
const KRKA_MATE_IN_1: &str = "3a5/9/3k5/9/9/9/9/9/1R7/4K4 w - - 0 1";

/// The `/api/v1/egtb` answer for `fen`.
async fn egtb(base: &str, fen: &str) -> (StatusCode, Value) {
    post(base, "/api/v1/egtb", json!({ "fen": fen })).await
}

#[tokio::test]
async fn egtb_a_mate_in_one() {
    let base = common::start(common::egtb_config());
    let (status, body) = egtb(&base, KRKA_MATE_IN_1).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "ok");
    assert_eq!(body["material"], "krka");
    assert_eq!(body["name"], "车对单士");
    assert_eq!(body["name_en"], "chariot vs one advisor");
    assert_eq!(body["side_to_move"], "red");
    assert_eq!(
        (&body["result"], &body["plies"], &body["by_rule"]),
        (&json!("win"), &json!(1), &json!(false))
    );
    let moves = body["moves"].as_array().unwrap();
    let best = &moves[0];
    assert_eq!(best["move"]["iccs"], "b1d1");
    assert_eq!(best["move"]["chinese"], "车八平六");
    assert_eq!(best["move"]["wxf"], "R8.6");
    assert_eq!(
        (&best["result"], &best["plies"]),
        (&json!("win"), &json!(1))
    );
    // Checked by the rules, not the table: the move mates.
    let (status, after) = post(
        &base,
        "/api/v1/position",
        json!({"fen": KRKA_MATE_IN_1, "moves": ["b1d1"]}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(after["outcome"]["reason"], "checkmate", "{after}");
    assert_eq!(after["outcome"]["winner"], "red");
    // The mated side: a loss in 0, and no move.
    let mated = Position::from_fen(after["fen"].as_str().unwrap()).unwrap();
    let (_, lost) = egtb(&base, &mated.fen()).await;
    assert_eq!(
        (&lost["result"], &lost["plies"]),
        (&json!("loss"), &json!(0))
    );
    assert_eq!(lost["moves"], json!([]));
    // The same through `moves`, as every other endpoint takes a game.
    let (_, via_moves) = post(
        &base,
        "/api/v1/egtb",
        json!({"fen": KRKA_MATE_IN_1, "moves": ["车八平六"]}),
    )
    .await;
    assert_eq!(via_moves["fen"], lost["fen"]);
    assert_eq!(via_moves["result"], "loss");
}

/// Every move's value agrees with the table's value of the position it leads to, and the
/// best move's with the position's own, in positions of each test table with either side
/// to move.
#[tokio::test]
async fn egtb_move_values_are_consistent() {
    let base = common::start(common::egtb_config());
    let tb = xiangqi_egtb::Tablebase::open(common::egtb_dir()).unwrap();
    let mut checked = 0;
    for ending in ["krka", "knka", "kpkaa"] {
        for seed in 0..4 {
            let pos = tb
                .random_position(ending.parse().unwrap(), |_| true, seed)
                .unwrap()
                .expect("a position of the ending");
            // Red to move as drawn, and black to move after red's first legal move.
            let mut positions = vec![pos.clone()];
            if let Some(&m) = pos.legal_moves().first() {
                let mut after = pos.clone();
                after.make_move(m);
                positions.push(after);
            }
            for pos in positions {
                let (status, body) = egtb(&base, &pos.fen()).await;
                assert_eq!(status, 200, "{body}");
                assert_eq!(body["status"], "ok", "{body}");
                let moves = body["moves"].as_array().unwrap();
                assert_eq!(moves.len(), pos.legal_moves().len());
                if moves.is_empty() {
                    continue;
                }
                let (result, plies) = (&body["result"], &body["plies"]);
                assert_eq!(
                    (&moves[0]["result"], &moves[0]["plies"]),
                    (result, plies),
                    "the best move has the position's value: {body}"
                );
                for mv in moves {
                    let iccs = mv["move"]["iccs"].as_str().unwrap();
                    let mut after = pos.clone();
                    after.make_move(pos.parse_uci(iccs).unwrap());
                    let (_, next) = egtb(&base, &after.fen()).await;
                    let flipped = match next["result"].as_str().unwrap() {
                        "win" => "loss",
                        "loss" => "win",
                        other => other,
                    };
                    assert_eq!(mv["result"], flipped, "{iccs} in {}", pos.fen());
                    // No rule values in tables of one attacking side.
                    assert_eq!(mv["by_rule"], false, "{iccs} in {}", pos.fen());
                    assert_eq!(
                        mv["plies"],
                        next["plies"].as_u64().map_or(Value::Null, |n| json!(n + 1)),
                        "{iccs} in {}",
                        pos.fen()
                    );
                    // Never better than the position's own value.
                    let key = |r: &Value, p: &Value| match r.as_str().unwrap() {
                        "win" => 1000 - p.as_i64().unwrap(),
                        "draw" => 0,
                        _ => -1000 + p.as_i64().unwrap(),
                    };
                    assert!(key(&mv["result"], &mv["plies"]) <= key(result, plies));
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100, "{checked} moves checked");
}

/// 车对马 (krkn): both sides have an attacking piece, so the table values some positions by
/// the perpetual-check rule. The answer says so (`by_rule`) with no distance (`plies`
/// null), for the position and for each move, every move as the table values it, best
/// first; a win by mate in the same table is no rule value.
#[tokio::test]
async fn egtb_values_by_the_perpetual_check_rule() {
    use xiangqi_core::Color;
    use xiangqi_egtb::Dtm;
    let base = common::start(common::rule_egtb_config());
    let tb = xiangqi_egtb::Tablebase::open(common::rule_egtb_dir()).unwrap();
    let krkn: xiangqi_egtb::Material = "krkn".parse().unwrap();
    let result_name = |d: Dtm| match d.wdl() {
        xiangqi_egtb::Wdl::Win => "win",
        xiangqi_egtb::Wdl::Draw => "draw",
        xiangqi_egtb::Wdl::Loss => "loss",
    };
    let mut rule_moves = 0;
    for (side, result) in [(Color::Red, "win"), (Color::Black, "loss")] {
        for seed in 0..3 {
            let pos = tb
                .random_position_to_move(krkn, side, Dtm::is_by_rule, seed)
                .unwrap()
                .expect("a position of krkn valued by the rule");
            let (status, body) = egtb(&base, &pos.fen()).await;
            assert_eq!(status, 200, "{body}");
            assert_eq!(
                (&body["status"], &body["material"], &body["name"]),
                (&json!("ok"), &json!("krkn"), &json!("车对马")),
                "{body}"
            );
            assert_eq!(body["result"], result, "{body}");
            assert_eq!(body["by_rule"], true, "{body}");
            assert_eq!(body["plies"], Value::Null, "{body}");
            let moves = body["moves"].as_array().unwrap();
            let table = tb.probe_moves(&pos).unwrap().expect("the table's moves");
            assert_eq!(moves.len(), table.len());
            assert!(!moves.is_empty(), "{body}");
            assert_eq!(
                (
                    &moves[0]["result"],
                    &moves[0]["by_rule"],
                    &moves[0]["plies"]
                ),
                (&body["result"], &body["by_rule"], &body["plies"]),
                "the best move has the position's value: {body}"
            );
            for (mv, expected) in moves.iter().zip(&table) {
                let value = expected.value.expect("krkn leads only into tables");
                assert_eq!(mv["move"]["iccs"], expected.mv.to_string(), "{body}");
                assert_eq!(mv["result"], result_name(value), "{mv}");
                assert_eq!(mv["by_rule"], value.is_by_rule(), "{mv}");
                assert_eq!(mv["plies"], json!(value.plies()), "{mv}");
                if value.is_by_rule() {
                    assert!(mv["plies"].is_null(), "{mv}");
                    rule_moves += 1;
                }
            }
            assert!(table
                .windows(2)
                .all(|w| w[0].value.map(Dtm::preference) >= w[1].value.map(Dtm::preference)));
        }
    }
    assert!(rule_moves >= 6, "{rule_moves} moves valued by the rule");
    // A win by mate in the same table: a distance, and not by the rule.
    let mate = tb
        .random_position(krkn, |d| matches!(d, Dtm::Win(_)), 1)
        .unwrap()
        .expect("a position of krkn won by mate");
    let (_, body) = egtb(&base, &mate.fen()).await;
    assert_eq!(
        (&body["result"], &body["by_rule"]),
        (&json!("win"), &json!(false)),
        "{body}"
    );
    assert!(body["plies"].as_u64().is_some_and(|n| n % 2 == 1), "{body}");
}

#[tokio::test]
async fn egtb_no_table_and_errors() {
    let base = common::start(common::egtb_config());
    // 车对双士 has no table in the test folder: a typed answer, not an error.
    let (status, body) = egtb(&base, "3a1a3/4k4/9/9/9/9/9/9/9/R2K5 w - - 0 1").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "no_table");
    assert_eq!(body["material"], "krkaa");
    assert_eq!(body["name"], "车对双士");
    assert!(body["result"].is_null() && body["plies"].is_null());
    assert_eq!(body["moves"], json!([]));
    // The start position: no table either.
    let (_, start) = post(&base, "/api/v1/egtb", json!({})).await;
    assert_eq!(start["status"], "no_table");
    // Nobody can attack: a draw by the rules, without a table.
    let (_, bare) = egtb(&base, "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1").await;
    assert_eq!(
        (&bare["status"], &bare["result"]),
        (&json!("ok"), &json!("draw"))
    );
    // A bad FEN, an illegal move and a bad body get the API's usual errors.
    let (status, body) = egtb(&base, "rnbakabnr/9/9 w").await;
    assert_eq!(status, 422);
    assert_eq!(error(&body).0, "bad_fen");
    assert_eq!(error(&body).1, Some("fen"));
    let (status, body) = post(
        &base,
        "/api/v1/egtb",
        json!({"fen": KRKA_MATE_IN_1, "moves": ["b1c2"]}),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        (error(&body).0, error(&body).1),
        ("illegal_move", Some("moves[0]"))
    );
    let (status, body) = post(&base, "/api/v1/egtb", json!({"fen": 7})).await;
    assert_eq!(
        (status, error(&body).0),
        (StatusCode::UNPROCESSABLE_ENTITY, "bad_field")
    );
    // A server without tables says so, in the same shape.
    let off = common::start(common::config());
    let (status, body) = egtb(&off, KRKA_MATE_IN_1).await;
    assert_eq!(
        (status, body["status"].as_str()),
        (StatusCode::OK, Some("off"))
    );
    let (_, info) = get(&off, "/api/v1/info").await;
    assert_eq!(info["egtb"]["enabled"], false);
    let (status, body) = post(&off, "/api/v1/egtb/trainer", json!({"ending": "krka"})).await;
    assert_eq!(
        (status, error(&body).0),
        (StatusCode::UNPROCESSABLE_ENTITY, "no_table")
    );
}

#[tokio::test]
async fn egtb_endings_and_info() {
    let base = common::start(common::egtb_config());
    let (status, info) = get(&base, "/api/v1/info").await;
    assert_eq!(status, 200);
    let egtb = &info["egtb"];
    assert_eq!(
        (&egtb["enabled"], &egtb["ready"]),
        (&json!(true), &json!(true))
    );
    assert_eq!(egtb["tables"], 7, "{egtb}"); // krka, knka, kpkaa and krk, knk, kpk, kpka
    assert_eq!(egtb["folder"], "xiangqi-web-egtb-api");
    assert_eq!(egtb["max_pieces"], 5);
    let (status, body) = get(&base, "/api/v1/egtb/endings").await;
    assert_eq!(status, 200);
    assert_eq!(body["ready"], true);
    let endings = body["endings"].as_array().unwrap();
    let names: Vec<&str> = endings
        .iter()
        .map(|e| e["material"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["krk", "krka", "knk", "knka", "kpk", "kpka", "kpkaa"],
        "chariot, horse, pawn; each by defence"
    );
    let krka = &endings[1];
    assert_eq!(
        (&krka["name"], &krka["name_en"], &krka["pieces"]),
        (
            &json!("车对单士"),
            &json!("chariot vs one advisor"),
            &json!(4)
        )
    );
    assert_eq!(krka["trainer"], true);
}

#[tokio::test]
async fn egtb_trainer_positions() {
    let base = common::start(common::egtb_config());
    let tb = xiangqi_egtb::Tablebase::open(common::egtb_dir()).unwrap();
    for (ending, name) in [("knka", "knka"), ("车对单士", "krka"), ("KPKAA", "kpkaa")] {
        for seed in [1u64, 2] {
            let (status, body) = post(
                &base,
                "/api/v1/egtb/trainer",
                json!({"ending": ending, "seed": seed}),
            )
            .await;
            assert_eq!(status, 200, "{ending}: {body}");
            assert_eq!(body["material"], name);
            assert_eq!(body["seed"], seed);
            let pos = Position::from_fen(body["fen"].as_str().unwrap()).unwrap();
            assert_eq!(pos.side_to_move(), xiangqi_core::Color::Red);
            assert_eq!(xiangqi_egtb::Material::of(&pos).to_string(), name);
            assert!(
                xiangqi_egtb::Material::of(&pos).is_canonical(),
                "red is the strong side"
            );
            // Won for red, not trivially: what the table says, and what the answer says.
            let value = tb.probe_dtm(&pos).unwrap().unwrap();
            assert_eq!(
                (body["result"].as_str(), body["plies"].as_u64()),
                (Some("win"), value.plies().map(u64::from))
            );
            assert!(
                matches!(value, xiangqi_egtb::Dtm::Win(n) if n >= 9),
                "{value} in {}",
                pos.fen()
            );
            // The same seed draws the same position.
            let (_, again) = post(
                &base,
                "/api/v1/egtb/trainer",
                json!({"ending": ending, "seed": seed}),
            )
            .await;
            assert_eq!(again["fen"], body["fen"]);
        }
    }
    // Without a seed: one is drawn and said.
    let (status, body) = post(&base, "/api/v1/egtb/trainer", json!({"ending": "krka"})).await;
    assert_eq!(status, 200);
    assert!(body["seed"].is_u64());
    // An ending not in the folder, a name that is no ending, a missing field.
    for (request, code) in [
        (json!({"ending": "krkaa"}), "no_table"),
        (json!({"ending": "kxk"}), "bad_ending"),
        (json!({"ending": "车对士象全"}), "bad_ending"),
    ] {
        let (status, body) = post(&base, "/api/v1/egtb/trainer", request.clone()).await;
        assert_eq!(status, 422, "{request}");
        assert_eq!(error(&body).0, code, "{request}");
        assert_eq!(error(&body).1, Some("ending"));
    }
    let (status, body) = post(&base, "/api/v1/egtb/trainer", json!({})).await;
    assert_eq!(
        (status, error(&body).0),
        (StatusCode::UNPROCESSABLE_ENTITY, "bad_field")
    );
}

/// The table's quickest mates in `pos`, by ICCS, and their distance in plies.
fn table_best(tb: &xiangqi_egtb::Tablebase, pos: &Position) -> (Vec<String>, u16) {
    let moves = tb.probe_moves(pos).unwrap().unwrap();
    let best = moves[0].value;
    let Some(xiangqi_egtb::Dtm::Win(plies)) = tb.probe_dtm(pos).unwrap() else {
        panic!("{} is not won", pos.fen())
    };
    let mates = moves
        .iter()
        .filter(|m| m.value == best)
        .map(|m| m.mv.to_string())
        .collect();
    (mates, plies)
}

/// A won position of `ending` with the mate `min` plies or more away.
fn won_position(tb: &xiangqi_egtb::Tablebase, ending: &str, min: u16, seed: u64) -> Position {
    let want = |d| matches!(d, xiangqi_egtb::Dtm::Win(n) if n >= min);
    tb.random_position(ending.parse().unwrap(), want, seed)
        .unwrap()
        .unwrap_or_else(|| panic!("no {ending} win of {min} plies"))
}

/// The engine pool plays with the server's tables: at full strength (no level, or `full`) a
/// position with a table is played from it, the quickest mate, scored at depth 1 as a mate of
/// the table's distance, in a move and in an analysis stream; a weaker level searches.
#[tokio::test]
async fn egtb_engine_moves_follow_the_table() {
    let base = common::start(common::egtb_config());
    let tb = xiangqi_egtb::Tablebase::open(common::egtb_dir()).unwrap();
    for (ending, seed) in [("knka", 1u64), ("krka", 2), ("kpkaa", 3)] {
        let pos = won_position(&tb, ending, 9, seed);
        let (mates, plies) = table_best(&tb, &pos);
        let mate = (i64::from(plies) + 1) / 2;
        for request in [
            json!({"fen": pos.fen()}),
            json!({"fen": pos.fen(), "level": "full", "limits": {"movetime_ms": 5000}}),
        ] {
            let asked = Instant::now();
            let (status, body) = post(&base, "/api/v1/move", request.clone()).await;
            assert_eq!(status, 200, "{request}: {body}");
            assert_eq!(body["source"], "search", "{body}");
            let best = body["best_move"]["iccs"].as_str().unwrap();
            assert!(
                mates.iter().any(|m| m == best),
                "{ending} {}: {body}",
                pos.fen()
            );
            assert_eq!(body["depth"], 1, "{body}");
            assert_eq!(
                body["score"]["mate"],
                mate,
                "{ending} {}: {body}",
                pos.fen()
            );
            assert_eq!(body["pv"][0]["iccs"], best);
            // The table answers at once, not at the end of the move time.
            assert!(asked.elapsed() < Duration::from_secs(3), "{request}");
        }
        let res = Client::new()
            .post(format!("{base}/api/v1/analysis"))
            .json(&json!({"fen": pos.fen()}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        let events = events(&res.text().await.unwrap());
        let info = events
            .iter()
            .find(|(n, _)| n == "info")
            .map(|(_, d)| d)
            .expect("an info event");
        assert_eq!((&info["depth"], &info["multipv"]), (&json!(1), &json!(1)));
        assert_eq!(info["score"]["mate"], mate, "{info}");
        assert!(mates
            .iter()
            .any(|m| info["pv"][0]["iccs"].as_str() == Some(m.as_str())));
        let (name, done) = events.last().unwrap();
        assert_eq!(name, "bestmove");
        assert_eq!(done["score"]["mate"], mate, "{done}");
    }
    // A weaker level plays without the tables: it searches.
    let pos = won_position(&tb, "krka", 9, 5);
    let (status, body) = post(
        &base,
        "/api/v1/move",
        json!({"fen": pos.fen(), "level": "club", "seed": 1}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(body["depth"].as_u64().unwrap() > 1, "{body}");
}

/// A server whose folder lacks the starter set answers at once, says the tables are not
/// ready while it generates them on a thread of its own, and then answers from them.
#[tokio::test]
async fn egtb_starter_set_generated_in_the_background() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("xiangqi-web-egtb-starter");
    let _ = std::fs::remove_dir_all(&dir);
    let base = common::start(xiangqi_web::Config {
        no_egtb: false,
        egtb_dir: Some(dir.clone()),
        ..common::config()
    });
    let asked = Instant::now();
    let (status, body) = egtb(&base, KRKA_MATE_IN_1).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "not_ready", "{body}");
    assert!(body["result"].is_null());
    assert_eq!(body["material"], "krka");
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "the server does not wait for the tables"
    );
    let (_, info) = get(&base, "/api/v1/info").await;
    assert_eq!(
        (&info["egtb"]["enabled"], &info["egtb"]["ready"]),
        (&json!(true), &json!(false))
    );
    assert!(info["egtb"]["generating"]["of"].is_u64(), "{info}");
    let res = Client::new()
        .post(format!("{base}/api/v1/egtb/trainer"))
        .json(&json!({"ending": "krka"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(res.headers().contains_key("retry-after"));
    let body: Value = res.json().await.unwrap();
    assert_eq!(error(&body).0, "egtb_not_ready");
    let (_, endings) = get(&base, "/api/v1/egtb/endings").await;
    assert_eq!(endings["ready"], false);
    // Other requests are served meanwhile.
    let (status, _) = post(&base, "/api/v1/position", json!({})).await;
    assert_eq!(status, 200);
    let began = Instant::now();
    loop {
        let (_, info) = get(&base, "/api/v1/info").await;
        if info["egtb"]["ready"] == true {
            assert!(info["egtb"]["tables"].as_u64().unwrap() >= 36, "{info}");
            break;
        }
        assert!(info["egtb"]["error"].is_null(), "{info}");
        assert!(
            began.elapsed() < Duration::from_secs(300),
            "the starter set took over 300 s"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let (_, body) = egtb(&base, KRKA_MATE_IN_1).await;
    assert_eq!((&body["status"], &body["plies"]), (&json!("ok"), &json!(1)));
    // The engine pool got the tables generated in the background.
    let tb = xiangqi_egtb::Tablebase::open(&dir).unwrap();
    let pos = won_position(&tb, "knka", 9, 3);
    let (mates, plies) = table_best(&tb, &pos);
    let (_, body) = post(&base, "/api/v1/move", json!({"fen": pos.fen()})).await;
    assert_eq!(body["depth"], 1, "{body}");
    assert_eq!(body["score"]["mate"], (i64::from(plies) + 1) / 2, "{body}");
    assert!(mates
        .iter()
        .any(|m| body["best_move"]["iccs"] == m.as_str()));
    let (_, endings) = get(&base, "/api/v1/egtb/endings").await;
    assert!(endings["endings"].as_array().unwrap().len() >= 36);
    assert!(xiangqi_egtb::is_complete(
        &dir,
        &xiangqi_egtb::starter_endings()
    ));
    // Each table written under a name of its own and renamed: nothing of that is left.
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.') || n.ends_with(".part"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A folder whose starter tables cannot be read (here: not tables at all, as tables of an
/// older format would be) gets the starter set generated again over them.
#[tokio::test]
async fn egtb_unreadable_tables_are_generated_again() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("xiangqi-web-egtb-unreadable");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for m in xiangqi_egtb::with_dependencies(&xiangqi_egtb::starter_endings()) {
        std::fs::write(xiangqi_egtb::table_path(&dir, m), b"not a table").unwrap();
    }
    assert!(xiangqi_egtb::Tablebase::open(&dir).is_err());
    let base = common::start(xiangqi_web::Config {
        no_egtb: false,
        egtb_dir: Some(dir.clone()),
        ..common::config()
    });
    let (_, body) = egtb(&base, KRKA_MATE_IN_1).await;
    assert_eq!(body["status"], "not_ready", "{body}");
    let began = Instant::now();
    loop {
        let (_, info) = get(&base, "/api/v1/info").await;
        if info["egtb"]["ready"] == true {
            break;
        }
        assert!(info["egtb"]["error"].is_null(), "{info}");
        assert!(
            began.elapsed() < Duration::from_secs(300),
            "the starter set took over 300 s"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let (_, body) = egtb(&base, KRKA_MATE_IN_1).await;
    assert_eq!((&body["status"], &body["plies"]), (&json!("ok"), &json!(1)));
    assert!(xiangqi_egtb::Tablebase::open(&dir).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}

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
