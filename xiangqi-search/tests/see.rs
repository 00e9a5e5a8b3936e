//! The board-free SEE (`Position::see`, behind `xiangqi_search::see`) against the reference
//! it replaced: the exchange played out with `make_move`/`unmake_move`, each side taking
//! back with its least valuable attacker from `Position::attackers`. They must agree on
//! every capture of every position of the test data and of random games.

use proptest::prelude::*;
use xiangqi_core::{Move, Position, Role, Square};
use xiangqi_search::{see, see_ge, see_value};

/// The SEE values by role index, as `xiangqi_search::see` uses them.
fn see_values() -> [i32; 7] {
    Role::ALL.map(see_value)
}

/// The earlier implementation, kept as the reference: plays the exchange on the board.
/// `values` by role index; the exchange ends once a general is taken.
fn reference_see(pos: &mut Position, m: Move, values: &[i32; 7]) -> i32 {
    let value =
        |pos: &Position, s: Square| values[pos.piece_at(s).map_or(Role::King, |p| p.role).index()];
    let least_valuable_attacker = |pos: &Position, to: Square| {
        let mut best: Option<(Square, i32)> = None;
        for s in pos.attackers(to, pos.side_to_move()) {
            let v = value(pos, s);
            match best {
                Some((_, bv)) if bv <= v => {}
                _ => best = Some((s, v)),
            }
        }
        best
    };
    let to = m.to();
    if pos.piece_at(to).is_none() {
        return 0;
    }
    let mut gain = vec![value(pos, to)];
    let mut undo = Vec::new();
    let mut on_square = value(pos, m.from());
    let mut general_on_square = pos.piece_at(m.from()).is_some_and(|p| p.role == Role::King);
    undo.push((m, pos.make_move(m)));
    while gain.len() < 38 {
        let Some((from, v)) = least_valuable_attacker(pos, to) else {
            break;
        };
        gain.push(on_square - gain[gain.len() - 1]);
        if general_on_square {
            break;
        }
        on_square = v;
        general_on_square = pos.piece_at(from).is_some_and(|p| p.role == Role::King);
        let mv = Move::new(from, to);
        undo.push((mv, pos.make_move(mv)));
    }
    while let Some((mv, u)) = undo.pop() {
        pos.unmake_move(mv, u);
    }
    let mut d = gain.len() - 1;
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// Value sets that make ties (and odd orders) between roles, to check that the first
/// attacker in `attackers()` order wins a tie exactly as before.
const ODD_VALUES: [[i32; 7]; 3] = [
    [100, 100, 100, 100, 100, 100, 100],
    [5_000, 300, 300, 450, 450, 450, 100],
    [50, 900, 100, 900, 200, 200, 900],
];

/// Thresholds for `see_ge`: around 0 and the values, and the search's `-90 * depth`.
const THRESHOLDS: [i32; 17] = [
    -10_000, -9_100, -1_000, -900, -800, -450, -360, -300, -100, -90, 0, 1, 100, 101, 300, 900,
    10_000,
];

/// Every capture to compare in `pos`: the legal captures, and (SEE ignores pins and
/// checks) every attacker of every enemy piece.
fn captures(pos: &Position) -> Vec<Move> {
    let mut out: Vec<Move> = pos.legal_captures().iter().copied().collect();
    let us = pos.side_to_move();
    for (to, p) in pos.pieces(us.other()) {
        if p.role == Role::King {
            continue;
        }
        for from in pos.attackers(to, us) {
            let m = Move::new(from, to);
            if !out.contains(&m) {
                out.push(m);
            }
        }
    }
    out
}

/// Compares the new SEE with the reference on every capture of `pos` (and of `pos` with
/// the other side to move, when that is a valid position). Returns the captures checked.
fn check_position(pos: &Position) -> usize {
    let mut n = check_side(pos);
    let mut setup = pos.to_setup();
    setup.side_to_move = pos.side_to_move().other();
    if let Ok(other) = Position::from_setup(&setup, xiangqi_core::Problems::empty()) {
        n += check_side(&other);
    }
    n
}

fn check_side(pos: &Position) -> usize {
    let values = see_values();
    let mut p = pos.clone();
    let caps = captures(pos);
    for &m in &caps {
        let expected = reference_see(&mut p, m, &values);
        assert_eq!(p, *pos, "the reference must leave the position unchanged");
        assert_eq!(pos.see(m, &values), expected, "{m} in {}", pos.fen());
        assert_eq!(see(&mut p, m), expected, "{m} in {}", pos.fen());
        let fen = pos.fen();
        for t in THRESHOLDS {
            assert_eq!(see_ge(&mut p, m, t), expected >= t, "{m} >= {t} in {fen}");
            assert_eq!(
                pos.see_ge(m, t, &values),
                expected >= t,
                "{m} >= {t} in {fen}"
            );
        }
        for odd in &ODD_VALUES {
            let expected = reference_see(&mut p, m, odd);
            assert_eq!(pos.see(m, odd), expected, "{m} in {fen} with {odd:?}");
            for t in THRESHOLDS {
                assert_eq!(pos.see_ge(m, t, odd), expected >= t, "{m} >= {t} in {fen}");
            }
        }
        assert_eq!(p, *pos, "SEE must leave the position unchanged");
    }
    caps.len()
}

/// The FENs of the data files of xiangqi-core and xiangqi-search.
fn data_fens() -> Vec<String> {
    let mut fens = Vec::new();
    for text in [
        include_str!("../../xiangqi-core/tests/data/perft.epd"),
        include_str!("data/mates.epd"),
    ] {
        for line in text.lines() {
            let line = line.trim();
            if !line.is_empty() && !line.starts_with('#') {
                fens.push(line.split(';').next().unwrap().trim().to_string());
            }
        }
    }
    // Tab-separated files: the FEN is the column headed `fen` or `fen_before`.
    for text in [
        include_str!("../../xiangqi-core/tests/data/notation.tsv"),
        include_str!("../../xiangqi-core/tests/data/gameend.tsv"),
        include_str!("../../xiangqi-core/tests/data/repetition_wxf.tsv"),
    ] {
        let mut column = None;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let cells: Vec<&str> = line.split('\t').collect();
            match column {
                None => column = cells.iter().position(|c| *c == "fen" || *c == "fen_before"),
                Some(c) => fens.extend(cells.get(c).map(|f| f.to_string())),
            }
        }
    }
    fens
}

