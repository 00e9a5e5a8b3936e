//! The terms computed per call: general safety, mobility, pawn structure, trading down and
//! endgame scaling. Everything is computed per colour in that colour's own frame (ranks
//! counted from its back rank, files treated alike on both wings), so the result is
//! symmetric by construction.

use crate::params::EvalParams;
use xiangqi_core::{Color, Position, Role, Square};

/// Orthogonal steps as (file, rank) deltas.
const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

#[inline]
fn on_board(f: i32, r: i32) -> bool {
    (0..9).contains(&f) && (0..10).contains(&r)
}

#[inline]
fn idx(f: i32, r: i32) -> usize {
    (r * 9 + f) as usize
}

#[inline]
fn bit(set: u128, s: usize) -> bool {
    (set >> s) & 1 != 0
}

/// Per-colour accumulators, `[mg, eg]` for the colour's own good.
#[derive(Default, Clone, Copy)]
struct Side {
    mg: i32,
    eg: i32,
    /// Attackers of this colour inside the enemy general's zone.
    zone_attackers: i32,
}

impl Side {
    #[inline]
    fn add(&mut self, v: [i32; 2], times: i32) {
        self.mg += v[0] * times;
        self.eg += v[1] * times;
    }
}

/// Is `(f, r)` in the zone around `color`'s general: files c–g, the palace ranks and the rank
/// in front of them (ranks 0–3 from `color`'s side)?
#[inline]
fn in_zone(color: Color, f: i32, r: i32) -> bool {
    let rel = match color {
        Color::Red => r,
        Color::Black => 9 - r,
    };
    (2..=6).contains(&f) && rel <= 3
}

