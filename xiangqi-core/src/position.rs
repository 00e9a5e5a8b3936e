//! The validated position: board, side to move, counters and Zobrist key.

use crate::setup::{Problems, Setup, SetupError};
use crate::tables::SQUARE_BITS;
use crate::zobrist::{piece_key_raw, side_key};
use crate::{Color, Move, Piece, Role, Square};
use core::fmt;

/// The length of [`Position`]'s board array: every `u8` index is in it.
pub(crate) const BOARD_LEN: usize = 256;

/// Board code of an empty point.
pub(crate) const EMPTY: u8 = 0;

/// Board code of a piece: `color << 3 | (role + 1)` (red 1..=7, black 9..=15), so that
/// colour and role come out with a shift and a mask.
#[inline]
pub(crate) const fn code(color: Color, role: Role) -> u8 {
    (color as u8) << 3 | (role as u8 + 1)
}

/// The colour index (0 red, 1 black) of a non-empty code.
#[inline]
pub(crate) const fn code_color(code: u8) -> usize {
    (code >> 3) as usize
}

/// The role index (0 king .. 6 pawn) of a non-empty code.
#[inline]
pub(crate) const fn code_role(code: u8) -> usize {
    ((code & 7) - 1) as usize
}

/// The piece of each board code (`None` for the empty code 0 and the unused code 8).
static DECODE: [Option<Piece>; 16] = {
    let mut table = [None; 16];
    let mut i = 0;
    while i < 14 {
        let color = if i < 7 { Color::Red } else { Color::Black };
        let role = Role::ALL[i % 7];
        table[code(color, role) as usize] = Some(Piece::new(color, role));
        i += 1;
    }
    table
};

/// The piece of a board code: one table load.
#[inline]
pub(crate) fn decode(code: u8) -> Option<Piece> {
    DECODE[(code & 15) as usize]
}

/// The part of a [`Position`] that [`Position::make_move`] saves and
/// [`Position::unmake_move`] puts back, as one copy.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct State {
    /// The Zobrist key.
    pub(crate) key: u64,
    /// The move number (FEN field 6).
    pub(crate) fullmove: u32,
    /// Plies since the last capture.
    pub(crate) halfmove: u16,
    /// Whether the side to move is in check: kept up to date by make/unmake, so that
    /// [`Position::is_check`] costs nothing and generation need not test it again.
    pub(crate) in_check: bool,
    /// Whether the side *not* to move has its general attacked: never after a legal move,
    /// but a position may be accepted that way (`Problems::OPPONENT_IN_CHECK`). While it is
    /// false, make_move need only look for the checks the move itself gives.
    pub(crate) waiting_in_check: bool,
}

/// What [`Position::make_move`] returns and [`Position::unmake_move`] needs to undo a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Undo {
    pub(crate) st: State,
    pub(crate) captured: u8,
}

impl Undo {
    /// The piece the move captured, if any.
    pub fn captured(&self) -> Option<Piece> {
        decode(self.captured)
    }
}

/// A legal xiangqi position: the pieces, the side to move, the half-move clock
/// (plies since the last capture), the move number and the Zobrist key.
///
/// Built only from FEN ([`Position::from_fen`]), a [`Setup`] ([`Position::from_setup`]) or
/// the start position ([`Position::startpos`]), so it always has one general a side.
///
/// ```
/// use xiangqi_core::Position;
///
/// let mut pos = Position::startpos();
/// let m = pos.parse_uci("h2e2")?;
/// pos.play(m)?;
/// assert!(pos.fen().starts_with("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    /// The board code of each point, by square index; the points past the 90th are always
    /// empty (there so that any 7- or 8-bit index reads the board without a bounds check).
    pub(crate) board: [u8; BOARD_LEN],
    pub(crate) by_color: [u128; 2],
    pub(crate) rank_occ: [u16; 10],
    pub(crate) file_occ: [u16; 9],
    pub(crate) kings: [u8; 2],
    /// How many pieces of each kind, indexed by board code (the empty and unused codes 0
    /// and 8 stay 0), so that make/unmake count a capture by its code alone.
    pub(crate) counts: [u8; 16],
    pub(crate) side: Color,
    /// The key, the move number, the half-move clock and the check flags.
    pub(crate) st: State,
}

