//! Why a move is not legal: the rule it breaks, for error messages a player can act on.
//!
//! The move generator answers only *whether* a move is legal; a player who drops a horse on a
//! point it cannot reach wants to know *why* (the leg is blocked, the elephant cannot cross
//! the river, the general would be left in check). The geometry here only names the reason:
//! [`Position::is_legal`] stays the judge, and [`Position::illegal_reason`] asks it first.

use crate::{Color, Move, Position, Role, Square, Undo};
use core::fmt;

/// The rule a move breaks. [`IllegalReason::code`] is a stable name for programs (a web
/// page translating the reason, say); `Display` says it in English.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IllegalReason {
    /// There is no piece on the move's starting point.
    NoPiece {
        /// The empty point.
        from: Square,
    },
    /// The piece belongs to the side not to move.
    NotSideToMove {
        /// The piece's point.
        from: Square,
        /// The side to move.
        side: Color,
    },
    /// The target point holds a piece of the mover's own side.
    OwnPiece {
        /// The occupied point.
        to: Square,
        /// The mover's side.
        side: Color,
    },
    /// The general moves one point along a file or rank.
    GeneralStep,
    /// The general may not leave the palace.
    GeneralPalace,
    /// The advisor moves one point diagonally.
    AdvisorStep,
    /// The advisor may not leave the palace.
    AdvisorPalace,
    /// The elephant moves two points diagonally.
    ElephantStep,
    /// The elephant may not cross the river.
    ElephantRiver,
    /// The point between the elephant and its target is occupied (塞象眼).
    ElephantEye,
    /// The horse moves one point along a line, then one diagonally.
    HorseStep,
    /// The point next to the horse in the direction of its move is occupied (蹩马腿).
    HorseLeg,
    /// The chariot moves along a file or a rank.
    ChariotLine,
    /// The chariot cannot jump over pieces.
    ChariotBlocked,
    /// The cannon moves along a file or a rank.
    CannonLine,
    /// The cannon captures by jumping over exactly one piece.
    CannonScreen,
    /// The cannon moves without jumping; it jumps only to capture.
    CannonBlocked,
    /// A pawn never moves backward.
    PawnBackward,
    /// A pawn moves one point.
    PawnStep,
    /// A pawn moves sideways only after crossing the river.
    PawnSideways,
    /// The move would leave the two generals facing each other on an open file (将帅照面).
    GeneralsFace,
    /// The side to move is in check, and the move does not answer it.
    IgnoresCheck,
    /// The move would expose the mover's general to capture.
    ExposesGeneral,
}

/// A move that is not legal in the position it was offered to, and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move that was refused.
    pub mv: Move,
    /// The rule it breaks.
    pub reason: IllegalReason,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}: {}", self.mv, self.reason)
    }
}

impl core::error::Error for IllegalMove {}

