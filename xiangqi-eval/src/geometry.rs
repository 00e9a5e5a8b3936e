//! Precomputed board geometry for the per-call terms: what a chariot or cannon sees along a
//! rank or file given the line's occupancy, the horse's legs and targets, and each square's
//! file and rank. Computed at compile time.

/// Whether file `f`, rank `r` is on the board.
const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 9 && r >= 0 && r < 10
}

/// The mailbox index of a horse leg off the board: always empty (see [`Geometry::horse`]).
pub(crate) const NO_LEG: u8 = 91;

/// The offset that [`Geometry::nearest_on_file`] gives for a missing point: past the board
/// and its wall, where the mailbox is always empty (even with a file added).
pub(crate) const NOT_OCCUPIED: u8 = 100;

/// Entries of [`Geometry::pop`]: every 16-bit value.
const POP_TABLE: usize = 1 << 16;

/// Where point 0 of a line sits in the line occupancies ([`crate::board::Board`]'s) and in
/// the sets of points of a [`Line`]: point `i` is bit `POINT_SHIFT + i`. The four bits below
/// take the slider's place on the line, so that an occupancy ORed with it indexes the
/// tables of [`Geometry`] directly.
pub(crate) const POINT_SHIFT: u32 = 4;
/// Where the second occupied points sit in a [`Line`] entry, the first ones being at
/// [`POINT_SHIFT`] (10 points each).
const SECOND_SHIFT: u32 = POINT_SHIFT + 10;
/// Where the number of quiet moves sits in a [`Line`] entry: the top 7 bits. The sets
/// below it fit in 24 bits, so that two entries add without the sets carrying into the
/// counts.
const QUIET_SHIFT: u32 = 25;

/// What a slider on point `i` of a line sees, packed in a `u32`: the first occupied point
/// each way (a chariot's captures, from [`POINT_SHIFT`], bit = point as in the line
/// occupancies), the second occupied point each way (a cannon's captures, the same from
/// [`SECOND_SHIFT`]) and the number of empty points it reaches both ways (its quiet moves,
/// from [`QUIET_SHIFT`]).
#[derive(Clone, Copy)]
pub(crate) struct Line(u32);

impl Line {
    /// Whether `point` is one of the second occupied points either way, as 0 or 1.
    #[inline]
    pub(crate) fn second_at(self, point: usize) -> u32 {
        self.0 >> (SECOND_SHIFT as usize + point) & 1
    }

    /// The number of quiet moves along the lines `a` and `b`: the counts add in the
    /// entries' top bits.
    #[inline]
    fn quiet_moves(a: Line, b: Line) -> u32 {
        a.0.wrapping_add(b.0) >> QUIET_SHIFT
    }
}

/// The line table of lines of `len` points: the [`line_entry`] of every occupancy (shifted
/// by [`POINT_SHIFT`]) ORed with every point.
const fn line_table<const SIZE: usize>(len: usize) -> [u32; SIZE] {
    let mut table = [0u32; SIZE];
    let mut i = 0;
    while i < len {
        let mut occ = 0;
        while occ < 1 << len {
            table[occ << POINT_SHIFT | i] = line_entry(len, i, occ as u32);
            occ += 1;
        }
        i += 1;
    }
    table
}

/// The entry of [`Line`] for a slider on point `i` of a line of `len` points occupied as
/// `occ` (bit = point).
const fn line_entry(len: usize, i: usize, occ: u32) -> u32 {
    let mut entry = 0;
    let mut k = 0;
    while k < 2 {
        let step: isize = if k == 0 { 1 } else { -1 };
        let mut n = 0;
        let mut j = i as isize + step;
        while j >= 0 && (j as usize) < len && n < 2 {
            if occ >> j & 1 == 1 {
                let at = if n == 0 { POINT_SHIFT } else { SECOND_SHIFT };
                entry |= 1 << (j as u32 + at);
                n += 1;
            } else if n == 0 {
                entry += 1 << QUIET_SHIFT;
            }
            j += step;
        }
        k += 1;
    }
    entry
}

