//! Saving and loading games as PGN (the Chinese-chess PGN of xqbase: `[Game "Chinese Chess"]`,
//! Red/Black tags, a FEN tag for a set-up start, ICCS move text).
//!
//! A small reader and writer of its own until `xiangqi_records::pgn` lands. The reader takes
//! move text in ICCS, WXF or Chinese notation, skips comments `{...}`, variations `(...)`,
//! move numbers and the result.

use crate::notation;
use xiangqi::core::{Game, Position, START_FEN};

/// A game as saved: its tags and moves.
pub struct Record {
    /// Tag pairs, in order.
    pub tags: Vec<(String, String)>,
    /// The game.
    pub game: Game,
}

/// Writes `record` as PGN with ICCS move text.
pub fn write(record: &Record, result: &str) -> String {
    let mut s = String::new();
    s.push_str("[Game \"Chinese Chess\"]\n");
    for (k, v) in &record.tags {
        if k == "Game" || k == "FEN" || k == "Format" || k == "Result" {
            continue;
        }
        s.push_str(&format!(
            "[{k} \"{}\"]\n",
            v.replace('\\', "\\\\").replace('"', "\\\"")
        ));
    }
    s.push_str(&format!("[Result \"{result}\"]\n"));
    let start = record.game.start_position();
    if start.fen() != START_FEN {
        s.push_str(&format!("[FEN \"{}\"]\n", start.fen()));
    }
    s.push_str("[Format \"ICCS\"]\n\n");
    let mut line = String::new();
    let mut number = start.fullmove_number();
    for (i, (m, pos)) in record
        .game
        .moves()
        .iter()
        .zip(record.game.positions())
        .enumerate()
    {
        let red = pos.side_to_move() == xiangqi::core::Color::Red;
        if red || i == 0 {
            line.push_str(&format!("{number}.{} ", if red { "" } else { " ..." }));
        }
        line.push_str(&format!("{m} "));
        if !red {
            number += 1;
        }
        if line.len() > 70 {
            s.push_str(line.trim_end());
            s.push('\n');
            line.clear();
        }
    }
    line.push_str(result);
    s.push_str(&line);
    s.push('\n');
    s
}

/// Reads the first game of a PGN text.
pub fn read(bytes: &[u8]) -> Result<Record, String> {
    let text = String::from_utf8_lossy(bytes);
    let mut tags = Vec::new();
    let mut body = String::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('[') && t.ends_with(']') && body.trim().is_empty() {
            let inner = &t[1..t.len() - 1];
            let (key, rest) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
            let value = rest.trim().trim_matches('"').replace("\\\"", "\"");
            tags.push((key.to_string(), value));
        } else if t.starts_with('[') && !body.trim().is_empty() {
            break; // the next game
        } else {
            body.push_str(line);
            body.push('\n');
        }
    }
    let start = match tags.iter().find(|(k, _)| k == "FEN") {
        Some((_, fen)) => {
            Position::from_fen(fen).map_err(|e| format!("bad FEN tag {fen:?}: {e}"))?
        }
        None => Position::startpos(),
    };
    let mut game = Game::new(start);
    let mut depth = 0i32; // inside {...} or (...)
    let mut token = String::new();
    let mut tokens = Vec::new();
    for c in body.chars() {
        match c {
            '{' | '(' => depth += 1,
            '}' | ')' => depth = (depth - 1).max(0),
            _ if depth > 0 => {}
            c if c.is_whitespace() => tokens.push(std::mem::take(&mut token)),
            c => token.push(c),
        }
    }
    tokens.push(token);
    for tok in tokens {
        // Strip move numbers written together with the move ("1.h2e2").
        let t = tok
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim_start_matches('.');
        let t = if tok.contains('.') && tok.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            t
        } else {
            tok.as_str()
        };
        if t.is_empty() || matches!(t, "*" | "1-0" | "0-1" | "1/2-1/2" | "...") {
            continue;
        }
        let m = notation::parse_move(game.position(), t)
            .map_err(|e| format!("move {} ({t}): {e}", game.moves().len() + 1))?;
        game.play(m).map_err(|e| e.to_string())?;
    }
    Ok(Record { tags, game })
}
