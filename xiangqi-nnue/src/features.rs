//! The network's input: one feature per (piece, point), seen from one side.
//!
//! Each side has its own view of the board, its *perspective*: its own pieces and the
//! opponent's, on points counted from its own back rank. Black's view is red's view of the
//! board flipped top to bottom with the colours swapped, so a position and its colour-swapped
//! twin ([`Position::swap_colors`]) give the side to move exactly the same inputs: the colour
//! symmetry holds by construction, not by training.
//!
//! [`Position::swap_colors`]: xiangqi_core::Position::swap_colors

use xiangqi_core::{Color, Piece, Role, Square};

/// Points on the board.
const POINTS: usize = Square::COUNT;
/// Roles per side.
const ROLES: usize = Role::ALL.len();

/// The number of input features of one perspective: 2 relative colours × 7 roles × 90
/// points.
pub const FEATURES: usize = 2 * ROLES * POINTS;

/// The feature that `piece` on `square` switches on in `perspective`'s view: pieces of the
/// perspective's own colour first, points mirrored top to bottom for black.
#[inline]
pub fn feature(perspective: Color, piece: Piece, square: Square) -> usize {
    let (relative_color, point) = if perspective == Color::Red {
        (piece.color as usize, square.index())
    } else {
        (1 - piece.color as usize, square.flip_vertical().index())
    };
    (relative_color * ROLES + piece.role.index()) * POINTS + point
}

/// The feature of the left-right mirror image of `feature`'s piece: the same piece on the
/// same rank, file `a` <-> `i`. The trainer uses it to show the network mirrored positions.
#[inline]
pub fn mirrored(feature: usize) -> usize {
    let point = feature % POINTS;
    let square = Square::from_index_unchecked(point as u8).flip_horizontal();
    feature - point + square.index()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_distinct_and_in_range() {
        for perspective in Color::ALL {
            let mut seen = vec![false; FEATURES];
            for color in Color::ALL {
                for role in Role::ALL {
                    for square in Square::all() {
                        let f = feature(perspective, Piece::new(color, role), square);
                        assert!(!seen[f], "feature {f} given twice");
                        seen[f] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn black_sees_the_flipped_board_with_colours_swapped() {
        let piece = Piece::new(Color::Black, Role::Horse);
        let square = Square::from_iccs("b9").unwrap();
        let twin = Piece::new(Color::Red, Role::Horse);
        assert_eq!(
            feature(Color::Black, piece, square),
            feature(Color::Red, twin, square.flip_vertical())
        );
    }

    #[test]
    fn mirroring_twice_is_the_identity() {
        for f in 0..FEATURES {
            assert_eq!(mirrored(mirrored(f)), f);
        }
        let sq = Square::from_iccs("b2").unwrap();
        let p = Piece::new(Color::Red, Role::Cannon);
        assert_eq!(
            mirrored(feature(Color::Red, p, sq)),
            feature(Color::Red, p, sq.flip_horizontal())
        );
    }
}
