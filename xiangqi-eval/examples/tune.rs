//! Texel-style tuning of [`EvalParams`] on master games: a logistic regression of game
//! results on the evaluation (<https://www.chessprogramming.org/Texel%27s_Tuning_Method>).
//!
//! ```text
//! cargo run --release -p xiangqi-eval --example tune -- GAMES.txt [--out src/tuned.rs]
//!     [--rounds 2] [--epochs 300] [--every 3]
//! ```
//!
//! `GAMES.txt` holds one game per line, `result<TAB>ICCS moves` from the start position
//! (result `1-0`, `0-1` or `1/2-1/2`, red's view), e.g. the 27,704 master games of the Chinese
//! Chess Practical Dataset (CCPD, CC BY 4.0, Yu-Han Tseng & Bo-Nian Chen, 2026).
//!
//! Positions: from ply 12 on, every `--every`-th position where the side to move is not in
//! check and neither the move before nor the move played next is a capture (a cheap stand-in
//! for quiet positions). One game in ten is held out to check the fit on unseen games.
//!
//! Each round: (1) material and piece-square tables by gradient descent (Adam) on the mean
//! squared error of `sigmoid(K * eval / 400)` against the result, the other terms held at
//! their current values, with a small pull toward the starting tables; (2) the scalar terms
//! (safety, mobility, pawns, tempo...) by Texel's local search, one step up or down at a time.
//! `K` is fitted first. With `--out`, writes the fitted parameters as Rust source.

use std::fmt::Write as _;
use xiangqi_core::{Color, Position, Role};
use xiangqi_eval::{half_table_index, DefaultEvaluator, EvalParams, Evaluator, HalfTable};

struct Sample {
    pos: Position,
    /// Result from red's view: 1, 0.5 or 0.
    result: f64,
}

