//! Correction history: how far the static evaluation has been from the search's verdict in
//! positions alike, added back to the evaluation of the next such position.
//!
//! Two likenesses are tracked, each in a small table by side to move: the same pawns on the
//! same points (an evaluation misjudges a pawn structure the same way wherever the other
//! pieces stand) and the same material (it misjudges an imbalance the same way). Their keys
//! are kept per ply by the worker, updated move by move ([`Keys::after_move`]): the
//! position's own key cannot serve, as it changes with every piece.

use xiangqi_core::{Move, Piece, Position, Role};

/// Entries per side in each table (a power of two).
const ENTRIES: usize = 16_384;
/// Entries are in sixteenths of a centipawn, so that small updates are not rounded away.
const GRAIN: i32 = 16;
/// The largest entry: a correction of at most 64 cp. Larger corrections (256 cp) measured
/// worse: the search's bounds that train them are noisy, and a wrong correction of a
/// pawn's worth misleads every pruning decision taken on the static evaluation.
const LIMIT: i32 = 64 * GRAIN;

/// The two likeness keys of a position.
#[derive(Copy, Clone, Default)]
pub(super) struct Keys {
    /// The pawns and their points.
    pub pawns: u64,
    /// The number of each piece (a sum of one random number per piece, so a capture
    /// subtracts its piece's).
    pub material: u64,
}

/// A well-mixed 64-bit hash of `x` (splitmix64's finaliser).
#[inline]
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[inline]
fn pawn_term(piece: Piece, point: usize) -> u64 {
    mix(((piece.index() as u64) << 8) | point as u64)
}

#[inline]
fn material_term(piece: Piece) -> u64 {
    mix(0x1_0000 | piece.index() as u64)
}

impl Keys {
    /// The keys of `pos`, from scratch.
    pub(super) fn of(pos: &Position) -> Keys {
        let mut keys = Keys::default();
        for (sq, piece) in pos.all_pieces() {
            if piece.role == Role::Pawn {
                keys.pawns ^= pawn_term(piece, sq.index());
            }
            keys.material = keys.material.wrapping_add(material_term(piece));
        }
        keys
    }

    /// The keys after `m`, a move of `moved` onto `captured` (if any), from these.
    #[inline]
    pub(super) fn after_move(self, m: Move, moved: Piece, captured: Option<Piece>) -> Keys {
        let mut keys = self;
        if moved.role == Role::Pawn {
            keys.pawns ^= pawn_term(moved, m.from().index()) ^ pawn_term(moved, m.to().index());
        }
        if let Some(c) = captured {
            if c.role == Role::Pawn {
                keys.pawns ^= pawn_term(c, m.to().index());
            }
            keys.material = keys.material.wrapping_sub(material_term(c));
        }
        keys
    }
}

/// The two tables, by side to move and likeness key.
pub(super) struct CorrectionHistory {
    pawns: [[i16; ENTRIES]; 2],
    material: [[i16; ENTRIES]; 2],
}

impl CorrectionHistory {
    /// Zeroed tables.
    pub(super) fn new_boxed() -> Box<CorrectionHistory> {
        Box::new(CorrectionHistory {
            pawns: [[0; ENTRIES]; 2],
            material: [[0; ENTRIES]; 2],
        })
    }

    /// Forgets everything (new game).
    pub(super) fn clear(&mut self) {
        *self = CorrectionHistory {
            pawns: [[0; ENTRIES]; 2],
            material: [[0; ENTRIES]; 2],
        };
    }

    #[inline]
    fn slots(keys: Keys) -> (usize, usize) {
        (
            keys.pawns as usize & (ENTRIES - 1),
            keys.material as usize & (ENTRIES - 1),
        )
    }

    /// The correction in centipawns for a position with `keys`, `side` to move: the mean
    /// of the two tables' entries.
    #[inline]
    pub(super) fn correction(&self, side: usize, keys: Keys) -> i32 {
        let (p, m) = Self::slots(keys);
        (self.pawns[side][p] as i32 + self.material[side][m] as i32) / (2 * GRAIN)
    }

    /// Moves the entries for `keys` by `error` (the search's score less the corrected
    /// static evaluation, in centipawns), the more the deeper the search (`depth`): a
    /// step in the error's direction that shrinks as an entry nears the limit, so that the
    /// entries settle where the corrected evaluation is right on average.
    #[inline]
    pub(super) fn update(&mut self, side: usize, keys: Keys, error: i32, depth: i32) {
        let (p, m) = Self::slots(keys);
        let bonus = (error * GRAIN * depth.clamp(1, 16) / 8).clamp(-LIMIT / 4, LIMIT / 4);
        for e in [&mut self.pawns[side][p], &mut self.material[side][m]] {
            let v = *e as i32;
            *e = (v + bonus - v * bonus.abs() / LIMIT).clamp(-LIMIT, LIMIT) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_follow_moves_and_captures() {
        let mut pos = Position::startpos();
        let mut keys = Keys::of(&pos);
        // Pawn moves, a pawn taking a pawn, a cannon taking a horse, a chariot taking it.
        for uci in ["c3c4", "c6c5", "c4c5", "h7h0", "i0h0"] {
            let m = pos.parse_uci(uci).unwrap();
            let moved = pos.piece_at(m.from()).unwrap();
            let captured = pos.piece_at(m.to());
            keys = keys.after_move(m, moved, captured);
            pos.play(m).unwrap();
            let fresh = Keys::of(&pos);
            assert_eq!(keys.pawns, fresh.pawns, "pawn key after {uci}");
            assert_eq!(keys.material, fresh.material, "material key after {uci}");
        }
    }

    #[test]
    fn entries_stay_bounded_and_learn_a_constant_bias() {
        let mut h = CorrectionHistory::new_boxed();
        let keys = Keys::of(&Position::startpos());
        for _ in 0..1000 {
            h.update(0, keys, 10_000, 20);
        }
        let full = h.correction(0, keys);
        assert!(
            (LIMIT / GRAIN - 1..=LIMIT / GRAIN).contains(&full),
            "a huge error saturates at the limit, not beyond: {full}"
        );
        assert_eq!(
            h.correction(1, keys),
            0,
            "the other side's entries are untouched"
        );
        // An evaluator 30 cp too optimistic here: searches keep finding 30 cp less than it
        // says, less what the correction already takes off.
        let mut h = CorrectionHistory::new_boxed();
        for _ in 0..2000 {
            let corrected = 30 + h.correction(0, keys);
            h.update(0, keys, 0 - corrected, 8);
        }
        assert!(
            (h.correction(0, keys) + 30).abs() <= 2,
            "{}",
            h.correction(0, keys)
        );
    }
}
