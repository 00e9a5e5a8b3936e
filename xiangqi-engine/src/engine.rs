//! The engine behind the protocols: the game, the options, and a worker thread that owns the
//! [`Searcher`] so that `stop`, `ponderhit`, `isready` and `quit` are answered while it thinks.
//!
//! The main thread reads lines and never waits on the search except where the protocol asks
//! for it (`isready` when idle waits for queued option changes; a new `go`, `bench` and `quit`
//! stop the running search first). Search progress and `bestmove` are written by the worker.

use crate::command::{self, Command, GoParams, PositionSpec, Protocol};
use crate::options::{Change, Options, RepetitionRule};
use crate::{bench, output};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;
use xiangqi_core::{Color, Game, Move, Position};
use xiangqi_eval::Evaluator;
use xiangqi_search::{Clock, Limits, SearchResult, Searcher, StopHandle};

/// Where the engine writes its lines (stdout in the binary, a buffer in tests).
pub type Sink = Arc<dyn Fn(&str) + Send + Sync>;

/// The engine's name in `id name`.
pub const NAME: &str = concat!("xiangqi-engine ", env!("CARGO_PKG_VERSION"));
/// The authors in `id author`.
pub const AUTHOR: &str = "the xiangqi workspace authors";

/// What the GUI has asked of the running search, shared with the worker.
#[derive(Default)]
struct Flags {
    /// A search job has been sent and its `bestmove` not yet written.
    searching: bool,
    /// `stop` (or quit, or a new go) arrived for the current search.
    stop: bool,
    /// `ponderhit` arrived for the current search.
    ponderhit: bool,
    /// The stop handle of the search in progress.
    handle: Option<StopHandle>,
}

#[derive(Default)]
struct Shared {
    flags: Mutex<Flags>,
    changed: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Flags> {
        // A poisoned lock only means another thread panicked while holding it; the flags
        // are plain values, so carry on with them.
        self.flags.lock().unwrap_or_else(|e| e.into_inner())
    }
    fn wait<'a>(&self, guard: MutexGuard<'a, Flags>) -> MutexGuard<'a, Flags> {
        self.changed.wait(guard).unwrap_or_else(|e| e.into_inner())
    }
}

struct SearchJob {
    game: Game,
    limits: Limits,
    /// Hold `bestmove` until `stop` (infinite) or `stop`/`ponderhit` (ponder).
    hold: bool,
    protocol: Protocol,
}

/// A change to the searcher, run on the search thread between searches.
type Configure = Box<dyn FnOnce(&mut Searcher) + Send>;

enum Job {
    Search(Box<SearchJob>),
    /// A change, with the options as they are after it.
    Configure(Configure, Options),
    Sync(mpsc::Sender<()>),
    /// A short search for UCCI `probe`; the `pophash` line goes back on the channel.
    Probe(Box<Game>, mpsc::Sender<String>),
}

/// Nodes searched to answer a UCCI `probe`.
const PROBE_NODES: u64 = 20_000;

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
                .spawn(move || worker(rx, shared, out))
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
                    Change::Strength => Some(Box::new(move |s| apply_strength(s, &o))),
                    Change::Rules => Some(Box::new(move |s| apply_rules(s, &o))),
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
                without_move_limit(&self.game)
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

/// Passes the strength options to the searcher.
fn apply_strength(s: &mut Searcher, o: &Options) {
    let levels = xiangqi_search::Level::all();
    s.set_level(o.level_index(levels.len()).map(|i| levels[i]));
}

/// Passes the rule options to the searcher.
fn apply_rules(s: &mut Searcher, o: &Options) {
    s.set_rules(match o.repetition {
        RepetitionRule::Asian => xiangqi_core::RuleSet::Asian,
        RepetitionRule::Chinese => xiangqi_core::RuleSet::Chinese,
    });
}

/// Plies of history kept when the sixty-move rule is off (enough for any repetition cycle
/// that matters, and far from the 120-ply limit the search applies).
const HISTORY_WITHOUT_MOVE_LIMIT: usize = 60;

/// The game as the search should see it with the sixty-move rule off: the searcher always
/// applies the rule to the capture-free count, so the game is restarted at most
/// [`HISTORY_WITHOUT_MOVE_LIMIT`] plies back with that count set to zero.
fn without_move_limit(game: &Game) -> Game {
    let clock = game.position().halfmove_clock() as usize;
    if clock < HISTORY_WITHOUT_MOVE_LIMIT {
        return game.clone();
    }
    let keep = HISTORY_WITHOUT_MOVE_LIMIT.min(game.moves().len());
    let first = game.moves().len() - keep;
    let from = &game.positions()[first];
    let Ok(start) = from.to_setup().counters(0, from.fullmove_number()).build() else {
        return game.clone();
    };
    let mut restarted = Game::new(start);
    for &m in &game.moves()[first..] {
        if restarted.play(m).is_err() {
            return game.clone();
        }
    }
    restarted
}

