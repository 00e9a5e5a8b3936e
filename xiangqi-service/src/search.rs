//! Engine requests: what to search (the game, a level or limits, MultiPV, the book), checked
//! against the limits, a searcher set up for it, and the answers. Running the search (on a
//! pooled engine and a blocking thread, or in a Web Worker) is the transport's part.

use crate::error::ApiError;
use crate::game::GameInput;
use crate::limits::RequestLimits;
use crate::view::{MoveView, ScoreView};
use serde::{Deserialize, Serialize};
use std::time::Duration;
use web_time::Instant;
use xiangqi_book::Book;
use xiangqi_core::{Game, Position, RuleSet};
use xiangqi_search::{Evaluator, Info, Level, Limits, SearchResult, Searcher};

/// The body of `/api/v1/move` and `/api/v1/analysis`.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct SearchRequest {
    /// The game.
    #[serde(flatten)]
    pub game: GameInput,
    /// A strength level by name (`beginner` .. `full`); see `/api/v1/info`.
    #[serde(default)]
    pub level: Option<String>,
    /// Search limits; the first reached ends the search.
    #[serde(default)]
    pub limits: LimitsInput,
    /// Lines to report (MultiPV), 1 by default.
    #[serde(default)]
    pub multipv: Option<usize>,
    /// Answer from the opening book where it has the position (default: yes for a move,
    /// no for an analysis).
    #[serde(default)]
    pub book: Option<bool>,
    /// Seed of the weaker levels' randomness and of the book's choice (random by default).
    #[serde(default)]
    pub seed: Option<u64>,
}

/// Search limits as a request gives them.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsInput {
    /// Depth in plies.
    pub depth: Option<u32>,
    /// Nodes.
    pub nodes: Option<u64>,
    /// Time in milliseconds.
    pub movetime_ms: Option<u64>,
}

/// What kind of request a search serves: the limits differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One engine move, answered when the search ends.
    Move,
    /// A stream of the search's progress.
    Analysis,
}

/// A search checked and ready to run.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The game whose current position is searched.
    pub game: Game,
    /// The limits (always with a time cap).
    pub limits: Limits,
    /// The level, if one was asked for.
    pub level: Option<Level>,
    /// MultiPV lines.
    pub multipv: usize,
    /// The rules for repetitions.
    pub rules: RuleSet,
    /// The seed.
    pub seed: u64,
    /// Use the book.
    pub book: bool,
}

/// Movetime of an engine move when neither the request nor its level limits the search.
pub const DEFAULT_MOVETIME: Duration = Duration::from_millis(1_000);

fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(Instant::now().elapsed().as_nanos());
    h.finish()
}

/// `Ok` when `value`, if given, is in `1..=max`; else the error naming `field`.
pub(crate) fn in_range(value: Option<u64>, field: &str, max: u64) -> Result<(), ApiError> {
    match value {
        Some(0) => Err(ApiError::invalid(
            "bad_limit",
            field,
            format!("{field} must be at least 1"),
        )),
        Some(v) if v > max => Err(ApiError::over_limit(field, v, max)),
        _ => Ok(()),
    }
}

