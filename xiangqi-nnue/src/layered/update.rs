//! The accumulator's vector arithmetic over slices of any width: one column added or taken
//! away, and the fused copy-and-update of a move. Compiled for SSE2, AVX2 and AVX-512 and
//! chosen at run time by `multiversion`, as the first format's fixed-width versions are.

use multiversion::multiversion;

/// `values += column`.
#[multiversion(targets("x86_64+avx512f+avx512bw", "x86_64+avx2"))]
pub(crate) fn add_column(values: &mut [i16], column: &[i16]) {
    for (v, w) in values.iter_mut().zip(column) {
        *v = v.wrapping_add(*w);
    }
}

/// `values -= column`.
#[multiversion(targets("x86_64+avx512f+avx512bw", "x86_64+avx2"))]
pub(crate) fn sub_column(values: &mut [i16], column: &[i16]) {
    for (v, w) in values.iter_mut().zip(column) {
        *v = v.wrapping_sub(*w);
    }
}

/// `next = current + add - sub`, one pass (a quiet move).
#[multiversion(targets("x86_64+avx512f+avx512bw", "x86_64+avx2"))]
pub(crate) fn add_sub(next: &mut [i16], current: &[i16], add: &[i16], sub: &[i16]) {
    let n = next.len();
    let (current, add, sub) = (&current[..n], &add[..n], &sub[..n]);
    for i in 0..n {
        next[i] = current[i].wrapping_add(add[i]).wrapping_sub(sub[i]);
    }
}

/// `next = current + add - sub1 - sub2`, one pass (a capture).
#[multiversion(targets("x86_64+avx512f+avx512bw", "x86_64+avx2"))]
pub(crate) fn add_sub_sub(
    next: &mut [i16],
    current: &[i16],
    add: &[i16],
    sub1: &[i16],
    sub2: &[i16],
) {
    let n = next.len();
    let (current, add, sub1, sub2) = (&current[..n], &add[..n], &sub1[..n], &sub2[..n]);
    for i in 0..n {
        next[i] = current[i]
            .wrapping_add(add[i])
            .wrapping_sub(sub1[i])
            .wrapping_sub(sub2[i]);
    }
}
