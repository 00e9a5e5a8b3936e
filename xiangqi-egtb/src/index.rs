//! The index of a table: a position of one material (strong side red) ↔ a number.
//!
//! A table's positions are the placements of its pieces, each piece kind on the points it
//! can ever stand on (generals in their palace, advisors on their five points, elephants on
//! their seven, pawns on the 55 points a pawn can reach, the others anywhere), with the
//! left-right mirror taken out: the red general stands on file d or e, and when it stands
//! on file e the black general does not stand right of it; with both on file e, the
//! smaller of the two indices of a position and its mirror image stands for both (the
//! other is marked invalid), so that every position has exactly one index. Identical pieces are one
//! combination (two advisors: 10 placements, not 25). Placements where two pieces share a
//! point, or that are not legal positions for the side to move, are in the index but
//! marked invalid by the generator; a legal position never lands on one.

use crate::material::Material;
use xiangqi_core::{Color, Role};

/// No point: a slot whose piece has been captured.
pub(crate) const NO_SQUARE: u8 = 255;

/// The most pieces a table may have.
pub(crate) const MAX_PIECES: usize = 16;

/// Mirrors a point left-right.
#[inline]
pub(crate) const fn mirror(sq: u8) -> u8 {
    let file = sq % 9;
    sq - file + (8 - file)
}

/// Mirrors a point top-bottom (red's points to black's).
#[inline]
pub(crate) const fn flip(sq: u8) -> u8 {
    let file = sq % 9;
    let rank = sq / 9;
    (9 - rank) * 9 + file
}

#[inline]
pub(crate) const fn file_of(sq: u8) -> u8 {
    sq % 9
}

/// The points where a piece of `role` and `color` can ever stand.
pub(crate) fn domain(color: Color, role: Role) -> Vec<u8> {
    let red: Vec<u8> = match role {
        Role::King => vec![3, 4, 5, 12, 13, 14, 21, 22, 23],
        Role::Advisor => vec![3, 5, 13, 21, 23],
        Role::Elephant => vec![2, 6, 18, 22, 26, 38, 42],
        Role::Pawn => {
            let mut v = vec![27, 29, 31, 33, 35, 36, 38, 40, 42, 44];
            v.extend(45..90);
            v
        }
        _ => (0..90).collect(),
    };
    let mut v: Vec<u8> = match color {
        Color::Red => red,
        Color::Black => red.into_iter().map(flip).collect(),
    };
    v.sort_unstable();
    v
}

/// The binomial coefficient, small arguments.
const fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let mut r = 1u64;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// One kind of piece of a table (colour and role, how many), with the points it can stand on.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    pub(crate) color: Color,
    pub(crate) role: Role,
    pub(crate) count: usize,
    /// The first slot of this group in a placement.
    pub(crate) first_slot: usize,
    /// The point of each place in the domain.
    pub(crate) domain: Vec<u8>,
    /// The place in the domain of each point (255 if the piece cannot stand there).
    pub(crate) place: [u8; 90],
    /// C(domain, count): how many placements.
    pub(crate) size: u64,
    /// The index stride of this group.
    pub(crate) stride: u64,
    /// For each combination rank, its places in increasing order (count bytes each).
    unrank: Vec<u8>,
}

/// The canonical pairs of general points, and their index.
#[derive(Clone, Debug)]
struct KingPairs {
    pairs: Vec<(u8, u8)>,
    /// The index of a pair by (red point, black point), 255 if not canonical.
    index: Vec<u8>,
}

impl KingPairs {
    fn new() -> KingPairs {
        let mut pairs = Vec::new();
        let mut index = vec![255u8; 90 * 90];
        for rk in domain(Color::Red, Role::King) {
            for bk in domain(Color::Black, Role::King) {
                if is_canonical_kings(rk, bk) {
                    index[rk as usize * 90 + bk as usize] = pairs.len() as u8;
                    pairs.push((rk, bk));
                }
            }
        }
        KingPairs { pairs, index }
    }
}

/// The generals stand as the index keeps them: red on file d or e, and black not right of
/// file e when red is on file e.
#[inline]
pub(crate) fn is_canonical_kings(rk: u8, bk: u8) -> bool {
    file_of(rk) < 4 || (file_of(rk) == 4 && file_of(bk) <= 4)
}

