//! Reading uploaded game records (every format `xiangqi-records` reads) into games, and
//! writing a game as PGN. All use of `xiangqi-records` is here.

use crate::error::ApiError;
use crate::view::{line, MoveView};
use serde::Serialize;
use xiangqi_core::{Color, Game};
use xiangqi_records::pgn::{self, PgnGame, PgnResult};
use xiangqi_records::{Format, Record};

/// One game of a record, as the API writes it.
#[derive(Clone, Debug, Serialize)]
pub struct RecordGame {
    /// The tags in file order (`[name, value]`).
    pub tags: Vec<(String, String)>,
    /// The start position.
    pub start_fen: String,
    /// The moves of the main line.
    pub moves: Vec<MoveView>,
    /// Comments of the main line: `ply` moves into the game (0 = before the first move).
    pub comments: Vec<CommentView>,
    /// Lines in the record's variation tree (1 for a game without side lines).
    pub lines: usize,
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
    /// `pgn`, `xqf`, `ubb`, `cbf`, `cbr`, `cbl` or `text`.
    pub format: &'static str,
    /// The games.
    pub games: Vec<RecordGame>,
    /// Problems met in games that were skipped.
    pub warnings: Vec<String>,
}

/// The main line of `record` as the API writes it; its comments by ply (a comment before a
/// move is shown after the move before it, as the page shows one comment per position).
fn view(record: &Record) -> RecordGame {
    let tree = &record.tree;
    let start = tree.start();
    let mut comments = Vec::new();
    let mut add = |ply: usize, text: &str| {
        if !text.is_empty() {
            comments.push(CommentView {
                ply,
                text: text.to_string(),
            });
        }
    };
    add(0, &tree.node(tree.root()).comment);
    for (i, id) in tree.main_line().into_iter().enumerate() {
        let node = tree.node(id);
        add(i, &node.starting_comment);
        add(i + 1, &node.comment);
    }
    RecordGame {
        tags: record.tags.clone(),
        start_fen: start.fen(),
        moves: line(start, &tree.main_line_moves()),
        comments,
        lines: tree.leaf_count().max(1),
        result: record.result.as_str(),
    }
}

/// Reads a record file's bytes: any format `xiangqi-records` reads (PGN in UTF-8, GB18030 or
/// Big5, XQF, DhtmlXQ/UBB, CBF, CBR/CBL, plain move lists), found from the bytes.
///
/// # Errors
/// A 422 with the reader's error (and its place) when no game can be read.
pub fn read(bytes: &[u8]) -> Result<Records, ApiError> {
    if bytes.is_empty() {
        return Err(ApiError::invalid(
            "bad_record",
            "body",
            "the record is empty",
        ));
    }
    // Lenient: a game whose move text goes wrong keeps the moves before the error (with a
    // warning), but bytes in which nothing reads as a game are refused.
    let loaded = xiangqi_records::read(bytes)
        .map_err(|e| ApiError::invalid("bad_record", "body", e.to_string()))?;
    let useful = loaded
        .records
        .iter()
        .any(|r| r.tree.move_count() > 0 || !r.tags.is_empty());
    if !useful {
        let message = match loaded.warnings.first() {
            Some(w) => format!("{}: {w}", loaded.format.name()),
            None => "no game found: send a PGN, XQF, DhtmlXQ, CBF or CBR file".into(),
        };
        return Err(ApiError::invalid("bad_record", "body", message));
    }
    Ok(Records {
        format: format_name(loaded.format),
        games: loaded.records.iter().map(view).collect(),
        warnings: loaded.warnings.iter().map(ToString::to_string).collect(),
    })
}

/// The API's name of a record format.
fn format_name(format: Format) -> &'static str {
    match format {
        Format::Pgn => "pgn",
        Format::Xqf => "xqf",
        Format::Ubb => "ubb",
        Format::Cbf => "cbf",
        Format::Cbr => "cbr",
        Format::Cbl => "cbl",
        Format::Text => "text",
    }
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
