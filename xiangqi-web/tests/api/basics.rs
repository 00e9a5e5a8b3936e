//! Health, the page and its files, positions and their errors, and the limits on requests.

use crate::common;
use crate::http::{error, get, post};
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};
use xiangqi_core::Position;

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
        "tables.js",
        "lines.js",
        "files.js",
        "scores.js",
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
