//! A mailbox, bitboards per colour and role and the occupancy of each file and rank per
//! colour, kept by the evaluator in step with the position through the hooks, so that the
//! per-call terms need not decode the board.

use crate::geometry::POINT_SHIFT;
use xiangqi_core::{Color, Piece, Position, Role};

/// Mailbox code of a red piece: `RED | role index`.
pub(crate) const RED: u8 = 0x08;
/// Mailbox code of a black piece: `BLACK | role index`.
pub(crate) const BLACK: u8 = 0x10;
/// The off-board sentinel at index 90: it has both colour bits, so it is "own" to both.
pub(crate) const WALL: u8 = 0x18;
/// Rows of the tables indexed by [`row`]: the mailbox codes, red's roles at 8–14, black's
/// at 16–22 (the other rows unused, so that a row index needs no bounds check and no
/// arithmetic).
pub(crate) const ROWS: usize = 32;

/// The colour bit of `color` in mailbox codes.
#[inline]
pub(crate) const fn flag(color: Color) -> u8 {
    match color {
        Color::Red => RED,
        Color::Black => BLACK,
    }
}

/// The mailbox code of `piece`.
#[inline]
pub(crate) const fn code(piece: Piece) -> u8 {
    flag(piece.color) | piece.role as u8
}

/// The table row of a piece's mailbox code: the code itself, masked into range.
#[inline]
pub(crate) const fn row(code: u8) -> usize {
    code as usize & (ROWS - 1)
}

/// Where the ranks start among a colour's [`Board::lines`] (its files start at 0).
const RANK_LINES: usize = 16;
/// The lines of each colour in [`Board::lines`]: red's at 0, black's at `LINES_PER_COLOR`.
const LINES_PER_COLOR: usize = 2 * BLACK as usize;

/// Everything the hooks change for a piece on a square, in one 32-byte entry so that a
/// square's entry is found with one shift: its bit in a 90-bit set, and its place in the
/// line occupancies (the indices of its file and rank among a colour's [`Board::lines`] and
/// its bit in each).
#[derive(Clone, Copy)]
struct SquareBits {
    /// `1 << square index` (a table instead of a 128-bit shift).
    bit: u128,
    file: u8,
    rank: u8,
    /// Its bit in the file's occupancy (`1 << (POINT_SHIFT + rank)`).
    file_bit: u16,
    /// Its bit in the rank's occupancy (`1 << (POINT_SHIFT + file)`).
    rank_bit: u16,
}

/// [`SquareBits`] per square index (256 entries so that a `u8` index, such as an undo
/// entry's squares, needs no bounds check; those past 89 change nothing).
const SQUARE_BITS: [SquareBits; 256] = {
    let mut t = [SquareBits {
        bit: 0,
        file: 0,
        rank: RANK_LINES as u8,
        file_bit: 0,
        rank_bit: 0,
    }; 256];
    let mut s = 0;
    while s < 90 {
        let (f, r) = (s % 9, s / 9);
        t[s] = SquareBits {
            bit: 1 << s,
            file: f as u8,
            rank: (RANK_LINES + r) as u8,
            file_bit: 1 << (POINT_SHIFT + r as u32),
            rank_bit: 1 << (POINT_SHIFT + f as u32),
        };
        s += 1;
    }
    t
};

/// The evaluator's own view of the pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    /// Per square: 0 when empty, else the piece's [`code`]; index 90 is the wall ([`WALL`])
    /// and every index above it is empty, so that any `u8` index, or the sum of two, reads
    /// it without a bounds check.
    pub(crate) mailbox: [u8; 512],
    /// Per [`row`] (colour and role): bit `i` set when such a piece stands on square index `i`.
    roles: [u128; ROWS],
    /// Per colour, the occupancy of each line by that colour's pieces, so that the terms
    /// read a line's occupancy instead of shifting 128-bit sets: at `file` the ranks where
    /// they stand on the file, at `RANK_LINES + rank` the files where they stand on the
    /// rank, point `i` of a line at bit `POINT_SHIFT + i` (the low bits are left free for
    /// the slider's place on the line: see [`crate::geometry::Geometry::along_rank`]);
    /// red's lines first, then black's from
    /// `LINES_PER_COLOR`. 512 entries, so that a colour's offset plus any `u8` index needs
    /// no bounds check.
    lines: [u16; 512],
}

impl Board {
    pub(crate) fn from_position(pos: &Position) -> Board {
        let mut b = Board::default();
        for (sq, p) in pos.all_pieces() {
            b.mailbox[sq.index()] = code(p);
            let sq = &SQUARE_BITS[sq.index()];
            b.roles[row(code(p))] |= sq.bit;
            b.toggle_lines(code(p), sq);
        }
        b
    }

