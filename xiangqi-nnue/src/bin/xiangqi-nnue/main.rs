//! The NNUE pipeline on the command line: make training data, train a net, inspect it.

mod budget_cmd;
mod info_cmd;
mod layered_cmd;

use clap::{Parser, Subcommand};
use std::ops::Range;
use std::path::Path;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use xiangqi_nnue::data::DataWriter;
use xiangqi_nnue::datagen::{self, GenConfig};
use xiangqi_nnue::shard;
use xiangqi_nnue::train::{self, TrainConfig};
use xiangqi_nnue::{EvalChoice, Network};
use xiangqi_search::Searcher;

#[derive(Parser)]
#[command(
    name = "xiangqi-nnue",
    about = "Make training data, train and inspect xiangqi NNUE nets"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args)]
struct GenArgs {
    /// The data file to write (one run, one file).
    #[arg(long, short, required_unless_present = "dir", conflicts_with = "dir")]
    out: Option<PathBuf>,
    /// Write the run as shards into this folder instead (see `--shards`).
    #[arg(long, requires = "shards")]
    dir: Option<PathBuf>,
    /// Which shards of the run to make: `K`, or `A..B` for shards A to B-1. Shard K holds
    /// games K*n to (K+1)*n-1 (n: `--shard-games`) and is the same wherever it is made;
    /// shards already in the folder are skipped, so the same command resumes a stopped
    /// run, and several machines can each make a range. `merge` joins them.
    #[arg(long, value_parser = shard::parse_shards, requires = "dir")]
    shards: Option<Range<u64>>,
    /// Games per shard.
    #[arg(long, default_value_t = 1_000, value_parser = clap::value_parser!(u64).range(1..))]
    shard_games: u64,
    /// Nodes per search.
    #[arg(long, default_value_t = 5_000)]
    nodes: u64,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// The run's seed (the same seed gives the same file).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Search with this net instead of the hand-written evaluator (`embedded`: the
    /// built-in net).
    #[arg(long)]
    eval_file: Option<String>,
    /// Self-play: how games open, `narrow` (generations 1-4) or `wide` (more random
    /// moves, fewer positions repeated between games).
    #[arg(long, default_value = "narrow")]
    openings: datagen::Openings,
}

#[derive(Subcommand)]
enum Command {
    /// Plays the engine against itself and writes the quiet positions with their scores.
    Datagen {
        #[command(flatten)]
        gen: GenArgs,
        /// Games to play (one file; with `--dir`, `--shards` says how many).
        #[arg(long, default_value_t = 1_000, conflicts_with = "dir")]
        games: u64,
    },
    /// Scores the positions of master games (`result<TAB>ICCS moves` lines) with the search.
    ScoreGames {
        #[command(flatten)]
        gen: GenArgs,
        /// The games file.
        #[arg(long)]
        games: PathBuf,
        /// Use games `first..first+count` of the file.
        #[arg(long, default_value_t = 0)]
        first: usize,
        /// How many games to score (all by default; with `--dir`, `--shards` says which).
        #[arg(long, conflicts_with = "dir")]
        count: Option<usize>,
    },
    /// Joins data files (shards of a run, or whole runs) into one, each position once.
    Merge {
        /// The data file to write.
        #[arg(long, short)]
        out: PathBuf,
        /// Data files, or shard folders (their shards in order).
        #[arg(required = true, num_args = 1..)]
        inputs: Vec<PathBuf>,
    },
    /// Trains a net on data files and writes it quantised.
    Train {
        /// Data files (from `datagen` or `score-games`).
        #[arg(long, required = true, num_args = 1..)]
        data: Vec<PathBuf>,
        /// The net file to write.
        #[arg(long, short)]
        out: PathBuf,
        /// Passes over the data.
        #[arg(long, default_value_t = 20)]
        epochs: usize,
        /// Positions per optimiser step.
        #[arg(long, default_value_t = 16_384)]
        batch_size: usize,
        /// Starting learning rate.
        #[arg(long, default_value_t = 1e-3)]
        lr: f32,
        /// Weight of the search score in the target (the game result gets the rest).
        #[arg(long, default_value_t = 0.75)]
        lambda: f32,
        /// Centipawns per logistic unit (fitted to the data if not given).
        #[arg(long)]
        wdl_scale: Option<f32>,
        /// Gradient threads.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Seeds the initial weights and the shuffling.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Start from these weights instead of random ones: a float checkpoint (`.fnet`)
        /// written by an earlier run, or a net file (`embedded`: the built-in net), whose
        /// weights are taken as its integers divided by their scales.
        #[arg(long)]
        init: Option<PathBuf>,
        /// Output buckets, picked by the number of pieces on the board (1: none; 8 gives
        /// each bucket four piece counts). A one-bucket `--init` net is widened to this many.
        #[arg(long, default_value_t = 1)]
        output_buckets: usize,
    },
    /// Trains a layered net (format 3: general buckets, hidden layers) and writes it.
    TrainLayered(layered_cmd::TrainLayeredArgs),
    /// Times the search with several nets over the bench positions, alternating.
    Bench(layered_cmd::BenchArgs),
    /// Quantises a float checkpoint (`.fnet`) into a net file.
    Quantise {
        /// The float checkpoint.
        float: PathBuf,
        /// The net file to write.
        #[arg(long, short)]
        out: PathBuf,
    },
    /// Weighs scoring budgets: positions of a data file searched at several node counts
    /// and at a large reference, with each budget's distance from it and its cost.
    Budget(budget_cmd::BudgetArgs),
    /// Checks a net file (any format) and prints what it makes of a few positions.
    Info {
        /// The net file (`embedded`: the built-in net).
        net: String,
        /// Positions to evaluate (FEN); the start position if none.
        #[arg(long)]
        fen: Vec<String>,
        /// Compare the net with its float checkpoint on the positions of this data file.
        #[arg(long, requires = "data")]
        float: Option<PathBuf>,
        /// The data file for `--float`.
        #[arg(long)]
        data: Option<PathBuf>,
    },
}

