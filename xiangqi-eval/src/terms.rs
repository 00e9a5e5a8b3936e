//! The terms computed per call: general safety, mobility, pawn structure, trading down and
//! endgame scaling. Everything is computed per colour in that colour's own frame (ranks
//! counted from its back rank, files treated alike on both wings), so the result is
//! symmetric by construction.

use crate::board::{flag, Board, Squares, BLACK as BLACK_FLAG, RED as RED_FLAG};
use crate::geometry::{Geometry, POINT_SHIFT};
use crate::packed::pack;
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
/// The squares of each rank (16 entries, so that a rank masked to 4 bits needs no bounds
/// check).
const RANK_SQUARES: [u128; 16] = {
    let mut t = [0u128; 16];
    let mut r = 0;
    while r < 10 {
        t[r] = area((0, 8), (r, r));
        r += 1;
    }
    t
};
/// Per direction (toward lower ranks, then higher ones) and rank of a general, the ranks
/// beyond it that way, as a file's occupancy has them (from bit [`POINT_SHIFT`]). 16 ranks
/// each, so that a rank masked to 4 bits needs no bounds check.
const BEYOND: [[u32; 16]; 2] = {
    let mut t = [[0u32; 16]; 2];
    let mut r = 0;
    while r < 10 {
        let below = (1u32 << r) - 1;
        t[0][r] = below << POINT_SHIFT;
        t[1][r] = (0x3FF & !below & !(1 << r)) << POINT_SHIFT;
        r += 1;
    }
    t
};
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

/// What the enemy general's file shows the attacker, walking away from the general (see
/// [`king_file_kind_of`]): the index of its weight in [`SideWeights::king_file`].
mod king_file_kind {
    /// Nothing that counts.
    pub(super) const NONE: usize = 0;
    /// The file is open and the attacker has a chariot.
    pub(super) const OPEN: usize = 1;
    /// 空头炮: the attacker's cannon faces the general with nothing between.
    pub(super) const EMPTY_CENTRE_CANNON: usize = 2;
    /// 当头炮: the attacker's cannon faces the general over one screen.
    pub(super) const CENTRAL_CANNON: usize = 3;
    /// The attacker's chariot behind an enemy piece.
    pub(super) const CHARIOT_FACING_KING: usize = 4;
    /// The attacker's cannon further up the file, third.
    pub(super) const CANNON_ON_KING_FILE: usize = 5;
}

/// The weights of the positional terms, each packed as a middlegame and an endgame value
/// ([`pack`]), so that one addition or multiplication weights both halves. All arithmetic
/// on packed values wraps, so a side's terms add up in one packed sum in any order and
/// grouping (the halves stay far inside 16 bits each): weighting each count and summing is
/// the same as weighting red's count less black's.
#[derive(Clone, Debug)]
pub(crate) struct Weights {
    /// The weights of red's terms and of black's: the same values but for
    /// [`SideWeights::own`]. A copy each also lets the code of each side load its weights
    /// where it uses them, instead of the compiler loading them once for both sides and
    /// keeping them on the stack in between.
    by_side: [SideWeights; 2],
}

/// The weights of [`Weights`], for one side.
#[derive(Clone, Debug)]
struct SideWeights {
    /// Per move of a chariot.
    chariot_mobility: i32,
    /// Per move of a cannon.
    cannon_mobility: i32,
    /// Per horse leg, by [`horse_leg_index`]: the moves over the leg when it is free, the
    /// blocked leg (蹩马腿) when not.
    horse_leg: [i32; 1024],
    /// Per mailbox code: 1 for the side's own pieces and the wall (where its horse cannot
    /// go), else 0 (as `u32`, so that two are added as loaded).
    own: [u32; 256],
    /// Per connected pair of crossed pawns.
    connected_pawns: i32,
    /// Per pawn at the enemy palace and advisor the enemy misses.
    pawn_near_palace: i32,
    /// What each of our chariots adds by the enemy's number of advisors: their missing
    /// advisors' weight (缺士怕双车), less the weight of a chariot's expected number of moves
    /// (its mobility counts the moves beyond those).
    chariot_by_advisors: [i32; 256],
    /// What each of our chariots adds by the enemy's number of elephants (missing ones).
    chariot_by_elephants: [i32; 256],
    /// What each of our horses adds by the enemy's number of advisors (missing ones), less
    /// the weight of a horse's expected number of moves.
    horse_by_advisors: [i32; 256],
    /// What each of our cannons adds by the enemy's number of elephants (缺象怕炮), less the
    /// weight of a cannon's expected number of moves.
    cannon_by_elephants: [i32; 256],
    /// Per cannon with one screen on the enemy general's rank.
    cannon_on_king_rank: i32,
    /// By what the enemy general's file shows ([`king_file_kind`]).
    king_file: [i32; 8],
    /// By the number of attackers in the zone around the enemy general (halved for the
    /// endgame).
    /// 32 entries, those past 7 repeating the seventh's, so that any count of the zone's 20
    /// squares, masked to 5 bits, reads its weight without capping it first.
    zone_attackers: [i32; 32],
}

