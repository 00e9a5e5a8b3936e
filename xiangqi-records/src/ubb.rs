//! DhtmlXQ / UBB, the record format of most Chinese xiangqi web sites: a
//! `[DhtmlXQ]...[/DhtmlXQ]` block of `[DhtmlXQ_key]value[/DhtmlXQ_key]` fields.
//!
//! * `binit`: the 32 pieces as two digits each, `x y` (file from red's left, 0–8; row from
//!   the top, 0–9), red then black in the order R N B A K A B N R C C P P P P P, `99` for a
//!   piece not on the board; absent for the initial position. The format has no field for
//!   the side to move: the first move's piece says it, and a record without a move is read
//!   as red to move.
//! * `movelist`: the main line, four digits a move (`x1 y1 x2 y2`; `7747` is h2e2).
//! * `move_P_S_B`: line `B`, branching from line `P` (0 = the main line) with its first
//!   move at ply `S` (1-based): an alternative to line `P`'s move `S`.
//! * `comment N` / `comment B_N`: the comment after ply `N` of the main line / of line `B`
//!   (`comment0` before the first move); `||` is read as a line break (written as one).
//! * `title`, `event`, `date`, `place`, `round`, `red`, `black`, `redteam`, `blackteam`,
//!   `result` (红胜, 黑胜, 和棋, 未知), `remark`, `author`, `open`, `ecco`: the tags
//!   `Title`, `Event`, `Date`, `Site`, `Round`, `Red`, `Black`, `RedTeam`, `BlackTeam`,
//!   `Remark`, `Author`, `Opening`, `ECCO`; other non-empty fields are kept as tags named
//!   `DhtmlXQ_key` and written back so.
//!
//! The layout is as the sample in `tests/data/dhtmlxq_ubb_variations.txt` shows it, checked
//! move by move against its comments ("end of variation 1" on line 1's eighth ply).

use crate::pgn::PgnResult;
use crate::record::{Format, Loaded, ReadError, Record};
use crate::text;
use crate::tree::{GameTree, NodeId};
use crate::warning::{Place, Warning, WarningKind};
use std::collections::{BTreeMap, VecDeque};
use xiangqi_core::{Color, File, Move, Piece, Position, Problems, Rank, Setup, Square};

/// Field names and the tags they become.
const TAGS: [(&str, &str); 13] = [
    ("title", "Title"),
    ("event", "Event"),
    ("date", "Date"),
    ("place", "Site"),
    ("round", "Round"),
    ("red", "Red"),
    ("black", "Black"),
    ("redteam", "RedTeam"),
    ("blackteam", "BlackTeam"),
    ("remark", "Remark"),
    ("author", "Author"),
    ("open", "Opening"),
    ("ecco", "ECCO"),
];

/// Fields that carry no game data (display settings of the web viewer).
const IGNORED: [&str; 3] = ["ver", "init", "firstnum"];

/// The 32 pieces of `binit` are in XQF's slot order.
use crate::xqf::SLOT_ROLES as ROLES;

/// The 1-based line and column of byte `offset` in `text` (an offset inside a character
/// counts as that character's start).
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

fn square(x: u8, y: u8) -> Option<Square> {
    Some(Square::from_coords(
        File::new(x)?,
        Rank::new(9u8.checked_sub(y)?)?,
    ))
}

fn digits(s: &str) -> Option<Vec<u8>> {
    s.bytes()
        .map(|b| b.is_ascii_digit().then(|| b - b'0'))
        .collect()
}

/// One `[DhtmlXQ]` block's fields, with the byte offset of each value.
struct Block<'a> {
    fields: Vec<(String, &'a str, usize)>,
}

