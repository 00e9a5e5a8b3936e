//! XQF, the binary game format of XQStudio (象棋演播室): every version read, the encrypted
//! ones (file version 11 and later) included, with the whole variation tree; written as
//! version 1.0 without encryption, which every XQF reader opens.
//!
//! Layout (from `walker8088/cchess` `doc/XqfFormat.txt` for XQF 1.0 and the decryption in
//! its `read_xqf.py`, itself from XQFRW.pas; see `shared/notes/rules.md` (f)):
//!
//! * header, 0x000–0x3FF: `XQ`, version byte at 2; for encrypted versions the keys at
//!   3 (mask) and 8–15 (KeyOrA–D, KeysSum, KeyXY, KeyXYf, KeyXYt); the 32 piece points at
//!   0x10 (byte `x * 10 + y`, `x` the file a..i, `y` the rank from red's side; above 89 =
//!   not on the board) in the order red R N B A K A B N R C C P P P P P, then black; who
//!   plays first at 0x32 (1 black; read only when the record has no move, whose piece
//!   says it otherwise); the result at 0x33 (0 unknown, 1 red won, 2 black won, 3 or 4 draw); length-prefixed GBK
//!   strings: title 0x50, event 0xD0, date 0x110, site 0x120, red 0x130, black 0x140,
//!   commentator 0x1D0, author 0x1E0;
//! * moves from 0x400 (or the offset at 0x38 when set), depth first: a dummy record, then
//!   each move as from + 0x18, to + 0x20, a flag byte, a reserved byte, and a comment
//!   (length as a 32-bit little-endian integer, then the text). Version 10 and older: flag
//!   high nibble = a next move follows, low nibble = a variation follows; the comment
//!   length is always there. Version 11 and later: flag 0x80 = next, 0x40 = variation,
//!   0x20 = a comment length follows; all bytes of the move area are encrypted.
//!
//! The records are the tree in depth-first order: a move, then (if "next") its
//! continuation's subtree, then (if "variation") the next alternative to the same move.
//! A record that is off the board or illegal drops its subtree with a warning; a file cut
//! short keeps what came before. Only the header's strings hold tags: `Title`, `Event`,
//! `Date`, `Site`, `Red`, `Black`, `Annotator` (评论) and `Creator` (作者); others are not
//! written. Strings are GBK/GB18030 (written GB18030), header fields cut to their size.
//!
//! ```
//! let bytes = std::fs::read("tests/data/xqf10_sample_1997.xqf")?;
//! let game = xiangqi_records::xqf::read(&bytes)?;
//! assert_eq!(game.game.moves().len(), 16);
//! assert_eq!(game.result, xiangqi_records::pgn::PgnResult::BlackWins);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use crate::pgn::{PgnComment, PgnGame, PgnResult};
use crate::record::{Format, Loaded, ReadError, Record};
use crate::text;
use crate::tree::{GameTree, NodeId};
use crate::warning::{Place, Warning, WarningKind};
use core::fmt;
use xiangqi_core::{
    Color, File, Game, Move, Piece, Position, Problems, Rank, Role, Setup, SetupError, Square,
};

mod write;
pub use write::write;

/// The header size; moves start here unless the header says otherwise.
pub const HEADER_SIZE: usize = 0x400;

/// The roles of the 32 piece slots of the header, per side.
pub(crate) const SLOT_ROLES: [Role; 16] = [
    Role::Chariot,
    Role::Horse,
    Role::Elephant,
    Role::Advisor,
    Role::King,
    Role::Advisor,
    Role::Elephant,
    Role::Horse,
    Role::Chariot,
    Role::Cannon,
    Role::Cannon,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
];

/// The header's strings: tag, offset, field size.
const HEADER_TAGS: [(&str, usize, usize); 8] = [
    ("Title", 0x50, 0x80),
    ("Event", 0xD0, 0x40),
    ("Date", 0x110, 0x10),
    ("Site", 0x120, 0x10),
    ("Red", 0x130, 0x10),
    ("Black", 0x140, 0x10),
    ("Annotator", 0x1D0, 0x10),
    ("Creator", 0x1E0, 0x10),
];

