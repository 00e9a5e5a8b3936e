//! Generates repetition cycles for the differential harness `tools/repetition/diff.py`.
//!
//! ```text
//! cargo run --release -p xiangqi-search --example repetition_cycles -- \
//!     [--per-class N] [--seed S] [--games FILE] [--nodes K] > cycles.tsv
//! ```
//!
//! Prints `class<TAB>fen<TAB>moves` lines, N of each class (default 1,000), each `moves` a
//! cycle of 4, 6 or 8 plies (ICCS) that returns to `fen` without a capture and without
//! passing through `fen` on the way:
//!
//! * `selfplay`: positions from games our engine plays against itself (`--nodes` per move,
//!   default 2,000) from openings of the master games; the first move of each side's
//!   back-and-forth is the engine's choice among the moves that can take part in one.
//! * `master`: positions of the master games (`--games`, `result<TAB>ICCS moves` per line;
//!   default the sample `xiangqi-eval/tests/data/master_sample.txt`) with back-and-forth
//!   sequences of random moves, biased half the time toward checks or attacks.
//! * `random`: random positions of the two generals and two to five other pieces, with
//!   random short cycles of checks, chases (attacking moves) and idle moves.
//!
//! The shapes of a side's share of a cycle: a shuttle (one piece out and back, 2 moves), a
//! triangle (one piece round three points, 3 moves) or two shuttles interleaved (4 moves).
//! Both sides play the same shape length, alternately. Three in four cycles in which no move
//! checks or attacks are dropped, to spend the comparison on what the rules decide. Each FEN's half-move clock is reset
//! to 0 so that no move-count rule interferes.

use rand::{RngExt, SeedableRng};
use rand_xorshift::XorShiftRng;
use std::io::{self, BufWriter, Write};
use xiangqi_core::{Color, Game, Move, Piece, Position, Problems, Role, RuleSet, Setup, Square};
use xiangqi_search::{Limits, Searcher};

/// One step of a side's share of a cycle.
#[derive(Clone, Copy)]
enum Step {
    /// Any piece, any quiet move.
    Free,
    /// The piece that moved in step `n` (of this side), from where it stands, not back to
    /// where it stood before that step.
    OnwardOf(usize),
    /// A piece other than the one of step `n`.
    OtherThan(usize),
    /// Step `n` (of this side) reversed.
    BackOf(usize),
    /// The piece of step `n` back to where it stood before step `m`.
    HomeOf(usize, usize),
}

const SHAPES: [&[Step]; 3] = [
    &[Step::Free, Step::BackOf(0)],
    &[Step::Free, Step::OnwardOf(0), Step::HomeOf(1, 0)],
    &[
        Step::Free,
        Step::OtherThan(0),
        Step::BackOf(0),
        Step::BackOf(1),
    ],
];

/// How free steps choose among the candidates.
#[derive(Clone, Copy, PartialEq)]
enum Bias {
    Uniform,
    Checks,
    Attacks,
}

struct Gen {
    rng: XorShiftRng,
    searcher: Searcher,
    nodes: u64,
}

/// The Forsyth–Edwards text of `pos` with its half-move clock set to 0.
fn fen_clock0(pos: &Position) -> String {
    let fen = pos.fen();
    let mut f: Vec<&str> = fen.split(' ').collect();
    if f.len() >= 5 {
        f[4] = "0";
    }
    f.join(" ")
}

/// Does `m` (quiet, by the side to move) leave the mover attacking an enemy piece?
fn attacks_after(pos: &Position, m: Move) -> bool {
    let mut p = pos.clone();
    p.make_move(m);
    if p.is_check() {
        return false;
    }
    p.make_null();
    !p.legal_captures().is_empty()
}

impl Gen {
    /// Candidates for step `step` of the side to move, given the moves it made before.
    fn candidates(&self, pos: &Position, step: Step, made: &[Move]) -> Vec<Move> {
        let quiet = pos
            .legal_moves()
            .into_iter()
            .filter(|m| pos.piece_at(m.to()).is_none());
        match step {
            Step::Free => quiet.collect(),
            Step::OnwardOf(n) => quiet
                .filter(|m| m.from() == made[n].to() && m.to() != made[n].from())
                .collect(),
            Step::OtherThan(n) => quiet.filter(|m| m.from() != made[n].to()).collect(),
            Step::BackOf(n) => {
                let back = Move::new(made[n].to(), made[n].from());
                quiet.filter(|&m| m == back).collect()
            }
            Step::HomeOf(n, m0) => {
                let back = Move::new(made[n].to(), made[m0].from());
                quiet.filter(|&m| m == back).collect()
            }
        }
    }

