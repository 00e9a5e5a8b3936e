//! What a move threatens: chases (捉) and mate threats (杀), for the repetition judge.
//!
//! A chase, as the Asian (AXF/WXF) and Chinese (CXA 1999) rules define it, is a move that
//! creates a threat to win a piece of material value: the chasing side could capture it next
//! move and the owner could not legally recapture. Generals and pawns that have not crossed
//! the river are not targets; a general or a pawn attacking is never a chase. A horse or a
//! cannon attacking a chariot chases it even when the chariot is protected (the exchange
//! wins material). Two pieces of the same kind attacking each other (an offer to exchange)
//! is no chase unless the target cannot capture back (it is pinned, or a horse's leg is
//! blocked on its side only).
//!
//! The definitions follow the rules summarised in `shared/notes/rules.md` (CXA 1999 articles
//! 27–29, the WXF rules as implemented by Pikafish's `chased()`); the code is our own.

use crate::{Color, Move, Position, Role, Square};

/// No piece on this point (in [`Ids`]).
pub(crate) const NO_ID: u8 = u8::MAX;

/// A stable identity for every piece of a position, so that a chased piece is recognised
/// when it has moved. Ids are 0..32 (at most 32 pieces), kept up to date move by move.
#[derive(Clone)]
pub(crate) struct Ids {
    id: [u8; 90],
}

impl Ids {
    /// Numbers the pieces of `pos` in square order.
    pub(crate) fn new(pos: &Position) -> Ids {
        let mut id = [NO_ID; 90];
        for (next, (square, _)) in pos.all_pieces().enumerate() {
            id[square.index()] = next as u8;
        }
        Ids { id }
    }

    /// The id of the piece on `square` ([`NO_ID`] when empty).
    pub(crate) fn at(&self, square: Square) -> u8 {
        self.id[square.index()]
    }

    /// Follows move `m` (a capture removes the captured piece's id).
    pub(crate) fn make_move(&mut self, m: Move) {
        self.id[m.to().index()] = self.id[m.from().index()];
        self.id[m.from().index()] = NO_ID;
    }

    /// The square of the piece with this id, if it is on the board.
    pub(crate) fn square_of(&self, id: u8) -> Option<Square> {
        self.id
            .iter()
            .position(|&x| x == id)
            .and_then(|i| Square::new(i as u8))
    }
}

/// Is a piece of this kind, on this point, a target a chase can be made against?
fn is_target(pos: &Position, square: Square) -> bool {
    match pos.piece_at(square) {
        None => false,
        Some(p) => match p.role {
            Role::King => false,
            // A pawn that has not crossed the river is not "material" for the chase rules.
            Role::Pawn => !square.on_side_of(p.color),
            _ => true,
        },
    }
}

/// Can the side to move capture on `square` by a legal move?
fn can_capture_on(pos: &Position, square: Square) -> bool {
    pos.legal_captures().iter().any(|m| m.to() == square)
}

/// The set (bit per piece id) of the pieces of `chaser`'s opponent that `chaser` attacks
/// as a chase in `pos`: it could win them with its next move.
///
/// `pos` must have `chaser` to move, or have the opponent to move while not in check (then
/// the turn is passed for the test). The position is restored before returning.
pub(crate) fn chased_set(pos: &mut Position, ids: &Ids, chaser: Color) -> u32 {
    let passed = if pos.side_to_move() != chaser {
        if pos.is_check() {
            // The chaser's last move gave check: the rules count it as a check, not a chase.
            return 0;
        }
        Some(pos.make_null())
    } else {
        None
    };
    let mut set = 0u32;
    for m in pos.legal_captures() {
        let Some(attacker) = pos.piece_at(m.from()) else {
            continue;
        };
        if matches!(attacker.role, Role::King | Role::Pawn) || !is_target(pos, m.to()) {
            continue;
        }
        let id = ids.at(m.to());
        if id == NO_ID || set & (1 << id) != 0 {
            continue;
        }
        let Some(victim) = pos.piece_at(m.to()) else {
            continue;
        };
        let wins_exchange = victim.role == Role::Chariot
            && matches!(attacker.role, Role::Horse | Role::Cannon)
            || matches!(attacker.role, Role::Advisor | Role::Elephant)
                && matches!(victim.role, Role::Chariot | Role::Horse | Role::Cannon);
        let chase = if wins_exchange {
            true
        } else {
            let undo = pos.make_move(m);
            let protected = can_capture_on(pos, m.to());
            pos.unmake_move(m, undo);
            if protected {
                false
            } else if attacker.role == victim.role {
                // An offer to exchange, unless the target cannot take back.
                let null = pos.make_null();
                let can_take_back = pos.is_legal(Move::new(m.to(), m.from()));
                pos.unmake_null(null);
                !can_take_back
            } else {
                true
            }
        };
        if chase {
            set |= 1 << id;
        }
    }
    if let Some(undo) = passed {
        pos.unmake_null(undo);
    }
    set
}

/// Does `attacker`, who has just moved (the opponent is to move and not in check),
/// threaten to checkmate with its next move (杀)?
pub(crate) fn threatens_mate(pos: &mut Position, attacker: Color) -> bool {
    if pos.side_to_move() == attacker || pos.is_check() {
        return false;
    }
    let null = pos.make_null();
    let mut found = false;
    for m in pos.legal_moves() {
        let undo = pos.make_move(m);
        let mate = pos.is_check() && !pos.has_legal_move();
        pos.unmake_move(m, undo);
        if mate {
            found = true;
            break;
        }
    }
    pos.unmake_null(null);
    found
}