/// Entries of [`Geometry`]'s rank table: 9 points shifted by [`POINT_SHIFT`] (a power of
/// two, so that a mask keeps any index in range).
const RANK_TABLE: usize = 1 << (9 + POINT_SHIFT);
/// Entries of [`Geometry`]'s file table: 10 points shifted by [`POINT_SHIFT`].
const FILE_TABLE: usize = 1 << (10 + POINT_SHIFT);

/// The shared tables, computed at compile time. All in one static, so that the code reading
/// them keeps one base address in a register for all (a table of its own would need its
/// own).
pub(crate) struct Geometry {
    /// The number of set bits of each 16-bit value (a set of a line's points ANDed with a
    /// line's occupancy, a `u16`: every value, so that such an index needs no mask; only
    /// the first 16,384 are ever read), since the build targets processors without a
    /// population count instruction.
    pop: [u8; POP_TABLE],
    /// `(file, rank)` of each square index, so that hot loops need not divide by 9 (128
    /// entries, so that an index masked to 7 bits needs no bounds check).
    file_rank: [[u8; 2]; 128],
    /// Per direction (toward lower points, then toward higher ones) and occupancy of a
    /// line's points (bit = point), the nearest three occupied points that way as offsets
    /// of a file's squares from its first (point * 9), one byte each, nearest first;
    /// [`NOT_OCCUPIED`] for those missing. See [`Geometry::nearest_on_file`].
    nearest: [[u32; 1024]; 2],
    /// For a slider on a rank (9 points), by the rank's occupancy (as the board keeps it,
    /// shifted by [`POINT_SHIFT`]) ORed with the slider's file.
    rank_line: [u32; RANK_TABLE],
    /// For a slider on a file (10 points), by the file's occupancy ORed with its rank.
    file_line: [u32; FILE_TABLE],
    /// Per square: four (leg, target, target) triples of mailbox indices. A missing target
    /// is 90 (the mailbox's wall, "own" to both colours); a missing leg is [`NO_LEG`] (always
    /// empty) with both targets 90, so that it adds neither a blocked leg nor mobility.
    /// 128 entries (those past 89 all missing legs), so that a square index masked to 7
    /// bits needs no bounds check.
    pub(crate) horse: [[[u8; 3]; 4]; 128],
}

/// The one instance, in the program's read-only data: its addresses are constants to the
/// code that reads it.
static GEOMETRY: Geometry = Geometry::new();

impl Geometry {
    const fn new() -> Geometry {
        let rank_line = line_table::<RANK_TABLE>(9);
        let file_line = line_table::<FILE_TABLE>(10);
        let mut horse = [[[NO_LEG, 90, 90]; 4]; 128];
        let mut s = 0;
        while s < 90 {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            let mut n = 0;
            let mut d = 0;
            while d < 4 {
                let (df, dr) = [(1, 0), (-1, 0), (0, 1), (0, -1)][d];
                let (lf, lr) = (f + df, r + dr);
                if on_board(lf, lr) {
                    let mut t = [90u8; 2];
                    let mut k = 0;
                    while k < 2 {
                        let sign = if k == 0 { 1 } else { -1 };
                        let (tf, tr) = (lf + df + sign * dr, lr + dr + sign * df);
                        if on_board(tf, tr) {
                            t[k] = (tr * 9 + tf) as u8;
                        }
                        k += 1;
                    }
                    horse[s][n] = [(lr * 9 + lf) as u8, t[0], t[1]];
                    n += 1;
                }
                d += 1;
            }
            s += 1;
        }
        let mut pop = [0u8; POP_TABLE];
        let mut i = 0;
        while i < POP_TABLE {
            pop[i] = (i as u32).count_ones() as u8;
            i += 1;
        }
        let mut file_rank = [[0u8; 2]; 128];
        let mut s = 0;
        while s < 90 {
            file_rank[s] = [(s % 9) as u8, (s / 9) as u8];
            s += 1;
        }
        let mut nearest = [[0u32; 1024]; 2];
        let mut occ = 0;
        while occ < 1024 {
            let mut dir = 0;
            while dir < 2 {
                let mut entry = 0u32;
                let mut n = 0;
                let mut k = 0;
                while k < 10 {
                    // Toward lower points: from the highest; else from the lowest.
                    let p = if dir == 0 { 9 - k } else { k };
                    if occ >> p & 1 == 1 && n < 3 {
                        entry |= (p as u32 * 9) << (8 * n);
                        n += 1;
                    }
                    k += 1;
                }
                while n < 3 {
                    entry |= (NOT_OCCUPIED as u32) << (8 * n);
                    n += 1;
                }
                nearest[dir][occ] = entry;
                dir += 1;
            }
            occ += 1;
        }
        Geometry {
            pop,
            file_rank,
            nearest,
            rank_line,
            file_line,
            horse,
        }
    }