    fn pick(&mut self, pos: &Position, cands: &[Move], bias: Bias, engine: bool) -> Move {
        if engine && cands.len() > 1 {
            let limits = Limits {
                nodes: Some(self.nodes),
                search_moves: cands.to_vec(),
                ..Limits::default()
            };
            let game = Game::new(pos.clone());
            if let Some(m) = self.searcher.search(&game, &limits, &mut |_| {}).best_move {
                return m;
            }
        }
        let preferred: Vec<Move> = match bias {
            Bias::Uniform => Vec::new(),
            Bias::Checks => cands
                .iter()
                .copied()
                .filter(|&m| pos.gives_check(m))
                .collect(),
            Bias::Attacks => cands
                .iter()
                .copied()
                .filter(|&m| attacks_after(pos, m))
                .collect(),
        };
        let from = if preferred.is_empty() {
            cands
        } else {
            &preferred
        };
        from[self.rng.random_range(0..from.len())]
    }

    /// Tries to build one cycle from `start`; `engine` lets the search choose the first
    /// move of each side.
    fn cycle(&mut self, start: &Position, engine: bool) -> Option<Vec<Move>> {
        let shape = SHAPES[self.rng.random_range(0..SHAPES.len())];
        let biases = [Bias::Uniform, Bias::Checks, Bias::Attacks];
        let bias = [
            biases[self.rng.random_range(0..3)],
            biases[self.rng.random_range(0..3)],
        ];
        let mut pos = start.clone();
        let mut made: [Vec<Move>; 2] = [Vec::new(), Vec::new()];
        let mut cycle = Vec::new();
        for i in 0..2 * shape.len() {
            let side = i % 2;
            let step = shape[i / 2];
            let cands = self.candidates(&pos, step, &made[side]);
            if cands.is_empty() {
                return None;
            }
            let m = self.pick(&pos, &cands, bias[side], engine && i < 2);
            made[side].push(m);
            pos.play(m).ok()?;
            cycle.push(m);
            if i + 1 < 2 * shape.len() && i % 2 == 1 && pos.key() == start.key() {
                return None;
            }
        }
        if pos.key() != start.key() {
            return None;
        }
        // Most quiet shuffles are idle draws: keep one in four of those, every cycle with
        // a check or an attack.
        let mut p = start.clone();
        let mut eventful = false;
        for &m in &cycle {
            eventful |= p.gives_check(m) || attacks_after(&p, m);
            p.make_move(m);
        }
        (eventful || self.rng.random_range(0..4) == 0).then_some(cycle)
    }

    /// A random position with both generals and `extra` other pieces, legal as it stands.
    fn random_position(&mut self, extra: usize) -> Position {
        let roles = [
            Role::Chariot,
            Role::Horse,
            Role::Cannon,
            Role::Pawn,
            Role::Pawn,
            Role::Advisor,
            Role::Elephant,
        ];
        loop {
            let mut setup = Setup::empty();
            for color in Color::ALL {
                let palace: Vec<Square> = Square::all().filter(|s| s.in_palace(color)).collect();
                let k = palace[self.rng.random_range(0..palace.len())];
                setup = setup.put(k, Piece::new(color, Role::King));
            }
            for _ in 0..extra {
                let color = Color::ALL[self.rng.random_range(0..2)];
                let role = roles[self.rng.random_range(0..roles.len())];
                let sq = Square::from_index_unchecked(self.rng.random_range(0..90u8));
                if setup.board[sq.index()].is_none() {
                    setup = setup.put(sq, Piece::new(color, role));
                }
            }
            let side = Color::ALL[self.rng.random_range(0..2)];
            if let Ok(pos) = Position::from_setup(&setup.side_to_move(side), Problems::empty()) {
                if pos.has_legal_move() {
                    return pos;
                }
            }
        }
    }
}

