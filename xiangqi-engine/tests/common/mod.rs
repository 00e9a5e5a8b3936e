//! A driver for the engine binary: spawn it, send lines, read lines with a hang guard.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use xiangqi_core::{Game, Move, Position};

/// How long to wait for an expected line before declaring the engine hung. Generous: the
/// machine running CI may be busy; this guards against hangs, it does not time anything.
pub const PATIENCE: Duration = Duration::from_secs(120);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far.
    pub log: Vec<String>,
}

/// The engine's default tablebase folder in the tests: the starter set generated once for
/// the target folder (here, on every core), so that no engine a test starts generates it
/// in the background beside the test.
pub fn starter_tables() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("egtb-starter");
        let starter = xiangqi_egtb::starter_endings();
        // Tables of an older format (the format changed): made again.
        if xiangqi_egtb::Tablebase::open(&dir).is_err() {
            let _ = std::fs::remove_dir_all(&dir);
        }
        if !xiangqi_egtb::is_complete(&dir, &starter) {
            // Generated aside and renamed: test programs running at once never share
            // a half-written folder.
            let private = dir.with_extension(std::process::id().to_string());
            let _ = std::fs::remove_dir_all(&private);
            xiangqi_egtb::generate_into(&private, &starter, false, &mut |_| {}).unwrap();
            // The folder only ever appears whole: if another program renamed its copy
            // first, this one is not needed.
            if std::fs::rename(&private, &dir).is_err() {
                let _ = std::fs::remove_dir_all(&private);
            }
            assert!(xiangqi_egtb::is_complete(&dir, &starter));
        }
        dir
    })
}

impl Engine {
    pub fn start() -> Engine {
        Engine::start_with_tables(starter_tables())
    }

    /// An engine whose default tablebase folder is `tables`.
    pub fn start_with_tables(tables: &Path) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi-engine"))
            .env(xiangqi_egtb::DIR_VARIABLE, tables)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the engine binary starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines: rx,
            log: Vec::new(),
        }
    }

    /// Sends raw bytes (for CRLF and odd input).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// The next line, or `None` at the end of output.
    pub fn next_line(&mut self) -> Option<String> {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(l) => {
                self.log.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => panic!(
                "no line from the engine in {PATIENCE:?}; last lines: {:?}",
                &self.log[self.log.len().saturating_sub(10)..]
            ),
        }
    }

    /// Reads lines until one satisfies `pred`; returns all lines read, that one last.
    pub fn read_until(&mut self, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .next_line()
                .unwrap_or_else(|| panic!("the engine's output ended; lines: {seen:?}"));
            let done = pred(&line);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// Reads until the `bestmove` line (or UCCI `nobestmove`); returns (lines, that line).
    pub fn read_bestmove(&mut self) -> (Vec<String>, String) {
        let lines = self.read_until(|l| l.starts_with("bestmove") || l.starts_with("nobestmove"));
        let last = lines.last().unwrap().clone();
        (lines, last)
    }

    /// `isready` and wait for `readyok`; returns the lines before it.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Nothing more arrives within `wait` (for "no bestmove yet" checks).
    pub fn is_quiet_for(&mut self, wait: Duration) -> Result<(), String> {
        match self.lines.recv_timeout(wait) {
            Ok(l) => Err(l),
            Err(_) => Ok(()),
        }
    }

    /// Closes stdin and waits for the process to exit.
    pub fn close(mut self) -> ExitStatus {
        self.stdin = None;
        self.wait_exit()
    }

    /// Waits for the process to exit (after `quit`), draining output.
    pub fn wait_exit(&mut self) -> ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // The reader thread may not have passed on the last lines yet: read until it
                // reaches the end of the output and drops its end of the channel.
                while let Ok(l) = self.lines.recv_timeout(PATIENCE) {
                    self.log.push(l);
                }
                return status;
            }
            if start.elapsed() > PATIENCE {
                let _ = self.child.kill();
                panic!("the engine did not exit");
            }
            while let Ok(l) = self.lines.recv_timeout(Duration::from_millis(20)) {
                self.log.push(l);
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The move of a `bestmove` line, checked to be legal in `pos`.
pub fn legal_bestmove(line: &str, pos: &Position) -> Move {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        words.first(),
        Some(&"bestmove"),
        "not a bestmove line: {line}"
    );
    let text = words
        .get(1)
        .unwrap_or_else(|| panic!("no move in {line:?}"));
    let m = pos
        .parse_uci(text)
        .unwrap_or_else(|e| panic!("bestmove {text} is not legal in {}: {e}", pos.fen()));
    if let Some(i) = words.iter().position(|w| *w == "ponder") {
        let p = words[i + 1];
        let after = pos.after(m).unwrap();
        after
            .parse_uci(p)
            .unwrap_or_else(|e| panic!("ponder move {p} is not legal after {m}: {e}"));
    }
    m
}

/// The game `position startpos moves ...` describes.
pub fn game_after(fen: Option<&str>, moves: &str) -> Game {
    let start = match fen {
        Some(f) => Position::from_fen(f).unwrap(),
        None => Position::startpos(),
    };
    let mut game = Game::new(start);
    for text in moves.split_whitespace() {
        let m = game.position().parse_uci(text).unwrap();
        game.play(m).unwrap();
    }
    game
}

/// Lines of an EPD file in tests/data, without comments.
pub fn data_lines(name: &str) -> Vec<String> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// The value of `key` in a `info ...` line.
pub fn info_field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == key)?;
    words.get(i + 1).copied()
}
