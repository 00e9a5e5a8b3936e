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
///
/// In tables where both sides can attack (rules [`crate::Rules::Asian`]), a position can
/// also be won or lost by the perpetual-check rule: the loser can avoid mate only by
/// checking for ever, which the Asian rules forbid. Such a value carries no distance to
/// mate but a **rank**: the winner plays a move to a position of lower rank, and every
/// repetition the winner's play allows is one in which the loser checks with every move
/// and the winner does not (see `docs/EGTB.md`, "The perpetual-check rule").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dtm {
    /// The side to move mates in this many plies with best play on both sides.
    Win(u16),
    /// A draw with best play.
    Draw,
    /// The side to move is mated in this many plies with best play on both sides.
    Loss(u16),
    /// The side to move wins by the perpetual-check rule; the number is the rank.
    WinByRule(u16),
    /// The side to move loses by the perpetual-check rule (it can hold only by checking
    /// for ever); the number is the rank.
    LossByRule(u16),
}

/// `{"result": "win", "plies": 13}`, `{"result": "draw"}`, and for a rule value
/// `{"result": "loss", "rule": "perpetual check", "rank": 40}`.
impl serde::Serialize for Dtm {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("result", &self.wdl())?;
        match *self {
            Dtm::Win(n) | Dtm::Loss(n) => m.serialize_entry("plies", &n)?,
            Dtm::Draw => {}
            Dtm::WinByRule(r) | Dtm::LossByRule(r) => {
                m.serialize_entry("rule", "perpetual check")?;
                m.serialize_entry("rank", &r)?;
            }
        }
        m.end()
    }
}

/// The stored entry of a rule value: the top bit set, the next bit set for a win, the
/// rank in the other fourteen bits.
pub(crate) const RULE_FLAG: u16 = 0x8000;
/// Set with [`RULE_FLAG`] for a win by the rule.
pub(crate) const RULE_WIN: u16 = 0x4000;
/// The largest rank an entry holds.
pub(crate) const MAX_RANK: u16 = 0x3FFF;

impl Dtm {
    /// Win, draw or loss.
    pub fn wdl(self) -> Wdl {
        match self {
            Dtm::Win(_) | Dtm::WinByRule(_) => Wdl::Win,
            Dtm::Draw => Wdl::Draw,
            Dtm::Loss(_) | Dtm::LossByRule(_) => Wdl::Loss,
        }
    }

    /// The distance to mate in plies, `None` for a draw or a value by the rule.
    pub fn plies(self) -> Option<u16> {
        match self {
            Dtm::Win(n) | Dtm::Loss(n) => Some(n),
            _ => None,
        }
    }

    /// Whether the value comes from the perpetual-check rule.
    pub fn is_by_rule(self) -> bool {
        matches!(self, Dtm::WinByRule(_) | Dtm::LossByRule(_))
    }

    /// The value one ply earlier, for the side that moved into this position. A rule
    /// value keeps its rank: the rank of the position the move leads to.
    pub fn before(self) -> Dtm {
        match self {
            Dtm::Win(n) => Dtm::Loss(n + 1),
            Dtm::Draw => Dtm::Draw,
            Dtm::Loss(n) => Dtm::Win(n + 1),
            Dtm::WinByRule(r) => Dtm::LossByRule(r),
            Dtm::LossByRule(r) => Dtm::WinByRule(r),
        }
    }

    /// An order from the mover's point of view: quicker mates first, then wins by the
    /// rule (to the lowest rank), then draws, then losses by the rule (to the highest
    /// rank: the loser keeps checking as long as it may), then the slowest mates, so that
    /// the best move has the greatest key.
    pub fn preference(self) -> i32 {
        match self {
            Dtm::Win(n) => 100_000 - n as i32,
            Dtm::WinByRule(r) => 50_000 - r as i32,
            Dtm::Draw => 0,
            Dtm::LossByRule(r) => -50_000 + r as i32,
            Dtm::Loss(n) => -100_000 + n as i32,
        }
    }

    /// The value that ignores the perpetual-check rule: a rule value is a draw there.
    pub fn naive(self) -> Dtm {
        if self.is_by_rule() {
            Dtm::Draw
        } else {
            self
        }
    }

    /// The stored entry of a value (see [`crate::format`]): 0 draw, 1 invalid, `2 +
    /// plies`, or a rule value ([`RULE_FLAG`]).
    pub(crate) fn from_entry(e: u16) -> Option<Dtm> {
        if e & RULE_FLAG != 0 {
            let rank = e & MAX_RANK;
            return Some(if e & RULE_WIN != 0 {
                Dtm::WinByRule(rank)
            } else {
                Dtm::LossByRule(rank)
            });
        }
        match e {
            0 => Some(Dtm::Draw),
            1 => None,
            e => {
                let d = e - 2;
                Some(if d % 2 == 1 {
                    Dtm::Win(d)
                } else {
                    Dtm::Loss(d)
                })
            }
        }
    }
}

/// `win 13`, `loss 0`, `draw`, `win by the perpetual-check rule`.
impl fmt::Display for Dtm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dtm::Win(n) => write!(f, "win {n}"),
            Dtm::Draw => f.write_str("draw"),
            Dtm::Loss(n) => write!(f, "loss {n}"),
            Dtm::WinByRule(_) => f.write_str("win by the perpetual-check rule"),
            Dtm::LossByRule(_) => f.write_str("loss by the perpetual-check rule"),
        }
    }
}
