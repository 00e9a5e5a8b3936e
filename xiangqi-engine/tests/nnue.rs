//! The NNUE options under UCI: `Use NNUE` switches the evaluator, `EvalFile` loads a net,
//! and a file that is not a net is refused with the reason while the engine plays on.

mod common;

use common::{legal_bestmove, Engine};
use xiangqi_core::Position;

fn uci_engine() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(
        lines
            .iter()
            .any(|l| l == "option name Use NNUE type check default true"),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "option name EvalFile type string default <embedded>"),
        "{lines:?}"
    );
    e
}

fn temp_file(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("xiangqi-engine-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn use_nnue_and_eval_file() {
    let mut e = uci_engine();
    e.send("setoption name Use NNUE value false");
    let lines = e.sync();
    assert_eq!(
        lines,
        ["info string evaluation: hand-written (net <embedded> loaded; Use NNUE switches to it)"]
    );
    e.send("position startpos");
    e.send("go depth 5");
    let (_, best) = e.read_bestmove();
    legal_bestmove(&best, &Position::startpos());
    e.send("setoption name Use NNUE value true");
    let lines = e.sync();
    assert_eq!(lines, ["info string evaluation: NNUE, net <embedded>"]);
    e.send("position startpos moves h2e2");
    e.send("go depth 6");
    let (_, best) = e.read_bestmove();
    let pos = Position::startpos()
        .after(Position::startpos().parse_uci("h2e2").unwrap())
        .unwrap();
    legal_bestmove(&best, &pos);

    // A copy of the embedded net, loaded from a file.
    let net = temp_file("good.nnue", &xiangqi_nnue::Network::embedded().to_bytes());
    e.send(&format!("setoption name EvalFile value {}", net.display()));
    assert_eq!(
        e.sync(),
        [format!(
            "info string evaluation: NNUE, net {}",
            net.display()
        )]
    );

    // Damaged files: refused with the reason, the loaded net kept.
    let mut bytes = std::fs::read(&net).unwrap();
    bytes.truncate(bytes.len() / 2);
    let half = temp_file("half.nnue", &bytes);
    e.send(&format!("setoption name EvalFile value {}", half.display()));
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("truncated"), "{lines:?}");
    let missing = std::env::temp_dir().join("xiangqi-engine-no-such-net.nnue");
    e.send(&format!(
        "setoption name EvalFile value {}",
        missing.display()
    ));
    let lines = e.sync();
    assert!(lines[0].contains("cannot read the net"), "{lines:?}");

    e.send("position startpos");
    e.send("go nodes 5000");
    let (_, best) = e.read_bestmove();
    legal_bestmove(&best, &Position::startpos());

    e.send("setoption name Use NNUE value false");
    assert_eq!(
        e.sync(),
        [format!(
            "info string evaluation: hand-written (net {} loaded; Use NNUE switches to it)",
            net.display()
        )]
    );
    e.send("quit");
    assert!(e.wait_exit().success());
    for f in [net, half] {
        let _ = std::fs::remove_file(f);
    }
}

/// A layered net (format 3) loads through `EvalFile` like the older ones, and the engine plays
/// with it; `eval` shows its score.
#[test]
fn eval_file_takes_a_layered_net() {
    let shape = xiangqi_nnue::layered::Shape {
        width: 64,
        hidden1: 16,
        hidden2: 0,
        ..Default::default()
    };
    let layered = xiangqi_nnue::LayeredNet::random(shape, 7).unwrap();
    let net = temp_file("layered.nnue", &layered.to_bytes());
    let mut e = uci_engine();
    e.send(&format!("setoption name EvalFile value {}", net.display()));
    assert_eq!(
        e.sync(),
        [format!(
            "info string evaluation: NNUE, net {}",
            net.display()
        )]
    );
    e.send("position startpos moves h2e2 h9g7");
    e.send("go depth 5");
    let (_, best) = e.read_bestmove();
    let mut pos = Position::startpos();
    for m in ["h2e2", "h9g7"] {
        pos = pos.after(pos.parse_uci(m).unwrap()).unwrap();
    }
    legal_bestmove(&best, &pos);
    e.send("quit");
    assert!(e.wait_exit().success());
    let _ = std::fs::remove_file(net);
}
