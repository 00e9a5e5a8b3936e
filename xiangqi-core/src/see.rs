//! Static exchange evaluation (SEE) without touching the board.
//!
//! Every capture of an exchange lands on the same target point, which stays occupied
//! throughout; the only other change is that each capturing piece leaves its origin. So the
//! attackers of the target are found once, for both sides, and each capture updates only
//! what its origin emptying can change: the target's rank or file through the origin (a
//! chariot behind the capturer comes into play, a cannon gains or loses its screen), or,
//! when an advisor leaves a point diagonally next to the target, the horse whose leg and
//! the elephant whose eye that was. A horse, an elephant or a piece on the target's lines
//! standing elsewhere can neither block nor screen anything on the way to the target.
//! The opposing general attacks along an open file only when a general stands on the
//! target (flying general).

use crate::position::{code, code_color, code_role, Position, EMPTY};
use crate::{Color, Move, Role};

/// The longest list of gains followed: the capture and at most 37 recaptures (more than
/// the 32 pieces could ever make).
const MAX_GAINS: usize = 38;

/// No slot (an index no slot has).
const NONE: usize = usize::MAX;

// The attackers of the target are kept as one bit set per side, a bit per *slot*: a place
// an attacker can stand, numbered in the order of `Position::attackers` so that the lowest
// slot wins a tie in value, as there. The line slots hold the first two pieces in each
// direction along the target's rank and file (the chariot's place and the cannon's place,
// and on the file the flying general's); the others are the points next to the target
// (pawns, advisors, generals), a horse's jump away and an elephant's step away, numbered
// in the order of the step tables (ascending origin for horses and pawns, the order of
// the deltas for the others).

/// First slot of the rank: up first (chariot), up second (cannon), down first, down second.
const RANK: usize = 0;
/// First slot of the file: up first (chariot), up first (flying general), up second
/// (cannon), then the same downwards.
const FILE: usize = 4;
/// First slot of the horses (8, by ascending origin).
const HORSES: usize = 10;
/// First slot of the pawns (4, by ascending origin: below, left, right, above).
const PAWNS: usize = 18;
/// First slot of the advisors (4: up right, down right, up left, down left).
const ADVISORS: usize = 22;
/// First slot of the elephants (4, in the same directions).
const ELEPHANTS: usize = 26;
/// First slot of the generals stepping (4: from the right, left, above, below).
const KINGS: usize = 30;
/// How many slots there are.
const SLOTS: usize = 34;
/// The slots of the flying general, live only against a general on the target.
const FLYING: u64 = 1 << (FILE + 1) | 1 << (FILE + 4);

/// The role of the attacker in each slot.
static SLOT_ROLE: [u8; SLOTS] = {
    let mut t = [0u8; SLOTS];
    let mut k = 0;
    while k < SLOTS {
        t[k] = if k < FILE {
            if k % 2 == 0 {
                Role::Chariot as u8
            } else {
                Role::Cannon as u8
            }
        } else if k < HORSES {
            match (k - FILE) % 3 {
                0 => Role::Chariot as u8,
                1 => Role::King as u8,
                _ => Role::Cannon as u8,
            }
        } else if k < PAWNS {
            Role::Horse as u8
        } else if k < ADVISORS {
            Role::Pawn as u8
        } else if k < ELEPHANTS {
            Role::Advisor as u8
        } else if k < KINGS {
            Role::Elephant as u8
        } else {
            Role::King as u8
        };
        k += 1;
    }
    t
};

/// Horse origins relative to the target as (file, rank) deltas, by ascending index delta.
const HORSE_DELTAS: [(i32, i32); 8] = [
    (-1, -2),
    (1, -2),
    (-2, -1),
    (2, -1),
    (-2, 1),
    (2, 1),
    (-1, 2),
    (1, 2),
];
/// Pawn origins (below, left, right, above: ascending).
const PAWN_DELTAS: [(i32, i32); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];
/// Advisor origins, in the order of the advisor table's deltas.
const ADVISOR_DELTAS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// General origins, in the order of the general table's deltas.
const KING_DELTAS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The index delta of a (file, rank) delta.
const fn delta(d: (i32, i32)) -> i32 {
    d.0 + 9 * d.1
}

/// For each slot off the lines: the index delta from the target to its origin.
static SLOT_OFFSET: [i8; SLOTS] = {
    let mut t = [0i8; SLOTS];
    let mut i = 0;
    while i < 8 {
        t[HORSES + i] = delta(HORSE_DELTAS[i]) as i8;
        i += 1;
    }
    let mut i = 0;
    while i < 4 {
        t[PAWNS + i] = delta(PAWN_DELTAS[i]) as i8;
        t[ADVISORS + i] = delta(ADVISOR_DELTAS[i]) as i8;
        t[ELEPHANTS + i] = 2 * delta(ADVISOR_DELTAS[i]) as i8;
        t[KINGS + i] = delta(KING_DELTAS[i]) as i8;
        i += 1;
    }
    t
};

