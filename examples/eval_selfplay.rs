//! Quick self-play between two evaluator settings with the engine's search at a fixed node
//! count, to check that evaluation terms help:
//!
//! ```text
//! cargo run --release --example eval_selfplay -- --a default --b hand [--games 100] [--nodes 20000 | --movetime MS]
//! ```
//!
//! Settings: `default` (the tuned parameters), `hand` (the hand-set starting values),
//! `tables` (the fitted material and tables with the hand-set other terms), `psq`
//! (default tables, every other term off), `material` (the [`Material`] evaluator). Openings:
//! the first four plies of the master games in `xiangqi-eval/tests/data/master_sample.txt` (CCPD, CC BY
//! 4.0), each played twice with colours swapped.

use xiangqi_core::{Color, Game, RuleSet};
use xiangqi_eval::{DefaultEvaluator, EvalParams, Evaluator, Material};
use xiangqi_search::{Limits, Searcher};

#[derive(Clone)]
enum Eval {
    Default(Box<DefaultEvaluator>),
    Material(Material),
}

impl Evaluator for Eval {
    fn evaluate(&mut self, pos: &xiangqi_core::Position) -> xiangqi_eval::Score {
        match self {
            Eval::Default(e) => e.evaluate(pos),
            Eval::Material(e) => e.evaluate(pos),
        }
    }
    fn reset(&mut self, pos: &xiangqi_core::Position) {
        if let Eval::Default(e) = self {
            e.reset(pos)
        }
    }
    fn make_move(&mut self, pos: &xiangqi_core::Position, m: xiangqi_core::Move) {
        if let Eval::Default(e) = self {
            e.make_move(pos, m)
        }
    }
    fn unmake_move(&mut self, pos: &xiangqi_core::Position, m: xiangqi_core::Move) {
        if let Eval::Default(e) = self {
            e.unmake_move(pos, m)
        }
    }
    fn make_null(&mut self, pos: &xiangqi_core::Position) {
        if let Eval::Default(e) = self {
            e.make_null(pos)
        }
    }
    fn unmake_null(&mut self, pos: &xiangqi_core::Position) {
        if let Eval::Default(e) = self {
            e.unmake_null(pos)
        }
    }
}

fn preset(name: &str) -> Eval {
    match name {
        "default" => Eval::Default(Box::new(DefaultEvaluator::new())),
        "hand" => Eval::Default(Box::new(DefaultEvaluator::with_params(
            EvalParams::hand_set(),
        ))),
        "psq" => {
            let d = EvalParams::default();
            let p = EvalParams {
                material: d.material,
                pst_mg: d.pst_mg,
                pst_eg: d.pst_eg,
                phase_weight: d.phase_weight,
                tempo: d.tempo,
                ..EvalParams::zeroed_terms()
            };
            Eval::Default(Box::new(DefaultEvaluator::with_params(p)))
        }
        "tables" => {
            // The fitted tables with the hand-set terms.
            let d = EvalParams::default();
            let p = EvalParams {
                material: d.material,
                pst_mg: d.pst_mg,
                pst_eg: d.pst_eg,
                ..EvalParams::hand_set()
            };
            Eval::Default(Box::new(DefaultEvaluator::with_params(p)))
        }
        "material" => Eval::Material(Material),
        other => panic!("unknown setting {other}: default, hand, tables, psq or material"),
    }
}

/// Red's score: 1, 0.5 or 0.
fn play(
    red: &mut Searcher<Eval>,
    black: &mut Searcher<Eval>,
    opening: &[&str],
    limits: &Limits,
) -> f64 {
    let mut game = Game::default();
    for m in opening {
        let m = game.position().parse_uci(m).expect("opening move");
        game.play(m).expect("legal opening move");
    }
    red.new_game();
    black.new_game();
    for _ in 0..400 {
        if let Some(outcome) = game.outcome(RuleSet::default()) {
            return match outcome.winner {
                Some(Color::Red) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
        }
        let result = match game.position().side_to_move() {
            Color::Red => red.search(&game, limits, &mut |_| {}),
            Color::Black => black.search(&game, limits, &mut |_| {}),
        };
        let Some(m) = result.best_move else { break };
        game.play(m).expect("the engine plays legal moves");
    }
    0.5
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let opt = |name: &str, default: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
            .unwrap_or_else(|| default.to_string())
    };
    let (a_name, b_name) = (opt("--a", "default"), opt("--b", "hand"));
    let games: usize = opt("--games", "40").parse().expect("--games N");
    let nodes: u64 = opt("--nodes", "20000").parse().expect("--nodes N");
    let movetime: u64 = opt("--movetime", "0").parse().expect("--movetime MS");
    // A fixed time a move (which counts the evaluation's cost) or a fixed node count.
    let limits = if movetime > 0 {
        Limits {
            movetime: Some(std::time::Duration::from_millis(movetime)),
            ..Limits::default()
        }
    } else {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    };
    let mut openings: Vec<Vec<&str>> = Vec::new();
    for line in include_str!("../xiangqi-eval/tests/data/master_sample.txt").lines() {
        let moves: Vec<&str> = line
            .split('\t')
            .nth(1)
            .unwrap_or("")
            .split_whitespace()
            .take(4)
            .collect();
        if moves.len() == 4 && !openings.contains(&moves) {
            openings.push(moves);
        }
    }
    let mut a = Searcher::with_evaluator(preset(&a_name));
    let mut b = Searcher::with_evaluator(preset(&b_name));
    a.set_hash_size(16);
    b.set_hash_size(16);
    let (mut w, mut d, mut l) = (0, 0, 0);
    for g in 0..games {
        let opening = &openings[(g / 2) % openings.len()];
        let s = if g % 2 == 0 {
            play(&mut a, &mut b, opening, &limits)
        } else {
            1.0 - play(&mut b, &mut a, opening, &limits)
        };
        match s {
            x if x > 0.75 => w += 1,
            x if x < 0.25 => l += 1,
            _ => d += 1,
        }
        let n = (w + d + l) as f64;
        let score = (w as f64 + d as f64 / 2.0) / n;
        let elo = if score > 0.0 && score < 1.0 {
            -400.0 * (1.0 / score - 1.0).log10()
        } else {
            f64::NAN
        };
        eprintln!(
            "{a_name} vs {b_name}: game {}: +{w} ={d} -{l}, score {score:.3}, elo {elo:+.0}",
            g + 1
        );
    }
}
