//! Bitboards per colour and role and the occupancy of each file, kept by the evaluator in
//! step with the position through the hooks, so that the per-call terms need not decode
//! the board.

use xiangqi_core::{Color, Piece, Position, Square};

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

    /// `piece` moves `from` -> `to`, capturing `captured` if any.
    #[inline]
    pub(crate) fn make(&mut self, piece: Piece, from: Square, to: Square, captured: Option<Piece>) {
        self.mailbox[to.index()] = self.mailbox[from.index()];
        self.mailbox[from.index()] = 0;
        self.roles[piece.color.index()][piece.role.index()] ^=
            (1 << from.index()) | (1 << to.index());
        if let Some(c) = captured {
            self.roles[c.color.index()][c.role.index()] ^= 1 << to.index();
        }
        self.files[from.file().index() as usize] &= !(1 << from.rank().index());
        self.files[to.file().index() as usize] |= 1 << to.rank().index();
    }

    /// Takes back [`Board::make`] with the same arguments.
    #[inline]
    pub(crate) fn unmake(
        &mut self,
        piece: Piece,
        from: Square,
        to: Square,
        captured: Option<Piece>,
    ) {
        self.mailbox[from.index()] = self.mailbox[to.index()];
        self.mailbox[to.index()] = captured.map_or(0, |c| flag(c.color) | c.role.index() as u8);
        self.roles[piece.color.index()][piece.role.index()] ^=
            (1 << from.index()) | (1 << to.index());
        if let Some(c) = captured {
            self.roles[c.color.index()][c.role.index()] ^= 1 << to.index();
        } else {
            self.files[to.file().index() as usize] &= !(1 << to.rank().index());
        }
        self.files[from.file().index() as usize] |= 1 << from.rank().index();
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
