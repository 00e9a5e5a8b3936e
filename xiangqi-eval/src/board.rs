//! A mailbox, bitboards per colour and role and the occupancy of each file and rank per
//! colour, kept by the evaluator in step with the position through the hooks, so that the
//! per-call terms need not decode the board.

use crate::geometry::file_rank;
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
    /// Per square: 0 when empty, else `colour flag | role index`; index 90 is the wall
    /// ([`WALL`]) and every index above it is empty, so that any `u8` indexes it without a
    /// bounds check.
    pub(crate) mailbox: [u8; 256],
    /// `[color][role]`: bit `i` set when such a piece stands on square index `i`.
    pub(crate) roles: [[u128; 7]; 2],
    /// `[color][file]`: the ranks where that colour's pieces stand on the file (bit = rank).
    pub(crate) files: [[u16; 9]; 2],
    /// `[color][rank]`: the files where that colour's pieces stand on the rank (bit = file).
    /// Kept so that the terms read a line's occupancy instead of shifting 128-bit sets.
    pub(crate) ranks: [[u16; 10]; 2],
}

impl Board {
    pub(crate) fn from_position(pos: &Position) -> Board {
        let mut b = Board::default();
        for (sq, p) in pos.all_pieces() {
            b.mailbox[sq.index()] = flag(p.color) | p.role.index() as u8;
            b.roles[p.color.index()][p.role.index()] |= 1 << sq.index();
            b.toggle_lines(p.color, sq);
        }
        b
    }

    /// The occupancy of `file`, both colours (bit = rank).
    #[inline]
    pub(crate) fn file_occ(&self, file: usize) -> u32 {
        (self.files[0][file] | self.files[1][file]) as u32
    }

    /// The occupancy of `rank`, both colours (bit = file).
    #[inline]
    pub(crate) fn rank_occ(&self, rank: usize) -> u32 {
        (self.ranks[0][rank] | self.ranks[1][rank]) as u32
    }

    /// Adds or removes a piece of `color` on `sq` in the file and rank occupancies.
    #[inline]
    fn toggle_lines(&mut self, color: Color, sq: Square) {
        let (f, r) = file_rank(sq.index());
        self.files[color.index()][f] ^= 1 << r;
        self.ranks[color.index()][r] ^= 1 << f;
    }

    /// The bitboard and line changes of `piece` moving `from` -> `to` and capturing
    /// `captured`: all toggles, so the same call makes and takes back the move.
    #[inline]
    fn toggle_move(&mut self, piece: Piece, from: Square, to: Square, captured: Option<Piece>) {
        self.roles[piece.color.index()][piece.role.index()] ^=
            (1 << from.index()) | (1 << to.index());
        self.toggle_lines(piece.color, from);
        self.toggle_lines(piece.color, to);
        if let Some(c) = captured {
            self.roles[c.color.index()][c.role.index()] ^= 1 << to.index();
            self.toggle_lines(c.color, to);
        }
    }

    /// `piece` moves `from` -> `to`, capturing `captured` if any.
    #[inline]
    pub(crate) fn make(&mut self, piece: Piece, from: Square, to: Square, captured: Option<Piece>) {
        self.mailbox[to.index()] = self.mailbox[from.index()];
        self.mailbox[from.index()] = 0;
        self.toggle_move(piece, from, to, captured);
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
        self.toggle_move(piece, from, to, captured);
    }
}

impl Default for Board {
    fn default() -> Board {
        let mut mailbox = [0; 256];
        mailbox[90] = WALL;
        Board {
            mailbox,
            roles: [[0; 7]; 2],
            files: [[0; 9]; 2],
            ranks: [[0; 10]; 2],
        }
    }
}

/// The square indices of a 90-bit set, lowest first, in two 64-bit halves (cheaper than
/// 128-bit arithmetic per step).
#[derive(Clone, Copy)]
pub(crate) struct Squares {
    low: u64,
    high: u64,
}

impl Squares {
    #[inline]
    pub(crate) fn of(set: u128) -> Squares {
        Squares {
            low: set as u64,
            high: (set >> 64) as u64,
        }
    }
}

impl Iterator for Squares {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.low != 0 {
            let s = self.low.trailing_zeros() as usize;
            self.low &= self.low - 1;
            Some(s)
        } else if self.high != 0 {
            let s = self.high.trailing_zeros() as usize + 64;
            self.high &= self.high - 1;
            Some(s)
        } else {
            None
        }
    }
}
