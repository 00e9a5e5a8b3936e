//! Zobrist hashing: one 64-bit key per (piece, square), one for black to move.
//!
//! The keys come from SplitMix64 (Steele, Lea & Flood, 2014) started at the fixed seed
//! [`SEED`], so they are the same in every build and on every platform: a key stored in a
//! file or an opening book stays valid. A position's key is the XOR of the keys of its
//! pieces, XOR [`side_key`] when black is to move. Move counters are not hashed.

use crate::{Piece, Square};

/// The SplitMix64 seed the keys are drawn from (the first 16 hex digits of pi's fraction).
pub const SEED: u64 = 0x243F_6A88_85A3_08D3;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn make_keys() -> ([[u64; 90]; 14], u64) {
    let mut keys = [[0u64; 90]; 14];
    let mut state = SEED;
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < 90 {
            let (next, k) = splitmix64(state);
            state = next;
            keys[p][s] = k;
            s += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix64(state);
    (keys, side)
}

const KEYS: ([[u64; 90]; 14], u64) = make_keys();
static PIECE_KEYS: [[u64; 90]; 14] = KEYS.0;

/// The same keys indexed by the board's internal piece code (`color << 3 | (role + 1)`).
static KEYS_BY_CODE: [[u64; 128]; 16] = {
    let mut t = [[0u64; 128]; 16];
    let mut color = 0;
    while color < 2 {
        let mut role = 0;
        while role < 7 {
            let mut s = 0;
            while s < 90 {
                t[color << 3 | (role + 1)][s] = KEYS.0[color * 7 + role][s];
                s += 1;
            }
            role += 1;
        }
        color += 1;
    }
    t
};

/// The key of `piece` standing on `square`.
#[inline]
pub fn piece_key(piece: Piece, square: Square) -> u64 {
    PIECE_KEYS[piece.index()][square.index()]
}

#[inline]
pub(crate) fn piece_key_raw(code: u8, square: usize) -> u64 {
    KEYS_BY_CODE[(code & 15) as usize][square]
}

/// The key XORed in when black is to move.
#[inline]
pub const fn side_key() -> u64 {
    KEYS.1
}