/// The string the move-area key stream is made from.
const KEY_STREAM: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// A game read from an XQF file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XqfGame {
    /// The file version (10 = XQF 1.0; 11 and later are encrypted).
    pub version: u8,
    /// Title (标题).
    pub title: String,
    /// Event (赛事).
    pub event: String,
    /// Date (日期).
    pub date: String,
    /// Site (地点).
    pub site: String,
    /// Red player.
    pub red: String,
    /// Black player.
    pub black: String,
    /// Commentator (评论).
    pub commentator: String,
    /// Author of the file (作者).
    pub author: String,
    /// The result.
    pub result: PgnResult,
    /// Start position and main line.
    pub game: Game,
    /// Comments on the main line: `ply` 0 is the comment before the first move.
    pub comments: Vec<PgnComment>,
}

impl XqfGame {
    /// The same game as a PGN record (tags `Event`, `Site`, `Date`, `Red`, `Black`,
    /// `Title`, `Annotator`, `Creator` where not empty).
    pub fn to_pgn(&self) -> PgnGame {
        let mut g = PgnGame::new(self.game.clone());
        g.set_tag("Game", "Chinese Chess");
        for (name, value) in [
            ("Event", &self.event),
            ("Site", &self.site),
            ("Date", &self.date),
            ("Red", &self.red),
            ("Black", &self.black),
            ("Title", &self.title),
            ("Annotator", &self.commentator),
            ("Creator", &self.author),
        ] {
            if !value.is_empty() {
                g.set_tag(name, value);
            }
        }
        g.result = self.result;
        g.comments = self.comments.clone();
        g
    }
}

/// What is wrong with an XQF file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XqfErrorKind {
    /// The file is shorter than its header.
    TooShort,
    /// It does not start with `XQ`.
    BadMagic,
    /// The piece placement is not a legal position.
    BadPosition(SetupError),
    /// A move record names a point off the board.
    BadSquare(u8),
    /// A move record is not a legal move in its position.
    IllegalMove(Move),
    /// A move record or comment runs past the end of the file.
    Truncated,
}

/// An error reading XQF: what, and the byte offset in the file where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XqfError {
    /// Byte offset.
    pub offset: usize,
    /// What is wrong.
    pub kind: XqfErrorKind,
}

impl fmt::Display for XqfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "XQF offset {:#x}: ", self.offset)?;
        match &self.kind {
            XqfErrorKind::TooShort => write!(f, "file shorter than the {HEADER_SIZE}-byte header"),
            XqfErrorKind::BadMagic => f.write_str("not an XQF file (no \"XQ\" signature)"),
            XqfErrorKind::BadPosition(e) => write!(f, "bad start position: {e}"),
            XqfErrorKind::BadSquare(b) => write!(f, "move record names no point ({b})"),
            XqfErrorKind::IllegalMove(m) => write!(f, "illegal move {m}"),
            XqfErrorKind::Truncated => f.write_str("move record or comment cut short"),
        }
    }
}

impl std::error::Error for XqfError {}

/// The decryption keys of a file (all zero for unencrypted versions).
#[derive(Clone, Copy, Default)]
struct Keys {
    encrypted: bool,
    xy: u8,
    xyf: u8,
    xyt: u8,
    comment_size: u32,
    stream: [u8; 32],
}

/// The key derivation of XQFRW.pas, in 32-bit arithmetic truncated to a byte.
fn derive(b: u8, seed: u8) -> u8 {
    let b = u32::from(b);
    let v = (((((b.wrapping_mul(b)).wrapping_mul(3).wrapping_add(9))
        .wrapping_mul(3)
        .wrapping_add(8))
    .wrapping_mul(2)
    .wrapping_add(1))
    .wrapping_mul(3)
    .wrapping_add(8))
    .wrapping_mul(u32::from(seed));
    (v & 0xFF) as u8
}

