//! The engine with and without endgame tables on a suite of endgame positions: a fixed-depth
//! search of each, one thread, the time for the whole suite (criterion) and, printed once,
//! how many positions each finds the table's best result for.
//!
//! The suite: six positions inside the tables (车对双士, 卒对双士 drawn, 车对马 won by mate and by the
//! perpetual-check rule, 马对单士, 卒对双士), where the engine with tables answers from the
//! table at the root, and three with one piece more than any table (车对士士象, 车对马象,
//! 卒对士士象), where the tables answer after captures inside the tree (`tbhits`). The tables
//! are generated first into a temporary folder (a few seconds).
//!
//! `cargo bench --bench egtb_search`

use criterion::{criterion_group, criterion_main, Criterion};
use std::sync::Arc;
use xiangqi::core::{Color, Game, Position};
use xiangqi::egtb::{Dtm, Material, Tablebase};
use xiangqi::search::{Limits, Searcher};

/// Positions with one piece more than the tables: their captures lead into them.
const OUTSIDE: [&str; 3] = [
    "3aka3/9/4b4/9/9/9/9/9/4R4/3K5 w - - 0 1",
    "4k4/9/4b4/9/9/2n6/9/9/4R4/3K5 w - - 0 1",
    "3aka3/9/4b4/9/4P4/9/9/9/9/3K5 w - - 0 1",
];
const DEPTH: u32 = 9;

fn suite(tb: &Tablebase) -> Vec<Game> {
    let mut out = Vec::new();
    let pick = |name: &str, want: fn(Dtm) -> bool, seed| {
        let m: Material = name.parse().expect("an ending");
        tb.random_position_to_move(m, Color::Red, want, seed)
            .expect("tables read")
            .expect("a position of that value")
    };
    out.push(pick("krkaa", |d| matches!(d, Dtm::Win(n) if n >= 9), 1));
    out.push(pick("kpkaa", |d| d == Dtm::Draw, 2));
    out.push(pick("krkn", |d| matches!(d, Dtm::Win(n) if n >= 9), 3));
    out.push(pick("krkn", |d| matches!(d, Dtm::WinByRule(_)), 4));
    out.push(pick("knka", |d| matches!(d, Dtm::Win(n) if n >= 9), 5));
    out.push(pick("kpkaa", |d| matches!(d, Dtm::Win(n) if n >= 3), 6));
    out.extend(
        OUTSIDE
            .iter()
            .map(|f| Position::from_fen(f).expect("a FEN")),
    );
    out.into_iter().map(Game::new).collect()
}

fn run(searcher: &mut Searcher, games: &[Game]) -> Vec<Option<xiangqi::core::Move>> {
    games
        .iter()
        .map(|g| {
            searcher.new_game();
            let limits = Limits {
                depth: Some(DEPTH),
                ..Limits::default()
            };
            searcher.search(g, &limits, &mut |_| {}).best_move
        })
        .collect()
}

fn egtb_search(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("xiangqi-bench-egtb-{}", std::process::id()));
    let endings: Vec<Material> = ["krkaa", "krkab", "krkn", "knka", "kpkaa", "kpkab"]
        .iter()
        .map(|n| n.parse().expect("an ending"))
        .collect();
    xiangqi::egtb::generate_into(&dir, &endings, false, &mut |_| {}).expect("generated");
    let tb = Arc::new(Tablebase::open(&dir).expect("opens"));
    let games = suite(&tb);
    let mut with = Searcher::new();
    with.set_tablebase(Some(Arc::clone(&tb)));
    let mut without = Searcher::new();
    // How many of the suite's moves keep the table's result (positions inside the tables).
    for (name, s) in [("with tables", &mut with), ("without tables", &mut without)] {
        let moves = run(s, &games);
        let mut kept = 0;
        let mut judged = 0;
        for (g, m) in games.iter().zip(&moves) {
            let (Some(best), Some(m)) = (tb.best_move(g.position()).expect("reads"), m) else {
                continue;
            };
            let mut after = g.position().clone();
            after.make_move(*m);
            let value = tb.probe_dtm(&after).expect("reads").map(Dtm::before);
            judged += 1;
            kept += usize::from(value == Some(best.1));
        }
        println!("{name}: the table's best value kept in {kept} of {judged} positions");
    }
    let mut group = c.benchmark_group("endgame suite, depth 9");
    group.sample_size(10);
    group.bench_function("with tables", |b| b.iter(|| run(&mut with, &games)));
    group.bench_function("without tables", |b| b.iter(|| run(&mut without, &games)));
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, egtb_search);
criterion_main!(benches);