/// The index into [`SideWeights::horse_leg`] of a leg holding the mailbox code `leg` (0 when
/// empty) whose two targets hold `own` (at most 2) of the horse's own pieces (or the wall).
/// The mask keeps it below 1024 without a bounds check and changes no index in use (at most
/// 255 * 4 + 2); `own` is a `u32` so that the two targets' counts add without widening.
#[inline]
const fn horse_leg_index(leg: u8, own: u32) -> usize {
    (leg as usize * 4 + own as usize) & 1023
}

impl Weights {
    pub(crate) fn new(p: &EvalParams) -> Weights {
        Weights {
            by_side: [
                SideWeights::new(p, RED_FLAG),
                SideWeights::new(p, BLACK_FLAG),
            ],
        }
    }
}

impl SideWeights {
    /// The weights for the side whose mailbox colour bit is `own_flag`.
    fn new(p: &EvalParams, own_flag: u8) -> SideWeights {
        let pair = |w: [i32; 2]| pack(w[0], w[1]);
        let both = |w: i32| pack(w, w);
        let horse_mobility = pair(p.horse_mobility);
        // Per enemy count of advisors or elephants: `per_missing` times the number missing
        // (of two), less `base`.
        let by_count = |per_missing: i32, base: i32| -> [i32; 256] {
            core::array::from_fn(|count| {
                per_missing
                    .wrapping_mul(2 - count as i32)
                    .wrapping_sub(base)
            })
        };
        let chariot_base = pair(p.chariot_mobility).wrapping_mul(p.chariot_mobility_base);
        let cannon_base = pair(p.cannon_mobility).wrapping_mul(p.cannon_mobility_base);
        let horse_base = horse_mobility.wrapping_mul(p.horse_mobility_base);
        let mut horse_leg = [0; 1024];
        for leg in 0..=255u8 {
            for own in 0..=2u32 {
                horse_leg[horse_leg_index(leg, own)] = if leg == 0 {
                    horse_mobility.wrapping_mul(2 - own as i32)
                } else {
                    pair(p.horse_blocked_leg)
                };
            }
        }
        let mut king_file = [0; 8];
        king_file[king_file_kind::OPEN] = both(p.open_king_file);
        king_file[king_file_kind::EMPTY_CENTRE_CANNON] = pair(p.empty_centre_cannon);
        king_file[king_file_kind::CENTRAL_CANNON] = pair(p.central_cannon);
        king_file[king_file_kind::CHARIOT_FACING_KING] = pair(p.chariot_facing_king);
        king_file[king_file_kind::CANNON_ON_KING_FILE] = pair(p.cannon_on_king_file);
        SideWeights {
            chariot_mobility: pair(p.chariot_mobility),
            cannon_mobility: pair(p.cannon_mobility),
            horse_leg,
            own: core::array::from_fn(|code| (code as u8 & own_flag != 0) as u32),
            connected_pawns: pair(p.connected_pawns),
            pawn_near_palace: both(p.pawn_near_palace_missing_advisor),
            chariot_by_advisors: by_count(both(p.missing_advisor_vs_chariot), chariot_base),
            chariot_by_elephants: by_count(both(p.missing_elephant_vs_chariot), 0),
            horse_by_advisors: by_count(both(p.missing_advisor_vs_horse), horse_base),
            cannon_by_elephants: by_count(both(p.missing_elephant_vs_cannon), cannon_base),
            cannon_on_king_rank: pair(p.cannon_on_king_rank),
            king_file,
            zone_attackers: core::array::from_fn(|n| {
                let z = p.king_zone_attackers[n.min(7)];
                pack(z, z / 2)
            }),
        }
    }
}

