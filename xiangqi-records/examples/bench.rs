//! Reading speed: the 27,704 master games (main lines, as one PGN file and as one file per
//! game) and a large opening tree (every master game's first plies merged into one XQF and
//! one PGN tree). Writes the files it reads into OUT_DIR, so that `tools/records_bench.py`
//! can time cchess on the same files.
//!
//! ```text
//! cargo run --release -p xiangqi-records --example bench -- MASTER_GAMES_ICCS OUT_DIR [PER_GAME_FILES] [TREE_PLIES]
//! ```
//!
//! Prints one line a measurement: `name files games bytes seconds games/s MB/s`.

use std::path::Path;
use std::time::Instant;
use xiangqi_core::Position;
use xiangqi_records::pgn::{self, MainLines, MoveFormat, PgnResult, WriteOptions};
use xiangqi_records::{xqf, GameTree, Record};

fn parse_master(text: &str) -> Vec<Record> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some((result, moves)) = line.split_once('\t') else {
            continue;
        };
        let mut tree = GameTree::new(Position::startpos());
        let mut at = tree.root();
        let mut pos = Position::startpos();
        for m in moves.split_whitespace() {
            let Ok(m) = pos.parse_uci(m) else { break };
            let Ok(n) = tree.add_move(at, m) else { break };
            pos.make_move(m);
            at = n;
        }
        let mut r = Record::new(tree);
        r.result = PgnResult::from_token(result).unwrap_or_default();
        r.set_tag("Event", &format!("master game {}", out.len() + 1));
        out.push(r);
    }
    out
}

/// Every game's first `plies` moves merged into one tree.
fn merged(records: &[Record], plies: usize) -> Record {
    let mut tree = GameTree::new(Position::startpos());
    for r in records {
        let mut at = tree.root();
        for m in r.tree.main_line_moves().into_iter().take(plies) {
            at = match tree.child_with(at, m) {
                Some(c) => c,
                None => match tree.add_move(at, m) {
                    Ok(n) => n,
                    Err(_) => break,
                },
            };
        }
    }
    let mut r = Record::new(tree);
    r.set_tag("Event", "master games opening tree");
    r
}

fn report(name: &str, files: usize, games: usize, bytes: usize, secs: f64) {
    println!(
        "{name} {files} {games} {bytes} {secs:.4} {:.0} {:.2}",
        games as f64 / secs,
        bytes as f64 / secs / 1e6
    );
}

/// Times `f` over `inputs` (best of three runs, one for inputs over 10 MB); returns the
/// games read.
fn time(inputs: &[Vec<u8>], f: impl Fn(&[u8]) -> usize) -> (usize, f64) {
    let mut best = f64::INFINITY;
    let mut games = 0;
    let big = inputs.iter().map(Vec::len).sum::<usize>() > 10_000_000;
    for _ in 0..if big { 1 } else { 3 } {
        let t = Instant::now();
        games = inputs.iter().map(|b| f(b)).sum();
        best = best.min(t.elapsed().as_secs_f64());
    }
    (games, best)
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: bench MASTER_GAMES_ICCS OUT_DIR [PER_GAME_FILES] [TREE_PLIES]");
        std::process::exit(2);
    }
    let out = Path::new(&args[2]);
    let per_game: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let plies: usize = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(30);
    std::fs::create_dir_all(out.join("games"))?;
    let records = parse_master(&std::fs::read_to_string(&args[1])?);
    let chinese = WriteOptions {
        notation: Some(MoveFormat::Chinese),
    };
    let all = pgn::write_records(&records, &chinese).into_bytes();
    std::fs::write(out.join("master.pgn"), &all)?;
    let mut pgn_files = Vec::new();
    let mut xqf_files = Vec::new();
    for (i, r) in records.iter().take(per_game).enumerate() {
        let p = pgn::write_record(r, &chinese).into_bytes();
        let x = xqf::write(r);
        std::fs::write(out.join("games").join(format!("{i:05}.pgn")), &p)?;
        std::fs::write(out.join("games").join(format!("{i:05}.xqf")), &x)?;
        pgn_files.push(p);
        xqf_files.push(x);
    }
    let tree = merged(&records, plies);
    let tree_xqf = xqf::write(&tree);
    let tree_pgn = pgn::write_record(&tree, &chinese).into_bytes();
    std::fs::write(out.join("tree.xqf"), &tree_xqf)?;
    std::fs::write(out.join("tree.pgn"), &tree_pgn)?;
    eprintln!(
        "{} games; tree of {} plies: {} moves, {} lines",
        records.len(),
        plies,
        tree.tree.move_count(),
        tree.tree.leaf_count()
    );

    let main_lines = |b: &[u8]| {
        let text = String::from_utf8_lossy(b);
        let mut v = MainLines::default();
        pgn::visit(&text, &mut v);
        v.games.len()
    };
    let full = |b: &[u8]| xiangqi_records::read(b).map_or(0, |l| l.records.len());
    let one = std::slice::from_ref(&all);
    let (g, s) = time(one, main_lines);
    report("master.pgn main-lines", 1, g, all.len(), s);
    let (g, s) = time(one, full);
    report("master.pgn trees", 1, g, all.len(), s);
    let bytes = |v: &[Vec<u8>]| v.iter().map(Vec::len).sum::<usize>();
    let (g, s) = time(&pgn_files, full);
    report("games/*.pgn", pgn_files.len(), g, bytes(&pgn_files), s);
    let (g, s) = time(&xqf_files, full);
    report("games/*.xqf", xqf_files.len(), g, bytes(&xqf_files), s);
    let (g, s) = time(std::slice::from_ref(&tree_xqf), full);
    report("tree.xqf", 1, g, tree_xqf.len(), s);
    let (g, s) = time(std::slice::from_ref(&tree_pgn), full);
    report("tree.pgn", 1, g, tree_pgn.len(), s);
    Ok(())
}
