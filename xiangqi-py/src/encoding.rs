//! The encodings for machine learning as plain Rust, under the Python classes that offer them:
//! the board as 90 piece codes and moves as indices into a fixed table of every move any piece
//! can ever make. `Board`, `Move` and the batch functions all read these; keeping them here,
//! below all three, lets each of those import them without importing one another.
//!
//! The move table holds, in ascending order of `(from_square, to_square)`, every pair that
//! is a chariot's move on an empty board (same rank or same file: 90 x 17), a horse's jump,
//! an advisor's step inside a palace or an elephant's step between elephant points. Every
//! legal move of every position is in it (the general's, pawn's and cannon's moves are
//! chariot moves): 2,086 moves in all, the action space AlphaZero-style programs use.

use crate::errors::value_error;
use pyo3::prelude::*;
use std::sync::OnceLock;
use xiangqi_core::{Color, Move as CoreMove, Piece as CorePiece, Position, Square};

/// The number of moves in the table.
pub const MOVE_TABLE_SIZE: usize = 2086;

/// The table and its inverse (`from * 90 + to` -> index + 1, 0 when absent).
struct Table {
    moves: Vec<CoreMove>,
    index: Vec<u16>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut moves = Vec::with_capacity(MOVE_TABLE_SIZE);
        let mut index = vec![0u16; 90 * 90];
        for from in Square::all() {
            for to in Square::all() {
                if can_ever_move(from, to) {
                    moves.push(CoreMove::new(from, to));
                    index[from.index() * 90 + to.index()] = moves.len() as u16;
                }
            }
        }
        Table { moves, index }
    })
}

/// Points an advisor can stand on: the palace's corners and centre.
fn advisor_point(file: i32, rank: i32) -> bool {
    let r = if rank >= 7 { rank - 7 } else { rank };
    (rank <= 2 || rank >= 7) && (file - 4).abs() <= 1 && (file - 4).abs() == (r - 1).abs()
}

/// Points an elephant can stand on (seven on each side of the river).
fn elephant_point(file: i32, rank: i32) -> bool {
    let r = if rank >= 5 { rank - 5 } else { rank };
    match r {
        0 | 4 => file == 2 || file == 6,
        2 => file == 0 || file == 4 || file == 8,
        _ => false,
    }
}

/// Can some piece on an empty board ever move from `from` to `to`?
fn can_ever_move(from: Square, to: Square) -> bool {
    let (f0, r0) = (
        i32::from(from.file().index()),
        i32::from(from.rank().index()),
    );
    let (f1, r1) = (i32::from(to.file().index()), i32::from(to.rank().index()));
    let (df, dr) = ((f1 - f0).abs(), (r1 - r0).abs());
    let same_side = (r0 <= 4) == (r1 <= 4);
    let line = (df == 0) != (dr == 0);
    let horse = (df, dr) == (1, 2) || (df, dr) == (2, 1);
    // One diagonal step between two advisor points: one of them is the palace centre.
    let advisor = (df, dr) == (1, 1) && advisor_point(f0, r0) && advisor_point(f1, r1);
    let elephant =
        (df, dr) == (2, 2) && same_side && elephant_point(f0, r0) && elephant_point(f1, r1);
    line || horse || advisor || elephant
}

/// The table index of `m`, if it is in the table.
pub fn index_of(m: CoreMove) -> Option<u16> {
    let i = table().index[m.from().index() * 90 + m.to().index()];
    i.checked_sub(1)
}

/// The move at `index` of the table.
pub fn move_at(index: i64) -> PyResult<CoreMove> {
    usize::try_from(index)
        .ok()
        .and_then(|i| table().moves.get(i).copied())
        .ok_or_else(|| value_error(format!("move index {index} is not in 0..{MOVE_TABLE_SIZE}")))
}

/// The 90 piece codes of `pos`, rank 9 first (see `Board.piece_codes`).
pub fn piece_codes(pos: &Position) -> [u8; 90] {
    let mut out = [0u8; 90];
    for (square, piece) in pos.all_pieces() {
        let (file, rank) = (
            usize::from(square.file().index()),
            usize::from(square.rank().index()),
        );
        out[(9 - rank) * 9 + file] = piece_code(piece);
    }
    out
}

/// The table indices of the legal moves of `pos`, ascending.
pub fn legal_indices(pos: &Position) -> Vec<u16> {
    let mut v: Vec<u16> = pos
        .legal_moves()
        .into_iter()
        .map(|m| index_of(m).expect("every legal move is in the table"))
        .collect();
    v.sort_unstable();
    v
}

/// The legal moves of `pos` as a 0/1 mask over the table.
pub fn legal_mask(pos: &Position) -> Vec<u8> {
    let mut mask = vec![0u8; MOVE_TABLE_SIZE];
    for m in pos.legal_moves() {
        if let Some(i) = index_of(m) {
            mask[usize::from(i)] = 1;
        }
    }
    mask
}

/// 1 + role index for red (king 1 .. pawn 7), 8 + role index for black.
pub fn piece_code(piece: CorePiece) -> u8 {
    let base = if piece.color == Color::Red { 1 } else { 8 };
    base + piece.role.index() as u8
}

/// Every move of the fixed move table, in index order.
pub fn move_table_moves() -> &'static [CoreMove] {
    &table().moves
}