#[test]
fn agrees_with_the_reference_on_the_data_positions() {
    let mut positions = 0;
    let mut checked = 0;
    for fen in data_fens() {
        // Some setups in the data are deliberately invalid; those are skipped.
        let Ok(pos) = Position::from_fen(&fen) else {
            continue;
        };
        positions += 1;
        checked += check_position(&pos);
        // One ply further too, for more varied exchanges.
        for m in pos.legal_moves() {
            checked += check_position(&pos.after(m).unwrap());
        }
    }
    assert!(positions > 300, "only {positions} positions read");
    assert!(checked > 10_000, "only {checked} captures checked");
}

#[test]
fn agrees_with_the_reference_on_master_games() {
    let text = include_str!("../../xiangqi-eval/tests/data/master_sample.txt");
    let (mut games, mut checked) = (0, 0);
    for line in text.lines() {
        let mut fields = line.split_whitespace();
        if fields.next().is_none() {
            continue;
        }
        games += 1;
        let mut pos = Position::startpos();
        for mv in fields {
            checked += check_position(&pos);
            let m = pos.parse_uci(mv).expect("a legal move in the game record");
            pos.play(m).unwrap();
        }
        checked += check_position(&pos);
    }
    assert!(games > 500, "only {games} games read");
    assert!(checked > 100_000, "only {checked} captures checked");
}

#[test]
fn flying_general() {
    // The red general d1 takes the checking chariot e1 (a capture SEE allows though it would
    // face the black general): black's general e9 takes back along the open file, since a
    // general stands on the target. 900 - 10000.
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/3Kr4/9 w - - 0 1").unwrap();
    let cap = Move::new(
        Square::from_iccs("d1").unwrap(),
        Square::from_iccs("e1").unwrap(),
    );
    let values = see_values();
    assert_eq!(pos.see(cap, &values), 900 - 10_000);
    assert_eq!(reference_see(&mut pos.clone(), cap, &values), 900 - 10_000);
    // A red pawn on e5 blocks the file: the chariot is won.
    let pos = Position::from_fen("4k4/9/9/9/4P4/9/9/9/3Kr4/9 w - - 0 1").unwrap();
    assert_eq!(pos.see(cap, &values), 900);
    check_position(&pos);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Random games from the start position: on every position, every capture agrees.
    #[test]
    fn agrees_with_the_reference_in_random_games(choices in prop::collection::vec(any::<u16>(), 1..160)) {
        let mut pos = Position::startpos();
        for c in choices {
            check_position(&pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer captures half the time, so that games thin out into endgames.
            let caps = pos.legal_captures();
            let m = if c & 1 == 1 && !caps.is_empty() {
                caps[(c >> 1) as usize % caps.len()]
            } else {
                moves[(c >> 1) as usize % moves.len()]
            };
            pos.make_move(m);
        }
        check_position(&pos);
    }
}
