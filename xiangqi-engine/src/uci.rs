//! The UCI front end (as Pikafish speaks it), which also carries the session when the GUI
//! switches to UCCI with `ucci`: the two share their command syntax ([`crate::command`])
//! and this session; what differs in UCCI (its handshake, clocks, `probe`, `banmoves`, the
//! draw offer) is in [`crate::ucci`].
//!
//! Moves number the ranks 0 to 9 (Pikafish, and uci2wb's dialect); a GUI that sends a move
//! with rank 10 (`a10a9`, the multi-variant GUIs built on Fairy-Stockfish) is answered in
//! Fairy-Stockfish's numbering, 1 to 10 ([`Ranks::FromOne`]), for the rest of the session.

use crate::bench;
use crate::command::{self, Command, GoParams, Protocol};
use crate::core::{self, Sink, AUTHOR, NAME};
use crate::notation::{self, Ranks};
use crate::output;
use crate::session::Session;
use crate::ucci;
use crate::worker::{Finished, Report};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use xiangqi_core::Color;
use xiangqi_eval::Evaluator;
use xiangqi_search::{Info, Limits};

/// The variants `UCI_Variant` offers.
pub const VARIANTS: &[&str] = &["xiangqi"];

/// Writes a search's lines in UCI or UCCI form.
struct UciReport {
    out: Sink,
    protocol: Protocol,
    ranks: Ranks,
    /// UCCI `go draw` or `ponderhit draw`: answer with `draw` when a draw is welcome.
    draw_offered: Arc<AtomicBool>,
}

impl Report for UciReport {
    fn info(&mut self, info: &Info) {
        (self.out)(&output::info_line(info, self.protocol, self.ranks));
    }
    fn finished(&mut self, end: &Finished) {
        let offered = self.draw_offered.load(Ordering::SeqCst);
        let extra = (offered && ucci::accepts_draw(end.score)).then_some("draw");
        (self.out)(&output::bestmove_line(
            end.best,
            end.ponder,
            self.protocol,
            self.ranks,
            extra,
        ));
    }
    fn note(&mut self, text: &str) {
        (self.out)(&format!("info string {text}"));
    }
}

