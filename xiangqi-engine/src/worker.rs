//! The search thread: it owns the [`Searcher`], runs option changes and searches in order,
//! and hands progress and the final move to the search's [`Report`], which each protocol
//! writes in its own form. The main thread talks to it through a job channel and the shared
//! [`Flags`]. This module knows no protocol.

use crate::options::Options;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use xiangqi_core::{Game, Move, Position};
use xiangqi_eval::Score;
use xiangqi_nnue::EvalChoice;
use xiangqi_search::{Info, Limits, SearchResult, StopHandle, TableView, Tablebase};

/// The engine's searcher: the hand-written evaluator or the net, as the options say.
pub(crate) type Searcher = xiangqi_search::Searcher<EvalChoice>;

/// The end of a search as a protocol reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Finished {
    /// The move to play, checked legal (`None`: the side to move has none).
    pub(crate) best: Option<Move>,
    /// The expected reply, checked legal after `best`.
    pub(crate) ponder: Option<Move>,
    /// The score for the side to move.
    pub(crate) score: Score,
    /// The depth of the last completed iteration.
    pub(crate) depth: u32,
}

/// How a protocol writes a search's progress and end. Runs on the search thread.
pub(crate) trait Report: Send {
    /// One iteration's (or MultiPV line's) progress.
    fn info(&mut self, info: &Info);
    /// The search is over (after `stop`/`ponderhit` when it was held).
    fn finished(&mut self, end: &Finished);
    /// A message about something that went wrong, for the GUI's log.
    fn note(&mut self, text: &str);
}

/// What the GUI has asked of the running search, shared with the worker.
#[derive(Default)]
pub(crate) struct Flags {
    /// A search job has been sent and its `bestmove` not yet written.
    pub(crate) searching: bool,
    /// `stop` (or quit, or a new go) arrived for the current search.
    pub(crate) stop: bool,
    /// `ponderhit` arrived for the current search.
    pub(crate) ponderhit: bool,
    /// The stop handle of the search in progress.
    pub(crate) handle: Option<StopHandle>,
    /// A view of the table of the search in progress (for probes while it runs).
    pub(crate) table: Option<TableView>,
}

#[derive(Default)]
pub(crate) struct Shared {
    flags: Mutex<Flags>,
    pub(crate) changed: Condvar,
}

impl Shared {
    pub(crate) fn lock(&self) -> MutexGuard<'_, Flags> {
        // A poisoned lock only means another thread panicked while holding it; the flags
        // are plain values, so carry on with them.
        self.flags.lock().unwrap_or_else(|e| e.into_inner())
    }
    pub(crate) fn wait<'a>(&self, guard: MutexGuard<'a, Flags>) -> MutexGuard<'a, Flags> {
        self.changed.wait(guard).unwrap_or_else(|e| e.into_inner())
    }
}

/// A search to run.
pub(crate) struct SearchJob {
    /// The game whose current position is searched.
    pub(crate) game: Game,
    /// The limits.
    pub(crate) limits: Limits,
    /// Hold the end until `stop` (infinite) or `stop`/`ponderhit` (ponder).
    pub(crate) hold: bool,
    /// Where progress and the end go.
    pub(crate) report: Box<dyn Report>,
}

/// A change to the searcher, run on the search thread between searches.
pub(crate) type Configure = Box<dyn FnOnce(&mut Searcher) + Send>;

/// What the search thread is asked to do, in order.
pub(crate) enum Job {
    /// Search and write `bestmove`.
    Search(Box<SearchJob>),
    /// A change, with the options as they are after it (boxed: with the `tune` feature
    /// they hold every search constant, and the other jobs are small).
    Configure(Configure, Box<Options>),
    /// Answer when every job before this one is done.
    Sync(mpsc::Sender<()>),
    /// A view of the searcher's table goes back on the channel.
    Table(mpsc::Sender<TableView>),
    /// The endgame tablebases to use from now on (`None`: none), unless a later choice
    /// (a greater number) has already been applied: a folder opened in the background
    /// may finish after the GUI has named another.
    Tablebase(Option<Arc<Tablebase>>, u64),
}

