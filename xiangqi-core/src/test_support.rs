//! Helpers shared by the unit tests: the positions of the test suites and a seeded
//! pseudo-random generator for random playouts.

use alloc::vec::Vec;

/// The FENs of the perft suite (`tests/data/perft.epd`), followed by those of the mate
/// puzzles (`tests/data/mates.epd`) when `with_mates` is set.
pub(crate) fn suite_fens(with_mates: bool) -> Vec<&'static str> {
    let mates = if with_mates {
        include_str!("../tests/data/mates.epd")
    } else {
        ""
    };
    include_str!("../tests/data/perft.epd")
        .lines()
        .chain(mates.lines())
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split(';').next().unwrap_or("").trim())
        .collect()
}

/// A xorshift64 generator started from `seed` (not zero): the same numbers every run.
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}