/// Splits `text` into blocks and their fields, warning about what does not parse.
fn blocks<'a>(text: &'a str, warnings: &mut Vec<(usize, WarningKind)>) -> Vec<Block<'a>> {
    const OPEN: &str = "[DhtmlXQ_";
    let mut out = Vec::new();
    let mut fields = Vec::new();
    let mut at = 0;
    let mut in_block = false;
    while let Some(i) = text[at..].find('[') {
        let start = at + i;
        let rest = &text[start..];
        if rest.starts_with("[DhtmlXQ]") {
            if in_block && !fields.is_empty() {
                out.push(Block {
                    fields: core::mem::take(&mut fields),
                });
            }
            in_block = true;
            at = start + "[DhtmlXQ]".len();
        } else if rest.starts_with("[/DhtmlXQ]") {
            out.push(Block {
                fields: core::mem::take(&mut fields),
            });
            in_block = false;
            at = start + "[/DhtmlXQ]".len();
        } else if let Some(after) = rest.strip_prefix(OPEN) {
            let Some(close) = after.find(']') else {
                warnings.push((start, WarningKind::Unterminated('[')));
                break;
            };
            let key = after[..close].to_string();
            // A field's name is letters, digits and `_` (`DhtmlXQ_movelist`, `comment12`):
            // an opening without one is damage or text that quotes the format, not a field
            // (found by fuzzing, whose such a "name" ran over lines of comments and became a
            // tag that broke the PGN written of it). Skipped; the scan goes on after its `[`.
            if !is_field_name(&key) {
                let shown: String = key.chars().take(40).collect();
                warnings.push((start, WarningKind::BadField(format!("[DhtmlXQ_{shown}"))));
                at = start + 1;
                continue;
            }
            let value_start = start + OPEN.len() + close + 1;
            let Some(end) = text[value_start..].find("[/DhtmlXQ") else {
                warnings.push((start, WarningKind::Unterminated('[')));
                break;
            };
            let value = &text[value_start..value_start + end];
            let tail = &text[value_start + end..];
            let close_len = tail.find(']').map_or(tail.len(), |j| j + 1);
            let closing = &tail[..close_len];
            if closing != format!("[/DhtmlXQ_{key}]") {
                warnings.push((
                    value_start + end,
                    WarningKind::MismatchedClose(format!("{closing} closes [DhtmlXQ_{key}]")),
                ));
            }
            fields.push((key, value, value_start));
            at = value_start + end + close_len;
        } else {
            at = start + 1;
        }
    }
    if !fields.is_empty() {
        out.push(Block { fields });
    }
    out
}

/// The start position from `binit` (red's pieces, then black's).
fn position_from_binit(binit: &str) -> Option<Position> {
    let d = digits(binit)?;
    if d.len() != 64 {
        return None;
    }
    let mut setup = Setup::empty();
    for (i, pair) in d.chunks(2).enumerate() {
        if let Some(sq) = square(pair[0], pair[1]) {
            let color = if i < 16 { Color::Red } else { Color::Black };
            setup = setup.put(sq, Piece::new(color, ROLES[i % 16]));
        }
    }
    Position::from_setup(&setup, Problems::all().difference(Problems::FATAL)).ok()
}

/// Moves of a move string (four digits each).
fn parse_moves(s: &str) -> Option<Vec<(Option<Square>, Option<Square>)>> {
    let d = digits(s.trim())?;
    if d.len() % 4 != 0 {
        return None;
    }
    Some(
        d.chunks(4)
            .map(|c| (square(c[0], c[1]), square(c[2], c[3])))
            .collect(),
    )
}

fn result_of(value: &str) -> PgnResult {
    let v = value.trim();
    if let Some(r) = PgnResult::from_token(v) {
        return r;
    }
    if v.contains("红胜") || v.contains("紅勝") || v.contains("先胜") || v.contains("黑负")
    {
        PgnResult::RedWins
    } else if v.contains("黑胜") || v.contains("黑勝") || v.contains("先负") || v.contains("红负")
    {
        PgnResult::BlackWins
    } else if v.contains('和') {
        PgnResult::Draw
    } else {
        PgnResult::Unknown
    }
}

/// A line of the tree: the node at each ply from the start (inherited from its parent
/// line before its first move), and that first ply.
struct Line {
    nodes: Vec<NodeId>,
    first: usize,
}

