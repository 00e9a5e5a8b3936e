//! Files, ranks and the 90 points of the board.

use crate::Color;
use core::fmt;

/// A file (column), `a` to `i` from red's left to red's right.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

impl File {
    /// The nine files, `a` first.
    pub const ALL: [File; 9] = [
        File(0),
        File(1),
        File(2),
        File(3),
        File(4),
        File(5),
        File(6),
        File(7),
        File(8),
    ];

    /// The file with index 0..9 (`a` = 0).
    #[inline]
    pub const fn new(index: u8) -> Option<File> {
        if index < 9 {
            Some(File(index))
        } else {
            None
        }
    }

    /// 0 for `a` .. 8 for `i`.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The letter `a`..`i`.
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }

    /// Reads `a`..`i` (either case).
    pub const fn from_char(c: char) -> Option<File> {
        let c = c.to_ascii_lowercase();
        if c >= 'a' && c <= 'i' {
            Some(File(c as u8 - b'a'))
        } else {
            None
        }
    }

    /// The file mirrored left-right (`a` <-> `i`).
    #[inline]
    pub const fn flip(self) -> File {
        File(8 - self.0)
    }

    /// The file number as a player of `color` counts it: 1..9 from that player's own right.
    /// Red counts from file `i` (一) to `a` (九); black counts from `a` (1) to `i` (9).
    ///
    /// ```
    /// use xiangqi_core::{Color, File};
    /// assert_eq!(File::from_char('h').unwrap().number_for(Color::Red), 2);
    /// assert_eq!(File::from_char('h').unwrap().number_for(Color::Black), 8);
    /// ```
    pub const fn number_for(self, color: Color) -> u8 {
        match color {
            Color::Red => 9 - self.0,
            Color::Black => self.0 + 1,
        }
    }

    /// The file that a player of `color` calls number `n` (1..=9).
    pub const fn from_number(color: Color, n: u8) -> Option<File> {
        if n < 1 || n > 9 {
            return None;
        }
        Some(match color {
            Color::Red => File(9 - n),
            Color::Black => File(n - 1),
        })
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A rank (row), 0 (red's back rank) to 9 (black's back rank), as ICCS and UCI number them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    /// The ten ranks, rank 0 first.
    pub const ALL: [Rank; 10] = [
        Rank(0),
        Rank(1),
        Rank(2),
        Rank(3),
        Rank(4),
        Rank(5),
        Rank(6),
        Rank(7),
        Rank(8),
        Rank(9),
    ];

    /// The rank with index 0..10.
    #[inline]
    pub const fn new(index: u8) -> Option<Rank> {
        if index < 10 {
            Some(Rank(index))
        } else {
            None
        }
    }

    /// 0..9.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The digit `0`..`9`.
    pub const fn char(self) -> char {
        (b'0' + self.0) as char
    }

    /// Reads `0`..`9`.
    pub const fn from_char(c: char) -> Option<Rank> {
        if c.is_ascii_digit() {
            Some(Rank(c as u8 - b'0'))
        } else {
            None
        }
    }

    /// The rank mirrored top-bottom (0 <-> 9).
    #[inline]
    pub const fn flip(self) -> Rank {
        Rank(9 - self.0)
    }

    /// Rank counted from `color`'s own back rank (0..9).
    #[inline]
    pub const fn relative_to(self, color: Color) -> u8 {
        match color {
            Color::Red => self.0,
            Color::Black => 9 - self.0,
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// One of the 90 points of the board. Index = `rank * 9 + file`, so `a0` = 0 and `i9` = 89.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The number of points on the board.
    pub const COUNT: usize = 90;

    /// The square at `file`, `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 9 + file.0)
    }

    /// The square with index 0..90.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 90 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with index `index`, which must be below 90.
    ///
    /// # Panics
    /// In debug builds when `index >= 90`.
    #[inline]
    pub const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(index < 90);
        Square(index)
    }

    /// Every square, `a0` first.
    pub fn all() -> impl Iterator<Item = Square> + Clone {
        (0..90u8).map(Square)
    }

    /// 0..90.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file of this square.
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 % 9)
    }

    /// The rank of this square.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 / 9)
    }

    /// Mirrored top-bottom (swap sides): `a0` <-> `a9`.
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square::from_coords(self.file(), self.rank().flip())
    }

    /// Mirrored left-right: `a0` <-> `i0`.
    #[inline]
    pub const fn flip_horizontal(self) -> Square {
        Square::from_coords(self.file().flip(), self.rank())
    }

    /// Whether this point is inside `color`'s palace (files d–f, ranks 0–2 or 7–9).
    #[inline]
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.0 % 9;
        let r = self.0 / 9;
        f >= 3
            && f <= 5
            && match color {
                Color::Red => r <= 2,
                Color::Black => r >= 7,
            }
    }

    /// Whether this point is on `color`'s own side of the river.
    #[inline]
    pub const fn on_side_of(self, color: Color) -> bool {
        let r = self.0 / 9;
        match color {
            Color::Red => r <= 4,
            Color::Black => r >= 5,
        }
    }

    /// Parses ICCS coordinates such as `e0` or `h7`.
    pub fn from_iccs(s: &str) -> Option<Square> {
        let mut chars = s.chars();
        let f = File::from_char(chars.next()?)?;
        let r = Rank::from_char(chars.next()?)?;
        if chars.next().is_some() {
            return None;
        }
        Some(Square::from_coords(f, r))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), self.rank())
    }
}
