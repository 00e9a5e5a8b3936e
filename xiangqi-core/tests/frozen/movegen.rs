//! A frozen copy of the move generator as it was at commit 770f77c, kept for tests only:
//! the optimised generator must give exactly the same moves in exactly the same order.

#![allow(dead_code)]

use crate::position::{code, code_color, code_role, Position, EMPTY};
use crate::tables::{
    Steps, ADVISOR_MOVES, ADVISOR_TARGETS, ELEPHANT_MOVES, ELEPHANT_TARGETS, HORSE_ATTACKERS,
    HORSE_MOVES, HORSE_TARGETS, KING_MOVES, KING_TARGETS, PAWN_ATTACKERS, PAWN_MOVES, PAWN_TARGETS,
};
use crate::{Color, Move, MoveList, Role, Square};

/// Generation kinds (the `KIND` parameter of the generators): every move, captures only, or
/// quiet moves (non-captures) only.
const ALL: u8 = 0;
const CAPTURES: u8 = 1;
const QUIETS: u8 = 2;

/// A square index that is on no line and equals no square.
const NO_SQ: usize = 127;

/// Blockers on one line seen from position `p`: the first and second piece in the
/// upward direction and in the downward direction (bit masks with at most one bit each),
/// and the empty points before the first blocker both ways.
#[derive(Copy, Clone)]
struct LineScan {
    quiet: u16,
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
    let quiet_up = if first_up != 0 {
        first_up.wrapping_sub(1) & above_mask
    } else {
        above_mask
    };
    let below = occ & below_mask;
    let first_down = highest_bit(below);
    let second_down = highest_bit(below ^ first_down);
    let quiet_down = if first_down != 0 {
        below_mask & !((first_down << 1).wrapping_sub(1))
    } else {
        below_mask
    };
    LineScan {
        quiet: quiet_up | quiet_down,
        first_up,
        second_up,
        first_down,
        second_down,
    }
}

#[inline(always)]
fn bit_index(b: u16) -> usize {
    b.trailing_zeros() as usize
}

impl Position {
    /// Is `color`'s general attacked, including by the other general across an open file?
    #[inline]
    fn frozen_is_attacked_king(&self, color: Color) -> bool {
        let k = self.kings[color.index()] as usize;
        self.frozen_king_attacked_after(color, NO_SQ, NO_SQ, k)
    }

    /// `from` to `to`? (`NO_SQ` for both: as things stand.) The board is not changed.
    #[inline(always)]
    fn frozen_king_attacked_after(&self, us: Color, from: usize, to: usize, ksq: usize) -> bool {
        let them = us.other();
        let (kf, kr) = (ksq % 9, ksq / 9);
        let chariot = code(them, Role::Chariot);
        let cannon = code(them, Role::Cannon);
        let king = code(them, Role::King);
        let horse = code(them, Role::Horse);
        let pawn = code(them, Role::Pawn);
        // The piece on `s` once the move is made (captured pieces are gone; ours is on `to`).
        let at = |s: usize| -> u8 {
            if s == to {
                code(us, Role::King) // any of our pieces: never an attacker
            } else {
                self.board[s]
            }
        };

        let mut rank_occ = self.rank_occ[kr];
        let mut file_occ = self.file_occ[kf];
        if from != NO_SQ {
            if from / 9 == kr {
                rank_occ &= !(1 << (from % 9));
            }
            if from % 9 == kf {
                file_occ &= !(1 << (from / 9));
            }
            if to / 9 == kr {
                rank_occ |= 1 << (to % 9);
            }
            if to % 9 == kf {
                file_occ |= 1 << (to / 9);
            }
        }

        let r = scan(rank_occ, kf as u32, 9);
        for (first, second) in [(r.first_up, r.second_up), (r.first_down, r.second_down)] {
            if first != 0 && at(kr * 9 + bit_index(first)) == chariot {
                return true;
            }
            if second != 0 && at(kr * 9 + bit_index(second)) == cannon {
                return true;
            }
        }
        let f = scan(file_occ, kr as u32, 10);
        for (first, second) in [(f.first_up, f.second_up), (f.first_down, f.second_down)] {
            if first != 0 {
                let p = at(bit_index(first) * 9 + kf);
                if p == chariot || p == king {
                    return true;
                }
            }
            if second != 0 && at(bit_index(second) * 9 + kf) == cannon {
                return true;
            }
        }

        let ha = &HORSE_ATTACKERS[ksq];
        for i in 0..ha.len as usize {
            let h = ha.to[i] as usize;
            if h != to && self.board[h] == horse {
                let leg = ha.via[i] as usize;
                if leg == from || (leg != to && self.board[leg] == EMPTY) {
                    return true;
                }
            }
        }
        let pa = &PAWN_ATTACKERS[them.index()][ksq];
        for i in 0..pa.len as usize {
            let p = pa.to[i] as usize;
            if p != to && self.board[p] == pawn {
                return true;
            }
        }
        false
    }