/// Reads every `[DhtmlXQ]` block of a file.
///
/// # Errors
/// A [`ReadError`] when there is no block or field at all.
pub fn load(bytes: &[u8]) -> Result<Loaded, ReadError> {
    let (text, encoding, bad) = text::decode_checked(bytes);
    let mut raw = Vec::new();
    let blocks = blocks(&text, &mut raw);
    let mut warnings: Vec<Warning> = Vec::new();
    if bad {
        warnings.push(Warning {
            place: Place::default(),
            kind: WarningKind::BadEncoding,
        });
    }
    let place = |game: usize, offset: usize| {
        let (l, c) = line_col(&text, offset);
        Place::text(game, l, c)
    };
    for (offset, kind) in raw {
        warnings.push(Warning {
            place: place(0, offset),
            kind,
        });
    }
    let mut records = Vec::new();
    for (game, block) in blocks.iter().enumerate() {
        let mut w = Vec::new();
        records.push(read_block(block, &mut w));
        warnings.extend(w.into_iter().map(
            |(offset, kind, ply): (usize, WarningKind, Option<usize>)| {
                let p = place(game, offset);
                Warning {
                    place: ply.map_or(p, |n| p.at_ply(n)),
                    kind,
                }
            },
        ));
    }
    if records.is_empty() {
        return Err(ReadError {
            format: Format::Ubb,
            warning: Warning {
                place: Place::default(),
                kind: WarningKind::NoGame,
            },
        });
    }
    Ok(Loaded {
        format: Format::Ubb,
        encoding: encoding.name(),
        games: (0..records.len()).collect(),
        records,
        warnings,
    })
}

type Issues = Vec<(usize, WarningKind, Option<usize>)>;

fn read_block(block: &Block<'_>, warnings: &mut Issues) -> Record {
    let get = |key: &str| block.fields.iter().find(|(k, _, _)| k == key);
    let mut start = Position::startpos();
    if let Some((_, binit, offset)) = get("binit").filter(|(_, v, _)| !v.trim().is_empty()) {
        match position_from_binit(binit.trim()) {
            Some(p) => start = p,
            None => warnings.push((
                *offset,
                WarningKind::BadField(format!("binit {binit:?}")),
                None,
            )),
        }
    }
    // The side to move: that of the piece making the first move.
    if let Some((_, list, _)) = get("movelist") {
        if let Some(Some((Some(from), _))) = parse_moves(list).map(|m| m.first().copied()) {
            if let Some(p) = start.piece_at(from) {
                if p.color != start.side_to_move() {
                    let setup = start.to_setup().side_to_move(p.color);
                    if let Ok(flipped) =
                        Position::from_setup(&setup, Problems::all().difference(Problems::FATAL))
                    {
                        start = flipped;
                    }
                }
            }
        }
    }
    let mut record = Record::new(GameTree::new(start));
    let mut lines: BTreeMap<u32, Line> = BTreeMap::new();
    let root = record.tree.root();
    let main_moves = get("movelist").map_or("", |(_, v, _)| *v);
    let main_offset = get("movelist").map_or(0, |(_, _, o)| *o);
    let main = play_line(
        &mut record.tree,
        vec![root],
        main_moves,
        main_offset,
        warnings,
    );
    lines.insert(
        0,
        Line {
            nodes: main,
            first: 1,
        },
    );
    // Branches, parents before children (a branch may name a parent with a higher number).
    let mut branches: Vec<(u32, u32, usize, &str, usize)> = Vec::new();
    for (key, value, offset) in &block.fields {
        if let Some(spec) = key.strip_prefix("move_") {
            let nums: Vec<Option<u32>> = spec.split('_').map(|n| n.parse().ok()).collect();
            match nums.as_slice() {
                [Some(p), Some(s), Some(b)] if *s >= 1 => {
                    branches.push((*b, *p, *s as usize, value, *offset));
                }
                _ => warnings.push((*offset, WarningKind::BadField(format!("move_{spec}")), None)),
            }
        }
    }
    branches.sort_by_key(|b| b.0);
    loop {
        let before = branches.len();
        branches.retain(|&(b, p, s, moves, offset)| {
            let Some(parent) = lines.get(&p) else {
                return true;
            };
            if s > parent.nodes.len() {
                warnings.push((
                    offset,
                    WarningKind::BadField(format!(
                        "move_{p}_{s}_{b} branches past the end of line {p}"
                    )),
                    None,
                ));
                return false;
            }
            let inherited = parent.nodes[..s].to_vec();
            let nodes = play_line(&mut record.tree, inherited, moves, offset, warnings);
            lines.insert(b, Line { nodes, first: s });
            false
        });
        if branches.is_empty() || branches.len() == before {
            break;
        }
    }
    for &(b, p, s, _, offset) in &branches {
        warnings.push((
            offset,
            WarningKind::BadField(format!("move_{p}_{s}_{b}: no line {p}")),
            None,
        ));
    }
    for (key, value, offset) in &block.fields {
        let key = key.as_str();
        if let Some(spec) = key.strip_prefix("comment") {
            comment(&mut record.tree, &lines, spec, value, *offset, warnings);
        } else if key == "result" {
            record.result = result_of(value);
        } else if let Some((_, tag)) = TAGS.iter().find(|(k, _)| *k == key) {
            if !value.trim().is_empty() {
                record.set_tag(tag, value.trim());
            }
        } else if key != "binit"
            && key != "movelist"
            && !key.starts_with("move_")
            && !IGNORED.contains(&key)
            && !value.trim().is_empty()
        {
            record.set_tag(&format!("DhtmlXQ_{key}"), value.trim());
        }
    }
    record
}

