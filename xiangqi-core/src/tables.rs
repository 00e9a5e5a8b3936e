//! Move tables for the short-range pieces, computed at compile time.
//!
//! Each table lists, for a square, the points a piece can step to and (for the horse and
//! elephant) the point that blocks the step: the horse's leg (蹩马腿) and the elephant's eye
//! (塞象眼). Inverse tables list where an attacker must stand to hit a square.

/// Up to eight steps from one square: destinations and the point that must be empty.
#[derive(Copy, Clone)]
pub(crate) struct Steps {
    pub len: u8,
    pub to: [u8; 8],
    pub via: [u8; 8],
}

impl Steps {
    const EMPTY: Steps = Steps {
        len: 0,
        to: [0; 8],
        via: [0; 8],
    };

    const fn push(mut self, to: u8, via: u8) -> Steps {
        self.to[self.len as usize] = to;
        self.via[self.len as usize] = via;
        self.len += 1;
        self
    }
}

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 9 && r >= 0 && r < 10
}

const fn sq(f: i32, r: i32) -> u8 {
    (r * 9 + f) as u8
}

const fn in_palace(color: usize, f: i32, r: i32) -> bool {
    f >= 3
        && f <= 5
        && if color == 0 {
            r >= 0 && r <= 2
        } else {
            r >= 7 && r <= 9
        }
}

const fn own_side(color: usize, r: i32) -> bool {
    if color == 0 {
        r <= 4
    } else {
        r >= 5
    }
}

/// Horse jumps: (df, dr) of the destination and of the leg.
const HORSE_DELTAS: [(i32, i32, i32, i32); 8] = [
    (1, 2, 0, 1),
    (-1, 2, 0, 1),
    (1, -2, 0, -1),
    (-1, -2, 0, -1),
    (2, 1, 1, 0),
    (2, -1, 1, 0),
    (-2, 1, -1, 0),
    (-2, -1, -1, 0),
];

