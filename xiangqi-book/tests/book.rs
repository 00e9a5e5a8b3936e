//! The built-in book against the master games it was built from.

use xiangqi_book::{Book, BookError};
use xiangqi_core::Position;

#[test]
fn start_position_has_the_masters_favourite_openings() {
    let book = Book::builtin();
    assert!(book.len() > 10_000);
    let moves = book.moves(&Position::startpos());
    let names: Vec<String> = moves.iter().map(|m| m.mv.to_string()).collect();
    // 炮二平五 (h2e2), 相三进五 (g0e2), 兵七进一 (c3c4) and 马二进三 (h0g2) are the classical first moves,
    // and the mirror images are in too (炮八平五 b2e2).
    for m in ["h2e2", "b2e2", "g0e2", "c3c4", "h0g2"] {
        assert!(names.contains(&m.to_string()), "{m} missing from {names:?}");
    }
    assert!(moves.windows(2).all(|w| w[0].games >= w[1].games));
}

#[test]
fn picked_moves_are_legal_and_deterministic_along_a_book_line() {
    let book = Book::builtin();
    let mut pos = Position::startpos();
    let mut plies = 0;
    while let Some(m) = book.pick(&pos, 7) {
        assert_eq!(book.pick(&pos, 7), Some(m));
        pos.play(m).expect("book moves are legal");
        plies += 1;
        if plies == 40 {
            break;
        }
    }
    assert!(
        plies >= 6,
        "the book should last several plies, lasted {plies}"
    );
}

#[test]
fn round_trips_and_rejects_bad_bytes() {
    let book = Book::builtin();
    let again = Book::from_bytes(&book.to_bytes()).unwrap();
    assert_eq!(again.len(), book.len());
    assert_eq!(
        Book::from_bytes(&[0; 13]).unwrap_err(),
        BookError::BadLength(13)
    );
    assert_eq!(
        Book::from_bytes(&[0; 14]).unwrap_err(),
        BookError::BadMove(0)
    );
}