/// The positions of a game given as ICCS moves (those after the opening's first 10 plies).
fn game_positions(line: &str) -> Vec<Position> {
    let Some(moves) = line.split('\t').nth(1) else {
        return Vec::new();
    };
    let mut pos = Position::startpos();
    let mut out = Vec::new();
    for (i, text) in moves.split_whitespace().enumerate() {
        let Ok(m) = pos.parse_uci(text) else { break };
        if pos.play(m).is_err() {
            break;
        }
        if i >= 10 {
            out.push(pos.clone());
        }
    }
    out
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut per_class = 1000usize;
    let mut seed = 1u64;
    let mut nodes = 2000u64;
    let mut games = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../xiangqi-eval/tests/data/master_sample.txt"
    )
    .to_string();
    let mut i = 0;
    while i < args.len() {
        let v = args
            .get(i + 1)
            .ok_or(format!("{} needs a value", args[i]))?;
        let num = || {
            v.parse::<u64>()
                .map_err(|_| format!("{}: bad number {v}", args[i]))
        };
        match args[i].as_str() {
            "--per-class" => per_class = num()? as usize,
            "--seed" => seed = num()?,
            "--nodes" => nodes = num()?,
            "--games" => games = v.clone(),
            other => return Err(format!("unknown option {other}")),
        }
        i += 2;
    }
    let text = std::fs::read_to_string(&games).map_err(|e| format!("{games}: {e}"))?;
    let lines: Vec<&str> = text.lines().filter(|l| l.contains('\t')).collect();
    if lines.is_empty() {
        return Err(format!("{games}: no games"));
    }
    let mut searcher = Searcher::new();
    searcher.set_hash_size(16);
    searcher.set_rules(RuleSet::Asian);
    let mut gen = Gen {
        rng: XorShiftRng::seed_from_u64(seed),
        searcher,
        nodes,
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let mut emit = |class: &str, pos: &Position, cycle: &[Move]| {
        let moves: Vec<String> = cycle.iter().map(|m| m.to_string()).collect();
        writeln!(out, "{class}\t{}\t{}", fen_clock0(pos), moves.join(" "))
    };

    // Master-game positions.
    let mut made = 0;
    while made < per_class {
        let line = lines[gen.rng.random_range(0..lines.len())];
        let positions = game_positions(line);
        for _ in 0..8 {
            if positions.is_empty() || made >= per_class {
                break;
            }
            let pos = &positions[gen.rng.random_range(0..positions.len())];
            if let Some(c) = gen.cycle(pos, false) {
                emit("master", pos, &c).map_err(|e| e.to_string())?;
                made += 1;
            }
        }
    }

    // Self-play: games of the engine from master openings; cycles from their positions.
    let mut made = 0;
    while made < per_class {
        let line = lines[gen.rng.random_range(0..lines.len())];
        let opening = game_positions(line);
        let Some(first) = opening.get(gen.rng.random_range(0..opening.len().clamp(1, 20))) else {
            continue;
        };
        let mut game = Game::new(first.clone());
        gen.searcher.new_game();
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let mut positions = Vec::new();
        for _ in 0..160 {
            if game.outcome(RuleSet::Asian).is_some() {
                break;
            }
            let Some(m) = gen.searcher.search(&game, &limits, &mut |_| {}).best_move else {
                break;
            };
            if game.play(m).is_err() {
                break;
            }
            positions.push(game.position().clone());
        }
        for pos in positions.iter().step_by(3) {
            if made >= per_class {
                break;
            }
            if let Some(c) = gen.cycle(pos, true) {
                emit("selfplay", pos, &c).map_err(|e| e.to_string())?;
                made += 1;
            }
        }
    }

    // Random few-piece positions.
    let mut made = 0;
    while made < per_class {
        let extra = gen.rng.random_range(2..=5);
        let pos = gen.random_position(extra);
        for _ in 0..4 {
            if made >= per_class {
                break;
            }
            if let Some(c) = gen.cycle(&pos, false) {
                emit("random", &pos, &c).map_err(|e| e.to_string())?;
                made += 1;
            }
        }
    }
    Ok(())
}
