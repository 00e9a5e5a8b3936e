//! Frozen copy of `src/board.rs` as of commit e8ac392 (before the evaluation was sped up),
//! without the hooks: the reference builds its board afresh for each position.
//!
//! Bitboards per colour and role and the occupancy of each file, kept by the evaluator in
//! step with the position through the hooks, so that the per-call terms need not decode
//! the board.

use xiangqi_core::{Color, Position};

/// Mailbox code of a red piece: `RED | role index`.
pub(crate) const RED: u8 = 0x10;
/// Mailbox code of a black piece: `BLACK | role index`.
pub(crate) const BLACK: u8 = 0x20;
/// The off-board sentinel at index 90: it has both colour bits, so it is "own" to both.
pub(crate) const WALL: u8 = 0x30;

/// The colour bit of `color` in mailbox codes.
#[inline]
pub(crate) const fn flag(color: Color) -> u8 {
    match color {
        Color::Red => RED,
        Color::Black => BLACK,
    }
}

/// The evaluator's own view of the pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    /// Per square (and the sentinel index 90): 0 when empty, else `colour flag | role index`.
    pub(crate) mailbox: [u8; 91],
    /// `[color][role]`: bit `i` set when such a piece stands on square index `i`.
    pub(crate) roles: [[u128; 7]; 2],
    /// Per file, the occupied ranks (bit = rank).
    pub(crate) files: [u32; 9],
}

impl Board {
    pub(crate) fn from_position(pos: &Position) -> Board {
        let mut b = Board::default();
        for (sq, p) in pos.all_pieces() {
            b.mailbox[sq.index()] = flag(p.color) | p.role.index() as u8;
            b.roles[p.color.index()][p.role.index()] |= 1 << sq.index();
            b.files[sq.file().index() as usize] |= 1 << sq.rank().index();
        }
        b
    }
}

impl Default for Board {
    fn default() -> Board {
        let mut mailbox = [0; 91];
        mailbox[90] = WALL;
        Board {
            mailbox,
            roles: [[0; 7]; 2],
            files: [0; 9],
        }
    }
}