fn load(path: &str, every: usize) -> (Vec<Sample>, Vec<Sample>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (g, line) in text.lines().enumerate() {
        let Some((result, moves)) = line.split_once('\t') else {
            continue;
        };
        let result = match result {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            _ => continue,
        };
        let mut pos = Position::startpos();
        let moves: Vec<_> = moves.split_whitespace().collect();
        let mut last_capture = false;
        let mut eligible = 0;
        for (ply, text) in moves.iter().enumerate() {
            let Ok(m) = pos.parse_uci(text) else { break };
            if !pos.is_legal(m) {
                break;
            }
            let capture = pos.piece_at(m.to()).is_some();
            if ply >= 12 && !last_capture && !capture && !pos.is_check() {
                eligible += 1;
                if eligible % every == 0 {
                    let s = Sample {
                        pos: pos.clone(),
                        result,
                    };
                    if g % 10 == 9 {
                        test.push(s);
                    } else {
                        train.push(s);
                    }
                }
            }
            pos.make_move(m);
            last_capture = capture;
        }
    }
    (train, test)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Red's view of the full evaluation (tempo included).
fn red_eval(e: &mut DefaultEvaluator, pos: &Position) -> f64 {
    let s = e.evaluate(pos).0 as f64;
    if pos.side_to_move() == Color::Red {
        s
    } else {
        -s
    }
}

fn error(params: &EvalParams, data: &[Sample], k: f64) -> f64 {
    let mut e = DefaultEvaluator::with_params(params.clone());
    e.set_cache_size(0);
    let sum: f64 = data
        .iter()
        .map(|s| {
            let p = sigmoid(k * red_eval(&mut e, &s.pos) / 400.0);
            (s.result - p).powi(2)
        })
        .sum();
    sum / data.len() as f64
}

fn fit_k(params: &EvalParams, data: &[Sample]) -> f64 {
    let mut best = (f64::MAX, 1.0);
    let mut k = 0.2;
    while k <= 3.0 {
        let err = error(params, data, k);
        if err < best.0 {
            best = (err, k);
        }
        k += 0.1;
    }
    // Refine around the best.
    let mut k = best.1 - 0.1;
    while k <= best.1 + 0.1 {
        let err = error(params, data, k);
        if err < best.0 {
            best = (err, k);
        }
        k += 0.01;
    }
    best.1
}

/// Linear parameters: material `[role][phase]` then tables `[phase][role][row][col]`.
const N_MAT: usize = 7 * 2;
const N_PST: usize = 2 * 7 * 50;
const N_LIN: usize = N_MAT + N_PST;

fn lin_index_pst(phase: usize, role: usize, row: usize, col: usize) -> usize {
    N_MAT + ((phase * 7 + role) * 10 + row) * 5 + col
}

fn to_vec(p: &EvalParams) -> Vec<f64> {
    let mut v = vec![0.0; N_LIN];
    for r in 0..7 {
        v[r * 2] = p.material[r][0] as f64;
        v[r * 2 + 1] = p.material[r][1] as f64;
        for row in 0..10 {
            for col in 0..5 {
                v[lin_index_pst(0, r, row, col)] = p.pst_mg[r][row][col] as f64;
                v[lin_index_pst(1, r, row, col)] = p.pst_eg[r][row][col] as f64;
            }
        }
    }
    v
}

fn from_vec(p: &mut EvalParams, v: &[f64]) {
    for r in 1..7 {
        p.material[r][0] = v[r * 2].round() as i32;
        p.material[r][1] = v[r * 2 + 1].round() as i32;
    }
    for r in 0..7 {
        for row in 0..10 {
            for col in 0..5 {
                p.pst_mg[r][row][col] = v[lin_index_pst(0, r, row, col)].round() as i32;
                p.pst_eg[r][row][col] = v[lin_index_pst(1, r, row, col)].round() as i32;
            }
        }
    }
}

/// A sample prepared for the linear fit: sparse features and the fixed remainder.
struct LinSample {
    /// (parameter index, coefficient), summed into the linear part.
    features: Vec<(u32, f32)>,
    /// Everything not linear in the tables (other terms, trade bonus), red's view.
    rest: f64,
    /// Endgame scale / 64.
    scale: f64,
    result: f64,
}

fn prepare(params: &EvalParams, data: &[Sample]) -> Vec<LinSample> {
    let mut e = DefaultEvaluator::with_params(params.clone());
    e.set_cache_size(0);
    data.iter()
        .map(|s| {
            let t = e.trace(&s.pos);
            let full = t.full_phase as f64;
            let (wm, we) = (
                t.phase as f64 / full,
                (t.full_phase - t.phase) as f64 / full,
            );
            let mut features = Vec::with_capacity(70);
            for (sq, p) in s.pos.all_pieces() {
                let sign = if p.color == Color::Red { 1.0 } else { -1.0 };
                let r = p.role.index();
                let (row, col) = half_table_index(p.color, sq);
                if p.role != Role::King {
                    features.push(((r * 2) as u32, (sign * wm) as f32));
                    features.push(((r * 2 + 1) as u32, (sign * we) as f32));
                }
                features.push((lin_index_pst(0, r, row, col) as u32, (sign * wm) as f32));
                features.push((lin_index_pst(1, r, row, col) as u32, (sign * we) as f32));
            }
            let psq_part = (t.psq_mg as f64 * wm) + (t.psq_eg as f64 * we);
            let tempo = if s.pos.side_to_move() == Color::Red {
                params.tempo
            } else {
                -params.tempo
            } as f64;
            LinSample {
                features,
                rest: t.blended as f64 - psq_part,
                scale: t.scale as f64 / 64.0,
                result: s.result,
            }
            .with_tempo(tempo)
        })
        .collect()
}

impl LinSample {
    fn with_tempo(mut self, tempo: f64) -> LinSample {
        // The tempo is added after scaling; fold it into `rest` divided by the scale.
        if self.scale > 0.0 {
            self.rest += tempo / self.scale;
        }
        self
    }

    fn eval(&self, v: &[f64]) -> f64 {
        let lin: f64 = self
            .features
            .iter()
            .map(|&(i, c)| v[i as usize] * c as f64)
            .sum();
        (lin + self.rest) * self.scale
    }
}

fn fit_linear(start: &[f64], samples: &[LinSample], k: f64, epochs: usize) -> Vec<f64> {
    let mut v = start.to_vec();
    let n = samples.len() as f64;
    let (mut m, mut s) = (vec![0.0; N_LIN], vec![0.0; N_LIN]);
    let (b1, b2, lr, eps) = (0.9, 0.999, 1.0, 1e-8);
    let lambda = 2e-7; // pull toward the starting values, per squared centipawn
    for epoch in 1..=epochs {
        let mut grad = vec![0.0; N_LIN];
        let mut err = 0.0;
        for x in samples {
            let q = k / 400.0;
            let p = sigmoid(q * x.eval(&v));
            let d = p - x.result;
            err += d * d;
            // d(err)/d(eval) = 2 d p (1-p) q; then times scale * coefficient.
            let g = 2.0 * d * p * (1.0 - p) * q * x.scale;
            for &(i, c) in &x.features {
                grad[i as usize] += g * c as f64;
            }
        }
        for i in 0..N_LIN {
            let g = grad[i] / n + 2.0 * lambda * (v[i] - start[i]);
            if i < 2 {
                continue; // the general has no material value
            }
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            s[i] = b2 * s[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - f64::powi(b1, epoch as i32));
            let sh = s[i] / (1.0 - f64::powi(b2, epoch as i32));
            v[i] -= lr * mh / (sh.sqrt() + eps);
        }
        if epoch % 50 == 0 || epoch == 1 {
            eprintln!("  epoch {epoch}: train error {:.6}", err / n);
        }
    }
    v
}

/// The scalar terms, for the local search.
fn scalars(p: &mut EvalParams) -> Vec<(&'static str, &mut i32)> {
    let mut v: Vec<(&'static str, &mut i32)> = Vec::new();
    let [mg, eg] = &mut p.chariot_mobility;
    v.push(("chariot_mobility.mg", mg));
    v.push(("chariot_mobility.eg", eg));
    let [mg, eg] = &mut p.horse_mobility;
    v.push(("horse_mobility.mg", mg));
    v.push(("horse_mobility.eg", eg));
    let [mg, eg] = &mut p.horse_blocked_leg;
    v.push(("horse_blocked_leg.mg", mg));
    v.push(("horse_blocked_leg.eg", eg));
    let [mg, eg] = &mut p.cannon_mobility;
    v.push(("cannon_mobility.mg", mg));
    v.push(("cannon_mobility.eg", eg));
    let [mg, eg] = &mut p.central_cannon;
    v.push(("central_cannon.mg", mg));
    v.push(("central_cannon.eg", eg));
    let [mg, eg] = &mut p.empty_centre_cannon;
    v.push(("empty_centre_cannon.mg", mg));
    v.push(("empty_centre_cannon.eg", eg));
    let [mg, eg] = &mut p.cannon_on_king_file;
    v.push(("cannon_on_king_file.mg", mg));
    v.push(("cannon_on_king_file.eg", eg));
    let [mg, eg] = &mut p.cannon_on_king_rank;
    v.push(("cannon_on_king_rank.mg", mg));
    v.push(("cannon_on_king_rank.eg", eg));
    let [mg, eg] = &mut p.chariot_facing_king;
    v.push(("chariot_facing_king.mg", mg));
    v.push(("chariot_facing_king.eg", eg));
    let [mg, eg] = &mut p.connected_pawns;
    v.push(("connected_pawns.mg", mg));
    v.push(("connected_pawns.eg", eg));
    v.push((
        "missing_advisor_vs_chariot",
        &mut p.missing_advisor_vs_chariot,
    ));
    v.push(("missing_advisor_vs_horse", &mut p.missing_advisor_vs_horse));
    v.push((
        "missing_elephant_vs_cannon",
        &mut p.missing_elephant_vs_cannon,
    ));
    v.push((
        "missing_elephant_vs_chariot",
        &mut p.missing_elephant_vs_chariot,
    ));
    v.push(("open_king_file", &mut p.open_king_file));
    v.push((
        "pawn_near_palace_missing_advisor",
        &mut p.pawn_near_palace_missing_advisor,
    ));
    v.push(("trade_when_ahead", &mut p.trade_when_ahead));
    v.push(("tempo", &mut p.tempo));
    const PHASE: [&str; 7] = [
        "phase.king",
        "phase.advisor",
        "phase.elephant",
        "phase.horse",
        "phase.chariot",
        "phase.cannon",
        "phase.pawn",
    ];
    for (i, w) in p.phase_weight.iter_mut().enumerate().skip(1) {
        v.push((PHASE[i], w));
    }
    const NAMES: [&str; 8] = ["kz0", "kz1", "kz2", "kz3", "kz4", "kz5", "kz6", "kz7"];
    for (i, z) in p.king_zone_attackers.iter_mut().enumerate().skip(1) {
        v.push((NAMES[i], z));
    }
    v
}

/// The bounds the local search keeps to, so that it does not fit confounders of the game
/// results (a static fit without search sees a general's missing advisor mostly in games its
/// side won by trading it for an attacker): penalties stay penalties, bonuses stay bonuses,
/// nothing grows beyond a chariot's worth, and the attacker count table rises.
fn sane(p: &EvalParams) -> bool {
    let nonneg_pairs = [
        p.chariot_mobility,
        p.horse_mobility,
        p.cannon_mobility,
        p.central_cannon,
        p.empty_centre_cannon,
        p.cannon_on_king_file,
        p.cannon_on_king_rank,
        p.chariot_facing_king,
        p.connected_pawns,
    ];
    let nonneg = [
        p.missing_advisor_vs_chariot,
        p.missing_advisor_vs_horse,
        p.missing_elephant_vs_cannon,
        p.missing_elephant_vs_chariot,
        p.open_king_file,
        p.pawn_near_palace_missing_advisor,
        p.trade_when_ahead,
        p.tempo,
    ];
    nonneg_pairs
        .iter()
        .flatten()
        .chain(nonneg.iter())
        .all(|&v| (0..=150).contains(&v))
        && p.horse_blocked_leg.iter().all(|&v| (-40..=0).contains(&v))
        && p.king_zone_attackers.windows(2).all(|w| w[0] <= w[1])
        && p.king_zone_attackers[7] <= 400
        && p.phase_weight.iter().all(|&w| (0..=8).contains(&w))
        && p.full_phase() > 0
}

fn local_search(params: &mut EvalParams, data: &[Sample], k: f64, passes: usize) {
    let mut best = error(params, data, k);
    let n = scalars(params).len();
    for pass in 0..passes {
        let mut improved = false;
        for i in 0..n {
            let name = scalars(params)[i].0;
            // Line search: the first direction that helps, as far as it keeps helping.
            let small = name.starts_with("phase");
            let steps: &[i32] = if small { &[1, -1] } else { &[4, -4, 1, -1] };
            'dirs: for &step in steps {
                let mut moved = false;
                loop {
                    let mut trial = params.clone();
                    *scalars(&mut trial)[i].1 += step;
                    if !sane(&trial) {
                        break;
                    }
                    let err = error(&trial, data, k);
                    if err < best {
                        best = err;
                        *params = trial;
                        moved = true;
                        improved = true;
                    } else {
                        break;
                    }
                }
                if moved {
                    let v = *scalars(params)[i].1;
                    eprintln!("  {name} -> {v}: {best:.6}");
                    break 'dirs;
                }
            }
        }
        eprintln!(" local search pass {}: error {best:.6}", pass + 1);
        if !improved {
            break;
        }
    }
}

fn table_source(name: &str, t: &HalfTable) -> String {
    let mut s = format!("#[rustfmt::skip]\npub(crate) const {name}: HalfTable = [\n");
    for row in t {
        let cells: Vec<String> = row.iter().map(|v| format!("{v:4}")).collect();
        let _ = writeln!(s, "    [{}],", cells.join(","));
    }
    s.push_str("];\n");
    s
}

fn source(p: &EvalParams, note: &str) -> String {
    let mut s = String::new();
    s.push_str(
        "//! Parameters fitted by `examples/tune.rs` (generated; see [`crate::params`] for the\n",
    );
    s.push_str("//! method and the data: CCPD master games, CC BY 4.0, Yu-Han Tseng & Bo-Nian Chen, 2026).\n//!\n");
    for line in note.lines() {
        let _ = writeln!(s, "//! {line}");
    }
    s.push_str("\nuse crate::params::{EvalParams, HalfTable};\n\n");
    const ROLES: [&str; 7] = [
        "KING", "ADVISOR", "ELEPHANT", "HORSE", "CHARIOT", "CANNON", "PAWN",
    ];
    for (r, name) in ROLES.iter().enumerate() {
        s.push_str(&table_source(&format!("{name}_MG"), &p.pst_mg[r]));
        s.push_str(&table_source(&format!("{name}_EG"), &p.pst_eg[r]));
    }
    s.push_str("\n/// The fitted parameters.\nfn tuned() -> EvalParams {\n    EvalParams {\n");
    let _ = writeln!(s, "        material: {:?},", p.material);
    let mg: Vec<String> = ROLES.iter().map(|r| format!("{r}_MG")).collect();
    let eg: Vec<String> = ROLES.iter().map(|r| format!("{r}_EG")).collect();
    let _ = writeln!(s, "        pst_mg: [{}],", mg.join(", "));
    let _ = writeln!(s, "        pst_eg: [{}],", eg.join(", "));
    let _ = writeln!(s, "        phase_weight: {:?},", p.phase_weight);
    let _ = writeln!(s, "        chariot_mobility: {:?},", p.chariot_mobility);
    let _ = writeln!(
        s,
        "        chariot_mobility_base: {},",
        p.chariot_mobility_base
    );
    let _ = writeln!(s, "        horse_mobility: {:?},", p.horse_mobility);
    let _ = writeln!(s, "        horse_mobility_base: {},", p.horse_mobility_base);
    let _ = writeln!(s, "        horse_blocked_leg: {:?},", p.horse_blocked_leg);
    let _ = writeln!(s, "        cannon_mobility: {:?},", p.cannon_mobility);
    let _ = writeln!(
        s,
        "        cannon_mobility_base: {},",
        p.cannon_mobility_base
    );
    let _ = writeln!(
        s,
        "        missing_advisor_vs_chariot: {},",
        p.missing_advisor_vs_chariot
    );
    let _ = writeln!(
        s,
        "        missing_advisor_vs_horse: {},",
        p.missing_advisor_vs_horse
    );
    let _ = writeln!(
        s,
        "        missing_elephant_vs_cannon: {},",
        p.missing_elephant_vs_cannon
    );
    let _ = writeln!(
        s,
        "        missing_elephant_vs_chariot: {},",
        p.missing_elephant_vs_chariot
    );
    let _ = writeln!(s, "        open_king_file: {},", p.open_king_file);
    let _ = writeln!(s, "        central_cannon: {:?},", p.central_cannon);
    let _ = writeln!(
        s,
        "        empty_centre_cannon: {:?},",
        p.empty_centre_cannon
    );
    let _ = writeln!(
        s,
        "        cannon_on_king_file: {:?},",
        p.cannon_on_king_file
    );
    let _ = writeln!(
        s,
        "        cannon_on_king_rank: {:?},",
        p.cannon_on_king_rank
    );
    let _ = writeln!(
        s,
        "        chariot_facing_king: {:?},",
        p.chariot_facing_king
    );
    let _ = writeln!(
        s,
        "        king_zone_attackers: {:?},",
        p.king_zone_attackers
    );
    let _ = writeln!(s, "        connected_pawns: {:?},", p.connected_pawns);
    let _ = writeln!(
        s,
        "        pawn_near_palace_missing_advisor: {},",
        p.pawn_near_palace_missing_advisor
    );
    let _ = writeln!(s, "        trade_when_ahead: {},", p.trade_when_ahead);
    let _ = writeln!(s, "        tempo: {},", p.tempo);
    s.push_str("    }\n}\n");
    // The default lives here, so that `params.rs` does not depend on this generated file.
    s.push_str(
        "\n/// The fitted values are the default (see [`EvalParams`]).\nimpl Default for EvalParams {\n    fn default() -> EvalParams {\n        tuned()\n    }\n}\n",
    );
    s
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: tune GAMES.txt [--out FILE] [--rounds N] [--epochs N] [--every N] [--start hand|default]");
    let opt = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let rounds: usize = opt("--rounds").and_then(|v| v.parse().ok()).unwrap_or(2);
    let epochs: usize = opt("--epochs").and_then(|v| v.parse().ok()).unwrap_or(300);
    let every: usize = opt("--every").and_then(|v| v.parse().ok()).unwrap_or(3);
    let local_every: usize = opt("--local-every")
        .and_then(|v| v.parse().ok())
        .unwrap_or(8);
    let mut params = match opt("--start").as_deref() {
        Some("default") => EvalParams::default(),
        _ => EvalParams::hand_set(),
    };

    let (train, test) = load(path, every);
    eprintln!(
        "{} training positions, {} held out",
        train.len(),
        test.len()
    );
    let k = fit_k(&params, &train);
    let start_train = error(&params, &train, k);
    let start_test = error(&params, &test, k);
    eprintln!("K = {k:.2}; start: train {start_train:.6}, held out {start_test:.6}");
    // The local search uses a subset: it evaluates everything per trial.
    let subset: Vec<Sample> = train
        .iter()
        .step_by(local_every)
        .map(|s| Sample {
            pos: s.pos.clone(),
            result: s.result,
        })
        .collect();

    for round in 1..=rounds {
        eprintln!("round {round}: tables");
        let samples = prepare(&params, &train);
        let start = to_vec(&params);
        let v = fit_linear(&start, &samples, k, epochs);
        from_vec(&mut params, &v);
        eprintln!(
            "  after tables: train {:.6}, held out {:.6}",
            error(&params, &train, k),
            error(&params, &test, k)
        );
        eprintln!("round {round}: scalar terms on {} positions", subset.len());
        local_search(&mut params, &subset, k, 4);
        eprintln!(
            "  after terms: train {:.6}, held out {:.6}",
            error(&params, &train, k),
            error(&params, &test, k)
        );
    }
    let end_train = error(&params, &train, k);
    let end_test = error(&params, &test, k);
    let note = format!(
        "Fit: {} training positions (one in {every} quiet positions from ply 12, 9 games in 10),\n\
         {} held out; K = {k:.2}; {rounds} rounds of {epochs} epochs plus local search.\n\
         Mean squared error, train {start_train:.6} -> {end_train:.6}, held out {start_test:.6} -> {end_test:.6}.",
        train.len(),
        test.len()
    );
    eprintln!("{note}");
    let src = source(&params, &note);
    match opt("--out") {
        Some(out) => std::fs::write(&out, src).unwrap_or_else(|e| panic!("{out}: {e}")),
        None => println!("{src}"),
    }
}