    /// for `QUIETS`).
    #[inline(always)]
    fn frozen_piece_moves<const KIND: u8>(
        &self,
        from: usize,
        piece: u8,
        emit: &mut impl FnMut(usize),
    ) {
        let us = code_color(piece);
        let mut step = |t: &Steps, blockable: bool| {
            for i in 0..t.len as usize {
                let to = t.to[i] as usize;
                let target = self.board[to];
                let ok = match KIND {
                    CAPTURES => target != EMPTY && code_color(target) != us,
                    QUIETS => target == EMPTY,
                    _ => target == EMPTY || code_color(target) != us,
                };
                if ok && (!blockable || self.board[t.via[i] as usize] == EMPTY) {
                    emit(to);
                }
            }
        };
        // For captures, a stepping piece with no enemy piece on any destination is skipped
        // at once (most are).
        let enemies = self.by_color[us ^ 1];
        let skip = |targets: u128| KIND == CAPTURES && targets & enemies == 0;
        match code_role(piece) {
            0 if !skip(KING_TARGETS[us][from]) => step(&KING_MOVES[us][from], false),
            1 if !skip(ADVISOR_TARGETS[us][from]) => step(&ADVISOR_MOVES[us][from], false),
            2 if !skip(ELEPHANT_TARGETS[us][from]) => step(&ELEPHANT_MOVES[us][from], true),
            3 if !skip(HORSE_TARGETS[from]) => step(&HORSE_MOVES[from], true),
            6 if !skip(PAWN_TARGETS[us][from]) => step(&PAWN_MOVES[us][from], false),
            0..=3 | 6 => {}
            role => {
                let cannon = role == 5;
                let (ff, fr) = (from % 9, from / 9);
                let r = scan(self.rank_occ[fr], ff as u32, 9);
                let f = scan(self.file_occ[ff], fr as u32, 10);
                if KIND != CAPTURES {
                    let mut q = r.quiet;
                    while q != 0 {
                        emit(fr * 9 + q.trailing_zeros() as usize);
                        q &= q - 1;
                    }
                    let mut q = f.quiet;
                    while q != 0 {
                        emit(q.trailing_zeros() as usize * 9 + ff);
                        q &= q - 1;
                    }
                }
                if KIND != QUIETS {
                    self.frozen_slider_captures(from, &r, &f, cannon, us, emit);
                }
            }
        }
    }

    /// legs are marked when the enemy horse is there.
    #[inline(always)]
    fn frozen_danger_squares(&self, us: Color, ksq: usize) -> u128 {
        let them = us.other();
        let chariot = code(them, Role::Chariot);
        let cannon = code(them, Role::Cannon);
        let king = code(them, Role::King);
        let (kf, kr) = (ksq % 9, ksq / 9);
        let mut danger = 0u128;
        // (occupancy of the line, position of the general on it, step between squares,
        // square of position 0, whether this is the file)
        let lines = [
            (self.rank_occ[kr], kf as u32, 1usize, kr * 9, false),
            (self.file_occ[kf], kr as u32, 9usize, kf, true),
        ];
        for (occ, p, step, base, is_file) in lines {
            let above = occ & !((2u16 << p) - 1);
            let below = occ & ((1u16 << p) - 1);
            // Upward: lowest bits first.
            let mut bits = above;
            let mut far = None;
            for _ in 0..3 {
                if bits == 0 {
                    break;
                }
                let q = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let c = self.board[base + q * step];
                if c == chariot || c == cannon || (is_file && c == king) {
                    far = Some(q);
                }
            }
            if let Some(q) = far {
                for i in p as usize + 1..=q {
                    danger |= 1u128 << (base + i * step);
                }
            }
            // Downward: highest bits first.
            let mut bits = below;
            let mut far = None;
            for _ in 0..3 {
                if bits == 0 {
                    break;
                }
                let q = 15 - bits.leading_zeros() as usize;
                bits &= !(1 << q);
                let c = self.board[base + q * step];
                if c == chariot || c == cannon || (is_file && c == king) {
                    far = Some(q);
                }
            }
            if let Some(q) = far {
                for i in q..p as usize {
                    danger |= 1u128 << (base + i * step);
                }
            }
        }
        let horse = code(them, Role::Horse);
        let ha = &HORSE_ATTACKERS[ksq];
        for i in 0..ha.len as usize {
            if self.board[ha.to[i] as usize] == horse {
                danger |= 1u128 << ha.via[i];
            }
        }
        danger
    }

