//! Training data from games: the engine's games against itself, and master games scored by
//! the engine's search.
//!
//! Both run the same way: game `g` of a run is a pure function of the seed and `g`, games
//! are shared out to worker threads, and the writer puts them in the file in game order,
//! so a run's file is byte-for-byte the same with any number of threads. A position is kept
//! only when it is quiet for the search (not in check, best move not a capture, the score
//! not a mate) and was not already written in this run.

use crate::data::{DataWriter, Outcome, Sample, Source};
use std::collections::{BTreeMap, HashSet};
use std::io::{self, Write};
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use xiangqi_book::Book;
use xiangqi_core::{Color, Game, Move, RuleSet};
use xiangqi_eval::{Evaluator, Score};
use xiangqi_search::{Limits, Searcher};

/// How a run searches and plays.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Nodes per search (a fixed budget keeps games reproducible).
    pub nodes: u64,
    /// Worker threads, each with its own searcher.
    pub threads: usize,
    /// The run's seed: the same seed gives the same games.
    pub seed: u64,
    /// Self-play: a game still going after this many plies is a draw.
    pub max_plies: usize,
    /// Self-play: a game is adjudicated to the side whose search score stays at least this
    /// high (centipawns) for [`GenConfig::adjudicate_plies`] plies in a row.
    pub win_score: i32,
    /// See [`GenConfig::win_score`].
    pub adjudicate_plies: usize,
    /// Master games: positions before this ply are skipped (they are book positions).
    pub skip_plies: usize,
    /// Self-play: how games open.
    pub openings: Openings,
}

/// How self-play games open before the engine plays itself.
///
/// Games that open alike pass through the same positions, which a run keeps once: with
/// [`Openings::Narrow`], 29 % of a 70,000-game run's positions were repeats from other
/// games. [`Openings::Wide`] plays more random moves, so more of the searched positions are
/// new; lopsided starts end early by adjudication, so they cost little search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Openings {
    /// Half the games: the built-in book for 2 to 12 plies, then 0 to 2 random moves; the
    /// other half: 2 to 5 random moves (generations 1-4).
    #[default]
    Narrow,
    /// Half the games: the built-in book for 2 to 12 plies, then 2 to 4 random moves; the
    /// other half: 4 to 7 random moves.
    Wide,
}

impl Openings {
    /// The name used on the command line and in a shard folder's manifest.
    pub fn name(self) -> &'static str {
        match self {
            Openings::Narrow => "narrow",
            Openings::Wide => "wide",
        }
    }

    /// Random plies after a book line, and random plies of a game without one.
    fn random_plies(
        self,
    ) -> (
        std::ops::RangeInclusive<usize>,
        std::ops::RangeInclusive<usize>,
    ) {
        match self {
            Openings::Narrow => (0..=2, 2..=5),
            Openings::Wide => (2..=4, 4..=7),
        }
    }
}

impl std::str::FromStr for Openings {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "narrow" => Ok(Openings::Narrow),
            "wide" => Ok(Openings::Wide),
            other => Err(format!(
                "`{other}` is not an opening style (narrow or wide)"
            )),
        }
    }
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            nodes: 5_000,
            threads: 2,
            seed: 1,
            max_plies: 400,
            win_score: 1_500,
            adjudicate_plies: 8,
            skip_plies: 8,
            openings: Openings::Narrow,
        }
    }
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Games played or read.
    pub games: u64,
    /// Quiet positions found, before deduplication.
    pub quiet: u64,
    /// Positions written.
    pub written: u64,
    /// Quiet positions dropped as already written.
    pub duplicates: u64,
    /// Red wins, draws and black wins among the games (self-play only).
    pub results: [u64; 3],
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl Summary {
    /// Positions written per hour.
    pub fn per_hour(&self) -> f64 {
        self.written as f64 * 3600.0 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// One game's quiet positions, each with its position key for deduplication, and the
/// game's winner (`None`: draw) when known.
pub struct GameOutput {
    /// `(key, sample)` pairs in the order played.
    pub samples: Vec<(u64, Sample)>,
    /// The winner, for the results tally.
    pub winner: Option<Option<Color>>,
}

/// The search's verdict on a position, if the position is quiet enough to learn from.
fn quiet_score<E: Evaluator>(
    searcher: &mut Searcher<E>,
    game: &Game,
    limits: &Limits,
) -> (Option<Move>, Score, bool) {
    let result = searcher.search(game, limits, &mut |_| {});
    let pos = game.position();
    let quiet = match result.best_move {
        Some(m) => !pos.is_check() && pos.piece_at(m.to()).is_none() && !result.score.is_mate(),
        None => false,
    };
    (result.best_move, result.score, quiet)
}

fn outcome_for(winner: Option<Color>, side: Color) -> Outcome {
    match winner {
        None => Outcome::Draw,
        Some(w) if w == side => Outcome::Win,
        Some(_) => Outcome::Loss,
    }
}

fn clamp_i16(score: Score) -> i16 {
    score.0.clamp(i16::MIN as i32, i16::MAX as i32) as i16
}

/// A random opening for game `g` in the style `style` (see [`Openings`]). `None` when the
/// random moves end the game.
fn opening(rng: &mut fastrand::Rng, style: Openings) -> Option<Game> {
    let mut game = Game::default();
    let (after_book, without_book) = style.random_plies();
    let random_plies = if rng.bool() {
        for _ in 0..rng.usize(2..=12) {
            match Book::builtin().pick(game.position(), rng.u64(..)) {
                Some(m) => game.play(m).ok()?,
                None => break,
            }
        }
        rng.usize(after_book)
    } else {
        rng.usize(without_book)
    };
    for _ in 0..random_plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            return None;
        }
        let m = moves[rng.usize(..moves.len())];
        game.play(m).ok()?;
    }
    game.outcome(RuleSet::default()).is_none().then_some(game)
}

