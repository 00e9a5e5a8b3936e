//! Frozen copy of `src/geometry.rs` as of commit e8ac392 (before the evaluation was sped up).
//!
//! Precomputed board geometry for the per-call terms: what a chariot or cannon sees along a
//! rank or file given the line's occupancy, the horse's legs and targets, and the zones
//! around the generals. Built once per process and shared.

use std::sync::OnceLock;
use xiangqi_core::Color;

/// Marks "no such point" in the packed line entries and the horse table.
pub(crate) const NONE: u8 = 15;

/// What a slider on point `i` of a line sees, packed in a `u32` (4 bits each): the empty
/// points toward higher indices, toward lower ones, then the first and second occupied
/// points toward higher indices, then toward lower ones (each [`NONE`] when there is none).
#[derive(Clone, Copy)]
pub(crate) struct Line(u32);

impl Line {
    #[inline]
    pub(crate) fn quiet(self) -> u32 {
        (self.0 & 15) + ((self.0 >> 4) & 15)
    }
    #[inline]
    pub(crate) fn first_up(self) -> u8 {
        ((self.0 >> 8) & 15) as u8
    }
    #[inline]
    pub(crate) fn second_up(self) -> u8 {
        ((self.0 >> 12) & 15) as u8
    }
    #[inline]
    pub(crate) fn first_down(self) -> u8 {
        ((self.0 >> 16) & 15) as u8
    }
    #[inline]
    pub(crate) fn second_down(self) -> u8 {
        ((self.0 >> 20) & 15) as u8
    }
}

fn line_entry(len: usize, i: usize, occ: u32) -> u32 {
    let scan = |step: isize| {
        let mut quiet = 0u32;
        let mut found = [NONE as u32; 2];
        let mut n = 0;
        let mut j = i as isize + step;
        while j >= 0 && (j as usize) < len && n < 2 {
            if occ >> j & 1 == 1 {
                found[n] = j as u32;
                n += 1;
            } else if n == 0 {
                quiet += 1;
            }
            j += step;
        }
        (quiet, found)
    };
    let (qu, [fu, su]) = scan(1);
    let (qd, [fd, sd]) = scan(-1);
    qu | qd << 4 | fu << 8 | su << 12 | fd << 16 | sd << 20
}

/// The shared tables.
pub(crate) struct Geometry {
    /// `[file][rank occupancy]` for a slider on that file of a rank (9 points).
    rank_line: Box<[[u32; 512]; 9]>,
    /// `[rank][file occupancy]` for a slider on that rank of a file (10 points).
    file_line: Box<[[u32; 1024]; 10]>,
    /// Per square: up to four (leg, target, target) triples of square indices; a missing
    /// leg is 255 (the list ends), a missing target is 90 (the mailbox's wall).
    pub(crate) horse: [[[u8; 3]; 4]; 90],
    /// Per colour: the zone around that colour's general (files c–g, ranks 0–3 from its side).
    pub(crate) zone: [u128; 2],
}

impl Geometry {
    fn new() -> Geometry {
        let mut rank_line = Box::new([[0u32; 512]; 9]);
        for (i, row) in rank_line.iter_mut().enumerate() {
            for (occ, e) in row.iter_mut().enumerate() {
                *e = line_entry(9, i, occ as u32);
            }
        }
        let mut file_line = Box::new([[0u32; 1024]; 10]);
        for (i, row) in file_line.iter_mut().enumerate() {
            for (occ, e) in row.iter_mut().enumerate() {
                *e = line_entry(10, i, occ as u32);
            }
        }
        let mut horse = [[[255u8; 3]; 4]; 90];
        for (s, entry) in horse.iter_mut().enumerate() {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            let on = |x: i32, y: i32| (0..9).contains(&x) && (0..10).contains(&y);
            let mut n = 0;
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (lf, lr) = (f + df, r + dr);
                if !on(lf, lr) {
                    continue;
                }
                let mut t = [90u8; 2];
                for (k, sign) in [1, -1].into_iter().enumerate() {
                    let (tf, tr) = (lf + df + sign * dr, lr + dr + sign * df);
                    if on(tf, tr) {
                        t[k] = (tr * 9 + tf) as u8;
                    }
                }
                entry[n] = [(lr * 9 + lf) as u8, t[0], t[1]];
                n += 1;
            }
        }
        let mut zone = [0u128; 2];
        for s in 0..90 {
            let (f, r) = (s % 9, s / 9);
            if (2..=6).contains(&f) {
                if r <= 3 {
                    zone[Color::Red.index()] |= 1 << s;
                }
                if r >= 6 {
                    zone[Color::Black.index()] |= 1 << s;
                }
            }
        }
        Geometry {
            rank_line,
            file_line,
            horse,
            zone,
        }
    }

    /// The shared instance.
    pub(crate) fn get() -> &'static Geometry {
        static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
        GEOMETRY.get_or_init(Geometry::new)
    }

    /// What a slider on `file` sees along its rank, given the rank's occupancy.
    #[inline]
    pub(crate) fn along_rank(&self, file: usize, rank_occ: u32) -> Line {
        Line(self.rank_line[file][rank_occ as usize & 511])
    }

    /// What a slider on `rank` sees along its file, given the file's occupancy.
    #[inline]
    pub(crate) fn along_file(&self, rank: usize, file_occ: u32) -> Line {
        Line(self.file_line[rank][file_occ as usize & 1023])
    }
}

/// The occupancy of rank `r` (bit = file).
#[inline]
pub(crate) fn rank_occ(occ: u128, r: usize) -> u32 {
    ((occ >> (9 * r)) & 0x1FF) as u32
}
