//! Material signatures: which pieces each side has, named as players and other tablebases
//! name them (`krkaabb`: the strong side first, then the other side, each from its general).

use core::fmt;
use core::str::FromStr;
use xiangqi_core::{Color, Position, Role};

/// The roles in the order a name lists them after the general: the attackers from the
/// strongest (chariot, cannon, horse, pawn), then advisors and elephants, as FelicityEgtb
/// and the endgame literature write them (`kcnaabbkaabb`).
pub(crate) const NAME_ORDER: [Role; 6] = [
    Role::Chariot,
    Role::Cannon,
    Role::Horse,
    Role::Pawn,
    Role::Advisor,
    Role::Elephant,
];

/// The roles that can cross the river and attack a general.
pub const ATTACKERS: [Role; 4] = [Role::Chariot, Role::Cannon, Role::Horse, Role::Pawn];

/// The most pieces of one role a side may have in a material signature.
const fn max_count(role: Role) -> u8 {
    match role {
        Role::King => 1,
        Role::Pawn => 5,
        _ => 2,
    }
}

/// What each side has: the count of every role, by colour. The general is always there
/// (one a side).
///
/// A table is stored with its *strong* side as red ([`Material::canonical`]); a position
/// with the strong side black is probed with its colours swapped.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Material {
    counts: [[u8; 7]; 2],
}

/// A material name that cannot be read, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaterialError {
    /// The name as given.
    pub name: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for MaterialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad ending name {:?}: {}", self.name, self.reason)
    }
}

impl std::error::Error for MaterialError {}

impl Material {
    /// The material of a position.
    pub fn of(pos: &Position) -> Material {
        let mut counts = [[0u8; 7]; 2];
        for color in Color::ALL {
            for role in Role::ALL {
                counts[color.index()][role as usize] = pos.count(color, role);
            }
        }
        Material { counts }
    }

    /// Material from counts by colour and role (index `Role as usize`); the generals are
    /// set to one.
    pub fn from_counts(mut counts: [[u8; 7]; 2]) -> Material {
        counts[0][0] = 1;
        counts[1][0] = 1;
        Material { counts }
    }

    /// How many `role` pieces `color` has.
    pub fn count(&self, color: Color, role: Role) -> u8 {
        self.counts[color.index()][role as usize]
    }

    /// The pieces of a colour, generals included.
    pub fn pieces(&self, color: Color) -> u32 {
        self.counts[color.index()].iter().map(|&c| c as u32).sum()
    }

    /// Every piece on the board.
    pub fn total(&self) -> u32 {
        self.pieces(Color::Red) + self.pieces(Color::Black)
    }

    /// The attacking pieces (chariot, cannon, horse, pawn) of a colour.
    pub fn attackers(&self, color: Color) -> u32 {
        ATTACKERS.iter().map(|&r| self.count(color, r) as u32).sum()
    }

    /// Neither side can cross the river: a draw by the rules (`Game::outcome`'s
    /// "no attacking material"), so no table is needed.
    pub fn is_dead_draw(&self) -> bool {
        self.attackers(Color::Red) == 0 && self.attackers(Color::Black) == 0
    }

    /// The same material with the colours swapped.
    pub fn swapped(&self) -> Material {
        Material {
            counts: [self.counts[1], self.counts[0]],
        }
    }

    /// A key ordering a side's material from weakest to strongest: the number of
    /// attackers, then the attackers from the chariot down, then advisors and elephants.
    fn strength(&self, color: Color) -> [u8; 7] {
        let c = &self.counts[color.index()];
        let attackers = ATTACKERS.iter().map(|&r| c[r as usize]).sum();
        [
            attackers,
            c[Role::Chariot as usize],
            c[Role::Cannon as usize],
            c[Role::Horse as usize],
            c[Role::Pawn as usize],
            c[Role::Advisor as usize],
            c[Role::Elephant as usize],
        ]
    }

    /// Whether red is the strong side (or the sides are equal): the orientation tables
    /// are stored in.
    pub fn is_canonical(&self) -> bool {
        self.strength(Color::Red) >= self.strength(Color::Black)
    }

    /// The material with the strong side red.
    pub fn canonical(&self) -> Material {
        if self.is_canonical() {
            *self
        } else {
            self.swapped()
        }
    }

    /// The material after `color` loses one `role` piece (a capture), or `None` if it has none.
    pub fn without(&self, color: Color, role: Role) -> Option<Material> {
        let mut m = *self;
        let c = &mut m.counts[color.index()][role as usize];
        if *c == 0 || role == Role::King {
            return None;
        }
        *c -= 1;
        Some(m)
    }