/// Safety, mobility and pawn terms, red's view, packed ([`pack`]): middlegame and endgame
/// sums stay far inside 16 bits each, so packing changes nothing.
pub(crate) fn positional(pos: &Position, w: &Weights, geo: &Geometry, board: &Board) -> i32 {
    let [red, black] = &w.by_side;
    // Red's sum is finished before black's terms start (`black_box` hides it from the
    // optimizer, which would otherwise interleave both sides and keep red's weights on the
    // stack meanwhile). It changes no value.
    let red = core::hint::black_box(side::<true>(pos, red, geo, board));
    red.wrapping_sub(side::<false>(pos, black, geo, board))
}

/// The weighted terms credited to red (`RED`) or black, the attacker: its pieces'
/// mobility, its pawns, its pressure on the enemy general, in its own frame. Packed.
#[inline(always)]
fn side<const RED: bool>(pos: &Position, w: &SideWeights, geo: &Geometry, board: &Board) -> i32 {
    let (us, them) = if RED {
        (Color::Red, Color::Black)
    } else {
        (Color::Black, Color::Red)
    };

    // Chariots and cannons: quiet moves along both lines plus captures (for a chariot the
    // first piece each way, for a cannon the second), read off the enemy's line occupancy.
    let lines = |s: usize| {
        let (f, r) = geo.file_rank(s);
        let along_rank = geo.along_rank(f, board.rank_occ(r));
        let along_file = geo.along_file(r, board.file_occ(f));
        let enemy = (board.rank_of(them, r), board.file_of(them, f));
        (f, r, along_rank, along_file, enemy)
    };
    // The files of our chariots and cannons (bit = file), for the enemy general's file.
    let mut slider_files = 0u32;
    let mut chariot_moves = 0;
    Squares::each(board.pieces(us, Role::Chariot), |s| {
        let (f, _, rank, file, (enemy_rank, enemy_file)) = lines(s);
        chariot_moves += geo.chariot_moves(rank, enemy_rank, file, enemy_file);
        slider_files |= 1 << f;
    });
    // Only chariots have set file bits so far.
    let has_chariot = slider_files != 0;
    let (king_file, king_rank) = geo.file_rank(pos.king_square(them).index());
    let cannons = board.pieces(us, Role::Cannon);
    let mut cannon_moves = 0;
    Squares::each(cannons, |s| {
        let (f, _, rank, file, (enemy_rank, enemy_file)) = lines(s);
        cannon_moves += geo.cannon_moves(rank, enemy_rank, file, enemy_file);
        slider_files |= 1 << f;
    });
    // Side cannons: on the enemy general's rank with one screen between, i.e. the general
    // is the second piece they see along the rank. Seldom any cannon on that rank at all,
    // often none of our pieces: tested for all at once first, by our occupancy of the rank
    // (one load), then by the cannons on it.
    let mut cannons_on_king_rank = 0;
    if board.rank_of(us, king_rank) != 0 {
        for s in Squares::of(cannons & RANK_SQUARES[king_rank & 15]) {
            let (f, _) = geo.file_rank(s);
            let rank = geo.along_rank(f, board.rank_occ(king_rank));
            cannons_on_king_rank += rank.second_at(king_file);
        }
    }
    // The enemy general's file.
    let sliders_on_file = slider_files >> king_file & 1 != 0;
    let kind = king_file_kind_of::<RED>(
        board,
        geo,
        (king_file, king_rank),
        has_chariot,
        sliders_on_file,
    );
    let king_file_weight = w.king_file[kind & 7];
    let mut sum = king_file_weight
        .wrapping_add(w.chariot_mobility.wrapping_mul(chariot_moves as i32))
        .wrapping_add(w.cannon_mobility.wrapping_mul(cannon_moves as i32))
        .wrapping_add(
            w.cannon_on_king_rank
                .wrapping_mul(cannons_on_king_rank as i32),
        );

    // Horses: per leg, the free targets over it or the blocked leg (蹩马腿), four legs each
    // without branching (a missing leg is empty with both targets off the board, on the
    // wall, which is "own" to both colours).
    let mb = &board.mailbox;
    Squares::each(board.pieces(us, Role::Horse), |s| {
        for &[leg, t1, t2] in &geo.horse[s & 127] {
            let own = w.own[mb[t1 as usize] as usize] + w.own[mb[t2 as usize] as usize];
            sum = sum.wrapping_add(w.horse_leg[horse_leg_index(mb[leg as usize], own)]);
        }
    });

    // Pawns across the river: connected pairs (counted once, by the lower file) and pawns at
    // the enemy palace when its advisors are gone.
    let pawns = board.pieces(us, Role::Pawn);
    let (crossed, crossed_half) = if RED {
        (pawns & !RED_HALF, (pawns >> 45) as u64)
    } else {
        (pawns & RED_HALF, pawns as u64 & RED_HALF as u64)
    };
    let connected = count_sparse(crossed_half & !HALF_FILE_I & (crossed_half >> 1));
    sum = sum.wrapping_add(w.connected_pawns.wrapping_mul(connected));
    let advisors = pos.count(them, Role::Advisor);
    let elephants = pos.count(them, Role::Elephant);
    let missing_adv = 2 - advisors as i32;
    if missing_adv != 0 {
        let near = count_sparse(crossed_half & HALF_NEAR_PALACE[us.index()]);
        sum = sum.wrapping_add(w.pawn_near_palace.wrapping_mul(near * missing_adv));
    }

    // By the numbers of pieces: the safety of the enemy general, credited to the attacker
    // (缺士怕双车, 缺象怕炮), and the expected mobility of our pieces (subtracted).
    let (advisors, elephants) = (advisors as usize, elephants as usize);
    let chariots = pos.count(us, Role::Chariot) as i32;
    let horses = pos.count(us, Role::Horse) as i32;
    let cannons = pos.count(us, Role::Cannon) as i32;
    let per_chariot =
        w.chariot_by_advisors[advisors].wrapping_add(w.chariot_by_elephants[elephants]);
    sum = sum
        .wrapping_add(per_chariot.wrapping_mul(chariots))
        .wrapping_add(w.horse_by_advisors[advisors].wrapping_mul(horses))
        .wrapping_add(w.cannon_by_elephants[elephants].wrapping_mul(cannons));

    let attackers = board.pieces(us, Role::Chariot)
        | board.pieces(us, Role::Cannon)
        | board.pieces(us, Role::Horse)
        | crossed;
    // The zone lies in ranks 0–3 or 6–9: shifted into 64 bits.
    let zone_shift = if RED { 54 } else { 0 };
    let in_zone = ((attackers & ZONE[them.index()]) >> zone_shift) as u64;
    let zone = count_sparse(in_zone) as usize;
    sum.wrapping_add(w.zone_attackers[zone & 31])
}

