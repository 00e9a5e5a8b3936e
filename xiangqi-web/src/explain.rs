//! Why a move is not legal, in words: the reason an illegal move is refused with.
//!
//! The core answers only *whether* a move is legal; a player who drops a horse on a point it
//! cannot reach wants to know *why* (the leg is blocked, the elephant cannot cross the
//! river, the general would be left in check). The geometry here only names the reason; the
//! core's [`Position::is_legal`] stays the judge: [`why_illegal`] is only asked about moves
//! it refused.

use xiangqi_core::{Color, Move, Position, Role, Square};

/// The reason the move `from`-`to` is not legal in `pos` (which must have refused it).
pub fn why_illegal(pos: &Position, from: Square, to: Square) -> String {
    let side = pos.side_to_move();
    let Some(piece) = pos.piece_at(from) else {
        return format!("there is no piece on {from}");
    };
    if piece.color != side {
        return format!(
            "it is {side}'s move, and the piece on {from} is {}'s",
            piece.color
        );
    }
    if from == to {
        return "a move must leave its point".into();
    }
    if pos.piece_at(to).is_some_and(|p| p.color == side) {
        return format!("{to} holds one of {side}'s own pieces");
    }
    if let Err(reason) = geometry(pos, piece.role, side, from, to) {
        return reason;
    }
    // The piece may move so: the move must expose its own general.
    let mut after = pos.clone();
    after.make_move(Move::new(from, to));
    if generals_face(&after) {
        "the generals would face each other on an open file (将帅照面)".into()
    } else if pos.is_check() {
        "the general is in check, and this move does not answer the check".into()
    } else {
        "it would leave the general in check".into()
    }
}

fn coords(s: Square) -> (i32, i32) {
    (i32::from(s.file().index()), i32::from(s.rank().index()))
}

/// Pieces strictly between two points on one file or rank.
fn between(pos: &Position, from: Square, to: Square) -> usize {
    let (f0, r0) = coords(from);
    let (f1, r1) = coords(to);
    let (df, dr) = ((f1 - f0).signum(), (r1 - r0).signum());
    let (mut f, mut r) = (f0 + df, r0 + dr);
    let mut n = 0;
    while (f, r) != (f1, r1) {
        if let Some(sq) = square(f, r) {
            n += usize::from(pos.piece_at(sq).is_some());
        }
        f += df;
        r += dr;
    }
    n
}

fn square(f: i32, r: i32) -> Option<Square> {
    let index = u8::try_from(r * 9 + f).ok()?;
    if (0..9).contains(&f) && (0..10).contains(&r) {
        Square::new(index)
    } else {
        None
    }
}

fn generals_face(pos: &Position) -> bool {
    let red = pos.king_square(Color::Red);
    let black = pos.king_square(Color::Black);
    red.file() == black.file() && between(pos, red, black) == 0
}

/// `Err(reason)` when the piece's own rule of movement forbids the move.
fn geometry(
    pos: &Position,
    role: Role,
    side: Color,
    from: Square,
    to: Square,
) -> Result<(), String> {
    let (f0, r0) = coords(from);
    let (f1, r1) = coords(to);
    let (df, dr) = (f1 - f0, r1 - r0);
    let forward = if side == Color::Red { dr } else { -dr };
    let straight = df == 0 || dr == 0;
    match role {
        Role::King => {
            if df.abs() + dr.abs() != 1 {
                Err("the general moves one point along a line".into())
            } else if !to.in_palace(side) {
                Err("the general may not leave the palace".into())
            } else {
                Ok(())
            }
        }
        Role::Advisor => {
            if df.abs() != 1 || dr.abs() != 1 {
                Err("the advisor moves one point diagonally".into())
            } else if !to.in_palace(side) {
                Err("the advisor may not leave the palace".into())
            } else {
                Ok(())
            }
        }
        Role::Elephant => {
            if df.abs() != 2 || dr.abs() != 2 {
                Err("the elephant moves two points diagonally".into())
            } else if !to.on_side_of(side) {
                Err("the elephant may not cross the river".into())
            } else if square(f0 + df / 2, r0 + dr / 2)
                .and_then(|s| pos.piece_at(s))
                .is_some()
            {
                Err("the elephant's eye is blocked (塞象眼)".into())
            } else {
                Ok(())
            }
        }
        Role::Horse => {
            let leg = match (df.abs(), dr.abs()) {
                (1, 2) => square(f0, r0 + dr / 2),
                (2, 1) => square(f0 + df / 2, r0),
                _ => {
                    return Err(
                        "the horse moves one point along a line, then one diagonally".into(),
                    )
                }
            };
            if leg.and_then(|s| pos.piece_at(s)).is_some() {
                Err("the horse's leg is blocked (蹩马腿)".into())
            } else {
                Ok(())
            }
        }
        Role::Chariot => {
            if !straight {
                Err("the chariot moves along a file or a rank".into())
            } else if between(pos, from, to) > 0 {
                Err("the chariot cannot jump over pieces".into())
            } else {
                Ok(())
            }
        }
        Role::Cannon => {
            let screens = between(pos, from, to);
            if !straight {
                Err("the cannon moves along a file or a rank".into())
            } else if pos.piece_at(to).is_some() && screens != 1 {
                Err("the cannon captures by jumping over exactly one piece".into())
            } else if pos.piece_at(to).is_none() && screens > 0 {
                Err("the cannon moves without jumping; it jumps only to capture".into())
            } else {
                Ok(())
            }
        }
        Role::Pawn => {
            if forward < 0 {
                Err("a pawn never moves backward".into())
            } else if df.abs() + dr.abs() != 1 {
                Err("a pawn moves one point".into())
            } else if forward == 0 && from.on_side_of(side) {
                Err("a pawn moves sideways only after crossing the river".into())
            } else {
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn why(fen: &str, mv: &str) -> String {
        let pos = Position::from_fen(fen).unwrap();
        let (a, b) = mv.split_at(2);
        let (from, to) = (Square::from_iccs(a).unwrap(), Square::from_iccs(b).unwrap());
        assert!(!pos.is_legal(Move::new(from, to)), "{mv} is legal");
        why_illegal(&pos, from, to)
    }

    const START: &str = xiangqi_core::START_FEN;

    #[test]
    fn names_the_rule_broken() {
        assert!(why(START, "b0b1").contains("horse moves"));
        assert!(why(START, "b0d1").contains("leg"));
        assert!(why(START, "e0e2").contains("general moves"));
        assert!(why(START, "a0a3").contains("red's own"));
        assert!(why(START, "b2b7").contains("exactly one"));
        assert!(why(START, "a3a2").contains("backward"));
        assert!(why(START, "a3b3").contains("sideways"));
        assert!(why(START, "e5e6").contains("no piece"));
        assert!(why(START, "b9c7").contains("black's"));
        // Elephant across the river, and with its eye blocked.
        assert!(why("4k4/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1", "c4e6").contains("river"));
        assert!(why("4k4/9/9/9/9/9/9/9/3r5/2B2K3 w - - 0 1", "c0e2").contains("eye"));
    }

    #[test]
    fn names_an_exposed_general() {
        // The red horse on e1 screens the generals: leaving the file opens it.
        assert!(why("4k4/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1", "e1c2").contains("face each other"));
        // Red in check from the chariot on e9: a move elsewhere does not answer it.
        assert!(why("4r4/3k5/9/9/9/9/9/9/R8/4K4 w - - 0 1", "a1a2").contains("does not answer"));
    }
}
