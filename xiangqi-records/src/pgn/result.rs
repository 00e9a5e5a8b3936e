//! The result of a game as PGN records it: on its own, below the readers, the writer and
//! `Record` (which holds one), so that none of those imports another to reach it.

use core::fmt;
use xiangqi_core::Color;

/// The result of a game as PGN records it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PgnResult {
    /// `1-0`: red won.
    RedWins,
    /// `0-1`: black won.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown or unfinished.
    #[default]
    Unknown,
}

impl PgnResult {
    /// The PGN token.
    pub fn as_str(self) -> &'static str {
        match self {
            PgnResult::RedWins => "1-0",
            PgnResult::BlackWins => "0-1",
            PgnResult::Draw => "1/2-1/2",
            PgnResult::Unknown => "*",
        }
    }

    /// Reads a PGN result token, or the Chinese words text records end with (红胜, 黑胜,
    /// 和棋, simplified or traditional).
    pub fn from_token(token: &str) -> Option<PgnResult> {
        Some(match token {
            "1-0" | "红胜" | "紅勝" | "红先胜" | "紅先勝" | "黑负" | "黑負" => {
                PgnResult::RedWins
            }
            "0-1" | "黑胜" | "黑勝" | "红先负" | "紅先負" | "红负" | "紅負" => {
                PgnResult::BlackWins
            }
            "1/2-1/2" | "½-½" | "和棋" | "和局" | "红先和" | "紅先和" => {
                PgnResult::Draw
            }
            "*" => PgnResult::Unknown,
            _ => return None,
        })
    }

    /// The winner, if the game was decided.
    pub fn winner(self) -> Option<Color> {
        match self {
            PgnResult::RedWins => Some(Color::Red),
            PgnResult::BlackWins => Some(Color::Black),
            _ => None,
        }
    }
}

impl fmt::Display for PgnResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
