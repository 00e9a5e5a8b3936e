//! One game session: the player's commands, the computer's turns, and what is shown.
//!
//! Runs on the main thread. Input lines arrive from the input thread and the engine's
//! reports from the engine thread, both as [`Event`]s on one channel, so the program stays
//! responsive while the computer thinks: `now` makes it move at once. Other commands typed
//! while it thinks wait their turn (so a scripted game through a pipe plays out in order).

use crate::board::{self, Style};
use crate::engine::{self, Engine, Purpose, Report, Request};
use crate::notation;
use crate::rules::{self, End};
use std::collections::VecDeque;
use std::io::Write;
use std::sync::mpsc::Receiver;
use std::time::Duration;
use std::time::Instant;
use xiangqi::book::Book;
use xiangqi::core::{Color, Game, Move, Position, RuleSet};
use xiangqi::search::{Info, Level, Limits, Score};

/// Something for the main thread to handle.
pub enum Event {
    /// A line typed by the player.
    Line(String),
    /// The input is closed.
    Eof,
    /// A report from the engine thread.
    Engine(Report),
}

/// Who plays which side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Players {
    /// The player has this colour; the computer the other.
    Human(Color),
    /// The player plays both sides (the computer only gives hints).
    Both,
}

/// How moves are written in the move list and the progress lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// 炮二平五
    Chinese,
    /// C2.5
    Wxf,
    /// h2e2
    Iccs,
}

/// The settings chosen on the command line (and changed by commands).
pub struct Settings {
    /// Who plays.
    pub players: Players,
    /// Index into [`engine::levels`].
    pub level: usize,
    /// The computer's limits per move instead of a level (from `--depth`, `--nodes`,
    /// `--movetime`).
    pub limits: Option<Limits>,
    /// The limits of a hint (full strength).
    pub hint_limits: Limits,
    /// The rules that judge repetitions.
    pub rules: RuleSet,
    /// Drawing style.
    pub style: Style,
    /// Move text in lists.
    pub notation: Notation,
    /// Let the computer play from the opening book.
    pub book: bool,
    /// Echo the input lines (when the input is not a terminal, so transcripts read well).
    pub echo: bool,
    /// Show a prompt (when the input is a terminal).
    pub prompt: bool,
}

struct Thinking {
    id: u64,
    purpose: Purpose,
    started: Instant,
    /// The position searched, to write the progress lines.
    position: Position,
}

mod commands;

/// The game session.
pub struct Session<W: Write> {
    out: W,
    settings: Settings,
    game: Game,
    tags: Vec<(String, String)>,
    engine: Engine,
    thinking: Option<Thinking>,
    next_id: u64,
    pending: VecDeque<String>,
    input_closed: bool,
    last_hint: Option<Move>,
    /// The end of the game (by the rules or by resignation).
    over: Option<End>,
    /// The game just ended and the player was asked for a file name to save it.
    offer_save: bool,
    quit: bool,
}

/// The words that make the computer move at once.
fn is_now(word: &str) -> bool {
    matches!(word, "now" | "stop" | "move" | "go" | "立即" | ".")
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Red => "红方 red",
        Color::Black => "黑方 black",
    }
}

/// A score from the side to move's view, in words.
pub fn score_text(score: Score) -> String {
    match score.mate_moves() {
        Some(n) if n > 0 => format!("mate in {n} (绝杀)"),
        Some(n) => format!("mated in {} (被杀)", -n),
        None => format!("{:+}", score.0),
    }
}

impl<W: Write> Session<W> {
    /// A session writing to `out`, starting from `game`.
    pub fn new(out: W, settings: Settings, game: Game, engine: Engine) -> Session<W> {
        Session {
            out,
            settings,
            game,
            tags: Vec::new(),
            engine,
            thinking: None,
            next_id: 1,
            pending: VecDeque::new(),
            input_closed: false,
            last_hint: None,
            over: None,
            offer_save: false,
            quit: false,
        }
    }

    fn say(&mut self, text: impl AsRef<str>) {
        let _ = writeln!(self.out, "{}", text.as_ref());
        let _ = self.out.flush();
    }

    fn computer_color(&self) -> Option<Color> {
        match self.settings.players {
            Players::Human(c) => Some(c.other()),
            Players::Both => None,
        }
    }

    fn computer_to_move(&self) -> bool {
        self.computer_color() == Some(self.game.position().side_to_move())
    }

    /// The limits and level of a search for `purpose`.
    fn search_limits(&self, purpose: Purpose) -> (Limits, Option<Level>) {
        match (purpose, &self.settings.limits) {
            (Purpose::Hint, _) => (self.settings.hint_limits.clone(), None),
            (Purpose::Move, Some(l)) => (l.clone(), None),
            (Purpose::Move, None) => {
                let levels = engine::levels();
                let level = levels[self.settings.level.min(levels.len() - 1)];
                // The level caps depth and nodes; the time cap is for full strength.
                let limits = Limits {
                    movetime: Some(Duration::from_secs(10)),
                    ..Limits::default()
                };
                (limits, Some(level))
            }
        }
    }

