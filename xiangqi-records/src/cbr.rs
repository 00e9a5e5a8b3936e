//! 象棋桥 (CCBridge) binary records, read: CBR (one game) and CBL (a library of games).
//!
//! Layout (from the format notes in walker8088/cchess `doc/象棋桥文件格式.docx` and its
//! reader `read_cbr.py`; all strings UTF-16LE, NUL-padded):
//!
//! * CBR: `CCBridge Record\0` at 0; title at 180 (128 bytes), event 692 (64), round 756,
//!   date 884, site 948, red 1076, red team 1140, black 1300, black team 1364, commentator
//!   1652, creator 1780 (64 each); the result at 2076 (0 unknown, 1 red won, 2 black won,
//!   3 draw, 4 several results); the side to move at 2112 (1 red, 2 black); the board at
//!   2120, 90 bytes, point `row * 9 + file` from the top-left (black's side), `0x11`–`0x17`
//!   red chariot, horse, elephant, advisor, king, cannon, pawn, `0x21`–`0x27` black; at 2214
//!   a 32-bit opening-comment flag, and if it is non-zero the comment's byte length and
//!   text. Then the moves, depth first as in XQF: four bytes each (flags, 0, from, to; a
//!   point is `row * 9 + file`), flags `1` = the line ends here, `2` = an alternative to
//!   this move follows after its subtree, `4` = a comment follows (length, text); four zero
//!   bytes or the end of the record end the moves.
//! * CBL: `CCBridgeLibrary\0` at 0, the number of games at 60, the library name at 64
//!   (512 bytes); the games are CBR records in 4096-byte slots from the first
//!   `CCBridge Record` at or after 101952 (up to 128 games), 137280 (256), 151080 (384),
//!   207936 (512) or 349248 (more).

use crate::pgn::PgnResult;
use crate::record::{Format, Loaded, ReadError, Record};
use crate::tree::{GameTree, NodeId};
use crate::warning::{Place, Warning, WarningKind};
use encoding_rs::UTF_16LE;
use xiangqi_core::{Color, File, Move, Piece, Position, Problems, Rank, Role, Setup, Square};

const RECORD_MAGIC: &[u8] = b"CCBridge Record\0";
const LIBRARY_MAGIC: &[u8] = b"CCBridgeLibrary\0";
/// Where the moves start in a CBR record.
const MOVES: usize = 2214;
/// The size of a game's slot in a CBL library.
const SLOT: usize = 4096;

/// Header strings: tag, offset, size.
const TAGS: [(&str, usize, usize); 11] = [
    ("Title", 180, 128),
    ("Event", 692, 64),
    ("Round", 756, 64),
    ("Date", 884, 64),
    ("Site", 948, 64),
    ("Red", 1076, 64),
    ("RedTeam", 1140, 64),
    ("Black", 1300, 64),
    ("BlackTeam", 1364, 64),
    ("Annotator", 1652, 64),
    ("Creator", 1780, 64),
];

/// Whether `bytes` is a CBR record or a CBL library.
pub(crate) fn signature(bytes: &[u8]) -> Option<Format> {
    if bytes.starts_with(RECORD_MAGIC) {
        Some(Format::Cbr)
    } else if bytes.starts_with(LIBRARY_MAGIC) {
        Some(Format::Cbl)
    } else {
        None
    }
}

/// UTF-16LE text up to the first NUL character.
fn utf16(bytes: &[u8]) -> String {
    let end = bytes
        .chunks(2)
        .position(|c| c.len() < 2 || (c[0] == 0 && c[1] == 0))
        .map_or(bytes.len(), |i| i * 2);
    UTF_16LE
        .decode_without_bom_handling(&bytes[..end])
        .0
        .trim()
        .to_string()
}

fn point(p: u8) -> Option<Square> {
    if p >= 90 {
        return None;
    }
    Some(Square::from_coords(
        File::new(p % 9)?,
        Rank::new(9 - p / 9)?,
    ))
}

