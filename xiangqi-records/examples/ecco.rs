//! ECCO codes of a file of games in the master-games layout (`result<TAB>ICCS moves` a
//! line): how many get a code other than A00, and how often each code occurs.
//!
//! ```text
//! cargo run --release -p xiangqi-records --example ecco -- /path/to/master_games_iccs.txt
//! ```

use std::collections::BTreeMap;
use xiangqi_core::Position;
use xiangqi_records::ecco;

fn main() -> std::io::Result<()> {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        eprintln!("usage: ecco MASTER_GAMES_ICCS");
        std::process::exit(2);
    });
    let text = std::fs::read_to_string(path)?;
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut games = 0;
    for line in text.lines() {
        let Some((_, moves)) = line.split_once('\t') else {
            continue;
        };
        let mut pos = Position::startpos();
        let mut played = Vec::new();
        for m in moves.split_whitespace().take(20) {
            let Ok(m) = pos.parse_uci(m) else { break };
            pos.make_move(m);
            played.push(m);
        }
        games += 1;
        let code = ecco::classify_moves(&Position::startpos(), &played).map_or("-", |o| o.code);
        *counts.entry(code).or_default() += 1;
    }
    let unclassified =
        counts.get("A00").copied().unwrap_or(0) + counts.get("-").copied().unwrap_or(0);
    println!(
        "games: {games}\nclassified (not A00): {} ({:.1} %)\ncodes used: {}",
        games - unclassified,
        100.0 * (games - unclassified) as f64 / games as f64,
        counts.len()
    );
    for letter in ["A", "B", "C", "D", "E"] {
        let n: usize = counts
            .iter()
            .filter(|(c, _)| c.starts_with(letter))
            .map(|(_, n)| n)
            .sum();
        println!("{letter}: {n}");
    }
    let mut top: Vec<_> = counts.iter().collect();
    top.sort_by(|a, b| b.1.cmp(a.1));
    for (code, n) in top.iter().take(15) {
        println!("{code} {n} {}", ecco::name(code).unwrap_or(""));
    }
    Ok(())
}