/// Passes the strength options to the searcher.
pub(crate) fn apply_strength(s: &mut Searcher, o: &Options) {
    let levels = xiangqi_search::Level::all();
    s.set_level(o.level_index(levels.len()).map(|i| levels[i]));
}

/// The evaluator the options ask for.
pub(crate) fn evaluator(o: &Options) -> EvalChoice {
    if o.use_nnue {
        o.network.evaluator()
    } else {
        EvalChoice::classical()
    }
}

/// Passes `Use NNUE` and `EvalFile` to the searcher; the table's scores came from the old
/// evaluator, so it starts afresh.
pub(crate) fn apply_evaluator(s: &mut Searcher, o: &Options) {
    s.set_evaluator(evaluator(o));
    s.new_game();
}

/// Passes the rule options to the searcher.
pub(crate) fn apply_rules(s: &mut Searcher, o: &Options) {
    s.set_rules(o.repetition.rules());
}

/// Plies of history kept when the sixty-move rule is off (enough for any repetition cycle
/// that matters, and far from the 120-ply limit the search applies).
const HISTORY_WITHOUT_MOVE_LIMIT: usize = 60;

/// The game as the search should see it with the sixty-move rule off: the searcher always
/// applies the rule to the capture-free count, so the game is restarted at most
/// [`HISTORY_WITHOUT_MOVE_LIMIT`] plies back with that count set to zero.
pub(crate) fn without_move_limit(game: &Game) -> Game {
    let clock = game.position().halfmove_clock() as usize;
    if clock < HISTORY_WITHOUT_MOVE_LIMIT {
        return game.clone();
    }
    let keep = HISTORY_WITHOUT_MOVE_LIMIT.min(game.moves().len());
    let first = game.moves().len() - keep;
    let from = &game.positions()[first];
    let Ok(start) = from.to_setup().counters(0, from.fullmove_number()).build() else {
        return game.clone();
    };
    let mut restarted = Game::new(start);
    for &m in &game.moves()[first..] {
        if restarted.play(m).is_err() {
            return game.clone();
        }
    }
    restarted
}

pub(crate) fn worker(rx: mpsc::Receiver<Job>, shared: Arc<Shared>) {
    let mut searcher = Searcher::with_evaluator(evaluator(&Options::default()));
    // The options as last applied, to rebuild the searcher should it ever panic.
    let mut applied = Options::default();
    // The tablebases as last chosen, and the number of that choice.
    let mut tablebase: (Option<Arc<Tablebase>>, u64) = (None, 0);
    while let Ok(job) = rx.recv() {
        match job {
            Job::Configure(f, options) => {
                applied = *options;
                if catch_unwind(AssertUnwindSafe(|| f(&mut searcher))).is_err() {
                    // Nothing to report to: the next search says the searcher was rebuilt.
                    searcher = rebuilt(&applied);
                    searcher.set_tablebase(tablebase.0.clone());
                }
            }
            Job::Sync(tx) => {
                let _ = tx.send(());
            }
            Job::Table(tx) => {
                let _ = tx.send(searcher.table());
            }
            Job::Tablebase(tb, number) => {
                if number >= tablebase.1 {
                    searcher.set_tablebase(tb.clone());
                    tablebase = (tb, number);
                }
            }
            Job::Search(job) => {
                if !run_search(&mut searcher, *job, &shared) {
                    searcher = rebuilt(&applied);
                    searcher.set_tablebase(tablebase.0.clone());
                }
            }
        }
    }
}

/// A fresh searcher with `o` applied.
fn rebuilt(o: &Options) -> Searcher {
    let mut s = Searcher::with_evaluator(evaluator(o));
    s.set_hash_size(o.hash_mb);
    s.set_threads(o.threads);
    s.set_multipv(o.multipv);
    apply_strength(&mut s, o);
    apply_rules(&mut s, o);
    s
}

