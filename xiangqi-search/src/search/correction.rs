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
/// The largest entry: a correction of at most 256 cp from each table.
const LIMIT: i32 = 256 * GRAIN;

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

    /// Moves the entries for `keys` towards `error` (the search's score less the
    /// evaluator's own value, in centipawns), the more the deeper the search (`depth`).
    #[inline]
    pub(super) fn update(&mut self, side: usize, keys: Keys, error: i32, depth: i32) {
        let (p, m) = Self::slots(keys);
        let target = (error * GRAIN).clamp(-LIMIT, LIMIT);
        let weight = (depth + 1).clamp(1, 16);
        for e in [&mut self.pawns[side][p], &mut self.material[side][m]] {
            let v = *e as i32;
            // Rounded to the nearest rather than towards zero, so that an entry settles
            // within half a step of its target instead of a whole step short of it.
            let step = (target - v) * weight;
            let step = (step + step.signum() * 128) / 256;
            *e = (v + step).clamp(-LIMIT, LIMIT) as i16;
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
    fn entries_move_towards_the_error_and_stay_bounded() {
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
        for _ in 0..1000 {
            h.update(0, keys, -50, 20);
        }
        assert!((h.correction(0, keys) + 50).abs() <= 1);
    }
}
