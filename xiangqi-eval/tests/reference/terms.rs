//! Frozen copy of `src/terms.rs` as of commit e8ac392 (before the evaluation was sped up).
//!
//! The terms computed per call: general safety, mobility, pawn structure, trading down and
//! endgame scaling. Everything is computed per colour in that colour's own frame (ranks
//! counted from its back rank, files treated alike on both wings), so the result is
//! symmetric by construction.

use super::board::{flag, Board};
use super::geometry::{rank_occ, Geometry, NONE};
use xiangqi_core::{Color, Position, Role};
use xiangqi_eval::EvalParams;

/// Squares on red's side of the river (ranks 0–4).
const RED_HALF: u128 = (1 << 45) - 1;
/// Squares of file `i` (index 8 of each rank).
const FILE_I: u128 = {
    let mut m = 0u128;
    let mut r = 0;
    while r < 10 {
        m |= 1 << (r * 9 + 8);
        r += 1;
    }
    m
};
/// Files c–g of ranks 7–9 (red's pawns there stand at the black palace).
const NEAR_BLACK_PALACE: u128 = {
    let mut m = 0u128;
    let mut r = 7;
    while r < 10 {
        let mut f = 2;
        while f <= 6 {
            m |= 1 << (r * 9 + f);
            f += 1;
        }
        r += 1;
    }
    m
};
/// Files c–g of ranks 0–2.
const NEAR_RED_PALACE: u128 = {
    let mut m = 0u128;
    let mut r = 0;
    while r < 3 {
        let mut f = 2;
        while f <= 6 {
            m |= 1 << (r * 9 + f);
            f += 1;
        }
        r += 1;
    }
    m
};

