//! ECCO (中国象棋开局编码, A00–E99): the opening of a game by code and name, e.g.
//! `B05 中炮对进左马(其他)`.
//!
//! The table (`data/ecco.tsv`) is 象棋百科全书网 (xqbase.com)'s "中国象棋开局编号——ECCO
//! 2004": each code's name and defining moves, from the text of its pages as transcribed in
//! hbsxcjp/cchess_c (`chessManual/eccolib_src`), reshaped by `tools/ecco_table.py`; see
//! `data/README.md`. A code is defined per side by moves it must make among its first
//! moves, in any order (transpositions count), moves it may make before them, and how many
//! other moves it may make; some fix the side's first move.
//!
//! A game that opens on red's left wing is read mirrored (the table names first moves on
//! the right: 炮二平五, 兵三进一). A game gets the code whose definition holds for its first ten moves of each side and
//! names the most moves (the source's "(其他)" codes name fewer than their sub-codes, so
//! they are what is left); A00 when none does. Only games from the initial position have
//! a code.
//!
//! ```
//! use xiangqi_core::Position;
//! let pos = Position::startpos();
//! let mut moves = Vec::new();
//! let mut p = pos.clone();
//! for m in ["h2e2", "h9g7", "h0g2", "i9h9"] {
//!     let m = p.parse_uci(m)?;
//!     p.make_move(m);
//!     moves.push(m);
//! }
//! let o = xiangqi_records::ecco::classify_moves(&pos, &moves).unwrap();
//! assert_eq!(o.code, "B05");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use crate::record::Record;
use crate::tree::GameTree;
use std::sync::OnceLock;
use xiangqi_core::{Color, Move, Position};

/// The table, as `tools/ecco_table.py` writes it.
const TABLE: &str = include_str!("../data/ecco.tsv");

/// Moves of each side the classification looks at (ECCO reads the first 20 plies).
const WINDOW: usize = 10;

/// An opening: its ECCO code and name.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    /// The code, `A00` to `E99`.
    pub code: &'static str,
    /// The name (simplified Chinese, as the source writes it).
    pub name: &'static str,
}

/// What one side must do for a code.
#[derive(Default, Debug)]
struct SideRule {
    /// The side's first move is one of these.
    first: Option<Vec<Move>>,
    /// Whether `first` is also one of the moves it must make (a `^` cell).
    first_required: bool,
    /// Moves it must make, each one of several.
    required: Vec<Vec<Move>>,
    /// Moves it may make besides.
    fillers: Vec<Move>,
    /// How many other moves it may make.
    wildcards: usize,
    /// Any number of other moves: the source leaves the side's moves open (`……` at a
    /// lettered move) and names none it may make before.
    free: bool,
}

#[derive(Debug)]
struct Rule {
    opening: Opening,
    sides: [SideRule; 2],
}

impl SideRule {
    fn weight(&self) -> usize {
        self.required.len() + usize::from(self.first_required)
    }

    /// Whether the side's first moves `moves` fit.
    fn fits(&self, moves: &[Move]) -> bool {
        if let Some(first) = &self.first {
            match moves.first() {
                Some(m) if first.contains(m) => {}
                _ => return false,
            }
        }
        let need = self.weight();
        for len in need..=moves.len().min(WINDOW) {
            let window = &moves[..len];
            let mut used = vec![false; len];
            if self.first_required {
                used[0] = true;
            }
            let mut cells: Vec<&Vec<Move>> = self.required.iter().collect();
            cells.sort_by_key(|c| c.len());
            let assigned = cells.iter().all(|cell| {
                let hit = (0..len).find(|&i| !used[i] && cell.contains(&window[i]));
                hit.map(|i| used[i] = true).is_some()
            });
            if !assigned {
                continue;
            }
            let others = (0..len)
                .filter(|&i| !used[i] && !self.fillers.contains(&window[i]))
                .count();
            if self.free || others <= self.wildcards {
                return true;
            }
        }
        false
    }
}

/// A side's moves in Chinese notation played on a board where the other side passes, to
/// read later moves in the position they are made in. Moves read in any order: a move
/// that cannot be read yet is tried again after the others.
struct SideBoard {
    pos: Position,
}

impl SideBoard {
    fn new(color: Color) -> SideBoard {
        let mut pos = Position::startpos();
        if color == Color::Black {
            pos.make_null();
        }
        SideBoard { pos }
    }

    /// Reads `text` here; plays it (the other side passing) when `play`.
    fn read(&mut self, text: &str, play: bool) -> Option<Move> {
        let m = self.pos.parse_move(text).ok()?;
        if play {
            self.pos.make_move(m);
            self.pos.make_null();
        }
        Some(m)
    }
}