    /// The name of one side: `k` then its pieces (`kraa`).
    fn side_name(&self, color: Color) -> String {
        let mut s = String::from("k");
        for role in NAME_ORDER {
            let ch = match role {
                Role::Chariot => 'r',
                Role::Cannon => 'c',
                Role::Horse => 'n',
                Role::Pawn => 'p',
                Role::Advisor => 'a',
                _ => 'b',
            };
            for _ in 0..self.count(color, role) {
                s.push(ch);
            }
        }
        s
    }

    /// The Chinese name of the ending as players say it (车对士象全, 马对单士, 炮卒对双士),
    /// strong side first.
    pub fn chinese_name(&self) -> String {
        let m = self.canonical();
        let side = |color: Color| -> String {
            let mut s = String::new();
            let names = [
                (Role::Chariot, "车"),
                (Role::Cannon, "炮"),
                (Role::Horse, "马"),
                (Role::Pawn, "卒"),
            ];
            for (role, name) in names {
                match m.count(color, role) {
                    0 => {}
                    1 => s.push_str(name),
                    2 => {
                        s.push('双');
                        s.push_str(name);
                    }
                    n => {
                        s.push_str(&n.to_string());
                        s.push_str(name);
                    }
                }
            }
            let a = m.count(color, Role::Advisor);
            let e = m.count(color, Role::Elephant);
            let defence = match (a, e) {
                (0, 0) => "",
                (2, 2) => "士象全",
                (1, 0) => "单士",
                (2, 0) => "双士",
                (0, 1) => "单象",
                (0, 2) => "双象",
                (1, 1) => "单士象",
                (2, 1) => "双士单象",
                (1, 2) => "单士双象",
                _ => "",
            };
            s.push_str(defence);
            s
        };
        let strong = side(Color::Red);
        let weak = side(Color::Black);
        let weak = if weak.is_empty() {
            "将".to_string()
        } else {
            weak
        };
        format!("{strong}对{weak}")
    }
}

/// The name, strong side first: `krkaabb`.
impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.canonical();
        write!(
            f,
            "{}{}",
            m.side_name(Color::Red),
            m.side_name(Color::Black)
        )
    }
}

/// Reads a name such as `krkaabb`, `KNKB` or `kcpk`: two sides, each starting with its
/// general `k`; `r` chariot, `c` cannon, `n` or `h` horse, `p` pawn, `a` advisor, `b` or
/// `e` elephant, in any order. The first side is red; use [`Material::canonical`] for the
/// table's orientation.
impl FromStr for Material {
    type Err = MaterialError;

    fn from_str(name: &str) -> Result<Material, MaterialError> {
        let err = |reason: String| MaterialError {
            name: name.to_string(),
            reason,
        };
        let lower = name.trim().to_ascii_lowercase();
        if !lower.starts_with('k') {
            return Err(err("it must start with the general, k".into()));
        }
        let mut counts = [[0u8; 7]; 2];
        let mut side: isize = -1;
        for (i, ch) in lower.chars().enumerate() {
            let role = match ch {
                'k' => {
                    side += 1;
                    if side > 1 {
                        return Err(err(format!("a third general at character {}", i + 1)));
                    }
                    Role::King
                }
                'r' => Role::Chariot,
                'c' => Role::Cannon,
                'n' | 'h' => Role::Horse,
                'p' => Role::Pawn,
                'a' => Role::Advisor,
                'b' | 'e' => Role::Elephant,
                other => {
                    return Err(err(format!(
                        "{other:?} at character {} is not a piece letter (k r c n/h p a b/e)",
                        i + 1
                    )))
                }
            };
            let c = &mut counts[side as usize][role as usize];
            *c += 1;
            if *c > max_count(role) {
                return Err(err(format!(
                    "more than {} of {:?} for one side",
                    max_count(role),
                    role
                )));
            }
        }
        if side != 1 {
            return Err(err("it needs two generals, one a side (krk)".into()));
        }
        Ok(Material { counts })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_accept_both_letters() {
        let m: Material = "KRKAABB".parse().unwrap();
        assert_eq!(m.to_string(), "krkaabb");
        let h: Material = "khkae".parse().unwrap();
        assert_eq!(h.to_string(), "knkab");
        // The weak side written first is turned round.
        let w: Material = "kaabbkr".parse().unwrap();
        assert_eq!(w.to_string(), "krkaabb");
        assert!(!w.is_canonical());
        assert_eq!(m.chinese_name(), "车对士象全");
        assert_eq!(
            "knka".parse::<Material>().unwrap().chinese_name(),
            "马对单士"
        );
        assert_eq!("krk".parse::<Material>().unwrap().chinese_name(), "车对将");
    }

    #[test]
    fn bad_names_say_why() {
        for bad in ["", "rk", "krkx", "kkk", "kaaak", "kr"] {
            let e = bad.parse::<Material>().unwrap_err();
            assert!(!e.reason.is_empty(), "{bad}");
        }
    }
}