/// Safety, mobility and pawn terms, red's view, `(mg, eg)`.
pub(crate) fn positional(pos: &Position, p: &EvalParams) -> (i32, i32) {
    let red = pos.occupied_by(Color::Red);
    let black = pos.occupied_by(Color::Black);
    let occ = red | black;
    let mut sides = [Side::default(); 2];

    for color in Color::ALL {
        let (own, enemy) = match color {
            Color::Red => (red, black),
            Color::Black => (black, red),
        };
        let forward = if color == Color::Red { 1 } else { -1 };
        let side = &mut sides[color.index()];
        let mut bits = own;
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let Some(piece) = pos.piece_at(Square::from_index_unchecked(s as u8)) else {
                continue;
            };
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            match piece.role {
                Role::Chariot => {
                    let mut mob = 0;
                    for (df, dr) in ORTHO {
                        let (mut x, mut y) = (f + df, r + dr);
                        while on_board(x, y) {
                            let t = idx(x, y);
                            if bit(occ, t) {
                                mob += bit(enemy, t) as i32;
                                break;
                            }
                            mob += 1;
                            x += df;
                            y += dr;
                        }
                    }
                    side.add(p.chariot_mobility, mob - p.chariot_mobility_base);
                    side.zone_attackers += in_zone(color.other(), f, r) as i32;
                }
                Role::Cannon => {
                    let mut mob = 0;
                    for (df, dr) in ORTHO {
                        let (mut x, mut y) = (f + df, r + dr);
                        while on_board(x, y) && !bit(occ, idx(x, y)) {
                            mob += 1;
                            x += df;
                            y += dr;
                        }
                        // (x, y) is the screen, if on the board; find what stands behind it.
                        x += df;
                        y += dr;
                        while on_board(x, y) {
                            let t = idx(x, y);
                            if bit(occ, t) {
                                mob += bit(enemy, t) as i32;
                                break;
                            }
                            x += df;
                            y += dr;
                        }
                    }
                    side.add(p.cannon_mobility, mob - p.cannon_mobility_base);
                    side.zone_attackers += in_zone(color.other(), f, r) as i32;
                }
                Role::Horse => {
                    let mut mob = 0;
                    let mut blocked = 0;
                    for (df, dr) in ORTHO {
                        let (lf, lr) = (f + df, r + dr);
                        if !on_board(lf, lr) {
                            continue;
                        }
                        if bit(occ, idx(lf, lr)) {
                            blocked += 1;
                            continue;
                        }
                        // The two points one further straight on and one to the side.
                        let (sf, sr) = (dr, df);
                        for sign in [1, -1] {
                            let (tf, tr) = (lf + df + sign * sf, lr + dr + sign * sr);
                            if on_board(tf, tr) && !bit(own, idx(tf, tr)) {
                                mob += 1;
                            }
                        }
                    }
                    side.add(p.horse_mobility, mob - p.horse_mobility_base);
                    side.add(p.horse_blocked_leg, blocked);
                    side.zone_attackers += in_zone(color.other(), f, r) as i32;
                }
                Role::Pawn => {
                    let rel = if color == Color::Red { r } else { 9 - r };
                    if rel >= 5 {
                        // Count each connected pair once, by its member on the lower file.
                        if f < 8 {
                            let t = idx(f + 1, r);
                            if bit(own, t)
                                && pos
                                    .piece_at(Square::from_index_unchecked(t as u8))
                                    .is_some_and(|q| q.role == Role::Pawn)
                            {
                                side.add(p.connected_pawns, 1);
                            }
                        }
                        if rel >= 7 && (2..=6).contains(&f) {
                            let missing = 2 - pos.count(color.other(), Role::Advisor) as i32;
                            side.mg += p.pawn_near_palace_missing_advisor * missing;
                            side.eg += p.pawn_near_palace_missing_advisor * missing;
                        }
                        side.zone_attackers += in_zone(color.other(), f, r) as i32;
                    }
                }
                _ => {}
            }
        }

        // The safety of the enemy general, credited to `color` (the attacker).
        let them = color.other();
        let ksq = pos.king_square(them).index();
        let (kf, kr) = ((ksq % 9) as i32, (ksq / 9) as i32);
        let mut danger = [0, 0];
        let missing_adv = 2 - pos.count(them, Role::Advisor) as i32;
        let missing_ele = 2 - pos.count(them, Role::Elephant) as i32;
        let chariots = pos.count(color, Role::Chariot) as i32;
        let horses = pos.count(color, Role::Horse) as i32;
        let cannons = pos.count(color, Role::Cannon) as i32;
        let d = missing_adv
            * (p.missing_advisor_vs_chariot * chariots + p.missing_advisor_vs_horse * horses)
            + missing_ele
                * (p.missing_elephant_vs_cannon * cannons
                    + p.missing_elephant_vs_chariot * chariots);
        danger[0] += d;
        danger[1] += d;
        // Walk the general's file away from its own side: toward `color`'s back rank.
        let toward = -forward;
        let mut y = kr + toward;
        // The first three pieces on the file, walking from the general.
        let mut found = [usize::MAX; 3];
        let mut n = 0;
        while (0..10).contains(&y) && n < 3 {
            let t = idx(kf, y);
            if bit(occ, t) {
                found[n] = t;
                n += 1;
            }
            y += toward;
        }
        let role_at = |i: usize| {
            if i < n {
                pos.piece_at(Square::from_index_unchecked(found[i] as u8))
                    .map(|q| (q.color == color, q.role))
            } else {
                None
            }
        };
        match role_at(0) {
            None => {
                if chariots > 0 {
                    danger[0] += p.open_king_file;
                    danger[1] += p.open_king_file;
                }
            }
            Some((true, Role::Cannon)) => {
                danger[0] += p.empty_centre_cannon[0];
                danger[1] += p.empty_centre_cannon[1];
            }
            Some((mine, _)) => match role_at(1) {
                Some((true, Role::Cannon)) => {
                    danger[0] += p.central_cannon[0];
                    danger[1] += p.central_cannon[1];
                }
                Some((true, Role::Chariot)) if !mine => {
                    danger[0] += p.chariot_facing_king[0];
                    danger[1] += p.chariot_facing_king[1];
                }
                Some(_) => {
                    if let Some((true, Role::Cannon)) = role_at(2) {
                        danger[0] += p.cannon_on_king_file[0];
                        danger[1] += p.cannon_on_king_file[1];
                    }
                }
                None => {}
            },
        }
        let zone = sides[color.index()].zone_attackers.clamp(0, 7) as usize;
        danger[0] += p.king_zone_attackers[zone];
        danger[1] += p.king_zone_attackers[zone] / 2;
        sides[color.index()].mg += danger[0];
        sides[color.index()].eg += danger[1];
    }

    (sides[0].mg - sides[1].mg, sides[0].eg - sides[1].eg)
}

/// Material (middlegame values) of `color`, without the general.
#[inline]
fn material(pos: &Position, p: &EvalParams, color: Color) -> i32 {
    Role::ALL
        .iter()
        .map(|r| pos.count(color, *r) as i32 * p.material[r.index()][0])
        .sum()
}