impl Session {
    /// Handles one input line. Returns `false` when the engine should exit.
    pub fn handle_line(&mut self, line: &str) -> bool {
        self.detect_ranks(line);
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
                self.core.say(&format!("id name {NAME}"));
                self.core.say(&format!("id author {AUTHOR}"));
                self.core.say("");
                self.core.say(&format!(
                    "option name UCI_Variant type combo default {} var {}",
                    VARIANTS[0],
                    VARIANTS.join(" var ")
                ));
                for l in self.core.options.lines(Protocol::Uci) {
                    self.core.say(&l);
                }
                self.core.say("uciok");
            }
            Command::Ucci => ucci::handshake(self),
            Command::IsReady => {
                let out = self.core.sink();
                self.core
                    .wait_for_tables(&mut |n| out(&format!("info string {n}")));
                self.core.say("readyok");
            }
            Command::NewGame => {
                self.banned.clear();
                self.core.new_game();
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position(spec) => {
                if let Some(game) = self.build_game(&spec, "position") {
                    self.game = game;
                    self.banned.clear();
                }
            }
            Command::Go(go) => self.go(go),
            Command::Stop => self.core.stop(),
            Command::PonderHit { draw } => {
                if draw {
                    self.draw_offered.store(true, Ordering::SeqCst);
                }
                self.core.ponderhit();
            }
            Command::Quit => {
                self.core.shutdown();
                if self.protocol == Protocol::Ucci {
                    self.core.say("bye");
                }
                return false;
            }
            Command::BanMoves(moves) => ucci::ban_moves(self, &moves),
            Command::Probe(spec) => ucci::probe(self, &spec),
            Command::Display => self.display(),
            Command::Eval => self.eval(),
            Command::Bench { depth } => {
                self.core.stop_and_wait();
                let out = self.core.sink();
                bench::run(depth.unwrap_or(bench::DEFAULT_DEPTH), &*out);
            }
            Command::Help => {
                self.core.say("commands: uci | ucci | xboard | isready | ucinewgame | setoption name <n> [value <v>] |");
                self.core.say("  position startpos|fen <FEN> [moves <m>...] | go [depth|nodes|movetime|wtime|btime|");
                self.core.say("  winc|binc|movestogo|mate <n>] [infinite] [ponder] [searchmoves <m>...] | go perft <n> |");
                self.core.say("  stop | ponderhit | d | eval | bench [depth] | quit; UCCI: banmoves, probe, go time/increment/opptime");
            }
        }
        true
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let key: String = name
            .chars()
            .filter(|c| !matches!(c, ' ' | '_'))
            .flat_map(char::to_lowercase)
            .collect();
        if key == "ucivariant" {
            match value.map(str::trim) {
                Some(v) if VARIANTS.iter().any(|x| x.eq_ignore_ascii_case(v)) => {}
                other => self.info(&format!(
                    "UCI_Variant: {:?} is not supported; this engine plays {}",
                    other.unwrap_or(""),
                    VARIANTS.join(", ")
                )),
            }
            return;
        }
        match self.core.set_option(name, value) {
            Ok(notes) => notes.iter().for_each(|n| self.info(n)),
            Err(e) => self.info(&e),
        }
    }

    /// Switches to 1-based ranks when a command has a move with rank 10.
    fn detect_ranks(&mut self, line: &str) {
        if self.ranks == Ranks::FromZero
            && line
                .split_whitespace()
                .any(|w| w.len() > 4 && w.contains("10") && notation::looks_like_move(w))
        {
            self.ranks = Ranks::FromOne;
            self.info("moves now number the ranks 1 to 10, as Fairy-Stockfish's UCI does");
        }
    }

    fn go(&mut self, go: GoParams) {
        if let Some(depth) = go.perft {
            self.perft(depth);
            return;
        }
        self.core.stop_and_wait();
        let limits = self.limits(&go);
        let hold = go.infinite || go.ponder;
        // With `OwnBook` on, a position in the opening book is answered at once from it
        // (never while pondering or analysing, nor when the moves are restricted).
        if !hold && limits.search_moves.is_empty() {
            if let Some(m) = self.core.book_move(self.game.position()) {
                self.info(&format!("book move {}", notation::write(m, self.ranks)));
                self.core.say(&output::bestmove_line(
                    Some(m),
                    None,
                    self.protocol,
                    self.ranks,
                    None,
                ));
                self.banned.clear();
                return;
            }
        }
        // A fresh flag per search: a `ponderhit draw` concerns the search it arrives in.
        self.draw_offered = Arc::new(AtomicBool::new(go.draw_offered));
        let report = Box::new(UciReport {
            out: self.core.sink(),
            protocol: self.protocol,
            ranks: self.ranks,
            draw_offered: Arc::clone(&self.draw_offered),
        });
        if let Err(e) = self.core.search(&self.game, limits, hold, report) {
            self.info(e);
        }
        self.banned.clear();
    }

    fn limits(&self, go: &GoParams) -> Limits {
        let pos = self.game.position();
        let clock = match self.protocol {
            Protocol::Uci => {
                let (time, inc) = match pos.side_to_move() {
                    Color::Red => (go.wtime, go.winc),
                    Color::Black => (go.btime, go.binc),
                };
                time.map(|t| self.core.clock(t, inc.unwrap_or(0), go.movestogo))
            }
            Protocol::Ucci => ucci::clock(self, go),
        };
        let mut search_moves = Vec::new();
        for text in &go.searchmoves {
            match self.parse_move(pos, text) {
                Ok(m) => search_moves.push(m),
                Err(e) => self.info(&format!("go searchmoves: {text:?}: {e}; ignored")),
            }
        }
        if !self.banned.is_empty() {
            search_moves = ucci::without_banned(self, search_moves);
        }
        let mut limits = Limits {
            depth: go.depth.map(|d| d.max(1)),
            nodes: go.nodes,
            movetime: go.movetime.map(std::time::Duration::from_millis),
            clock: None,
            infinite: go.infinite,
            mate: go.mate,
            ponder: go.ponder,
            search_moves,
        };
        if let Some(clock) = clock {
            core::play_by(&mut limits, clock);
        }
        if core::unbounded(&limits) {
            // A bare `go` (or `go ponder`) searches until stopped.
            limits.infinite = true;
        }
        limits
    }

    fn perft(&self, depth: u32) {
        let pos = self.game.position();
        if depth == 0 {
            self.core.say("");
            self.core.say("Nodes searched: 1");
            return;
        }
        let mut total = 0u64;
        for (m, n) in pos.divide(depth) {
            self.core
                .say(&format!("{}: {n}", notation::write(m, self.ranks)));
            total += n;
        }
        self.core.say("");
        self.core.say(&format!("Nodes searched: {total}"));
    }

    fn display(&self) {
        let pos = self.game.position();
        for l in pos.to_string().lines() {
            self.core.say(l);
        }
        self.core.say(&format!("Fen: {}", pos.fen()));
        self.core.say(&format!("Key: {:016X}", pos.key()));
        let checkers: Vec<String> = pos.checkers().iter().map(|s| s.to_string()).collect();
        self.core.say(&format!("Checkers: {}", checkers.join(" ")));
    }

    fn eval(&self) {
        let pos = self.game.position();
        let mut hand = xiangqi_eval::DefaultEvaluator::default();
        hand.reset(pos);

        let net_score = match &self.core.options.network {
            xiangqi_nnue::AnyNet::Simple(n) => {
                xiangqi_nnue::NnueEvaluator::with_network(n.clone()).evaluate_fresh(pos)
            }
            xiangqi_nnue::AnyNet::Layered(n) => {
                xiangqi_nnue::LayeredEvaluator::new(n.clone()).evaluate_fresh(pos)
            }
        };
        let in_use = if self.core.options.use_nnue {
            "NNUE"
        } else {
            "hand-written"
        };
        for (name, s) in [("NNUE", net_score), ("hand-written", hand.evaluate(pos))] {
            let red = if pos.side_to_move() == Color::Red {
                s
            } else {
                -s
            };
            let mark = if name == in_use { " (in use)" } else { "" };
            self.core.say(&format!(
                "Static evaluation, {name}{mark}: {} for the side to move ({}), {} for red",
                s.0,
                pos.side_to_move(),
                red.0
            ));
        }
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
            let mut engine = Session::new(out);
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
