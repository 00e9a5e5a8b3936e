//! Notation, reading and writing records (every format, whole trees), and the server's own
//! robustness: unknown paths, a panicking handler, broken bodies, a client slow with its headers.

use crate::common;
use crate::http::{error, get, post, upload};
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

#[tokio::test]
async fn notation_conversion() {
    let base = common::start(common::config());
    let rows: Vec<Vec<&str>> = include_str!("../data/notation.tsv")
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

#[tokio::test]
async fn reading_records() {
    let base = common::start(common::config());
    let (status, body) = upload(
        &base,
        include_bytes!("../data/pgn_utf8_chinese_multigame_noresult.pgn"),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["format"], "pgn");
    assert_eq!(body["games"].as_array().unwrap().len(), 15);
    assert_eq!(body["games"][0]["moves"][0]["iccs"], "h2e2");
    // Big5, black moving first from a FEN.
    let (status, body) = upload(
        &base,
        include_bytes!("../data/pgn_big5_endgame_black_first.pgn"),
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
    let (status, body) = upload(&base, include_bytes!("../data/xqf10_sample_1997.xqf")).await;
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
    let file = include_str!("../data/dhtmlxq_ubb_variations.txt");
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
        include_bytes!("../data/dhtmlxq_ubb_variations.txt").as_slice(),
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