fn piece(code: u8) -> Option<Piece> {
    let color = match code >> 4 {
        1 => Color::Red,
        2 => Color::Black,
        _ => return None,
    };
    let role = match code & 0x0F {
        1 => Role::Chariot,
        2 => Role::Horse,
        3 => Role::Elephant,
        4 => Role::Advisor,
        5 => Role::King,
        6 => Role::Cannon,
        7 => Role::Pawn,
        _ => return None,
    };
    Some(Piece::new(color, role))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    b.get(at..at + 4)
        .map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
}

/// Reads one CBR record from `data` (a file, or a library's slot starting at `base`).
fn read_record(
    data: &[u8],
    base: usize,
    game: usize,
    warnings: &mut Vec<Warning>,
) -> Result<Record, Warning> {
    let warn = |offset: usize, kind: WarningKind| Warning {
        place: Place::offset(game, base + offset),
        kind,
    };
    if data.len() < MOVES + 4 {
        return Err(warn(data.len(), WarningKind::Truncated("CBR header")));
    }
    let mut setup = Setup::empty();
    for (i, &code) in data[2120..2210].iter().enumerate() {
        if let (Some(p), Some(sq)) = (piece(code), point(i as u8)) {
            setup = setup.put(sq, p);
        }
    }
    // The side to move: the colour of the first move's piece (the notes and cchess
    // disagree on where the header says it), else the byte at 2112.
    let mut side = if data[2112] == 2 {
        Color::Black
    } else {
        Color::Red
    };
    let comment_len = match u32_at(data, MOVES) {
        Some(0) | None => 0,
        Some(_) => 4 + u32_at(data, MOVES + 4).unwrap_or(0) as usize,
    };
    if let Some(first) = data.get(MOVES + 4 + comment_len + 2) {
        if let Some(p) = point(*first).and_then(|sq| setup.board[sq.index()]) {
            side = p.color;
        }
    }
    let start = Position::from_setup(
        &setup.side_to_move(side),
        Problems::all().difference(Problems::FATAL),
    )
    .map_err(|e| warn(2120, WarningKind::BadField(format!("board: {e}"))))?;
    let mut record = Record::new(GameTree::new(start.clone()));
    for (name, offset, size) in TAGS {
        let v = utf16(&data[offset..offset + size]);
        if !v.is_empty() {
            record.set_tag(name, &v);
        }
    }
    record.result = match data[2076] {
        1 => PgnResult::RedWins,
        2 => PgnResult::BlackWins,
        3 => PgnResult::Draw,
        _ => PgnResult::Unknown,
    };
    let mut at = MOVES;
    let comment = |at: &mut usize, warnings: &mut Vec<Warning>| -> Option<String> {
        let len = u32_at(data, *at)? as usize;
        *at += 4;
        match at.checked_add(len).and_then(|end| data.get(*at..end)) {
            Some(b) => {
                *at += len;
                Some(utf16(b))
            }
            None => {
                warnings.push(warn(*at, WarningKind::Truncated("comment")));
                *at = data.len();
                None
            }
        }
    };
    if u32_at(data, at).unwrap_or(0) != 0 {
        at += 4;
        if let Some(c) = comment(&mut at, warnings) {
            let root = record.tree.root();
            record.tree.node_mut(root).comment = c;
        }
    } else {
        at += 4;
    }
    // Depth first: (parent, position there) for the next record; alternatives pending.
    let root = record.tree.root();
    let mut slot: Option<(Option<NodeId>, Position)> = Some((Some(root), start));
    let mut pending: Vec<(Option<NodeId>, Position)> = Vec::new();
    while let Some((parent, pos)) = slot.take() {
        let Some(rec) = data.get(at..at + 4) else {
            break;
        };
        if rec == [0, 0, 0, 0] {
            break;
        }
        let (flags, from, to) = (rec[0], rec[2], rec[3]);
        let offset = at;
        at += 4;
        let text = if flags & 4 != 0 {
            comment(&mut at, warnings).unwrap_or_default()
        } else {
            String::new()
        };
        if flags & 2 != 0 {
            pending.push((parent, pos.clone()));
        }
        let mut next = None;
        if let Some(p) = parent {
            let m = match (point(from), point(to)) {
                (Some(f), Some(t)) => Move::try_new(f, t),
                _ => None,
            };
            match m.filter(|&m| pos.is_legal(m)) {
                Some(m) => {
                    let n = record.tree.push_unchecked(p, m);
                    record.tree.node_mut(n).comment = text;
                    let mut after = pos.clone();
                    after.make_move(m);
                    next = Some((Some(n), after));
                }
                None => {
                    let ply = record.tree.ply_of(p) + 1;
                    let kind = match m {
                        Some(m) => WarningKind::BadMove {
                            text: m.to_string(),
                            error: xiangqi_core::NotationError::NoSuchMove {
                                text: m.to_string(),
                            },
                        },
                        None => {
                            WarningKind::BadSquare(if point(from).is_none() { from } else { to })
                        }
                    };
                    warnings.push(Warning {
                        place: Place::offset(game, base + offset).at_ply(ply),
                        kind,
                    });
                }
            }
        }
        slot = if flags & 1 == 0 {
            // The continuation; that of a dropped move is read and dropped too.
            Some(next.unwrap_or((None, pos)))
        } else {
            pending.pop()
        };
    }
    Ok(record)
}

