//! Coordinate move text in the two rank numberings GUIs use.
//!
//! Pikafish's UCI, UCCI (ICCS) and XBoard number xiangqi's ranks 0 to 9 from red's side
//! (`h2e2`). Fairy-Stockfish's UCI, and so the multi-variant GUIs built on it (they send
//! `UCI_Variant`), number them 1 to 10 (`h3e3`, `a10a9`).

use xiangqi_core::{Move, Position};

/// How ranks are numbered in move text.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Ranks {
    /// `0`–`9` (Pikafish, UCCI, XBoard).
    #[default]
    FromZero,
    /// `1`–`10` (Fairy-Stockfish's UCI).
    FromOne,
}

/// `m` as text.
pub fn write(m: Move, ranks: Ranks) -> String {
    let text = m.to_string();
    match ranks {
        Ranks::FromZero => text,
        Ranks::FromOne => {
            let b = text.as_bytes();
            let rank = |c: u8| (c - b'0' + 1).to_string();
            format!(
                "{}{}{}{}",
                b[0] as char,
                rank(b[1]),
                b[2] as char,
                rank(b[3])
            )
        }
    }
}

/// Several moves as text, separated by spaces.
pub fn write_all(moves: &[Move], ranks: Ranks) -> String {
    moves
        .iter()
        .map(|&m| write(m, ranks))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Turns 1-based move text (`h3e3`, `a10a9`) into the 0-based form, or `None` when it is
/// not two squares with ranks 1–10.
fn from_one(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = text;
    for _ in 0..2 {
        let file = rest.chars().next().filter(char::is_ascii_alphabetic)?;
        rest = &rest[1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let rank: u32 = rest[..digits].parse().ok()?;
        if !(1..=10).contains(&rank) {
            return None;
        }
        rest = &rest[digits..];
        out.push(file);
        out.push(char::from_digit(rank - 1, 10)?);
    }
    rest.is_empty().then_some(out)
}

/// Whether `text` looks like a move in either numbering (a 1-based `a10a9` included).
pub fn looks_like_move(text: &str) -> bool {
    text.parse::<xiangqi_core::UciMove>().is_ok() || from_one(text).is_some()
}

/// The legal move `text` names in `pos`.
///
/// # Errors
/// A message saying what is wrong: not move syntax, or not legal here.
pub fn parse(pos: &Position, text: &str, ranks: Ranks) -> Result<Move, String> {
    let text = text.trim();
    let zero_based = match ranks {
        Ranks::FromZero => text.to_string(),
        Ranks::FromOne => from_one(text)
            .ok_or_else(|| format!("{text:?} is not a move like h3e3 (files a-i, ranks 1-10)"))?,
    };
    pos.parse_uci(&zero_based).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn both_numberings() {
        let pos = Position::startpos();
        let m = parse(&pos, "h2e2", Ranks::FromZero).unwrap();
        assert_eq!(parse(&pos, "h3e3", Ranks::FromOne).unwrap(), m);
        assert_eq!(write(m, Ranks::FromOne), "h3e3");
        assert_eq!(write(m, Ranks::FromZero), "h2e2");
        let rook = parse(&pos, "a1a2", Ranks::FromOne).unwrap();
        assert_eq!(rook.to_string(), "a0a1");
        let black = pos.after(m).unwrap();
        let r = parse(&black, "a10a9", Ranks::FromOne).unwrap();
        assert_eq!(r.to_string(), "a9a8");
        assert_eq!(write(r, Ranks::FromOne), "a10a9");
        assert!(parse(&pos, "a0a1", Ranks::FromOne).is_err());
        assert!(parse(&pos, "a11a1", Ranks::FromOne).is_err());
        assert!(parse(&pos, "h3e3", Ranks::FromZero).is_err());
        assert!(looks_like_move("a10a9") && looks_like_move("h2e2"));
        assert!(!looks_like_move("startpos"));
    }

    proptest! {
        /// Every legal move of a random game reads back from its text in both numberings.
        #[test]
        fn round_trip(picks in proptest::collection::vec(0usize..200, 0..40)) {
            let mut pos = Position::startpos();
            for pick in picks {
                let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    for ranks in [Ranks::FromZero, Ranks::FromOne] {
                        prop_assert_eq!(parse(&pos, &write(m, ranks), ranks), Ok(m));
                    }
                }
                pos = pos.after(moves[pick % moves.len()]).unwrap();
            }
        }
    }
}
