//! Middlegame and endgame values packed into one `i32`, as the evaluation sums them.

/// Packs a middlegame and an endgame value into one `i32` (endgame in the high half), so
/// that both are added in one instruction. The same trick as Stockfish's `Score`.
#[inline]
pub(crate) const fn pack(mg: i32, eg: i32) -> i32 {
    (eg << 16).wrapping_add(mg)
}

/// The middlegame half of a packed pair.
#[inline]
pub(crate) const fn mg_of(s: i32) -> i32 {
    s as i16 as i32
}

/// The endgame half of a packed pair.
#[inline]
pub(crate) const fn eg_of(s: i32) -> i32 {
    (s.wrapping_add(0x8000) >> 16) as i16 as i32
}
