//! The statistics move ordering learns from (the history tables) and the plain capture
//! order they adjust (MVV-LVA): below the move picker and the search, which both use them.

use crate::see::see_value;
use xiangqi_core::{Move, Position, Role};

/// The bound the history scores approach (the update is a gravity formula).
pub(super) const HISTORY_MAX: i32 = 16_384;

/// `entry` moved by `bonus` under gravity: the nearer the bound, the smaller the step, so
/// that an entry never passes ±[`HISTORY_MAX`] (and fits an `i16`).
#[inline]
pub(super) fn with_bonus(entry: i32, bonus: i32) -> i32 {
    entry + bonus - entry * bonus.abs() / HISTORY_MAX
}

/// History scores by piece index (0..14) and target point; 128 columns rather than 90, so
/// that a move's 7-bit target indexes them without a bounds check.
pub(super) type History = [[i32; 128]; 14];

/// Capture history by piece index (0..14), target point and the victim's role (0..7).
pub(super) type CaptureHistory = [[[i32; 7]; 128]; 14];

/// The continuation histories' slots for one move: piece index (0..14) times the 90
/// points. Packed (not 128 columns as in [`History`]): the table is squared by it, and at
/// 90 it is 3.2 MB instead of 6.4 MB, half the cache it competes for.
pub(super) const MOVE_SLOTS: usize = 14 * 90;

/// Continuation histories: how well each quiet reply (piece, target) has done after a
/// given move (piece, target) one or two plies before. A move's worth depends on what was
/// just played far more than the plain history (by piece and target alone) can say; one
/// table serves both distances, as the pairs seen at each rarely collide.
pub(super) struct ContinuationHistory {
    table: Box<[i16]>,
}

/// The part of [`ContinuationHistory`] that follows one earlier move.
pub(super) type ContinuationRow<'a> = Option<&'a [i16; MOVE_SLOTS]>;

impl ContinuationHistory {
    /// A zeroed table (3.2 MB), allocated once per worker.
    pub(super) fn new_boxed() -> Box<ContinuationHistory> {
        Box::new(ContinuationHistory {
            table: vec![0; MOVE_SLOTS * MOVE_SLOTS].into_boxed_slice(),
        })
    }

    /// Forgets everything (new game).
    pub(super) fn clear(&mut self) {
        self.table.fill(0);
    }

    /// Halves every entry (between searches: old knowledge counts less).
    pub(super) fn halve(&mut self) {
        for h in self.table.iter_mut() {
            *h /= 2;
        }
    }

    /// The replies' row after the move with slot `slot`.
    #[inline]
    pub(super) fn row(&self, slot: usize) -> &[i16; MOVE_SLOTS] {
        let start = slot * MOVE_SLOTS;
        self.table[start..start + MOVE_SLOTS]
            .try_into()
            .expect("a row is MOVE_SLOTS long")
    }

    /// The entry of reply `reply` after the move with slot `slot`.
    #[inline]
    pub(super) fn entry_mut(&mut self, slot: usize, reply: usize) -> &mut i16 {
        &mut self.table[slot * MOVE_SLOTS + reply]
    }
}

/// The slot of a move of piece index `piece` to point `to`.
#[inline]
pub(super) fn move_slot(piece: usize, to: usize) -> usize {
    debug_assert!(piece < 14 && to < 90);
    piece * 90 + to
}

#[inline]
pub(super) fn role_of(pos: &Position, sq: xiangqi_core::Square) -> Option<Role> {
    pos.piece_at(sq).map(|p| p.role)
}

/// MVV-LVA order of a capture: the most valuable victim first, then the least valuable
/// attacker (0 for a move that captures nothing).
#[inline]
pub(super) fn mvv_lva(pos: &Position, m: Move) -> i32 {
    match role_of(pos, m.to()) {
        Some(victim) => {
            let attacker = role_of(pos, m.from()).map_or(0, see_value);
            see_value(victim) * 16 - attacker / 100
        }
        None => 0,
    }
}
