//! Perft: counting the leaves of the legal move tree, the standard test of move generation.

use crate::{Move, Position};
use alloc::vec::Vec;

impl Position {
    /// The number of leaves of the legal move tree `depth` plies deep.
    /// The last ply is counted in bulk (the number of legal moves, without making them).
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// assert_eq!(Position::startpos().perft(2), 1920);
    /// ```
    pub fn perft(&self, depth: u32) -> u64 {
        let mut pos = self.clone();
        pos.perft_inner(depth)
    }

    fn perft_inner(&mut self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal_moves() as u64,
            _ => {
                let moves = self.legal_moves();
                let mut total = 0;
                for &m in &moves {
                    let undo = self.make_move(m);
                    total += self.perft_inner(depth - 1);
                    self.unmake_move(m, undo);
                }
                total
            }
        }
    }

    /// Perft split by root move: each legal move with the leaves below it (`depth - 1` deeper).
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        let mut pos = self.clone();
        pos.legal_moves()
            .iter()
            .map(|&m| {
                let undo = pos.make_move(m);
                let n = if depth <= 1 {
                    1
                } else {
                    pos.perft_inner(depth - 1)
                };
                pos.unmake_move(m, undo);
                (m, n)
            })
            .collect()
    }
}