/// Reads a CBR game or a CBL library.
///
/// # Errors
/// A [`ReadError`] when the data has neither signature or no game can be read.
pub fn load(bytes: &[u8]) -> Result<Loaded, ReadError> {
    let format = signature(bytes).ok_or(ReadError {
        format: Format::Cbr,
        warning: Warning {
            place: Place::offset(0, 0),
            kind: WarningKind::NotThisFormat("no CCBridge signature"),
        },
    })?;
    let mut warnings = Vec::new();
    let mut records = Vec::new();
    let mut games = Vec::new();
    if format == Format::Cbr {
        let r = read_record(bytes, 0, 0, &mut warnings)
            .map_err(|warning| ReadError { format, warning })?;
        records.push(r);
        games.push(0);
    } else {
        let count = u32_at(bytes, 60).unwrap_or(0) as usize;
        let from = match count {
            0..=128 => 101_952,
            129..=256 => 137_280,
            257..=384 => 151_080,
            385..=512 => 207_936,
            _ => 349_248,
        };
        let first = bytes
            .get(from..)
            .and_then(|b| {
                b.windows(RECORD_MAGIC.len())
                    .position(|w| w == RECORD_MAGIC)
            })
            .map(|i| from + i);
        let mut at = first.unwrap_or(bytes.len());
        let mut game = 0;
        while at < bytes.len() {
            let slot = &bytes[at..bytes.len().min(at + SLOT)];
            if slot.starts_with(RECORD_MAGIC) {
                match read_record(slot, at, game, &mut warnings) {
                    Ok(r) => {
                        records.push(r);
                        games.push(game);
                    }
                    Err(w) => warnings.push(w),
                }
                game += 1;
            }
            at += SLOT;
        }
        if records.len() != count {
            warnings.push(Warning {
                place: Place::offset(game, 60),
                kind: WarningKind::BadField(format!(
                    "the library says {count} games, {} read",
                    records.len()
                )),
            });
        }
    }
    if records.is_empty() {
        return Err(ReadError {
            format,
            warning: warnings.into_iter().next().unwrap_or(Warning {
                place: Place::default(),
                kind: WarningKind::NoGame,
            }),
        });
    }
    Ok(Loaded {
        format,
        encoding: "UTF-16LE",
        records,
        games,
        warnings,
    })
}
