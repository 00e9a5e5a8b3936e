//! The endgame tables: probes, move values, the perpetual-check rule, the trainer, the engine
//! playing from the tables, and the starter set generated in the background.

use crate::common;
use crate::http::{error, events, get, post};
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use xiangqi_core::Position;

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