/// The standard start position in FEN.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

impl Position {
    /// The standard start position.
    ///
    /// ```
    /// use xiangqi_core::{Position, START_FEN};
    /// assert_eq!(Position::startpos().fen(), START_FEN);
    /// ```
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN is valid")
    }

    /// Validates `setup` into a position. Problems in `allowed` are accepted anyway (for
    /// puzzles and tests), except the [`Problems::FATAL`] ones, which are always refused.
    ///
    /// # Errors
    /// A [`SetupError`] naming every problem not allowed.
    pub fn from_setup(setup: &Setup, allowed: Problems) -> Result<Position, SetupError> {
        let mut problems = setup.problems();
        if !problems.intersects(Problems::FATAL) {
            let pos = Position::from_setup_unvalidated(setup);
            if pos.is_attacked_king(setup.side_to_move.other()) {
                problems |= Problems::OPPONENT_IN_CHECK;
            }
            let refused = problems - (allowed - Problems::FATAL);
            if refused.is_empty() {
                return Ok(pos);
            }
            return Err(SetupError { problems: refused });
        }
        Err(SetupError {
            problems: problems - (allowed - Problems::FATAL),
        })
    }

    /// Builds the position's internal state; the setup must have one general a side.
    fn from_setup_unvalidated(setup: &Setup) -> Position {
        let mut pos = Position {
            board: [EMPTY; BOARD_LEN],
            by_color: [0; 2],
            rank_occ: [0; 10],
            file_occ: [0; 9],
            kings: [0; 2],
            counts: [0; 16],
            side: setup.side_to_move,
            st: State {
                key: 0,
                fullmove: setup.fullmove_number.max(1),
                halfmove: setup.halfmove_clock.min(u16::MAX as u32) as u16,
                in_check: false,
                waiting_in_check: false,
            },
        };
        for sq in Square::all() {
            if let Some(p) = setup.board[sq.index()] {
                pos.put(sq.index(), code(p.color, p.role));
            }
        }
        pos.st.key = pos.compute_key();
        pos.st.in_check = pos.is_attacked_king(pos.side);
        pos.st.waiting_in_check = pos.is_attacked_king(pos.side.other());
        pos
    }

    fn put(&mut self, s: usize, c: u8) {
        let color = code_color(c);
        self.board[s] = c;
        self.by_color[color] |= 1u128 << s;
        self.rank_occ[s / 9] |= 1 << (s % 9);
        self.file_occ[s % 9] |= 1 << (s / 9);
        let role = code_role(c);
        self.counts[(c & 15) as usize] += 1;
        if role == 0 {
            self.kings[color] = s as u8;
        }
    }

    /// The setup this position was made from (for editing, then validating again).
    pub fn to_setup(&self) -> Setup {
        let mut board = [None; 90];
        for (s, b) in board.iter_mut().enumerate() {
            *b = decode(self.board[s]);
        }
        Setup {
            board,
            side_to_move: self.side,
            halfmove_clock: self.st.halfmove as u32,
            fullmove_number: self.st.fullmove,
        }
    }

    /// The piece on `square`, if any.
    #[inline]
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        decode(self.board[square.index()])
    }

    /// Whose turn it is.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Plies since the last capture (FEN field 5).
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.st.halfmove as u32
    }

    /// The move number (FEN field 6): 1 at the start, up by one after each black move.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.st.fullmove
    }

    /// The square of `color`'s general.
    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        Square::from_index_unchecked(self.kings[color.index()])
    }

    /// How many pieces of `color` and `role` are on the board.
    #[inline]
    pub fn count(&self, color: Color, role: Role) -> u8 {
        self.counts[code(color, role) as usize]
    }

    /// How many pieces are on the board.
    pub fn piece_count(&self) -> u32 {
        self.by_color[0].count_ones() + self.by_color[1].count_ones()
    }

    /// The Zobrist key of this position (pieces and side to move; see [`crate::zobrist`]).
    #[inline]
    pub fn key(&self) -> u64 {
        self.st.key
    }

    /// The Zobrist key the position will have once `m`, a move of the side to move, is made,
    /// without making it (a search can start loading the table entry of the child early).
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// let mut pos = Position::startpos();
    /// let m = pos.parse_uci("h2e2")?;
    /// let expected = pos.key_after(m);
    /// pos.play(m)?;
    /// assert_eq!(pos.key(), expected);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from().index(), m.to().index());
        self.key_after_codes(self.board[from], from, to, self.board[to])
    }

    /// [`Position::key_after`] for the piece code `piece` moving `from`-`to` onto the code
    /// `captured` (the empty code has all-zero keys).
    #[inline(always)]
    fn key_after_codes(&self, piece: u8, from: usize, to: usize, captured: u8) -> u64 {
        self.st.key
            ^ piece_key_raw(piece, from)
            ^ piece_key_raw(piece, to)
            ^ piece_key_raw(captured, to)
            ^ side_key()
    }

    /// The Zobrist key computed from scratch (equals [`Position::key`]; for tests).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for s in 0..90 {
            if self.board[s] != EMPTY {
                k ^= piece_key_raw(self.board[s], s);
            }
        }
        if self.side == Color::Black {
            k ^= side_key();
        }
        k
    }

    /// The pieces of `color`, with their squares, from `a0` upward.
    pub fn pieces(&self, color: Color) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let mut bits = self.by_color[color.index()];
        core::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let s = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some((
                Square::from_index_unchecked(s as u8),
                decode(self.board[s]).expect("occupied"),
            ))
        })
    }

    /// Every piece on the board with its square.
    pub fn all_pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.pieces(Color::Red).chain(self.pieces(Color::Black))
    }

    /// The occupied squares of `color` as a 90-bit set (bit `i` = square index `i`).
    #[inline]
    pub fn occupied_by(&self, color: Color) -> u128 {
        self.by_color[color.index()]
    }

    /// Makes `m` without checking it. For the search and other callers that got `m` from
    /// [`Position::legal_moves`] of this very position.
    ///
    /// Making a move that is not legal here leaves the position in an unspecified (but
    /// memory-safe) state; it may panic in debug builds. Use [`Position::play`] for moves
    /// from outside.
    #[inline]
    pub fn make_move(&mut self, m: Move) -> Undo {
        let from = m.from().index();
        let to = m.to().index();
        let piece = self.board[from];
        let captured = self.board[to];
        debug_assert!(piece != EMPTY, "make_move {m}: no piece on the from-square");
        let undo = Undo {
            st: self.st,
            captured,
        };
        let us = self.side.index();
        let (f, t) = (&SQUARE_BITS[from], &SQUARE_BITS[to]);
        let key = self.key_after_codes(piece, from, to, captured);
        if captured != EMPTY {
            let them = us ^ 1;
            self.by_color[them] ^= t.bit;
            self.counts[(captured & 15) as usize] -= 1;
            self.st.halfmove = 0;
        } else {
            self.st.halfmove = self.st.halfmove.saturating_add(1);
            self.rank_occ[t.rank as usize] |= t.rank_bit;
            self.file_occ[t.file as usize] |= t.file_bit;
        }
        self.rank_occ[f.rank as usize] ^= f.rank_bit;
        self.file_occ[f.file as usize] ^= f.file_bit;
        self.by_color[us] ^= f.bit | t.bit;
        self.board[to] = piece;
        self.board[from] = EMPTY;
        if code_role(piece) == 0 {
            self.kings[us] = to as u8;
        }
        // The move number goes up after black's move (the colour's index is 1).
        self.st.fullmove += self.side.index() as u32;
        self.side = self.side.other();
        self.st.key = key;
        // The mover's general is safe after a legal move; the other one was attacked before
        // only in an accepted odd position, and otherwise only the move can attack it now.
        self.st.in_check = if self.st.waiting_in_check {
            self.is_attacked_king(self.side)
        } else {
            self.gives_check_after(from, to, piece)
        };
        self.st.waiting_in_check = false;
        undo
    }

    /// Takes back `m`, which must be the last move made with [`Position::make_move`],
    /// given the [`Undo`] that call returned.
    #[inline]
    pub fn unmake_move(&mut self, m: Move, undo: Undo) {
        let from = m.from().index();
        let to = m.to().index();
        self.side = self.side.other();
        let us = self.side.index();
        let (f, t) = (&SQUARE_BITS[from], &SQUARE_BITS[to]);
        let piece = self.board[to];
        self.board[from] = piece;
        self.board[to] = undo.captured;
        self.by_color[us] ^= f.bit | t.bit;
        self.rank_occ[f.rank as usize] |= f.rank_bit;
        self.file_occ[f.file as usize] |= f.file_bit;
        if undo.captured != EMPTY {
            let them = us ^ 1;
            self.by_color[them] |= t.bit;
            self.counts[(undo.captured & 15) as usize] += 1;
        } else {
            self.rank_occ[t.rank as usize] ^= t.rank_bit;
            self.file_occ[t.file as usize] ^= t.file_bit;
        }
        if code_role(piece) == 0 {
            self.kings[us] = from as u8;
        }
        self.st = undo.st;
    }

    /// Passes the turn (a null move, for null-move pruning). Only when not in check.
    #[inline]
    pub fn make_null(&mut self) -> Undo {
        let undo = Undo {
            st: self.st,
            captured: EMPTY,
        };
        self.st.key ^= side_key();
        if self.side == Color::Black {
            self.st.fullmove += 1;
        }
        self.side = self.side.other();
        self.st.halfmove = self.st.halfmove.saturating_add(1);
        // The two generals swap roles: nothing on the board moved.
        core::mem::swap(&mut self.st.in_check, &mut self.st.waiting_in_check);
        undo
    }

    /// Takes back a null move made by [`Position::make_null`].
    #[inline]
    pub fn unmake_null(&mut self, undo: Undo) {
        self.side = self.side.other();
        self.st = undo.st;
    }

    /// The same position mirrored top-bottom with colours swapped (red becomes black).
    pub fn swap_colors(&self) -> Position {
        let mut setup = Setup::empty()
            .side_to_move(self.side.other())
            .counters(self.st.halfmove as u32, self.st.fullmove);
        for (sq, p) in self.all_pieces() {
            setup = setup.put(sq.flip_vertical(), Piece::new(p.color.other(), p.role));
        }
        Position::from_setup_unvalidated(&setup)
    }

    /// The same position mirrored left-right.
    pub fn flip_horizontal(&self) -> Position {
        let mut setup = Setup::empty()
            .side_to_move(self.side)
            .counters(self.st.halfmove as u32, self.st.fullmove);
        for (sq, p) in self.all_pieces() {
            setup = setup.put(sq.flip_horizontal(), p);
        }
        Position::from_setup_unvalidated(&setup)
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl core::hash::Hash for Position {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.st.key.hash(state);
        self.st.halfmove.hash(state);
        self.st.fullmove.hash(state);
    }
}

