//! What is near a target point, for finding the stepping attackers of an exchange: the
//! points a horse, pawn, general, advisor or elephant could capture it from, and where a
//! horse's leg is.

/// A horse's eight jumps, as (file, rank) offsets: where a horse attacking a point stands.
const HORSE_JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];

/// For each target point, the points from which a stepping piece could reach it: a horse
/// (a knight's jump away), a pawn or general (orthogonally next to it), an advisor
/// (diagonally next to it) and an elephant (two points diagonally). A piece of the side
/// to move on none of them means no table needs walking.
const fn near_tables() -> [[u128; 4]; 90] {
    const GROUPS: [[(i32, i32); 8]; 4] = [
        HORSE_JUMPS,
        [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (0, 0),
            (0, 0),
            (0, 0),
            (0, 0),
        ],
        [
            (1, 1),
            (-1, 1),
            (1, -1),
            (-1, -1),
            (0, 0),
            (0, 0),
            (0, 0),
            (0, 0),
        ],
        [
            (2, 2),
            (-2, 2),
            (2, -2),
            (-2, -2),
            (0, 0),
            (0, 0),
            (0, 0),
            (0, 0),
        ],
    ];
    let mut t = [[0u128; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut g = 0;
        while g < 4 {
            let mut i = 0;
            while i < 8 {
                let (df, dr) = GROUPS[g][i];
                let (nf, nr) = (f + df, r + dr);
                if (df != 0 || dr != 0) && nf >= 0 && nf < 9 && nr >= 0 && nr < 10 {
                    t[s][g] |= 1u128 << (nr * 9 + nf);
                }
                i += 1;
            }
            g += 1;
        }
        s += 1;
    }
    t
}

/// For a horse on `s` attacking the target `to`, indexed by `s + 19 - to`: where its leg
/// is, as an offset from `to` (the target's diagonal neighbour towards the horse), modulo
/// 2^64 (added with wrapping).
pub(super) static HORSE_LEG: [u64; 64] = {
    let mut t = [0u64; 64];
    let jumps = HORSE_JUMPS;
    let mut i = 0;
    while i < 8 {
        // The horse stands at (df, dr) from the target; its leg is the target's diagonal
        // neighbour on its side.
        let (df, dr) = jumps[i];
        let leg = df.signum() + 9 * dr.signum();
        t[(df + 9 * dr + 19) as usize] = leg as i64 as u64;
        i += 1;
    }
    t
};

/// [`near_tables`]: knight jumps, orthogonal steps, diagonal steps, elephant steps.
pub(super) static NEAR: [[u128; 4]; 90] = near_tables();
pub(super) const KNIGHT: usize = 0;
pub(super) const ORTHOGONAL: usize = 1;
pub(super) const DIAGONAL: usize = 2;
pub(super) const ELEPHANT: usize = 3;