/// Attaches `comment N` / `comment B_N`.
fn comment(
    tree: &mut GameTree,
    lines: &BTreeMap<u32, Line>,
    spec: &str,
    value: &str,
    offset: usize,
    warnings: &mut Issues,
) {
    let nums: Vec<Option<usize>> = spec.split('_').map(|n| n.parse().ok()).collect();
    let (line, ply) = match nums.as_slice() {
        [Some(n)] => (0, *n),
        [Some(b), Some(n)] => (*b as u32, *n),
        _ => {
            warnings.push((
                offset,
                WarningKind::BadField(format!("comment{spec}")),
                None,
            ));
            return;
        }
    };
    let text = value.replace("||", "\n").trim().to_string();
    if text.is_empty() {
        return;
    }
    let Some(l) = lines.get(&line) else {
        warnings.push((
            offset,
            WarningKind::BadField(format!("comment{spec}: no line {line}")),
            None,
        ));
        return;
    };
    if ply + 1 == l.first && line != 0 {
        // Before the line's first move.
        if let Some(&head) = l.nodes.get(l.first) {
            tree.node_mut(head).starting_comment = text;
            return;
        }
    }
    match l.nodes.get(ply) {
        Some(&n) if ply >= l.first || line == 0 => tree.node_mut(n).comment = text,
        _ => warnings.push((
            offset,
            WarningKind::BadField(format!("comment{spec}: no ply {ply}")),
            Some(ply),
        )),
    }
}

/// Plays a move string after `nodes` (the line so far, from the root); returns the line.
/// A bad move stops the line with a warning.
fn play_line(
    tree: &mut GameTree,
    mut nodes: Vec<NodeId>,
    moves: &str,
    offset: usize,
    warnings: &mut Issues,
) -> Vec<NodeId> {
    let Some(list) = parse_moves(moves) else {
        if !moves.trim().is_empty() {
            warnings.push((
                offset,
                WarningKind::BadField(format!("move list {moves:?}")),
                None,
            ));
        }
        return nodes;
    };
    let Some(&last) = nodes.last() else {
        return nodes;
    };
    // `parse_moves` reads the value trimmed (of any white space, U+3000 too): the moves'
    // places and texts are counted from the first digit.
    let offset = offset + (moves.len() - moves.trim_start().len());
    let moves = moves.trim();
    let mut pos = tree.position_at(last);
    for (k, (from, to)) in list.into_iter().enumerate() {
        let ply = nodes.len();
        let at = offset + 4 * k;
        let m = match (from, to) {
            (Some(f), Some(t)) => Move::try_new(f, t),
            _ => None,
        };
        let Some(m) = m.filter(|&m| pos.is_legal(m)) else {
            let text = moves.get(4 * k..4 * k + 4).unwrap_or("").to_string();
            let error = xiangqi_core::NotationError::NoSuchMove { text: text.clone() };
            warnings.push((at, WarningKind::BadMove { text, error }, Some(ply)));
            break;
        };
        let parent = *nodes.last().unwrap_or(&last);
        let n = tree.push_unchecked(parent, m);
        pos.make_move(m);
        nodes.push(n);
    }
    nodes
}

/// The two digits of a point.
fn xy(sq: Square) -> String {
    format!("{}{}", sq.file().index(), 9 - sq.rank().index())
}

fn move_digits(m: Move) -> String {
    format!("{}{}", xy(m.from()), xy(m.to()))
}

