//! `review()`: a game review (复盘) by the engine, move by move, as `xiangqi-search`'s
//! `review` judges it, with the annotated record (NAGs, comments and the better lines, by
//! `xiangqi-service`'s `annotate`, so that the PGN is the one the web board and the
//! command-line example write).

use crate::board::Board;
use crate::engine::{limits, lock, Engine};
use crate::errors::value_error;
use crate::moves::Move;
use crate::outcome::rules_arg;
use crate::records::{pgn_text, Game};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use xiangqi_core::Color;
use xiangqi_nnue::EvalChoice;
use xiangqi_records::{GameTree, Record};
use xiangqi_search::review::{self as core_review, ReviewOptions, SideSummary as CoreSummary};

/// The review of one move.
#[pyclass(module = "xiangqi_rs", frozen)]
#[derive(Clone)]
pub struct MoveReview {
    /// The move's ply, from 1.
    #[pyo3(get)]
    ply: usize,
    /// The mover's colour (`RED` is `True`).
    #[pyo3(get)]
    color: bool,
    /// The move played.
    #[pyo3(get, name = "move")]
    played: Move,
    /// The engine's move in the position before, if its search had one.
    #[pyo3(get)]
    best: Option<Move>,
    /// The engine's line from the position before, starting with `best`.
    #[pyo3(get)]
    best_line: Vec<Move>,
    /// The position before the move, in centipawns for the mover (mates near ±30000).
    #[pyo3(get)]
    score_before: i32,
    /// Mate in this many moves before the move (negative: the mover is mated), else `None`.
    #[pyo3(get)]
    mate_before: Option<i32>,
    /// The position after the move, in centipawns for the opponent (the side to move there).
    #[pyo3(get)]
    score_after: i32,
    /// Mate in this many moves after the move, for the opponent, else `None`.
    #[pyo3(get)]
    mate_after: Option<i32>,
    /// Win% points the mover gave away (0 or more; 0 for the engine's move).
    #[pyo3(get)]
    loss: f64,
    /// Centipawns the mover gave away (scores capped at ±1000; 0 or more).
    #[pyo3(get)]
    cp_loss: i32,
    /// `"best"`, `"good"`, `"inaccuracy"`, `"mistake"` or `"blunder"`.
    #[pyo3(get)]
    classification: &'static str,
    /// The NAG: 6 (`?!`), 2 (`?`), 4 (`??`); `None` for a best or good move.
    #[pyo3(get)]
    nag: Option<u8>,
    /// The depth of the search of the position before.
    #[pyo3(get)]
    depth: u32,
}

impl From<&core_review::MoveReview> for MoveReview {
    fn from(m: &core_review::MoveReview) -> MoveReview {
        MoveReview {
            ply: m.ply,
            color: m.mover == Color::Red,
            played: Move(m.played),
            best: m.before.best.map(Move),
            best_line: m.before.line.iter().copied().map(Move).collect(),
            score_before: m.before.score.0,
            mate_before: m.before.score.mate_moves(),
            score_after: m.after.score.0,
            mate_after: m.after.score.mate_moves(),
            loss: m.loss,
            cp_loss: m.cp_loss,
            classification: m.class.name(),
            nag: m.class.nag(),
            depth: m.before.depth,
        }
    }
}

#[pymethods]
impl MoveReview {
    fn __repr__(&self) -> String {
        let nag = match self.nag {
            Some(6) => "?!",
            Some(2) => "?",
            Some(4) => "??",
            _ => "",
        };
        format!(
            "<MoveReview {} {}{} {} loss={:.1}>",
            self.ply, self.played.0, nag, self.classification, self.loss
        )
    }
}

/// A side's totals.
#[pyclass(module = "xiangqi_rs", frozen, get_all)]
#[derive(Clone)]
pub struct SideSummary {
    /// Moves reviewed.
    moves: usize,
    /// Mean win% loss per move.
    average_loss: f64,
    /// Mean centipawn loss per move.
    average_cp_loss: f64,
    /// Moves that were the engine's.
    best: usize,
    /// Other moves below an inaccuracy.
    good: usize,
    /// Inaccuracies.
    inaccuracies: usize,
    /// Mistakes.
    mistakes: usize,
    /// Blunders.
    blunders: usize,
}

impl From<CoreSummary> for SideSummary {
    fn from(s: CoreSummary) -> SideSummary {
        SideSummary {
            moves: s.moves,
            average_loss: s.average_loss,
            average_cp_loss: s.average_cp_loss,
            best: s.best,
            good: s.good,
            inaccuracies: s.inaccuracies,
            mistakes: s.mistakes,
            blunders: s.blunders,
        }
    }
}

#[pymethods]
impl SideSummary {
    fn __repr__(&self) -> String {
        format!(
            "<SideSummary moves={} average_loss={:.1} inaccuracies={} mistakes={} blunders={}>",
            self.moves, self.average_loss, self.inaccuracies, self.mistakes, self.blunders
        )
    }
}

/// A game's review: each move's judgement, each side's totals, and the record annotated.
#[pyclass(module = "xiangqi_rs", frozen)]
pub struct Review {
    moves: Vec<MoveReview>,
    red: SideSummary,
    black: SideSummary,
    complete: bool,
    thresholds: (f64, f64, f64),
    annotated: Record,
}

#[pymethods]
impl Review {
    /// Each move's review, in order (all of the main line's unless the review was stopped).
    #[getter]
    fn moves(&self) -> Vec<MoveReview> {
        self.moves.clone()
    }