    /// The squares of `color`'s pieces of `role`.
    #[inline]
    pub(crate) fn pieces(&self, color: Color, role: Role) -> u128 {
        self.roles[row(flag(color) | role as u8)]
    }

    /// The role sets, for the tests' digest.
    pub(crate) fn role_sets(&self) -> &[u128; ROWS] {
        &self.roles
    }

    /// The line occupancies, both colours, for [`Board::file_occ`] and friends.
    #[inline]
    pub(crate) fn lines(&self) -> &[u16; 512] {
        &self.lines
    }

    /// The occupancy of `file` by `color` (bit `POINT_SHIFT + rank`).
    #[inline]
    pub(crate) fn file_of(&self, color: Color, file: usize) -> u32 {
        self.lines[color.index() * LINES_PER_COLOR + (file & 255)] as u32
    }

    /// The occupancy of `rank` by `color` (bit `POINT_SHIFT + file`).
    #[inline]
    pub(crate) fn rank_of(&self, color: Color, rank: usize) -> u32 {
        self.lines[color.index() * LINES_PER_COLOR + RANK_LINES + (rank & 255)] as u32
    }

    /// The occupancy of `file`, both colours (bit `POINT_SHIFT + rank`).
    #[inline]
    pub(crate) fn file_occ(&self, file: usize) -> u32 {
        self.file_of(Color::Red, file) | self.file_of(Color::Black, file)
    }

    /// The occupancy of `rank`, both colours (bit `POINT_SHIFT + file`).
    #[inline]
    pub(crate) fn rank_occ(&self, rank: usize) -> u32 {
        self.rank_of(Color::Red, rank) | self.rank_of(Color::Black, rank)
    }

    /// Adds or removes the piece `code` on the square `b` in the file and rank occupancies.
    #[inline]
    fn toggle_lines(&mut self, code: u8, b: &SquareBits) {
        // The colour bit of a code is BLACK (16) for black: twice it is black's offset.
        let base = (code & BLACK) as usize * 2;
        self.lines[base + b.file as usize] ^= b.file_bit;
        self.lines[base + b.rank as usize] ^= b.rank_bit;
    }

    /// The set and line changes of the piece `code` moving `from` -> `to` and capturing
    /// `captured` (0 for none): all toggles, so the same call makes and takes back the move.
    #[inline]
    fn toggle_move(&mut self, code: u8, from: usize, to: usize, captured: u8) {
        let (from, to) = (&SQUARE_BITS[from & 255], &SQUARE_BITS[to & 255]);
        self.roles[row(code)] ^= from.bit | to.bit;
        self.toggle_lines(code, from);
        self.toggle_lines(code, to);
        if captured != 0 {
            self.roles[row(captured)] ^= to.bit;
            self.toggle_lines(captured, to);
        }
    }

    /// The piece `code` on `from` moves to `to`, capturing `captured` there (0 for none):
    /// the codes the mailbox holds on these squares.
    #[inline]
    pub(crate) fn make(&mut self, code: u8, from: usize, to: usize, captured: u8) {
        self.mailbox[to] = code;
        self.mailbox[from] = 0;
        self.toggle_move(code, from, to, captured);
    }

    /// Takes back [`Board::make`] of a move `from` -> `to` that captured `captured`.
    #[inline]
    pub(crate) fn unmake(&mut self, from: usize, to: usize, captured: u8) {
        let code = self.mailbox[to];
        self.mailbox[from] = code;
        self.mailbox[to] = captured;
        self.toggle_move(code, from, to, captured);
    }
}

impl Default for Board {
    fn default() -> Board {
        let mut mailbox = [0; 512];
        mailbox[90] = WALL;
        Board {
            mailbox,
            roles: [0; ROWS],
            lines: [0; 512],
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

    /// Calls `f` with each square index of `set`, lowest first: a loop per half, each
    /// as tight as a 64-bit loop (the body is compiled twice), rather than one loop that
    /// goes back through the switch to the high half for each of its squares.
    #[inline(always)]
    pub(crate) fn each(set: u128, mut f: impl FnMut(usize)) {
        let mut low = set as u64;
        while low != 0 {
            f(low.trailing_zeros() as usize);
            low &= low - 1;
        }
        let mut high = (set >> 64) as u64;
        while high != 0 {
            f(high.trailing_zeros() as usize + 64);
            high &= high - 1;
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
