//! A user-written evaluator plugged into the engine.
//!
//! `MaterialCount` below scores material only (with pawns worth double once across the
//! river) and keeps that sum incrementally through the [`Evaluator`] hooks, so each move costs
//! O(1). It is handed to [`Searcher::with_evaluator`] and searched; then, for comparison, the
//! same position is searched with the default evaluator, and a few quick games are played
//! between the two at a fixed node count.
//!
//! ```text
//! cargo run --release --example custom_eval [-- --games N --nodes N --depth D]
//! ```

use xiangqi::core::{Color, Game, Move, Position, Role, Square};
use xiangqi::eval::{DefaultEvaluator, Evaluator, Score};
use xiangqi::search::{Limits, Searcher};

/// Material only, kept incrementally: the sum is red's material minus black's.
#[derive(Clone, Debug, Default)]
struct MaterialCount {
    /// Red's material minus black's, for the position last reset to or moved to.
    red_minus_black: i32,
    /// Values before the hooks moved us, to take moves back in O(1).
    stack: Vec<i32>,
}

impl MaterialCount {
    fn value(role: Role, color: Color, square: Square) -> i32 {
        match role {
            Role::King => 0,
            Role::Advisor | Role::Elephant => 200,
            Role::Horse => 400,
            Role::Cannon => 450,
            Role::Chariot => 900,
            Role::Pawn if square.on_side_of(color) => 100,
            Role::Pawn => 200,
        }
    }

    fn signed(color: Color, v: i32) -> i32 {
        if color == Color::Red {
            v
        } else {
            -v
        }
    }
}

impl Evaluator for MaterialCount {
    fn evaluate(&mut self, pos: &Position) -> Score {
        let s = Self::signed(pos.side_to_move(), self.red_minus_black);
        Score(s)
    }

    fn reset(&mut self, pos: &Position) {
        self.stack.clear();
        self.red_minus_black = pos
            .all_pieces()
            .map(|(sq, p)| Self::signed(p.color, Self::value(p.role, p.color, sq)))
            .sum();
    }

    fn make_move(&mut self, pos: &Position, m: Move) {
        self.stack.push(self.red_minus_black);
        let mover = pos.piece_at(m.from()).expect("a piece moves");
        let mut delta = Self::signed(
            mover.color,
            Self::value(mover.role, mover.color, m.to())
                - Self::value(mover.role, mover.color, m.from()),
        );
        if let Some(victim) = pos.piece_at(m.to()) {
            delta -= Self::signed(victim.color, Self::value(victim.role, victim.color, m.to()));
        }
        self.red_minus_black += delta;
    }

    fn unmake_move(&mut self, _pos: &Position, _m: Move) {
        self.red_minus_black = self.stack.pop().expect("make_move came first");
    }

    fn make_null(&mut self, _pos: &Position) {
        self.stack.push(self.red_minus_black);
    }

    fn unmake_null(&mut self, _pos: &Position) {
        self.red_minus_black = self.stack.pop().expect("make_null came first");
    }
}

fn search_once<E: Evaluator>(name: &str, searcher: &mut Searcher<E>, game: &Game, depth: u32) {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let start = std::time::Instant::now();
    let result = searcher.search(game, &limits, &mut |_| {});
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let pv: Vec<String> = result.pv.iter().map(|m| m.to_string()).collect();
    println!(
        "{name:>9}: depth {} {} nodes {} nps {:.0} pv {}",
        result.depth,
        result.score,
        result.nodes,
        result.nodes as f64 / secs,
        pv.join(" ")
    );
}

/// Plays one game, `red` against `black`, at `nodes` per move; returns red's score (1, ½, 0).
fn play<A: Evaluator, B: Evaluator>(
    red: &mut Searcher<A>,
    black: &mut Searcher<B>,
    opening: &[&str],
    nodes: u64,
) -> f64 {
    let mut game = Game::default();
    for m in opening {
        let m = game.position().parse_uci(m).expect("opening move");
        game.play(m).expect("legal opening move");
    }
    red.new_game();
    black.new_game();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    for _ in 0..300 {
        if let Some(outcome) = game.outcome(Default::default()) {
            return match outcome.winner {
                Some(Color::Red) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
        }
        let result = match game.position().side_to_move() {
            Color::Red => red.search(&game, &limits, &mut |_| {}),
            Color::Black => black.search(&game, &limits, &mut |_| {}),
        };
        let Some(m) = result.best_move else { break };
        game.play(m).expect("the engine plays legal moves");
    }
    0.5
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str, default: u64| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let games = arg("--games", 4);
    let depth = arg("--depth", 8) as u32;
    let nodes = arg("--nodes", 20_000);

    // A common opening position (中炮 against 屏风马): both evaluators see the same tactics;
    // the default one also knows where pieces stand.
    let mut game = Game::default();
    for m in ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"] {
        let m = game.position().parse_uci(m).expect("legal");
        game.play(m).expect("legal");
    }
    println!("position: {}", game.position().fen());
    let mut mine = Searcher::with_evaluator(MaterialCount::default());
    let mut default = Searcher::with_evaluator(DefaultEvaluator::new());
    search_once("material", &mut mine, &game, depth);
    search_once("default", &mut default, &game, depth);

    // A few quick games, colours alternating, the first moves varied.
    let openings: [&[&str]; 4] = [&["h2e2"], &["c3c4"], &["b2e2"], &["h0g2"]];
    let mut default_score = 0.0;
    for g in 0..games as usize {
        let opening = openings[g % openings.len()];
        let s = if g % 2 == 0 {
            play(&mut default, &mut mine, opening, nodes)
        } else {
            1.0 - play(&mut mine, &mut default, opening, nodes)
        };
        default_score += s;
        println!("game {}: default evaluator scores {s}", g + 1);
    }
    println!(
        "default evaluator against material only: {default_score}/{games} at {nodes} nodes a move"
    );
}
