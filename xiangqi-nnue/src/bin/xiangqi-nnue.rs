//! The NNUE pipeline on the command line: make training data, train a net, inspect it.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use xiangqi_core::Position;
use xiangqi_eval::Evaluator;
use xiangqi_nnue::data::DataWriter;
use xiangqi_nnue::datagen::{self, GenConfig};
use xiangqi_nnue::train::{self, TrainConfig};
use xiangqi_nnue::{EvalChoice, Network, NnueEvaluator};
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
    /// The data file to write.
    #[arg(long, short)]
    out: PathBuf,
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
}

#[derive(Subcommand)]
enum Command {
    /// Plays the engine against itself and writes the quiet positions with their scores.
    Datagen {
        #[command(flatten)]
        gen: GenArgs,
        /// Games to play.
        #[arg(long, default_value_t = 1_000)]
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
        /// How many games to score (all by default).
        #[arg(long)]
        count: Option<usize>,
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
        /// Start from this float checkpoint (a `.fnet` written by an earlier run) instead
        /// of random weights.
        #[arg(long)]
        init: Option<PathBuf>,
    },
    /// Quantises a float checkpoint (`.fnet`) into a net file.
    Quantise {
        /// The float checkpoint.
        float: PathBuf,
        /// The net file to write.
        #[arg(long, short)]
        out: PathBuf,
    },
    /// Checks a net file and prints what it makes of a few positions.
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
    match &gen.eval_file {
        None => Ok(EvalChoice::classical()),
        Some(name) => Ok(EvalChoice::with_network(Arc::new(load_net(name)?))),
    }
}

fn config(gen: &GenArgs) -> GenConfig {
    GenConfig {
        nodes: gen.nodes,
        threads: gen.threads,
        seed: gen.seed,
        ..GenConfig::default()
    }
}

/// Reads a float checkpoint (`.fnet`).
fn load_float(path: &std::path::Path) -> Result<train::FloatNet, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    train::FloatNet::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs `jobs` games of `play` with the evaluator `gen` asks for, writing `gen.out`, with
/// progress on standard error.
fn generate(
    gen: &GenArgs,
    jobs: u64,
    config: &GenConfig,
    play: impl Fn(&mut Searcher<EvalChoice>, u64) -> datagen::GameOutput + Sync,
) -> Result<datagen::Summary, String> {
    let eval = evaluator(gen)?;
    let mut out = DataWriter::create(&gen.out)
        .map_err(|e| format!("cannot create {}: {e}", gen.out.display()))?;
    let summary = datagen::run(
        jobs,
        config,
        || Searcher::with_evaluator(eval.clone()),
        play,
        &mut out,
        &mut std::io::stderr(),
        Duration::from_secs(10),
    )
    .map_err(|e| format!("writing {}: {e}", gen.out.display()))?;
    out.finish()
        .map_err(|e| format!("writing {}: {e}", gen.out.display()))?;
    Ok(summary)
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
            let summary = generate(&gen, games, &config, |s, g| {
                datagen::self_play_game(s, &config, g)
            })?;
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
            let end = count.map_or(all.len(), |c| (first + c).min(all.len()));
            let chosen = all.get(first..end).unwrap_or(&[]);
            let summary = generate(&gen, chosen.len() as u64, &config, |s, g| {
                let number = first as u64 + g;
                datagen::master_game(s, &config, &chosen[g as usize], number)
            })?;
            eprintln!(
                "done: {} games, {} positions in {:.0} s, {:.0} positions/hour",
                summary.games,
                summary.written,
                summary.elapsed.as_secs_f64(),
                summary.per_hour()
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
        } => {
            let start = match &init {
                None => None,
                Some(path) => Some(load_float(path)?),
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
                xiangqi_nnue::net::FILE_BYTES,
                report.seconds,
                report.wdl_scale
            );
        }
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
        } => {
            let network = Arc::new(load_net(&net)?);
            println!("{net}: a valid net, {:?}", network);
            let fens = if fen.is_empty() {
                vec![xiangqi_core::START_FEN.to_string()]
            } else {
                fen
            };
            let nnue = NnueEvaluator::with_network(network);
            let mut classical = xiangqi_eval::DefaultEvaluator::new();
            for fen in fens {
                let pos = Position::from_fen(&fen).map_err(|e| format!("{fen}: {e}"))?;
                classical.reset(&pos);
                println!(
                    "{fen}: net {} cp, hand-written {} cp (side to move)",
                    nnue.evaluate_fresh(&pos).0,
                    classical.evaluate(&pos).0
                );
            }
            if let (Some(float), Some(data)) = (float, data) {
                let float_net = load_float(&float)?;
                let reader = xiangqi_nnue::data::DataReader::open(&data)
                    .map_err(|e| format!("{}: {e}", data.display()))?;
                let (mut count, mut total, mut worst) = (0u64, 0f64, 0f64);
                for sample in reader.take(100_000) {
                    let sample = sample.map_err(|e| format!("{}: {e}", data.display()))?;
                    let Ok(pos) = sample.position() else { continue };
                    let error = f64::from(
                        (nnue.evaluate_fresh(&pos).0 as f32 - float_net.evaluate(&pos)).abs(),
                    );
                    count += 1;
                    total += error;
                    worst = worst.max(error);
                }
                println!(
                    "quantised against float on {count} positions: mean difference {:.2} cp, largest {worst:.1} cp",
                    total / count.max(1) as f64
                );
            }
        }
    }
    Ok(())
}
