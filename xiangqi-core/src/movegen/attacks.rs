//! Check and attack tests: is a general attacked (now, or after a move), does a move give
//! check, which pieces attack a point.

use super::{bit_index, file_rank, scan, NO_SQ};
use crate::position::{code, code_color, code_role, Position, EMPTY};
use crate::tables::{
    Steps, ADVISOR_MOVES, ELEPHANT_MOVES, FILE_DOWN, FILE_UP, HORSE_ATTACKERS, HORSE_TARGETS,
    KING_MOVES, PAWN_ATTACKERS, PAWN_ATTACKER_SETS, RANK_DOWN, RANK_OTHERS, RANK_UP, SQUARE_BITS,
};
use crate::{Color, Move, Role, Square};
use arrayvec::ArrayVec;

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
    pub(super) fn king_attacked_after(
        &self,
        us: Color,
        from: usize,
        to: usize,
        ksq: usize,
    ) -> bool {
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
                    if rand().is_multiple_of(8) {
                        check_all(&mut pos.swap_colors());
                        check_all(&mut pos.flip_horizontal());
                    }
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    // Prefer captures half the time, to reach sparse endgames too.
                    let caps = pos.legal_captures();
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