    /// the piece beyond the screen for a cannon, when it belongs to the other side.
    #[inline(always)]
    fn frozen_slider_captures(
        &self,
        from: usize,
        r: &LineScan,
        f: &LineScan,
        cannon: bool,
        us: usize,
        emit: &mut impl FnMut(usize),
    ) {
        let (ff, fr) = (from % 9, from / 9);
        let (ra, rb, fa, fb) = if cannon {
            (r.second_up, r.second_down, f.second_up, f.second_down)
        } else {
            (r.first_up, r.first_down, f.first_up, f.first_down)
        };
        for (b, on_rank) in [(ra, true), (rb, true), (fa, false), (fb, false)] {
            if b != 0 {
                let to = if on_rank {
                    fr * 9 + bit_index(b)
                } else {
                    bit_index(b) * 9 + ff
                };
                if code_color(self.board[to]) != us {
                    emit(to);
                }
            }
        }
    }

    /// The core generator: every legal move (or legal capture) of the side to move.
    #[inline(always)]
    fn frozen_generate<const KIND: u8>(&self, emit: &mut impl FnMut(Move)) {
        let us = self.side;
        let ksq = self.kings[us.index()] as usize;
        let danger = if self.frozen_is_attacked_king(self.side) {
            u128::MAX
        } else {
            self.frozen_danger_squares(us, ksq)
        };
        let king_code = code(us, Role::King);
        let mut bits = self.by_color[us.index()];
        while bits != 0 {
            let from = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let piece = self.board[from];
            let from_sq = Square::from_index_unchecked(from as u8);
            if piece == king_code {
                self.frozen_piece_moves::<KIND>(from, piece, &mut |to| {
                    if !self.frozen_king_attacked_after(us, from, to, to) {
                        emit(Move::new(from_sq, Square::from_index_unchecked(to as u8)));
                    }
                });
                continue;
            }
            let from_sensitive = (danger >> from) & 1 != 0;
            self.frozen_piece_moves::<KIND>(from, piece, &mut |to| {
                let sensitive = from_sensitive || (danger >> to) & 1 != 0;
                if !sensitive || !self.frozen_king_attacked_after(us, from, to, ksq) {
                    emit(Move::new(from_sq, Square::from_index_unchecked(to as u8)));
                }
            });
        }
    }

    /// The frozen generator's legal moves of one kind (0 all, 1 captures, 2 quiets).
    pub(crate) fn frozen_moves(&self, kind: u8) -> MoveList {
        let mut list = MoveList::new();
        match kind {
            ALL => self.frozen_generate::<ALL>(&mut |m| list.push(m)),
            CAPTURES => self.frozen_generate::<CAPTURES>(&mut |m| list.push(m)),
            _ => self.frozen_generate::<QUIETS>(&mut |m| list.push(m)),
        }
        list
    }

    /// The frozen check test.
    pub(crate) fn frozen_is_check(&self) -> bool {
        self.frozen_is_attacked_king(self.side)
    }
}

#[cfg(test)]
mod tests {
    use crate::Position;

    /// Compares the generator with the frozen copy: every kind, same moves, same order.
    fn compare(pos: &Position) {
        assert_eq!(pos.is_check(), pos.frozen_is_check(), "is_check of {pos:?}");
        let all = pos.legal_moves();
        assert_eq!(all, pos.frozen_moves(0), "legal moves of {pos:?}");
        assert_eq!(
            pos.legal_captures(),
            pos.frozen_moves(1),
            "captures of {pos:?}"
        );
        let mut quiets = crate::MoveList::new();
        pos.legal_quiets_into(&mut quiets);
        assert_eq!(quiets, pos.frozen_moves(2), "quiets of {pos:?}");
        assert_eq!(pos.count_legal_moves(), all.len(), "count of {pos:?}");
        // is_legal against the frozen list, for every pair of squares starting on our pieces.
        let mut legal = [0u128; 90];
        for m in &all {
            legal[m.from().index()] |= 1 << m.to().index();
        }
        for from in crate::Square::all() {
            if pos.board[from.index()] == crate::position::EMPTY
                || crate::position::code_color(pos.board[from.index()]) != pos.side.index()
            {
                continue;
            }
            for to in crate::Square::all() {
                if to != from {
                    let expected = (legal[from.index()] >> to.index()) & 1 != 0;
                    let m = crate::Move::new(from, to);
                    assert_eq!(pos.is_legal(m), expected, "is_legal({m}) in {pos:?}");
                }
            }
        }
    }