/// A point a horse, advisor or elephant can attack from, by its index delta from the target
/// (+ 20): the slot, the role's code bits, and the delta of the point that must be empty
/// (the horse's leg, the elephant's eye; 0 for the advisor).
#[derive(Copy, Clone)]
struct Step {
    slot: u8,
    role: u8,
    block: i8,
}

/// [`Step`] of each index delta from -20 to 20 (role 0 for none).
static STEPS: [Step; 41] = {
    let none = Step {
        slot: 0,
        role: 0,
        block: 0,
    };
    let mut t = [none; 41];
    let mut i = 0;
    while i < 8 {
        let (df, dr) = HORSE_DELTAS[i];
        let leg = if dr == 2 || dr == -2 {
            (df, dr / 2)
        } else {
            (df / 2, dr)
        };
        t[(delta((df, dr)) + 20) as usize] = Step {
            slot: (HORSES + i) as u8,
            role: role_bits(Role::Horse),
            block: delta(leg) as i8,
        };
        i += 1;
    }
    let mut i = 0;
    while i < 4 {
        let d = delta(ADVISOR_DELTAS[i]);
        t[(d + 20) as usize] = Step {
            slot: (ADVISORS + i) as u8,
            role: role_bits(Role::Advisor),
            block: 0,
        };
        t[(2 * d + 20) as usize] = Step {
            slot: (ELEPHANTS + i) as u8,
            role: role_bits(Role::Elephant),
            block: d as i8,
        };
        i += 1;
    }
    t
};