/// A value as written: line breaks stay line breaks (`||`, which readers also take for
/// one, could not be told from a `||` in the text). The format has no escape, so a value that
/// quotes its markers (`[DhtmlXQ_...]`, `[/DhtmlXQ...]`) would end its field or open another
/// (found by fuzzing): their `[` is written as the full-width `［`, which reads the same to a
/// person and is no marker.
fn escape(text: &str) -> String {
    text.replace("[DhtmlXQ", "［DhtmlXQ")
        .replace("[/DhtmlXQ", "［/DhtmlXQ")
}

/// Whether `key` can be a field's name as the reader reads one: letters, digits and `_`.
fn is_field_name(key: &str) -> bool {
    !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Writes a record as a `[DhtmlXQ]` block (UTF-8 text). NAGs are not written; a comment
/// before a move that does not start a side line is joined to the comment before it.
pub fn write(record: &Record) -> String {
    let tree = &record.tree;
    let mut out = String::from("[DhtmlXQ]\n");
    let mut field = |key: &str, value: &str| {
        let value = escape(value);
        out.push_str(&format!("[DhtmlXQ_{key}]{value}[/DhtmlXQ_{key}]\n"));
    };
    for (key, tag) in TAGS {
        if let Some(v) = record.tag(tag) {
            field(key, v);
        }
    }
    for (name, value) in &record.tags {
        // A tag kept from a DhtmlXQ field goes back to it; one whose name no field could
        // have (a record built in code) is left out rather than break the block.
        if let Some(key) = name.strip_prefix("DhtmlXQ_").filter(|k| is_field_name(k)) {
            field(key, value);
        }
    }
    field(
        "result",
        match record.result {
            PgnResult::RedWins => "红胜",
            PgnResult::BlackWins => "黑胜",
            PgnResult::Draw => "和棋",
            PgnResult::Unknown => "未知",
        },
    );
    let start = tree.start();
    if start != &Position::startpos() {
        let mut slots: Vec<String> = vec!["99".to_string(); 32];
        for (sq, p) in start.all_pieces() {
            let base = if p.color == Color::Red { 0 } else { 16 };
            if let Some(i) = (0..16).find(|&i| ROLES[i] == p.role && slots[base + i] == "99") {
                slots[base + i] = xy(sq);
            }
        }
        field("binit", &slots.concat());
    }
    // Lines: the main line is 0; each side child starts a new line, numbered in the
    // order they are met, breadth first (a line's parent always has a lower number).
    let mut comments: Vec<(String, String)> = Vec::new();
    let mut next_line = 1u32;
    // (line, parent line, head node, ply of the head)
    let mut todo: VecDeque<(u32, u32, NodeId, usize)> = VecDeque::new();
    todo.push_back((0, 0, tree.root(), 0));
    while let Some((line, parent_line, head, first_ply)) = todo.pop_front() {
        let key = |ply: usize| {
            if line == 0 {
                format!("comment{ply}")
            } else {
                format!("comment{line}_{ply}")
            }
        };
        let head_node = tree.node(head);
        if line != 0 && !head_node.starting_comment.is_empty() {
            comments.push((key(first_ply - 1), head_node.starting_comment.clone()));
        }
        let mut moves = String::new();
        let mut nodes = vec![head];
        nodes.extend(tree.line_from(head));
        for (k, n) in nodes.into_iter().enumerate() {
            let ply = first_ply + k;
            let node = tree.node(n);
            if let Some(m) = node.mv() {
                moves.push_str(&move_digits(m));
            }
            let mut text = node.comment.clone();
            if let Some(next) = node.main_child() {
                let before = &tree.node(next).starting_comment;
                if !before.is_empty() {
                    crate::pgn::append_comment(&mut text, before);
                }
            }
            if !text.is_empty() {
                comments.push((key(ply), text));
            }
            for side in node.children().skip(1) {
                todo.push_back((next_line, line, side, ply + 1));
                next_line += 1;
            }
        }
        if line == 0 {
            field("movelist", &moves);
        } else {
            field(&format!("move_{parent_line}_{first_ply}_{line}"), &moves);
        }
    }
    for (k, v) in comments {
        field(&k, &v);
    }
    out.push_str("[/DhtmlXQ]\n");
    out
}
