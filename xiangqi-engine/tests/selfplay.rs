//! A whole game between two instances of the binary, driven through UCI, that must end by
//! the rules (checkmate, stalemate, repetition verdict or the sixty-move rule).

mod common;

use common::{legal_bestmove, Engine};
use xiangqi_core::{Color, Game, Position, RuleSet};

#[test]
fn two_engines_play_a_game_to_its_end() {
    let mut red = Engine::start();
    let mut black = Engine::start();
    for e in [&mut red, &mut black] {
        e.send("uci");
        e.read_until(|l| l == "uciok");
        e.send("setoption name Hash value 4");
        e.send("ucinewgame");
        e.sync();
    }
    let mut game = Game::new(Position::startpos());
    let mut moves: Vec<String> = Vec::new();
    let outcome = loop {
        if let Some(o) = game.outcome(RuleSet::Asian) {
            break o;
        }
        assert!(moves.len() < 1500, "no result after {} plies", moves.len());
        let e = match game.position().side_to_move() {
            Color::Red => &mut red,
            Color::Black => &mut black,
        };
        if moves.is_empty() {
            e.send("position startpos");
        } else {
            e.send(&format!("position startpos moves {}", moves.join(" ")));
        }
        // Node limits keep the game quick and the same on any machine.
        e.send("go nodes 3000");
        let (_, best) = e.read_bestmove();
        let m = legal_bestmove(&best, game.position());
        game.play(m).unwrap();
        moves.push(m.to_string());
    };
    eprintln!(
        "{} after {} plies: {}",
        outcome,
        moves.len(),
        moves.join(" ")
    );
    for e in [&mut red, &mut black] {
        e.send("quit");
        assert!(e.wait_exit().success());
    }
}
