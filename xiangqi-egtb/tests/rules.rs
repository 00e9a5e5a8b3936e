//! Tables where both sides can attack, under the perpetual-check rule: checked against
//! themselves, and their lines played out in a `Game` whose repetition judge (in
//! `xiangqi-core`, which knows nothing of the tables) must give the tables' result.

use std::path::Path;
use std::sync::OnceLock;
use xiangqi_core::{Color, GameEndReason, Position, RepetitionVerdict, Violation};
use xiangqi_egtb::{
    generate_into, play_out_with, table_path, verify_table, Defence, Dtm, Material, Rules,
    TableData, TableStats, Tablebase, Wdl,
};

/// Endings with positions decided by the rule: 车对马, 车士对马, 车对炮士.
const ENDINGS: [&str; 3] = ["krkn", "krakn", "krkca"];

/// One folder of tables for the whole test binary, with the statistics of each.
fn tables() -> &'static (tempfile::TempDir, Vec<TableStats>) {
    static DIR: OnceLock<(tempfile::TempDir, Vec<TableStats>)> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let wanted: Vec<Material> = ENDINGS.iter().map(|n| n.parse().unwrap()).collect();
        let stats = generate_into(dir.path(), &wanted, false, &mut |_| {}).expect("generated");
        (dir, stats)
    })
}

fn dir() -> &'static Path {
    tables().0.path()
}

fn tb() -> Tablebase {
    Tablebase::open(dir()).expect("opens")
}

#[test]
fn the_header_says_which_rules_a_table_obeys() {
    let tb = tb();
    assert_eq!(tb.rules("krkn".parse().unwrap()), Some(Rules::Asian));
    assert_eq!(tb.rules("krk".parse().unwrap()), Some(Rules::Naive));
    assert_eq!(tb.rules("knkr".parse().unwrap()), Some(Rules::Asian));
}

#[test]
fn the_rule_decides_some_draws_and_the_statistics_count_them() {
    for name in ENDINGS {
        let s = tables()
            .1
            .iter()
            .find(|s| s.name == name)
            .expect("generated");
        assert_eq!(s.rules, "asian");
        let by_rule = s.red.wins_by_rule + s.red.losses_by_rule;
        let by_rule = by_rule + s.black.wins_by_rule + s.black.losses_by_rule;
        assert!(by_rule > 200, "{name}: {by_rule} positions by the rule");
        // Red (the chariot) wins them: black can hold only by checking with its piece.
        assert!(
            s.red.wins_by_rule > 0 && s.black.losses_by_rule > 0,
            "{name}"
        );
        assert!(s.red.wins_by_rule <= s.red.wins && s.black.losses_by_rule <= s.black.losses);
        for side in [&s.red, &s.black] {
            let rule = side.wins_by_rule + side.losses_by_rule;
            assert_eq!(side.naive_draws, side.draws + rule);
        }
    }
    let naive = tables().1.iter().find(|s| s.name == "krk").unwrap();
    assert_eq!((naive.rules.as_str(), naive.red.wins_by_rule), ("naive", 0));
}

#[test]
fn every_position_is_consistent_with_its_moves_under_the_rule() {
    let tb = tb();
    let mut checked = 0;
    for m in tb.materials() {
        let data = TableData::load(&table_path(dir(), m)).unwrap();
        let r = verify_table(&data, &tb, 1).unwrap();
        assert_eq!(r.mismatches, 0, "{}: {:?}", r.name, r.examples);
        checked += r.checked;
    }
    assert!(checked > 3_000_000, "{checked}");
}

/// A position decided by the rule, `side` to move, or `None` when 200,000 draws found none.
fn by_rule(name: &str, side: Color, seed: u64) -> Option<Position> {
    let m: Material = name.parse().unwrap();
    tb().random_position_to_move(m, side, Dtm::is_by_rule, seed)
        .unwrap()
}

/// Plays lines out from positions decided by the rule and checks the judge's verdict.
fn play_out_lines(defence: impl Fn(u64) -> Defence) -> (usize, usize) {
    let tb = tb();
    let (mut lines, mut by_check) = (0, 0);
    for name in ENDINGS {
        for seed in 0..75u64 {
            let side = if seed % 2 == 0 {
                Color::Red
            } else {
                Color::Black
            };
            let Some(pos) = by_rule(name, side, seed) else {
                continue;
            };
            let line = play_out_with(&tb, &pos, 1000, defence(seed))
                .unwrap()
                .expect("every position on the way has a table");
            let fen = pos.fen();
            assert!(line.value.is_by_rule(), "{fen}");
            let outcome = line.outcome.as_ref().expect("the game ends");
            assert_eq!(
                outcome.winner, line.expected,
                "{fen}: table {}, game {outcome}, moves {:?}",
                line.value, line.moves
            );
            let winner = line.expected.expect("a rule value has a winner");
            match &outcome.reason {
                GameEndReason::Repetition(RepetitionVerdict::Loss {
                    loser, violation, ..
                }) => {
                    // The loser checked with every move; the winner never needed a
                    // forbidden move (else the verdict would be its loss or a draw).
                    assert_eq!(
                        (*loser, *violation),
                        (winner.other(), Violation::PerpetualCheck)
                    );
                    by_check += 1;
                }
                GameEndReason::Checkmate | GameEndReason::Stalemate => {}
                other => panic!("{fen}: ended by {other:?}"),
            }
            lines += 1;
        }
    }
    (lines, by_check)
}