fn game_rng(seed: u64, g: u64) -> fastrand::Rng {
    fastrand::Rng::with_seed(seed ^ g.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Plays self-play game `g`: a random opening, then the searcher against itself at a fixed
/// node budget until the rules end the game, the score settles it or the ply cap draws it.
pub fn self_play_game<E: Evaluator>(
    searcher: &mut Searcher<E>,
    config: &GenConfig,
    g: u64,
) -> GameOutput {
    let mut rng = game_rng(config.seed, g);
    let Some(mut game) = (0..8).find_map(|_| opening(&mut rng, config.openings)) else {
        return GameOutput {
            samples: Vec::new(),
            winner: None,
        };
    };
    searcher.new_game();
    let limits = Limits {
        nodes: Some(config.nodes),
        ..Limits::default()
    };
    let rules = RuleSet::default();
    // Positions with their scores, labelled with the result once the game is over.
    let mut pending: Vec<(u64, xiangqi_core::Position, i16)> = Vec::new();
    let mut winning_streak: (Option<Color>, usize) = (None, 0);
    let winner = loop {
        if let Some(outcome) = game.outcome(rules) {
            break outcome.winner;
        }
        if game.moves().len() >= config.max_plies {
            break None;
        }
        let (best, score, quiet) = quiet_score(searcher, &game, &limits);
        let Some(best) = best else { break None };
        let pos = game.position();
        if quiet {
            pending.push((pos.key(), pos.clone(), clamp_i16(score)));
        }
        // Who the score says is winning, kept up for `adjudicate_plies` in a row.
        let leader = if score.0 >= config.win_score {
            Some(pos.side_to_move())
        } else if score.0 <= -config.win_score {
            Some(pos.side_to_move().other())
        } else {
            None
        };
        winning_streak = match (leader, winning_streak) {
            (Some(l), (Some(p), n)) if l == p => (Some(l), n + 1),
            (Some(l), _) => (Some(l), 1),
            (None, _) => (None, 0),
        };
        if winning_streak.1 >= config.adjudicate_plies {
            break winning_streak.0;
        }
        if game.play(best).is_err() {
            break None;
        }
    };
    let samples = pending
        .into_iter()
        .map(|(key, pos, score)| {
            let outcome = outcome_for(winner, pos.side_to_move());
            (
                key,
                Sample::new(&pos, score, outcome, Source::SelfPlay, g as u32),
            )
        })
        .collect();
    GameOutput {
        samples,
        winner: Some(winner),
    }
}

/// A master game: its result (`None` for a draw or unknown) and its moves.
#[derive(Clone, Debug)]
pub struct MasterGame {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// The moves from the start position.
    pub moves: Vec<Move>,
}

/// Reads `result<TAB>moves` lines (`1-0`, `0-1`, `1/2-1/2`; ICCS moves such as `h2e2`
/// separated by spaces), as in `shared/data/games/master_games_iccs.txt`. A line whose
/// result is not one of those or whose moves do not parse or are illegal is skipped, and
/// counted in the second value.
pub fn read_master_games(text: &str) -> (Vec<MasterGame>, usize) {
    let mut games = Vec::new();
    let mut skipped = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Some((result, moves)) = line.split_once('\t') else {
            skipped += 1;
            continue;
        };
        let winner = match result.trim() {
            "1-0" => Some(Color::Red),
            "0-1" => Some(Color::Black),
            "1/2-1/2" => None,
            _ => {
                skipped += 1;
                continue;
            }
        };
        let mut game = Game::default();
        let parsed: Option<Vec<Move>> = moves
            .split_whitespace()
            .map(|text| {
                let m = game.position().parse_uci(text).ok()?;
                game.play(m).ok()?;
                Some(m)
            })
            .collect();
        match parsed {
            Some(moves) if !moves.is_empty() => games.push(MasterGame { winner, moves }),
            _ => skipped += 1,
        }
    }
    (games, skipped)
}

/// Scores the positions of master game `g` (number `number` in the data) with the search,
/// labelling them with the game's result.
pub fn master_game<E: Evaluator>(
    searcher: &mut Searcher<E>,
    config: &GenConfig,
    game_record: &MasterGame,
    number: u64,
) -> GameOutput {
    searcher.new_game();
    let limits = Limits {
        nodes: Some(config.nodes),
        ..Limits::default()
    };
    let mut game = Game::default();
    let mut samples = Vec::new();
    for (ply, &m) in game_record.moves.iter().enumerate() {
        if ply >= config.skip_plies {
            let (_, score, quiet) = quiet_score(searcher, &game, &limits);
            if quiet {
                let pos = game.position();
                let outcome = outcome_for(game_record.winner, pos.side_to_move());
                let sample = Sample::new(
                    pos,
                    clamp_i16(score),
                    outcome,
                    Source::Master,
                    number as u32,
                );
                samples.push((pos.key(), sample));
            }
        }
        if game.play(m).is_err() {
            break;
        }
    }
    GameOutput {
        samples,
        winner: Some(game_record.winner),
    }
}

/// Runs jobs `jobs` (games, or master games by their number) on `config.threads`
/// threads, each with a searcher from `make_searcher`, and writes their positions to `out`
/// in job order, deduplicated. Prints progress with a rate and the time left to
/// `progress` every `every`.
pub fn run<E, W, F, P>(
    jobs: Range<u64>,
    config: &GenConfig,
    make_searcher: F,
    play: P,
    out: &mut DataWriter<W>,
    progress: &mut dyn Write,
    every: Duration,
) -> io::Result<Summary>
where
    E: Evaluator,
    W: Write,
    F: Fn() -> Searcher<E> + Sync,
    P: Fn(&mut Searcher<E>, u64) -> GameOutput + Sync,
{
    let start = Instant::now();
    let total = jobs.end.saturating_sub(jobs.start);
    let next = AtomicU64::new(jobs.start);
    let mut summary = Summary::default();
    std::thread::scope(|scope| -> io::Result<()> {
        let (tx, rx) = mpsc::channel::<(u64, GameOutput)>();
        for _ in 0..config.threads.max(1) {
            let tx = tx.clone();
            let (next, make_searcher, play) = (&next, &make_searcher, &play);
            scope.spawn(move || {
                let mut searcher = make_searcher();
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= jobs.end {
                        break;
                    }
                    let output = play(&mut searcher, g);
                    if tx.send((g, output)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut seen: HashSet<u64> = HashSet::new();
        let mut waiting: BTreeMap<u64, GameOutput> = BTreeMap::new();
        let mut next_to_write = jobs.start;
        let mut last_report = Instant::now();
        let mut write_ready =
            |waiting: &mut BTreeMap<u64, GameOutput>, summary: &mut Summary| -> io::Result<()> {
                while let Some(output) = waiting.remove(&next_to_write) {
                    next_to_write += 1;
                    summary.games += 1;
                    if let Some(winner) = output.winner {
                        let slot = match winner {
                            Some(Color::Red) => 0,
                            None => 1,
                            Some(Color::Black) => 2,
                        };
                        summary.results[slot] += 1;
                    }
                    for (key, sample) in output.samples {
                        summary.quiet += 1;
                        if seen.insert(key) {
                            out.write(&sample)?;
                            summary.written += 1;
                        } else {
                            summary.duplicates += 1;
                        }
                    }
                }
                Ok(())
            };
        loop {
            match rx.recv_timeout(Duration::from_millis(500)) {
                Ok((g, output)) => {
                    waiting.insert(g, output);
                    write_ready(&mut waiting, &mut summary)?;
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if last_report.elapsed() >= every {
                last_report = Instant::now();
                report(progress, &summary, total, start.elapsed())?;
            }
        }
        write_ready(&mut waiting, &mut summary)
    })?;
    summary.elapsed = start.elapsed();
    report(progress, &summary, total, summary.elapsed)?;
    Ok(summary)
}

fn report(out: &mut dyn Write, s: &Summary, jobs: u64, elapsed: Duration) -> io::Result<()> {
    let secs = elapsed.as_secs_f64().max(1e-9);
    let left = if s.games == 0 {
        f64::NAN
    } else {
        secs * jobs.saturating_sub(s.games) as f64 / s.games as f64
    };
    writeln!(
        out,
        "{}/{} games, {} positions written ({} duplicates), {:.0} positions/s, {:.0} games/min, about {} left",
        s.games,
        jobs,
        s.written,
        s.duplicates,
        s.written as f64 / secs,
        s.games as f64 * 60.0 / secs,
        if left.is_finite() {
            format!("{}m{:02}s", (left / 60.0) as u64, (left % 60.0) as u64)
        } else {
            "?".to_string()
        }
    )?;
    out.flush()
}