impl SearchRequest {
    /// Checks the request against `limits` and replays its game.
    ///
    /// # Errors
    /// A 4xx naming the field at fault.
    pub fn prepare(&self, limits: &RequestLimits, kind: Kind) -> Result<Prepared, ApiError> {
        let level = match self.level.as_deref() {
            None => None,
            Some(name) => Some(Level::by_name(name).ok_or_else(|| {
                let names: Vec<&str> = Level::all().iter().map(|l| l.name).collect();
                ApiError::invalid(
                    "bad_level",
                    "level",
                    format!(
                        "no level is called {name:?}; the levels are {}",
                        names.join(", ")
                    ),
                )
            })?),
        };
        let l = &self.limits;
        let cap = match kind {
            Kind::Move => limits.max_movetime(),
            Kind::Analysis => limits.max_analysis(),
        };
        let cap_ms = u64::try_from(cap.as_millis()).unwrap_or(u64::MAX);
        in_range(
            l.depth.map(u64::from),
            "limits.depth",
            u64::from(limits.max_depth),
        )?;
        in_range(l.nodes, "limits.nodes", limits.max_nodes)?;
        in_range(l.movetime_ms, "limits.movetime_ms", cap_ms)?;
        let multipv = self.multipv.unwrap_or(1);
        if multipv == 0 {
            return Err(ApiError::invalid(
                "bad_multipv",
                "multipv",
                "multipv must be at least 1",
            ));
        }
        if multipv > limits.max_multipv {
            return Err(ApiError::over_limit("multipv", multipv, limits.max_multipv));
        }
        let game = self.game.build(limits)?;
        if !game.position().has_legal_move() {
            return Err(ApiError::invalid(
                "game_over",
                "moves",
                "the side to move has no legal move: the game is over",
            ));
        }
        let unlimited = l.depth.is_none()
            && l.nodes.is_none()
            && l.movetime_ms.is_none()
            && level.is_none_or(|lv| lv.depth.is_none() && lv.nodes.is_none());
        let movetime = match (l.movetime_ms, kind) {
            (Some(ms), _) => Duration::from_millis(ms),
            (None, Kind::Move) if unlimited => DEFAULT_MOVETIME,
            // Every search ends by the server's cap at the latest.
            (None, _) => cap,
        };
        let limits = Limits {
            depth: l.depth,
            nodes: l.nodes,
            movetime: Some(movetime),
            ..Limits::default()
        };
        Ok(Prepared {
            game,
            limits,
            level,
            multipv,
            rules: self.game.rule_set(),
            seed: self.seed.unwrap_or_else(random_seed),
            book: self.book.unwrap_or(kind == Kind::Move) && multipv == 1,
        })
    }
}

/// One line of the search's progress, as the API writes it.
#[derive(Clone, Debug, Serialize)]
pub struct InfoView {
    /// Iteration depth.
    pub depth: u32,
    /// Selective depth.
    pub seldepth: u32,
    /// The line's rank (1 = best).
    pub multipv: usize,
    /// The score.
    pub score: ScoreView,
    /// Nodes so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition table use, per mille.
    pub hashfull: u32,
    /// Milliseconds since the search began.
    pub time_ms: u64,
    /// The principal variation.
    pub pv: Vec<MoveView>,
}

impl InfoView {
    /// The view of `info` for a search of `pos`.
    pub fn new(pos: &Position, info: &Info) -> InfoView {
        InfoView {
            depth: info.depth,
            seldepth: info.seldepth,
            multipv: info.multipv,
            score: ScoreView::new(info.score, pos.side_to_move()),
            nodes: info.nodes,
            nps: info.nps,
            hashfull: info.hashfull,
            time_ms: u64::try_from(info.time.as_millis()).unwrap_or(u64::MAX),
            pv: crate::view::line(pos, &info.pv),
        }
    }
}

/// The last report of every MultiPV line, kept as a search goes for its answer.
#[derive(Clone, Debug, Default)]
pub struct Lines(Vec<InfoView>);

impl Lines {
    /// Keeps `view` as its line's latest report.
    pub fn record(&mut self, view: InfoView) {
        match self.0.iter_mut().find(|l| l.multipv == view.multipv) {
            Some(l) => *l = view,
            None => self.0.push(view),
        }
    }

    /// The lines, best first.
    pub fn into_sorted(mut self) -> Vec<InfoView> {
        self.0.sort_by_key(|l| l.multipv);
        self.0
    }
}

/// A book move as the API writes it.
#[derive(Clone, Debug, Serialize)]
pub struct BookView {
    /// The move.
    #[serde(rename = "move")]
    pub mv: MoveView,
    /// Master games that played it here.
    pub games: u16,
    /// The score of the side that played it, per mille.
    pub score_permille: u16,
}