#[test]
fn the_tables_line_ends_as_the_repetition_judge_rules() {
    let (lines, by_check) = play_out_lines(|_| Defence::Best);
    assert!(lines >= 200, "{lines} lines");
    // The best defence checks on as long as it may, so the judge ends these games.
    assert!(
        by_check * 10 >= lines * 9,
        "{by_check} of {lines} by perpetual check"
    );
}

#[test]
fn the_winner_wins_against_any_defence() {
    let (lines, _) = play_out_lines(|seed| Defence::Random(seed * 7 + 1));
    assert!(lines >= 200, "{lines} lines");
}

#[test]
fn a_lone_horse_that_can_only_check_for_ever_loses() {
    // Black's horse gives check; red's general steps aside, and every move of the horse
    // that keeps the game alive is another check. Red wins by the rule; without it, this
    // is the draw the naive tables report.
    let tb = tb();
    let pos = by_rule("krkn", Color::Red, 3).expect("a position");
    let value = tb.probe_dtm(&pos).unwrap().unwrap();
    assert!(matches!(value, Dtm::WinByRule(_)), "{value:?}");
    assert_eq!(value.wdl(), Wdl::Win);
    assert_eq!(value.naive(), Dtm::Draw);
    assert_eq!(value.plies(), None);
    // Every move of the position: the best keeps the win by the rule (a lower rank); at
    // least one move gives it away.
    let moves = tb.probe_moves(&pos).unwrap().unwrap();
    assert!(
        matches!(moves[0].value, Some(Dtm::WinByRule(r)) if matches!(value, Dtm::WinByRule(k) if r < k))
    );
    let json = serde_json::to_string(&value).unwrap();
    assert!(json.contains("\"rule\":\"perpetual check\""), "{json}");
}

#[test]
fn a_damaged_rule_table_is_an_error_not_a_value() {
    let copy = tempfile::tempdir().unwrap();
    for m in ["krk", "knk", "krkn"] {
        let m: Material = m.parse().unwrap();
        std::fs::copy(table_path(dir(), m), table_path(copy.path(), m)).unwrap();
    }
    let path = table_path(copy.path(), "krkn".parse().unwrap());
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n - 100] ^= 0x55;
    std::fs::write(&path, &bytes).unwrap();
    // The header still reads; the block with the damage does not.
    let tb = Tablebase::open(copy.path()).unwrap();
    assert!(tb.has("krkn".parse().unwrap()));
    let err = TableData::load(&path)
        .err()
        .expect("a damaged block is an error");
    assert!(err.to_string().contains("checksum"), "{err}");
}

#[test]
fn the_winners_best_move_always_makes_progress() {
    // From a win by the rule, the best move leaves the table by a capture into a won
    // position, or goes to a lower rank inside it: never up the ranks, where a capture
    // with a low rank of another table could otherwise lure it into repeating its checks.
    let tb = tb();
    let mut seen = 0;
    for name in ENDINGS {
        for seed in 0..300u64 {
            let Some(pos) = by_rule(name, Color::Red, seed + 1000) else {
                continue;
            };
            let Some(Dtm::WinByRule(k)) = tb.probe_dtm(&pos).unwrap() else {
                continue;
            };
            let (m, v) = tb.best_move(&pos).unwrap().unwrap();
            let capture = pos.piece_at(m.to()).is_some();
            match v {
                Dtm::WinByRule(r) => {
                    assert!(capture || r < k, "{}: {m} to rank {r} from {k}", pos.fen())
                }
                Dtm::Win(_) => assert!(capture, "{}", pos.fen()),
                other => panic!("{}: {m} {other:?}", pos.fen()),
            }
            seen += 1;
        }
    }
    assert!(seen > 300, "{seen}");
}

#[test]
fn a_killed_generations_temporary_files_are_removed() {
    let dir = tempfile::tempdir().unwrap();
    // No process has this id (above the kernel's pid limit), so its file is stale.
    let stale = dir.path().join("krk.xqtb.4294967295.part");
    let live = dir
        .path()
        .join(format!("knk.xqtb.{}.part", std::process::id()));
    std::fs::write(&stale, b"half a table").unwrap();
    std::fs::write(&live, b"being written").unwrap();
    let krk: Material = "krk".parse().unwrap();
    generate_into(dir.path(), &[krk], false, &mut |_| {}).unwrap();
    assert!(!stale.exists(), "the stale file is still there");
    assert!(live.exists(), "a running process's file was removed");
    assert!(table_path(dir.path(), krk).exists());
}