/// Runs one search and reports its end. Returns `false` if the search panicked (a legal
/// move is still played, so the GUI's game goes on).
fn run_search(searcher: &mut Searcher, job: SearchJob, shared: &Shared) -> bool {
    let SearchJob {
        game,
        mut limits,
        hold,
        mut report,
    } = job;
    let pondering = limits.ponder;
    let handle = searcher.stop_handle();
    {
        let mut f = shared.lock();
        // A stop or ponderhit that arrived before the search began must not be lost.
        if f.stop {
            limits = Limits {
                depth: Some(1),
                search_moves: limits.search_moves,
                ..Limits::default()
            };
        }
        if f.ponderhit {
            limits.ponder = false;
        }
        f.handle = Some(handle.clone());
        f.table = Some(searcher.table());
        // A probe may be waiting for the table.
        shared.changed.notify_all();
    }
    let pos = game.position().clone();
    let mut observer = |info: &xiangqi_search::Info| {
        report.info(info);
        // Repeat a stop/ponderhit in case the search reset its flags as it began.
        let f = shared.lock();
        if f.stop {
            handle.stop();
        }
        if f.ponderhit {
            handle.ponderhit();
        }
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        searcher.search(&game, &limits, &mut observer)
    }));
    let healthy = outcome.is_ok();
    let result = outcome.unwrap_or_else(|_| {
        report.note("internal error in the search; playing a legal move");
        SearchResult {
            best_move: None,
            ponder_move: None,
            score: xiangqi_eval::Score::ZERO,
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
            tbhits: 0,
        }
    });
    if let Some(e) = searcher.take_tablebase_error() {
        report.note(&format!("tablebase error, searched without tables: {e}"));
    }
    let (best, ponder) = checked_moves(&pos, &result, &limits, &mut *report);
    let mut f = shared.lock();
    while hold && !f.stop && !(pondering && f.ponderhit) {
        f = shared.wait(f);
    }
    report.finished(&Finished {
        best,
        ponder,
        score: result.score,
        depth: result.depth,
    });
    f.searching = false;
    f.handle = None;
    f.table = None;
    shared.changed.notify_all();
    healthy
}

/// The search's moves, checked: a best move that is not legal (or not among the allowed
/// root moves) is replaced by a legal one, and a ponder move must be legal after it.
fn checked_moves(
    pos: &Position,
    result: &SearchResult,
    limits: &Limits,
    report: &mut dyn Report,
) -> (Option<Move>, Option<Move>) {
    let allowed = |m: Move| {
        pos.is_legal(m) && (limits.search_moves.is_empty() || limits.search_moves.contains(&m))
    };
    let best = match result.best_move {
        Some(m) if allowed(m) => Some(m),
        other => {
            let fallback = pos.legal_moves().iter().copied().find(|&m| allowed(m));
            if other.is_some() || fallback.is_some() {
                report.note(&format!(
                    "the search gave {}; playing {} instead",
                    other.map_or("no move".to_string(), |m| m.to_string()),
                    fallback.map_or("nothing".to_string(), |m| m.to_string())
                ));
            }
            fallback
        }
    };
    let ponder = match (
        best,
        result.ponder_move.or_else(|| result.pv.get(1).copied()),
    ) {
        (Some(b), Some(p)) if result.best_move == Some(b) => match pos.after(b) {
            Ok(next) if next.is_legal(p) => Some(p),
            _ => None,
        },
        _ => None,
    };
    (best, ponder)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_move_limit_can_be_lifted() {
        // 118 plies without a capture: the horses go back and forth.
        let mut game = Game::new(Position::startpos());
        let cycle = ["b0c2", "b9c7", "c2b0", "c7b9"];
        for text in cycle.iter().cycle().take(118) {
            let m = game.position().parse_uci(text).unwrap();
            game.play(m).unwrap();
        }
        assert_eq!(game.position().halfmove_clock(), 118);
        let lifted = without_move_limit(&game);
        assert_eq!(lifted.position().board_fen(), game.position().board_fen());
        assert_eq!(
            lifted.position().halfmove_clock() as usize,
            HISTORY_WITHOUT_MOVE_LIMIT
        );
        assert_eq!(
            lifted.moves(),
            &game.moves()[118 - HISTORY_WITHOUT_MOVE_LIMIT..]
        );
        // Short games are left alone.
        let mut short = Game::new(Position::startpos());
        short
            .play(short.position().parse_uci("h2e2").unwrap())
            .unwrap();
        assert_eq!(without_move_limit(&short), short);
    }
}