const fn horse_moves() -> [Steps; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut i = 0;
        while i < 8 {
            let (df, dr, lf, lr) = HORSE_DELTAS[i];
            if on_board(f + df, r + dr) {
                t[s] = t[s].push(sq(f + df, r + dr), sq(f + lf, r + lr));
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// For each target: the squares a horse attacks it from, with that horse's leg.
const fn horse_attackers() -> [Steps; 90] {
    let moves = horse_moves();
    let mut t = [Steps::EMPTY; 90];
    let mut from = 0;
    while from < 90 {
        let m = moves[from];
        let mut i = 0;
        while i < m.len as usize {
            let to = m.to[i] as usize;
            t[to] = t[to].push(from as u8, m.via[i]);
            i += 1;
        }
        from += 1;
    }
    t
}

const fn elephant_moves() -> [[Steps; 90]; 2] {
    let mut t = [[Steps::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 90 {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            let deltas = [(2, 2), (2, -2), (-2, 2), (-2, -2)];
            let mut i = 0;
            while i < 4 {
                let (df, dr) = deltas[i];
                if on_board(f + df, r + dr) && own_side(c, r + dr) && own_side(c, r) {
                    t[c][s] = t[c][s].push(sq(f + df, r + dr), sq(f + df / 2, r + dr / 2));
                }
                i += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
}

const fn advisor_moves() -> [[Steps; 90]; 2] {
    palace_steps([(1, 1), (1, -1), (-1, 1), (-1, -1)])
}

const fn king_moves() -> [[Steps; 90]; 2] {
    palace_steps([(1, 0), (-1, 0), (0, 1), (0, -1)])
}

/// One-point steps by each of `deltas` (file, rank) that start and end in the colour's
/// palace: the advisor's diagonal steps or the general's orthogonal ones.
const fn palace_steps(deltas: [(i32, i32); 4]) -> [[Steps; 90]; 2] {
    let mut t = [[Steps::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 90 {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            let mut i = 0;
            while i < 4 {
                let (df, dr) = deltas[i];
                if in_palace(c, f, r) && in_palace(c, f + df, r + dr) {
                    t[c][s] = t[c][s].push(sq(f + df, r + dr), 0);
                }
                i += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
}

const fn pawn_moves() -> [[Steps; 90]; 2] {
    let mut t = [[Steps::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let fwd = if c == 0 { 1 } else { -1 };
        let mut s = 0;
        while s < 90 {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            if on_board(f, r + fwd) {
                t[c][s] = t[c][s].push(sq(f, r + fwd), 0);
            }
            if !own_side(c, r) {
                if f > 0 {
                    t[c][s] = t[c][s].push(sq(f - 1, r), 0);
                }
                if f < 8 {
                    t[c][s] = t[c][s].push(sq(f + 1, r), 0);
                }
            }
            s += 1;
        }
        c += 1;
    }
    t
}

/// For each colour and target: the squares a pawn of that colour attacks the target from.
const fn pawn_attackers() -> [[Steps; 90]; 2] {
    let moves = pawn_moves();
    let mut t = [[Steps::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut from = 0;
        while from < 90 {
            let m = moves[c][from];
            let mut i = 0;
            while i < m.len as usize {
                let to = m.to[i] as usize;
                t[c][to] = t[c][to].push(from as u8, 0);
                i += 1;
            }
            from += 1;
        }
        c += 1;
    }
    t
}

/// The destinations of each square's steps as one bit mask (bit = square index), so that
/// capture generation can skip a piece with no enemy piece on any of its destinations.
const fn targets(t: &[Steps; 90]) -> [u128; 90] {
    let mut m = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        let mut i = 0;
        while i < t[s].len as usize {
            m[s] |= 1 << t[s].to[i];
            i += 1;
        }
        s += 1;
    }
    m
}

/// [`targets`] for both colours of a coloured table.
const fn targets2(t: &[[Steps; 90]; 2]) -> [[u128; 90]; 2] {
    [targets(&t[0]), targets(&t[1])]
}

/// A table by square padded to 128 entries (empty past the 90th), so that a square known
/// to be below 128 (a move's 7-bit square, a bit index masked to 7 bits) indexes it without
/// a bounds check.
const fn pad_steps(t: [Steps; 90]) -> [Steps; 128] {
    pad(t, Steps::EMPTY)
}

/// `t` followed by `empty` up to 128 entries (see [`pad_steps`]).
const fn pad<T: Copy>(t: [T; 90], empty: T) -> [T; 128] {
    let mut out = [empty; 128];
    let mut s = 0;
    while s < 90 {
        out[s] = t[s];
        s += 1;
    }
    out
}

/// [`pad_steps`] for both colours of a coloured table.
const fn pad_steps2(t: [[Steps; 90]; 2]) -> [[Steps; 128]; 2] {
    [pad_steps(t[0]), pad_steps(t[1])]
}

/// [`pad_steps`] for masks.
const fn pad_masks(t: [u128; 90]) -> [u128; 128] {
    pad(t, 0)
}

/// [`pad_masks`] for both colours of a coloured table.
const fn pad_masks2(t: [[u128; 90]; 2]) -> [[u128; 128]; 2] {
    [pad_masks(t[0]), pad_masks(t[1])]
}

pub(crate) static HORSE_MOVES: [Steps; 128] = pad_steps(horse_moves());
pub(crate) static HORSE_ATTACKERS: [Steps; 128] = pad_steps(horse_attackers());
pub(crate) static ELEPHANT_MOVES: [[Steps; 128]; 2] = pad_steps2(elephant_moves());
pub(crate) static ADVISOR_MOVES: [[Steps; 128]; 2] = pad_steps2(advisor_moves());
pub(crate) static KING_MOVES: [[Steps; 128]; 2] = pad_steps2(king_moves());
pub(crate) static PAWN_MOVES: [[Steps; 128]; 2] = pad_steps2(pawn_moves());
pub(crate) static PAWN_ATTACKERS: [[Steps; 128]; 2] = pad_steps2(pawn_attackers());
pub(crate) static HORSE_TARGETS: [u128; 128] = pad_masks(targets(&horse_moves()));
pub(crate) static ELEPHANT_TARGETS: [[u128; 128]; 2] = pad_masks2(targets2(&elephant_moves()));
pub(crate) static ADVISOR_TARGETS: [[u128; 128]; 2] = pad_masks2(targets2(&advisor_moves()));
pub(crate) static KING_TARGETS: [[u128; 128]; 2] = pad_masks2(targets2(&king_moves()));
pub(crate) static PAWN_TARGETS: [[u128; 128]; 2] = pad_masks2(targets2(&pawn_moves()));
/// For each colour and square, the points from which a pawn of that colour attacks it (the
/// squares of [`PAWN_ATTACKERS`] as a set): no enemy piece there, no pawn check to look for.
pub(crate) static PAWN_ATTACKER_SETS: [[u128; 128]; 2] = pad_masks2(targets2(&pawn_attackers()));

/// For each square, the other points of its rank: no enemy piece there, no attack along
/// the rank.
pub(crate) static RANK_OTHERS: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut s = 0;
    while s < 90 {
        t[s] = (0x1ff << (s / 9 * 9)) & !(1 << s);
        s += 1;
    }
    t
};

/// A file's occupancy-style mask (bit `r` = rank `r`) spread onto the squares of file `a`
/// (bit `r * 9`), in two halves of five ranks: `FILE_SPREAD_LOW[m & 31] |
/// FILE_SPREAD_HIGH[m >> 5]`, shifted left by the file index, is the mask on that file.
const fn file_spread(first_rank: usize) -> [u128; 32] {
    let mut t = [0u128; 32];
    let mut m = 0;
    while m < 32 {
        let mut r = 0;
        while r < 5 {
            if m >> r & 1 != 0 {
                t[m] |= 1 << ((first_rank + r) * 9);
            }
            r += 1;
        }
        m += 1;
    }
    t
}

pub(crate) static FILE_SPREAD_LOW: [u128; 32] = file_spread(0);
pub(crate) static FILE_SPREAD_HIGH: [u128; 32] = file_spread(5);

/// For each square, the other points of its rank and file: a chariot or cannon with no
/// enemy piece there has no capture.
const fn lines() -> [u128; 128] {
    let mut t = [0u128; 128];
    let mut s = 0;
    while s < 90 {
        let mut q = 0;
        while q < 90 {
            if q != s && (q % 9 == s % 9 || q / 9 == s / 9) {
                t[s] |= 1 << q;
            }
            q += 1;
        }
        s += 1;
    }
    t
}

/// [`lines`] as a table: the other points of each square's rank and file.
pub(crate) static LINES: [u128; 128] = lines();

/// For each colour and square, the points from which a piece of that colour could attack
/// a general there: its rank and file, a horse's jump away, and where a pawn of that colour
/// attacks it from. A checker always stands on one of them.
pub(crate) static CHECK_SOURCES: [[u128; 128]; 2] = {
    let lines = lines();
    let horse = targets(&horse_moves());
    let pawn = targets2(&pawn_attackers());
    let mut t = [[0u128; 128]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 90 {
            t[c][s] = lines[s] | horse[s] | pawn[c][s];
            s += 1;
        }
        c += 1;
    }
    t
};

/// For each square of a general, the points from which a piece of its side, leaving them,
/// may expose it when it is not in check: the other points of its rank and file (a line
/// opened) and the four points diagonally next to it (a horse's leg).
pub(crate) static EXPOSING: [u128; 128] = {
    let lines = lines();
    let mut t = [0u128; 128];
    let mut s = 0;
    while s < 90 {
        t[s] = lines[s];
        let (f, r) = (s % 9, s / 9);
        let mut q: usize = 0;
        while q < 90 {
            if (q % 9).abs_diff(f) == 1 && (q / 9).abs_diff(r) == 1 {
                t[s] |= 1 << q;
            }
            q += 1;
        }
        s += 1;
    }
    t
};

/// For each colour, kind of piece (its board code's low three bits: 1 general, 2 advisor,
/// 3 elephant, 4 horse, 5 chariot, 6 cannon, 7 pawn; row 0 empty) and square, every point
/// where such a piece could ever capture: the step targets, or the rank and file for the
/// chariot and the cannon. One load tells the capture generator to skip a piece with no
/// enemy piece there, before it looks at the piece's kind.
pub(crate) static CAPTURE_REACH: [[[u128; 128]; 8]; 2] = {
    let king = targets2(&king_moves());
    let advisor = targets2(&advisor_moves());
    let elephant = targets2(&elephant_moves());
    let horse = targets(&horse_moves());
    let pawn = targets2(&pawn_moves());
    let lines = lines();
    let mut t = [[[0u128; 128]; 8]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 90 {
            t[c][1][s] = king[c][s];
            t[c][2][s] = advisor[c][s];
            t[c][3][s] = elephant[c][s];
            t[c][4][s] = horse[s];
            t[c][5][s] = lines[s];
            t[c][6][s] = lines[s];
            t[c][7][s] = pawn[c][s];
            s += 1;
        }
        c += 1;
    }
    t
};

/// Where a square sits in the board's occupancy masks: its bit in the 90-bit set, its rank
/// and file, and its bit in the rank's mask and in the file's mask. Read by make/unmake,
/// the check tests and the generators instead of dividing by 9 and shifting a `u128` by a
/// variable amount.
#[derive(Copy, Clone)]
pub(crate) struct SquareBits {
    pub bit: u128,
    pub rank: u8,
    pub file: u8,
    pub rank_bit: u16,
    pub file_bit: u16,
}

const fn square_bits() -> [SquareBits; 128] {
    let mut t = [SquareBits {
        bit: 0,
        rank: 0,
        file: 0,
        rank_bit: 0,
        file_bit: 0,
    }; 128];
    let mut s = 0;
    while s < 90 {
        t[s] = SquareBits {
            bit: 1 << s,
            rank: (s / 9) as u8,
            file: (s % 9) as u8,
            rank_bit: 1 << (s % 9),
            file_bit: 1 << (s / 9),
        };
        s += 1;
    }
    t
}

/// [`SquareBits`] by square index, with all-zero entries past the 90th (so that a move's 7-bit
/// squares index it without a bounds check).
pub(crate) static SQUARE_BITS: [SquareBits; 128] = square_bits();

/// Whether a piece of `color` and role index `role` may ever stand on square `s`
/// (advisors, elephants and generals have few points; pawns never stand behind their start).
pub(crate) const fn reachable(color: usize, role: usize, s: usize) -> bool {
    let (f, r) = ((s % 9) as i32, (s / 9) as i32);
    let rr = if color == 0 { r } else { 9 - r };
    match role {
        0 => in_palace(color, f, r),
        1 => in_palace(color, f, r) && ((f + rr) % 2 == 1),
        2 => {
            // the seven elephant points: (c,0),(g,0),(a,2),(e,2),(i,2),(c,4),(g,4)
            (rr == 0 || rr == 4) && (f == 2 || f == 6) || rr == 2 && (f == 0 || f == 4 || f == 8)
        }
        6 => rr >= 5 || ((rr == 3 || rr == 4) && f % 2 == 0),
        _ => true,
    }
}

/// Along a line from a point: for each occupancy of the points beyond it, the distances
/// (in squares, `step` a point) to the first and second occupied points, [`FAR`] when none.
/// `up`: bit `k` of the index is the point `k + 1` away; otherwise bit `k` is the point
/// `width - k` away (the points below, shifted so that the nearest is the top bit).
const fn ray_table<const N: usize>(step: u8, up: bool, width: u32) -> [[u8; 2]; N] {
    let mut t = [[FAR; 2]; N];
    let mut occ = 0;
    while occ < N {
        let mut found = 0;
        let mut d = 1;
        while d <= width && found < 2 {
            let bit = if up { d - 1 } else { width - d };
            if (occ >> bit) & 1 != 0 {
                t[occ][found] = d as u8 * step;
                found += 1;
            }
            d += 1;
        }
        occ += 1;
    }
    t
}

/// No piece that way: a distance that leads from any point, either way (modulo 256), to
/// one of the always empty points past the 90th of [`crate::Position`]'s board.
pub(crate) const FAR: u8 = 128;

/// [`ray_table`]s: along the rank (indexed by the rank mask above the point, or below it
/// shifted so that its nearest point is bit 7) and along the file (the same with nine bits).
pub(crate) static RANK_UP: [[u8; 2]; 256] = ray_table(1, true, 8);
pub(crate) static RANK_DOWN: [[u8; 2]; 256] = ray_table(1, false, 8);
pub(crate) static FILE_UP: [[u8; 2]; 512] = ray_table(9, true, 9);
pub(crate) static FILE_DOWN: [[u8; 2]; 512] = ray_table(9, false, 9);

/// For a chariot or cannon at position `p` of a line of `W` points with occupancy `occ`
/// (its own bit included): the empty points it moves to, up to the first piece each way.
/// The same mask as working it out on the bits, for a table load.
const fn quiet_table<const N: usize, const W: usize>() -> [[u16; N]; W] {
    let mut t = [[0u16; N]; W];
    let mut p = 0;
    while p < W {
        let mut occ = 0;
        while occ < N {
            let mut q = p + 1;
            while q < W && (occ >> q) & 1 == 0 {
                t[p][occ] |= 1 << q;
                q += 1;
            }
            let mut q = p;
            while q > 0 && (occ >> (q - 1)) & 1 == 0 {
                t[p][occ] |= 1 << (q - 1);
                q -= 1;
            }
            occ += 1;
        }
        p += 1;
    }
    t
}

/// [`quiet_table`]s: a rank's quiet destinations by file and rank mask, a file's by rank
/// and file mask.
pub(crate) static RANK_QUIET: [[u16; 512]; 9] = quiet_table();
pub(crate) static FILE_QUIET: [[u16; 1024]; 10] = quiet_table();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_lands_on_the_board() {
        let tables: [(&str, &[Steps; 128]); 10] = [
            ("horse", &HORSE_MOVES),
            ("horse attackers", &HORSE_ATTACKERS),
            ("red elephant", &ELEPHANT_MOVES[0]),
            ("black elephant", &ELEPHANT_MOVES[1]),
            ("red advisor", &ADVISOR_MOVES[0]),
            ("black advisor", &ADVISOR_MOVES[1]),
            ("red general", &KING_MOVES[0]),
            ("black general", &KING_MOVES[1]),
            ("red pawn", &PAWN_MOVES[0]),
            ("black pawn", &PAWN_MOVES[1]),
        ];
        for (name, table) in tables {
            for (s, steps) in table.iter().enumerate() {
                assert!(s < 90 || steps.len == 0, "{name}: steps from padding {s}");
                for i in 0..steps.len as usize {
                    assert!(steps.to[i] < 90, "{name} from {s}: {}", steps.to[i]);
                    assert!(steps.via[i] < 90, "{name} from {s}: via {}", steps.via[i]);
                }
            }
        }
    }
}
