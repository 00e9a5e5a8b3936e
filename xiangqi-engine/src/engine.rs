//! The engine behind the protocols: the game, the options, and a worker thread that owns the
//! [`Searcher`](xiangqi_search::Searcher) so that `stop`, `ponderhit`, `isready` and `quit` are answered while it thinks.
//!
//! The main thread reads lines and never waits on the search except where the protocol asks
//! for it (`isready` when idle waits for queued option changes; a new `go`, `bench` and `quit`
//! stop the running search first). Search progress and `bestmove` are written by the worker.

use crate::bench;
use crate::command::{self, Command, GoParams, PositionSpec, Protocol};
use crate::options::{Change, Options};
use crate::output;
use crate::worker::{self, Configure, Job, SearchJob, Shared};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;
use xiangqi_core::{Color, Game, Move, Position};
use xiangqi_eval::Evaluator;
use xiangqi_search::{Clock, Limits};

/// Where the engine writes its lines (stdout in the binary, a buffer in tests).
pub type Sink = Arc<dyn Fn(&str) + Send + Sync>;

/// The engine's name in `id name`.
pub const NAME: &str = concat!("xiangqi-engine ", env!("CARGO_PKG_VERSION"));
/// The authors in `id author`.
pub const AUTHOR: &str = "the xiangqi workspace authors";

/// The engine state driven by protocol lines.
pub struct Engine {
    protocol: Protocol,
    options: Options,
    game: Game,
    banned: Vec<Move>,
    out: Sink,
    jobs: Option<mpsc::Sender<Job>>,
    shared: Arc<Shared>,
    worker: Option<JoinHandle<()>>,
    bench_depth: u32,
    /// Varies the opening book's choice from game to game.
    book_seed: u64,
}

