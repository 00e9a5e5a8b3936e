//! `budget`: what a scoring budget buys. Data generation labels each position with a search
//! of a fixed node count; a deeper search labels it better and costs more. This searches
//! positions of a data file at several budgets and at one much larger reference budget, and
//! prints per budget how far its scores are from the reference's and what a position costs.

use std::path::PathBuf;
use std::time::Instant;
use xiangqi_core::Game;
use xiangqi_search::{Limits, Searcher};

/// `budget`'s options.
#[derive(clap::Args, Clone, Debug)]
pub struct BudgetArgs {
    /// A data file (from `datagen` or `score-games`): its positions are searched.
    #[arg(long)]
    data: PathBuf,
    /// How many positions, spread evenly over the file.
    #[arg(long, default_value_t = 1000)]
    count: usize,
    /// The budgets to weigh, in nodes.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "1000,2000,3000,6000,12000"
    )]
    nodes: Vec<u64>,
    /// The reference budget, in nodes.
    #[arg(long, default_value_t = 200_000)]
    reference: u64,
    /// The net to search with (`embedded`, or a file of any format).
    #[arg(long, default_value = "embedded")]
    eval_file: String,
}

/// Scores beyond this many centipawns are taken as this (a won position is won; how won
/// does not matter for a label).
const CLAMP: i32 = 2_000;

/// Runs `budget`.
pub fn budget(args: BudgetArgs) -> Result<(), String> {
    let eval = super::net_evaluator(&args.eval_file)?;
    let reader = xiangqi_nnue::data::DataReader::open(&args.data)
        .map_err(|e| format!("{}: {e}", args.data.display()))?;
    let all: Vec<_> = reader
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("{}: {e}", args.data.display()))?;
    let step = (all.len() / args.count.max(1)).max(1);
    let positions: Vec<_> = all
        .iter()
        .step_by(step)
        .take(args.count)
        .filter_map(|s| s.position().ok())
        .collect();
    if positions.is_empty() {
        return Err(format!("{}: no positions", args.data.display()));
    }
    let mut searcher = Searcher::with_evaluator(eval);
    // One search of `pos` at `nodes` from a fresh state (as the first move of a game), its
    // score clamped, and the seconds it took.
    let mut score = |pos: &xiangqi_core::Position, nodes: u64| {
        searcher.new_game();
        let game = Game::new(pos.clone());
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let start = Instant::now();
        let result = searcher.search(&game, &limits, &mut |_| {});
        (
            result.score.0.clamp(-CLAMP, CLAMP),
            start.elapsed().as_secs_f64(),
        )
    };
    println!(
        "{} positions of {}, reference {} nodes",
        positions.len(),
        args.data.display(),
        args.reference
    );
    let reference: Vec<i32> = positions
        .iter()
        .map(|p| score(p, args.reference).0)
        .collect();
    println!("nodes\tmean |score - reference| (cp)\tsame sign\tms a position");
    for &nodes in &args.nodes {
        let (mut error, mut same, mut seconds) = (0f64, 0usize, 0f64);
        for (pos, &r) in positions.iter().zip(&reference) {
            let (s, t) = score(pos, nodes);
            error += f64::from((s - r).abs());
            same += usize::from((s > 0) == (r > 0));
            seconds += t;
        }
        let n = positions.len() as f64;
        println!(
            "{nodes}\t{:.1}\t{:.1} %\t{:.2}",
            error / n,
            100.0 * same as f64 / n,
            1000.0 * seconds / n
        );
    }
    Ok(())
}
