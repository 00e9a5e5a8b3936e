//! Colours, roles and pieces.

use core::fmt;

/// The two sides. Red moves first and sits at ranks 0–4; black at ranks 5–9.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Red (红方), uppercase letters in FEN, moves first.
    Red = 0,
    /// Black (黑方), lowercase letters in FEN.
    Black = 1,
}

impl Color {
    /// Both colours, red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// The other side.
    ///
    /// ```
    /// use xiangqi_core::Color;
    /// assert_eq!(Color::Red.other(), Color::Black);
    /// ```
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for red, 1 for black: for indexing tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN side-to-move letter (`w` for red, `b` for black).
    pub const fn fen_char(self) -> char {
        match self {
            Color::Red => 'w',
            Color::Black => 'b',
        }
    }
}

impl core::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "red",
            Color::Black => "black",
        })
    }
}

/// The seven kinds of piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// General (帅/将): moves one point orthogonally inside the palace.
    King = 0,
    /// Advisor (仕/士): moves one point diagonally inside the palace.
    Advisor = 1,
    /// Elephant (相/象): moves two points diagonally, cannot cross the river, blocked at the eye.
    Elephant = 2,
    /// Horse (马): one point orthogonally then one diagonally, blocked at the leg.
    Horse = 3,
    /// Chariot (车): any distance orthogonally.
    Chariot = 4,
    /// Cannon (炮): moves like a chariot, captures by jumping exactly one screen.
    Cannon = 5,
    /// Pawn (兵/卒): one point forward; also sideways once across the river.
    Pawn = 6,
}

impl Role {
    /// All roles in index order.
    pub const ALL: [Role; 7] = [
        Role::King,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Chariot,
        Role::Cannon,
        Role::Pawn,
    ];

    /// 0..7, for indexing tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The role with this index, if any.
    pub const fn from_index(i: usize) -> Option<Role> {
        if i < 7 {
            Some(Role::ALL[i])
        } else {
            None
        }
    }

    /// The lowercase FEN letter (k a b n r c p).
    pub const fn char(self) -> char {
        match self {
            Role::King => 'k',
            Role::Advisor => 'a',
            Role::Elephant => 'b',
            Role::Horse => 'n',
            Role::Chariot => 'r',
            Role::Cannon => 'c',
            Role::Pawn => 'p',
        }
    }

    /// Reads a FEN letter, either case; accepts `h`/`e` (WXF) for horse/elephant.
    pub const fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_lowercase() {
            'k' => Role::King,
            'a' => Role::Advisor,
            'b' | 'e' => Role::Elephant,
            'n' | 'h' => Role::Horse,
            'r' => Role::Chariot,
            'c' => Role::Cannon,
            'p' => Role::Pawn,
            _ => return None,
        })
    }

    /// How many of this role one side has at the start (and at most in a legal position).
    pub const fn max_count(self) -> u8 {
        match self {
            Role::King => 1,
            Role::Pawn => 5,
            _ => 2,
        }
    }
}

/// A piece: a role of a colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// A piece of the given colour and role.
    #[inline]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// Index 0..14 (`color * 7 + role`), for tables such as Zobrist keys.
    #[inline]
    pub const fn index(self) -> usize {
        self.color.index() * 7 + self.role.index()
    }

    /// The piece with index 0..14.
    #[inline]
    pub const fn from_index(i: usize) -> Option<Piece> {
        if i >= 14 {
            return None;
        }
        let color = if i < 7 { Color::Red } else { Color::Black };
        match Role::from_index(i % 7) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }

    /// The FEN letter: uppercase for red, lowercase for black (`R`, `n`, ...).
    pub const fn char(self) -> char {
        let c = self.role.char();
        match self.color {
            Color::Red => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// Reads a FEN letter (`RNBAKCP`/`rnbakcp`, plus `H`/`E` for horse/elephant).
    ///
    /// ```
    /// use xiangqi_core::{Color, Piece, Role};
    /// assert_eq!(Piece::from_char('H'), Some(Piece::new(Color::Red, Role::Horse)));
    /// assert_eq!(Piece::from_char('x'), None);
    /// ```
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        match Role::from_char(c) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }

    /// The Chinese character for this piece (帅仕相马车炮兵 / 将士象马车炮卒).
    pub const fn chinese(self) -> char {
        match (self.color, self.role) {
            (Color::Red, Role::King) => '帅',
            (Color::Red, Role::Advisor) => '仕',
            (Color::Red, Role::Elephant) => '相',
            (Color::Red, Role::Pawn) => '兵',
            (Color::Black, Role::King) => '将',
            (Color::Black, Role::Advisor) => '士',
            (Color::Black, Role::Elephant) => '象',
            (Color::Black, Role::Pawn) => '卒',
            (_, Role::Horse) => '马',
            (_, Role::Chariot) => '车',
            (_, Role::Cannon) => '炮',
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}
