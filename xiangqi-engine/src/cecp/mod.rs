//! The CECP front end (the XBoard/WinBoard protocol, version 2), chosen when the first
//! command is `xboard`.
//!
//! Unlike UCI, a CECP engine keeps the game itself: the GUI sends the opponent's moves
//! (`usermove`), and the engine plays its own (`move h2e2`) when it is on move and not in
//! `force` mode, claims the end of the game (`1-0 {Red wins by checkmate}`), ponders on the
//! expected reply when `hard` is on, and analyses in `analyze` mode. Moves are written as
//! XBoard writes xiangqi moves: files `a`–`i`, ranks `0`–`9` from red's side (XBoard's
//! `ONE` is `'0'` on a board ten ranks high), the same text as UCI's.
//!
//! The engine's own move is played on the game by the search thread (see [`report`]) before
//! the `move` line is written, so a command that follows it always sees it played.

mod parse;
mod report;

use crate::core::{Core, NAME};
use parse::{Cmd, TimeControl};
pub use report::Waker;
use report::{CecpReport, Mode, Shared};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, MutexGuard};
use std::time::Duration;
use xiangqi_core::{Color, Game, Move, Position, RuleSet};
use xiangqi_search::Limits;

/// Search time per move when the GUI has given neither a clock nor `st`.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(2);

/// A CECP session.
pub struct Cecp {
    core: Core,
    shared: Arc<Shared>,
    /// Which side the engine plays; `None` in force mode (and after a result).
    engine: Option<Color>,
    /// `hard`: ponder on the opponent's time.
    ponder: bool,
    analyzing: bool,
    level: TimeControl,
    /// `st`: fixed time per move.
    move_time: Option<Duration>,
    /// `sd`: depth limit.
    depth: Option<u32>,
    /// `time`: the engine's clock, centiseconds.
    time_cs: Option<u64>,
    /// What the running search's end is for (shared with its report).
    running: Option<Arc<AtomicU8>>,
    /// The opponent move the running ponder search assumes.
    pondering_on: Option<Move>,
}

impl Cecp {
    /// A CECP session over `core`; `wake` is called from the search thread after a move.
    pub fn new(core: Core, wake: Waker) -> Cecp {
        let shared = Arc::new(Shared::new(Game::new(Position::startpos()), wake));
        Cecp {
            core,
            shared,
            engine: Some(Color::Black),
            ponder: false,
            analyzing: false,
            level: TimeControl::default(),
            move_time: None,
            depth: None,
            time_cs: None,
            running: None,
            pondering_on: None,
        }
    }

    fn say(&self, line: &str) {
        self.core.say(line);
    }

