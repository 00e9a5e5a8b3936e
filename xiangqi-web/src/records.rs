//! Reading uploaded game records (PGN in UTF-8, GB18030 or Big5, and XQF) into games, and
//! writing a game as PGN. All use of `xiangqi-records` is here.

use crate::error::ApiError;
use crate::view::{line, MoveView};
use serde::Serialize;
use xiangqi_core::{Color, Game};
use xiangqi_records::pgn::{self, PgnGame, PgnResult};
use xiangqi_records::xqf;

/// One game of a record, as the API writes it.
#[derive(Clone, Debug, Serialize)]
pub struct RecordGame {
    /// The tags in file order (`[name, value]`).
    pub tags: Vec<(String, String)>,
    /// The start position.
    pub start_fen: String,
    /// The moves of the main line.
    pub moves: Vec<MoveView>,
    /// Comments: `ply` moves into the game (0 = before the first move).
    pub comments: Vec<CommentView>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'static str,
}

/// A comment of a record.
#[derive(Clone, Debug, Serialize)]
pub struct CommentView {
    /// After this many moves.
    pub ply: usize,
    /// The text.
    pub text: String,
}

/// Every game read from a record, with warnings for games that could not be read.
#[derive(Clone, Debug, Serialize)]
pub struct Records {
    /// `pgn` or `xqf`.
    pub format: &'static str,
    /// The games.
    pub games: Vec<RecordGame>,
    /// Problems met in games that were skipped.
    pub warnings: Vec<String>,
}

fn view(g: &PgnGame) -> RecordGame {
    let start = g.game.start_position();
    RecordGame {
        tags: g.tags.clone(),
        start_fen: start.fen(),
        moves: line(start, g.game.moves()),
        comments: g
            .comments
            .iter()
            .map(|c| CommentView {
                ply: c.ply,
                text: c.text.clone(),
            })
            .collect(),
        result: g.result.as_str(),
    }
}

/// Is this an XQF file (XQStudio's binary format starts with `XQ`)?
fn is_xqf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"XQ")
}

/// Reads a record file's bytes.
///
/// # Errors
/// A 422 with the reader's error (line and column, or byte offset) when no game can be read.
pub fn read(bytes: &[u8]) -> Result<Records, ApiError> {
    if bytes.is_empty() {
        return Err(ApiError::invalid(
            "bad_record",
            "body",
            "the record is empty",
        ));
    }
    if is_xqf(bytes) {
        let game = xqf::read(bytes)
            .map_err(|e| ApiError::invalid("bad_record", "body", format!("XQF: {e}")))?;
        return Ok(Records {
            format: "xqf",
            games: vec![view(&game.to_pgn())],
            warnings: Vec::new(),
        });
    }
    // Lenient: a game whose move text goes wrong keeps the moves before the error (with a
    // warning), but text in which nothing reads as a game is refused.
    let (games, errors) = pgn::read_lenient(bytes);
    let useful = games
        .iter()
        .any(|g| !g.game.moves().is_empty() || !g.tags.is_empty());
    if !useful {
        let message = match errors.first() {
            Some(e) => e.to_string(),
            None => "no game found: send a PGN or XQF file".into(),
        };
        return Err(ApiError::invalid("bad_record", "body", message));
    }
    Ok(Records {
        format: "pgn",
        games: games.iter().map(view).collect(),
        warnings: errors.iter().map(ToString::to_string).collect(),
    })
}

/// The PGN text of `game` with `tags`, its result from `winner` when it has ended.
pub fn write_pgn(game: Game, tags: &[(String, String)], ended: Option<Option<Color>>) -> String {
    let mut record = PgnGame::new(game);
    for (name, value) in tags {
        record.set_tag(name, value);
    }
    record.result = match ended {
        Some(Some(Color::Red)) => PgnResult::RedWins,
        Some(Some(Color::Black)) => PgnResult::BlackWins,
        Some(None) => PgnResult::Draw,
        None => PgnResult::Unknown,
    };
    pgn::write(&record)
}
