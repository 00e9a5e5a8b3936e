//! # xiangqi-engine
//!
//! The xiangqi engine as a program for GUIs and tournament managers. It speaks UCI as
//! Pikafish does (with `UCI_Variant`; Fairy-Stockfish's ranks 1–10 once a move with rank 10
//! arrives), UCCI as
//! ElephantEye does when the first command is `ucci`, and CECP (the XBoard protocol 2)
//! when it is `xboard`. See `docs/ENGINE.md`.
//!
//! ```text
//! cargo build --release -p xiangqi-engine
//! target/release/xiangqi-engine            # then type: uci, position startpos, go depth 10
//! target/release/xiangqi-engine bench      # the fixed benchmark: node count and speed
//! xboard -variant xiangqi -fcp target/release/xiangqi-engine
//! ```
//!
//! Command-line arguments, if any, are run as one command and the program exits (so
//! `xiangqi-engine bench 8` or `xiangqi-engine go perft 4` work from a shell).
#![forbid(unsafe_code)]

mod bench;
mod cecp;
mod command;
mod core;
mod notation;
mod options;
mod output;
mod session;
mod tablebase;
mod ucci;
mod uci;
mod worker;

use std::io::{BufRead, Write};
use std::sync::{mpsc, Arc, Mutex};

/// What the input loop reacts to.
enum Event {
    /// A line from the GUI.
    Line(String),
    /// The search thread has finished a search (CECP starts pondering then).
    Wake,
    /// The GUI closed its end of the pipe.
    End,
}

/// The protocol front end in use.
enum Front {
    /// UCI, and UCCI after `ucci`.
    Uci(Box<session::Session>),
    /// CECP after `xboard`.
    Cecp(Box<cecp::Cecp>),
}

fn main() {
    let out: core::Sink = Arc::new(|line: &str| {
        let mut stdout = std::io::stdout().lock();
        // A GUI that has gone away is no reason to crash: ignore write errors.
        let _ = writeln!(stdout, "{line}");
        let _ = stdout.flush();
    });
    let mut session = session::Session::new(out);

    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.is_empty() {
        session.handle_line(&args.join(" "));
        session.shutdown();
        return;
    }

    // The endgame tablebases of the default folder join in the background (the GUI may
    // name another folder, or turn them off, before they are ready).
    let _ = session.core.start_tablebase();

    let (tx, rx) = mpsc::channel::<Event>();
    let input = tx.clone();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut stdin = stdin.lock();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            // Read bytes, not a String: a line that is not UTF-8 must not end the session.
            match stdin.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).into_owned();
                    if input.send(Event::Line(line)).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = input.send(Event::End);
    });
    let wake: cecp::Waker = {
        let tx = Mutex::new(tx);
        Arc::new(move || {
            if let Ok(tx) = tx.lock() {
                let _ = tx.send(Event::Wake);
            }
        })
    };

    let mut front = Some(Front::Uci(Box::new(session)));
    while let Ok(event) = rx.recv() {
        let Some(current) = front.take() else { break };
        let (next, go_on) = step(current, event, &wake);
        front = Some(next);
        if !go_on {
            break;
        }
    }
    // End of input, or `quit`: stop searching and exit cleanly.
    match &mut front {
        Some(Front::Uci(s)) => s.shutdown(),
        Some(Front::Cecp(c)) => c.shutdown(),
        None => {}
    }
}

/// Handles one event; returns the front end to go on with, and whether to go on.
fn step(front: Front, event: Event, wake: &cecp::Waker) -> (Front, bool) {
    match (front, event) {
        (f, Event::End) => (f, false),
        (Front::Cecp(mut c), Event::Wake) => {
            c.on_wake();
            (Front::Cecp(c), true)
        }
        (f @ Front::Uci(_), Event::Wake) => (f, true),
        // CECP from here on, over the same engine core.
        (Front::Uci(s), Event::Line(line)) if line.trim() == "xboard" => (
            Front::Cecp(Box::new(cecp::Cecp::new(s.into_core(), Arc::clone(wake)))),
            true,
        ),
        (Front::Uci(mut s), Event::Line(line)) => {
            let go_on = s.handle_line(&line);
            (Front::Uci(s), go_on)
        }
        (Front::Cecp(mut c), Event::Line(line)) => {
            let go_on = c.handle_line(&line);
            (Front::Cecp(c), go_on)
        }
    }
}
