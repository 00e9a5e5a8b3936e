//! The engine's protocol front ends, compiled here from `xiangqi-engine`'s own files (a
//! binary crate, so they cannot be a dependency): the command parsers and the move notation
//! they hand positions to.
#![allow(dead_code, unused_imports)]

pub mod cecp;
#[path = "../../../xiangqi-engine/src/command.rs"]
pub mod command;
#[path = "../../../xiangqi-engine/src/notation.rs"]
pub mod notation;
#[path = "../../../xiangqi-engine/src/options.rs"]
pub mod options;

use xiangqi_core::Position;

/// What a session does with a `position` line: the start, then each move in turn, as
/// `session.rs` plays them; stops at the first move that is not legal.
pub fn play_position(spec: &command::PositionSpec, ranks: notation::Ranks) {
    let start = match &spec.fen {
        None => Position::startpos(),
        Some(fen) => match Position::from_fen(fen) {
            Ok(p) => p,
            Err(_) => return,
        },
    };
    let mut pos = start;
    for text in spec.moves.iter().take(1000) {
        let Ok(m) = notation::parse(&pos, text, ranks) else {
            return;
        };
        pos.play(m).expect("a move the notation reads is legal");
    }
}