    /// Writes a move the way the settings ask.
    fn move_text(&self, pos: &Position, m: Move) -> String {
        match self.settings.notation {
            Notation::Chinese => notation::to_chinese(pos, m),
            Notation::Wxf => notation::to_wxf(pos, m),
            Notation::Iccs => m.to_string(),
        }
    }

    /// A line of moves from `pos`, in the chosen notation.
    fn line_text(&self, pos: &Position, line: &[Move]) -> String {
        let mut pos = pos.clone();
        let mut words = Vec::new();
        for &m in line {
            if !pos.is_legal(m) {
                break;
            }
            words.push(self.move_text(&pos, m));
            pos.make_move(m);
        }
        words.join(" ")
    }

    fn show_board(&mut self) {
        let style = self.settings.style;
        let last = self.game.moves().last().copied();
        let drawing = board::draw(self.game.position(), last, style);
        let _ = write!(self.out, "{drawing}");
        if let Some(m) = last {
            let n = self.game.moves().len();
            let before = &self.game.positions()[n - 1];
            let text = format!(
                "last move 上一着: {} {} ({m}, {})",
                color_name(before.side_to_move()),
                notation::to_chinese(before, m),
                notation::to_wxf(before, m)
            );
            self.say(text);
        }
    }

    fn prompt(&mut self) {
        if self.over.is_some() {
            if self.settings.prompt {
                let _ = write!(self.out, "(game over) > ");
            }
        } else if self.settings.prompt {
            let side = self.game.position().side_to_move();
            let _ = write!(self.out, "{} to move 走棋 > ", color_name(side));
        }
        let _ = self.out.flush();
    }

    /// Runs the session until `quit` or the end of the input; `false` if the engine
    /// thread died.
    pub fn run(&mut self, events: Receiver<Event>) -> bool {
        self.intro();
        self.show_board();
        self.check_end();
        let mut prompted = false;
        loop {
            if self.quit {
                return true;
            }
            if self.thinking.is_none() {
                if self.over.is_none() && self.computer_to_move() {
                    self.start_thinking(Purpose::Move);
                    prompted = false;
                    continue;
                }
                if let Some(line) = self.pending.pop_front() {
                    self.handle_line(&line);
                    prompted = false;
                    continue;
                }
                if self.input_closed {
                    return true;
                }
                if !prompted {
                    self.prompt();
                    prompted = true;
                }
            }
            let Ok(event) = events.recv() else {
                // Only the engine thread can still hold a sender here.
                self.say("the engine thread stopped unexpectedly");
                return false;
            };
            match event {
                Event::Line(line) => {
                    if self.thinking.is_some() {
                        self.line_while_thinking(line);
                    } else {
                        self.pending.push_back(line);
                    }
                }
                Event::Eof => self.input_closed = true,
                Event::Engine(report) => self.engine_report(report),
            }
        }
    }

    fn intro(&mut self) {
        self.say("象棋 xiangqi — play against the computer. Type `help` for the commands.");
        let levels = engine::levels();
        let level = &levels[self.settings.level.min(levels.len() - 1)];
        let who = match self.settings.players {
            Players::Human(c) => format!("you play {}", color_name(c)),
            Players::Both => "you play both sides (the computer gives hints)".into(),
        };
        let strength = match &self.settings.limits {
            Some(l) => format!("custom limits {}", limits_text(l)),
            None => format!(
                "level {} {} — {}",
                self.settings.level + 1,
                level.name,
                level.description
            ),
        };
        self.say(format!("{who}; {strength}"));
    }

    fn line_while_thinking(&mut self, line: String) {
        let word = line.trim();
        match word {
            // At a terminal at once; in a script behind queued commands, `now` is for a
            // later search.
            w if is_now(w) && (self.settings.prompt || self.pending.is_empty()) => {
                if self.settings.echo {
                    self.say(format!("> {word}"));
                }
                self.engine.stop();
            }
            // At a terminal, quit at once; from a script, in turn.
            "quit" | "exit" | "退出" if self.settings.prompt => {
                self.engine.stop();
                self.quit = true;
            }
            _ => {
                if self.settings.prompt {
                    self.say(format!("(after the computer's move: {word})"));
                }
                self.pending.push_back(line);
            }
        }
    }

    /// A move from the opening book for the computer, if the position is in it.
    fn book_move(&self) -> Option<Move> {
        if !self.settings.book {
            return None;
        }
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Book::builtin().pick(self.game.position(), seed)
    }

