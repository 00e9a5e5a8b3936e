//! Static exchange evaluation (SEE) with the xiangqi attack rules.
//!
//! The exchange on the target point is followed by [`Position::see`] on a copy of the
//! target's lines, without touching the board, each side recapturing with its least valuable
//! attacker as [`Position::attackers`] finds them. It gets the xiangqi subtleties right: a
//! cannon needs exactly one screen, so a capture can *create* a cannon attack (the capturing
//! piece becomes the screen) or remove one; a horse is blocked at its leg; a general attacks
//! only inside its palace. Pins are ignored, as usual for SEE.

use xiangqi_core::{Move, Position, Role};

/// The exchange value of a piece for SEE and move ordering (the general is worth more than
/// everything else together, so it recaptures last).
#[inline]
pub const fn see_value(role: Role) -> i32 {
    match role {
        Role::King => 10_000,
        _ => xiangqi_eval::Material::value(role),
    }
}

/// [`see_value`] of each role, indexed by [`Role::index`] (what [`Position::see`] takes).
const SEE_VALUES: [i32; 7] = {
    let mut v = [0; 7];
    let mut i = 0;
    while i < 7 {
        v[i] = see_value(Role::ALL[i]);
        i += 1;
    }
    v
};

/// The material the side to move gains by the capture `m` followed by the best sequence
/// of recaptures on its target point (either side may stop capturing when it pays).
/// `m` must be legal in `pos`; `pos` is left unchanged (it is taken as `&mut` only so that
/// callers written for the earlier make/unmake version need not change).
///
/// ```
/// use xiangqi_core::Position;
/// use xiangqi_search::see;
/// // The red chariot takes a pawn that a cannon defends over the horse (its screen):
/// // it wins 100 and loses 900.
/// let mut pos = Position::from_fen("4k4/9/4c4/4n4/4p3R/9/9/9/9/3K5 w - - 0 1")?;
/// let m = pos.parse_uci("i5e5")?;
/// assert_eq!(see(&mut pos, m), 100 - 900);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[inline]
pub fn see(pos: &mut Position, m: Move) -> i32 {
    pos.see(m, &SEE_VALUES)
}

/// Does the capture `m` win at least `threshold` by exchange? ([`Position::see_ge`] with
/// [`see_value`]: it answers at once when the victim alone decides, and follows the exchange
/// only until the answer cannot change.)
#[inline]
pub fn see_ge(pos: &mut Position, m: Move, threshold: i32) -> bool {
    pos.see_ge(m, threshold, &SEE_VALUES)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, mv: &str) -> i32 {
        let mut pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_uci(mv).unwrap();
        let before = pos.clone();
        let v = see(&mut pos, m);
        assert_eq!(pos, before, "SEE must leave the position unchanged");
        v
    }

    // Each value below was worked out by hand from the diagram.

    #[test]
    fn undefended_piece() {
        // Red chariot f0 takes the undefended horse on f7.
        assert_eq!(see_of("4k4/9/5n3/9/9/9/9/9/9/3K1R3 w - - 0 1", "f0f7"), 400);
    }

    #[test]
    fn cannon_behind_a_screen_defends() {
        // Black cannon e7, black horse e6 (the screen), black pawn e5: the cannon defends
        // e5. The chariot takes from i5: wins 100, loses 900, nothing recaptures.
        assert_eq!(
            see_of("4k4/9/4c4/4n4/4p3R/9/9/9/9/3K5 w - - 0 1", "i5e5"),
            100 - 900
        );
    }

    #[test]
    fn capturing_piece_becomes_a_screen() {
        // Black cannon e8 with nothing between it and e5: no screen, so it does not defend
        // e5. The chariot wins the pawn for free.
        assert_eq!(
            see_of("3k5/4c4/9/9/4p3R/9/9/9/9/5K3 w - - 0 1", "i5e5"),
            100
        );
        // A red pawn on e6 is a screen for that cannon: the chariot is lost after the capture.
        assert_eq!(
            see_of("3k5/4c4/9/4P4/4p3R/9/9/9/9/5K3 w - - 0 1", "i5e5"),
            100 - 900
        );
    }

    #[test]
    fn capture_removes_a_screen() {
        // The red horse d3 takes the pawn e5; the black chariot a5 recaptures. The red cannon
        // e2 cannot recapture: with the pawn gone there is no screen on e3-e4. 100 - 400.
        assert_eq!(
            see_of("3k5/9/9/9/r3p4/9/3N5/4C4/9/4K4 w - - 0 1", "d3e5"),
            100 - 400
        );
    }

    #[test]
    fn horse_leg_blocks_defence() {
        // The black horse on d7 would defend e5, but its leg d6 is blocked (by a red pawn,
        // which does not attack e5): the red chariot takes the pawn e5 for free.
        assert_eq!(
            see_of("4k4/9/3n5/3P5/4p3R/9/9/9/9/3K5 w - - 0 1", "i5e5"),
            100
        );
        // Leg free (the red pawn on c6 instead): the horse recaptures, 100 - 900.
        assert_eq!(
            see_of("4k4/9/3n5/2P6/4p3R/9/9/9/9/3K5 w - - 0 1", "i5e5"),
            100 - 900
        );
    }

    #[test]
    fn exchange_sequence() {
        // Red chariot a5 takes the horse e5 (+400), the black chariot e8 takes back (-900),
        // the red chariot e0 takes back (+900): 400.
        assert_eq!(
            see_of("3k5/4r4/9/9/R3n4/9/9/9/9/4RK3 w - - 0 1", "a5e5"),
            400
        );
    }
}
