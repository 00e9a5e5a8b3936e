//! General-bucketed inputs (feature set 2): each perspective's 1,260 piece-point features
//! ([`crate::features`]) repeated once per *bucket* of its own general's palace point.
//!
//! Why: the value of a piece on a point depends on where the general it attacks or guards
//! stands; a single set of piece-point weights can only average over the general's nine
//! palace points. The field (Pikafish) splits the palace into 6 buckets and mirrors the board
//! left to right when the general stands on the right-hand file, so that files d and f share
//! weights and the net learns one side of the palace twice as fast. The map from palace point
//! to bucket is data ([`BucketMap`], stored in each net file), not code, so that other
//! splits can be measured without a new file format.
//!
//! Points are the perspective's own ([`crate::features::feature`]): rank 0 is its back rank.

use crate::features::{feature, mirrored, FEATURES};
use xiangqi_core::{Color, Piece, Role, Square};

/// The most buckets a map may use: one per palace point once files d and f are merged.
pub const MAX_BUCKETS: usize = 6;

/// The palace bucket map: for each of the six palace points left after the mirror (ranks
/// 0–2 of the perspective, files d and e), its bucket. Entry `2 × rank + (file − 3)` for
/// file d or e; the f-file is the d-file mirrored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BucketMap(pub [u8; 6]);

impl BucketMap {
    /// One bucket per point (Pikafish's split): the three ranks times the side and centre
    /// files.
    pub const SIX: BucketMap = BucketMap([0, 1, 2, 3, 4, 5]);
    /// One bucket per rank: the general at home, one step up, two steps up.
    pub const RANKS: BucketMap = BucketMap([0, 0, 1, 1, 2, 2]);
    /// A single bucket: the mirror alone.
    pub const ONE: BucketMap = BucketMap([0; 6]);

    /// How many buckets the map uses (its largest entry plus one), or `None` when the
    /// entries do not cover `0..n` without a gap or exceed [`MAX_BUCKETS`].
    pub fn count(&self) -> Option<usize> {
        let n = usize::from(*self.0.iter().max()?) + 1;
        let covered = (0..n).all(|b| self.0.iter().any(|&e| usize::from(e) == b));
        (n <= MAX_BUCKETS && covered).then_some(n)
    }

    /// The map's six entries in order (for tests and reports).
    pub fn entries(&self) -> [u8; 6] {
        self.0
    }
}

/// Where a perspective's general stands, as the inputs see it: its bucket and whether the
/// board is mirrored left to right. Two positions with the same `KingKey` for a perspective
/// share every feature of that perspective except those of moved pieces; a general move
/// that changes the key changes every feature, and the accumulator is rebuilt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KingKey {
    /// The bucket, below the map's count.
    pub bucket: u8,
    /// Whether files are mirrored (the general on the right of the palace's centre).
    pub mirror: bool,
}

impl KingKey {
    /// A small index for caches: `2 × bucket + mirror`, below `2 × MAX_BUCKETS`.
    #[inline]
    pub fn slot(self) -> usize {
        2 * usize::from(self.bucket) + usize::from(self.mirror)
    }
}

/// The perspective's own view of `square` (rank 0 its back rank).
#[inline]
fn relative(perspective: Color, square: Square) -> Square {
    match perspective {
        Color::Red => square,
        Color::Black => square.flip_vertical(),
    }
}

/// The key of `perspective` whose general stands on `king` (a board point). A point outside
/// the palace (only in a damaged or hand-made position) is taken as the nearest palace
/// point, so that no input panics.
#[inline]
pub fn king_key(map: &BucketMap, perspective: Color, king: Square) -> KingKey {
    let own = relative(perspective, king);
    let file = own.file().index().clamp(3, 5);
    let rank = own.rank().index().min(2);
    let mirror = file == 5;
    let file = if mirror { 3 } else { file };
    let entry = map.0[2 * usize::from(rank) + usize::from(file) - 3];
    KingKey {
        bucket: entry,
        mirror,
    }
}

/// The number of inputs of one perspective with `buckets` buckets.
pub const fn inputs(buckets: usize) -> usize {
    buckets * FEATURES
}

/// The input that `piece` on `square` switches on in `perspective`'s view, whose general
/// has key `key`.
#[inline]
pub fn input(key: KingKey, perspective: Color, piece: Piece, square: Square) -> usize {
    let f = feature(perspective, piece, square);
    let f = if key.mirror { mirrored(f) } else { f };
    usize::from(key.bucket) * FEATURES + f
}

/// Whether a piece is a general: its moves are the ones that may change a key.
#[inline]
pub fn is_general(piece: Piece) -> bool {
    piece.role == Role::King
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_maps_count_their_buckets() {
        assert_eq!(BucketMap::SIX.count(), Some(6));
        assert_eq!(BucketMap::RANKS.count(), Some(3));
        assert_eq!(BucketMap::ONE.count(), Some(1));
        assert_eq!(BucketMap([0, 2, 2, 2, 2, 2]).count(), None); // bucket 1 unused
        assert_eq!(BucketMap([0, 1, 2, 3, 4, 6]).count(), None);
    }

    /// The f-file general sees the board mirrored, with the bucket of the d-file point of
    /// its rank; black's palace is counted from black's own back rank.
    #[test]
    fn palace_points_map_with_the_mirror() {
        let sq = |s: &str| Square::from_iccs(s).unwrap();
        let map = BucketMap::SIX;
        assert_eq!(
            king_key(&map, Color::Red, sq("e0")),
            KingKey {
                bucket: 1,
                mirror: false
            }
        );
        assert_eq!(
            king_key(&map, Color::Red, sq("f1")),
            KingKey {
                bucket: 2,
                mirror: true
            }
        );
        assert_eq!(
            king_key(&map, Color::Red, sq("d1")),
            KingKey {
                bucket: 2,
                mirror: false
            }
        );
        assert_eq!(
            king_key(&map, Color::Black, sq("e9")),
            king_key(&map, Color::Red, sq("e0"))
        );
        assert_eq!(
            king_key(&map, Color::Black, sq("d7")),
            king_key(&map, Color::Red, sq("d2"))
        );
        // Outside the palace: the nearest palace point, no panic.
        assert_eq!(
            king_key(&map, Color::Red, sq("a9")),
            king_key(&map, Color::Red, sq("d2"))
        );
    }

    #[test]
    fn inputs_are_distinct_and_in_range() {
        let n = inputs(6);
        let mut seen = vec![false; n];
        for bucket in 0..6u8 {
            let key = KingKey {
                bucket,
                mirror: false,
            };
            for color in Color::ALL {
                for role in Role::ALL {
                    for square in Square::all() {
                        let i = input(key, Color::Red, Piece::new(color, role), square);
                        assert!(i < n && !seen[i]);
                        seen[i] = true;
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }
}