    fn start_thinking(&mut self, purpose: Purpose) {
        if purpose == Purpose::Move {
            if let Some(m) = self.book_move() {
                let pos = self.game.position();
                let games = Book::builtin()
                    .moves(pos)
                    .iter()
                    .find(|b| b.mv == m)
                    .map_or(0, |b| b.games);
                let text = format!(
                    "computer 电脑: {} ({m}) from the opening book 开局库 ({games} master games)",
                    notation::to_chinese(pos, m)
                );
                self.say(text);
                self.play_move(m);
                return;
            }
        }
        let id = self.next_id;
        self.next_id += 1;
        let (limits, level) = self.search_limits(purpose);
        let position = self.game.position().clone();
        let who = match purpose {
            Purpose::Move => "The computer is thinking 电脑思考中 (scores for the computer)",
            Purpose::Hint => "Looking for a hint 提示 (scores for you)",
        };
        self.say(format!("{who}... (type `now` to make it move at once)"));
        self.engine.send(Request::Think {
            id,
            game: Box::new(self.game.clone()),
            limits: Box::new(limits),
            level,
            rules: self.settings.rules,
        });
        self.thinking = Some(Thinking {
            id,
            purpose,
            started: Instant::now(),
            position,
        });
        // A `now` queued right behind what started this search is meant for it.
        if self.pending.front().is_some_and(|l| is_now(l.trim())) {
            let line = self.pending.pop_front().unwrap_or_default();
            if self.settings.echo {
                self.say(format!("> {}", line.trim()));
            }
            self.engine.stop();
        }
    }

    fn engine_report(&mut self, report: Report) {
        let Some(thinking) = &self.thinking else {
            return;
        };
        match report {
            Report::Info(id, info) if id == thinking.id => {
                let text = self.info_text(&thinking.position, &info);
                self.say(text);
            }
            Report::Done(id, result) if id == thinking.id => {
                let purpose = thinking.purpose;
                let elapsed = thinking.started.elapsed();
                self.thinking = None;
                let Some(best) = result.best_move else {
                    self.check_end();
                    return;
                };
                let pos = self.game.position().clone();
                if !pos.is_legal(best) {
                    self.say(format!(
                        "the engine offered an illegal move {best}; ignored"
                    ));
                    return;
                }
                match purpose {
                    Purpose::Hint => {
                        self.last_hint = Some(best);
                        let pv = self.line_text(&pos, &result.pv);
                        self.say(format!(
                            "hint 提示: {} ({best}, {}) score {} depth {} — line: {pv}\n(type `play` to play it)",
                            notation::to_chinese(&pos, best),
                            notation::to_wxf(&pos, best),
                            score_text(result.score),
                            result.depth,
                        ));
                    }
                    Purpose::Move => {
                        self.say(format!(
                            "computer 电脑: {} ({best}) score {} depth {} nodes {} in {:.1}s",
                            notation::to_chinese(&pos, best),
                            score_text(result.score),
                            result.depth,
                            result.nodes,
                            elapsed.as_secs_f64()
                        ));
                        self.play_move(best);
                    }
                }
            }
            _ => {}
        }
    }

    fn info_text(&self, pos: &Position, info: &Info) -> String {
        format!(
            "  depth {:>2}  score {:>7}  nodes {:>9}  {:>6} ms  {}",
            info.depth,
            score_text(info.score),
            info.nodes,
            info.time.as_millis(),
            self.line_text(pos, &info.pv)
        )
    }

    /// Plays a legal move, announces it, check and the end of the game.
    fn play_move(&mut self, m: Move) {
        let before = self.game.position().clone();
        if self.game.play(m).is_err() {
            self.say(format!("{m} is not legal here"));
            return;
        }
        self.last_hint = None;
        let number = before.fullmove_number();
        let dots = if before.side_to_move() == Color::Red {
            "."
        } else {
            "..."
        };
        self.say(format!(
            "{number}{dots} {} {} ({m}, {})",
            color_name(before.side_to_move()),
            notation::to_chinese(&before, m),
            notation::to_wxf(&before, m)
        ));
        if self.game.position().is_check() && self.game.position().outcome().is_none() {
            self.say("将军! Check!");
        }
        let computer_next = self.computer_to_move();
        self.check_end();
        if !computer_next || self.over.is_some() {
            self.show_board();
        }
    }

    fn check_end(&mut self) {
        if self.over.is_some() {
            return;
        }
        if let Some(end) = rules::outcome(&self.game, self.settings.rules) {
            self.announce_end(end);
        }
    }

    /// Announces the end and offers to save the game.
    fn announce_end(&mut self, end: End) {
        self.say(format!("Game over 对局结束 — {end}"));
        if self.settings.prompt {
            self.say("Save the game? Type a file name (e.g. game.pgn), or Enter to skip:");
            self.offer_save = true;
        } else {
            self.say("Save it with `save <file>.pgn`; `new` starts another game, `undo` takes back, `quit` leaves.");
        }
        self.over = Some(end);
    }
}

fn players_text(p: Players) -> String {
    match p {
        Players::Human(c) => format!("you play {}", color_name(c)),
        Players::Both => "you play both sides".into(),
    }
}

/// The limits in words.
pub fn limits_text(l: &Limits) -> String {
    let mut parts = Vec::new();
    if let Some(d) = l.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(n) = l.nodes {
        parts.push(format!("{n} nodes"));
    }
    if let Some(t) = l.movetime {
        parts.push(format!("{} ms", t.as_millis()));
    }
    parts.join(", ")
}