/// The book's moves for `pos`, most played first.
pub fn book_moves(pos: &Position) -> Vec<BookView> {
    let mut moves: Vec<BookView> = Book::builtin()
        .moves(pos)
        .into_iter()
        .filter(|e| pos.is_legal(e.mv))
        .map(|e| BookView {
            mv: MoveView::new(pos, e.mv),
            games: e.games,
            score_permille: e.score_permille,
        })
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.games));
    moves
}

/// The answer to an engine move: the move, its score and line.
#[derive(Clone, Debug, Serialize)]
pub struct MoveAnswer {
    /// The move to play.
    pub best_move: MoveView,
    /// The expected reply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ponder: Option<MoveView>,
    /// `search` or `book`.
    pub source: &'static str,
    /// The score (absent for a book move).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<ScoreView>,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds spent.
    pub time_ms: u64,
    /// The principal variation.
    pub pv: Vec<MoveView>,
    /// With MultiPV: the last report of every line, best first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<InfoView>,
    /// For a book move: every book move of the position.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub book: Vec<BookView>,
}

impl Prepared {
    /// The book's answer, when the book is asked and has the position.
    pub fn book_answer(&self) -> Option<MoveAnswer> {
        if !self.book {
            return None;
        }
        let pos = self.game.position();
        let m = Book::builtin()
            .pick(pos, self.seed)
            .filter(|&m| pos.is_legal(m))?;
        Some(MoveAnswer {
            best_move: MoveView::new(pos, m),
            ponder: None,
            source: "book",
            score: None,
            depth: 0,
            nodes: 0,
            time_ms: 0,
            pv: vec![MoveView::new(pos, m)],
            lines: Vec::new(),
            book: book_moves(pos),
        })
    }

    /// The answer made of a finished search.
    pub fn answer(
        &self,
        result: &SearchResult,
        time: Duration,
        lines: Vec<InfoView>,
    ) -> Option<MoveAnswer> {
        let pos = self.game.position();
        let best = result.best_move?;
        Some(MoveAnswer {
            best_move: MoveView::new(pos, best),
            ponder: result
                .ponder_move
                .and_then(|p| pos.after(best).ok().map(|after| MoveView::new(&after, p))),
            source: "search",
            score: Some(ScoreView::new(result.score, pos.side_to_move())),
            depth: result.depth,
            nodes: result.nodes,
            time_ms: u64::try_from(time.as_millis()).unwrap_or(u64::MAX),
            pv: crate::view::line(pos, &result.pv),
            lines,
            book: Vec::new(),
        })
    }

    /// Sets `searcher` up for this request: one thread, the MultiPV lines, the level, the
    /// rules and the seed.
    pub fn configure<E: Evaluator>(&self, searcher: &mut Searcher<E>) {
        searcher.set_threads(1);
        searcher.set_multipv(self.multipv);
        // The `full` level limits nothing: it is full strength, which plays with the
        // endgame tables (a searcher with a level plays without).
        searcher.set_level(self.level.filter(|l| !is_full_strength(l)));
        searcher.set_rules(self.rules);
        searcher.set_seed(self.seed);
    }

    /// Runs the search on `searcher` on this thread, calling `observer` with each report;
    /// it returns `false` to stop the search. With `cancelled`, the request went away
    /// before the search began: the shortest search that still gives a result runs.
    pub fn run<E: Evaluator>(
        &self,
        searcher: &mut Searcher<E>,
        cancelled: bool,
        mut observer: impl FnMut(&Position, &Info) -> bool,
    ) -> (SearchResult, Duration) {
        let begun = Instant::now();
        self.configure(searcher);
        let stop = searcher.stop_handle();
        let pos = self.game.position().clone();
        let mut limits = self.limits.clone();
        if cancelled {
            limits.depth = Some(1);
        }
        let result = searcher.search(&self.game, &limits, &mut |info: &Info| {
            if !observer(&pos, info) {
                stop.stop();
            }
        });
        (result, begun.elapsed())
    }
}

/// Whether `level` limits nothing (the `full` level): the same as no level.
fn is_full_strength(level: &Level) -> bool {
    level.depth.is_none() && level.nodes.is_none() && level.noise == 0
}