/// Bonus for trading down when ahead, red's view: a share of the material lead that grows as
/// attacking pieces leave the board, so that the side ahead welcomes trades.
pub(crate) fn trade_bonus(pos: &Position, p: &EvalParams, phase: i32, full: i32) -> i32 {
    let lead = material(pos, p, Color::Red) - material(pos, p, Color::Black);
    lead * p.trade_when_ahead * (full - phase) / (full * 256)
}

/// The attacking force of a side, for endgame knowledge.
#[derive(Clone, Copy)]
struct Force {
    chariots: i32,
    horses: i32,
    cannons: i32,
    /// Pawns not yet on the last rank (a pawn there can no longer approach the general).
    pawns: i32,
    /// Pawns on the last rank (老兵/底兵).
    old_pawns: i32,
    advisors: i32,
    elephants: i32,
}

impl Force {
    fn of(pos: &Position, color: Color) -> Force {
        let mut pawns = 0;
        let mut old_pawns = 0;
        if pos.count(color, Role::Pawn) > 0 {
            for (sq, pc) in pos.pieces(color) {
                if pc.role == Role::Pawn {
                    if sq.rank().relative_to(color) == 9 {
                        old_pawns += 1;
                    } else {
                        pawns += 1;
                    }
                }
            }
        }
        Force {
            chariots: pos.count(color, Role::Chariot) as i32,
            horses: pos.count(color, Role::Horse) as i32,
            cannons: pos.count(color, Role::Cannon) as i32,
            pawns,
            old_pawns,
            advisors: pos.count(color, Role::Advisor) as i32,
            elephants: pos.count(color, Role::Elephant) as i32,
        }
    }

    fn pieces(&self) -> i32 {
        self.chariots + self.horses + self.cannons
    }

    fn defenders(&self) -> i32 {
        self.advisors + self.elephants
    }
}

/// Scale for drawish endings in 1/64ths (64 = no change, 0 = a dead draw), from the point of
/// view of the side the blended score favours: can it actually win?
pub(crate) fn endgame_scale(pos: &Position, blended: i32) -> i32 {
    if blended == 0 {
        return 64;
    }
    let strong = if blended > 0 {
        Color::Red
    } else {
        Color::Black
    };
    // Cheap exit: with two or more pieces besides pawns the strong side has mating force
    // (the common drawn endings below all have at most one).
    let strong_pieces = pos.count(strong, Role::Chariot)
        + pos.count(strong, Role::Horse)
        + pos.count(strong, Role::Cannon);
    if strong_pieces >= 2 {
        return 64;
    }
    let s = Force::of(pos, strong);
    let w = Force::of(pos, strong.other());
    let weak_material = w.pieces() * 4 + w.defenders() + w.pawns + w.old_pawns;

    if s.pieces() == 0 {
        return match s.pawns {
            // Nothing that can reach the general: no win.
            0 => 0,
            // One pawn: wins against a bare general, hardly against defenders.
            1 => match w.defenders() + w.pieces() * 2 {
                0 => 64,
                1 => 24,
                _ => 6,
            },
            // Two pawns and more against a full set of defenders and a piece are drawish.
            _ if w.pieces() > 0 => 24,
            _ => 64,
        };
    }
    // From here the strong side has exactly one piece.
    if s.pawns == 0 {
        if s.horses == 1 {
            // A lone horse cannot mate two defenders (马 against 双士 or 士象全).
            return if w.defenders() >= 2 || w.pieces() > 0 {
                4
            } else {
                64
            };
        }
        if s.cannons == 1 {
            // A cannon needs a screen: alone it cannot mate; with advisors only a bare
            // general.
            return if weak_material == 0 && s.advisors > 0 {
                64
            } else {
                4
            };
        }
        if s.chariots == 1 {
            // Chariot against chariot, or against two minor pieces: drawn.
            if w.chariots > 0 {
                return 4;
            }
            if w.horses + w.cannons >= 2 {
                return 16;
            }
        }
    } else if s.chariots == 1 && s.pawns == 1 && w.chariots == 1 && w.advisors == 2 {
        // 车兵 against 车双士: a book draw.
        return 16;
    } else if s.chariots == 0 && s.pawns == 1 && w.defenders() >= 3 && w.pieces() == 0 {
        // A horse or cannon and one pawn against a full set of defenders is hard to win.
        return 40;
    }
    64
}
