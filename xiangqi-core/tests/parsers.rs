//! No input makes a parser panic: arbitrary strings, mutated valid FENs and move strings.

use proptest::prelude::*;
use xiangqi_core::{FenError, Position, Setup, UciMove, START_FEN};

const FENS: &[&str] = &[
    START_FEN,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r",
    "3k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1",
];

/// A valid FEN with a few characters replaced, inserted or removed.
fn mutated_fen() -> impl Strategy<Value = String> {
    (
        prop::sample::select(FENS),
        prop::collection::vec((any::<prop::sample::Index>(), any::<char>(), 0..3u8), 1..5),
    )
        .prop_map(|(fen, edits)| {
            let mut chars: Vec<char> = fen.chars().collect();
            for (idx, ch, kind) in edits {
                if chars.is_empty() {
                    chars.push(ch);
                    continue;
                }
                let i = idx.index(chars.len());
                match kind {
                    0 => chars[i] = ch,
                    1 => chars.insert(i, ch),
                    _ => {
                        chars.remove(i);
                    }
                }
            }
            chars.into_iter().collect()
        })
}

fn check_fen(s: &str) {
    match Position::from_fen(s) {
        Ok(pos) => {
            // Whatever parsed is a legal position that round-trips.
            assert_eq!(Position::from_fen(&pos.fen()).unwrap(), pos);
            let _ = pos.legal_moves();
        }
        Err(e) => {
            let _ = e.to_string();
            if let FenError::Setup(se) = &e {
                assert!(!se.problems.is_empty());
            }
        }
    }
    let _ = Setup::from_fen(s);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_strings_never_panic_the_fen_parser(s in ".{0,120}") {
        check_fen(&s);
    }

    #[test]
    fn fen_like_strings_never_panic(s in "[rnbakcpRNBAKCPhHeE1-9/ wrb0-9-]{0,100}") {
        check_fen(&s);
    }

    #[test]
    fn mutated_fens_never_panic(s in mutated_fen()) {
        check_fen(&s);
    }

    #[test]
    fn move_text_never_panics(s in ".{0,8}", t in "[a-j][0-9]-?[a-j][0-9]{1,2}") {
        let pos = Position::startpos();
        for text in [&s, &t] {
            let _ = text.parse::<UciMove>().map(|m| m.to_string());
            if let Ok(m) = pos.parse_uci(text) {
                prop_assert!(pos.legal_moves().contains(&m));
            }
        }
    }
}

#[test]
fn fen_errors_say_what_and_where() {
    let e = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKXBNR w")
        .unwrap_err();
    assert_eq!(
        e,
        FenError::InvalidChar {
            ch: 'X',
            offset: 55
        }
    );
    let e = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x")
        .unwrap_err();
    assert!(
        matches!(e, FenError::InvalidSide { offset: 60, .. }),
        "{e:?}"
    );
    let e = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w").unwrap_err();
    assert_eq!(e, FenError::WrongRankCount { found: 9 });
    let e = Position::from_fen("rnbakabnr/91/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
        .unwrap_err();
    assert!(matches!(e, FenError::RankTooLong { rank: 8, .. }), "{e:?}");
    let e =
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1")
            .unwrap_err();
    assert!(
        matches!(e, FenError::InvalidCounter { field: 5, .. }),
        "{e:?}"
    );
    assert_eq!(Position::from_fen("   ").unwrap_err(), FenError::Empty);
}
