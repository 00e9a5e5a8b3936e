//! The engine thread. The search never runs on the thread that reads the player's input:
//! it runs here, reports progress through the event channel, and is stopped from outside
//! with its [`StopHandle`].

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use xiangqi::core::{Game, RuleSet};
use xiangqi::nnue::EvalChoice;
use xiangqi::search::{Info, Level, Limits, SearchResult, StopHandle, Tablebase};

/// The game's engine, with the default evaluator (the net).
type Searcher = xiangqi::search::Searcher<EvalChoice>;

/// Why a search was started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The computer chooses its move.
    Move,
    /// A hint for the player.
    Hint,
}

/// A request to the engine thread.
pub enum Request {
    /// Search `game`'s current position.
    Think {
        /// Identifies the answers.
        id: u64,
        /// The game so far (its history counts for repetitions).
        game: Box<Game>,
        /// When to stop.
        limits: Box<Limits>,
        /// Play at this strength level (`None`: full strength, e.g. for hints).
        level: Option<Level>,
        /// The rules that judge repetitions in the search.
        rules: RuleSet,
    },
    /// A new game: forget what was learned.
    NewGame,
}

/// Which endgame tablebases the engine uses (at full strength: hints, and `--depth`,
/// `--nodes`, `--movetime`; the levels play without).
pub enum Tables {
    /// The cache folder (`xiangqi_egtb::default_dir`), with the starter set generated there
    /// in the background if it is missing.
    Default,
    /// A folder of tables.
    Dir(PathBuf),
    /// None.
    Off,
}

/// What the engine thread reports.
pub enum Report {
    /// Progress of search `id`.
    Info(u64, Info),
    /// Search `id` is over.
    Done(u64, SearchResult),
}

/// The strength levels, weakest first (the search crate's; the last is full strength).
pub fn levels() -> &'static [Level] {
    Level::all()
}

/// The running engine thread.
pub struct Engine {
    requests: Sender<Request>,
    stop: StopHandle,
    /// Set by [`Engine::stop`], cleared when a search is requested: the search clears its
    /// own stop flag when it starts, so a stop that arrives before that is repeated from
    /// the progress callback.
    stop_wanted: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Engine {
    /// Starts the engine thread with `threads` search threads and a `hash_mb` MiB
    /// transposition table; its reports go to `reports`, wrapped by `wrap`.
    pub fn start<T: Send + 'static>(
        reports: Sender<T>,
        wrap: fn(Report) -> T,
        threads: usize,
        hash_mb: usize,
        tables: Tables,
    ) -> Engine {
        let (requests, inbox) = mpsc::channel::<Request>();
        // The tables join when they are open (generating the starter set takes seconds),
        // through a channel of their own, so that the game's end never waits for them; a
        // folder that cannot be read leaves the game without them.
        let (tables_tx, tables_rx) = mpsc::channel::<Arc<Tablebase>>();
        let dir = match tables {
            Tables::Default => Some((xiangqi_egtb::default_dir(), true)),
            Tables::Dir(dir) => Some((dir, false)),
            Tables::Off => None,
        };
        if let Some((dir, starter)) = dir {
            thread::spawn(move || {
                let opened = if starter {
                    xiangqi_egtb::open_with_starter(&dir, &mut |_| {}).ok()
                } else {
                    Tablebase::open(&dir).ok()
                };
                if let Some(tb) = opened {
                    let _ = tables_tx.send(Arc::new(tb));
                }
            });
        }
        let (handle_tx, handle_rx) = mpsc::channel();
        let stop_wanted = Arc::new(AtomicBool::new(false));
        let wanted = Arc::clone(&stop_wanted);
        let thread = thread::Builder::new()
            .name("engine".into())
            .spawn(move || {
                let mut searcher = Searcher::with_evaluator(EvalChoice::default());
                searcher.set_hash_size(hash_mb);
                searcher.set_threads(threads);
                run(searcher, inbox, tables_rx, reports, wrap, handle_tx, wanted)
            })
            .expect("start the engine thread");
        let stop = handle_rx
            .recv()
            .expect("the engine thread sends its stop handle");
        Engine {
            requests,
            stop,
            stop_wanted,
            thread: Some(thread),
        }
    }

    /// Sends a request.
    pub fn send(&self, request: Request) {
        if matches!(request, Request::Think { .. }) {
            self.stop_wanted.store(false, Ordering::SeqCst);
        }
        let _ = self.requests.send(request);
    }

    /// Asks the running search (if any) to stop now and report its best move.
    pub fn stop(&self) {
        self.stop_wanted.store(true, Ordering::SeqCst);
        self.stop.stop();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop.stop();
        // Closing the request channel ends the thread once the search returns.
        let (dummy, _) = mpsc::channel();
        drop(std::mem::replace(&mut self.requests, dummy));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn run<T>(
    mut searcher: Searcher,
    inbox: Receiver<Request>,
    tables: Receiver<Arc<Tablebase>>,
    reports: Sender<T>,
    wrap: fn(Report) -> T,
    handle: Sender<StopHandle>,
    stop_wanted: Arc<AtomicBool>,
) {
    // A different game each run at the levels with evaluation noise.
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    searcher.set_seed(seed);
    let _ = handle.send(searcher.stop_handle());
    while let Ok(request) = inbox.recv() {
        match request {
            Request::NewGame => searcher.new_game(),
            Request::Think {
                id,
                game,
                limits,
                level,
                rules,
            } => {
                if let Ok(tb) = tables.try_recv() {
                    searcher.set_tablebase(Some(tb));
                }
                searcher.set_level(level);
                searcher.set_rules(rules);
                let tx = reports.clone();
                let stop = searcher.stop_handle();
                let mut observer = |info: &Info| {
                    if stop_wanted.load(Ordering::SeqCst) {
                        stop.stop();
                    }
                    let _ = tx.send(wrap(Report::Info(id, info.clone())));
                };
                let result = searcher.search(&game, &limits, &mut observer);
                if reports.send(wrap(Report::Done(id, result))).is_err() {
                    return;
                }
            }
        }
    }
}
