//! A session of CECP (XBoard) lines through the engine's parser; each move it reads is
//! checked against a position as the session would.
#![no_main]
use libfuzzer_sys::fuzz_target;
use xiangqi_core::Position;

#[path = "engine/mod.rs"]
mod engine;
// The engine's files name each other from the crate root.
use engine::{cecp, command, notation, options};

fuzz_target!(|text: &str| {
    let mut pos = Position::startpos();
    for line in text.lines().take(200) {
        let Ok(cmd) = cecp::parse::parse(line) else {
            continue;
        };
        if let cecp::parse::Cmd::UserMove(m) = cmd {
            if let Ok(mv) = notation::parse(&pos, &m, notation::Ranks::FromZero) {
                pos.play(mv).expect("a move the notation reads is legal");
            }
        }
    }
});
