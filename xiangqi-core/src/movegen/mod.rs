//! Legal move generation and attack tests.
//!
//! The board keeps, besides the 90 points, one occupancy bit mask per rank (9 bits) and per
//! file (10 bits). Chariot and cannon moves are read off those masks with a few bit
//! operations: the nearest piece in each direction and the one behind it (the cannon's
//! target beyond its screen).
//!
//! Legality: a pseudo-legal move is tested by asking whether our general is attacked once
//! the move is made — computed on the masks as they would be, without touching the board.
//! Most moves need no test at all: when we are not in check, a move of a piece other than
//! the general can only expose the general along a line from it that holds an enemy
//! chariot, cannon or general among its first three pieces (opening a chariot line or the
//! generals' file, adding a cannon screen, removing one of two screens), or by leaving the
//! leg point of an enemy horse next to the general. `danger_squares` marks those points
//! once per position; only moves that leave or enter them are tested. In check it is the
//! other way round: a move of a piece other than the general that touches neither a
//! checker, nor a point between a checker and the general, nor a checking horse's leg
//! leaves the check in place, so only moves touching those points (`evasion_squares`) and
//! the general's own moves are tested; the rest are illegal.
//!
//! The capture generator needs less: a capture leaves its target occupied, so out of check
//! only leaving its from-point can expose the general, and only from the general's rank or
//! file or a point diagonally next to it (`EXPOSING`, one bit test); those few captures are
//! tested on the one line through the from-point, or the horses whose leg it is
//! (`leaving_exposes`). In check a capture that neither lands where a checker could stand
//! (`CHECK_SOURCES`) nor leaves the general's rank or file is illegal; the others get the
//! full test.
//!
//! The files follow what they compute: `all_moves` (every legal move or the quiet ones, and
//! the moves of one piece for counting), `captures` (the capture generator), `legality` (the
//! filter above: danger and evasion squares, the general-safety test, `is_legal`'s
//! pseudo-legal test) and `attacks` (check and attack tests, `gives_check`). This file keeps
//! the public entry points and the line-scanning helpers they share.

mod all_moves;
mod attacks;
mod captures;
mod legality;

use crate::position::{code, code_color, code_role, Position, EMPTY};
use crate::tables::SQUARE_BITS;
use crate::{Move, MoveList, Role};

/// Generation kinds (the `KIND` parameter of [`Position::moves_into`]): every move, or quiet
/// moves (non-captures) only. Captures have their own generator, `captures_into`.
const ALL: u8 = 0;
const QUIETS: u8 = 2;

/// A square index that is on no line and equals no square.
const NO_SQ: usize = 127;

/// Blockers on one line seen from position `p`: the first and second piece in the
/// upward direction and in the downward direction (bit masks with at most one bit each).
/// (The empty points before the first blockers come from `RANK_QUIET` and `FILE_QUIET`.)
#[derive(Copy, Clone)]
struct LineScan {
    first_up: u16,
    second_up: u16,
    first_down: u16,
    second_down: u16,
}

/// The highest set bit of `x` (0 when none). (A branch-free form costs more instructions:
/// an empty side is common and lets the branch skip the rest.)
#[inline(always)]
pub(crate) fn highest_bit(x: u16) -> u16 {
    if x == 0 {
        0
    } else {
        1 << (15 - x.leading_zeros())
    }
}

#[inline(always)]
fn scan(occ: u16, p: u32, width: u32) -> LineScan {
    let full: u16 = (1 << width) - 1;
    let above_mask: u16 = full & !((2u16 << p) - 1);
    let below_mask: u16 = (1u16 << p) - 1;
    let above = occ & above_mask;
    let first_up = above & above.wrapping_neg();
    let rest_up = above ^ first_up;
    let second_up = rest_up & rest_up.wrapping_neg();
    let below = occ & below_mask;
    let first_down = highest_bit(below);
    let second_down = highest_bit(below ^ first_down);
    LineScan {
        first_up,
        second_up,
        first_down,
        second_down,
    }
}