fn worker(rx: mpsc::Receiver<Job>, shared: Arc<Shared>, out: Sink) {
    let mut searcher = Searcher::new();
    // The options as last applied, to rebuild the searcher should it ever panic.
    let mut applied = Options::default();
    while let Ok(job) = rx.recv() {
        match job {
            Job::Configure(f, options) => {
                applied = options;
                if catch_unwind(AssertUnwindSafe(|| f(&mut searcher))).is_err() {
                    out("info string internal error while applying an option; searcher rebuilt");
                    searcher = rebuilt(&applied);
                }
            }
            Job::Sync(tx) => {
                let _ = tx.send(());
            }
            Job::Probe(game, tx) => {
                let limits = Limits {
                    nodes: Some(PROBE_NODES),
                    ..Limits::default()
                };
                let found = catch_unwind(AssertUnwindSafe(|| {
                    searcher.search(&game, &limits, &mut |_| {})
                }));
                let line = match found {
                    Ok(SearchResult {
                        best_move: Some(m),
                        score,
                        depth,
                        ..
                    }) => {
                        let v = output::ucci_score(score);
                        format!("pophash bestmove {m} lowerbound {v} depth {depth} upperbound {v} depth {depth}")
                    }
                    Ok(_) => "pophash".to_string(),
                    Err(_) => {
                        searcher = rebuilt(&applied);
                        "pophash".to_string()
                    }
                };
                let _ = tx.send(line);
            }
            Job::Search(job) => {
                if !run_search(&mut searcher, *job, &shared, &out) {
                    searcher = rebuilt(&applied);
                }
            }
        }
    }
}

/// A fresh searcher with `o` applied.
fn rebuilt(o: &Options) -> Searcher {
    let mut s = Searcher::new();
    s.set_hash_size(o.hash_mb);
    s.set_threads(o.threads);
    s.set_multipv(o.multipv);
    apply_strength(&mut s, o);
    apply_rules(&mut s, o);
    s
}

/// Runs one search and writes its `bestmove`. Returns `false` if the search panicked (a
/// legal move is still played, so the GUI's game goes on).
fn run_search(searcher: &mut Searcher, job: SearchJob, shared: &Shared, out: &Sink) -> bool {
    let SearchJob {
        game,
        mut limits,
        hold,
        protocol,
    } = job;
    let pondering = limits.ponder;
    let handle = searcher.stop_handle();
    {
        let mut f = shared.lock();
        // A stop or ponderhit that arrived before the search began must not be lost.
        if f.stop {
            limits = Limits {
                depth: Some(1),
                search_moves: limits.search_moves,
                ..Limits::default()
            };
        }
        if f.ponderhit {
            limits.ponder = false;
        }
        f.handle = Some(handle.clone());
    }
    let pos = game.position().clone();
    let mut observer = |info: &xiangqi_search::Info| {
        out(&output::info_line(info, protocol));
        // Repeat a stop/ponderhit in case the search reset its flags as it began.
        let f = shared.lock();
        if f.stop {
            handle.stop();
        }
        if f.ponderhit {
            handle.ponderhit();
        }
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        searcher.search(&game, &limits, &mut observer)
    }));
    let healthy = outcome.is_ok();
    let result = outcome.unwrap_or_else(|_| {
        out("info string internal error in the search; playing a legal move");
        SearchResult {
            best_move: None,
            ponder_move: None,
            score: xiangqi_eval::Score::ZERO,
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
        }
    });
    let (best, ponder) = checked_moves(&pos, &result, &limits, out);
    let mut f = shared.lock();
    while hold && !f.stop && !(pondering && f.ponderhit) {
        f = shared.wait(f);
    }
    out(&output::bestmove_line(best, ponder, protocol));
    f.searching = false;
    f.handle = None;
    shared.changed.notify_all();
    healthy
}

/// The search's moves, checked: a best move that is not legal (or not among the allowed
/// root moves) is replaced by a legal one, and a ponder move must be legal after it.
fn checked_moves(
    pos: &Position,
    result: &SearchResult,
    limits: &Limits,
    out: &Sink,
) -> (Option<Move>, Option<Move>) {
    let allowed = |m: Move| {
        pos.is_legal(m) && (limits.search_moves.is_empty() || limits.search_moves.contains(&m))
    };
    let best = match result.best_move {
        Some(m) if allowed(m) => Some(m),
        other => {
            let fallback = pos.legal_moves().iter().copied().find(|&m| allowed(m));
            if other.is_some() || fallback.is_some() {
                out(&format!(
                    "info string the search gave {}; playing {} instead",
                    other.map_or("no move".to_string(), |m| m.to_string()),
                    fallback.map_or("nothing".to_string(), |m| m.to_string())
                ));
            }
            fallback
        }
    };
    let ponder = match (
        best,
        result.ponder_move.or_else(|| result.pv.get(1).copied()),
    ) {
        (Some(b), Some(p)) if result.best_move == Some(b) => match pos.after(b) {
            Ok(next) if next.is_legal(p) => Some(p),
            _ => None,
        },
        _ => None,
    };
    (best, ponder)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_move_limit_can_be_lifted() {
        // 118 plies without a capture: the horses go back and forth.
        let mut game = Game::new(Position::startpos());
        let cycle = ["b0c2", "b9c7", "c2b0", "c7b9"];
        for text in cycle.iter().cycle().take(118) {
            let m = game.position().parse_uci(text).unwrap();
            game.play(m).unwrap();
        }
        assert_eq!(game.position().halfmove_clock(), 118);
        let lifted = without_move_limit(&game);
        assert_eq!(lifted.position().board_fen(), game.position().board_fen());
        assert_eq!(
            lifted.position().halfmove_clock() as usize,
            HISTORY_WITHOUT_MOVE_LIMIT
        );
        assert_eq!(
            lifted.moves(),
            &game.moves()[118 - HISTORY_WITHOUT_MOVE_LIMIT..]
        );
        // Short games are left alone.
        let mut short = Game::new(Position::startpos());
        short
            .play(short.position().parse_uci("h2e2").unwrap())
            .unwrap();
        assert_eq!(without_move_limit(&short), short);
    }
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use proptest::prelude::*;

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
