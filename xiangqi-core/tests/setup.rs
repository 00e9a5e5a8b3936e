//! FEN input variants, validation of setups, and the readable board.

use xiangqi_core::{Color, EndReason, Position, Problems, Role, Setup, Square, START_FEN};

#[test]
fn accepts_the_fen_variants_tools_write() {
    let start = Position::startpos();
    for fen in [
        START_FEN,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1",
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w 0 1",
        "  rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR   w  -  -  0  1 ",
    ] {
        assert_eq!(Position::from_fen(fen).unwrap(), start, "{fen}");
    }
    let black = Position::from_fen(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 12",
    )
    .unwrap();
    assert_eq!(black.side_to_move(), Color::Black);
    assert_eq!(black.halfmove_clock(), 7);
    assert_eq!(black.fullmove_number(), 12);
    assert!(black.fen().ends_with(" b - - 7 12"));
}

#[test]
fn names_every_problem_of_an_illegal_setup() {
    // Two red generals, an advisor off the palace, an elephant off its points, a pawn on an
    // odd file before the river, and three red chariots.
    let fen = "4k4/9/9/9/9/9/1P7/B8/3RRR3/3KKA2A w - - 0 1";
    let err = Position::from_fen(fen).unwrap_err();
    let xiangqi_core::FenError::Setup(e) = err else {
        panic!("{err:?}")
    };
    assert!(e.problems.contains(Problems::TOO_MANY_KINGS));
    let fen = "4k4/9/9/9/9/9/1P7/1B7/3RRR3/4K3A w - - 0 1";
    let xiangqi_core::FenError::Setup(e) = Position::from_fen(fen).unwrap_err() else {
        panic!()
    };
    assert_eq!(
        e.problems,
        Problems::ADVISOR_OFF_POINTS
            | Problems::ELEPHANT_OFF_POINTS
            | Problems::PAWN_OFF_POINTS
            | Problems::TOO_MANY_PIECES
            | Problems::OPPONENT_IN_CHECK
    );
    let facing = "4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1";
    let xiangqi_core::FenError::Setup(e) = Position::from_fen(facing).unwrap_err() else {
        panic!()
    };
    assert_eq!(
        e.problems,
        Problems::GENERALS_FACING | Problems::OPPONENT_IN_CHECK
    );
    assert!(
        e.to_string().contains("the generals face each other"),
        "{e}"
    );
}

#[test]
fn refuses_facing_generals_and_opponent_in_check_unless_allowed() {
    let facing = "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
    assert!(Position::from_fen(facing).is_err());
    let pos = Position::from_fen_allowing(
        facing,
        Problems::GENERALS_FACING | Problems::OPPONENT_IN_CHECK,
    )
    .unwrap();
    assert_eq!(
        pos.king_square(Color::Red),
        Square::from_iccs("e0").unwrap()
    );
    // Red to move while black's general is attacked by a red chariot.
    let checked = "3k5/9/9/9/9/9/9/9/9/3R1K3 w - - 0 1";
    let xiangqi_core::FenError::Setup(e) = Position::from_fen(checked).unwrap_err() else {
        panic!()
    };
    assert_eq!(e.problems, Problems::OPPONENT_IN_CHECK);
    // Missing generals can never be accepted.
    assert!(Position::from_fen_allowing("9/9/9/9/9/9/9/9/9/4K4 w", Problems::all()).is_err());
}

#[test]
fn builder_and_board_display() {
    let pos = Setup::empty()
        .put(
            Square::from_iccs("e0").unwrap(),
            xiangqi_core::Piece::new(Color::Red, Role::King),
        )
        .put(
            Square::from_iccs("d9").unwrap(),
            xiangqi_core::Piece::new(Color::Black, Role::King),
        )
        .build()
        .unwrap();
    let shown = pos.to_string();
    assert!(shown.contains("9 . . . k . . . . ."), "{shown}");
    assert!(shown.contains("0 . . . . K . . . ."), "{shown}");
    assert!(shown.ends_with(&pos.fen()));
}

#[test]
fn game_end_by_the_board() {
    // gameend.tsv: stalemate (困毙) and checkmate are losses for the side to move.
    let stalemate = Position::from_fen("3k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
    let end = stalemate.outcome().unwrap();
    assert_eq!((end.winner, end.reason), (Color::Red, EndReason::Stalemate));
    let mut mate = Position::from_fen("3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1").unwrap();
    mate.play(mate.parse_uci("b0b9").unwrap()).unwrap();
    let end = mate.outcome().unwrap();
    assert_eq!((end.winner, end.reason), (Color::Red, EndReason::Checkmate));
    // Flying general: only d0d1 is legal.
    let fly = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1").unwrap();
    let moves: Vec<String> = fly.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(moves, ["d0d1"]);
    // A cannon with exactly one screen gives check.
    let mut c =
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1").unwrap();
    c.play(c.parse_uci("b2e2").unwrap()).unwrap();
    assert!(c.is_check());
    assert_eq!(c.checkers().as_slice(), &[Square::from_iccs("e2").unwrap()]);
    assert_eq!(c.count_legal_moves(), 6);
}

#[test]
fn legality_traps_a_pin_generator_misses() {
    let is_legal = |fen: &str, mv: &str| {
        let pos = Position::from_fen(fen).unwrap();
        let m = xiangqi_core::Move::new(
            Square::from_iccs(&mv[..2]).unwrap(),
            Square::from_iccs(&mv[2..]).unwrap(),
        );
        pos.is_legal(m)
    };
    // Adding a screen: the horse stepping between the black cannon and the red general
    // turns the cannon's line into a check.
    assert!(!is_legal("4k4/4c4/9/9/9/9/9/3N5/9/4K4 w - - 0 1", "d2e4"));
    assert!(is_legal("4k4/4c4/9/9/9/9/9/3N5/9/4K4 w - - 0 1", "d2c4"));
    // Removing one of two screens (chariot e3 and advisor e1 between cannon e8 and general e0).
    assert!(!is_legal("3k5/4c4/9/9/9/9/4R4/9/4A4/4K4 w - - 0 1", "e3a3"));
    assert!(is_legal("5k3/4c4/9/9/9/9/4R4/9/4A4/3K5 w - - 0 1", "e3a3"));
    // Vacating a horse's leg: the chariot on f1 blocks the horse on f2 from e0.
    assert!(!is_legal("3k5/9/9/9/9/9/9/5n3/5R3/4K4 w - - 0 1", "f1i1"));
    assert!(is_legal("3k5/9/9/9/9/9/9/5n3/5R3/4K4 w - - 0 1", "f1f2"));
    // Opening the generals' file (flying general).
    assert!(!is_legal("4k4/9/9/9/9/9/9/9/4C4/4K4 w - - 0 1", "e1a1"));
    assert!(is_legal("4k4/9/9/9/9/9/9/9/4C4/4K4 w - - 0 1", "e1e5"));
    // The general may not step onto the open file facing the other general.
    assert!(!is_legal("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0e0"));
}