/// For each target point: the points a horse, advisor or elephant could attack it from
/// (on the board, without wrapping around an edge).
static NEAR: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        while d < 8 {
            let (df, dr) = HORSE_DELTAS[d];
            t[s] |= on_board_bit(f + df, r + dr);
            if d < 4 {
                let (df, dr) = ADVISOR_DELTAS[d];
                t[s] |= on_board_bit(f + df, r + dr) | on_board_bit(f + 2 * df, r + 2 * dr);
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// The bit of the point (f, r), or 0 when it is off the board.
const fn on_board_bit(f: i32, r: i32) -> u128 {
    if f >= 0 && f < 9 && r >= 0 && r < 10 {
        1 << (r * 9 + f)
    } else {
        0
    }
}

/// For each point: 1 + the colour whose palace it is in, or 0.
static PALACE: [u8; 90] = {
    let mut t = [0u8; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = (s % 9, s / 9);
        if f >= 3 && f <= 5 {
            if r <= 2 {
                t[s] = 1;
            } else if r >= 7 {
                t[s] = 2;
            }
        }
        s += 1;
    }
    t
};

/// Is rank `r` on the home side (not across the river) of colour `color`?
#[inline(always)]
fn own_side(color: usize, r: usize) -> bool {
    (r >= 5) == (color == 1)
}

/// The low three bits of the board code of a role (the colour is bit 3).
const fn role_bits(role: Role) -> u8 {
    code(Color::Red, role)
}

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

/// The highest set bit of `x` (0 when none), without a branch: `x` shifted up with a bit
/// below it is never zero, and that guard bit is shifted out again.
#[inline(always)]
fn highest_bit(x: u16) -> u16 {
    let y = (u32::from(x) << 1) | 1;
    ((0x8000_0000u32 >> y.leading_zeros()) >> 1) as u16
}

/// The exchange on one target point: the target's rank and file occupancy as the capturing
/// pieces leave them, and each side's attackers.
struct Exchange<'a> {
    pos: &'a Position,
    to: usize,
    /// The target's file and rank.
    tf: usize,
    tr: usize,
    rank_occ: u16,
    file_occ: u16,
    /// Each side's live attacker slots.
    att: [u64; 2],
    /// The point of each line slot (meaningful for live slots only).
    line_at: [u8; HORSES],
}

impl<'a> Exchange<'a> {
    /// The exchange on `to`, once the piece on `from` has taken there, with both sides'
    /// attackers found.
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
            att: [0; 2],
            line_at: [0; HORSES],
        };
        // The capturer has left `from` (it stands on the target now).
        if from / 9 == tr {
            ex.rank_occ &= !(1 << (from % 9));
        } else if from % 9 == tf {
            ex.file_occ &= !(1 << (from / 9));
        }
        ex.rank_line(true);
        ex.rank_line(false);
        ex.file_line(true);
        ex.file_line(false);
        ex.add_near(from);
        ex
    }

    /// Adds the horses, advisors and elephants attacking the target, once the piece on
    /// `from` has taken there.
    #[inline(always)]
    fn add_near(&mut self, from: usize) {
        // Horses, advisors and elephants; the capturer's origin counts as empty (it may
        // have been a leg or an eye) and its piece as gone.
        let (pos, to, tr) = (self.pos, self.to, self.tr);
        let board = &pos.board;
        let mut near = (pos.by_color[0] | pos.by_color[1]) & NEAR[to] & !(1u128 << from);
        while near != 0 {
            let s = near.trailing_zeros() as usize;
            near &= near - 1;
            let c = board[s];
            let step = STEPS[s + 20 - to];
            if c & 7 != step.role {
                continue;
            }
            let color = code_color(c);
            let ok = if step.role == role_bits(Role::Advisor) {
                PALACE[to] == color as u8 + 1 && PALACE[s] == color as u8 + 1
            } else {
                let b = (to as isize + step.block as isize) as usize;
                (board[b] == EMPTY || b == from)
                    && (step.role == role_bits(Role::Horse)
                        || own_side(color, tr) && own_side(color, s / 9))
            };
            if ok {
                self.att[color] |= 1 << step.slot;
            }
        }
    }

    /// Finds again the chariots, cannons, pawns and general along the target's rank,
    /// upwards or downwards.
    #[inline(always)]
    fn rank_line(&mut self, up: bool) {
        let (first, second, k, pawn, king) = if up {
            let (a, b) = two_above(self.rank_occ, self.tf);
            (a, b, RANK, PAWNS + 2, KINGS)
        } else {
            let (a, b) = two_below(self.rank_occ, self.tf);
            (a, b, RANK + 2, PAWNS + 1, KINGS + 1)
        };
        let keep = !(3u64 << k | 1 << pawn | 1 << king);
        self.att[0] &= keep;
        self.att[1] &= keep;
        if first != 0 {
            let s = self.tr * 9 + first.trailing_zeros() as usize;
            let c = self.pos.board[s];
            let color = code_color(c);
            if c & 7 == role_bits(Role::Chariot) {
                self.att[color] |= 1 << k;
                self.line_at[k] = s as u8;
            } else if s.abs_diff(self.to) == 1 {
                self.next_to(c, s, pawn, king, !own_side(color, self.tr));
            }
        }
        if second != 0 {
            let s = self.tr * 9 + second.trailing_zeros() as usize;
            let c = self.pos.board[s];
            if c & 7 == role_bits(Role::Cannon) {
                self.att[code_color(c)] |= 1 << (k + 1);
                self.line_at[k + 1] = s as u8;
            }
        }
    }

    /// Finds again the chariots, cannons, pawns and generals along the target's file,
    /// upwards or downwards.
    #[inline(always)]
    fn file_line(&mut self, up: bool) {
        let (first, second, k, pawn, king) = if up {
            let (a, b) = two_above(self.file_occ, self.tr);
            (a, b, FILE, PAWNS + 3, KINGS + 2)
        } else {
            let (a, b) = two_below(self.file_occ, self.tr);
            (a, b, FILE + 3, PAWNS, KINGS + 3)
        };
        let keep = !(7u64 << k | 1 << pawn | 1 << king);
        self.att[0] &= keep;
        self.att[1] &= keep;
        if first != 0 {
            let s = first.trailing_zeros() as usize * 9 + self.tf;
            let c = self.pos.board[s];
            let color = code_color(c);
            if c & 7 == role_bits(Role::Chariot) {
                self.att[color] |= 1 << k;
                self.line_at[k] = s as u8;
            } else {
                if c & 7 == role_bits(Role::King) {
                    self.att[color] |= 1 << (k + 1);
                    self.line_at[k + 1] = s as u8;
                }
                if s.abs_diff(self.to) == 9 {
                    // A pawn attacks forwards: a red one from below, a black one from above.
                    self.next_to(c, s, pawn, king, up == (color == 1));
                }
            }
        }
        if second != 0 {
            let s = second.trailing_zeros() as usize * 9 + self.tf;
            let c = self.pos.board[s];
            if c & 7 == role_bits(Role::Cannon) {
                self.att[code_color(c)] |= 1 << (k + 2);
                self.line_at[k + 2] = s as u8;
            }
        }
    }

    /// The piece `c` on `s`, orthogonally next to the target: a pawn attacks from there
    /// when `pawn_can` (slot `pawn`), a general when both points are in its palace (slot
    /// `king`).
    #[inline(always)]
    fn next_to(&mut self, c: u8, s: usize, pawn: usize, king: usize, pawn_can: bool) {
        let color = code_color(c);
        if c & 7 == role_bits(Role::Pawn) {
            if pawn_can {
                self.att[color] |= 1 << pawn;
            }
        } else if c & 7 == role_bits(Role::King)
            && PALACE[s] == color as u8 + 1
            && PALACE[self.to] == color as u8 + 1
        {
            self.att[color] |= 1 << king;
        }
    }

    /// The least valuable attacker of the target for `by` as a slot (the lowest slot among
    /// equals, as in [`Position::attackers`]), given the piece `on_target` standing there:
    /// `NONE` when there is none.
    #[inline(always)]
    fn least_valuable_attacker(&self, by: Color, on_target: u8, values: &[i32; 7]) -> usize {
        let mut live = self.att[by.index()];
        // The opposing general counts along the file only against a general.
        if code_role(on_target) != Role::King.index() {
            live &= !FLYING;
        }
        if live & live.wrapping_sub(1) == 0 {
            return if live == 0 {
                NONE
            } else {
                live.trailing_zeros() as usize
            };
        }
        let mut best = live.trailing_zeros() as usize;
        let mut best_value = values[SLOT_ROLE[best] as usize];
        live &= live - 1;
        while live != 0 {
            let k = live.trailing_zeros() as usize;
            let v = values[SLOT_ROLE[k] as usize];
            if v < best_value {
                best = k;
                best_value = v;
            }
            live &= live - 1;
        }
        best
    }

    /// The point of slot `k`.
    #[inline(always)]
    fn origin(&self, k: usize) -> usize {
        if k < HORSES {
            self.line_at[k] as usize
        } else {
            (self.to as isize + SLOT_OFFSET[k] as isize) as usize
        }
    }

    /// `by` takes with the attacker in slot `k`: its origin empties, which can open the
    /// target's rank or file behind it (new chariot and cannon attacks, or a cannon losing
    /// its screen) or free a horse's leg or an elephant's eye (an advisor leaving).
    #[inline(always)]
    fn capture(&mut self, by: Color, k: usize) {
        let s = self.origin(k);
        self.att[by.index()] &= !(1 << k);
        if (HORSES..PAWNS).contains(&k) || (ELEPHANTS..KINGS).contains(&k) {
            // A horse's or elephant's origin is on neither line, nor a leg or an eye.
            return;
        }
        if (ADVISORS..ELEPHANTS).contains(&k) {
            self.free_leg(s);
            return;
        }
        if s / 9 == self.tr {
            self.rank_occ &= !(1 << (s % 9));
            self.rank_line(s > self.to);
        } else {
            self.file_occ &= !(1 << (s / 9));
            self.file_line(s > self.to);
        }
    }

    /// An advisor left `s`, diagonally next to the target: the horses with their leg there
    /// and the elephants with their eye there attack now (they were blocked, so they are
    /// still on their points).
    #[cold]
    fn free_leg(&mut self, s: usize) {
        let (pos, to) = (self.pos, self.to);
        let mut near = (pos.by_color[0] | pos.by_color[1]) & NEAR[to];
        while near != 0 {
            let p = near.trailing_zeros() as usize;
            near &= near - 1;
            let c = pos.board[p];
            let step = STEPS[p + 20 - to];
            if c & 7 != step.role
                || step.role == role_bits(Role::Advisor)
                || (to as isize + step.block as isize) as usize != s
            {
                continue;
            }
            let color = code_color(c);
            if step.role == role_bits(Role::Horse)
                || own_side(color, self.tr) && own_side(color, p / 9)
            {
                self.att[color] |= 1 << step.slot;
            }
        }
    }
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
        while n < MAX_GAINS {
            let s = ex.least_valuable_attacker(by, on_target, values);
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
            on_target = self.board[ex.origin(s)];
            ex.capture(by, s);
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
        let mut gain = values[code_role(victim)];
        if gain < threshold {
            return false;
        }
        let mut ex = Exchange::new(self, from, to);
        let mut by = self.side.other();
        let mut d = 1;
        loop {
            let odd = d % 2 == 1;
            if d >= MAX_GAINS {
                return odd;
            }
            gain = values[code_role(on_target)] - gain;
            if odd {
                if -gain >= threshold {
                    return true;
                }
            } else if gain < threshold {
                return false;
            }
            let s = ex.least_valuable_attacker(by, on_target, values);
            if s == NONE {
                return odd;
            }
            if code_role(on_target) == Role::King.index() {
                // A general was taken: gain d is the last.
                return !odd;
            }
            on_target = self.board[ex.origin(s)];
            ex.capture(by, s);
            by = by.other();
            d += 1;
        }
    }
}
