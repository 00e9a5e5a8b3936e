//! The player's commands: moves, undo and redo, new games, levels, resignation, saving and
//! loading, the move list.

use super::{color_name, players_text, Notation, Players, Session};
use crate::engine::Purpose;
use crate::engine::{self, Request};
use crate::notation;
use crate::record::{self, Record};
use crate::rules::End;
use std::io::Write;
use xiangqi::core::{Color, Game, Position};

const HELP: &str = "\
Moves: ICCS (h2e2), WXF (C2.5, H8+7, R+.3) or Chinese (炮二平五, 马８进７, 前车进一).
Commands:
  undo   悔棋    take back your last move (and the computer's reply)
  redo   还原    play again what was taken back
  hint   提示    the engine suggests a move for you, with its score
  play           play the move of the last hint
  now    立即    while the computer thinks: stop and make it move now
  new [red|black|both]   新局   a new game (optionally choosing your side)
  fen <FEN>      start a new game from a position
  side <red|black|both>  change sides (both = you play both, the computer hints)
  level <n>      strength level; `levels` lists them
  resign 认输    give up the game
  save <file>    保存   save the game as PGN
  load <file>    载入   load a game (PGN in any notation, or XQF)
  flip   翻转    turn the board around (正反棋盘)
  board          draw the board again
  moves  着法    the move list; `notation chinese|wxf|iccs` chooses how moves are written
  fen            print the FEN of the position
  help   帮助    this text
  quit   退出    leave";

/// The command words (an answer to the offer to save that is one of these is a command).
const COMMANDS: &[&str] = &[
    "help", "h", "?", "帮助", "quit", "exit", "q", "退出", "undo", "u", "悔棋", "redo", "还原",
    "hint", "提示", "play", "now", "stop", "立即", "new", "新局", "side", "level", "levels",
    "resign", "认输", "save", "保存", "load", "载入", "打开", "flip", "翻转", "board", "b",
    "moves", "着法", "notation", "fen",
];

impl<W: Write> Session<W> {
    /// The answer to the offer to save: a file name, nothing, or another command.
    pub(super) fn answer_offer(&mut self, line: &str) -> bool {
        self.offer_save = false;
        let word = line.split_whitespace().next().unwrap_or("");
        if word.is_empty() || matches!(word, "n" | "no" | "否" | "不") {
            self.say("not saved; `new` starts another game, `undo` takes back, `quit` leaves.");
            return true;
        }
        if COMMANDS.contains(&word.to_lowercase().as_str()) {
            return false;
        }
        let path = if line.contains('.') {
            line.to_string()
        } else {
            format!("{line}.pgn")
        };
        self.save(&path);
        true
    }

    pub(super) fn handle_line(&mut self, line: &str) {
        let line = line.trim();
        if self.offer_save && self.answer_offer(line) {
            return;
        }
        if line.is_empty() {
            return;
        }
        if self.settings.echo {
            self.say(format!("> {line}"));
        }
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match word.to_lowercase().as_str() {
            "help" | "h" | "?" | "帮助" => self.say(HELP),
            "quit" | "exit" | "q" | "退出" => self.quit = true,
            "undo" | "u" | "悔棋" => self.undo(),
            "redo" | "还原" => self.redo(),
            "hint" | "提示" => {
                if self.over.is_some() {
                    self.say("the game is over");
                } else {
                    self.start_thinking(Purpose::Hint);
                }
            }
            "play" => match self.last_hint {
                Some(m) if self.over.is_none() && self.game.position().is_legal(m) => {
                    self.play_move(m)
                }
                _ => self.say("no hint to play: type `hint` first"),
            },
            "now" | "stop" | "立即" => self.say("the computer is not thinking"),
            "new" | "新局" => self.new_game(rest),
            "side" => match parse_players(rest) {
                Some(p) => {
                    self.settings.players = p;
                    self.settings.style.flipped = p == Players::Human(Color::Black);
                    self.say(format!("sides changed; {}", players_text(p)));
                }
                None => self.say("side red, side black or side both"),
            },
            "level" => self.set_level(rest),
            "levels" => self.list_levels(),
            "resign" | "认输" => self.resign(),
            "save" | "保存" => self.save(rest),
            "load" | "载入" | "打开" => self.load(rest),
            "flip" | "翻转" => {
                self.settings.style.flipped = !self.settings.style.flipped;
                self.show_board();
            }
            "board" | "b" => self.show_board(),
            "moves" | "着法" => self.list_moves(rest),
            "notation" => match rest {
                "chinese" | "中文" => self.settings.notation = Notation::Chinese,
                "wxf" => self.settings.notation = Notation::Wxf,
                "iccs" => self.settings.notation = Notation::Iccs,
                _ => self.say("notation chinese, notation wxf or notation iccs"),
            },
            "fen" if rest.is_empty() => {
                let fen = self.game.position().fen();
                self.say(format!("FEN {fen}"));
            }
            "fen" => match Position::from_fen(rest) {
                Ok(pos) => {
                    self.start_game(
                        Game::new(pos),
                        Vec::new(),
                        "new game from the position 新局",
                    );
                }
                Err(e) => self.say(format!("bad FEN: {e}")),
            },
            _ => self.try_move(line),
        }
    }

    fn try_move(&mut self, text: &str) {
        if let Some(end) = &self.over {
            let end = end.to_string();
            self.say(format!(
                "the game is over ({end}); `new`, `undo`, `save` or `quit`"
            ));
            return;
        }
        if self.computer_to_move() {
            self.say("it is the computer's turn");
            return;
        }
        match notation::parse_move(self.game.position(), text) {
            Ok(m) => self.play_move(m),
            Err(e) => self.say(format!("refused 不行: {e}")),
        }
    }

    fn undo(&mut self) {
        let played = self.game.positions()[..self.game.moves().len()]
            .iter()
            .any(|p| Some(p.side_to_move()) != self.computer_color());
        if !played {
            self.say("nothing to undo: you have not moved yet");
            return;
        }
        self.over = None;
        self.game.undo();
        // Take back the computer's reply too, so that it is the player's turn again.
        while self.computer_to_move() && !self.game.moves().is_empty() {
            self.game.undo();
        }
        self.last_hint = None;
        self.say(format!(
            "taken back 悔棋; {} moves played",
            self.game.moves().len()
        ));
        self.show_board();
        self.check_end();
    }

    fn redo(&mut self) {
        if self.game.redo_moves().is_empty() {
            self.say("nothing to redo");
            return;
        }
        self.game.redo();
        while self.computer_to_move() && !self.game.redo_moves().is_empty() {
            self.game.redo();
        }
        self.last_hint = None;
        self.say(format!(
            "replayed 还原; {} moves played",
            self.game.moves().len()
        ));
        self.show_board();
        self.check_end();
    }

    fn new_game(&mut self, rest: &str) {
        if let Some(p) = parse_players(rest) {
            self.settings.players = p;
            self.settings.style.flipped = p == Players::Human(Color::Black);
        }
        self.start_game(Game::new(Position::startpos()), Vec::new(), "new game 新局");
    }

    /// Starts playing `game` (new, from a FEN or loaded), announced by `what`.
    fn start_game(&mut self, game: Game, tags: Vec<(String, String)>, what: &str) {
        self.game = game;
        self.tags = tags;
        self.over = None;
        self.last_hint = None;
        self.engine.send(Request::NewGame);
        self.say(format!("{what}; {}", players_text(self.settings.players)));
        self.show_board();
        self.check_end();
    }

    fn set_level(&mut self, rest: &str) {
        let levels = engine::levels();
        match rest.parse::<usize>() {
            Ok(n) if (1..=levels.len()).contains(&n) => {
                self.settings.level = n - 1;
                self.settings.limits = None;
                let l = &levels[n - 1];
                self.say(format!("level {n}: {} — {}", l.name, l.description));
            }
            _ => {
                self.say(format!("level 1..{}", levels.len()));
                self.list_levels();
            }
        }
    }

    fn list_levels(&mut self) {
        for (i, l) in engine::levels().iter().enumerate() {
            let mark = if i == self.settings.level { '*' } else { ' ' };
            self.say(format!("{mark}{} {} — {}", i + 1, l.name, l.description));
        }
    }

    fn resign(&mut self) {
        if self.over.is_some() {
            self.say("the game is already over");
            return;
        }
        let loser = match self.settings.players {
            Players::Human(c) => c,
            Players::Both => self.game.position().side_to_move(),
        };
        let end = End {
            winner: Some(loser.other()),
            reason: format!("{} resigns (认输)", color_name(loser)),
        };
        self.announce_end(end);
    }

    fn save(&mut self, path: &str) {
        if path.is_empty() {
            self.say("save <file>: say where");
            return;
        }
        let mut tags = self.tags.clone();
        let (red, black) = match self.settings.players {
            Players::Human(Color::Red) => ("Player", "Computer"),
            Players::Human(Color::Black) => ("Computer", "Player"),
            Players::Both => ("Player", "Player"),
        };
        // A loaded game keeps its own tags; a new one gets these.
        for (name, value) in [
            ("Event", "Game against the computer".to_string()),
            ("Date", record::today()),
            ("Red", red.to_string()),
            ("Black", black.to_string()),
        ] {
            if !tags.iter().any(|(k, _)| k.eq_ignore_ascii_case(name)) {
                tags.push((name.to_string(), value));
            }
        }
        let text = record::write(
            &Record {
                tags,
                game: self.game.clone(),
            },
            self.over.as_ref(),
        );
        match std::fs::write(path, text) {
            Ok(()) => self.say(format!(
                "saved 已保存 {} moves to {path}",
                self.game.moves().len()
            )),
            Err(e) => self.say(format!("cannot save to {path}: {e}")),
        }
    }

    fn load(&mut self, path: &str) {
        match record::load(path) {
            Ok((rec, notes)) => {
                for n in notes {
                    self.say(n);
                }
                let what = format!("loaded 已载入 {} moves from {path}", rec.game.moves().len());
                self.start_game(rec.game, rec.tags, &what);
            }
            Err(e) => self.say(format!("cannot load {path}: {e}")),
        }
    }

    fn list_moves(&mut self, rest: &str) {
        let notation = match rest {
            "wxf" => Notation::Wxf,
            "iccs" => Notation::Iccs,
            "chinese" | "中文" => Notation::Chinese,
            _ => self.settings.notation,
        };
        let saved = self.settings.notation;
        self.settings.notation = notation;
        let mut lines = Vec::new();
        let mut line = String::new();
        for (m, pos) in self.game.moves().iter().zip(self.game.positions()) {
            if pos.side_to_move() == Color::Red || line.is_empty() {
                if !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
                let dots = if pos.side_to_move() == Color::Red {
                    "."
                } else {
                    ". ……"
                };
                line = format!("{:>3}{dots}", pos.fullmove_number());
            }
            line.push_str(&format!(" {}", self.move_text(pos, *m)));
        }
        if !line.is_empty() {
            lines.push(line);
        }
        self.settings.notation = saved;
        if lines.is_empty() {
            self.say("no moves yet");
        }
        for l in lines {
            self.say(l);
        }
    }
}

fn parse_players(text: &str) -> Option<Players> {
    match text.trim() {
        "red" | "r" | "红" | "红方" => Some(Players::Human(Color::Red)),
        "black" | "b" | "黑" | "黑方" => Some(Players::Human(Color::Black)),
        "both" | "two" | "双方" => Some(Players::Both),
        _ => None,
    }
}
