//! The `serde` feature: the written forms, round trips, and refusals that name the problem.
//! Run with `cargo test -p xiangqi-core --features serde`.

use proptest::prelude::*;
use serde_json::{from_str, json, to_string, to_value};
use xiangqi_core::{Color, Game, Move, Piece, Position, Role, Square};

#[test]
fn values_are_written_as_people_write_them() {
    let pos = Position::startpos();
    let m = pos.parse_uci("h2e2").unwrap();
    assert_eq!(to_value(m.from()).unwrap(), json!("h2"));
    assert_eq!(to_value(m).unwrap(), json!("h2e2"));
    assert_eq!(
        to_value(Piece::new(Color::Red, Role::Chariot)).unwrap(),
        json!("R")
    );
    assert_eq!(
        to_value(Piece::new(Color::Black, Role::Cannon)).unwrap(),
        json!("c")
    );
    assert_eq!(to_value(Color::Black).unwrap(), json!("black"));
    assert_eq!(to_value(Role::Horse).unwrap(), json!("horse"));
    assert_eq!(to_value(&pos).unwrap(), json!(pos.fen()));
    let mut game = Game::new(pos.clone());
    game.play(m).unwrap();
    assert_eq!(
        to_value(&game).unwrap(),
        json!({ "start": pos.fen(), "moves": ["h2e2"] })
    );
}

#[test]
fn every_square_piece_colour_and_role_round_trips() {
    for s in Square::all() {
        assert_eq!(from_str::<Square>(&to_string(&s).unwrap()).unwrap(), s);
    }
    for i in 0..14 {
        let p = Piece::from_index(i).unwrap();
        assert_eq!(from_str::<Piece>(&to_string(&p).unwrap()).unwrap(), p);
    }
    for c in [Color::Red, Color::Black] {
        assert_eq!(from_str::<Color>(&to_string(&c).unwrap()).unwrap(), c);
    }
    for r in Role::ALL {
        assert_eq!(from_str::<Role>(&to_string(&r).unwrap()).unwrap(), r);
    }
}

#[test]
fn bad_input_is_refused_with_the_reason() {
    let err = |r: Result<(), serde_json::Error>| r.unwrap_err().to_string();
    assert!(err(from_str::<Square>("\"j0\"").map(drop)).contains("not a square"));
    assert!(err(from_str::<Move>("\"h2h2\"").map(drop)).contains("h2h2"));
    assert!(err(from_str::<Move>("\"h2e\"").map(drop)).contains("h2e"));
    assert!(err(from_str::<Piece>("\"x\"").map(drop)).contains("not a piece"));
    assert!(err(from_str::<Piece>("\"RR\"").map(drop)).contains("not a piece"));
    assert!(err(from_str::<Color>("\"white\"").map(drop)).contains("not a colour"));
    assert!(err(from_str::<Square>("7").map(drop)).contains("a square"));
    // Generals facing each other: the FEN reader's own reason comes through.
    let facing = "\"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"";
    assert!(from_str::<Position>(facing).is_err());
    // A game whose second move is illegal: refused, naming the move.
    let start = Position::startpos().fen();
    let text = json!({ "start": start, "moves": ["h2e2", "h2e2"] }).to_string();
    let e = err(from_str::<Game>(&text).map(drop));
    assert!(e.contains("move 2 (h2e2)"), "{e}");
    let text = json!({ "moves": [] }).to_string();
    assert!(err(from_str::<Game>(&text).map(drop)).contains("start"));
    let text = json!({ "start": start, "moves": [], "extra": 1 }).to_string();
    assert!(err(from_str::<Game>(&text).map(drop)).contains("extra"));
    // Without moves, a game is its start position.
    let g: Game = from_str(&json!({ "start": start }).to_string()).unwrap();
    assert_eq!(g, Game::new(Position::startpos()));
}

proptest! {
    /// Games from random playouts come back equal: same start, moves, and so positions.
    #[test]
    fn games_round_trip(choices in prop::collection::vec(any::<prop::sample::Index>(), 0..80)) {
        let mut game = Game::new(Position::startpos());
        for c in choices {
            let moves = game.position().legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[c.index(moves.len())]).unwrap();
        }
        let text = to_string(&game).unwrap();
        let back: Game = from_str(&text).unwrap();
        prop_assert_eq!(&back, &game);
        let pos = game.position();
        prop_assert_eq!(&from_str::<Position>(&to_string(pos).unwrap()).unwrap(), pos);
        // As a sequence too (serde's compact form for formats without field names).
        let seq = json!([game.start_position(), game.moves()]).to_string();
        prop_assert_eq!(&from_str::<Game>(&seq).unwrap(), &game);
    }
}
