//! The terms computed per call: general safety, mobility, pawn structure, trading down and
//! endgame scaling. Everything is computed per colour in that colour's own frame (ranks
//! counted from its back rank, files treated alike on both wings), so the result is
//! symmetric by construction.

use crate::board::{flag, Board, Squares};
use crate::default::pack;
use crate::geometry::{file_rank, Geometry};
use crate::params::EvalParams;
use xiangqi_core::{Color, Position, Role};

/// Squares on red's side of the river (ranks 0–4).
const RED_HALF: u128 = (1 << 45) - 1;

/// A set of squares built from the files `files` (a range of file indices) of the ranks `ranks`.
const fn area(files: (usize, usize), ranks: (usize, usize)) -> u128 {
    let mut m = 0u128;
    let mut r = ranks.0;
    while r <= ranks.1 {
        let mut f = files.0;
        while f <= files.1 {
            m |= 1 << (r * 9 + f);
            f += 1;
        }
        r += 1;
    }
    m
}

/// Crossed pawns are handled as 45-bit sets of the enemy half, ranks counted from the river
/// for red (shifted down by 45) and as they are for black. File `i` of a half.
const HALF_FILE_I: u64 = area((8, 8), (0, 4)) as u64;
/// Files c–g of the three ranks at the enemy palace, per attacking colour, in its half's bits
/// (red's pawns there stand on ranks 7–9, black's on ranks 0–2).
const HALF_NEAR_PALACE: [u64; 2] = [area((2, 6), (2, 4)) as u64, area((2, 6), (0, 2)) as u64];
/// Per colour: the zone around that colour's general (files c–g, ranks 0–3 from its side).
const ZONE: [u128; 2] = [area((2, 6), (0, 3)), area((2, 6), (6, 9))];

/// The number of set bits, for the small sets counted here (a few bits at most): cheaper
/// than a full population count on targets without a `popcnt` instruction.
#[inline]
fn count_sparse(mut x: u64) -> i32 {
    let mut n = 0;
    while x != 0 {
        x &= x - 1;
        n += 1;
    }
    n
}

/// What the positional terms count for one side, the attacker: its pieces' mobility, its
/// pawns, its pressure on the enemy general. Weighted by the parameters in [`positional`].
#[derive(Clone, Copy, Default)]
struct Counts {
    /// Over the chariots, the squares each can move to less the expected number.
    chariot_mobility: i32,
    /// The same for cannons.
    cannon_mobility: i32,
    /// The same for horses.
    horse_mobility: i32,
    /// Blocked horse legs (蹩马腿).
    horse_blocked_legs: i32,
    /// Connected pairs of pawns across the river.
    connected_pawns: i32,
    /// Pawns at the enemy palace, times the enemy's missing advisors.
    pawns_near_palace: i32,
    /// The enemy's missing advisors times our chariots (缺士怕双车).
    missing_advisor_chariots: i32,
    /// The enemy's missing advisors times our horses.
    missing_advisor_horses: i32,
    /// The enemy's missing elephants times our cannons (缺象怕炮).
    missing_elephant_cannons: i32,
    /// The enemy's missing elephants times our chariots.
    missing_elephant_chariots: i32,
    /// The enemy general's file is open and we have a chariot.
    open_king_file: i32,
    /// 空头炮: our cannon faces the enemy general with nothing between.
    empty_centre_cannon: i32,
    /// 当头炮: our cannon faces the enemy general over one screen.
    central_cannon: i32,
    /// Our chariot behind an enemy piece on the general's file.
    chariot_facing_king: i32,
    /// Our cannon further up the general's file.
    cannon_on_king_file: i32,
    /// Our cannons with one screen on the general's rank.
    cannon_on_king_rank: i32,
    /// Our attackers in the zone around the enemy general, at most 7.
    zone_attackers: usize,
}

/// The weights of the positional terms, each packed as a middlegame and an endgame value
/// ([`pack`]), so that a count is weighted by one multiplication for both.
#[derive(Clone, Debug)]
pub(crate) struct Weights {
    /// The weights of [`Counts`]'s linear counts, in the order of [`Counts::linear`].
    linear: [i32; LINEAR],
    /// By the number of attackers in the zone around the enemy general (halved for the
    /// endgame).
    zone_attackers: [i32; 8],
}

/// The number of linear counts in [`Counts`].
const LINEAR: usize = 16;

