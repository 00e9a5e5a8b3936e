//! Static exchange evaluation (SEE) without touching the board.
//!
//! Every capture of an exchange lands on the same target point, which stays occupied
//! throughout; the only other change is that each capturing piece leaves its origin. So
//! the exchange is followed on a copy of the target's rank and file occupancy and a set of
//! vacated points, and the attackers are found by the movement rules on those: a chariot is
//! the first piece along a line, a cannon the second (a capture can add a screen or take one
//! away), a horse needs its leg empty and an elephant its eye (a piece leaving can empty
//! them), pawns, advisors and the general step as usual, and the opposing general attacks
//! along an open file only when a general stands on the target (flying general).

mod near;

use crate::movegen::highest_bit;
use crate::position::{code, code_role, Position, EMPTY};
use crate::tables::{
    Steps, ADVISOR_MOVES, ELEPHANT_MOVES, FILE_DOWN, FILE_UP, HORSE_ATTACKERS, KING_MOVES,
    PAWN_ATTACKERS, RANK_DOWN, RANK_UP, SQUARE_BITS,
};
use crate::{Color, Move, Role};
use near::{DIAGONAL, ELEPHANT, HORSE_LEG, KNIGHT, NEAR, ORTHOGONAL};

/// The longest list of gains followed: the capture and at most 37 recaptures (more than
/// the 32 pieces could ever make).
const MAX_GAINS: usize = 38;

/// No square (an index no square has).
const NONE: usize = usize::MAX;

/// The first two occupied positions above `p` in `occ` (single bits, 0 when none).
#[inline(always)]
fn two_above(occ: u16, p: usize) -> (u16, u16) {
    let above = occ & !((2u16 << p) - 1);
    let first = above & above.wrapping_neg();
    let rest = above ^ first;
    (first, rest & rest.wrapping_neg())
}

/// The first two occupied positions below `p` in `occ` (single bits, 0 when none).
#[inline(always)]
fn two_below(occ: u16, p: usize) -> (u16, u16) {
    let below = occ & ((1u16 << p) - 1);
    let first = highest_bit(below);
    (first, highest_bit(below ^ first))
}

/// The board as the exchange leaves it: the target's rank and file occupancy and the points
/// the capturing pieces have left.
struct Exchange<'a> {
    pos: &'a Position,
    to: usize,
    /// The target's file and rank.
    tf: usize,
    tr: usize,
    rank_occ: u16,
    file_occ: u16,
    vacated: u128,
}

