//! The search with endgame tablebases, against the tables themselves: tables generated
//! into a temporary folder (krka, knka, kpkaa, krkaa, krkn and what they need: about a
//! second), positions drawn from them by value.

use std::sync::{Arc, OnceLock};
use xiangqi_core::{Game, Move, Position};
use xiangqi_egtb::{Dtm, Material, Tablebase};
use xiangqi_search::{Info, Limits, Score, Searcher, TB_WIN, TB_WIN_BOUND};

/// The tables, generated once for the whole file.
fn tables() -> &'static (tempfile::TempDir, Arc<Tablebase>) {
    static TABLES: OnceLock<(tempfile::TempDir, Arc<Tablebase>)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let endings: Vec<Material> = ["krka", "knka", "kpkaa", "krkaa", "krkn"]
            .iter()
            .map(|n| n.parse().unwrap())
            .collect();
        xiangqi_egtb::generate_into(dir.path(), &endings, false, &mut |_| {}).unwrap();
        let tb = Arc::new(Tablebase::open(dir.path()).unwrap());
        (dir, tb)
    })
}

fn tb() -> Arc<Tablebase> {
    Arc::clone(&tables().1)
}

fn material(name: &str) -> Material {
    name.parse().unwrap()
}

/// A position of `name` with the given value, red (the strong side) to move.
fn drawn_from(name: &str, want: impl Fn(Dtm) -> bool, seed: u64) -> Position {
    tb().random_position(material(name), want, seed)
        .unwrap()
        .unwrap_or_else(|| panic!("{name} has a position of that value (seed {seed})"))
}

fn with_tables() -> Searcher {
    let mut s = Searcher::new();
    s.set_tablebase(Some(tb()));
    s
}