impl Weights {
    pub(crate) fn new(p: &EvalParams) -> Weights {
        let pair = |w: [i32; 2]| pack(w[0], w[1]);
        let both = |w: i32| pack(w, w);
        Weights {
            linear: [
                pair(p.chariot_mobility),
                pair(p.cannon_mobility),
                pair(p.horse_mobility),
                pair(p.horse_blocked_leg),
                pair(p.connected_pawns),
                both(p.pawn_near_palace_missing_advisor),
                both(p.missing_advisor_vs_chariot),
                both(p.missing_advisor_vs_horse),
                both(p.missing_elephant_vs_cannon),
                both(p.missing_elephant_vs_chariot),
                both(p.open_king_file),
                pair(p.empty_centre_cannon),
                pair(p.central_cannon),
                pair(p.chariot_facing_king),
                pair(p.cannon_on_king_file),
                pair(p.cannon_on_king_rank),
            ],
            zone_attackers: p.king_zone_attackers.map(|z| pack(z, z / 2)),
        }
    }
}

/// Safety, mobility and pawn terms, red's view, packed ([`pack`]): middlegame and endgame
/// sums stay far inside 16 bits each, so packing changes nothing.
pub(crate) fn positional(
    pos: &Position,
    p: &EvalParams,
    w: &Weights,
    geo: &Geometry,
    board: &Board,
) -> i32 {
    // Each term is linear in its count, so red's weighted sum less black's is the weight
    // times red's count less black's.
    let red = counts::<true>(pos, p, geo, board);
    let black = counts::<false>(pos, p, geo, board);
    let (r, b) = (red.linear(), black.linear());
    let mut sum = 0i32;
    for i in 0..LINEAR {
        sum = sum.wrapping_add(w.linear[i].wrapping_mul(r[i] - b[i]));
    }
    // Not linear: a table by the number of attackers.
    let zone = |c: &Counts| w.zone_attackers[c.zone_attackers & 7];
    sum.wrapping_add(zone(&red)).wrapping_sub(zone(&black))
}

impl Counts {
    /// The linear counts, in the order of [`Weights::linear`].
    #[inline]
    fn linear(&self) -> [i32; LINEAR] {
        [
            self.chariot_mobility,
            self.cannon_mobility,
            self.horse_mobility,
            self.horse_blocked_legs,
            self.connected_pawns,
            self.pawns_near_palace,
            self.missing_advisor_chariots,
            self.missing_advisor_horses,
            self.missing_elephant_cannons,
            self.missing_elephant_chariots,
            self.open_king_file,
            self.empty_centre_cannon,
            self.central_cannon,
            self.chariot_facing_king,
            self.cannon_on_king_file,
            self.cannon_on_king_rank,
        ]
    }
}

/// The [`Counts`] of red (`RED`) or black, in that colour's own frame.
#[inline(always)]
fn counts<const RED: bool>(
    pos: &Position,
    p: &EvalParams,
    geo: &Geometry,
    board: &Board,
) -> Counts {
    let (us, them) = if RED {
        (Color::Red, Color::Black)
    } else {
        (Color::Black, Color::Red)
    };
    let mut c = Counts::default();

    // Chariots and cannons: quiet moves along both lines plus captures (for a chariot the
    // first piece each way, for a cannon the second), read off the enemy's line occupancy.
    let lines = |s: usize| {
        let (f, r) = file_rank(s);
        let along_rank = geo.along_rank(f, board.rank_occ(r));
        let along_file = geo.along_file(r, board.file_occ(f));
        let enemy = (board.rank_of(them, r), board.file_of(them, f));
        (r, along_rank, along_file, enemy)
    };
    for s in Squares::of(board.pieces(us, Role::Chariot)) {
        let (_, rank, file, (enemy_rank, enemy_file)) = lines(s);
        let mob = rank.chariot_moves(enemy_rank) + file.chariot_moves(enemy_file);
        c.chariot_mobility += mob as i32 - p.chariot_mobility_base;
    }
    let (king_file, king_rank) = file_rank(pos.king_square(them).index());
    for s in Squares::of(board.pieces(us, Role::Cannon)) {
        let (r, rank, file, (enemy_rank, enemy_file)) = lines(s);
        let mob = rank.cannon_moves(enemy_rank) + file.cannon_moves(enemy_file);
        c.cannon_mobility += mob as i32 - p.cannon_mobility_base;
        // A side cannon: on the enemy general's rank with one screen between, i.e. the
        // general is the second piece it sees along the rank.
        let sees_king = rank.second() >> king_file & 1;
        c.cannon_on_king_rank += (r == king_rank) as i32 & sees_king as i32;
    }

    // Horses: free targets and blocked legs (蹩马腿), four legs each without branching (a
    // missing leg is empty with both targets off the board).
    let mb = &board.mailbox;
    let own_flag = flag(us);
    for s in Squares::of(board.pieces(us, Role::Horse)) {
        let mut mob = 0;
        for &[leg, t1, t2] in &geo.horse[s] {
            let free = mb[leg as usize] == 0;
            c.horse_blocked_legs += !free as i32;
            let targets =
                (mb[t1 as usize] & own_flag == 0) as i32 + (mb[t2 as usize] & own_flag == 0) as i32;
            mob += free as i32 * targets;
        }
        c.horse_mobility += mob - p.horse_mobility_base;
    }

    // Pawns across the river: connected pairs (counted once, by the lower file) and pawns at
    // the enemy palace when its advisors are gone.
    let pawns = board.pieces(us, Role::Pawn);
    let (crossed, crossed_half) = if RED {
        (pawns & !RED_HALF, (pawns >> 45) as u64)
    } else {
        (pawns & RED_HALF, pawns as u64 & RED_HALF as u64)
    };
    c.connected_pawns = count_sparse(crossed_half & !HALF_FILE_I & (crossed_half >> 1));
    let missing_adv = 2 - pos.count(them, Role::Advisor) as i32;
    let missing_ele = 2 - pos.count(them, Role::Elephant) as i32;
    if missing_adv != 0 {
        let near = count_sparse(crossed_half & HALF_NEAR_PALACE[us.index()]);
        c.pawns_near_palace = near * missing_adv;
    }

    // The safety of the enemy general, credited to the attacker: 缺士怕双车, 缺象怕炮.
    let chariots = pos.count(us, Role::Chariot) as i32;
    let horses = pos.count(us, Role::Horse) as i32;
    let cannons = pos.count(us, Role::Cannon) as i32;
    c.missing_advisor_chariots = missing_adv * chariots;
    c.missing_advisor_horses = missing_adv * horses;
    c.missing_elephant_cannons = missing_ele * cannons;
    c.missing_elephant_chariots = missing_ele * chariots;
    king_file_terms::<RED>(board, (king_file, king_rank), chariots > 0, &mut c);

    let attackers = board.pieces(us, Role::Chariot)
        | board.pieces(us, Role::Cannon)
        | board.pieces(us, Role::Horse)
        | crossed;
    // The zone lies in ranks 0–3 or 6–9: shifted into 64 bits.
    let zone_shift = if RED { 54 } else { 0 };
    let in_zone = ((attackers & ZONE[them.index()]) >> zone_shift) as u64;
    c.zone_attackers = (count_sparse(in_zone) as usize).min(7);
    c
}

