//! `info`: checks a net file of any format and prints what it makes of a few positions and,
//! given its float checkpoint, how far the integer net is from it.

use std::path::PathBuf;
use std::sync::Arc;
use xiangqi_core::Position;
use xiangqi_eval::Evaluator;
use xiangqi_nnue::train::{FloatNet, LayeredFloat};
use xiangqi_nnue::{AnyNet, LayeredEvaluator, Network, NnueEvaluator};

/// A net's integer evaluator and, when given, its float original.
enum Nets {
    Simple(NnueEvaluator, Option<FloatNet>),
    Layered(LayeredEvaluator, Option<LayeredFloat>),
}

impl Nets {
    /// The integer evaluations of `positions`, and the float ones when there is a float net.
    fn evaluate(&self, positions: &[Position]) -> (Vec<i32>, Option<Vec<f32>>) {
        match self {
            Nets::Simple(eval, float) => (
                positions.iter().map(|p| eval.evaluate_fresh(p).0).collect(),
                float
                    .as_ref()
                    .map(|f| positions.iter().map(|p| f.evaluate(p)).collect()),
            ),
            Nets::Layered(eval, float) => (
                positions.iter().map(|p| eval.evaluate_fresh(p).0).collect(),
                float.as_ref().map(|f| f.evaluate_all(positions)),
            ),
        }
    }
}

/// Runs `info` on the net `name` (`embedded`: the built-in net).
pub fn info(
    name: &str,
    fens: Vec<String>,
    float: Option<PathBuf>,
    data: Option<PathBuf>,
) -> Result<(), String> {
    let net = if name == "embedded" {
        AnyNet::Simple(Arc::new(Network::embedded()))
    } else {
        AnyNet::load(name).map_err(|e| format!("{name}: {e}"))?
    };
    let float_bytes = match &float {
        Some(path) => {
            Some(std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?)
        }
        None => None,
    };
    let float_error = |e: &dyn std::fmt::Display| {
        let path = float.as_ref().map(|p| p.display().to_string());
        format!("{}: {e}", path.unwrap_or_default())
    };
    let nets = match &net {
        AnyNet::Simple(n) => {
            println!(
                "{name}: a valid net, {n:?}, {} output bucket(s)",
                n.output_buckets()
            );
            let float = match &float_bytes {
                Some(b) => Some(FloatNet::from_bytes(b).map_err(|e| float_error(&e))?),
                None => None,
            };
            Nets::Simple(NnueEvaluator::with_network(n.clone()), float)
        }
        AnyNet::Layered(n) => {
            println!("{name}: a valid layered net, {:?}", n.shape());
            let float = match &float_bytes {
                Some(b) => Some(LayeredFloat::from_bytes(b).map_err(|e| float_error(&e))?),
                None => None,
            };
            Nets::Layered(LayeredEvaluator::new(n.clone()), float)
        }
    };
    let fens = if fens.is_empty() {
        vec![xiangqi_core::START_FEN.to_string()]
    } else {
        fens
    };
    let mut classical = xiangqi_eval::DefaultEvaluator::new();
    for fen in fens {
        let pos = Position::from_fen(&fen).map_err(|e| format!("{fen}: {e}"))?;
        classical.reset(&pos);
        let (net_score, _) = nets.evaluate(std::slice::from_ref(&pos));
        println!(
            "{fen}: net {} cp, hand-written {} cp (side to move)",
            net_score[0],
            classical.evaluate(&pos).0
        );
    }
    if let (Some(_), Some(data)) = (float, data) {
        let reader = xiangqi_nnue::data::DataReader::open(&data)
            .map_err(|e| format!("{}: {e}", data.display()))?;
        let mut positions = Vec::new();
        for sample in reader.take(100_000) {
            let sample = sample.map_err(|e| format!("{}: {e}", data.display()))?;
            if let Ok(pos) = sample.position() {
                positions.push(pos);
            }
        }
        let (ints, floats) = nets.evaluate(&positions);
        let (mut total, mut worst) = (0f64, 0f64);
        for (&i, &f) in ints.iter().zip(floats.iter().flatten()) {
            let error = f64::from((i as f32 - f).abs());
            total += error;
            worst = worst.max(error);
        }
        println!(
            "quantised against float on {} positions: mean difference {:.2} cp, largest {worst:.1} cp",
            positions.len(),
            total / positions.len().max(1) as f64
        );
    }
    Ok(())
}