    /// Positions accepted with the side not to move in check: the check status must stay
    /// exact through moves and null moves.
    #[test]
    fn check_status_in_positions_accepted_with_the_opponent_in_check() {
        for fen in [
            "3k5/9/9/9/9/9/9/9/9/3RK4 w - - 0 1",
            "3k5/9/9/9/9/9/9/9/4A4/2CRK4 w - - 0 1",
            "4k4/9/9/9/9/2n6/9/9/3p5/3K5 b - - 0 1",
            "rnbakabnr/9/1c2R2c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1",
        ] {
            let start =
                Position::from_fen_allowing(fen, crate::Problems::OPPONENT_IN_CHECK).unwrap();
            assert!(start.frozen_is_attacked_king(start.side.other()), "{fen}");
            compare(&start);
            for m in start.frozen_moves(0) {
                let mut pos = start.clone();
                pos.make_move(m);
                compare(&pos);
                for m2 in pos.frozen_moves(0) {
                    let mut p2 = pos.clone();
                    p2.make_move(m2);
                    compare(&p2);
                }
                let mut nulled = start.clone();
                nulled.make_null();
                assert_eq!(nulled.is_check(), nulled.frozen_is_check(), "{fen} null");
            }
        }
    }

    #[test]
    fn generator_matches_the_frozen_copy_on_random_playouts() {
        let fens = crate::test_support::suite_fens(false);
        let mut rand = crate::test_support::xorshift(0x9E37_79B9_7F4A_7C15u64);
        let mut positions = 0;
        for fen in fens {
            let start = Position::from_fen(fen).unwrap();
            for _ in 0..80 {
                let mut pos = start.clone();
                for _ in 0..150 {
                    compare(&pos);
                    positions += 1;
                    let moves = pos.frozen_moves(0);
                    if moves.is_empty() {
                        break;
                    }
                    // Prefer captures half the time, to reach sparse endgames too.
                    let caps = pos.frozen_moves(1);
                    let m = if !caps.is_empty() && rand().is_multiple_of(2) {
                        caps[rand() as usize % caps.len()]
                    } else {
                        moves[rand() as usize % moves.len()]
                    };
                    pos.make_move(m);
                    if rand().is_multiple_of(16) {
                        compare(&pos.swap_colors());
                        compare(&pos.flip_horizontal());
                    }
                }
            }
        }
        assert!(positions > 20_000);
    }

    /// The perft and mate positions, then random playouts from them where every position
    /// on the way is also compared after each of its checking moves (so positions in
    /// check, single and double, are compared as often as the others).
    #[test]
    fn generator_matches_the_frozen_copy_in_check() {
        let fens = crate::test_support::suite_fens(true);
        let mut rand = crate::test_support::xorshift(0x2545_F491_4F6C_DD1Du64);
        let (mut in_check, mut double) = (0, 0);
        for fen in fens {
            let start = Position::from_fen(fen).unwrap();
            for _ in 0..24 {
                let mut pos = start.clone();
                for _ in 0..120 {
                    compare(&pos);
                    let moves = pos.frozen_moves(0);
                    if moves.is_empty() {
                        break;
                    }
                    for &m in &moves {
                        let mut next = pos.clone();
                        next.make_move(m);
                        if next.frozen_is_check() {
                            compare(&next);
                            in_check += 1;
                            double += (next.checkers().len() > 1) as usize;
                            if rand().is_multiple_of(8) {
                                compare(&next.swap_colors());
                                compare(&next.flip_horizontal());
                            }
                        }
                    }
                    let caps = pos.frozen_moves(1);
                    let m = if !caps.is_empty() && rand().is_multiple_of(2) {
                        caps[rand() as usize % caps.len()]
                    } else {
                        moves[rand() as usize % moves.len()]
                    };
                    pos.make_move(m);
                }
            }
        }
        assert!(
            in_check > 20_000 && double > 100,
            "{in_check} in check, {double} double"
        );
    }
}