impl Setup {
    /// Validates this setup into a position; see [`Position::from_setup`].
    ///
    /// # Errors
    /// Every rule the setup breaks, as a [`SetupError`].
    pub fn build(self) -> Result<Position, SetupError> {
        Position::from_setup(&self, Problems::empty())
    }
}

/// Shows the board as red sees it, rank 9 at the top, with ranks and files labelled, then the FEN.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in (0..10).rev() {
            write!(f, "{r} ")?;
            for file in 0..9 {
                let c = decode(self.board[r * 9 + file]).map_or('.', Piece::char);
                write!(f, "{c}")?;
                if file < 8 {
                    f.write_str(" ")?;
                }
            }
            f.write_str("\n")?;
            if r == 5 {
                f.write_str("  ~~~~~~~~~~~~~~~~~\n")?;
            }
        }
        f.write_str("  a b c d e f g h i\n")?;
        write!(f, "{}", self.fen())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

#[cfg(test)]
mod decode_tests {
    use super::{code, decode, EMPTY};
    use crate::{Color, Piece, Role};

    #[test]
    fn decode_inverts_code() {
        assert_eq!(decode(EMPTY), None);
        assert_eq!(decode(8), None);
        for color in Color::ALL {
            for role in Role::ALL {
                assert_eq!(decode(code(color, role)), Some(Piece::new(color, role)));
            }
        }
    }
}