fn keys(header: &[u8]) -> Keys {
    let version = header[2];
    if version <= 10 {
        return Keys::default();
    }
    let mask = header[3];
    let (or_a, or_b, or_c, or_d) = (header[8], header[9], header[10], header[11]);
    let (sum, xy, xyf, xyt) = (header[12], header[13], header[14], header[15]);
    let key_bytes = [
        (sum & mask) | or_a,
        (xy & mask) | or_b,
        (xyf & mask) | or_c,
        (xyt & mask) | or_d,
    ];
    let mut stream = [0u8; 32];
    for (i, s) in stream.iter_mut().enumerate() {
        *s = KEY_STREAM[i] & key_bytes[i % 4];
    }
    let k_xy = derive(xy, xy);
    let k_xyf = derive(xyf, k_xy);
    let k_xyt = derive(xyt, k_xyf);
    Keys {
        encrypted: true,
        xy: k_xy,
        xyf: k_xyf,
        xyt: k_xyt,
        comment_size: (u32::from(sum) * 256 + u32::from(xy)) % 32000 + 767,
        stream,
    }
}

/// The point of an XQF coordinate byte `x * 10 + y`.
fn square_of(b: u8) -> Option<Square> {
    if b > 89 {
        return None;
    }
    Some(Square::from_coords(File::new(b / 10)?, Rank::new(b % 10)?))
}

/// A length-prefixed legacy string of at most `max` bytes at `offset`.
fn header_string(header: &[u8], offset: usize, max: usize) -> String {
    let len = usize::from(header[offset]).min(max - 1);
    let raw = &header[offset + 1..offset + 1 + len];
    let raw = raw.split(|&b| b == 0).next().unwrap_or(raw);
    text::decode_gb(raw).trim().to_string()
}

/// Reads an XQF file: the main line, with its comments (the old interface; [`load`] reads
/// the whole tree).
///
/// # Errors
/// An [`XqfError`] with the byte offset: not XQF, a bad position, a main-line move record
/// that is off the board, illegal, or cut short.
pub fn read(bytes: &[u8]) -> Result<XqfGame, XqfError> {
    let parsed = parse(bytes)?;
    if let Some(e) = parsed.issues.iter().find_map(|i| i.main_error.clone()) {
        return Err(e);
    }
    let g = PgnGame::from_record(&parsed.record);
    let tag = |name: &str| g.tag(name).unwrap_or("").to_string();
    Ok(XqfGame {
        version: parsed.version,
        title: tag("Title"),
        event: tag("Event"),
        date: tag("Date"),
        site: tag("Site"),
        red: tag("Red"),
        black: tag("Black"),
        commentator: tag("Annotator"),
        author: tag("Creator"),
        result: g.result,
        game: g.game,
        comments: g.comments,
    })
}

/// Reads an XQF file with its whole variation tree, leniently.
///
/// # Errors
/// A [`ReadError`] when it is not XQF (no signature, shorter than the header) or the
/// start position is not legal.
pub fn load(bytes: &[u8]) -> Result<Loaded, ReadError> {
    let parsed = parse(bytes).map_err(|e| ReadError {
        format: Format::Xqf,
        warning: Warning {
            place: Place::offset(0, e.offset),
            kind: match e.kind {
                XqfErrorKind::BadMagic => WarningKind::NotThisFormat("no \"XQ\" signature"),
                XqfErrorKind::TooShort => WarningKind::Truncated("header"),
                _ => WarningKind::BadField(e.to_string()),
            },
        },
    })?;
    Ok(Loaded {
        format: Format::Xqf,
        encoding: "GB18030",
        records: vec![parsed.record],
        games: vec![0],
        warnings: parsed.issues.into_iter().map(|i| i.warning).collect(),
    })
}

/// A problem in the move area: the warning, and the old interface's error when it is on
/// the main line.
struct Issue {
    warning: Warning,
    main_error: Option<XqfError>,
}

impl Issue {
    fn new(place: Place, kind: WarningKind, main: Option<XqfErrorKind>) -> Issue {
        let offset = place.offset.unwrap_or(0);
        Issue {
            warning: Warning { place, kind },
            main_error: main.map(|kind| XqfError { offset, kind }),
        }
    }
}

struct Parsed {
    version: u8,
    record: Record,
    issues: Vec<Issue>,
}