/// The net named on the command line: `embedded` or a file.
fn load_net(name: &str) -> Result<Network, String> {
    if name == "embedded" {
        return Ok(Network::embedded());
    }
    let bytes = std::fs::read(name).map_err(|e| format!("cannot read the net {name}: {e}"))?;
    Network::from_bytes(&bytes).map_err(|e| format!("{name}: {e}"))
}

/// The evaluator a generation run searches with.
fn evaluator(gen: &GenArgs) -> Result<EvalChoice, String> {
    match gen.eval_file.as_deref() {
        None => Ok(EvalChoice::classical()),
        Some(name) => net_evaluator(name),
    }
}

/// The evaluator of the net `name`: `embedded` (the built-in net) or a file of any format.
fn net_evaluator(name: &str) -> Result<EvalChoice, String> {
    if name == "embedded" {
        return Ok(EvalChoice::default());
    }
    Ok(xiangqi_nnue::AnyNet::load(name)
        .map_err(|e| format!("{name}: {e}"))?
        .evaluator())
}

fn config(gen: &GenArgs) -> GenConfig {
    GenConfig {
        nodes: gen.nodes,
        threads: gen.threads,
        seed: gen.seed,
        openings: gen.openings,
        ..GenConfig::default()
    }
}

/// Reads a float checkpoint (`.fnet`).
fn load_float(path: &std::path::Path) -> Result<train::FloatNet, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    train::FloatNet::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// A run's starting weights: a float checkpoint (with or without output buckets), or a net
/// file (`embedded`: the built-in net) dequantised, for a net whose checkpoint is gone.
fn load_start(path: &std::path::Path) -> Result<train::FloatNet, String> {
    let name = path.to_string_lossy();
    if name != "embedded" {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {name}: {e}"))?;
        if bytes.starts_with(train::FLOAT_MAGIC) || bytes.starts_with(train::FLOAT_MAGIC_BUCKETS) {
            return train::FloatNet::from_bytes(&bytes).map_err(|e| format!("{name}: {e}"));
        }
    }
    load_net(&name).map(|net| train::FloatNet::from_network(&net))
}

/// What a run searches with, for a shard folder's manifest: a net by its name and
/// checksum, so that a different net under the same name is not taken for the same run.
fn evaluator_label(gen: &GenArgs) -> Result<String, String> {
    Ok(match gen.eval_file.as_deref() {
        None => "hand-written".to_string(),
        Some("embedded") => "the embedded net".to_string(),
        Some(name) => {
            let bytes =
                std::fs::read(name).map_err(|e| format!("cannot read the net {name}: {e}"))?;
            let file = Path::new(name)
                .file_name()
                .map_or(name.into(), |f| f.to_string_lossy());
            format!("{file} (crc32 {:08x})", crc32fast::hash(&bytes))
        }
    })
}

/// Runs the games `jobs` of `play` with the evaluator `gen` asks for, writing `out`, with
/// progress on standard error.
fn generate(
    gen: &GenArgs,
    jobs: Range<u64>,
    config: &GenConfig,
    play: &(impl Fn(&mut Searcher<EvalChoice>, u64) -> datagen::GameOutput + Sync),
    out: &mut DataWriter<impl std::io::Write>,
) -> std::io::Result<datagen::Summary> {
    let eval = evaluator(gen).map_err(std::io::Error::other)?;
    datagen::run(
        jobs,
        config,
        || Searcher::with_evaluator(eval.clone()),
        play,
        out,
        &mut std::io::stderr(),
        Duration::from_secs(10),
    )
}