impl IllegalReason {
    /// A stable snake_case name of the reason (`horse_leg`, `exposes_general`, ...).
    pub const fn code(self) -> &'static str {
        use IllegalReason as R;
        match self {
            R::NoPiece { .. } => "no_piece",
            R::NotSideToMove { .. } => "not_side_to_move",
            R::OwnPiece { .. } => "own_piece",
            R::GeneralStep => "general_step",
            R::GeneralPalace => "general_palace",
            R::AdvisorStep => "advisor_step",
            R::AdvisorPalace => "advisor_palace",
            R::ElephantStep => "elephant_step",
            R::ElephantRiver => "elephant_river",
            R::ElephantEye => "elephant_eye",
            R::HorseStep => "horse_step",
            R::HorseLeg => "horse_leg",
            R::ChariotLine => "chariot_line",
            R::ChariotBlocked => "chariot_blocked",
            R::CannonLine => "cannon_line",
            R::CannonScreen => "cannon_screen",
            R::CannonBlocked => "cannon_blocked",
            R::PawnBackward => "pawn_backward",
            R::PawnStep => "pawn_step",
            R::PawnSideways => "pawn_sideways",
            R::GeneralsFace => "generals_face",
            R::IgnoresCheck => "ignores_check",
            R::ExposesGeneral => "exposes_general",
        }
    }
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use IllegalReason as R;
        let text = match *self {
            R::NoPiece { from } => return write!(f, "there is no piece on {from}"),
            R::NotSideToMove { from, side } => {
                let owner = side.other();
                return write!(
                    f,
                    "it is {side}'s move, and the piece on {from} is {owner}'s"
                );
            }
            R::OwnPiece { to, side } => return write!(f, "{to} holds one of {side}'s own pieces"),
            R::GeneralStep => "the general moves one point along a line",
            R::GeneralPalace => "the general may not leave the palace",
            R::AdvisorStep => "the advisor moves one point diagonally",
            R::AdvisorPalace => "the advisor may not leave the palace",
            R::ElephantStep => "the elephant moves two points diagonally",
            R::ElephantRiver => "the elephant may not cross the river",
            R::ElephantEye => "the elephant's eye is blocked (塞象眼)",
            R::HorseStep => "the horse moves one point along a line, then one diagonally",
            R::HorseLeg => "the horse's leg is blocked (蹩马腿)",
            R::ChariotLine => "the chariot moves along a file or a rank",
            R::ChariotBlocked => "the chariot cannot jump over pieces",
            R::CannonLine => "the cannon moves along a file or a rank",
            R::CannonScreen => "the cannon captures by jumping over exactly one piece",
            R::CannonBlocked => "the cannon moves without jumping; it jumps only to capture",
            R::PawnBackward => "a pawn never moves backward",
            R::PawnStep => "a pawn moves one point",
            R::PawnSideways => "a pawn moves sideways only after crossing the river",
            R::GeneralsFace => "the generals would face each other on an open file (将帅照面)",
            R::IgnoresCheck => "the general is in check, and this move does not answer the check",
            R::ExposesGeneral => "it would leave the general in check",
        };
        f.write_str(text)
    }
}

impl Position {
    /// Plays `m` if it is legal here; otherwise returns an error and leaves the position unchanged.
    ///
    /// # Errors
    /// [`IllegalMove`] when `m` is not a legal move in this position.
    pub fn play(&mut self, m: Move) -> Result<Undo, IllegalMove> {
        self.check_legal(m)?;
        Ok(self.make_move(m))
    }

    /// `Ok` when `m` is legal here, else the error with the rule it breaks.
    ///
    /// # Errors
    /// [`IllegalMove`] (with its [`IllegalReason`]) when `m` is not legal here.
    pub fn check_legal(&self, m: Move) -> Result<(), IllegalMove> {
        match self.illegal_reason(m) {
            None => Ok(()),
            Some(reason) => Err(IllegalMove { mv: m, reason }),
        }
    }

    /// The position after `m`, or an error if `m` is illegal here.
    ///
    /// # Errors
    /// [`IllegalMove`] when `m` is not a legal move in this position.
    pub fn after(&self, m: Move) -> Result<Position, IllegalMove> {
        let mut p = self.clone();
        p.play(m)?;
        Ok(p)
    }

    /// Why `m` is not legal here, or `None` when it is.
    ///
    /// ```
    /// use xiangqi_core::{IllegalReason, Position, UciMove};
    /// let pos = Position::startpos();
    /// let m = "b0d1".parse::<UciMove>().unwrap();
    /// let m = xiangqi_core::Move::new(m.from, m.to);
    /// assert_eq!(pos.illegal_reason(m), Some(IllegalReason::HorseLeg));
    /// ```
    pub fn illegal_reason(&self, m: Move) -> Option<IllegalReason> {
        if self.is_legal(m) {
            return None;
        }
        let (from, to) = (m.from(), m.to());
        let side = self.side_to_move();
        let Some(piece) = self.piece_at(from) else {
            return Some(IllegalReason::NoPiece { from });
        };
        if piece.color != side {
            return Some(IllegalReason::NotSideToMove { from, side });
        }
        if self.piece_at(to).is_some_and(|p| p.color == side) {
            return Some(IllegalReason::OwnPiece { to, side });
        }
        if let Some(reason) = movement_rule_broken(self, piece.role, side, from, to) {
            return Some(reason);
        }
        // The piece may move so: the move must expose its own general. The attack rules
        // count a general facing the other on an open file as attacking it.
        let mut after = self.clone();
        after.make_move(m);
        let their_general = after.king_square(side.other());
        let attackers = after.attackers(after.king_square(side), side.other());
        Some(if attackers.contains(&their_general) {
            IllegalReason::GeneralsFace
        } else if self.is_check() {
            IllegalReason::IgnoresCheck
        } else {
            IllegalReason::ExposesGeneral
        })
    }
}

