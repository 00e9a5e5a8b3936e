//! The evaluator flags: `--classical-eval` and `--eval-file` choose what the pooled engines
//! search with. Each server's answer is checked against the same search run in-process
//! with that evaluator, and a bad net file stops the binary at start-up with the reason.

mod common;

use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;
use xiangqi_core::{Game, Position};
use xiangqi_nnue::{EvalChoice, Network};
use xiangqi_search::{Limits, Searcher};
use xiangqi_web::{Config, NetFile};

/// The net built into the crates, as a file: loading it must give the embedded answers.
fn default_net() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../xiangqi-nnue/nets/default.nnue")
        .to_string_lossy()
        .into_owned()
}

const MOVES: [&str; 4] = ["h2e2", "h9g7", "h0g2", "i9h9"];
const DEPTH: u32 = 6;

/// The JSON answer to `request`.
async fn answer(request: reqwest::RequestBuilder) -> Value {
    let res = request.send().await.expect("the server answers");
    res.json().await.expect("a JSON answer")
}

/// `/info`, and score and move of a depth-limited search over HTTP.
async fn served(config: Config) -> (Value, Value) {
    let base = common::start(config);
    let client = reqwest::Client::new();
    let info = answer(client.get(format!("{base}/api/v1/info"))).await;
    let body = json!({"moves": MOVES, "limits": {"depth": DEPTH}, "book": false, "seed": 1});
    let played = answer(client.post(format!("{base}/api/v1/move")).json(&body)).await;
    (info, played)
}

/// Score and move (ICCS) of the same search in-process.
fn in_process(evaluator: EvalChoice) -> (i32, String) {
    let mut game = Game::new(Position::startpos());
    for m in MOVES {
        let m = game.position().parse_uci(m).expect("a legal move");
        game.play(m).expect("a legal move");
    }
    let mut s = Searcher::with_evaluator(evaluator);
    s.set_hash_size(common::config().hash_mb);
    s.set_seed(1);
    let limits = Limits {
        depth: Some(DEPTH),
        ..Limits::default()
    };
    let r = s.search(&game, &limits, &mut |_| {});
    (r.score.0, r.best_move.expect("a move").to_string())
}

fn score_and_move(answer: &Value) -> (i32, String) {
    (
        answer["score"]["cp"].as_i64().expect("a centipawn score") as i32,
        answer["best_move"]["iccs"]
            .as_str()
            .expect("a move")
            .to_owned(),
    )
}

#[tokio::test]
async fn the_flags_choose_the_evaluator() {
    let (info, nnue) = served(common::config()).await;
    assert_eq!(info["evaluator"], "nnue");
    assert_eq!(info["net"], "embedded");
    let expected_nnue = in_process(EvalChoice::default());
    assert_eq!(score_and_move(&nnue), expected_nnue, "{nnue}");

    let (info, classical) = served(Config {
        classical_eval: true,
        ..common::config()
    })
    .await;
    assert_eq!(info["evaluator"], "classical");
    assert_eq!(info["net"], Value::Null);
    let expected_classical = in_process(EvalChoice::classical());
    assert_eq!(
        score_and_move(&classical),
        expected_classical,
        "{classical}"
    );
    assert_ne!(
        expected_classical.0, expected_nnue.0,
        "the two evaluators should score this position differently"
    );

    let file = NetFile::load(&default_net()).expect("the repository's net loads");
    let (info, from_file) = served(Config {
        eval_file: Some(file),
        ..common::config()
    })
    .await;
    assert_eq!(info["evaluator"], "nnue");
    assert_eq!(info["net"], "default.nnue");
    let net = std::sync::Arc::new(Network::load(default_net()).unwrap());
    let expected_file = in_process(EvalChoice::with_network(net));
    assert_eq!(score_and_move(&from_file), expected_file, "{from_file}");
}

/// The binary's exit status and standard error for `args`.
fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi-web"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_bad_net_file_stops_the_server_at_start_up() {
    let dir = std::env::temp_dir().join(format!("xiangqi-web-evaluator-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let garbage = dir.join("garbage.nnue");
    std::fs::write(&garbage, b"not a net at all").unwrap();
    let missing = dir.join("missing.nnue");
    let listen = ["--listen", "127.0.0.1:0"];

    let (code, err) = run(&[&listen[..], &["--eval-file", garbage.to_str().unwrap()]].concat());
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--eval-file") && err.contains("net"), "{err}");

    let (code, err) = run(&[&listen[..], &["--eval-file", missing.to_str().unwrap()]].concat());
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("cannot read the net"), "{err}");

    let (code, err) = run(&[
        &listen[..],
        &["--eval-file", &default_net(), "--classical-eval"],
    ]
    .concat());
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("cannot be used with"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