/// The pieces of a table in slots, with their points: slot 0 the red general, slot 1 the
/// black one, then each group's pieces.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Placement {
    pub(crate) squares: [u8; MAX_PIECES],
}

/// The index layout of one material.
#[derive(Clone, Debug)]
pub struct Layout {
    pub(crate) material: Material,
    pub(crate) groups: Vec<Group>,
    kings: KingPairs,
    /// The colour and role of each slot.
    pub(crate) slots: Vec<(Color, Role)>,
    /// Positions per side to move.
    pub(crate) size: u64,
    /// The group of each slot (`usize::MAX` for the generals).
    slot_group: Vec<usize>,
}

impl Layout {
    /// The layout of a material, which must be canonical (strong side red).
    pub fn new(material: Material) -> Layout {
        debug_assert!(material.is_canonical());
        let kings = KingPairs::new();
        let mut slots = vec![(Color::Red, Role::King), (Color::Black, Role::King)];
        let mut groups = Vec::new();
        let mut stride = kings.pairs.len() as u64;
        // Defenders first (small groups), attackers last: the attackers vary slowest.
        let order = [
            Role::Advisor,
            Role::Elephant,
            Role::Pawn,
            Role::Horse,
            Role::Cannon,
            Role::Chariot,
        ];
        for role in order {
            for color in [Color::Black, Color::Red] {
                let count = material.count(color, role) as usize;
                if count == 0 {
                    continue;
                }
                let dom = domain(color, role);
                let mut place = [255u8; 90];
                for (i, &sq) in dom.iter().enumerate() {
                    place[sq as usize] = i as u8;
                }
                let size = binomial(dom.len() as u64, count as u64);
                let mut unrank = vec![0u8; size as usize * count];
                // Enumerate combinations in colex order: rank = sum C(p_i, i + 1).
                let mut combo: Vec<usize> = (0..count).collect();
                for r in 0..size as usize {
                    debug_assert_eq!(rank_places(&combo), r as u64);
                    for (i, &p) in combo.iter().enumerate() {
                        unrank[r * count + i] = p as u8;
                    }
                    // Next combination in colex order.
                    let mut i = 0;
                    while i < count {
                        if i + 1 < count && combo[i] + 1 == combo[i + 1] {
                            combo[i] = i;
                            i += 1;
                        } else {
                            combo[i] += 1;
                            break;
                        }
                    }
                }
                groups.push(Group {
                    color,
                    role,
                    count,
                    first_slot: slots.len(),
                    domain: dom,
                    place,
                    size,
                    stride,
                    unrank,
                });
                stride = stride.saturating_mul(size);
                for _ in 0..count {
                    slots.push((color, role));
                }
            }
        }
        let mut slot_group = vec![usize::MAX; slots.len()];
        for (gi, g) in groups.iter().enumerate() {
            for k in 0..g.count {
                slot_group[g.first_slot + k] = gi;
            }
        }
        Layout {
            material,
            groups,
            kings,
            slots,
            size: stride,
            slot_group,
        }
    }

    /// Positions per side to move.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The placement of index `idx` (which must be below [`Layout::size`]).
    #[inline]
    pub(crate) fn decode(&self, idx: u64) -> Placement {
        let mut squares = [NO_SQUARE; MAX_PIECES];
        let n = self.kings.pairs.len() as u64;
        let (rk, bk) = self.kings.pairs[(idx % n) as usize];
        squares[0] = rk;
        squares[1] = bk;
        for g in &self.groups {
            let r = ((idx / g.stride) % g.size) as usize;
            let places = &g.unrank[r * g.count..(r + 1) * g.count];
            for (i, &p) in places.iter().enumerate() {
                squares[g.first_slot + i] = g.domain[p as usize];
            }
        }
        Placement { squares }
    }