fn side_rule(spec: &str, color: Color) -> SideRule {
    let mut rule = SideRule::default();
    let mut free_marks = false;
    let initial = SideBoard::new(color);
    let mut board = SideBoard::new(color);
    // Cells to read: (options, is a filler).
    let mut pending: Vec<(Vec<&str>, bool)> = Vec::new();
    for cell in spec.split_whitespace() {
        match cell {
            "_" => rule.wildcards += 1,
            "*" => free_marks = true,
            c if c.starts_with('^') || c.starts_with('=') => {
                let options: Vec<&str> = c[c.len_utf8_first()..].split('/').collect();
                let mut first_board = SideBoard {
                    pos: initial.pos.clone(),
                };
                let moves: Vec<Move> = options
                    .iter()
                    .filter_map(|o| first_board.read(o, false))
                    .collect();
                if c.starts_with('^') {
                    rule.first_required = true;
                    if let Some(o) = options.first() {
                        board.read(o, true);
                    }
                }
                rule.first = Some(moves);
            }
            c => {
                let filler = c.starts_with('~');
                pending.push((c.trim_start_matches('~').split('/').collect(), filler));
            }
        }
    }
    // Read what can be read, again and again, until nothing more can.
    loop {
        let before = pending.len();
        pending.retain(|(options, filler)| {
            let moves: Vec<Move> = options
                .iter()
                .filter_map(|o| board.read(o, false))
                .collect();
            if moves.is_empty() {
                return true;
            }
            if let Some(o) = options.iter().find(|o| board.pos.parse_move(o).is_ok()) {
                board.read(o, true);
            }
            if *filler {
                rule.fillers.extend(moves);
            } else {
                rule.required.push(moves);
            }
            false
        });
        if pending.is_empty() || pending.len() == before {
            break;
        }
    }
    // A move that never reads (the table's own slips) makes the rule unmatchable rather
    // than looser.
    if pending.iter().any(|(_, filler)| !filler) {
        rule.required.push(Vec::new());
    }
    // `……` at a lettered move ("m. ……，车９平８") leaves the side open only where the source
    // does not list the moves it may make before; where it does, those are the only ones.
    rule.free = free_marks && rule.fillers.is_empty();
    rule
}

trait FirstChar {
    fn len_utf8_first(&self) -> usize;
}

impl FirstChar for str {
    fn len_utf8_first(&self) -> usize {
        self.chars().next().map_or(0, char::len_utf8)
    }
}

fn rules() -> &'static [Rule] {
    static RULES: OnceLock<Vec<Rule>> = OnceLock::new();
    RULES.get_or_init(|| {
        TABLE
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter_map(|line| {
                let mut f = line.split('\t');
                let code = f.next()?;
                let name = f.next()?;
                let red = f.next().unwrap_or("");
                let black = f.next().unwrap_or("");
                Some(Rule {
                    opening: Opening { code, name },
                    sides: [side_rule(red, Color::Red), side_rule(black, Color::Black)],
                })
            })
            .collect()
    })
}

/// The name of an ECCO code (the first the table gives for it).
pub fn name(code: &str) -> Option<&'static str> {
    rules()
        .iter()
        .find(|r| r.opening.code == code)
        .map(|r| r.opening.name)
}

/// The opening of a game played from `start` with `moves`; `None` unless `start` is the
/// initial position and at least one move was played.
pub fn classify_moves(start: &Position, moves: &[Move]) -> Option<Opening> {
    if start != &Position::startpos() || moves.is_empty() {
        return None;
    }
    // The table names red's first move on its right wing (炮二平五, 兵三进一); a game that
    // opens on the left (炮八平五, 兵七进一) is read mirrored, as ECCO does.
    let mirror = moves[0].from().file().index() < 4;
    let seen: Vec<Move> = moves
        .iter()
        .take(2 * WINDOW)
        .map(|&m| {
            if mirror {
                Move::new(m.from().flip_horizontal(), m.to().flip_horizontal())
            } else {
                m
            }
        })
        .collect();
    let red: Vec<Move> = seen.iter().step_by(2).copied().collect();
    let black: Vec<Move> = seen.iter().skip(1).step_by(2).copied().collect();
    let mut best: Option<(&Rule, usize)> = None;
    for rule in rules() {
        if !(rule.sides[0].fits(&red) && rule.sides[1].fits(&black)) {
            continue;
        }
        // Most moves named wins; between equals, a code that is not the source's
        // "(其他)" (everything else) wins, then the first in the table.
        let other = rule.opening.name.contains("其他");
        let weight = 2 * (rule.sides[0].weight() + rule.sides[1].weight()) + usize::from(!other);
        if best.is_none_or(|(_, w)| weight > w) {
            best = Some((rule, weight));
        }
    }
    let default = Opening {
        code: "A00",
        name: name("A00").unwrap_or("(其他开局)"),
    };
    Some(best.map_or(default, |(r, _)| r.opening))
}

/// The opening of a tree's main line.
pub fn classify(tree: &GameTree) -> Option<Opening> {
    classify_moves(tree.start(), &tree.main_line_moves())
}

/// Sets a record's `ECCO` and `Opening` tags from its main line (when it has a code).
pub fn tag(record: &mut Record) {
    if let Some(o) = classify(&record.tree) {
        record.set_tag("ECCO", o.code);
        record.set_tag("Opening", o.name);
    }
}