fn coords(s: Square) -> (i32, i32) {
    (i32::from(s.file().index()), i32::from(s.rank().index()))
}

fn square(f: i32, r: i32) -> Option<Square> {
    if (0..9).contains(&f) && (0..10).contains(&r) {
        Square::new(u8::try_from(r * 9 + f).ok()?)
    } else {
        None
    }
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

fn occupied(pos: &Position, f: i32, r: i32) -> bool {
    square(f, r).and_then(|s| pos.piece_at(s)).is_some()
}

/// The piece's own rule of movement that forbids the move, if one does.
fn movement_rule_broken(
    pos: &Position,
    role: Role,
    side: Color,
    from: Square,
    to: Square,
) -> Option<IllegalReason> {
    use IllegalReason as R;
    let (f0, r0) = coords(from);
    let (f1, r1) = coords(to);
    let (df, dr) = (f1 - f0, r1 - r0);
    let forward = if side == Color::Red { dr } else { -dr };
    let straight = df == 0 || dr == 0;
    match role {
        Role::King if df.abs() + dr.abs() != 1 => Some(R::GeneralStep),
        Role::King if !to.in_palace(side) => Some(R::GeneralPalace),
        Role::Advisor if df.abs() != 1 || dr.abs() != 1 => Some(R::AdvisorStep),
        Role::Advisor if !to.in_palace(side) => Some(R::AdvisorPalace),
        Role::Elephant if df.abs() != 2 || dr.abs() != 2 => Some(R::ElephantStep),
        Role::Elephant if !to.on_side_of(side) => Some(R::ElephantRiver),
        Role::Elephant if occupied(pos, f0 + df / 2, r0 + dr / 2) => Some(R::ElephantEye),
        Role::Horse => match (df.abs(), dr.abs()) {
            (1, 2) if occupied(pos, f0, r0 + dr / 2) => Some(R::HorseLeg),
            (2, 1) if occupied(pos, f0 + df / 2, r0) => Some(R::HorseLeg),
            (1, 2) | (2, 1) => None,
            _ => Some(R::HorseStep),
        },
        Role::Chariot if !straight => Some(R::ChariotLine),
        Role::Chariot if between(pos, from, to) > 0 => Some(R::ChariotBlocked),
        Role::Cannon if !straight => Some(R::CannonLine),
        Role::Cannon => match (pos.piece_at(to).is_some(), between(pos, from, to)) {
            (true, screens) if screens != 1 => Some(R::CannonScreen),
            (false, screens) if screens > 0 => Some(R::CannonBlocked),
            _ => None,
        },
        Role::Pawn if forward < 0 => Some(R::PawnBackward),
        Role::Pawn if df.abs() + dr.abs() != 1 => Some(R::PawnStep),
        Role::Pawn if forward == 0 && from.on_side_of(side) => Some(R::PawnSideways),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::START_FEN;
    use alloc::string::{String, ToString};

    fn why(fen: &str, mv: &str) -> String {
        let pos = Position::from_fen(fen).unwrap();
        let (a, b) = mv.split_at(2);
        let m = Move::new(Square::from_iccs(a).unwrap(), Square::from_iccs(b).unwrap());
        let reason = pos.illegal_reason(m).expect("an illegal move");
        assert!(!pos.is_legal(m), "{mv} is legal");
        reason.to_string()
    }

    #[test]
    fn names_the_rule_broken() {
        assert!(why(START_FEN, "b0b1").contains("horse moves"));
        assert!(why(START_FEN, "b0d1").contains("leg"));
        assert!(why(START_FEN, "e0e2").contains("general moves"));
        assert!(why(START_FEN, "a0a3").contains("red's own"));
        assert!(why(START_FEN, "b2b7").contains("exactly one"));
        assert!(why(START_FEN, "a3a2").contains("backward"));
        assert!(why(START_FEN, "a3b3").contains("sideways"));
        assert!(why(START_FEN, "e5e6").contains("no piece on e5"));
        assert!(why(START_FEN, "b9c7").contains("the piece on b9 is black's"));
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

    #[test]
    fn a_legal_move_has_no_reason() {
        let pos = Position::startpos();
        for m in pos.legal_moves() {
            assert_eq!(pos.illegal_reason(m), None);
        }
    }
}