    /// Red's totals.
    #[getter]
    fn red(&self) -> SideSummary {
        self.red.clone()
    }

    /// Black's totals.
    #[getter]
    fn black(&self) -> SideSummary {
        self.black.clone()
    }

    /// Whether every move was reviewed.
    #[getter]
    fn complete(&self) -> bool {
        self.complete
    }

    /// The losses (win% points) from which a move is an inaccuracy, a mistake, a blunder.
    #[getter]
    fn thresholds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("inaccuracy", self.thresholds.0)?;
        d.set_item("mistake", self.thresholds.1)?;
        d.set_item("blunder", self.thresholds.2)?;
        Ok(d)
    }

    /// The totals of `color` (`RED` or `BLACK`).
    fn summary(&self, color: bool) -> SideSummary {
        if color {
            self.red.clone()
        } else {
            self.black.clone()
        }
    }

    /// The record annotated: on each inaccuracy, mistake and blunder its NAG, a comment
    /// (`Blunder (-43%). Best: 车八平六 +7.48`) and the engine's line as a variation. A new
    /// `Game`; the reviewed one is unchanged.
    fn game(&self) -> Game {
        Game::from_record(self.annotated.clone(), Vec::new())
    }

    /// The annotated record as PGN text (moves in `notation`, as `Game.to_pgn`).
    #[pyo3(signature = (notation = None))]
    fn pgn(&self, notation: Option<&str>) -> PyResult<String> {
        pgn_text(std::slice::from_ref(&self.annotated), notation)
    }

    fn __repr__(&self) -> String {
        format!(
            "<Review {} moves{}: red {} blunders, black {}>",
            self.moves.len(),
            if self.complete { "" } else { " (stopped)" },
            self.red.blunders,
            self.black.blunders
        )
    }
}

/// The record `game` names: a `Game` (its main line), or a `Board` (its moves).
fn record_of(game: &Bound<'_, PyAny>) -> PyResult<Record> {
    if let Ok(g) = game.cast::<Game>() {
        return Ok(g.borrow().record.clone());
    }
    if let Ok(b) = game.cast::<Board>() {
        let mut record = Record::new(GameTree::from_game(&b.borrow().game));
        record.set_tag("Game", "Chinese Chess");
        return Ok(record);
    }
    Err(pyo3::exceptions::PyTypeError::new_err(
        "review() takes a Game (a record) or a Board",
    ))
}

/// Reviews every move of `game` (a `Game` record's main line, or a `Board`'s moves): the
/// engine searches each position once with the limits given (`depth` plies, `nodes`,
/// `movetime` seconds; depth 10 within 1 s when none is given) and classifies each move by
/// the win% it gave away against the engine's move: `inaccuracy` from 10 points, `mistake`
/// from 20, `blunder` from 30 (see `xiangqi_search::review` for the formula and why).
///
/// `engine` is the `Engine` to use (its threads, hash and evaluator; its rules become
/// `rules`), else a fresh one with the built-in net. `progress`, if given, is called with
/// each `MoveReview` as soon as it is known; an exception it raises (or a
/// KeyboardInterrupt, looked for after each move) stops the review and is raised here.
/// The GIL is released while searching.
#[pyfunction]
#[pyo3(signature = (game, depth = None, nodes = None, movetime = None, engine = None, rules = "asian", progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn review(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<f64>,
    engine: Option<PyRef<'_, Engine>>,
    rules: &str,
    progress: Option<Py<PyAny>>,
) -> PyResult<Review> {
    let rules = rules_arg(rules)?;
    let mut options = ReviewOptions {
        rules,
        ..ReviewOptions::default()
    };
    if depth.is_some() || nodes.is_some() || movetime.is_some() {
        options.limits = limits(depth, nodes, movetime, false, false)?;
    }
    let mut record = record_of(game)?;
    let played = record.main_game();
    let searcher = match &engine {
        Some(e) => Arc::clone(&e.searcher),
        None => Arc::new(Mutex::new({
            let mut s = xiangqi_search::Searcher::with_evaluator(EvalChoice::default());
            s.set_hash_size(16);
            s
        })),
    };
    drop(engine);
    let stop = AtomicBool::new(false);
    let mut failure: Option<PyErr> = None;
    let review = py.detach(|| {
        let mut s = lock(&searcher);
        s.set_rules(rules);
        s.set_multipv(1);
        core_review::review(&mut s, &played, &options, &stop, &mut |m| {
            Python::attach(|py| {
                let outcome = py.check_signals().and_then(|()| match &progress {
                    Some(callback) => callback.call1(py, (MoveReview::from(m),)).map(drop),
                    None => Ok(()),
                });
                if let Err(e) = outcome {
                    failure = Some(e);
                    stop.store(true, Ordering::SeqCst);
                }
            });
        })
    });
    if let Some(e) = failure {
        return Err(e);
    }
    xiangqi_service::review::annotate(&mut record.tree, &review)
        .map_err(|e| value_error(e.to_string()))?;
    let t = review.thresholds;
    Ok(Review {
        moves: review.moves.iter().map(MoveReview::from).collect(),
        red: review.summary(Color::Red).into(),
        black: review.summary(Color::Black).into(),
        complete: review.complete,
        thresholds: (t.inaccuracy, t.mistake, t.blunder),
        annotated: record,
    })
}
