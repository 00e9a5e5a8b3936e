//! The accumulator refresh cache for general moves (the field calls it a "Finny table").
//!
//! When a general steps into another bucket (or across the palace's centre, which flips the
//! mirror), every input of its side's perspective changes and the accumulator must be
//! rebuilt: 32 columns added from the biases. The cache keeps, per perspective and per
//! [`KingKey`], the accumulator of the board that key last saw together with that board;
//! a rebuild starts from it and only adds and takes away the pieces that differ, a handful
//! after a few moves instead of every piece.

use super::net::LayeredNet;
use super::update::{add_column, sub_column};
use crate::buckets::{input, KingKey, MAX_BUCKETS};
use xiangqi_core::{Color, Piece, Position, Square};

/// Keys per perspective (`KingKey::slot` is below this).
const SLOTS: usize = 2 * MAX_BUCKETS;

/// A board as the cache compares it: per point, 0 for empty or 1 + [`Piece::index`].
pub(crate) type Board = [u8; Square::COUNT];

/// The board of `pos`.
pub(crate) fn board_of(pos: &Position) -> Board {
    let mut board = [0u8; Square::COUNT];
    for (square, piece) in pos.all_pieces() {
        board[square.index()] = 1 + piece.index() as u8;
    }
    board
}

/// The piece a board code stands for.
#[inline]
fn piece_of(code: u8) -> Option<Piece> {
    Piece::from_index(usize::from(code).checked_sub(1)?)
}

/// Cached accumulators and their boards, per perspective and key.
#[derive(Clone)]
pub(crate) struct RefreshCache {
    width: usize,
    /// Entry `(perspective, slot)` is `values[(perspective * SLOTS + slot) * width..]`.
    values: Vec<i16>,
    boards: Vec<Board>,
}

impl RefreshCache {
    /// Every entry the biases of an empty board.
    pub(crate) fn new(net: &LayeredNet) -> RefreshCache {
        let width = net.shape.width;
        RefreshCache {
            width,
            values: net.ft_bias.repeat(2 * SLOTS),
            boards: vec![[0; Square::COUNT]; 2 * SLOTS],
        }
    }

    /// Writes `perspective`'s accumulator for `board`, whose general gives it `key`, into
    /// `out`, starting from the cached entry of that key, and updates the entry.
    pub(crate) fn refresh(
        &mut self,
        net: &LayeredNet,
        perspective: Color,
        key: KingKey,
        board: &Board,
        out: &mut [i16],
    ) {
        let entry = perspective.index() * SLOTS + key.slot();
        let w = self.width;
        let values = &mut self.values[entry * w..(entry + 1) * w];
        let cached = &mut self.boards[entry];
        for (i, (old, new)) in cached.iter_mut().zip(board).enumerate() {
            if old == new {
                continue;
            }
            let square = Square::from_index_unchecked(i as u8);
            if let Some(piece) = piece_of(*old) {
                let f = input(key, perspective, piece, square);
                sub_column(values, &net.ft_weights[f * w..(f + 1) * w]);
            }
            if let Some(piece) = piece_of(*new) {
                let f = input(key, perspective, piece, square);
                add_column(values, &net.ft_weights[f * w..(f + 1) * w]);
            }
            *old = *new;
        }
        out.copy_from_slice(values);
    }
}
