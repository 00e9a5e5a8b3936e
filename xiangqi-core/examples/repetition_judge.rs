//! Judges repetition cycles read from standard input, one per line, for the differential
//! harness `tools/repetition/diff.py`.
//!
//! ```text
//! cargo run --release -p xiangqi-core --example repetition_judge < cycles.tsv
//! ```
//!
//! Input lines: `class<TAB>fen<TAB>moves`, the moves (ICCS, space-separated) one cycle that
//! brings the position back to `fen`. Lines starting with `#` are skipped. For each cycle the
//! example plays it twice in a [`Game`] (the position then stands for the third time) and
//! prints `asian<TAB>chinese<TAB>detail`: the loser under each rule set by
//! [`Game::outcome`] (`red`, `black` or `draw`; `none` when the game does not end there,
//! `error` when the line cannot be played), and both verdicts in words. When
//! [`judge_repetition`] on the single cycle differs from the game's verdict, the detail says
//! `INCONSISTENT`.

use std::io::{self, BufRead, BufWriter, Write};
use xiangqi_core::{
    judge_repetition, Color, Game, GameEndReason, Move, Position, Problems, RuleSet,
};

fn main() -> io::Result<()> {
    let stdin = io::stdin();
    let mut out = BufWriter::new(io::stdout().lock());
    for line in stdin.lock().lines() {
        let line = line?;
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let answer = judge_line(&line).unwrap_or_else(|e| format!("error\terror\t{e}"));
        writeln!(out, "{answer}")?;
    }
    out.flush()
}

fn word(loser: Option<Color>) -> &'static str {
    match loser {
        Some(Color::Red) => "red",
        Some(Color::Black) => "black",
        None => "draw",
    }
}

fn judge_line(line: &str) -> Result<String, String> {
    let mut fields = line.split('\t');
    let (Some(_class), Some(fen), Some(moves)) = (fields.next(), fields.next(), fields.next())
    else {
        return Err("expected class<TAB>fen<TAB>moves".into());
    };
    let start = Position::from_fen_allowing(fen, Problems::PAWN_OFF_POINTS)
        .map_err(|e| format!("{fen}: {e}"))?;
    let mut game = Game::new(start.clone());
    let mut cycle: Vec<Move> = Vec::new();
    for round in 0..2 {
        for text in moves.split_whitespace() {
            let m = game
                .position()
                .parse_uci(text)
                .map_err(|e| format!("{text}: {e}"))?;
            game.play(m).map_err(|e| format!("{text}: {e}"))?;
            if round == 0 {
                cycle.push(m);
            }
        }
    }
    let mut words = [""; 2];
    let mut detail = String::new();
    for (i, rules) in [RuleSet::Asian, RuleSet::Chinese].into_iter().enumerate() {
        words[i] = match game.outcome(rules) {
            None => "none",
            Some(o) => {
                if let GameEndReason::Repetition(v) = &o.reason {
                    let single = judge_repetition(&start, &cycle, rules);
                    if single.loser() != v.loser() {
                        detail.push_str(&format!("INCONSISTENT ({rules}: {single}) "));
                    }
                }
                if i == 1 {
                    detail.push_str(" | Chinese: ");
                }
                detail.push_str(&o.to_string());
                word(o.winner.map(Color::other))
            }
        };
    }
    Ok(format!("{}\t{}\t{detail}", words[0], words[1]))
}
