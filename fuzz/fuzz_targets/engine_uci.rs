//! A session of Uci lines (one line per input line) through the engine's command parser;
//! each `position` is played out as the session would.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "engine/mod.rs"]
mod engine;
// The engine's files name each other from the crate root.
use engine::{command, notation, options};

fuzz_target!(|text: &str| {
    for line in text.lines().take(200) {
        let Ok(parsed) = command::parse(line, command::Protocol::Uci) else {
            continue;
        };
        if let command::Command::Position(spec) = &parsed.command {
            for ranks in [notation::Ranks::FromZero, notation::Ranks::FromOne] {
                engine::play_position(spec, ranks);
            }
        }
    }
});