/// A whole run into the one file `out`.
fn generate_file(
    gen: &GenArgs,
    out: &Path,
    jobs: Range<u64>,
    config: &GenConfig,
    play: &(impl Fn(&mut Searcher<EvalChoice>, u64) -> datagen::GameOutput + Sync),
) -> Result<datagen::Summary, String> {
    let mut writer =
        DataWriter::create(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let summary = generate(gen, jobs, config, play, &mut writer)
        .map_err(|e| format!("writing {}: {e}", out.display()))?;
    writer
        .finish()
        .map_err(|e| format!("writing {}: {e}", out.display()))?;
    Ok(summary)
}

/// The shards `shards` of a run into `dir`, shard `k` holding the games `games_of(k)`.
/// `settings` describes the run for the folder's manifest.
fn generate_shards(
    gen: &GenArgs,
    dir: &Path,
    shards: Range<u64>,
    settings: &str,
    config: &GenConfig,
    games_of: impl Fn(u64) -> Range<u64>,
    play: &(impl Fn(&mut Searcher<EvalChoice>, u64) -> datagen::GameOutput + Sync),
) -> Result<(), String> {
    shard::claim_folder(dir, settings).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let (mut made, mut already, mut games, mut positions) = (0u64, 0u64, 0u64, 0u64);
    for k in shards.clone() {
        let jobs = games_of(k);
        let (first, end) = (jobs.start, jobs.end);
        let result = shard::make_shard(dir, k, |out| generate(gen, jobs, config, play, out))
            .map_err(|e| format!("shard {k} in {}: {e}", dir.display()))?;
        match result {
            None => {
                already += 1;
                eprintln!("shard {k}: already made, skipped");
            }
            Some(s) => {
                made += 1;
                games += s.games;
                positions += s.written;
                eprintln!(
                    "shard {k} (games {first}..{end}): {} positions in {:.0} s, {:.0} positions/hour; shards {}..{}: {} of {} done",
                    s.written,
                    s.elapsed.as_secs_f64(),
                    s.per_hour(),
                    shards.start,
                    shards.end,
                    made + already,
                    shards.end - shards.start
                );
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "done: shards {}..{} in {}: {made} made now ({games} games, {positions} positions in {secs:.0} s, {:.0} positions/hour), {already} already there",
        shards.start,
        shards.end,
        dir.display(),
        positions as f64 * 3600.0 / secs.max(1e-9)
    );
    Ok(())
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xiangqi-nnue: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Datagen { gen, games } => {
            let config = config(&gen);
            let play = |s: &mut Searcher<EvalChoice>, g| datagen::self_play_game(s, &config, g);
            if let (Some(dir), Some(shards)) = (&gen.dir, &gen.shards) {
                let n = gen.shard_games;
                // A narrow run's manifest stays as it was, so older folders resume.
                let openings = match gen.openings {
                    datagen::Openings::Narrow => String::new(),
                    other => format!("openings: {}\n", other.name()),
                };
                let settings = format!(
                    "kind: self-play\nseed: {}\nnodes: {}\nevaluator: {}\ngames a shard: {n}\n{openings}",
                    gen.seed,
                    gen.nodes,
                    evaluator_label(&gen)?
                );
                let games_of = |k: u64| k * n..(k + 1) * n;
                return generate_shards(
                    &gen,
                    dir,
                    shards.clone(),
                    &settings,
                    &config,
                    games_of,
                    &play,
                );
            }
            let out = gen.out.clone().unwrap_or_default();
            let summary = generate_file(&gen, &out, 0..games, &config, &play)?;
            eprintln!(
                "done: {} games (red {} / draw {} / black {}), {} positions in {:.0} s, {:.0} positions/hour",
                summary.games,
                summary.results[0],
                summary.results[1],
                summary.results[2],
                summary.written,
                summary.elapsed.as_secs_f64(),
                summary.per_hour()
            );
        }
        Command::ScoreGames {
            gen,
            games,
            first,
            count,
        } => {
            let config = config(&gen);
            let text = std::fs::read_to_string(&games)
                .map_err(|e| format!("cannot read {}: {e}", games.display()))?;
            let (all, skipped) = datagen::read_master_games(&text);
            if skipped > 0 {
                eprintln!("skipped {skipped} lines that are not a result and legal moves");
            }
            // Jobs are the games' numbers in the file, so that a shard's games and the
            // held-out games are the same however the run is cut.
            let play = |s: &mut Searcher<EvalChoice>, g: u64| {
                datagen::master_game(s, &config, &all[g as usize], g)
            };
            let total = all.len() as u64;
            if let (Some(dir), Some(shards)) = (&gen.dir, &gen.shards) {
                let n = gen.shard_games;
                let first = first as u64;
                if first + shards.start * n >= total {
                    return Err(format!(
                        "shard {} starts at game {}, past the file's {total} games",
                        shards.start,
                        first + shards.start * n
                    ));
                }
                let settings = format!(
                    "kind: master games\ngames: {} (crc32 {:08x})\nfirst game: {first}\nseed: {}\nnodes: {}\n\
                     evaluator: {}\ngames a shard: {n}\n",
                    games.file_name().map_or(games.display().to_string(), |f| f.to_string_lossy().into()),
                    crc32fast::hash(text.as_bytes()),
                    gen.seed,
                    gen.nodes,
                    evaluator_label(&gen)?
                );
                // Shards past the end of the file are empty and not made.
                let last = (total - first).div_ceil(n);
                let shards = shards.start..shards.end.min(last);
                let games_of =
                    |k: u64| (first + k * n).min(total)..(first + (k + 1) * n).min(total);
                return generate_shards(&gen, dir, shards, &settings, &config, games_of, &play);
            }
            let end = count.map_or(all.len(), |c| (first + c).min(all.len()));
            let out = gen.out.clone().unwrap_or_default();
            let summary = generate_file(
                &gen,
                &out,
                first.min(end) as u64..end as u64,
                &config,
                &play,
            )?;
            eprintln!(
                "done: {} games, {} positions in {:.0} s, {:.0} positions/hour",
                summary.games,
                summary.written,
                summary.elapsed.as_secs_f64(),
                summary.per_hour()
            );
        }
        Command::Merge { out, inputs } => {
            let mut files = Vec::new();
            for input in &inputs {
                if input.is_dir() {
                    let found = shard::shards_in(input)
                        .map_err(|e| format!("cannot list {}: {e}", input.display()))?;
                    if found.is_empty() {
                        return Err(format!("{} holds no shard files", input.display()));
                    }
                    files.extend(found);
                } else {
                    files.push(input.clone());
                }
            }
            // Written beside the target and renamed at the end: a merge stopped half way
            // leaves no file that looks whole.
            let part = out.with_extension("part");
            let mut writer = DataWriter::create(&part)
                .map_err(|e| format!("cannot create {}: {e}", part.display()))?;
            let summary =
                shard::merge(&files, &mut writer).map_err(|(file, e)| format!("{file}: {e}"))?;
            writer
                .finish()
                .map_err(|e| format!("writing {}: {e}", part.display()))?;
            std::fs::rename(&part, &out).map_err(|e| {
                format!("cannot rename {} to {}: {e}", part.display(), out.display())
            })?;
            eprintln!(
                "done: {} files, {} positions read, {} written to {} ({} duplicates dropped)",
                summary.files,
                summary.read,
                summary.written,
                out.display(),
                summary.duplicates
            );
        }
        Command::Train {
            data,
            out,
            epochs,
            batch_size,
            lr,
            lambda,
            wdl_scale,
            threads,
            seed,
            init,
            output_buckets,
        } => {
            let start = match &init {
                None => None,
                Some(path) => Some(load_start(path)?),
            };
            let samples =
                xiangqi_nnue::data::read_all(&data).map_err(|(file, e)| format!("{file}: {e}"))?;
            eprintln!("read {} positions from {} files", samples.len(), data.len());
            let config = TrainConfig {
                epochs,
                batch_size,
                learning_rate: lr,
                lambda,
                wdl_scale,
                threads,
                seed,
                output_buckets,
                ..TrainConfig::default()
            };
            let (net, report) = train::train(&samples, &config, start, &mut std::io::stderr())
                .map_err(|e| e.to_string())?;
            let checkpoint = out.with_extension("fnet");
            std::fs::write(&checkpoint, net.to_bytes())
                .map_err(|e| format!("cannot write {}: {e}", checkpoint.display()))?;
            let quantised = net.quantise();
            std::fs::write(&out, quantised.to_bytes())
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            eprintln!(
                "wrote {} ({} bytes) after {:.0} s; K = {:.1}",
                out.display(),
                xiangqi_nnue::net::file_bytes(quantised.output_buckets()),
                report.seconds,
                report.wdl_scale
            );
        }
        Command::TrainLayered(args) => layered_cmd::train_layered(args)?,
        Command::Bench(args) => layered_cmd::bench(args)?,
        Command::Budget(args) => budget_cmd::budget(args)?,
        Command::Quantise { float, out } => {
            let net = load_float(&float)?;
            std::fs::write(&out, net.quantise().to_bytes())
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            eprintln!("wrote {}", out.display());
        }
        Command::Info {
            net,
            fen,
            float,
            data,
        } => info_cmd::info(&net, fen, float, data)?,
    }
    Ok(())
}
