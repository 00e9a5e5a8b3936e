//! Saving and loading games with the records crate: saved as PGN (`xiangqi_records::pgn`,
//! the Chinese-chess PGN of xqbase: `[Game "Chinese Chess"]`, Red/Black tags, a FEN tag for
//! a set-up start) in Chinese notation (the format's default); loaded from any format the
//! crate reads (PGN, XQF, DhtmlXQ, CBF, CBR/CBL, plain move lists; any encoding), any line
//! of its variation tree.

use crate::rules::End;
use xiangqi::core::Game;
use xiangqi::records::pgn::{self, PgnGame, PgnResult};

/// A game as saved: its tags and moves.
pub struct Record {
    /// Tag pairs, in order.
    pub tags: Vec<(String, String)>,
    /// The game.
    pub game: Game,
}

/// Writes `record` as PGN text, with the result of `end` (`*` while the game goes on).
pub fn write(record: &Record, end: Option<&End>) -> String {
    let mut g = PgnGame::new(record.game.clone());
    g.tags = record.tags.clone();
    g.set_tag("Format", "Chinese");
    g.result = match end.map(|e| e.winner) {
        None => PgnResult::Unknown,
        Some(Some(xiangqi::core::Color::Red)) => PgnResult::RedWins,
        Some(Some(xiangqi::core::Color::Black)) => PgnResult::BlackWins,
        Some(None) => PgnResult::Draw,
    };
    if let Some(end) = end {
        g.comments.push(pgn::PgnComment {
            ply: record.game.moves().len(),
            text: end.reason.clone(),
        });
    }
    pgn::write(&g)
}

/// Loads `spec`: a file path, optionally followed by `#N` to play on from the N-th line of
/// the first game's tree (1 = the main line; lines in the order the file writes them).
/// Also returns notes for the player: what the reader had to skip, and the opening's ECCO
/// code.
pub fn load(spec: &str) -> Result<(Record, Vec<String>), String> {
    let (path, line) = match spec.rsplit_once('#') {
        Some((p, n)) if n.parse::<usize>().is_ok() => (p, n.parse::<usize>().unwrap_or(1)),
        _ => (spec, 1),
    };
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let loaded = xiangqi::records::read(&bytes).map_err(|e| e.to_string())?;
    let mut notes: Vec<String> = loaded
        .warnings
        .iter()
        .map(|w| format!("{path}: warning: {w}"))
        .collect();
    let first = loaded
        .records
        .into_iter()
        .next()
        .ok_or("no game in the file")?;
    let tree = &first.tree;
    if let Some(o) = xiangqi::records::ecco::classify(tree) {
        notes.push(format!("opening 开局: {} {}", o.code, o.name));
    }
    let leaves = tree.leaves();
    let leaf = *leaves
        .get(line.max(1) - 1)
        .ok_or(format!("the game has {} lines, not {line}", leaves.len()))?;
    let mut game = Game::new(tree.start().clone());
    for m in tree.moves_to(leaf) {
        game.play(m).map_err(|e| e.to_string())?;
    }
    Ok((
        Record {
            tags: first.tags,
            game,
        },
        notes,
    ))
}

/// Today's date as PGN writes it (`2026.11.30`), from the system clock (UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The Gregorian date of a day counted from 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}