impl Engine {
    /// An engine writing to `out`, in UCI mode until the GUI says `ucci`.
    pub fn new(out: Sink) -> Engine {
        let shared = Arc::new(Shared::default());
        let (tx, rx) = mpsc::channel::<Job>();
        let worker = {
            let shared = Arc::clone(&shared);
            let out = Arc::clone(&out);
            std::thread::Builder::new()
                .name("search".into())
                .stack_size(64 << 20)
                .spawn(move || worker::worker(rx, shared, out))
                .ok()
        };
        if worker.is_none() {
            out("info string could not start the search thread");
        }
        Engine {
            protocol: Protocol::Uci,
            options: Options::default(),
            game: Game::new(Position::startpos()),
            banned: Vec::new(),
            out,
            jobs: Some(tx),
            shared,
            worker,
            bench_depth: bench::DEFAULT_DEPTH,
            book_seed: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64),
        }
    }

    fn say(&self, line: &str) {
        (self.out)(line);
    }

    fn info(&self, text: &str) {
        self.say(&format!("info string {text}"));
    }

    fn send(&self, job: Job) {
        if let Some(tx) = &self.jobs {
            if tx.send(job).is_err() {
                self.info("the search thread has stopped");
            }
        }
    }

    /// Handles one input line. Returns `false` when the engine should exit.
    pub fn handle_line(&mut self, line: &str) -> bool {
        let parsed = match command::parse(line, self.protocol) {
            Ok(p) => p,
            Err(e) => {
                self.info(&e.to_string());
                return true;
            }
        };
        for w in &parsed.warnings {
            self.info(w);
        }
        match parsed.command {
            Command::Empty | Command::Debug(_) => {}
            Command::Uci => {
                self.protocol = Protocol::Uci;
                self.say(&format!("id name {NAME}"));
                self.say(&format!("id author {AUTHOR}"));
                self.say("");
                for l in self.options.lines(Protocol::Uci) {
                    self.say(&l);
                }
                self.say("uciok");
            }
            Command::Ucci => {
                self.protocol = Protocol::Ucci;
                self.say(&format!("id name {NAME}"));
                self.say("id copyright MIT OR Apache-2.0");
                self.say(&format!("id author {AUTHOR}"));
                self.say("id user unknown");
                for l in self.options.lines(Protocol::Ucci) {
                    self.say(&l);
                }
                self.say("ucciok");
            }
            Command::IsReady => self.is_ready(),
            Command::NewGame => {
                self.banned.clear();
                self.send(Job::Configure(
                    Box::new(|s| s.new_game()),
                    self.options.clone(),
                ));
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position(spec) => {
                if let Some(game) = self.build_game(&spec, "position") {
                    self.game = game;
                    self.banned.clear();
                }
            }
            Command::Go(go) => self.go(go),
            Command::Stop => self.stop(),
            Command::PonderHit => {
                let mut f = self.shared.lock();
                if f.searching {
                    f.ponderhit = true;
                    if let Some(h) = &f.handle {
                        h.ponderhit();
                    }
                    self.shared.changed.notify_all();
                }
            }
            Command::Quit => {
                self.shutdown();
                if self.protocol == Protocol::Ucci {
                    self.say("bye");
                }
                return false;
            }
            Command::BanMoves(moves) => {
                self.banned.clear();
                for text in &moves {
                    match self.game.position().parse_uci(text) {
                        Ok(m) => self.banned.push(m),
                        Err(e) => self.info(&format!("banmoves: {text:?}: {e}; ignored")),
                    }
                }
            }
            Command::Probe(spec) => self.probe(&spec),
            Command::Display => self.display(),
            Command::Eval => {
                let pos = self.game.position();
                let mut eval = xiangqi_eval::DefaultEvaluator::default();
                eval.reset(pos);
                let s = eval.evaluate(pos);
                let red = if pos.side_to_move() == Color::Red {
                    s
                } else {
                    -s
                };
                self.say(&format!(
                    "Static evaluation: {} for the side to move ({}), {} for red",
                    s.0,
                    pos.side_to_move(),
                    red.0
                ));
            }
            Command::Bench { depth } => {
                self.stop_and_wait();
                bench::run(depth.unwrap_or(self.bench_depth), &*self.out);
            }
            Command::Help => {
                self.say("commands: uci | ucci | isready | ucinewgame | setoption name <n> [value <v>] |");
                self.say("  position startpos|fen <FEN> [moves <m>...] | go [depth|nodes|movetime|wtime|btime|");
                self.say("  winc|binc|movestogo|mate <n>] [infinite] [ponder] [searchmoves <m>...] | go perft <n> |");
                self.say("  stop | ponderhit | d | eval | bench [depth] | quit; UCCI: banmoves, probe, go time/increment/opptime");
            }
        }
        true
    }

    /// Stops any search, lets the worker finish, and joins it. Idempotent.
    pub fn shutdown(&mut self) {
        self.stop_and_wait();
        self.jobs = None; // Closing the channel ends the worker's loop.
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }

    fn is_ready(&self) {
        if !self.shared.lock().searching {
            // Wait for queued option changes (a new hash table, say) to be done.
            let (tx, rx) = mpsc::channel();
            self.send(Job::Sync(tx));
            let _ = rx.recv_timeout(Duration::from_secs(60));
        }
        self.say("readyok");
    }

    fn stop(&self) {
        let mut f = self.shared.lock();
        if f.searching {
            f.stop = true;
            if let Some(h) = &f.handle {
                h.stop();
            }
            self.shared.changed.notify_all();
        }
    }

    /// Stops the running search (if any) and waits until its `bestmove` is written.
    fn stop_and_wait(&self) {
        self.stop();
        if self.worker.is_none() {
            return;
        }
        let mut f = self.shared.lock();
        while f.searching {
            f = self.shared.wait(f);
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.options.set(name, value) {
            Err(e) => self.info(&e),
            Ok((change, note)) => {
                if let Some(n) = note {
                    self.info(&n);
                }
                if change == Change::Strength {
                    let levels = xiangqi_search::Level::all();
                    match self.options.level_index(levels.len()).map(|i| levels[i]) {
                        Some(l) => {
                            self.info(&format!("strength level {}: {}", l.name, l.description))
                        }
                        None => self.info("full strength"),
                    }
                }
                let o = self.options.clone();
                let job: Option<Configure> = match change {
                    Change::Nothing => None,
                    Change::Hash => Some(Box::new(move |s| s.set_hash_size(o.hash_mb))),
                    Change::Threads => Some(Box::new(move |s| s.set_threads(o.threads))),
                    Change::MultiPv => Some(Box::new(move |s| s.set_multipv(o.multipv))),
                    Change::Strength => Some(Box::new(move |s| worker::apply_strength(s, &o))),
                    Change::Rules => Some(Box::new(move |s| worker::apply_rules(s, &o))),
                    Change::ClearHash | Change::NewGame => Some(Box::new(|s| s.new_game())),
                };
                if let Some(job) = job {
                    self.send(Job::Configure(job, self.options.clone()));
                }
            }
        }
    }

    /// The game a `position`/`probe` command describes. On a bad FEN, reports it and returns
    /// `None`; on a bad move, reports it and keeps the moves before it.
    fn build_game(&self, spec: &PositionSpec, command: &str) -> Option<Game> {
        let start = match &spec.fen {
            None => Position::startpos(),
            Some(fen) => match Position::from_fen(fen) {
                Ok(p) => p,
                Err(e) => {
                    // A FEN of the board alone: assume red to move.
                    match (
                        fen.split_whitespace().count(),
                        Position::from_fen(&format!("{fen} w")),
                    ) {
                        (1, Ok(p)) => p,
                        _ => {
                            self.info(&format!(
                                "{command}: bad FEN: {e}; the position is unchanged"
                            ));
                            return None;
                        }
                    }
                }
            },
        };
        let mut game = Game::new(start);
        for (i, text) in spec.moves.iter().enumerate() {
            match game.position().parse_uci(text) {
                Ok(m) => {
                    // parse_uci checked legality, so play cannot fail.
                    let _ = game.play(m);
                }
                Err(e) => {
                    self.info(&format!(
                        "{command}: move {} {text:?}: {e}; it and the moves after it are ignored",
                        i + 1
                    ));
                    break;
                }
            }
        }
        Some(game)
    }

    fn go(&mut self, go: GoParams) {
        if let Some(depth) = go.perft {
            self.perft(depth);
            return;
        }
        self.stop_and_wait();
        let limits = self.limits(&go);
        let hold = go.infinite || go.ponder;
        // With `OwnBook` on, a position in the opening book is answered at once from it
        // (never while pondering or analysing, nor when the moves are restricted).
        if self.options.own_book && !hold && limits.search_moves.is_empty() {
            self.book_seed = self.book_seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let pos = self.game.position();
            if let Some(m) = xiangqi_book::Book::builtin().pick(pos, self.book_seed) {
                self.info(&format!("book move {m}"));
                self.say(&output::bestmove_line(Some(m), None, self.protocol));
                self.banned.clear();
                return;
            }
        }
        {
            let mut f = self.shared.lock();
            f.searching = true;
            f.stop = false;
            f.ponderhit = false;
            f.handle = None;
        }
        let job = SearchJob {
            game: if self.options.sixty_move_rule {
                self.game.clone()
            } else {
                worker::without_move_limit(&self.game)
            },
            limits,
            hold,
            protocol: self.protocol,
        };
        if self.worker.is_none() || self.jobs.is_none() {
            self.shared.lock().searching = false;
            self.info("no search thread; cannot search");
            return;
        }
        self.send(Job::Search(Box::new(job)));
        self.banned.clear();
    }

    fn limits(&self, go: &GoParams) -> Limits {
        let pos = self.game.position();
        let ms = Duration::from_millis;
        let (time, inc) = match self.protocol {
            Protocol::Uci => match pos.side_to_move() {
                Color::Red => (go.wtime, go.winc),
                Color::Black => (go.btime, go.binc),
            },
            Protocol::Ucci => {
                let unit = if self.options.use_millisec { 1 } else { 1000 };
                (
                    go.time.map(|t| t.saturating_mul(unit)),
                    go.increment.map(|t| t.saturating_mul(unit)),
                )
            }
        };
        let clock = time.map(|t| Clock {
            time: ms(t.saturating_sub(self.options.move_overhead_ms)),
            increment: ms(inc.unwrap_or(0)),
            moves_to_go: go.movestogo,
        });
        let mut search_moves = Vec::new();
        for text in &go.searchmoves {
            match pos.parse_uci(text) {
                Ok(m) => search_moves.push(m),
                Err(e) => self.info(&format!("go searchmoves: {text:?}: {e}; ignored")),
            }
        }
        if !self.banned.is_empty() {
            let allowed: Vec<Move> = if search_moves.is_empty() {
                pos.legal_moves().iter().copied().collect()
            } else {
                search_moves.clone()
            };
            let kept: Vec<Move> = allowed
                .into_iter()
                .filter(|m| !self.banned.contains(m))
                .collect();
            if kept.is_empty() {
                self.info("banmoves: every move is banned; the ban is ignored");
            } else {
                search_moves = kept;
            }
        }
        let mut limits = Limits {
            depth: go.depth.map(|d| d.max(1)),
            nodes: go.nodes,
            movetime: go.movetime.map(ms),
            clock,
            infinite: go.infinite,
            mate: go.mate,
            ponder: go.ponder,
            search_moves,
        };
        let unlimited = limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.clock.is_none()
            && limits.mate.is_none();
        if unlimited {
            // A bare `go` (or `go ponder`) searches until stopped.
            limits.infinite = true;
        }
        limits
    }

    fn perft(&self, depth: u32) {
        let pos = self.game.position();
        if depth == 0 {
            self.say("");
            self.say("Nodes searched: 1");
            return;
        }
        let mut total = 0u64;
        for (m, n) in pos.divide(depth) {
            self.say(&format!("{m}: {n}"));
            total += n;
        }
        self.say("");
        self.say(&format!("Nodes searched: {total}"));
    }

    fn display(&self) {
        let pos = self.game.position();
        for l in pos.to_string().lines() {
            self.say(l);
        }
        self.say(&format!("Fen: {}", pos.fen()));
        self.say(&format!("Key: {:016X}", pos.key()));
        let checkers: Vec<String> = pos.checkers().iter().map(|s| s.to_string()).collect();
        self.say(&format!("Checkers: {}", checkers.join(" ")));
    }

    /// UCCI `probe`: the search's hash table is not readable through its API, so when idle
    /// the engine answers with a short search of the position (its best move and exact
    /// value, as `pophash bestmove … lowerbound … depth … upperbound … depth …`); while
    /// it thinks, with an empty `pophash`.
    fn probe(&self, spec: &PositionSpec) {
        let Some(game) = self.build_game(spec, "probe") else {
            self.say("pophash");
            return;
        };
        if self.shared.lock().searching || self.jobs.is_none() {
            self.say("pophash");
            return;
        }
        let (tx, rx) = mpsc::channel();
        self.send(Job::Probe(Box::new(game), tx));
        let line = rx
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| "pophash".to_string());
        self.say(&line);
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.shutdown();
    }
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use proptest::prelude::*;
    use std::sync::Mutex;

    fn command() -> impl Strategy<Value = String> {
        let word = "[a-i][0-9][a-i][0-9]";
        prop_oneof![
            (1u32..4).prop_map(|d| format!("go depth {d}")),
            (0u64..3000).prop_map(|n| format!("go nodes {n}")),
            (0u64..30).prop_map(|t| format!("go wtime {t} btime {t}")),
            (0u64..30).prop_map(|t| format!("go time {t} increment 0")),
            Just("go infinite".to_string()),
            Just("go ponder".to_string()),
            Just("go mate 1".to_string()),
            (0u32..3).prop_map(|d| format!("go perft {d}")),
            Just("stop".to_string()),
            Just("ponderhit".to_string()),
            Just("isready".to_string()),
            Just("ucinewgame".to_string()),
            Just("uci".to_string()),
            Just("ucci".to_string()),
            Just("d".to_string()),
            Just("eval".to_string()),
            proptest::collection::vec(word, 0..6)
                .prop_map(|m| format!("position startpos moves {}", m.join(" "))),
            proptest::collection::vec(word, 0..4).prop_map(|m| format!("banmoves {}", m.join(" "))),
            proptest::collection::vec(word, 0..4)
                .prop_map(|m| format!("go depth 2 searchmoves {}", m.join(" "))),
            "[rnbakcpRNBAKCP1-9/]{0,60} [wrb]".prop_map(|f| format!("position fen {f}")),
            "[rnbakcpRNBAKCP1-9/]{0,40}".prop_map(|f| format!("probe fen {f}")),
            (
                prop_oneof![
                    Just("Hash"),
                    Just("Threads"),
                    Just("MultiPV"),
                    Just("Skill Level"),
                    Just("UCI_Elo"),
                    Just("UCI_LimitStrength"),
                    Just("Repetition Rule"),
                    Just("Sixty Move Rule"),
                    Just("Clear Hash"),
                    Just("Move Overhead"),
                ],
                "-?[0-9]{1,3}|true|false|Chinese|[a-z]{0,5}"
            )
                .prop_map(|(n, v)| format!("setoption name {n} value {v}")),
            "\\PC{0,30}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Any sequence of commands is survived, and every search that is started gets
        /// exactly one answer.
        #[test]
        fn every_go_gets_one_answer(lines in proptest::collection::vec(command(), 0..14)) {
            let seen = Arc::new(Mutex::new(Vec::<String>::new()));
            let sink = Arc::clone(&seen);
            let out: Sink = Arc::new(move |l: &str| {
                sink.lock().unwrap().extend(l.lines().map(str::to_string));
            });
            let mut engine = Engine::new(out);
            let mut searches = 0;
            for line in &lines {
                if line.starts_with("go") && !line.starts_with("go perft") {
                    searches += 1;
                }
                // Cap the hash so that a case does not allocate gigabytes.
                if line.starts_with("setoption name Hash") {
                    continue;
                }
                prop_assert!(engine.handle_line(line));
            }
            engine.handle_line("stop");
            engine.shutdown();
            let answers = seen
                .lock()
                .unwrap()
                .iter()
                .filter(|l| l.starts_with("bestmove") || l.starts_with("nobestmove"))
                .count();
            prop_assert_eq!(answers, searches);
        }
    }
}
