//! A game record: tags, the variation tree and the result; what a reader returns
//! ([`Loaded`]) and the options it takes.

use crate::pgn::PgnResult;
use crate::tree::GameTree;
use crate::warning::Warning;
use core::fmt;
use xiangqi_core::Game;

/// The value of tag `name` (case-insensitive) in `tags`.
pub(crate) fn find_tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// Sets tag `name` in `tags`, replacing an existing one.
pub(crate) fn put_tag(tags: &mut Vec<(String, String)>, name: &str, value: &str) {
    match tags.iter_mut().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
        Some(t) => t.1 = value.to_string(),
        None => tags.push((name.to_string(), value.to_string())),
    }
}

/// One game of a file, with every line and comment in it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Record {
    /// Tag pairs in file order (PGN names: `Event`, `Red`, `Black`, `Date`, `Site`, ...).
    pub tags: Vec<(String, String)>,
    /// The start position and the tree of moves.
    pub tree: GameTree,
    /// The result.
    pub result: PgnResult,
}

impl Record {
    /// A record of `tree` with no tags and an unknown result.
    pub fn new(tree: GameTree) -> Record {
        Record {
            tags: Vec::new(),
            tree,
            result: PgnResult::Unknown,
        }
    }

    /// The value of tag `name` (case-insensitive).
    pub fn tag(&self, name: &str) -> Option<&str> {
        find_tag(&self.tags, name)
    }

    /// Sets tag `name`, replacing an existing one.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        put_tag(&mut self.tags, name, value);
    }

    /// Removes tag `name`.
    pub fn remove_tag(&mut self, name: &str) {
        self.tags.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
    }

    /// The main line as a [`Game`].
    pub fn main_game(&self) -> Game {
        self.tree.main_game()
    }
}

/// The formats this crate reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Format {
    /// PGN (xqbase's Chinese-chess PGN).
    Pgn,
    /// XQStudio's binary XQF.
    Xqf,
    /// DhtmlXQ / UBB (`[DhtmlXQ]...[/DhtmlXQ]`).
    Ubb,
    /// 象棋桥 (CCBridge) XML, `.cbf`.
    Cbf,
    /// 象棋桥 binary game, `.cbr`.
    Cbr,
    /// 象棋桥 binary library of games, `.cbl`.
    Cbl,
    /// A plain move list (no tags), in any notation.
    Text,
}

impl Format {
    /// The usual name (`PGN`, `XQF`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Format::Pgn => "PGN",
            Format::Xqf => "XQF",
            Format::Ubb => "DhtmlXQ",
            Format::Cbf => "CBF",
            Format::Cbr => "CBR",
            Format::Cbl => "CBL",
            Format::Text => "text",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a reader found in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// The format.
    pub format: Format,
    /// The text encoding found (`UTF-8`, `GB18030`, `Big5`, `UTF-16LE`; binary formats: the
    /// encoding of their strings).
    pub encoding: &'static str,
    /// The games.
    pub records: Vec<Record>,
    /// For each record, which game of the file it is (0-based; the `game` of its
    /// warnings' [`Place`](crate::Place)s). Games that could not be read at all (a bad FEN)
    /// have warnings but no record.
    pub games: Vec<usize>,
    /// What was skipped or repaired, in file order.
    pub warnings: Vec<Warning>,
}

/// How to read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Every warning is an error.
    pub strict: bool,
    /// Read as this format instead of detecting it.
    pub format: Option<Format>,
}

/// A file that could not be read: nothing in it loads, or (strict mode) it has a warning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The format the file was read as.
    pub format: Format,
    /// What is wrong, and where.
    pub warning: Warning,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.format, self.warning)
    }
}

impl std::error::Error for ReadError {}
