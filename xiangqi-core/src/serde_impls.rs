//! `Serialize` and `Deserialize` (feature `serde`), in the forms people write: a square as
//! ICCS coordinates (`"e0"`), a move as ICCS/UCI (`"h2e2"`), a piece as its FEN letter
//! (`"R"`, `"c"`), colours and roles as lower-case words, a position as its FEN, a game as
//! its start FEN and its moves. Reading checks as the parsers do: a game's moves are replayed
//! and the first illegal one is refused, naming its number and the reason.

use crate::{Color, Game, Move, Piece, Position, Role, Square, UciMove};
use alloc::{format, string::String, string::ToString, vec::Vec};
use core::fmt;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

/// A visitor for types written as a string, parsed by `parse` (`what` names the type in
/// error messages).
struct FromText<T> {
    what: &'static str,
    parse: fn(&str) -> Result<T, String>,
}

impl<T> Visitor<'_> for FromText<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.what)
    }

    fn visit_str<Er: de::Error>(self, v: &str) -> Result<T, Er> {
        (self.parse)(v).map_err(Er::custom)
    }
}

fn from_text<'de, D: Deserializer<'de>, T>(
    d: D,
    what: &'static str,
    parse: fn(&str) -> Result<T, String>,
) -> Result<T, D::Error> {
    d.deserialize_str(FromText { what, parse })
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Square, D::Error> {
        from_text(d, "a square in ICCS coordinates, such as \"e0\"", |t| {
            Square::from_iccs(t).ok_or_else(|| format!("{t:?} is not a square (a0 to i9)"))
        })
    }
}

impl Serialize for Move {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Move {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
        from_text(d, "a move in ICCS/UCI coordinates, such as \"h2e2\"", |t| {
            let m: UciMove = t.parse().map_err(|e| format!("{t:?}: {e}"))?;
            Move::try_new(m.from, m.to).ok_or_else(|| format!("{t:?} is not a move"))
        })
    }
}

impl Serialize for Piece {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut buf = [0u8; 4];
        s.serialize_str(self.char().encode_utf8(&mut buf))
    }
}

impl<'de> Deserialize<'de> for Piece {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Piece, D::Error> {
        from_text(
            d,
            "a piece as its FEN letter, such as \"R\" or \"c\"",
            |t| {
                let mut chars = t.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Piece::from_char(c),
                    _ => None,
                }
                .ok_or_else(|| format!("{t:?} is not a piece letter (KABNRCP, kabnrcp)"))
            },
        )
    }
}

/// Colours and roles as lower-case words: `"red"`, `"black"`, `"chariot"` ...
macro_rules! by_name {
    ($t:ty, $what:literal, $($v:path => $name:literal),+) => {
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(match *self { $($v => $name,)+ })
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                from_text(d, $what, |t| match t {
                    $($name => Ok($v),)+
                    _ => Err(format!("{t:?} is not {}", $what)),
                })
            }
        }
    };
}

by_name!(Color, "a colour (\"red\" or \"black\")", Color::Red => "red", Color::Black => "black");
by_name!(Role, "a role (\"king\", \"advisor\", \"elephant\", \"horse\", \"chariot\", \"cannon\" or \"pawn\")",
    Role::King => "king", Role::Advisor => "advisor", Role::Elephant => "elephant",
    Role::Horse => "horse", Role::Chariot => "chariot", Role::Cannon => "cannon",
    Role::Pawn => "pawn");

impl Serialize for Position {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.fen())
    }
}

impl<'de> Deserialize<'de> for Position {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Position, D::Error> {
        from_text(d, "a position as FEN", |t| {
            Position::from_fen(t).map_err(|e| e.to_string())
        })
    }
}

/// A game as `{"start": FEN, "moves": ["h2e2", ...]}`: the moves played (not those undone).
impl Serialize for Game {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Game", 2)?;
        st.serialize_field("start", self.start_position())?;
        st.serialize_field("moves", self.moves())?;
        st.end()
    }
}

impl<'de> Deserialize<'de> for Game {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Game, D::Error> {
        const FIELDS: &[&str] = &["start", "moves"];

        struct GameVisitor;

        impl GameVisitor {
            fn replay<Er: de::Error>(start: Position, moves: Vec<Move>) -> Result<Game, Er> {
                let mut game = Game::new(start);
                for (i, m) in moves.into_iter().enumerate() {
                    game.play(m)
                        .map_err(|e| Er::custom(format_args!("move {} ({m}): {e}", i + 1)))?;
                }
                Ok(game)
            }
        }

        impl<'de> Visitor<'de> for GameVisitor {
            type Value = Game;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a game: its start position (FEN) and its moves")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Game, A::Error> {
                let start = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(0, &self))?;
                let moves = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(1, &self))?;
                Self::replay(start, moves)
            }

            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Game, A::Error> {
                let mut start = None;
                let mut moves = None;
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "start" if start.is_some() => {
                            return Err(de::Error::duplicate_field("start"))
                        }
                        "start" => start = Some(map.next_value()?),
                        "moves" if moves.is_some() => {
                            return Err(de::Error::duplicate_field("moves"))
                        }
                        "moves" => moves = Some(map.next_value()?),
                        other => return Err(de::Error::unknown_field(other, FIELDS)),
                    }
                }
                let start = start.ok_or_else(|| de::Error::missing_field("start"))?;
                Self::replay(start, moves.unwrap_or_default())
            }
        }

        d.deserialize_struct("Game", FIELDS, GameVisitor)
    }
}