/// What the enemy general's file, on (`kf`, `kr`), shows the attacker `RED` or black (which
/// has chariots when `has_chariot`, and a chariot or cannon on that file when
/// `sliders_on_file`), walking away from the general's own side: a [`king_file_kind`]. (The
/// side cannon on its rank is counted with the cannons.)
#[inline(always)]
fn king_file_kind_of<const RED: bool>(
    board: &Board,
    geo: &Geometry,
    (kf, kr): (usize, usize),
    has_chariot: bool,
    sliders_on_file: bool,
) -> usize {
    use king_file_kind::*;
    let (us, them) = if RED {
        (Color::Red, Color::Black)
    } else {
        (Color::Black, Color::Red)
    };
    // From black's general the walk goes down the board toward red, from red's up: the
    // occupied points beyond the general that way.
    let beyond = board.file_occ(kf) & BEYOND[!RED as usize][kr & 15];
    // Every kind but the open file needs a chariot or cannon of ours on the file.
    if !sliders_on_file || beyond == 0 {
        return if beyond == 0 {
            has_chariot as usize * OPEN
        } else {
            NONE
        };
    }
    // The pieces on the nearest three points beyond, by a table rather than a walk; a
    // missing one reads an empty square past the board (so it matches no piece).
    let nearest = geo.nearest_on_file::<RED>(beyond >> POINT_SHIFT);
    let mb = &board.mailbox;
    let on_file = |offset: u32| mb[(offset as usize & 255) + kf];
    let (first, second) = (on_file(nearest), on_file(nearest >> 8));
    let cannon = flag(us) | Role::Cannon as u8;
    let chariot = flag(us) | Role::Chariot as u8;
    if first == cannon {
        EMPTY_CENTRE_CANNON
    } else if second == cannon {
        CENTRAL_CANNON
    } else if second == chariot && first & flag(them) != 0 {
        CHARIOT_FACING_KING
    } else if on_file(nearest >> 16) == cannon {
        CANNON_ON_KING_FILE
    } else {
        NONE
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