/// The danger points on one line through our general at position `p` (see
/// [`Position::danger_squares`]), as a mask of the line: in each direction, the points up to
/// and including the farthest of the first three pieces that is an attacker (its code's bit
/// set in `attackers`). `at(q)` is the code of the piece at position `q` of the line.
#[inline(always)]
fn line_danger(occ: u16, p: u32, attackers: u16, at: impl Fn(usize) -> u8) -> u16 {
    let hit = |b: u16| b != 0 && (attackers >> at(bit_index(b))) & 1 != 0;
    let above_mask = !((2u16 << p) - 1);
    let below_mask = (1u16 << p) - 1;
    // Upward: lowest bits first.
    let above = occ & above_mask;
    let b1 = above & above.wrapping_neg();
    let rest = above ^ b1;
    let b2 = rest & rest.wrapping_neg();
    let rest = rest ^ b2;
    let b3 = rest & rest.wrapping_neg();
    let mut mask = 0;
    let far = if hit(b3) {
        b3
    } else if hit(b2) {
        b2
    } else if hit(b1) {
        b1
    } else {
        0
    };
    if far != 0 {
        mask |= ((far << 1) - 1) & above_mask;
    }
    // Downward: highest bits first.
    let below = occ & below_mask;
    let b1 = highest_bit(below);
    let rest = below ^ b1;
    let b2 = highest_bit(rest);
    let b3 = highest_bit(rest ^ b2);
    let far = if hit(b3) {
        b3
    } else if hit(b2) {
        b2
    } else if hit(b1) {
        b1
    } else {
        0
    };
    if far != 0 {
        mask |= below_mask & !(far - 1);
    }
    mask
}

/// The file and rank of square `s`, from [`SQUARE_BITS`].
#[inline(always)]
fn file_rank(s: usize) -> (usize, usize) {
    let b = &SQUARE_BITS[s];
    (b.file as usize, b.rank as usize)
}

#[inline(always)]
fn bit_index(b: u16) -> usize {
    b.trailing_zeros() as usize
}

