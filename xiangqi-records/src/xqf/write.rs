//! Writing XQF 1.0 (version byte 10, no encryption): the header's pieces, result and
//! strings, then the whole tree as move records in depth-first order.

use super::{HEADER_SIZE, HEADER_TAGS, SLOT_ROLES};
use crate::pgn::PgnResult;
use crate::record::Record;
use crate::tree::NodeId;
use encoding_rs::GB18030;
use xiangqi_core::{Color, Square};

/// The XQF coordinate byte of a point: `file * 10 + rank` (rank from red's side).
fn coord(sq: Square) -> u8 {
    sq.file().index() * 10 + sq.rank().index()
}

/// GB18030 bytes of `text`, cut to at most `max` bytes on a character boundary.
fn gb_cut(text: &str, max: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for c in text.chars() {
        let mut buf = [0u8; 4];
        let (bytes, _, _) = GB18030.encode(c.encode_utf8(&mut buf));
        if out.len() + bytes.len() > max {
            break;
        }
        out.extend_from_slice(&bytes);
    }
    out
}

/// One move record: from, to, flags, reserved byte, then the comment's length and text.
fn push_record(out: &mut Vec<u8>, from: u8, to: u8, next: bool, variation: bool, comment: &str) {
    let flag = if next { 0xF0 } else { 0 } | if variation { 0x0F } else { 0 };
    let (text, _, _) = GB18030.encode(comment);
    out.extend_from_slice(&[from + 0x18, to + 0x20, flag, 0]);
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(&text);
}

/// Writes a record as an XQF 1.0 file. Tags other than the header's eight, NAGs and
/// comments before a move (XQF has one comment per move) are not written; a comment
/// before a move is joined to the comment of the move before it.
pub fn write(record: &Record) -> Vec<u8> {
    let tree = &record.tree;
    let start = tree.start();
    let mut out = vec![0u8; HEADER_SIZE];
    out[0] = b'X';
    out[1] = b'Q';
    out[2] = 10;
    // Pieces into their slots, in the slot order of each side.
    let mut slots = [0xFFu8; 32];
    for (sq, piece) in start.all_pieces() {
        let base = if piece.color == Color::Red { 0 } else { 16 };
        if let Some(i) = (0..16).find(|&i| SLOT_ROLES[i] == piece.role && slots[base + i] == 0xFF) {
            slots[base + i] = coord(sq);
        }
    }
    out[0x10..0x30].copy_from_slice(&slots);
    // Who plays first: readers take it from the first move, but a record without one has
    // only this byte to say it.
    out[0x32] = u8::from(start.side_to_move() == Color::Black);
    out[0x33] = match record.result {
        PgnResult::Unknown => 0,
        PgnResult::RedWins => 1,
        PgnResult::BlackWins => 2,
        PgnResult::Draw => 3,
    };
    for (name, offset, size) in HEADER_TAGS {
        if let Some(v) = record.tag(name) {
            let bytes = gb_cut(v, size - 1);
            out[offset] = bytes.len() as u8;
            out[offset + 1..offset + 1 + bytes.len()].copy_from_slice(&bytes);
        }
    }
    let comment_of = |n: NodeId| -> String {
        let node = tree.node(n);
        // XQF has no comment before a move: it joins the comment after the move before.
        let mut text = node.comment.clone();
        for c in node.children() {
            let before = &tree.node(c).starting_comment;
            if !before.is_empty() {
                crate::pgn::append_comment(&mut text, before);
            }
        }
        text
    };
    let root = tree.root();
    let has_moves = tree.node(root).child_count() > 0;
    push_record(&mut out, 0, 0, has_moves, false, &comment_of(root));
    let mut stack: Vec<NodeId> = tree.node(root).main_child().into_iter().collect();
    while let Some(n) = stack.pop() {
        let node = tree.node(n);
        let Some(m) = node.mv() else { continue };
        let sibling = node.parent().and_then(|p| {
            let mut it = tree.node(p).children().skip_while(|&c| c != n);
            it.next();
            it.next()
        });
        let child = node.main_child();
        push_record(
            &mut out,
            coord(m.from()),
            coord(m.to()),
            child.is_some(),
            sibling.is_some(),
            &comment_of(n),
        );
        // The child's subtree comes first, then the sibling's.
        stack.extend(sibling);
        stack.extend(child);
    }
    out
}