/// One decoded move record.
struct Rec {
    offset: usize,
    from: u8,
    to: u8,
    next: bool,
    variation: bool,
    comment: String,
}

/// Reads the move records from decrypted bytes.
struct Records<'a> {
    data: &'a [u8],
    at: usize,
    base: usize,
    keys: Keys,
}

impl Records<'_> {
    /// The next record, or the offset where the data ran out.
    fn next(&mut self) -> Result<Rec, usize> {
        let offset = self.base + self.at;
        let rec = self.data.get(self.at..self.at + 4).ok_or(offset)?;
        let (from, to, flag) = (rec[0], rec[1], rec[2]);
        self.at += 4;
        let (next, variation, has_comment) = if self.keys.encrypted {
            (flag & 0x80 != 0, flag & 0x40 != 0, flag & 0x20 != 0)
        } else {
            (flag & 0xF0 != 0, flag & 0x0F != 0, true)
        };
        let mut comment = String::new();
        if has_comment {
            let len = self
                .data
                .get(self.at..self.at + 4)
                .ok_or(self.base + self.at)?;
            let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]])
                .wrapping_sub(self.keys.comment_size) as usize;
            self.at += 4;
            let text = self
                .at
                .checked_add(len)
                .and_then(|end| self.data.get(self.at..end))
                .ok_or(self.base + self.at)?;
            comment = text::decode_gb(text).trim().to_string();
            self.at += len;
        }
        Ok(Rec {
            offset,
            from: from.wrapping_sub(0x18).wrapping_sub(self.keys.xyf),
            to: to.wrapping_sub(0x20).wrapping_sub(self.keys.xyt),
            next,
            variation,
            comment,
        })
    }
}

/// Where the next record goes: under `parent` (`None` inside a dropped subtree), at `pos`.
#[derive(Clone)]
struct Slot {
    parent: Option<NodeId>,
    pos: Position,
    main: bool,
}