impl Position {
    /// Every legal move, in a fixed-capacity list (no heap allocation).
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// assert_eq!(Position::startpos().legal_moves().len(), 44);
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.moves_into::<ALL>(&mut list);
        list
    }

    /// Appends every legal move to `list`.
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        self.moves_into::<ALL>(list);
    }

    /// The legal captures only (for quiescence search).
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.captures_into(&mut list);
        list
    }

    /// Appends the legal captures to `list`.
    pub fn legal_captures_into(&self, list: &mut MoveList) {
        self.captures_into(list);
    }

    /// Appends the legal quiet moves (those that capture nothing) to `list`, in the order
    /// [`Position::legal_moves`] gives them. With [`Position::legal_captures_into`] this
    /// splits the legal moves in two, for searches that try captures first.
    ///
    /// ```
    /// use xiangqi_core::{MoveList, Position};
    /// let pos = Position::startpos();
    /// let mut quiets = MoveList::new();
    /// pos.legal_quiets_into(&mut quiets);
    /// assert_eq!(quiets.len() + pos.legal_captures().len(), pos.legal_moves().len());
    /// ```
    pub fn legal_quiets_into(&self, list: &mut MoveList) {
        self.moves_into::<QUIETS>(list);
    }

    /// The number of legal moves (faster than building the list).
    pub fn count_legal_moves(&self) -> usize {
        let us = self.side;
        let ksq = self.kings[us.index()] as usize;
        if self.is_check() {
            let mut list = MoveList::new();
            self.moves_into::<ALL>(&mut list);
            return list.len();
        }
        let danger = self.danger_squares(us, ksq);
        let (kf, kr) = (ksq % 9, ksq / 9);
        let king_code = code(us, Role::King);
        let mut n = 0usize;
        let mut bits = self.by_color[us.index()];
        while bits != 0 {
            let from = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let piece = self.board[from];
            let role = code_role(piece);
            let from_sensitive = (danger >> from) & 1 != 0;
            if piece == king_code || from_sensitive || (role != 4 && role != 5) {
                // The general, pieces that may expose it, and the short-range pieces: one by one.
                self.piece_moves(from, piece, &mut |to| {
                    let ok = if piece == king_code {
                        !self.king_attacked_after(us, from, to, to)
                    } else {
                        !(from_sensitive || (danger >> to) & 1 != 0)
                            || !self.king_attacked_after(us, from, to, ksq)
                    };
                    n += ok as usize;
                });
                continue;
            }
            // A chariot or cannon that cannot expose the general: its quiet moves can only be
            // dangerous where they cross the general's file (on its rank) or the general's
            // rank (on its file), so count the rest in bulk.
            let (ff, fr) = file_rank(from);
            let check_one = |to: usize| -> usize {
                let sensitive = (danger >> to) & 1 != 0;
                (!sensitive || !self.king_attacked_after(us, from, to, ksq)) as usize
            };
            let (rq, fq) = self.slider_quiets(from);
            n += (rq & !(1 << kf)).count_ones() as usize + (fq & !(1 << kr)).count_ones() as usize;
            if rq & (1 << kf) != 0 {
                n += check_one(fr * 9 + kf);
            }
            if fq & (1 << kr) != 0 {
                n += check_one(kr * 9 + ff);
            }
            self.slider_captures(from, us.index(), role == 5, &mut |to| n += check_one(to));
        }
        n
    }

    /// Is the side to move without any legal move (checkmated or stalemated)?
    pub fn has_legal_move(&self) -> bool {
        // Generation is cheap; a dedicated early exit is not worth the code.
        self.count_legal_moves() > 0
    }

    /// Is `m` legal in this position? Agrees exactly with membership in [`Position::legal_moves`].
    pub fn is_legal(&self, m: Move) -> bool {
        let from = m.from().index();
        let to = m.to().index();
        let piece = self.board[from];
        if piece == EMPTY || code_color(piece) != self.side.index() {
            return false;
        }
        let target = self.board[to];
        if target != EMPTY && code_color(target) == self.side.index() {
            return false;
        }
        self.is_pseudo_legal(from, to, piece, target) && self.is_safe(from, to, piece)
    }
}

#[cfg(test)]
mod quiet_table_tests {
    use super::scan;
    use crate::tables::{FILE_QUIET, RANK_QUIET};

    /// The empty points before the first piece both ways from position `p` of a line of
    /// `width` points with occupancy `occ`, worked out on the bits from the line scan's
    /// first blockers (the tables' builder walks the points instead).
    fn quiet_by_bits(occ: u16, p: u32, width: u32) -> u16 {
        let full: u16 = (1 << width) - 1;
        let above_mask = full & !((2u16 << p) - 1);
        let below_mask = (1u16 << p) - 1;
        let line = scan(occ, p, width);
        let up = match line.first_up {
            0 => full,
            b => b - 1,
        };
        let down = match line.first_down {
            0 => full,
            b => !((b << 1) - 1),
        };
        up & above_mask | down & below_mask
    }

    /// The quiet tables hold what the bit arithmetic works out, for every position and
    /// occupancy.
    #[test]
    fn quiet_tables_agree_with_the_bits() {
        for (p, table) in RANK_QUIET.iter().enumerate() {
            for occ in 0..512u16 {
                let occ = occ | 1 << p;
                assert_eq!(table[occ as usize], quiet_by_bits(occ, p as u32, 9));
            }
        }
        for (p, table) in FILE_QUIET.iter().enumerate() {
            for occ in 0..1024u16 {
                let occ = occ | 1 << p;
                assert_eq!(table[occ as usize], quiet_by_bits(occ, p as u32, 10));
            }
        }
    }
}
