//! The search against the endgame tablebases: random won positions with a short mate,
//! drawn from several tables of set 1, searched without tables; does the search find a
//! mate of exactly the table's distance?
//!
//! ```text
//! cargo run --release --example egtb_mates -- [--positions 1000] [--max-plies 19]
//!     [--extra 16] [--nodes 5000000] [--dir DIR] [--seed 1]
//! ```
//!
//! Each position is searched (one thread, 16 MiB, the default evaluator) to the table's
//! distance plus `--extra` plies, within `--nodes`. The table's distance is the shortest
//! mate, so the search can only match it, find a longer mate, or none; a shorter one would
//! mean a wrong table or a wrong mate score, and is listed with its FEN, as is every
//! position where the search misses. The tables are generated into `--dir` (a folder under
//! the system's temporary folder by default) if they are not there.

use std::path::PathBuf;
use std::time::Instant;
use xiangqi::core::Game;
use xiangqi::search::{Limits, Score, Searcher};
use xiangqi_egtb::{Dtm, Material, Tablebase};

/// Endings of set 1 with many short wins: the chariot, the horse, the pawn and the cannon
/// (with its own advisor for a screen) against a little defence.
const ENDINGS: &[&str] = &[
    "krka", "krkb", "krkaa", "krkab", "knka", "knkb", "kpka", "kpkaa", "kpkb", "kcakb",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut positions = 1000usize;
    let mut max_plies = 19u16;
    let mut extra = 16u32;
    let mut nodes = 5_000_000u64;
    let mut seed = 1u64;
    let mut dir = std::env::temp_dir().join("xiangqi-egtb-mates");
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--positions" => positions = value()?.parse()?,
            "--max-plies" => max_plies = value()?.parse()?,
            "--extra" => extra = value()?.parse()?,
            "--nodes" => nodes = value()?.parse()?,
            "--seed" => seed = value()?.parse()?,
            "--dir" => dir = PathBuf::from(value()?),
            other => return Err(format!("unknown argument {other:?}").into()),
        }
    }
    let endings: Vec<Material> = ENDINGS
        .iter()
        .map(|n| n.parse())
        .collect::<Result<_, _>>()?;
    xiangqi_egtb::generate_into(&dir, &endings, false, &mut |_| {})?;
    let tb = Tablebase::open(&dir)?;

    let mut searcher = Searcher::new();
    let started = Instant::now();
    let (mut exact, mut at_own_depth, mut longer, mut shorter, mut none) = (0, 0, 0, 0, 0);
    let mut worst_depth = 0;
    let mut searched = 0;
    let mut listed = Vec::new();
    // Positions and exact matches by ending.
    let mut by_ending = vec![(0usize, 0usize); endings.len()];
    for i in 0..positions {
        let material = endings[i % endings.len()];
        let want = |d| matches!(d, Dtm::Win(n) if n <= max_plies);
        let Some(pos) = tb.random_position(material, want, seed.wrapping_mul(7919) + i as u64)?
        else {
            continue;
        };
        let Some(Dtm::Win(dtm)) = tb.probe_dtm(&pos)? else {
            continue;
        };
        searched += 1;
        by_ending[i % endings.len()].0 += 1;
        let target = Score::mate_in(i32::from(dtm));
        searcher.new_game();
        let limits = Limits {
            depth: Some(u32::from(dtm) + extra),
            nodes: Some(nodes),
            ..Limits::default()
        };
        let mut found_at = None;
        let r = searcher.search(&Game::new(pos.clone()), &limits, &mut |info| {
            if found_at.is_none() && info.score == target {
                found_at = Some(info.depth);
            }
        });
        if r.score == target {
            exact += 1;
            by_ending[i % endings.len()].1 += 1;
            let d = found_at.unwrap_or(r.depth);
            if d <= u32::from(dtm) {
                at_own_depth += 1;
            }
            worst_depth = worst_depth.max(d.saturating_sub(u32::from(dtm)));
            continue;
        }
        let line = format!(
            "{material}: {} table mate in {dtm} plies, search {} at depth {}",
            pos.fen(),
            r.score,
            r.depth
        );
        if r.score.0 > target.0 {
            shorter += 1;
            listed.push(format!("SHORTER {line}"));
        } else if r.score.is_mate() && r.score.0 > 0 {
            longer += 1;
            listed.push(format!("longer {line}"));
        } else {
            none += 1;
            listed.push(format!("no mate {line}"));
        }
    }
    for l in &listed {
        println!("{l}");
    }
    for (m, (n, ok)) in endings.iter().zip(&by_ending) {
        println!("{m}: {ok} of {n}");
    }
    println!(
        "{exact} of {searched} positions (DTM <= {max_plies} plies, from {}): the search's mate \
         is the table's distance; {at_own_depth} of them found by depth = DTM, every one by DTM + \
         {worst_depth}; longer mate only: {longer}; no mate: {none}; shorter than the table: \
         {shorter}; {:.1} s",
        ENDINGS.join(" "),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