impl<'a> Exchange<'a> {
    /// The exchange on `to`, once the piece on `from` has taken there.
    #[inline(always)]
    fn new(pos: &'a Position, from: usize, to: usize) -> Exchange<'a> {
        let (tf, tr) = (to % 9, to / 9);
        let mut ex = Exchange {
            pos,
            to,
            tf,
            tr,
            rank_occ: pos.rank_occ[tr],
            file_occ: pos.file_occ[tf],
            vacated: 0,
        };
        ex.vacate(from);
        ex
    }

    /// The piece a capturer leaves from: its origin becomes empty.
    #[inline(always)]
    fn vacate(&mut self, s: usize) {
        let b = &SQUARE_BITS[s & 127];
        self.vacated |= b.bit;
        // Its bits in the target's rank and file masks, when on those lines.
        if b.rank as usize == self.tr {
            self.rank_occ &= !b.rank_bit;
        }
        if b.file as usize == self.tf {
            self.file_occ &= !b.file_bit;
        }
    }

    /// Is `s` empty now?
    #[inline(always)]
    fn empty(&self, s: usize) -> bool {
        self.pos.board[s] == EMPTY || self.vacated & SQUARE_BITS[s & 127].bit != 0
    }

    /// Does the piece `c` still stand on `s`?
    #[inline(always)]
    fn holds(&self, s: usize, c: u8) -> bool {
        self.pos.board[s] == c && self.vacated & SQUARE_BITS[s & 127].bit == 0
    }

    /// The first point of the step table `t` (the points from which a stepping piece
    /// reaches the target) where the piece `c` still stands, its leg or eye (`t.via`)
    /// empty when `blockable`. Pieces of one kind are worth the same, so the first one is
    /// the one an exchange uses.
    #[inline(always)]
    fn step_attacker(&self, t: &Steps, c: u8, blockable: bool) -> Option<usize> {
        (0..t.len as usize)
            .map(|i| (t.to[i] as usize, t.via[i] as usize))
            .find(|&(s, via)| self.holds(s, c) && (!blockable || self.empty(via)))
            .map(|(s, _)| s)
    }

    /// The least valuable attacker of the target for `by` (the first one in the order of
    /// [`Position::attackers`] among equals), given the piece `on_target` standing there.
    /// `ordered`: the values are in the usual order (see [`in_usual_order`]), so that the
    /// kinds of attacker can be tried from the cheapest up, stopping at the first found.
    #[inline(always)]
    fn least_valuable_attacker(
        &self,
        by: Color,
        on_target: u8,
        values: &[i32; 7],
        ordered: bool,
    ) -> usize {
        if ordered {
            self.cheapest_attacker(by, on_target)
        } else {
            self.least_valuable_attacker_any_values(by, on_target, values)
        }
    }

    /// [`Exchange::least_valuable_attacker`] for values in the usual order: pawns, advisors,
    /// elephants, horses, cannons, chariots, the general, each kind in the order of
    /// [`Position::attackers`]; the first attacker found is the answer.
    #[inline(always)]
    fn cheapest_attacker(&self, by: Color, on_target: u8) -> usize {
        let board = &self.pos.board;
        let to = self.to;
        let (tf, tr) = (self.tf, self.tr);
        let near = &NEAR[to];
        // A filter only (the pieces that have captured are still in it).
        let ours = self.pos.by_color[by.index()];
        let orthogonal = ours & near[ORTHOGONAL] != 0;
        if orthogonal {
            if let Some(s) =
                self.step_attacker(&PAWN_ATTACKERS[by.index()][to], code(by, Role::Pawn), false)
            {
                return s;
            }
        }
        if ours & near[DIAGONAL] != 0 {
            if let Some(s) = self.step_attacker(
                &ADVISOR_MOVES[by.index()][to],
                code(by, Role::Advisor),
                false,
            ) {
                return s;
            }
        }
        if ours & near[ELEPHANT] != 0 {
            if let Some(s) = self.step_attacker(
                &ELEPHANT_MOVES[by.index()][to],
                code(by, Role::Elephant),
                true,
            ) {
                return s;
            }
        }
        let jumps = ours & near[KNIGHT];
        if jumps != 0 {
            // Our pieces a horse's jump away, from the lowest square up (the order of
            // `HORSE_ATTACKERS`): usually one or two, fewer than the table's entries.
            let horse = code(by, Role::Horse);
            for (half, base) in [(jumps as u64, 0), ((jumps >> 64) as u64, 64)] {
                let mut bits = half;
                while bits != 0 {
                    let s = base + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if self.holds(s, horse) {
                        let leg = to.wrapping_add(HORSE_LEG[(s + 19 - to) & 63] as usize) & 255;
                        if self.empty(leg) {
                            return s;
                        }
                    }
                }
            }
        }
        // The first and second pieces along the lines, in the order of `attackers`: rank
        // upward, rank downward, file upward, file downward (an always empty point past the 90th
        // when none).
        let (rank, file) = (self.rank_occ, self.file_occ);
        let ru = RANK_UP[(rank >> (tf + 1)) as u8 as usize];
        let rd = RANK_DOWN[(rank << (8 - tf)) as u8 as usize];
        let fu = FILE_UP[(file >> (tr + 1)) as usize & 511];
        let fd = FILE_DOWN[(file << (9 - tr)) as usize & 511];
        let firsts = [
            (to + ru[0] as usize) & 255,
            to.wrapping_sub(rd[0] as usize) & 255,
            (to + fu[0] as usize) & 255,
            to.wrapping_sub(fd[0] as usize) & 255,
        ];
        let seconds = [
            (to + ru[1] as usize) & 255,
            to.wrapping_sub(rd[1] as usize) & 255,
            (to + fu[1] as usize) & 255,
            to.wrapping_sub(fd[1] as usize) & 255,
        ];
        let cannon = code(by, Role::Cannon);
        for s in seconds {
            if board[s] == cannon {
                return s;
            }
        }
        let chariot = code(by, Role::Chariot);
        for s in firsts {
            if board[s] == chariot {
                return s;
            }
        }
        let king = code(by, Role::King);
        // The opposing general counts along the file only against a general (flying general).
        if on_target == code(by.other(), Role::King) {
            for s in [firsts[2], firsts[3]] {
                if board[s] == king {
                    return s;
                }
            }
        }
        if orthogonal {
            if let Some(s) = self.step_attacker(&KING_MOVES[by.index()][to], king, false) {
                return s;
            }
        }
        NONE
    }

    /// [`Exchange::least_valuable_attacker`] for any values: every attacker is looked at.
    #[inline(always)]
    fn least_valuable_attacker_any_values(
        &self,
        by: Color,
        on_target: u8,
        values: &[i32; 7],
    ) -> usize {
        let board = &self.pos.board;
        let to = self.to;
        let (tf, tr) = (self.tf, self.tr);
        let mut best = NONE;
        let mut best_value = 0;
        let mut consider = |s: usize, c: u8| {
            let v = values[code_role(c)];
            if best == NONE || v < best_value {
                best = s;
                best_value = v;
            }
        };

        let chariot = code(by, Role::Chariot);
        let cannon = code(by, Role::Cannon);
        let (u1, u2) = two_above(self.rank_occ, tf);
        let (d1, d2) = two_below(self.rank_occ, tf);
        for (first, second) in [(u1, u2), (d1, d2)] {
            if first != 0 {
                let s = tr * 9 + first.trailing_zeros() as usize;
                if board[s] == chariot {
                    consider(s, chariot);
                }
            }
            if second != 0 {
                let s = tr * 9 + second.trailing_zeros() as usize;
                if board[s] == cannon {
                    consider(s, cannon);
                }
            }
        }
        // The opposing general counts along the file only against a general (flying general).
        let flying = if on_target == code(by.other(), Role::King) {
            code(by, Role::King)
        } else {
            chariot
        };
        let (u1, u2) = two_above(self.file_occ, tr);
        let (d1, d2) = two_below(self.file_occ, tr);
        for (first, second) in [(u1, u2), (d1, d2)] {
            if first != 0 {
                let s = first.trailing_zeros() as usize * 9 + tf;
                let p = board[s];
                if p == chariot || p == flying {
                    consider(s, p);
                }
            }
            if second != 0 {
                let s = second.trailing_zeros() as usize * 9 + tf;
                if board[s] == cannon {
                    consider(s, cannon);
                }
            }
        }

        let near = &NEAR[to];
        // A filter only (the pieces that have captured are still in it).
        let ours = self.pos.by_color[by.index()];
        let bi = by.index();
        let steppers: [(usize, &Steps, Role, bool); 5] = [
            (KNIGHT, &HORSE_ATTACKERS[to], Role::Horse, true),
            (ORTHOGONAL, &PAWN_ATTACKERS[bi][to], Role::Pawn, false),
            (DIAGONAL, &ADVISOR_MOVES[bi][to], Role::Advisor, false),
            (ELEPHANT, &ELEPHANT_MOVES[bi][to], Role::Elephant, true),
            (ORTHOGONAL, &KING_MOVES[bi][to], Role::King, false),
        ];
        for (group, table, role, blockable) in steppers {
            if ours & near[group] != 0 {
                let c = code(by, role);
                if let Some(s) = self.step_attacker(table, c, blockable) {
                    consider(s, c);
                }
            }
        }
        best
    }
}

/// Are the exchange values in the usual order, pawn < advisor <= elephant < horse < cannon <
/// chariot < general? Then the cheapest attacker is the first found when the kinds are tried
/// in that order (an advisor and an elephant of equal value: the advisor, as
/// [`Position::attackers`] lists it first).
#[inline(always)]
fn in_usual_order(values: &[i32; 7]) -> bool {
    let v = |r: Role| values[r.index()];
    v(Role::Pawn) < v(Role::Advisor)
        && v(Role::Advisor) <= v(Role::Elephant)
        && v(Role::Elephant) < v(Role::Horse)
        && v(Role::Horse) < v(Role::Cannon)
        && v(Role::Cannon) < v(Role::Chariot)
        && v(Role::Chariot) < v(Role::King)
}

/// The exchange values by the role part of a board code (`code & 7`; 0 for no piece), so
/// that a piece's value is read without a range check. (Built from constant values, it is a
/// constant.)
#[inline(always)]
fn by_code(values: &[i32; 7]) -> [i32; 8] {
    let mut v = [0; 8];
    v[1..].copy_from_slice(values);
    v
}

impl Position {
    /// Static exchange evaluation: the material the side to move gains by the capture `m`
    /// followed by the best sequence of recaptures on its target point, each side taking
    /// back with its least valuable attacker and free to stop when that pays. `values` are
    /// the exchange values of the roles, indexed by [`Role::index`].
    ///
    /// Attackers are those of [`Position::attackers`] (the first of them wins a tie in
    /// value); pins are ignored, and the exchange ends once a general is taken. Nothing on
    /// the board changes: the exchange is followed on a copy of the target's lines. A move
    /// that captures nothing (or has no piece on its origin) gives 0; otherwise `m` should
    /// be a legal capture here.
    ///
    /// ```
    /// use xiangqi_core::{Position, Role};
    ///
    /// // Values by role: general, advisor, elephant, horse, chariot, cannon, pawn.
    /// let values = [10_000, 200, 200, 400, 900, 450, 100];
    /// assert_eq!(values[Role::Chariot.index()], 900);
    /// // The red chariot takes a pawn that a cannon defends over the horse (its screen):
    /// // it wins 100 and loses 900.
    /// let pos = Position::from_fen("4k4/9/4c4/4n4/4p3R/9/9/9/9/3K5 w - - 0 1")?;
    /// assert_eq!(pos.see(pos.parse_uci("i5e5")?, &values), 100 - 900);
    /// // With the horse gone the cannon has no screen, and the pawn is free.
    /// let pos = Position::from_fen("4k4/9/4c4/9/4p3R/9/9/9/9/3K5 w - - 0 1")?;
    /// assert_eq!(pos.see(pos.parse_uci("i5e5")?, &values), 100);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn see(&self, m: Move, values: &[i32; 7]) -> i32 {
        let from = m.from().index();
        let to = m.to().index();
        let victim = self.board[to];
        let mut on_target = self.board[from];
        if victim == EMPTY || on_target == EMPTY {
            return 0;
        }
        let mut ex = Exchange::new(self, from, to);
        let mut gain = [0i32; MAX_GAINS];
        gain[0] = values[code_role(victim)];
        let mut n = 1;
        let mut by = self.side.other();
        let ordered = in_usual_order(values);
        while n < MAX_GAINS {
            let s = ex.least_valuable_attacker(by, on_target, values, ordered);
            if s == NONE {
                break;
            }
            // What `by` gains by taking back: the piece on the target minus what it had.
            gain[n] = values[code_role(on_target)] - gain[n - 1];
            n += 1;
            if code_role(on_target) == Role::King.index() {
                // A general was taken: the exchange is over.
                break;
            }
            on_target = self.board[s];
            ex.vacate(s);
            by = by.other();
        }
        // Negamax the gains back: a side takes back only when it pays.
        while n > 1 {
            n -= 1;
            gain[n - 1] = -(-gain[n - 1]).max(gain[n]);
        }
        gain[0]
    }