fn parse(bytes: &[u8]) -> Result<Parsed, XqfError> {
    let err = |offset: usize, kind: XqfErrorKind| XqfError { offset, kind };
    if bytes.len() < 2 || &bytes[..2] != b"XQ" {
        return Err(err(0, XqfErrorKind::BadMagic));
    }
    if bytes.len() < HEADER_SIZE {
        return Err(err(bytes.len(), XqfErrorKind::TooShort));
    }
    let header = &bytes[..HEADER_SIZE];
    let version = header[2];
    let keys = keys(header);

    // Pieces.
    let mut slots = [0u8; 32];
    for (i, &raw) in header[0x10..0x30].iter().enumerate() {
        let target = if version >= 12 {
            (i + 1 + usize::from(keys.xy)) % 32
        } else {
            i
        };
        slots[target] = raw.wrapping_sub(keys.xy);
    }
    let mut setup = Setup::empty();
    for (i, &b) in slots.iter().enumerate() {
        if let Some(square) = square_of(b) {
            let color = if i < 16 { Color::Red } else { Color::Black };
            setup = setup.put(square, Piece::new(color, SLOT_ROLES[i % 16]));
        }
    }

    // Some writers record where the moves start; only a plausible value is used.
    let pointer = u32::from_le_bytes([header[0x38], header[0x39], header[0x3A], header[0x3B]]);
    let area_start = match usize::try_from(pointer) {
        Ok(p) if p > HEADER_SIZE && p < bytes.len() => p,
        _ => HEADER_SIZE,
    };
    let area = bytes.get(area_start..).unwrap_or(&[]);
    let decrypted: Vec<u8> = area
        .iter()
        .enumerate()
        .map(|(i, &b)| b.wrapping_sub(keys.stream[(area_start + i) % 32]))
        .collect();
    let mut records = Records {
        data: &decrypted,
        at: 0,
        base: area_start,
        keys,
    };
    let mut issues = Vec::new();
    let root = if decrypted.is_empty() {
        None
    } else {
        match records.next() {
            Ok(r) => Some(r),
            Err(at) => {
                issues.push(Issue::new(
                    Place::offset(0, at),
                    WarningKind::Truncated("first record"),
                    None,
                ));
                None
            }
        }
    };

    // The side to move: the colour of the piece that makes the first move; without a move,
    // the header's "who plays" byte (1 black, anything else red).
    let mut side = if header[0x32] == 1 {
        Color::Black
    } else {
        Color::Red
    };
    if root.as_ref().is_some_and(|r| r.next) {
        let mut peek = Records {
            data: &decrypted,
            at: records.at,
            base: area_start,
            keys,
        };
        if let Ok(first) = peek.next() {
            if let Some(p) = square_of(first.from).and_then(|sq| setup.board[sq.index()]) {
                side = p.color;
            }
        }
    }
    let setup = setup.side_to_move(side);
    let start = Position::from_setup(&setup, Problems::all().difference(Problems::FATAL))
        .map_err(|e| err(0x10, XqfErrorKind::BadPosition(e)))?;
    let mut tree = GameTree::new(start.clone());
    let Some(root) = root else {
        return Ok(Parsed {
            version,
            record: header_record(header, tree),
            issues,
        });
    };
    tree.node_mut(tree.root()).comment = root.comment;
    let mut pending: Vec<Slot> = Vec::new();
    let mut slot = root.next.then(|| Slot {
        parent: Some(tree.root()),
        pos: start,
        main: true,
    });
    while let Some(here) = slot.take() {
        let rec = match records.next() {
            Ok(r) => r,
            Err(at) => {
                let main = here.main.then_some(XqfErrorKind::Truncated);
                let place = Place::offset(0, at);
                issues.push(Issue::new(
                    place,
                    WarningKind::Truncated("move record"),
                    main,
                ));
                break;
            }
        };
        if rec.variation {
            pending.push(Slot {
                main: false,
                ..here.clone()
            });
        }
        let mut child = None;
        if let Some(parent) = here.parent {
            let ply = tree.ply_of(parent) + 1;
            let place_kind = match (square_of(rec.from), square_of(rec.to)) {
                (Some(f), Some(t)) => match Move::try_new(f, t) {
                    Some(m) if here.pos.is_legal(m) => Ok(m),
                    Some(m) => Err((
                        WarningKind::BadMove {
                            text: m.to_string(),
                            error: xiangqi_core::NotationError::NoSuchMove {
                                text: m.to_string(),
                            },
                        },
                        XqfErrorKind::IllegalMove(m),
                    )),
                    None => Err((
                        WarningKind::BadSquare(rec.to),
                        XqfErrorKind::BadSquare(rec.to),
                    )),
                },
                (f, _) => {
                    let bad = if f.is_none() { rec.from } else { rec.to };
                    Err((WarningKind::BadSquare(bad), XqfErrorKind::BadSquare(bad)))
                }
            };
            match place_kind {
                Ok(m) => {
                    let n = tree.push_unchecked(parent, m);
                    tree.node_mut(n).comment = rec.comment;
                    let mut pos = here.pos.clone();
                    pos.make_move(m);
                    child = Some((n, pos));
                }
                Err((kind, old)) => {
                    let main = here.main.then_some(old);
                    let place = Place::offset(0, rec.offset).at_ply(ply);
                    issues.push(Issue::new(place, kind, main));
                }
            }
        }
        slot = if rec.next {
            Some(match child {
                Some((n, pos)) => Slot {
                    parent: Some(n),
                    pos,
                    main: here.main,
                },
                // The children of a dropped record are read and dropped too.
                None => Slot {
                    parent: None,
                    pos: here.pos,
                    main: false,
                },
            })
        } else {
            pending.pop()
        };
    }
    Ok(Parsed {
        version,
        record: header_record(header, tree),
        issues,
    })
}

/// The record with the header's tags and result.
fn header_record(header: &[u8], tree: GameTree) -> Record {
    let mut record = Record::new(tree);
    for (name, offset, size) in HEADER_TAGS {
        let value = header_string(header, offset, size);
        if !value.is_empty() {
            record.set_tag(name, &value);
        }
    }
    record.result = match header[0x33] {
        1 => PgnResult::RedWins,
        2 => PgnResult::BlackWins,
        3 | 4 => PgnResult::Draw,
        _ => PgnResult::Unknown,
    };
    record
}