/// Safety, mobility and pawn terms, red's view, `(mg, eg)`.
pub(crate) fn positional(
    pos: &Position,
    p: &EvalParams,
    geo: &Geometry,
    board: &Board,
) -> (i32, i32) {
    let red = pos.occupied_by(Color::Red);
    let black = pos.occupied_by(Color::Black);
    let occ = red | black;
    let mut mg = [0i32; 2];
    let mut eg = [0i32; 2];

    for color in Color::ALL {
        let ci = color.index();
        let them = color.other();
        let roles = &board.roles[ci];
        let enemy_flag = flag(them);
        let mut add = |v: [i32; 2], times: i32| {
            mg[ci] += v[0] * times;
            eg[ci] += v[1] * times;
        };

        // Chariots and cannons: quiet moves along both lines plus captures.
        for (role, param, base) in [
            (Role::Chariot, p.chariot_mobility, p.chariot_mobility_base),
            (Role::Cannon, p.cannon_mobility, p.cannon_mobility_base),
        ] {
            let mut bits = roles[role.index()];
            while bits != 0 {
                let s = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let (f, r) = (s % 9, s / 9);
                let along_rank = geo.along_rank(f, rank_occ(occ, r));
                let along_file = geo.along_file(r, board.files[f]);
                let mut mob = (along_rank.quiet() + along_file.quiet()) as i32;
                let targets = if role == Role::Chariot {
                    [
                        along_rank.first_up(),
                        along_rank.first_down(),
                        along_file.first_up(),
                        along_file.first_down(),
                    ]
                } else {
                    [
                        along_rank.second_up(),
                        along_rank.second_down(),
                        along_file.second_up(),
                        along_file.second_down(),
                    ]
                };
                for (k, t) in targets.into_iter().enumerate() {
                    if t != NONE {
                        let t = t as usize;
                        let sq = if k < 2 { r * 9 + t } else { t * 9 + f };
                        mob += (board.mailbox[sq] & enemy_flag != 0) as i32;
                    }
                }
                add(param, mob - base);
            }
        }

        // Horses: free targets and blocked legs (蹩马腿).
        let mb = &board.mailbox;
        let own_flag = flag(color);
        let mut bits = roles[Role::Horse.index()];
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let (mut mob, mut blocked) = (0, 0);
            for [leg, t1, t2] in geo.horse[s] {
                if leg == 255 {
                    break;
                }
                if mb[leg as usize] != 0 {
                    blocked += 1;
                    continue;
                }
                mob += (mb[t1 as usize] & own_flag == 0) as i32;
                mob += (mb[t2 as usize] & own_flag == 0) as i32;
            }
            add(p.horse_mobility, mob - p.horse_mobility_base);
            add(p.horse_blocked_leg, blocked);
        }

        // Pawns across the river: connected pairs (counted once, by the lower file) and
        // pawns at the enemy palace when its advisors are gone.
        let (enemy_half, near_palace) = match color {
            Color::Red => (!RED_HALF, NEAR_BLACK_PALACE),
            Color::Black => (RED_HALF, NEAR_RED_PALACE),
        };
        let crossed = roles[Role::Pawn.index()] & enemy_half;
        let connected = (crossed & !FILE_I & (crossed >> 1)).count_ones() as i32;
        add(p.connected_pawns, connected);
        let missing_adv = 2 - pos.count(them, Role::Advisor) as i32;
        let missing_ele = 2 - pos.count(them, Role::Elephant) as i32;
        let v = p.pawn_near_palace_missing_advisor
            * (crossed & near_palace).count_ones() as i32
            * missing_adv;
        add([v, v], 1);

        // The safety of the enemy general, credited to `color` (the attacker):
        // 缺士怕双车, 缺象怕炮.
        let chariots = roles[Role::Chariot.index()].count_ones() as i32;
        let horses = roles[Role::Horse.index()].count_ones() as i32;
        let cannons = roles[Role::Cannon.index()].count_ones() as i32;
        let d = missing_adv
            * (p.missing_advisor_vs_chariot * chariots + p.missing_advisor_vs_horse * horses)
            + missing_ele
                * (p.missing_elephant_vs_cannon * cannons
                    + p.missing_elephant_vs_chariot * chariots);
        add([d, d], 1);
        // The general's file, walking away from its own side: open file, 空头炮, 当头炮.
        let ksq = pos.king_square(them).index();
        let (kf, kr) = (ksq % 9, ksq / 9);
        let fo = board.files[kf];
        let line = geo.along_file(kr, fo);
        let (first, second) = match them {
            Color::Red => (line.first_up(), line.second_up()),
            Color::Black => (line.first_down(), line.second_down()),
        };
        let sq = |rank: u8| rank as usize * 9 + kf;
        let cannon = flag(color) | Role::Cannon as u8;
        let our_cannon = |rank: u8| rank != NONE && board.mailbox[sq(rank)] == cannon;
        if first == NONE {
            if chariots > 0 {
                add([p.open_king_file, p.open_king_file], 1);
            }
        } else if our_cannon(first) {
            add(p.empty_centre_cannon, 1);
        } else if our_cannon(second) {
            add(p.central_cannon, 1);
        } else if second != NONE {
            let chariot = flag(color) | Role::Chariot as u8;
            if board.mailbox[sq(second)] == chariot && board.mailbox[sq(first)] & enemy_flag != 0 {
                add(p.chariot_facing_king, 1);
            } else {
                let beyond = geo.along_file(second as usize, fo);
                let third = match them {
                    Color::Red => beyond.first_up(),
                    Color::Black => beyond.first_down(),
                };
                if our_cannon(third) {
                    add(p.cannon_on_king_file, 1);
                }
            }
        }
        // The general's rank: a cannon with one screen on either side (a side cannon).
        let along = geo.along_rank(kf, rank_occ(occ, kr));
        for t in [along.second_up(), along.second_down()] {
            if t != NONE && board.mailbox[kr * 9 + t as usize] == cannon {
                add(p.cannon_on_king_rank, 1);
            }
        }
        let attackers = roles[Role::Chariot.index()]
            | roles[Role::Cannon.index()]
            | roles[Role::Horse.index()]
            | crossed;
        let zone = ((attackers & geo.zone[them.index()]).count_ones() as usize).min(7);
        add(
            [p.king_zone_attackers[zone], p.king_zone_attackers[zone] / 2],
            1,
        );
    }

    (mg[0] - mg[1], eg[0] - eg[1])
}

/// Bonus for trading down when ahead, red's view: a share of the material lead `lead`
/// (red's, middlegame values) that grows as attacking pieces leave the board, so that the side
/// ahead welcomes trades.
#[inline]
pub(crate) fn trade_bonus(lead: i32, p: &EvalParams, phase: i32, full: i32) -> i32 {
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
        // Two cannons alone cannot break a full set of advisors and elephants (双炮难胜士象全).
        let only_cannons = pos.count(strong, Role::Cannon) == 2
            && strong_pieces == 2
            && pos.count(strong, Role::Pawn) == 0;
        let weak = strong.other();
        if only_cannons
            && pos.count(weak, Role::Advisor) == 2
            && pos.count(weak, Role::Elephant) == 2
        {
            return 8;
        }
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
            // A lone chariot against a horse with a full set of defenders (单车难胜马士象全),
            // or a cannon with them, seldom wins.
            if w.horses == 1 && w.defenders() >= 4 {
                return 8;
            }
            if w.cannons == 1 && w.defenders() >= 4 {
                return 32;
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