    /// Does the capture `m` win at least `threshold` by exchange? The same answer as
    /// `self.see(m, values) >= threshold`, found with less work: the exchange is followed
    /// only until the answer cannot change, whatever the rest of it.
    ///
    /// ```
    /// use xiangqi_core::Position;
    ///
    /// let values = [10_000, 200, 200, 400, 900, 450, 100];
    /// let pos = Position::from_fen("4k4/9/4c4/4n4/4p3R/9/9/9/9/3K5 w - - 0 1")?;
    /// let m = pos.parse_uci("i5e5")?;
    /// assert!(pos.see_ge(m, -800, &values));
    /// assert!(!pos.see_ge(m, 0, &values));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn see_ge(&self, m: Move, threshold: i32, values: &[i32; 7]) -> bool {
        self.see_ge_with(m, threshold, values, in_usual_order(values))
    }

    /// [`Position::see_ge`], told whether the values are in the usual order (the tests
    /// compare both ways of finding the attackers).
    #[inline(always)]
    fn see_ge_with(&self, m: Move, threshold: i32, values: &[i32; 7], ordered: bool) -> bool {
        let from = m.from().index();
        let to = m.to().index();
        let victim = self.board[to];
        let mut on_target = self.board[from];
        if victim == EMPTY || on_target == EMPTY {
            return 0 >= threshold;
        }
        // With the gains g0, g1, .. gL of `see`, the result is min(g0, max(-g1, min(g2, ..))):
        // it is below the threshold as soon as an even gain is (the side that started can
        // stop no later), and reaches it as soon as an odd gain is at most -threshold (the
        // other side can stop there). Either holds whether or not the capture behind that gain
        // is made, so the attacker is looked for only when neither does. When the exchange
        // ends after gain d-1, the answer is the one for that gain: reached if d-1 is even.
        let value = by_code(values);
        let mut gain = value[(victim & 7) as usize];
        if gain < threshold {
            return false;
        }
        if gain - value[(on_target & 7) as usize] >= threshold {
            // Gain 1's test (below) without the exchange: the victim alone pays for the
            // attacker.
            return true;
        }
        let mut ex = Exchange::new(self, from, to);
        let mut by = self.side.other();
        let mut d = 1;
        loop {
            let odd = d % 2 == 1;
            if d >= MAX_GAINS {
                return odd;
            }
            gain = value[(on_target & 7) as usize] - gain;
            if odd {
                if -gain >= threshold {
                    return true;
                }
            } else if gain < threshold {
                return false;
            }
            let s = ex.least_valuable_attacker(by, on_target, values, ordered);
            if s == NONE {
                return odd;
            }
            if code_role(on_target) == Role::King.index() {
                // A general was taken: gain d is the last.
                return !odd;
            }
            on_target = self.board[s];
            ex.vacate(s);
            by = by.other();
            d += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Move, Position};

    const VALUES: [i32; 7] = [10_000, 200, 200, 400, 900, 450, 100];

    /// `see` as if the values were in no particular order (every attacker looked at).
    fn see_any_order(pos: &Position, m: Move, values: &[i32; 7]) -> i32 {
        // The threshold where `see_ge` turns false is the exchange's value.
        let mut lo = -20_000;
        let mut hi = 20_000;
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if pos.see_ge_with(m, mid, values, false) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    #[test]
    fn cheapest_first_search_agrees_with_the_full_one() {
        let fens = crate::test_support::suite_fens(true);
        let mut rand = crate::test_support::xorshift(0x1234_5678_9ABC_DEF1u64);
        // Advisor and elephant of different values too, and values out of the usual order.
        let other = [10_000, 250, 150, 400, 900, 450, 100];
        let odd = [10_000, 300, 200, 450, 900, 400, 100];
        assert!(super::in_usual_order(&VALUES));
        assert!(!super::in_usual_order(&other) && !super::in_usual_order(&odd));
        let mut exchanges = 0;
        for fen in fens {
            let start = Position::from_fen(fen).unwrap();
            for _ in 0..30 {
                let mut pos = start.clone();
                for _ in 0..100 {
                    let caps = pos.legal_captures();
                    for &m in &caps {
                        let expected = see_any_order(&pos, m, &VALUES);
                        assert_eq!(pos.see(m, &VALUES), expected, "see({m}) in {pos:?}");
                        for t in [expected - 1, expected, expected + 1] {
                            assert_eq!(pos.see_ge(m, t, &VALUES), expected >= t, "{m} {t} {pos:?}");
                        }
                        for values in [&other, &odd] {
                            let v = see_any_order(&pos, m, values);
                            assert_eq!(pos.see(m, values), v, "see({m}) in {pos:?}");
                        }
                        exchanges += 1;
                    }
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = if !caps.is_empty() && rand().is_multiple_of(3) {
                        caps[rand() as usize % caps.len()]
                    } else {
                        moves[rand() as usize % moves.len()]
                    };
                    pos.make_move(m);
                }
            }
        }
        assert!(exchanges > 20_000, "{exchanges} exchanges");
    }
}
