//! # xiangqi-engine
//!
//! The xiangqi engine as a program for GUIs and tournament managers: it speaks UCI as
//! Pikafish does, and UCCI (as ElephantEye does) when the first command is `ucci`.
//!
//! ```text
//! cargo build --release -p xiangqi-engine
//! target/release/xiangqi-engine            # then type: uci, position startpos, go depth 10
//! target/release/xiangqi-engine bench      # the fixed benchmark: node count and speed
//! ```
//!
//! Command-line arguments, if any, are run as one command and the program exits (so
//! `xiangqi-engine bench 8` or `xiangqi-engine go perft 4` work from a shell).
#![forbid(unsafe_code)]

mod bench;
mod command;
mod engine;
mod options;
mod output;
mod worker;

use std::io::{BufRead, Write};
use std::sync::Arc;

fn main() {
    let out: engine::Sink = Arc::new(|line: &str| {
        let mut stdout = std::io::stdout().lock();
        // A GUI that has gone away is no reason to crash: ignore write errors.
        let _ = writeln!(stdout, "{line}");
        let _ = stdout.flush();
    });
    let mut engine = engine::Engine::new(out);

    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.is_empty() {
        engine.handle_line(&args.join(" "));
        engine.shutdown();
        return;
    }

    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        // Read bytes, not a String: a line that is not UTF-8 must not end the session.
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break, // End of input: exit cleanly, as after `quit`.
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf);
                if !engine.handle_line(&line) {
                    return;
                }
            }
        }
    }
    engine.shutdown();
}