fn search(
    s: &mut Searcher,
    game: &Game,
    limits: Limits,
) -> (xiangqi_search::SearchResult, Vec<Info>) {
    let mut infos = Vec::new();
    let r = s.search(game, &limits, &mut |i| infos.push(i.clone()));
    (r, infos)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// The table's values of the moves of `pos`, best first.
fn values(pos: &Position) -> Vec<(Move, Dtm)> {
    tb().probe_moves(pos)
        .unwrap()
        .unwrap()
        .into_iter()
        .map(|m| (m.mv, m.value.unwrap()))
        .collect()
}

#[test]
fn a_won_root_plays_a_table_best_move_and_reports_the_mate_distance() {
    let mut s = with_tables();
    let mut checked = 0;
    for name in ["krka", "knka", "kpkaa"] {
        for seed in 0..8u64 {
            let red = drawn_from(name, |d| matches!(d, Dtm::Win(_)), seed);
            // The same position with black the strong side: the table is turned round.
            for pos in [red.clone(), red.swap_colors()] {
                let Some(Dtm::Win(dtm)) = tb().probe_dtm(&pos).unwrap() else {
                    panic!("{name} seed {seed}: won by the table");
                };
                let (r, infos) = search(&mut s, &Game::new(pos.clone()), depth(30));
                let fen = pos.fen();
                let best = values(&pos)[0].1;
                assert_eq!(best, Dtm::Win(dtm), "{fen}");
                let played = r.best_move.unwrap();
                let value = values(&pos)
                    .into_iter()
                    .find(|&(m, _)| m == played)
                    .unwrap()
                    .1;
                assert_eq!(value, best, "{fen}: {played} is not a quickest mate");
                assert_eq!(r.score, Score::mate_in(dtm as i32), "{fen}");
                assert_eq!(r.depth, 1, "{fen}: played from the table, not searched");
                let info = infos.last().unwrap();
                assert_eq!(info.score.mate_moves(), Some((dtm as i32 + 1) / 2), "{fen}");
                assert!(info.tbhits > 0 && r.tbhits > 0, "{fen}");
                // The line follows the table to the mate (or 20 plies).
                assert_eq!(
                    info.pv.len(),
                    (dtm as usize).min(20),
                    "{fen}: {:?}",
                    info.pv
                );
                let mut end = pos.clone();
                for &m in &info.pv {
                    end.play(m).unwrap();
                }
                if (dtm as usize) <= 20 {
                    assert!(end.legal_moves().is_empty(), "{fen}: the line mates");
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 48);
}

#[test]
fn a_lost_root_plays_the_longest_defence_and_a_drawn_one_is_not_lost() {
    let mut s = with_tables();
    for seed in 0..6u64 {
        // Lost: the weak side to move after the table's best move.
        let won = drawn_from("krkaa", |d| matches!(d, Dtm::Win(n) if n >= 5), seed);
        let mut lost = won.clone();
        lost.play(values(&won)[0].0).unwrap();
        let Some(Dtm::Loss(dtm)) = tb().probe_dtm(&lost).unwrap() else {
            panic!("lost after the winner's best move");
        };
        let (r, _) = search(&mut s, &Game::new(lost.clone()), depth(20));
        let played = r.best_move.unwrap();
        let value = values(&lost)
            .into_iter()
            .find(|&(m, _)| m == played)
            .unwrap()
            .1;
        assert_eq!(value, Dtm::Loss(dtm), "{}: the longest defence", lost.fen());
        assert_eq!(r.score, Score::mated_in(dtm as i32));

        // Drawn: the knight cannot always win; the pawn never against two advisors on its
        // own back rank.
        for name in ["knka", "kpkaa"] {
            let drawn = drawn_from(name, |d| d == Dtm::Draw, seed);
            let (r, infos) = search(&mut s, &Game::new(drawn.clone()), depth(20));
            let played = r.best_move.unwrap();
            let value = values(&drawn)
                .into_iter()
                .find(|&(m, _)| m == played)
                .unwrap()
                .1;
            assert_eq!(value, Dtm::Draw, "{}", drawn.fen());
            assert_eq!(r.score, Score::DRAW);
            assert_eq!(infos.last().unwrap().score.to_string(), "cp 0");
        }
    }
}

#[test]
fn past_the_move_limit_a_winning_capture_comes_first() {
    let mut s = with_tables();
    let mut tried = 0;
    for seed in 0..20_000u64 {
        // A won krkaa position where a capture wins too, but not as quickly.
        let pos = drawn_from("krkaa", |d| matches!(d, Dtm::Win(n) if n >= 3), seed);
        let moves = values(&pos);
        let Dtm::Win(quickest) = moves[0].1 else {
            unreachable!()
        };
        let capture_wins =
            |&(m, v): &(Move, Dtm)| pos.piece_at(m.to()).is_some() && matches!(v, Dtm::Win(_));
        let Some(&(capture, Dtm::Win(by_capture))) = moves.iter().find(|mv| capture_wins(mv))
        else {
            continue;
        };
        if by_capture == quickest {
            continue;
        }
        tried += 1;
        // The quickest mate still fits before the limit: it is played.
        let fits = 120 - quickest as u32;
        let game = Game::new(pos.to_setup().counters(fits, 1).build().unwrap());
        let (r, _) = search(&mut s, &game, depth(10));
        let played = r.best_move.unwrap();
        let value = moves.iter().find(|&&(m, _)| m == played).unwrap().1;
        assert_eq!(value, Dtm::Win(quickest), "{}", pos.fen());
        // One ply later no mate fits: the shortest winning capture.
        let game = Game::new(pos.to_setup().counters(fits + 1, 1).build().unwrap());
        let (r, _) = search(&mut s, &game, depth(10));
        assert_eq!(r.best_move, Some(capture), "{}", pos.fen());
        if tried == 3 {
            break;
        }
    }
    assert_eq!(
        tried, 3,
        "enough krkaa positions with a slower winning capture"
    );
}

#[test]
fn multipv_at_a_table_root_gives_the_table_order() {
    let mut s = with_tables();
    s.set_multipv(4);
    let pos = drawn_from("krka", |d| matches!(d, Dtm::Win(n) if n >= 9), 3);
    let (_, infos) = search(&mut s, &Game::new(pos.clone()), depth(10));
    assert_eq!(infos.len(), 4);
    let table = values(&pos);
    for (k, info) in infos.iter().enumerate() {
        assert_eq!(info.multipv, k + 1);
        assert_eq!(info.depth, 1);
        let value = table.iter().find(|&&(m, _)| m == info.pv[0]).unwrap().1;
        assert_eq!(value, table[k].1, "line {}", k + 1);
        let expected = match value {
            Dtm::Win(n) => Score::mate_in(n as i32),
            Dtm::Loss(n) => Score::mated_in(n as i32),
            Dtm::Draw => Score::DRAW,
            other => panic!("krka has no value by the rule: {other:?}"),
        };
        assert_eq!(info.score, expected);
    }
}

#[test]
fn the_tree_counts_table_hits_after_captures() {
    // A chariot against two advisors and an elephant: no table for the root (krkaab is
    // not generated), but capturing the elephant or an advisor leads into one.
    let fen = "3aka3/9/4b4/9/9/9/9/9/4R4/3K5 w - - 0 1";
    let game = Game::new(Position::from_fen(fen).unwrap());
    assert!(tb().probe_dtm(game.position()).unwrap().is_none());
    let mut s = with_tables();
    let (r, infos) = search(&mut s, &game, depth(7));
    assert!(r.tbhits > 0, "tbhits {}", r.tbhits);
    assert!(infos.last().unwrap().tbhits > 0);
    assert!(r.depth >= 7);
    // Without tables: none.
    let mut plain = Searcher::new();
    let (r, _) = search(&mut plain, &game, depth(7));
    assert_eq!(r.tbhits, 0);
}

#[test]
fn a_capture_into_a_won_ending_scores_as_a_tablebase_win() {
    // Red's chariot takes the undefended elephant: krkaa, won for red. The root (krkaab)
    // has no table; the search scores the capture by the table's distance.
    let fen = "3aka3/9/9/9/6b2/9/9/9/9/3K2R2 w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    assert!(tb().probe_dtm(&pos).unwrap().is_none());
    let take = pos.parse_uci("g0g5").unwrap();
    let Some(Dtm::Loss(n)) = tb().probe_dtm(&pos.after(take).unwrap()).unwrap() else {
        panic!("black loses after the capture");
    };
    let mut s = with_tables();
    let (r, _) = search(&mut s, &Game::new(pos), depth(6));
    assert_eq!(r.best_move, Some(take));
    assert_eq!(
        r.score.0,
        TB_WIN.0 - (1 + n as i32),
        "the capture, then mate in {n}"
    );
    assert!(r.score.0 >= TB_WIN_BOUND.0 && !r.score.is_mate());
}

/// Searches `pos` without tables to `dtm` plies and 14 more (at its own depth the search
/// proves only some of these mates: reverse futility pruning and late move reductions cut
/// the quiet moves that mate, a stalemate being a loss in xiangqi; 8 to 11 plies more
/// find the exact distance of every one tried); the score found.
fn mate_without_tables(s: &mut Searcher, pos: &Position, dtm: u16) -> Score {
    s.new_game();
    let limits = Limits {
        depth: Some(u32::from(dtm) + 14),
        nodes: Some(5_000_000),
        ..Limits::default()
    };
    s.search(&Game::new(pos.clone()), &limits, &mut |_| {})
        .score
}

#[test]
fn the_search_without_tables_finds_every_short_mate_at_the_tables_distance() {
    let mut s = Searcher::new();
    let mut misses = Vec::new();
    let mut count = 0;
    for name in ["krka", "knka", "kpkaa"] {
        for seed in 0..17u64 {
            let want = |d| matches!(d, Dtm::Win(n) if n <= 15);
            let pos = drawn_from(name, want, 1000 + seed);
            let Some(Dtm::Win(dtm)) = tb().probe_dtm(&pos).unwrap() else {
                unreachable!()
            };
            let score = mate_without_tables(&mut s, &pos, dtm);
            count += 1;
            if score != Score::mate_in(dtm as i32) {
                misses.push(format!(
                    "{} (table: mate in {dtm} plies; search: {score})",
                    pos.fen()
                ));
            }
        }
    }
    assert_eq!(count, 51);
    assert!(
        misses.is_empty(),
        "{} of {count}:\n{}",
        misses.len(),
        misses.join("\n")
    );
}

#[test]
fn a_win_by_the_perpetual_check_rule_is_played_to_its_end() {
    // 车对马: black's horse can hold only by checking for ever. The engine (red) plays the
    // table's moves; black defends with the table's best (it checks on while it may).
    // The game's repetition judge must end it with black's loss by perpetual check.
    let m = material("krkn");
    for seed in 0..6 {
        let pos = tb()
            .random_position(m, |d| matches!(d, Dtm::WinByRule(_)), seed)
            .unwrap()
            .expect("krkn has wins by the rule");
        let mut s = with_tables();
        let mut game = Game::new(pos.clone());
        let mut plies = 0;
        while game.outcome(xiangqi_core::RuleSet::Asian).is_none() {
            assert!(plies < 200, "{}: no end", pos.fen());
            let mv = if game.position().side_to_move() == xiangqi_core::Color::Red {
                let (r, infos) = search(&mut s, &game, depth(6));
                let last = infos.last().unwrap();
                assert!(
                    last.score.0 >= TB_WIN_BOUND.0,
                    "{}: {:?}",
                    pos.fen(),
                    last.score
                );
                r.best_move.unwrap()
            } else {
                tb().best_move(game.position()).unwrap().unwrap().0
            };
            game.play(mv).unwrap();
            plies += 1;
        }
        let end = game.outcome(xiangqi_core::RuleSet::Asian).unwrap();
        assert_eq!(
            end.winner,
            Some(xiangqi_core::Color::Red),
            "{}: {end}",
            pos.fen()
        );
    }
}
