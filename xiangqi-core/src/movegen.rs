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

use crate::position::{code, code_color, code_role, Position, EMPTY};
use crate::tables::{
    Steps, ADVISOR_MOVES, ADVISOR_TARGETS, CAPTURE_REACH, CHECK_SOURCES, ELEPHANT_MOVES,
    ELEPHANT_TARGETS, EXPOSING, FILE_DOWN, FILE_QUIET, FILE_SPREAD_HIGH, FILE_SPREAD_LOW, FILE_UP,
    HORSE_ATTACKERS, HORSE_MOVES, HORSE_TARGETS, KING_MOVES, KING_TARGETS, LINES, PAWN_ATTACKERS,
    PAWN_ATTACKER_SETS, PAWN_MOVES, PAWN_TARGETS, RANK_DOWN, RANK_OTHERS, RANK_QUIET, RANK_UP,
    SQUARE_BITS,
};
use crate::{Color, Move, MoveList, Role, Square};
use arrayvec::ArrayVec;

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

#[inline(always)]
fn highest_bit(x: u16) -> u16 {
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
    /// Is `color`'s general attacked, including by the other general across an open file?
    #[inline]
    pub(crate) fn is_attacked_king(&self, color: Color) -> bool {
        let k = self.kings[color.index()] as usize;
        self.king_attacked_after(color, NO_SQ, NO_SQ, k)
    }

    /// After a move of `piece` from `from` to `to` (already made on the board), is the
    /// general of the side now to move attacked, given that it was not before the move?
    /// Only the moved piece and the lines and horse legs through `from` and `to` can have
    /// changed anything: a check is either given by the moved piece or discovered.
    #[inline(always)]
    pub(crate) fn gives_check_after(&self, from: usize, to: usize, piece: u8) -> bool {
        let us = code_color(piece) & 1;
        let ksq = self.kings[us ^ 1] as usize & 127;
        let (kf, kr) = file_rank(ksq);
        let (ff, fr) = file_rank(from);
        let (tf, tr) = file_rank(to);
        let color = if us == 0 { Color::Red } else { Color::Black };
        let chariot = code(color, Role::Chariot);
        let cannon = code(color, Role::Cannon);
        // The first and second pieces each way along the general's lines, from the ray
        // tables (an always empty point past the 90th when none).
        let board = &self.board;
        let up = |d: u8| (ksq + d as usize) & 255;
        let down = |d: u8| ksq.wrapping_sub(d as usize) & 255;
        if fr == kr || tr == kr {
            let occ = self.rank_occ[kr];
            let u = RANK_UP[(occ >> (kf + 1)) as u8 as usize];
            let d = RANK_DOWN[(occ << (8 - kf)) as u8 as usize];
            if board[up(u[0])] == chariot
                || board[up(u[1])] == cannon
                || board[down(d[0])] == chariot
                || board[down(d[1])] == cannon
            {
                return true;
            }
        }
        if ff == kf || tf == kf {
            let king = code(color, Role::King);
            let occ = self.file_occ[kf];
            let u = FILE_UP[(occ >> (kr + 1)) as usize & 511];
            let d = FILE_DOWN[(occ << (9 - kr)) as usize & 511];
            let (first_up, first_down) = (board[up(u[0])], board[down(d[0])]);
            if first_up == chariot
                || first_up == king
                || board[up(u[1])] == cannon
                || first_down == chariot
                || first_down == king
                || board[down(d[1])] == cannon
            {
                return true;
            }
        }
        let role = code_role(piece);
        // A horse moved, or a horse's leg (a point diagonally next to the general) vacated.
        if role == Role::Horse.index() || (ff.abs_diff(kf) == 1 && fr.abs_diff(kr) == 1) {
            let horse = code(color, Role::Horse);
            let ha = &HORSE_ATTACKERS[ksq];
            for i in 0..ha.len as usize {
                if self.board[ha.to[i] as usize] == horse && self.board[ha.via[i] as usize] == EMPTY
                {
                    return true;
                }
            }
        }
        if role == Role::Pawn.index() {
            let pa = &PAWN_ATTACKERS[us][ksq];
            for i in 0..pa.len as usize {
                if pa.to[i] as usize == to {
                    return true;
                }
            }
        }
        false
    }

    /// Does the legal move `m` of the side to move give check? The same answer as making
    /// `m` and asking [`Position::is_check`], found without making it: the same attack test
    /// as the legality filter's, on the other general, with the board read as the move
    /// leaves it (a direct check by the moved piece, a discovered one by the piece leaving
    /// `from`, or a cannon screen arriving on `to`). For a move that is not legal here the
    /// answer is unspecified.
    ///
    /// ```
    /// use xiangqi_core::Position;
    ///
    /// // The chariot steps onto the black general's open file: a direct check.
    /// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1")?;
    /// assert!(pos.gives_check(pos.parse_uci("f0e0")?));
    /// assert!(!pos.gives_check(pos.parse_uci("f0f1")?));
    /// // The horse leaves the chariot's file: a discovered check.
    /// let pos = Position::from_fen("4k4/9/9/9/9/9/4N4/9/9/3KR4 w - - 0 1")?;
    /// let m = pos.parse_uci("e3c4")?;
    /// assert!(pos.gives_check(m));
    /// let mut after = pos.clone();
    /// after.play(m)?;
    /// assert!(after.is_check());
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn gives_check(&self, m: Move) -> bool {
        let (from, to) = (m.from().index(), m.to().index());
        let them = self.side.other();
        let ksq = self.kings[them.index()] as usize;
        self.general_attacked_after::<true>(them, from, to, self.board[from], ksq)
    }

    /// Would `us`'s general, standing on `ksq`, be attacked after a piece of ours moves from
    /// `from` to `to`? (`NO_SQ` for both: as things stand.) The board is not changed.
    #[inline(always)]
    fn king_attacked_after(&self, us: Color, from: usize, to: usize, ksq: usize) -> bool {
        // Our moved piece is never an attacker of our general: any of ours will do.
        self.general_attacked_after::<false>(us, from, to, code(us, Role::King), ksq)
    }

    /// Would `us`'s general, standing on `ksq`, be attacked once the piece `moved` (of either
    /// side) goes from `from` to `to`, capturing what stands there? (`NO_SQ` for both: as
    /// things stand.) The board is not changed: the general's lines are read on their
    /// occupancy masks as the move leaves them. With a piece of ours moved, this is the
    /// legality test; with one of theirs (`THEIRS_MOVED`), whether the move gives check.
    #[inline(always)]
    fn general_attacked_after<const THEIRS_MOVED: bool>(
        &self,
        us: Color,
        from: usize,
        to: usize,
        moved: u8,
        ksq: usize,
    ) -> bool {
        let them = us.other();
        let (kf, kr) = (ksq % 9, ksq / 9);
        let chariot = code(them, Role::Chariot);
        let cannon = code(them, Role::Cannon);
        let king = code(them, Role::King);
        let horse = code(them, Role::Horse);
        let pawn = code(them, Role::Pawn);
        // The piece on `s` once the move is made, as far as attackers go: where a piece of
        // ours left, the code read is still ours (never an attacker), so only a point an
        // attacker left needs looking at. Lines never reach `from` (it is out of the masks).
        let at = |s: usize| -> u8 {
            if s == to {
                moved
            } else if THEIRS_MOVED && s == from {
                EMPTY
            } else {
                self.board[s]
            }
        };
        // Whether the point `s` is empty once the move is made.
        let empty = |s: usize| s == from || (s != to && self.board[s] == EMPTY);

        let mut rank_occ = self.rank_occ[kr];
        let mut file_occ = self.file_occ[kf];
        if from != NO_SQ {
            let (f, t) = (&SQUARE_BITS[from], &SQUARE_BITS[to]);
            if f.rank as usize == kr {
                rank_occ &= !f.rank_bit;
            }
            if f.file as usize == kf {
                file_occ &= !f.file_bit;
            }
            if t.rank as usize == kr {
                rank_occ |= t.rank_bit;
            }
            if t.file as usize == kf {
                file_occ |= t.file_bit;
            }
        }

        // The first and second pieces each way along the general's lines, from the ray
        // tables (an always empty point past the 90th when none).
        let up = |d: u8| (ksq + d as usize) & 255;
        let down = |d: u8| ksq.wrapping_sub(d as usize) & 255;
        // The enemy pieces, with the moved one where it lands when it is theirs (where
        // ours captures one, the set keeps it: the filters below only skip the look when
        // there is none).
        let mut enemies = self.by_color[them.index()];
        if THEIRS_MOVED {
            enemies |= SQUARE_BITS[to].bit;
        }
        // The rank only when an enemy piece stands on it (rarely, for a general in its
        // palace).
        if RANK_OTHERS[ksq] & enemies != 0 {
            let u = RANK_UP[(rank_occ >> (kf + 1)) as u8 as usize];
            let d = RANK_DOWN[(rank_occ << (8 - kf)) as u8 as usize];
            if at(up(u[0])) == chariot
                || at(up(u[1])) == cannon
                || at(down(d[0])) == chariot
                || at(down(d[1])) == cannon
            {
                return true;
            }
        }
        let u = FILE_UP[(file_occ >> (kr + 1)) as usize & 511];
        let d = FILE_DOWN[(file_occ << (9 - kr)) as usize & 511];
        let (first_up, first_down) = (at(up(u[0])), at(down(d[0])));
        if first_up == chariot
            || first_up == king
            || at(up(u[1])) == cannon
            || first_down == chariot
            || first_down == king
            || at(down(d[1])) == cannon
        {
            return true;
        }

        // Horses only when an enemy piece stands (or arrives) a horse's jump away (one table
        // load: the jumps are symmetric).
        if HORSE_TARGETS[ksq] & enemies != 0 {
            let ha = &HORSE_ATTACKERS[ksq];
            for i in 0..ha.len as usize {
                if at(ha.to[i] as usize) == horse && empty(ha.via[i] as usize) {
                    return true;
                }
            }
        }
        // Pawns only when an enemy piece stands (or arrives) where one would attack from.
        if PAWN_ATTACKER_SETS[them.index()][ksq] & enemies != 0 {
            let pa = &PAWN_ATTACKERS[them.index()][ksq];
            for i in 0..pa.len as usize {
                if at(pa.to[i] as usize) == pawn {
                    return true;
                }
            }
        }
        false
    }

    /// Is the side to move in check?
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// let pos = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1")?;
    /// assert!(!pos.is_check());
    /// # Ok::<_, xiangqi_core::FenError>(())
    /// ```
    #[inline]
    pub fn is_check(&self) -> bool {
        self.st.in_check
    }

    /// The pieces giving check to the side to move (empty when not in check).
    pub fn checkers(&self) -> ArrayVec<Square, 16> {
        let us = self.side;
        let ksq = self.king_square(us);
        let mut out = ArrayVec::new();
        for s in self.attackers(ksq, us.other()) {
            out.push(s);
        }
        out
    }

    /// Is `square` attacked by a piece of `by`: could one of `by`'s pieces move there
    /// (capturing whatever stands there) by the movement rules, ignoring whether the move
    /// would expose `by`'s own general? Generals attack only the points next to them.
    pub fn is_attacked(&self, square: Square, by: Color) -> bool {
        !self.attackers(square, by).is_empty()
    }

    /// The pieces of `by` that attack `square` (see [`Position::is_attacked`]).
    pub fn attackers(&self, square: Square, by: Color) -> ArrayVec<Square, 16> {
        let s = square.index();
        let mut out = ArrayVec::new();
        let (sf, sr) = (s % 9, s / 9);
        let chariot = code(by, Role::Chariot);
        let cannon = code(by, Role::Cannon);
        let r = scan(self.rank_occ[sr], sf as u32, 9);
        for (first, second) in [(r.first_up, r.second_up), (r.first_down, r.second_down)] {
            if first != 0 && self.board[sr * 9 + bit_index(first)] == chariot {
                out.push(Square::from_index_unchecked(
                    (sr * 9 + bit_index(first)) as u8,
                ));
            }
            if second != 0 && self.board[sr * 9 + bit_index(second)] == cannon {
                out.push(Square::from_index_unchecked(
                    (sr * 9 + bit_index(second)) as u8,
                ));
            }
        }
        let f = scan(self.file_occ[sf], sr as u32, 10);
        for (first, second) in [(f.first_up, f.second_up), (f.first_down, f.second_down)] {
            if first != 0 {
                let t = bit_index(first) * 9 + sf;
                let p = self.board[t];
                // The opposing general "attacks" along an open file (flying general) only
                // when the target is our own general.
                let flying =
                    p == code(by, Role::King) && self.board[s] == code(by.other(), Role::King);
                if p == chariot || flying {
                    out.push(Square::from_index_unchecked(t as u8));
                }
            }
            if second != 0 && self.board[bit_index(second) * 9 + sf] == cannon {
                out.push(Square::from_index_unchecked(
                    (bit_index(second) * 9 + sf) as u8,
                ));
            }
        }
        let ha = &HORSE_ATTACKERS[s];
        for i in 0..ha.len as usize {
            let h = ha.to[i] as usize;
            if self.board[h] == code(by, Role::Horse) && self.board[ha.via[i] as usize] == EMPTY {
                out.push(Square::from_index_unchecked(h as u8));
            }
        }
        let pa = &PAWN_ATTACKERS[by.index()][s];
        for i in 0..pa.len as usize {
            if self.board[pa.to[i] as usize] == code(by, Role::Pawn) {
                out.push(Square::from_index_unchecked(pa.to[i]));
            }
        }
        // Short-range defenders: the step tables are symmetric, so a piece on a destination
        // of `s`'s step table attacks `s` (with the eye point between for elephants).
        let short = |out: &mut ArrayVec<Square, 16>, t: &Steps, role: Role, blockable: bool| {
            for i in 0..t.len as usize {
                let from = t.to[i] as usize;
                if self.board[from] == code(by, role)
                    && (!blockable || self.board[t.via[i] as usize] == EMPTY)
                {
                    out.push(Square::from_index_unchecked(from as u8));
                }
            }
        };
        short(
            &mut out,
            &ADVISOR_MOVES[by.index()][s],
            Role::Advisor,
            false,
        );
        short(
            &mut out,
            &ELEPHANT_MOVES[by.index()][s],
            Role::Elephant,
            true,
        );
        short(&mut out, &KING_MOVES[by.index()][s], Role::King, false);
        out
    }

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

    /// Can `piece` on `from` move to `to` by the movement rules (`target`: the code on `to`,
    /// empty or an enemy piece)? Tested for this one destination: a step-table bit and the
    /// blocking point for the short-range pieces, the pieces between on the line for the
    /// chariot and the cannon.
    #[inline]
    fn is_pseudo_legal(&self, from: usize, to: usize, piece: u8, target: u8) -> bool {
        let us = code_color(piece);
        let bit = SQUARE_BITS[to].bit;
        match code_role(piece) {
            0 => KING_TARGETS[us][from] & bit != 0,
            1 => ADVISOR_TARGETS[us][from] & bit != 0,
            // The eye is the midpoint of the two-point diagonal step.
            2 => ELEPHANT_TARGETS[us][from] & bit != 0 && self.board[(from + to) / 2] == EMPTY,
            3 => {
                if HORSE_TARGETS[from] & bit == 0 {
                    return false;
                }
                // The leg: one point from `from` along the two-point side of the L.
                let (ff, fr, tf, tr) = (from % 9, from / 9, to % 9, to / 9);
                let leg = if fr.abs_diff(tr) == 2 {
                    (fr + tr) / 2 * 9 + ff
                } else {
                    fr * 9 + (ff + tf) / 2
                };
                self.board[leg] == EMPTY
            }
            6 => PAWN_TARGETS[us][from] & bit != 0,
            role => {
                let (ff, fr, tf, tr) = (from % 9, from / 9, to % 9, to / 9);
                // The occupancy strictly between `a` and `b` on a line mask.
                let between = |occ: u16, a: usize, b: usize| -> u32 {
                    let (lo, hi) = (a.min(b), a.max(b));
                    (occ & ((1u16 << hi) - (2u16 << lo))).count_ones()
                };
                let n = if fr == tr {
                    between(self.rank_occ[fr], ff, tf)
                } else if ff == tf {
                    between(self.file_occ[ff], fr, tr)
                } else {
                    return false;
                };
                // A chariot needs a clear line; a cannon too for a quiet move, and exactly
                // one screen for a capture.
                n == (role == 5 && target != EMPTY) as u32
            }
        }
    }

    /// Is our general safe after the pseudo-legal move `from`-`to` of `piece`?
    #[inline(always)]
    fn is_safe(&self, from: usize, to: usize, piece: u8) -> bool {
        let us = self.side;
        if piece == code(us, Role::King) {
            return !self.king_attacked_after(us, from, to, to);
        }
        let k = self.kings[us.index()] as usize;
        if !self.st.in_check {
            // Out of check, only the danger squares matter (see `danger_squares`): leaving
            // one on the general's rank or file or diagonally next to it, or entering one
            // on its rank or file (a new cannon screen). Other moves are safe.
            let (kf, kr) = file_rank(k);
            let (ff, fr) = file_rank(from);
            let (tf, tr) = file_rank(to);
            if ff != kf
                && fr != kr
                && (ff.abs_diff(kf) != 1 || fr.abs_diff(kr) != 1)
                && tf != kf
                && tr != kr
            {
                return true;
            }
        }
        !self.king_attacked_after(us, from, to, k)
    }

    /// Calls `emit(to)` for every pseudo-legal destination of the piece `piece` on `from`
    /// (empty points and enemy pieces), for [`Position::count_legal_moves`].
    #[inline(always)]
    fn piece_moves(&self, from: usize, piece: u8, emit: &mut impl FnMut(usize)) {
        let us = code_color(piece);
        let mut step = |t: &Steps, blockable: bool| {
            for i in 0..t.len as usize {
                let to = t.to[i] as usize;
                let target = self.board[to];
                if (target == EMPTY || code_color(target) != us)
                    && (!blockable || self.board[t.via[i] as usize] == EMPTY)
                {
                    emit(to);
                }
            }
        };
        match code_role(piece) {
            0 => step(&KING_MOVES[us][from], false),
            1 => step(&ADVISOR_MOVES[us][from], false),
            2 => step(&ELEPHANT_MOVES[us][from], true),
            3 => step(&HORSE_MOVES[from], true),
            6 => step(&PAWN_MOVES[us][from], false),
            role => {
                self.slider_quiet_moves(from, emit);
                self.slider_captures(from, us, role == 5, emit);
            }
        }
    }

    /// The squares where a move of one of our pieces (other than the general) could expose
    /// our general, when we are not in check: a move needs the full test only if it leaves
    /// or enters one of these squares.
    ///
    /// Along each of the four lines from the general we look at the first three pieces. A
    /// single move can only expose the general along a line that holds an enemy chariot,
    /// cannon or general among them (a piece behind three others stays blocked: one move
    /// removes at most one screen, and a cannon capturing along the line keeps the count);
    /// the points from the general up to and including that attacker are marked. A horse
    /// can only be let in by vacating its leg, a point diagonally next to our general: those
    /// legs are marked when the enemy horse is there.
    #[inline(always)]
    fn danger_squares(&self, us: Color, ksq: usize) -> u128 {
        let them = us.other();
        // The codes of the pieces that attack along a line, as bits.
        let on_rank: u16 = 1 << code(them, Role::Chariot) | 1 << code(them, Role::Cannon);
        let on_file = on_rank | 1 << code(them, Role::King);
        let (kf, kr) = (ksq % 9, ksq / 9);
        // The general's rank only when an enemy piece stands on it (rarely).
        let rank = if RANK_OTHERS[ksq] & self.by_color[them.index()] != 0 {
            line_danger(self.rank_occ[kr], kf as u32, on_rank, |q| {
                self.board[kr * 9 + q]
            })
        } else {
            0
        };
        let file = line_danger(self.file_occ[kf], kr as u32, on_file, |q| {
            self.board[q * 9 + kf]
        });
        let mut danger = (rank as u128) << (kr * 9)
            | (FILE_SPREAD_LOW[file as usize & 31] | FILE_SPREAD_HIGH[(file as usize >> 5) & 31])
                << kf;
        // Horse legs only when an enemy piece stands a horse's jump away.
        if HORSE_TARGETS[ksq] & self.by_color[them.index()] != 0 {
            let horse = code(them, Role::Horse);
            let ha = &HORSE_ATTACKERS[ksq];
            for i in 0..ha.len as usize {
                if self.board[ha.to[i] as usize] == horse {
                    danger |= SQUARE_BITS[ha.via[i] as usize].bit;
                }
            }
        }
        danger
    }

    /// The empty points up to the first piece either way along the rank and the file of
    /// `from`, from the quiet tables (one load a line): bit `f` of the first for file `f`
    /// of the rank, bit `r` of the second for rank `r` of the file.
    #[inline(always)]
    fn slider_quiets(&self, from: usize) -> (u16, u16) {
        let (ff, fr) = file_rank(from);
        (
            RANK_QUIET[ff][self.rank_occ[fr] as usize & 511],
            FILE_QUIET[fr][self.file_occ[ff] as usize & 1023],
        )
    }

    /// Calls `emit(to)` for each of the [`Position::slider_quiets`] points of `from`, the
    /// rank's first (files upward), then the file's (ranks upward).
    #[inline(always)]
    fn slider_quiet_moves(&self, from: usize, emit: &mut impl FnMut(usize)) {
        let (ff, fr) = file_rank(from);
        let (mut rank, mut file) = self.slider_quiets(from);
        while rank != 0 {
            emit(fr * 9 + rank.trailing_zeros() as usize);
            rank &= rank - 1;
        }
        while file != 0 {
            emit(file.trailing_zeros() as usize * 9 + ff);
            file &= file - 1;
        }
    }

    /// [`Position::line_captures`] of the chariot, or of the cannon when `cannon`, on `from`.
    #[inline(always)]
    fn slider_captures(&self, from: usize, us: usize, cannon: bool, emit: &mut impl FnMut(usize)) {
        if cannon {
            self.line_captures::<true>(from, us, emit);
        } else {
            self.line_captures::<false>(from, us, emit);
        }
    }

    /// Calls `emit(to)` for each capture of the chariot (or, with `CANNON`, the cannon) on
    /// `from` of colour index `us`: the first (or second) piece along its rank upward and
    /// downward, then along its file, when an enemy's. The
    /// targets are read from the ray tables (one load a direction, an always empty point
    /// past the 90th when there is none) rather than isolated bit by bit on the masks.
    #[inline(always)]
    fn line_captures<const CANNON: bool>(
        &self,
        from: usize,
        us: usize,
        emit: &mut impl FnMut(usize),
    ) {
        let (ff, fr) = file_rank(from);
        let (rank, file) = (self.rank_occ[fr], self.file_occ[ff]);
        let k = CANNON as usize;
        let ru = RANK_UP[(rank >> (ff + 1)) as u8 as usize][k] as usize;
        let rd = RANK_DOWN[(rank << (8 - ff)) as u8 as usize][k] as usize;
        let fu = FILE_UP[(file >> (fr + 1)) as usize & 511][k] as usize;
        let fd = FILE_DOWN[(file << (9 - fr)) as usize & 511][k] as usize;
        for to in [
            (from + ru) & 255,
            from.wrapping_sub(rd) & 255,
            (from + fu) & 255,
            from.wrapping_sub(fd) & 255,
        ] {
            let target = self.board[to];
            if target != EMPTY && code_color(target) != us {
                emit(to);
            }
        }
    }

    /// The capture generator: what `moves_into::<ALL>` gives of the captures, in the same order, written
    /// out for the quiescence search's sake (no callbacks, the per-piece work hoisted, the
    /// sliders' targets read off the ray tables).
    #[inline(always)]
    fn captures_into(&self, list: &mut MoveList) {
        match self.side {
            Color::Red => self.captures_of::<0>(list),
            Color::Black => self.captures_of::<1>(list),
        }
    }

    /// [`Position::captures_into`] for the side to move, of colour index `UI`: a copy per
    /// colour, so that the colour's tables are at fixed addresses.
    #[inline(always)]
    fn captures_of<const UI: usize>(&self, list: &mut MoveList) {
        let us = if UI == 0 { Color::Red } else { Color::Black };
        let ui = UI;
        let ksq = self.kings[ui] as usize;
        let enemies = self.by_color[ui ^ 1];
        let in_check = self.st.in_check;
        let exposing = EXPOSING[ksq & 127];
        let exposing = [exposing as u64, (exposing >> 64) as u64];
        // Is the capture `from`-`to` legal? (`king`: the general is the piece moving.)
        let legal = |from: usize, to: usize, king: bool| -> bool {
            if king {
                return !self.exposes_general(us, from, to, to);
            }
            if !in_check {
                // A capture leaves `to` occupied and takes an enemy piece away, so only
                // leaving `from` can expose the general, and only from a point of its rank
                // or file or diagonally next to it (`EXPOSING`, one bit test).
                if (exposing[(from >> 6) & 1] >> (from & 63)) & 1 == 0 {
                    return true;
                }
                return !self.leaving_exposes(us, from, to, ksq);
            }
            // In check, a capture by a piece other than the general can only end it by
            // taking a checker (which stands on a point of CHECK_SOURCES) or by leaving the
            // general's rank or file (a cannon's screen): `to` stays occupied, so nothing
            // else changes on the check lines, and a checking horse's leg is empty. Any
            // other capture leaves the check; the rest get the full test.
            if (CHECK_SOURCES[ui ^ 1][ksq & 127] & SQUARE_BITS[to].bit) == 0
                && (LINES[ksq & 127] & SQUARE_BITS[from].bit) == 0
            {
                return false;
            }
            !self.exposes_general(us, from, to, ksq)
        };
        let own = self.by_color[ui];
        for (half, base) in [(own as u64, 0usize), ((own >> 64) as u64, 64)] {
            let mut bits = half;
            while bits != 0 {
                let from = (base + bits.trailing_zeros() as usize) & 127;
                bits &= bits - 1;
                let piece = self.board[from];
                // Most pieces have no enemy piece within reach: skipped on one load.
                if CAPTURE_REACH[ui][piece as usize & 7][from] & enemies == 0 {
                    continue;
                }
                let (steps, blockable) = match code_role(piece) {
                    0 => (&KING_MOVES[ui][from], false),
                    1 => (&ADVISOR_MOVES[ui][from], false),
                    2 => (&ELEPHANT_MOVES[ui][from], true),
                    3 => (&HORSE_MOVES[from], true),
                    6 => (&PAWN_MOVES[ui][from], false),
                    role @ (4 | 5) => {
                        self.slider_captures(from, ui, role == 5, &mut |to| {
                            if legal(from, to, false) {
                                list.push(Move::from_distinct(from, to));
                            }
                        });
                        continue;
                    }
                    _ => continue,
                };
                let king = code_role(piece) == 0;
                for i in 0..steps.len as usize {
                    let to = steps.to[i] as usize;
                    let target = self.board[to];
                    if target != EMPTY
                        && code_color(target) != ui
                        && (!blockable || self.board[steps.via[i] as usize] == EMPTY)
                        && legal(from, to, king)
                    {
                        list.push(Move::from_distinct(from, to));
                    }
                }
            }
        }
    }

    /// Out of check, for a capture `from`-`to` by a piece of ours other than the general,
    /// `from` being on the general's rank or file or diagonally next to it: is the general
    /// attacked once `from` is left? The capture changes the occupancy of `from` alone (`to`
    /// stays occupied, by our piece now), so only the line from the general through `from`
    /// can open (a chariot, the other general, or a cannon with one screen fewer behind it),
    /// or, for a point diagonally next to it, the leg of an enemy horse. The same answer as
    /// [`Position::exposes_general`] for such a move, without the danger squares or the
    /// other lines.
    #[inline(never)]
    fn leaving_exposes(&self, us: Color, from: usize, to: usize, ksq: usize) -> bool {
        let them = us.other();
        let (kf, kr) = file_rank(ksq);
        let (ff, fr) = file_rank(from);
        let board = &self.board;
        // The piece on `s` after the capture, when it may be an enemy (ours stands on `to`).
        let at = |s: usize| if s == to { EMPTY } else { board[s] };
        let up = |d: u8| (ksq + d as usize) & 255;
        let down = |d: u8| ksq.wrapping_sub(d as usize) & 255;
        let chariot = code(them, Role::Chariot);
        let cannon = code(them, Role::Cannon);
        if fr == kr {
            let occ = self.rank_occ[kr] & !(1u16 << ff);
            let (first, second) = if ff > kf {
                let u = RANK_UP[(occ >> (kf + 1)) as u8 as usize];
                (up(u[0]), up(u[1]))
            } else {
                let d = RANK_DOWN[(occ << (8 - kf)) as u8 as usize];
                (down(d[0]), down(d[1]))
            };
            at(first) == chariot || at(second) == cannon
        } else if ff == kf {
            let occ = self.file_occ[kf] & !(1u16 << fr);
            let (first, second) = if fr > kr {
                let u = FILE_UP[(occ >> (kr + 1)) as usize & 511];
                (up(u[0]), up(u[1]))
            } else {
                let d = FILE_DOWN[(occ << (9 - kr)) as usize & 511];
                (down(d[0]), down(d[1]))
            };
            let first = at(first);
            first == chariot || first == code(them, Role::King) || at(second) == cannon
        } else {
            // `from` is the leg of the horse points one step further from the general
            // along its file, or along its rank (off the board: an always empty point).
            let horse = code(them, Role::Horse);
            let beside = (from + ff).wrapping_sub(kf) & 255;
            let beyond = (from + 9 * fr).wrapping_sub(9 * kr) & 255;
            at(beside) == horse || at(beyond) == horse
        }
    }

    /// [`Position::king_attacked_after`] kept out of line, so that the generator's
    /// per-move code stays small enough to inline (most moves need no test).
    #[inline(never)]
    fn exposes_general(&self, us: Color, from: usize, to: usize, ksq: usize) -> bool {
        self.king_attacked_after(us, from, to, ksq)
    }

    /// The squares a move of one of our pieces (other than the general) must leave or enter
    /// to have any chance of resolving the check we are in: for each checker, its square
    /// and the points strictly between it and our general (a chariot's or the other
    /// general's line, a cannon's line with its screen), and a checking horse's leg. A move
    /// touching none of them leaves every check in place.
    fn evasion_squares(&self, us: Color, ksq: usize) -> u128 {
        let them = us.other();
        let (kf, kr) = (ksq % 9, ksq / 9);
        let chariot = code(them, Role::Chariot);
        let cannon = code(them, Role::Cannon);
        let king = code(them, Role::King);
        // The points from the general (excluded) to the checker `b` (included), as a mask of
        // the line: `b` above the general's position `p` or below it.
        let span = |b: u16, p: u32| -> u16 {
            if b > (1 << p) {
                (b << 1).wrapping_sub(2 << p)
            } else {
                (1u16 << p).wrapping_sub(b)
            }
        };
        let mut rank = 0u16;
        // The general's rank only when an enemy piece stands on it (rarely).
        if RANK_OTHERS[ksq] & self.by_color[them.index()] != 0 {
            let r = scan(self.rank_occ[kr], kf as u32, 9);
            for (first, second) in [(r.first_up, r.second_up), (r.first_down, r.second_down)] {
                if first != 0 && self.board[kr * 9 + bit_index(first)] == chariot {
                    rank |= span(first, kf as u32);
                }
                if second != 0 && self.board[kr * 9 + bit_index(second)] == cannon {
                    rank |= span(second, kf as u32);
                }
            }
        }
        let mut file = 0u16;
        let f = scan(self.file_occ[kf], kr as u32, 10);
        for (first, second) in [(f.first_up, f.second_up), (f.first_down, f.second_down)] {
            if first != 0 {
                let p = self.board[bit_index(first) * 9 + kf];
                if p == chariot || p == king {
                    file |= span(first, kr as u32);
                }
            }
            if second != 0 && self.board[bit_index(second) * 9 + kf] == cannon {
                file |= span(second, kr as u32);
            }
        }
        let mut r = (rank as u128) << (kr * 9)
            | (FILE_SPREAD_LOW[file as usize & 31] | FILE_SPREAD_HIGH[(file as usize >> 5) & 31])
                << kf;
        // Horses and pawns only when an enemy piece stands where one would check from.
        let enemies = self.by_color[them.index()];
        if HORSE_TARGETS[ksq] & enemies != 0 {
            let horse = code(them, Role::Horse);
            let ha = &HORSE_ATTACKERS[ksq];
            for i in 0..ha.len as usize {
                let (h, leg) = (ha.to[i] as usize, ha.via[i] as usize);
                if self.board[h] == horse && self.board[leg] == EMPTY {
                    r |= SQUARE_BITS[h].bit | SQUARE_BITS[leg].bit;
                }
            }
        }
        if PAWN_ATTACKER_SETS[them.index()][ksq] & enemies != 0 {
            let pawn = code(them, Role::Pawn);
            let pa = &PAWN_ATTACKERS[them.index()][ksq];
            for i in 0..pa.len as usize {
                if self.board[pa.to[i] as usize] == pawn {
                    r |= SQUARE_BITS[pa.to[i] as usize].bit;
                }
            }
        }
        r
    }

    /// The squares a non-general move must leave or enter to need the full test, as two
    /// 64-bit halves, out of line (computed at most once per generation, and only when a
    /// piece other than the general needs it): when not in check, [`Position::danger_squares`] (a move touching
    /// none of them is legal); in check, [`Position::evasion_squares`] (a move touching
    /// none of them is illegal).
    #[inline(never)]
    #[cold]
    fn danger_halves(&self, us: Color, ksq: usize) -> [u64; 2] {
        let d = if self.st.in_check {
            self.evasion_squares(us, ksq)
        } else {
            self.danger_squares(us, ksq)
        };
        [d as u64, (d >> 64) as u64]
    }

    /// The core generator: appends every legal move (or every legal quiet move, for
    /// `QUIETS`) of the side to move to `list`, pieces in square order, each piece's
    /// destinations in the order of its step table (sliders: the empty points of the rank,
    /// then of the file, then the captures). Written out like [`Position::captures_into`]:
    /// no per-piece callbacks, the legality filter inline.
    #[inline(always)]
    fn moves_into<const KIND: u8>(&self, list: &mut MoveList) {
        match self.side {
            Color::Red => self.moves_of::<KIND, 0>(list),
            Color::Black => self.moves_of::<KIND, 1>(list),
        }
    }

    /// [`Position::moves_into`] for the side to move, of colour index `UI` (a copy per
    /// colour, like [`Position::captures_of`]).
    #[inline(always)]
    fn moves_of<const KIND: u8, const UI: usize>(&self, list: &mut MoveList) {
        let us = if UI == 0 { Color::Red } else { Color::Black };
        let ui = UI;
        let ksq = self.kings[ui] as usize;
        let in_check = self.st.in_check;
        // The squares a non-general move must touch to need the full test (see
        // `danger_halves`), as two 64-bit halves (bit tests without 128-bit shifts),
        // computed when a piece other than the general first needs them.
        let mut danger = [0u64; 2];
        let mut danger_known = false;
        let bit = |d: &[u64; 2], s: usize| (d[(s >> 6) & 1] >> (s & 63)) & 1 != 0;
        let own = self.by_color[ui];
        for (half, base) in [(own as u64, 0usize), ((own >> 64) as u64, 64)] {
            let mut bits = half;
            while bits != 0 {
                let from = (base + bits.trailing_zeros() as usize) & 127;
                bits &= bits - 1;
                let piece = self.board[from];
                let role = code_role(piece);
                let (steps, blockable) = match role {
                    0 => {
                        let steps = &KING_MOVES[ui][from];
                        for i in 0..steps.len as usize {
                            let to = steps.to[i] as usize;
                            let target = self.board[to];
                            let ok = if KIND == QUIETS {
                                target == EMPTY
                            } else {
                                target == EMPTY || code_color(target) != ui
                            };
                            if ok && !self.exposes_general(us, from, to, to) {
                                list.push(Move::from_distinct(from, to));
                            }
                        }
                        continue;
                    }
                    1 => (&ADVISOR_MOVES[ui][from], false),
                    2 => (&ELEPHANT_MOVES[ui][from], true),
                    3 => (&HORSE_MOVES[from], true),
                    6 => (&PAWN_MOVES[ui][from], false),
                    _ => {
                        if !danger_known {
                            danger = self.danger_halves(us, ksq);
                            danger_known = true;
                        }
                        let from_sensitive = bit(&danger, from);
                        // The usual case, out of check and leaving no danger square: only
                        // the destination decides (one flag for the loops below to branch on).
                        let quick = !from_sensitive && !in_check;
                        let legal = |to: usize| -> bool {
                            if quick {
                                !bit(&danger, to) || !self.exposes_general(us, from, to, ksq)
                            } else if from_sensitive || bit(&danger, to) {
                                !self.exposes_general(us, from, to, ksq)
                            } else {
                                !in_check
                            }
                        };
                        let mut emit = |to| {
                            if legal(to) {
                                list.push(Move::from_distinct(from, to));
                            }
                        };
                        self.slider_quiet_moves(from, &mut emit);
                        if KIND != QUIETS {
                            self.slider_captures(from, ui, role == 5, &mut emit);
                        }
                        continue;
                    }
                };
                // The danger squares are needed by nearly every piece: known before its loop
                // (then, as for the sliders, one flag for the usual case).
                if !danger_known {
                    danger = self.danger_halves(us, ksq);
                    danger_known = true;
                }
                let from_sensitive = bit(&danger, from);
                let quick = !from_sensitive && !in_check;
                for i in 0..steps.len as usize {
                    let to = steps.to[i] as usize;
                    let target = self.board[to];
                    let ok = if KIND == QUIETS {
                        target == EMPTY
                    } else {
                        target == EMPTY || code_color(target) != ui
                    };
                    if !ok || (blockable && self.board[steps.via[i] as usize] != EMPTY) {
                        continue;
                    }
                    let legal = if quick {
                        !bit(&danger, to) || !self.exposes_general(us, from, to, ksq)
                    } else if from_sensitive || bit(&danger, to) {
                        !self.exposes_general(us, from, to, ksq)
                    } else {
                        !in_check
                    };
                    if legal {
                        list.push(Move::from_distinct(from, to));
                    }
                }
            }
        }
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

#[cfg(test)]
mod gives_check_tests {
    use crate::{Position, Problems};

    /// `gives_check` against make, `is_check`, unmake for every legal move of `pos`.
    fn check_all(pos: &mut Position) -> usize {
        let mut checks = 0;
        for m in pos.legal_moves() {
            let predicted = pos.gives_check(m);
            let undo = pos.make_move(m);
            assert_eq!(predicted, pos.is_check(), "gives_check({m}) in {:?}", {
                let mut p = pos.clone();
                p.unmake_move(m, undo);
                p
            });
            pos.unmake_move(m, undo);
            checks += predicted as usize;
        }
        checks
    }

    #[test]
    fn gives_check_agrees_with_make_and_is_check_on_random_playouts() {
        let fens = crate::test_support::suite_fens(true);
        let mut rand = crate::test_support::xorshift(0x5DEE_CE66_D1CE_4E5Bu64);
        let (mut positions, mut checks) = (0, 0);
        for fen in fens {
            let start = Position::from_fen(fen).unwrap();
            for _ in 0..40 {
                let mut pos = start.clone();
                for _ in 0..150 {
                    checks += check_all(&mut pos);
                    positions += 1;
                    if rand() % 8 == 0 {
                        check_all(&mut pos.swap_colors());
                        check_all(&mut pos.flip_horizontal());
                    }
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    // Prefer captures half the time, to reach sparse endgames too.
                    let caps = pos.legal_captures();
                    let m = if !caps.is_empty() && rand() % 2 == 0 {
                        caps[rand() as usize % caps.len()]
                    } else {
                        moves[rand() as usize % moves.len()]
                    };
                    pos.make_move(m);
                }
            }
        }
        assert!(
            positions > 20_000 && checks > 20_000,
            "{positions} positions, {checks} checks"
        );
    }

    /// Positions accepted with the side not to move in check.
    #[test]
    fn gives_check_with_the_opponent_already_in_check() {
        for fen in [
            "3k5/9/9/9/9/9/9/9/9/3RK4 w - - 0 1",
            "3k5/9/9/9/9/9/9/9/4A4/2CRK4 w - - 0 1",
            "4k4/9/9/9/9/2n6/9/9/3p5/3K5 b - - 0 1",
            "rnbakabnr/9/1c2R2c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1",
        ] {
            let mut pos = Position::from_fen_allowing(fen, Problems::OPPONENT_IN_CHECK).unwrap();
            assert!(check_all(&mut pos) > 0, "{fen}");
        }
    }
}
