//! Writing PGN.

use super::{MoveFormat, PgnComment, PgnGame};
use xiangqi_core::{Color, Position};

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes a game as PGN text (UTF-8): `[Game "Chinese Chess"]` first, the other tags in
/// order, `Result` and `FEN` (for a non-initial start) kept in step with the game, and the
/// moves in the notation of the `Format` tag (Chinese when there is none), one move pair a
/// line, with comments. `}` in a comment is written as `)`.
pub fn write(game: &PgnGame) -> String {
    let mut out = String::new();
    let start = game.game.start_position();
    let mut tags: Vec<(String, String)> = vec![("Game".into(), "Chinese Chess".into())];
    for (n, v) in &game.tags {
        if ["Game", "Result", "FEN"]
            .iter()
            .any(|k| n.eq_ignore_ascii_case(k))
        {
            continue;
        }
        tags.push((n.clone(), v.clone()));
    }
    tags.push(("Result".into(), game.result.as_str().into()));
    if start != &Position::startpos() {
        tags.push(("FEN".into(), start.fen()));
    }
    for (n, v) in &tags {
        out.push_str(&format!("[{n} \"{}\"]\n", escape(v)));
    }
    out.push('\n');
    let format = game.format();
    let mut comments = game.comments.iter().peekable();
    let write_comments =
        |out: &mut String,
         ply: usize,
         comments: &mut core::iter::Peekable<core::slice::Iter<'_, PgnComment>>| {
            while let Some(c) = comments.next_if(|c| c.ply <= ply) {
                out.push_str(&format!("{{{}}}\n", c.text.replace('}', ")")));
            }
        };
    write_comments(&mut out, 0, &mut comments);
    let positions = game.game.positions();
    let mut number = start.fullmove_number().max(1);
    for (i, &m) in game.game.moves().iter().enumerate() {
        let pos = &positions[i];
        let text = match format {
            MoveFormat::Iccs => m.to_string(),
            MoveFormat::Wxf => pos.to_wxf(m),
            MoveFormat::Chinese => pos.to_chinese(m),
        };
        match pos.side_to_move() {
            Color::Red => out.push_str(&format!("{number}. {text}")),
            Color::Black if i == 0 => out.push_str(&format!("{number}... {text}")),
            Color::Black => out.push_str(&format!(" {text}")),
        }
        let has_comment = comments.peek().is_some_and(|c| c.ply <= i + 1);
        if pos.side_to_move() == Color::Black || has_comment || i + 1 == positions.len() - 1 {
            out.push('\n');
        }
        if has_comment {
            write_comments(&mut out, i + 1, &mut comments);
            if pos.side_to_move() == Color::Red && i + 1 < positions.len() - 1 {
                out.push_str(&format!("{number}..."));
            }
        }
        if pos.side_to_move() == Color::Black {
            number += 1;
        }
    }
    // Comments recorded past the last move.
    write_comments(&mut out, usize::MAX, &mut comments);
    out.push_str(game.result.as_str());
    out.push('\n');
    out
}
