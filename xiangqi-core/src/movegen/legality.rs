//! The legality filter: pseudo-legal tests for moves from outside (`is_legal`), the
//! general-safety test after a move, and the danger and evasion squares that let most moves
//! skip it (see the module documentation of `movegen`).

use super::{bit_index, file_rank, line_danger, scan};
use crate::position::{code, code_color, code_role, Position, EMPTY};
use crate::tables::{
    ADVISOR_TARGETS, ELEPHANT_TARGETS, FILE_DOWN, FILE_SPREAD_HIGH, FILE_SPREAD_LOW, FILE_UP,
    HORSE_ATTACKERS, HORSE_TARGETS, KING_TARGETS, PAWN_ATTACKERS, PAWN_ATTACKER_SETS, PAWN_TARGETS,
    RANK_DOWN, RANK_OTHERS, RANK_UP, SQUARE_BITS,
};
use crate::{Color, Role};

impl Position {
    /// Can `piece` on `from` move to `to` by the movement rules (`target`: the code on `to`,
    /// empty or an enemy piece)? Tested for this one destination: a step-table bit and the
    /// blocking point for the short-range pieces, the pieces between on the line for the
    /// chariot and the cannon.
    #[inline]
    pub(super) fn is_pseudo_legal(&self, from: usize, to: usize, piece: u8, target: u8) -> bool {
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
    pub(super) fn is_safe(&self, from: usize, to: usize, piece: u8) -> bool {
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
    pub(super) fn danger_squares(&self, us: Color, ksq: usize) -> u128 {
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

    /// Out of check, for a capture `from`-`to` by a piece of ours other than the general,
    /// `from` being on the general's rank or file or diagonally next to it: is the general
    /// attacked once `from` is left? The capture changes the occupancy of `from` alone (`to`
    /// stays occupied, by our piece now), so only the line from the general through `from`
    /// can open (a chariot, the other general, or a cannon with one screen fewer behind it),
    /// or, for a point diagonally next to it, the leg of an enemy horse. The same answer as
    /// [`Position::exposes_general`] for such a move, without the danger squares or the
    /// other lines.
    #[inline(never)]
    pub(super) fn leaving_exposes(&self, us: Color, from: usize, to: usize, ksq: usize) -> bool {
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
    pub(super) fn exposes_general(&self, us: Color, from: usize, to: usize, ksq: usize) -> bool {
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
    pub(super) fn danger_halves(&self, us: Color, ksq: usize) -> [u64; 2] {
        let d = if self.st.in_check {
            self.evasion_squares(us, ksq)
        } else {
            self.danger_squares(us, ksq)
        };
        [d as u64, (d >> 64) as u64]
    }
}
