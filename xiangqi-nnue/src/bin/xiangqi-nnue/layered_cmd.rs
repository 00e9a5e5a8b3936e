//! The commands of the layered net (format 3): `train-layered`, which trains one, and
//! `bench`, which times the search with several nets in one run.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use xiangqi_nnue::buckets::BucketMap;
use xiangqi_nnue::layered::Shape;
use xiangqi_nnue::train::{self, LayeredFloat, TrainConfig};
use xiangqi_nnue::{speed, AnyNet, EvalChoice, LayeredNet};

/// The shape options of a layered net.
#[derive(clap::Args, Clone, Debug)]
pub struct ShapeArgs {
    /// Accumulator width per perspective (a multiple of 32, up to 2048).
    #[arg(long, default_value_t = Shape::default().width)]
    width: usize,
    /// First hidden layer's size.
    #[arg(long, default_value_t = Shape::default().hidden1)]
    hidden1: usize,
    /// Second hidden layer's size (0: one hidden layer).
    #[arg(long, default_value_t = Shape::default().hidden2)]
    hidden2: usize,
    /// Layer stacks, chosen by the number of pieces on the board.
    #[arg(long, default_value_t = Shape::default().stacks)]
    stacks: usize,
    /// The palace bucket map: `six` (one bucket per palace point after the mirror),
    /// `ranks` (one per rank) or `one`; or six digits, the buckets of d0 e0 d1 e1 d2 e2.
    #[arg(long, default_value = "six")]
    buckets: String,
    /// Pairwise products of each perspective's accumulator halves before the first hidden
    /// layer (half its inputs).
    #[arg(long)]
    pairwise: bool,
}

impl ShapeArgs {
    fn shape(&self) -> Result<Shape, String> {
        let buckets = match self.buckets.as_str() {
            "six" => BucketMap::SIX,
            "ranks" => BucketMap::RANKS,
            "one" => BucketMap::ONE,
            digits if digits.len() == 6 && digits.bytes().all(|b| b.is_ascii_digit()) => {
                let mut map = [0u8; 6];
                for (m, b) in map.iter_mut().zip(digits.bytes()) {
                    *m = b - b'0';
                }
                BucketMap(map)
            }
            other => return Err(format!("--buckets {other}: six, ranks, one or six digits")),
        };
        let shape = Shape {
            width: self.width,
            hidden1: self.hidden1,
            hidden2: self.hidden2,
            stacks: self.stacks,
            buckets,
            pairwise: self.pairwise,
        };
        shape.check().map_err(|e| e.to_string())?;
        Ok(shape)
    }
}

/// `train-layered`'s options.
#[derive(clap::Args)]
pub struct TrainLayeredArgs {
    /// Data files (from `datagen` or `score-games`).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// The net file to write (its float checkpoint goes beside it, `.fnet`).
    #[arg(long, short)]
    out: PathBuf,
    #[command(flatten)]
    shape: ShapeArgs,
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
    /// Go on from this float checkpoint (`.fnet` of an earlier layered run); its shape
    /// replaces the shape options.
    #[arg(long)]
    init: Option<PathBuf>,
}

/// Trains a layered net and writes it, quantised, with its float checkpoint.
pub fn train_layered(args: TrainLayeredArgs) -> Result<(), String> {
    let start = match &args.init {
        None => None,
        Some(path) => {
            let bytes =
                std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            Some(LayeredFloat::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?)
        }
    };
    let shape = match &start {
        Some(net) => net.shape,
        None => args.shape.shape()?,
    };
    let samples =
        xiangqi_nnue::data::read_all(&args.data).map_err(|(file, e)| format!("{file}: {e}"))?;
    eprintln!(
        "read {} positions from {} files",
        samples.len(),
        args.data.len()
    );
    let config = TrainConfig {
        epochs: args.epochs,
        batch_size: args.batch_size,
        learning_rate: args.lr,
        lambda: args.lambda,
        wdl_scale: args.wdl_scale,
        threads: args.threads,
        seed: args.seed,
        ..TrainConfig::default()
    };
    let (net, report) =
        train::train_layered(&samples, &config, shape, start, &mut std::io::stderr())
            .map_err(|e| e.to_string())?;
    let checkpoint = args.out.with_extension("fnet");
    std::fs::write(&checkpoint, net.to_bytes())
        .map_err(|e| format!("cannot write {}: {e}", checkpoint.display()))?;
    let quantised = net.quantise().map_err(|e| e.to_string())?;
    let bytes = quantised.to_bytes();
    std::fs::write(&args.out, &bytes)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    eprintln!(
        "wrote {} ({} bytes) after {:.0} s; K = {:.1}",
        args.out.display(),
        bytes.len(),
        report.seconds,
        report.wdl_scale
    );
    Ok(())
}

/// `bench`'s options.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// The evaluators to time: `embedded` (the built-in net), `classical`, `random` (a
    /// layered net of the shape options with random weights) or a net file of any format.
    #[arg(long = "net", required = true, num_args = 1..)]
    nets: Vec<String>,
    #[command(flatten)]
    shape: ShapeArgs,
    /// Depth of each search.
    #[arg(long, default_value_t = 10)]
    depth: u32,
    /// Passes; each pass times every evaluator once, in turn.
    #[arg(long, default_value_t = 3)]
    rounds: usize,
}

/// The evaluator `name` stands for.
fn bench_evaluator(name: &str, shape: &ShapeArgs) -> Result<EvalChoice, String> {
    Ok(match name {
        "embedded" => EvalChoice::default(),
        "classical" => EvalChoice::classical(),
        "random" => {
            let net = LayeredNet::random(shape.shape()?, 1).map_err(|e| e.to_string())?;
            AnyNet::Layered(Arc::new(net)).evaluator()
        }
        file => AnyNet::load(file)
            .map_err(|e| format!("{file}: {e}"))?
            .evaluator(),
    })
}

/// Times the search with each evaluator over the bench positions, alternating, and prints
/// each pass and the median nodes per second.
pub fn bench(args: BenchArgs) -> Result<(), String> {
    let evaluators = args
        .nets
        .iter()
        .map(|name| bench_evaluator(name, &args.shape))
        .collect::<Result<Vec<_>, _>>()?;
    // Written with `writeln!` so that a closed pipe (`| head`) ends the run with an error
    // instead of a panic.
    let mut out = std::io::stdout().lock();
    let closed = |e: std::io::Error| format!("cannot write the results: {e}");
    let mut nps: Vec<Vec<f64>> = vec![Vec::new(); evaluators.len()];
    for round in 0..args.rounds {
        for (i, eval) in evaluators.iter().enumerate() {
            let r = speed::run(eval.clone(), args.depth);
            writeln!(
                out,
                "round {} {:<24} nodes {:>10} time {:>7.2} s  {:>9.0} nodes/s",
                round + 1,
                args.nets[i],
                r.nodes,
                r.time.as_secs_f64(),
                r.nps()
            )
            .map_err(closed)?;
            nps[i].push(r.nps());
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let first = median(&mut nps[0].clone());
    for (name, v) in args.nets.iter().zip(&mut nps) {
        let m = median(v);
        writeln!(
            out,
            "{name:<24} median {m:>9.0} nodes/s ({:.2} x {})",
            m / first,
            args.nets[0]
        )
        .map_err(closed)?;
    }
    Ok(())
}