    /// The index of a placement in this layout's slot order (identical pieces in any
    /// order), mirrored left-right first when its generals ask for it (the one index of
    /// the position and its mirror image). `None` when a piece
    /// stands where its kind cannot.
    #[inline]
    pub(crate) fn encode(&self, p: &Placement) -> Option<u64> {
        let (rk, bk) = (p.squares[0], p.squares[1]);
        if rk >= 90 || bk >= 90 {
            return None;
        }
        let mut squares = p.squares;
        if !is_canonical_kings(rk, bk) {
            for sq in squares.iter_mut() {
                if *sq != NO_SQUARE {
                    *sq = mirror(*sq);
                }
            }
        }
        let pair = self.kings.index[squares[0] as usize * 90 + squares[1] as usize];
        if pair == 255 {
            return None;
        }
        let mut idx = pair as u64;
        for g in &self.groups {
            for i in 0..g.count {
                let sq = squares[g.first_slot + i];
                if sq >= 90 || g.place[sq as usize] == 255 {
                    return None;
                }
            }
            idx += Self::group_rank(g, &squares) * g.stride;
        }
        if file_of(squares[0]) == 4 && file_of(squares[1]) == 4 {
            // Both generals on file e: the position and its mirror image have an index
            // each; the smaller one stands for both.
            let mut mirrored = squares;
            for sq in mirrored.iter_mut() {
                if *sq != NO_SQUARE {
                    *sq = mirror(*sq);
                }
            }
            let mut other = pair as u64;
            for g in &self.groups {
                other += Self::group_rank(g, &mirrored) * g.stride;
            }
            idx = idx.min(other);
        }
        Some(idx)
    }

    /// Whether `idx` is the index that stands for its position (not the larger of a
    /// position's two indices with both generals on file e).
    #[inline]
    pub(crate) fn is_canonical_index(&self, idx: u64, p: &Placement) -> bool {
        if file_of(p.squares[0]) != 4 || file_of(p.squares[1]) != 4 {
            return true;
        }
        self.encode(p) == Some(idx)
    }

    /// The rank of a group's pieces in a placement (canonical orientation).
    #[inline(always)]
    fn group_rank(g: &Group, squares: &[u8; MAX_PIECES]) -> u64 {
        match g.count {
            1 => g.place[squares[g.first_slot] as usize] as u64,
            2 => {
                let a = g.place[squares[g.first_slot] as usize] as u64;
                let b = g.place[squares[g.first_slot + 1] as usize] as u64;
                let (a, b) = if a < b { (a, b) } else { (b, a) };
                a + b * (b - 1) / 2
            }
            _ => {
                let mut places = [0usize; 8];
                for (i, p) in places.iter_mut().enumerate().take(g.count) {
                    *p = g.place[squares[g.first_slot + i] as usize] as usize;
                }
                let places = &mut places[..g.count];
                places.sort_unstable();
                rank_places(places)
            }
        }
    }

    /// [`Layout::encode`] of `after`, which is `before` (the placement of `idx`, its
    /// generals in canonical orientation) with the piece of `slot` moved: when that piece
    /// is no general and the generals are not both on file e, only its group's rank is
    /// worked out again; a general's move changes only the generals' pair when neither
    /// placement needs mirroring or has both generals on file e. `None` when the piece stands where its kind cannot, as from
    /// [`Layout::encode`].
    #[inline]
    pub(crate) fn encode_moved(
        &self,
        idx: u64,
        before: &Placement,
        after: &Placement,
        slot: usize,
    ) -> Option<u64> {
        let gi = *self.slot_group.get(slot)?;
        let (rk, bk) = (before.squares[0], before.squares[1]);
        let both_on_e = |r: u8, b: u8| file_of(r) == 4 && file_of(b) == 4;
        if gi == usize::MAX {
            // A general's move: only the pair's index changes, while both pairs are in
            // canonical orientation (no mirror) and not both on file e.
            let (nrk, nbk) = (after.squares[0], after.squares[1]);
            if nrk < 90 && nbk < 90 && !both_on_e(rk, bk) && !both_on_e(nrk, nbk) {
                let old = self.kings.index[rk as usize * 90 + bk as usize];
                let new = self.kings.index[nrk as usize * 90 + nbk as usize];
                if old != 255 && new != 255 {
                    return Some(idx - u64::from(old) + u64::from(new));
                }
            }
            return self.encode(after);
        }
        if both_on_e(rk, bk) {
            return self.encode(after);
        }
        let to = after.squares[slot];
        if to >= 90 || self.groups[gi].place[to as usize] == 255 {
            return None;
        }
        Some(self.encode_quiet(idx, before, after, slot))
    }