    fn game(&self) -> MutexGuard<'_, Game> {
        self.shared.game()
    }

    /// Handles one input line. Returns `false` when the engine should exit.
    pub fn handle_line(&mut self, line: &str) -> bool {
        let cmd = match parse::parse(line) {
            Ok(c) => c,
            Err(e) => {
                self.say(&e.to_string());
                return true;
            }
        };
        match cmd {
            Cmd::Nothing => {}
            Cmd::Protover(_) => self.features(),
            Cmd::New => {
                self.cancel();
                *self.game() = Game::new(Position::startpos());
                self.shared.reopen();
                self.engine = Some(Color::Black);
                self.move_time = None;
                self.depth = None;
                self.core.new_game();
                self.restart_analysis();
            }
            Cmd::Variant(v) => {
                if !v.eq_ignore_ascii_case("xiangqi") {
                    self.say(&format!("Error (unsupported variant): {v}"));
                }
            }
            Cmd::Force => {
                self.cancel();
                self.engine = None;
            }
            Cmd::Go => {
                self.cancel();
                let side = self.game().position().side_to_move();
                self.engine = Some(side);
                self.think();
            }
            Cmd::PlayOther => {
                self.cancel();
                let side = self.game().position().side_to_move().other();
                self.engine = Some(side);
            }
            Cmd::UserMove(text) => self.user_move(&text),
            Cmd::MoveNow => {
                if self.running_mode() == Some(Mode::Play) {
                    self.core.stop();
                }
            }
            Cmd::Ping(n) => {
                // As `isready`: the default folder's tables first (see `wait_for_tables`).
                let out = self.core.sink();
                self.core
                    .wait_for_tables(&mut |note| out(&format!("# {note}")));
                self.say(&format!("pong {n}"));
            }
            Cmd::SetBoard(fen) => match Position::from_fen(&fen) {
                Ok(pos) => {
                    self.cancel();
                    *self.game() = Game::new(pos);
                    self.shared.reopen();
                    self.restart_analysis();
                }
                Err(e) => self.say(&format!("tellusererror Illegal position: {e}")),
            },
            Cmd::Undo(plies) => {
                self.cancel();
                for _ in 0..plies {
                    self.game().undo();
                }
                self.shared.reopen();
                self.restart_analysis();
            }
            Cmd::Level(tc) => self.level = tc,
            Cmd::St(t) => self.move_time = Some(t),
            Cmd::Sd(d) => self.depth = Some(d),
            Cmd::Time(cs) => self.time_cs = Some(cs),
            Cmd::Post(on) => self.shared.set_post(on),
            Cmd::Hard(on) => {
                self.ponder = on;
                if !on && self.running_mode() == Some(Mode::Ponder) {
                    self.cancel();
                }
            }
            Cmd::Analyze => {
                self.cancel();
                self.analyzing = true;
                self.engine = None;
                self.restart_analysis();
            }
            Cmd::ExitAnalysis => {
                self.cancel();
                self.analyzing = false;
            }
            Cmd::Status => {
                if let Some(line) = self.shared.status_line() {
                    self.say(&line);
                }
            }
            Cmd::Result => {
                self.cancel();
                self.engine = None;
            }
            Cmd::Option(name, value) => self.set_option(&name, value.as_deref()),
            Cmd::Memory(mb) => self.set_option("Hash", Some(&mb.to_string())),
            Cmd::Cores(n) => self.set_option("Threads", Some(&n.to_string())),
            // Our tables are the only kind announced (`egt="xiangqi"`).
            Cmd::EgtPath(kind, path) if kind == "xiangqi" => {
                self.set_option("EGTBPath", Some(&path))
            }
            Cmd::EgtPath(kind, _) => self.say(&format!(
                "Error (unsupported tablebase kind {kind}): egtpath"
            )),
            Cmd::Quit => {
                self.cancel();
                self.core.shutdown();
                return false;
            }
        }
        true
    }

    /// The search thread has ended a search: ponder on the expected reply if asked to.
    pub fn on_wake(&mut self) {
        if self.core.searching() || !self.ponder || self.analyzing {
            return;
        }
        let Some(engine) = self.engine else { return };
        let Some(reply) = self.shared.take_expected() else {
            return;
        };
        let mut game = self.game().clone();
        if game.position().side_to_move() == engine || self.shared.is_over() {
            return;
        }
        if game.play(reply).is_err() || game.outcome(self.rules()).is_some() {
            return;
        }
        let mut limits = self.limits(&game);
        limits.ponder = true;
        self.start(&game, limits, Mode::Ponder, true);
        self.pondering_on = Some(reply);
    }

    /// Stops any search and ends the search thread.
    pub fn shutdown(&mut self) {
        self.cancel();
        self.core.shutdown();
    }

    fn features(&self) {
        self.say("feature done=0");
        let mut f = vec![
            format!("myname=\"{NAME}\""),
            "variants=\"xiangqi\"".to_string(),
            // Our own tablebases (xiangqi-egtb), whose folder XBoard gives by `egtpath`.
            "egt=\"xiangqi\"".to_string(),
        ];
        for x in [
            "setboard=1",
            "usermove=1",
            "ping=1",
            "playother=1",
            "time=1",
            "draw=0",
            "sigint=0",
            "sigterm=0",
            "reuse=1",
            "analyze=1",
            "colors=0",
            "san=0",
            "pause=0",
            "nps=0",
            "debug=1",
            "memory=1",
            "smp=1",
            "exclude=0",
        ] {
            f.push(x.to_string());
        }
        self.say(&format!("feature {}", f.join(" ")));
        for o in parse::option_features(&self.core.options) {
            self.say(&format!("feature option=\"{o}\""));
        }
        self.say("feature done=1");
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.core.set_option(name, value) {
            Ok(notes) => notes.iter().for_each(|n| self.say(&format!("# {n}"))),
            Err(e) => self.say(&format!("Error (bad option): {e}")),
        }
    }

    fn rules(&self) -> RuleSet {
        self.core.options.repetition.rules()
    }

    fn running_mode(&self) -> Option<Mode> {
        if !self.core.searching() {
            return None;
        }
        self.running
            .as_ref()
            .map(|m| Mode::from_u8(m.load(Ordering::SeqCst)))
    }

    /// Ends the running search, if any, without playing its move.
    fn cancel(&mut self) {
        if let Some(m) = &self.running {
            m.store(Mode::Discard as u8, Ordering::SeqCst);
        }
        self.core.stop_and_wait();
        self.running = None;
        self.pondering_on = None;
    }

    fn user_move(&mut self, text: &str) {
        let parsed = {
            let game = self.game();
            crate::notation::parse(game.position(), text, crate::notation::Ranks::FromZero)
        };
        let m = match parsed {
            Ok(m) => m,
            Err(e) => {
                self.say(&format!("Illegal move ({e}): {text}"));
                return;
            }
        };
        // The move predicted while pondering: the search goes on, now on the clock.
        if self.pondering_on == Some(m) && self.running_mode() == Some(Mode::Ponder) {
            let _ = self.game().play(m);
            self.pondering_on = None;
            if let Some(r) = &self.running {
                r.store(Mode::Play as u8, Ordering::SeqCst);
            }
            self.core.ponderhit();
            return;
        }
        self.cancel();
        let _ = self.game().play(m);
        if self.analyzing {
            self.restart_analysis();
            return;
        }
        self.think();
    }

    /// Thinks if the engine is on move, or claims the result if the game is over.
    fn think(&mut self) {
        let Some(engine) = self.engine else { return };
        let game = self.game().clone();
        if game.position().side_to_move() != engine || self.shared.is_over() {
            return;
        }
        if let Some(outcome) = game.outcome(self.rules()) {
            if self.shared.claim(&outcome, &*self.core.sink()) {
                return;
            }
        }
        if let Some(m) = self.core.book_move(game.position()) {
            self.shared
                .play_book_move(m, self.rules(), &*self.core.sink());
            return;
        }
        let limits = self.limits(&game);
        self.start(&game, limits, Mode::Play, false);
    }

    fn restart_analysis(&mut self) {
        if !self.analyzing {
            return;
        }
        self.cancel();
        let game = self.game().clone();
        if game.position().legal_moves().is_empty() {
            return;
        }
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        self.start(&game, limits, Mode::Analyze, true);
    }

    fn start(&mut self, game: &Game, limits: Limits, mode: Mode, hold: bool) {
        let flag = Arc::new(AtomicU8::new(mode as u8));
        let report = CecpReport::new(
            self.core.sink(),
            Arc::clone(&self.shared),
            Arc::clone(&flag),
            self.rules(),
        );
        match self.core.search(game, limits, hold, Box::new(report)) {
            Ok(()) => self.running = Some(flag),
            Err(e) => self.say(&format!("Error (cannot search): {e}")),
        }
    }

    /// The limits for the engine's move in `game` from `st`, `sd`, `level` and `time`.
    fn limits(&self, game: &Game) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            ..Limits::default()
        };
        if let Some(t) = self.move_time {
            limits.movetime = Some(t);
            return limits;
        }
        let time_ms = match self.time_cs {
            Some(cs) => cs.saturating_mul(10),
            None if self.level.base_ms > 0 => self.level.base_ms,
            None => {
                limits.movetime = Some(DEFAULT_MOVE_TIME);
                return limits;
            }
        };
        let moves_to_go = (self.level.moves > 0).then(|| {
            let pos = game.position();
            // Moves the side to move has played in this game.
            let differ = game.start_position().side_to_move() != pos.side_to_move();
            let played = (game.moves().len() + usize::from(differ)) / 2;
            // One move more than are left in the session: the last move before the control
            // then keeps half the clock instead of a tenth, a reserve for the GUI's lag.
            self.level.moves - (played as u32 % self.level.moves) + 1
        });
        crate::core::play_by(
            &mut limits,
            self.core.clock(time_ms, self.level.inc_ms, moves_to_go),
        );
        limits
    }
}