    /// The shared instance.
    #[inline]
    pub(crate) fn get() -> &'static Geometry {
        &GEOMETRY
    }

    /// What a slider on `file` sees along its rank, given the rank's occupancy (as the
    /// board keeps it: its points from bit [`POINT_SHIFT`], so that the file fits below).
    #[inline]
    pub(crate) fn along_rank(&self, file: usize, rank_occ: u32) -> Line {
        Line(self.rank_line[(rank_occ as usize | file) & (RANK_TABLE - 1)])
    }

    /// What a slider on `rank` sees along its file, given the file's occupancy.
    #[inline]
    pub(crate) fn along_file(&self, rank: usize, file_occ: u32) -> Line {
        Line(self.file_line[(file_occ as usize | rank) & (FILE_TABLE - 1)])
    }

    /// The nearest three occupied points of `occ`, a file's occupancy (bit = rank, 10 bits),
    /// toward lower ranks (`DOWN`) or higher ones, as offsets from the file's first square
    /// (rank * 9; [`NOT_OCCUPIED`] for those missing), one byte each, nearest first.
    #[inline]
    pub(crate) fn nearest_on_file<const DOWN: bool>(&self, occ: u32) -> u32 {
        self.nearest[!DOWN as usize][occ as usize & 1023]
    }

    /// The file and rank of square index `s` (below 90).
    #[inline]
    pub(crate) fn file_rank(&self, s: usize) -> (usize, usize) {
        let [f, r] = self.file_rank[s & 127];
        (f as usize, r as usize)
    }

    /// The points of `set` that are set in `occ`, a line's occupancy (a `u16` widened, so
    /// that the mask costs nothing), counted.
    #[inline]
    fn count_in(&self, set: u32, occ: u32) -> u32 {
        self.pop[(set & occ) as usize & 0xFFFF] as u32
    }

    /// A chariot's moves along its rank (`rank`, the enemy's occupancy of it
    /// `enemy_rank`) and its file: the quiet ones and the first occupied points either
    /// way that are the enemy's.
    #[inline]
    pub(crate) fn chariot_moves(
        &self,
        rank: Line,
        enemy_rank: u32,
        file: Line,
        enemy_file: u32,
    ) -> u32 {
        // The first points are where the occupancy has its points: ANDed with it, the
        // other fields vanish (the occupancy has nothing at or above `SECOND_SHIFT`).
        Line::quiet_moves(rank, file)
            + self.count_in(rank.0, enemy_rank)
            + self.count_in(file.0, enemy_file)
    }

    /// A cannon's moves along its rank and its file (as [`Geometry::chariot_moves`]): the
    /// quiet ones and the second occupied points either way that are the enemy's.
    #[inline]
    pub(crate) fn cannon_moves(
        &self,
        rank: Line,
        enemy_rank: u32,
        file: Line,
        enemy_file: u32,
    ) -> u32 {
        // Shifted down, the second points come where the occupancy has its points (and
        // the first ones below `POINT_SHIFT`, where it has nothing).
        const DOWN: u32 = SECOND_SHIFT - POINT_SHIFT;
        Line::quiet_moves(rank, file)
            + self.count_in(rank.0 >> DOWN, enemy_rank)
            + self.count_in(file.0 >> DOWN, enemy_file)
    }
}