    /// The index after a piece other than a general moved from `before` (the decoded
    /// placement of `idx`, canonical orientation) to `after` without capturing: only its
    /// group's rank changes, and the generals keep the orientation.
    #[inline]
    pub(crate) fn encode_quiet(
        &self,
        idx: u64,
        before: &Placement,
        after: &Placement,
        slot: usize,
    ) -> u64 {
        let gi = self.slot_group[slot];
        if gi == usize::MAX || (file_of(before.squares[0]) == 4 && file_of(before.squares[1]) == 4)
        {
            return self
                .encode(after)
                .expect("a general's move stays in the palace");
        }
        let g = &self.groups[gi];
        let old = Self::group_rank(g, &before.squares);
        let new = Self::group_rank(g, &after.squares);
        idx + new * g.stride - old * g.stride
    }

    /// The index of the pieces `pieces` (colour, role, point) of a position with this
    /// layout's material and orientation.
    pub(crate) fn encode_pieces(&self, pieces: &[(Color, Role, u8)]) -> Option<u64> {
        self.encode(&self.placement_of_pieces(pieces)?)
    }

    /// The placement (slots) of the pieces `pieces` (colour, role, point) of a position
    /// with this layout's material and orientation; `None` when they do not fit it.
    pub(crate) fn placement_of_pieces(&self, pieces: &[(Color, Role, u8)]) -> Option<Placement> {
        let mut squares = [NO_SQUARE; MAX_PIECES];
        let mut next = [0usize; 32];
        for &(color, role, sq) in pieces {
            if role == Role::King {
                squares[color.index()] = sq;
                continue;
            }
            let g = self
                .groups
                .iter()
                .position(|g| g.color == color && g.role == role)?;
            let k = next[g];
            if k >= self.groups[g].count {
                return None;
            }
            next[g] += 1;
            squares[self.groups[g].first_slot + k] = sq;
        }
        Some(Placement { squares })
    }
}

/// A position's pieces (colour, role, point) and side to move as its material's table
/// holds them: turned round (colours swapped, board flipped top to bottom) when the strong
/// side is black.
pub(crate) fn table_orientation(
    pos: &xiangqi_core::Position,
    material: Material,
) -> (Vec<(Color, Role, u8)>, Color) {
    let swap = !material.is_canonical();
    let pieces = oriented_pieces(pos, swap).collect();
    let us = pos.side_to_move();
    (pieces, if swap { us.other() } else { us })
}

/// A position's pieces (colour, role, point), turned round (colours swapped, board flipped
/// top to bottom) when `swap`.
pub(crate) fn oriented_pieces(
    pos: &xiangqi_core::Position,
    swap: bool,
) -> impl Iterator<Item = (Color, Role, u8)> + '_ {
    pos.all_pieces().map(move |(sq, p)| {
        let sq = sq.index() as u8;
        if swap {
            (p.color.other(), p.role, flip(sq))
        } else {
            (p.color, p.role, sq)
        }
    })
}

/// The colex rank of increasing places.
#[inline]
fn rank_places(places: &[usize]) -> u64 {
    let mut r = 0;
    for (i, &p) in places.iter().enumerate() {
        r += binomial(p as u64, i as u64 + 1);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_then_encode_is_the_identity() {
        for name in ["krkaabb", "kpkaa", "kraabbkaabb", "knpkab"] {
            let m: Material = name.parse().unwrap();
            let layout = Layout::new(m.canonical());
            let step = (layout.size() / 20_000).max(1);
            let mut idx = 0;
            while idx < layout.size() {
                let p = layout.decode(idx);
                let e = layout.encode(&p).expect("every decoded placement encodes");
                if layout.is_canonical_index(idx, &p) {
                    assert_eq!(e, idx, "{name} {idx}");
                } else {
                    // The other index of a position with both generals on file e.
                    assert!(e < idx, "{name} {idx}");
                    assert_eq!(layout.encode(&layout.decode(e)), Some(e));
                }
                idx += step;
            }
        }
    }

    #[test]
    fn sizes() {
        let l = Layout::new("krk".parse().unwrap());
        assert_eq!(l.size(), 45 * 90);
        let l = Layout::new("krkaabb".parse().unwrap());
        assert_eq!(l.size(), 45 * 90 * 10 * 21);
        let l = Layout::new("kppk".parse().unwrap());
        assert_eq!(l.size(), 45 * 1485);
    }
}