/// The enemy general's file, on (`kf`, `kr`), walking away from its own side (open file,
/// 空头炮, 当头炮, a chariot or cannon further up), for the attacker `RED` or black, which
/// has chariots when `has_chariot`. (The side cannon on its rank is counted with the
/// cannons' mobility.)
#[inline(always)]
fn king_file_terms<const RED: bool>(
    board: &Board,
    (kf, kr): (usize, usize),
    has_chariot: bool,
    c: &mut Counts,
) {
    let (us, them) = if RED {
        (Color::Red, Color::Black)
    } else {
        (Color::Black, Color::Red)
    };
    let mb = &board.mailbox;
    // From black's general the walk goes down the board toward red, from red's up.
    let mut walk = Walk::<RED>::beyond(board.file_occ(kf), kr);
    let on_file = |rank: usize| mb[rank * 9 + kf];
    let cannon = flag(us) | Role::Cannon as u8;
    let chariot = flag(us) | Role::Chariot as u8;
    match (walk.next(), walk.next()) {
        (None, _) => c.open_king_file = has_chariot as i32,
        (Some(first), _) if on_file(first) == cannon => c.empty_centre_cannon = 1,
        (Some(_), Some(second)) if on_file(second) == cannon => c.central_cannon = 1,
        (Some(first), Some(second)) => {
            if on_file(second) == chariot && on_file(first) & flag(them) != 0 {
                c.chariot_facing_king = 1;
            } else {
                let third = walk.next();
                c.cannon_on_king_file = third.is_some_and(|t| on_file(t) == cannon) as i32;
            }
        }
        (Some(_), None) => {}
    }
}

/// The points of a line's occupancy (bit = point) one by one, toward lower points (`DOWN`)
/// or higher ones.
struct Walk<const DOWN: bool>(u32);

impl<const DOWN: bool> Walk<DOWN> {
    /// The occupied points of `occ` beyond point `from`, nearest first.
    #[inline]
    fn beyond(occ: u32, from: usize) -> Walk<DOWN> {
        let below = (1u32 << from) - 1;
        Walk(if DOWN {
            occ & below
        } else {
            occ & !below & !(1 << from)
        })
    }
}

impl<const DOWN: bool> Iterator for Walk<DOWN> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let p = if DOWN {
            31 - self.0.leading_zeros()
        } else {
            self.0.trailing_zeros()
        };
        self.0 ^= 1 << p;
        Some(p as usize)
    }
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
