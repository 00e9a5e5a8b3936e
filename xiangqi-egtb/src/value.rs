//! What a table says about a position: win, loss or draw for the side to move, with the
//! distance to mate.

use core::fmt;

/// Win, draw or loss for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Wdl {
    /// The side to move mates with best play.
    Win,
    /// Neither side can force mate.
    Draw,
    /// The side to move is mated (or stalemated: in xiangqi both lose) with best play.
    Loss,
}

impl Wdl {
    /// The value for the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Win => Wdl::Loss,
            Wdl::Draw => Wdl::Draw,
            Wdl::Loss => Wdl::Win,
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        })
    }
}

/// A position's value with its distance to mate in plies (half-moves): `Win(1)` mates
/// at once, `Loss(0)` is mated or stalemated now, `Loss(2)` is mated after any reply.
/// A win's distance is always odd and a loss's even.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(tag = "result", content = "plies", rename_all = "lowercase")]
pub enum Dtm {
    /// The side to move mates in this many plies with best play on both sides.
    Win(u16),
    /// A draw with best play.
    Draw,
    /// The side to move is mated in this many plies with best play on both sides.
    Loss(u16),
}

impl Dtm {
    /// Win, draw or loss.
    pub fn wdl(self) -> Wdl {
        match self {
            Dtm::Win(_) => Wdl::Win,
            Dtm::Draw => Wdl::Draw,
            Dtm::Loss(_) => Wdl::Loss,
        }
    }

    /// The distance to mate in plies, `None` for a draw.
    pub fn plies(self) -> Option<u16> {
        match self {
            Dtm::Win(n) | Dtm::Loss(n) => Some(n),
            Dtm::Draw => None,
        }
    }

    /// The value one ply earlier, for the side that moved into this position.
    pub fn before(self) -> Dtm {
        match self {
            Dtm::Win(n) => Dtm::Loss(n + 1),
            Dtm::Draw => Dtm::Draw,
            Dtm::Loss(n) => Dtm::Win(n + 1),
        }
    }

    /// An order from the mover's point of view: quicker wins first, then draws, then the
    /// slowest losses, so that the best move has the greatest key.
    pub fn preference(self) -> i32 {
        match self {
            Dtm::Win(n) => 100_000 - n as i32,
            Dtm::Draw => 0,
            Dtm::Loss(n) => -100_000 + n as i32,
        }
    }

    /// The stored byte of a value (see [`crate::format`]): 0 draw, 1 invalid, `2 + plies`.
    pub(crate) fn from_byte(b: u8) -> Option<Dtm> {
        match b {
            0 => Some(Dtm::Draw),
            1 => None,
            b => {
                let d = (b - 2) as u16;
                Some(if d % 2 == 1 {
                    Dtm::Win(d)
                } else {
                    Dtm::Loss(d)
                })
            }
        }
    }
}

/// `win 13`, `loss 0`, `draw`.
impl fmt::Display for Dtm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dtm::Win(n) => write!(f, "win {n}"),
            Dtm::Draw => f.write_str("draw"),
            Dtm::Loss(n) => write!(f, "loss {n}"),
        }
    }
}
