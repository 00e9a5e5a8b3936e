//! The engine behind every protocol: the options, the search thread, the opening book and
//! the clock arithmetic. Protocol front ends ([`crate::uci`], [`crate::ucci`],
//! [`crate::cecp`]) turn lines into calls here and write the answers in their own words;
//! this module reads and writes no protocol text.
//!
//! The calling thread never waits on the search except where a protocol asks for it
//! ([`Core::sync`] for queued option changes, [`Core::stop_and_wait`] before a new search).

use crate::options::{Change, Options};
use crate::tablebase;
use crate::worker::{self, Configure, Flags, Job, Report, SearchJob, Shared};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use xiangqi_core::{Game, Move, Position};
use xiangqi_search::{Clock, Limits, StopHandle, TtProbe};

/// Where the engine writes its lines (stdout in the binary, a buffer in tests).
pub type Sink = Arc<dyn Fn(&str) + Send + Sync>;

/// The engine's name, as every protocol gives it.
pub const NAME: &str = concat!("xiangqi-engine ", env!("CARGO_PKG_VERSION"));
/// The authors.
pub const AUTHOR: &str = "the xiangqi workspace authors";

/// How long to wait for the search thread to hand over something it was asked for.
const PATIENCE: Duration = Duration::from_secs(60);

/// How long `isready` (CECP `ping`) waits for the default folder's tables: the starter
/// set takes seconds to generate on a first run (longer under an emulator, or beside a
/// match on every core), and a GUI that waits much longer for `readyok` may give the engine
/// up. Past this the engine answers and searches without them until they come.
const TABLE_PATIENCE: Duration = Duration::from_secs(60);

/// How long `isready` waits for the default folder's tables without a word: opening tables
/// already there takes milliseconds, and a GUI is told nothing about it.
const QUIET_WAIT: Duration = Duration::from_secs(1);

/// The default folder's tables being made ready on their own thread: what `isready` and
/// `ping` wait on, so that the first search after them already probes the tables (a lone
/// chariot against a full defence is a draw, which a search without the table misjudges).
#[derive(Default)]
struct Preparing {
    state: Mutex<Prepared>,
    done: Condvar,
}

/// The state behind [`Preparing`].
#[derive(Default)]
struct Prepared {
    /// The number of the tablebase choice (see [`Job::Tablebase`]) still being prepared.
    pending: Option<u64>,
    /// How the latest preparation ended (what to tell the GUI: the tables, or why none),
    /// not yet told.
    outcome: Option<Result<String, String>>,
}

/// The protocol-independent engine.
pub struct Core {
    /// Every option's value.
    pub options: Options,
    out: Sink,
    jobs: Option<mpsc::Sender<Job>>,
    shared: Arc<Shared>,
    worker: Option<JoinHandle<()>>,
    /// Varies the opening book's choice from game to game.
    book_seed: u64,
    /// The number of the latest tablebase choice (see [`Job::Tablebase`]).
    tablebase_choice: Arc<AtomicU64>,
    /// Whether the default folder is the latest choice (opened, or being prepared).
    default_tables: bool,
    /// The default folder's tables in preparation, for [`Core::wait_for_tables`].
    preparing: Arc<Preparing>,
}

impl Core {
    /// An engine writing to `out`, its search thread started.
    pub fn new(out: Sink) -> Core {
        let shared = Arc::new(Shared::default());
        let (tx, rx) = mpsc::channel::<Job>();
        let worker = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("search".into())
                .stack_size(64 << 20)
                .spawn(move || worker::worker(rx, shared))
                .ok()
        };
        Core {
            options: Options::default(),
            out,
            jobs: worker.is_some().then_some(tx),
            shared,
            worker,
            book_seed: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64),
            tablebase_choice: Arc::new(AtomicU64::new(0)),
            default_tables: false,
            preparing: Arc::default(),
        }
    }

    /// Attaches the tablebases the options ask for (at start: the default folder, in the
    /// background). Returns messages for the GUI.
    ///
    /// # Errors
    /// A message when a folder the GUI named cannot be opened: the tables in use stay.
    pub fn start_tablebase(&mut self) -> Result<Vec<String>, String> {
        let next = |choice: &AtomicU64| choice.fetch_add(1, Ordering::SeqCst) + 1;
        let wanted_default = self.options.use_egtb && self.options.egtb_path.is_empty();
        if !wanted_default {
            // Another choice (if it stands): nothing of the default folder to wait for.
            let mut p = lock(&self.preparing.state);
            p.pending = None;
            p.outcome = None;
            self.preparing.done.notify_all();
        }
        if !self.options.use_egtb {
            self.default_tables = false;
            self.send(Job::Tablebase(None, next(&self.tablebase_choice)));
            return Ok(vec!["endgame tablebases off".to_string()]);
        }
        if !self.options.egtb_path.is_empty() {
            let tb = tablebase::open(&self.options.egtb_path)?;
            let note = format!("endgame tablebases: {}", tablebase::describe(&tb));
            self.default_tables = false;
            self.send(Job::Tablebase(Some(tb), next(&self.tablebase_choice)));
            return Ok(vec![note]);
        }
        // The default folder: opened, after generating the starter set if need be, on a
        // thread of its own; the tables join the searcher when they are ready. GUIs send
        // every option at start: the default chosen again changes nothing.
        let dir = xiangqi_egtb::default_dir();
        let note = format!(
            "endgame tablebases: {} (the starter set is generated there in the background if missing)",
            dir.display()
        );
        if self.default_tables {
            return Ok(vec![note]);
        }
        self.default_tables = true;
        let number = next(&self.tablebase_choice);
        if let Some(jobs) = self.jobs.clone() {
            let choice = Arc::clone(&self.tablebase_choice);
            let preparing = Arc::clone(&self.preparing);
            *lock(&preparing.state) = Prepared {
                pending: Some(number),
                outcome: None,
            };
            let spawned = std::thread::Builder::new()
                .name("tablebases".into())
                .spawn(move || {
                    // A folder that cannot be had leaves the engine without tables; the
                    // engine plays on, and the next `isready` says why.
                    let opened = tablebase::open_default(&dir);
                    let outcome = match opened {
                        Ok(tb) => {
                            let told =
                                format!("endgame tablebases ready: {}", tablebase::describe(&tb));
                            // Sent before the waiters are woken: their `sync` then queues
                            // behind it, so the tables are attached when `readyok` goes out.
                            if choice.load(Ordering::SeqCst) == number {
                                let _ = jobs.send(Job::Tablebase(Some(tb), number));
                            }
                            Ok(told)
                        }
                        Err(e) => Err(format!("no endgame tablebases: {e}")),
                    };
                    let mut p = lock(&preparing.state);
                    if p.pending == Some(number) {
                        p.pending = None;
                        p.outcome = Some(outcome);
                    }
                    preparing.done.notify_all();
                });
            if spawned.is_err() {
                *lock(&self.preparing.state) = Prepared::default();
                return Err("cannot start the tablebase thread".to_string());
            }
        }
        Ok(vec![note])
    }

    /// Waits (at most [`TABLE_PATIENCE`]) until the default folder's tables, opened or first
    /// generated in the background, are attached to the searcher: `isready` and CECP's
    /// `ping` call this, so that a GUI that waits for their answer, as GUIs do before a
    /// game, gets a first search that already uses the tables. `note` gets what the GUI is
    /// told (as the protocol words a comment). Tables already there open within
    /// [`QUIET_WAIT`] and nothing is said; a longer wait (a first run generating the starter
    /// set) is announced, and its end told with the time waited. A preparation that failed
    /// is told once, whether waited for or not.
    pub fn wait_for_tables(&self, note: &mut dyn FnMut(&str)) {
        let start = Instant::now();
        let mut p = lock(&self.preparing.state);
        let mut announced = false;
        while p.pending.is_some() {
            let elapsed = start.elapsed();
            if elapsed >= TABLE_PATIENCE {
                break;
            }
            if elapsed >= QUIET_WAIT && !announced {
                announced = true;
                note(&format!(
                    "waiting for the endgame tablebases in {} (on a first run the starter set is generated there: a few seconds)",
                    xiangqi_egtb::default_dir().display()
                ));
            }
            let until = if announced {
                TABLE_PATIENCE
            } else {
                QUIET_WAIT
            };
            p = match self
                .preparing
                .done
                .wait_timeout(p, until.saturating_sub(elapsed))
            {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
        let pending = p.pending.is_some();
        let outcome = match p.outcome.take() {
            Some(Ok(_)) if !announced => None,
            other => other,
        };
        drop(p);
        if pending {
            note(&format!(
                "endgame tablebases not ready after {} s: searching without them until they are",
                TABLE_PATIENCE.as_secs()
            ));
        } else if let Some(Ok(told) | Err(told)) = outcome {
            note(&format!(
                "{told} ({:.1} s waited)",
                start.elapsed().as_secs_f64()
            ));
        }
        self.sync();
    }

    /// Writes one line (or several, separated by newlines) to the GUI.
    pub fn say(&self, line: &str) {
        (self.out)(line);
    }

    /// The sink, for a [`Report`] that writes from the search thread.
    pub fn sink(&self) -> Sink {
        Arc::clone(&self.out)
    }

    fn send(&self, job: Job) -> bool {
        self.jobs.as_ref().is_some_and(|tx| tx.send(job).is_ok())
    }

    /// Is a search running (or its end not yet reported)?
    pub fn searching(&self) -> bool {
        self.shared.lock().searching
    }

    /// Starts searching the current position of `game` (the search thread reports to
    /// `report`). `hold` keeps the end back until [`Core::stop`] (or, when pondering,
    /// [`Core::ponderhit`]). Any running search is stopped first.
    ///
    /// # Errors
    /// When there is no search thread: nothing is searched, and the report is dropped.
    pub fn search(
        &mut self,
        game: &Game,
        limits: Limits,
        hold: bool,
        report: Box<dyn Report>,
    ) -> Result<(), &'static str> {
        self.stop_and_wait();
        if self.jobs.is_none() {
            return Err("no search thread; cannot search");
        }
        {
            let mut f = self.shared.lock();
            f.searching = true;
            f.stop = false;
            f.ponderhit = false;
            f.handle = None;
        }
        let job = SearchJob {
            game: if self.options.sixty_move_rule {
                game.clone()
            } else {
                worker::without_move_limit(game)
            },
            limits,
            hold,
            report,
        };
        if !self.send(Job::Search(Box::new(job))) {
            self.shared.lock().searching = false;
            return Err("the search thread has stopped");
        }
        Ok(())
    }

    /// With `OwnBook` on, a move from the built-in book for `pos`, if it is in the book.
    pub fn book_move(&mut self, pos: &Position) -> Option<Move> {
        if !self.options.own_book {
            return None;
        }
        self.book_seed = self.book_seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        xiangqi_book::Book::builtin().pick(pos, self.book_seed)
    }

    /// Asks the running search, if any, to stop (and release a held end).
    pub fn stop(&self) {
        self.signal(|f| f.stop = true, StopHandle::stop);
    }

    /// The opponent played the move being pondered on: the search's clock starts.
    pub fn ponderhit(&self) {
        self.signal(|f| f.ponderhit = true, StopHandle::ponderhit);
    }

    /// Marks the flags of the running search (for a search not yet begun) and tells its
    /// stop handle (for one under way).
    fn signal(&self, mark: fn(&mut Flags), tell: fn(&StopHandle)) {
        let mut f = self.shared.lock();
        if f.searching {
            mark(&mut f);
            if let Some(h) = &f.handle {
                tell(h);
            }
            self.shared.changed.notify_all();
        }
    }

    /// Stops the running search (if any) and waits until its end is reported.
    pub fn stop_and_wait(&self) {
        self.stop();
        if self.worker.is_none() {
            return;
        }
        let mut f = self.shared.lock();
        while f.searching {
            f = self.shared.wait(f);
        }
    }

    /// Waits until the search thread has done every queued option change (a new hash table,
    /// say); returns at once while a search runs.
    pub fn sync(&self) {
        if !self.searching() {
            let (tx, rx) = mpsc::channel();
            if self.send(Job::Sync(tx)) {
                let _ = rx.recv_timeout(PATIENCE);
            }
        }
    }

    /// Forgets what was learned (the hash table, histories) before a new game.
    pub fn new_game(&self) {
        self.send(Job::Configure(
            Box::new(|s| s.new_game()),
            Box::new(self.options.clone()),
        ));
    }

    /// Sets an option by name (see [`Options::set`]) and passes the change to the searcher.
    /// Returns messages for the GUI (a value adjusted, the strength level chosen).
    ///
    /// # Errors
    /// A message when the option is unknown or the value unusable; nothing changed.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<Vec<String>, String> {
        let before = self.options.clone();
        let (change, note) = self.options.set(name, value)?;
        let mut notes: Vec<String> = note.into_iter().collect();
        if change == Change::Tablebase {
            match self.start_tablebase() {
                Ok(more) => notes.extend(more),
                Err(e) => {
                    // Refused as a bad net file is: the option and the tables stay.
                    self.options = before;
                    return Err(e);
                }
            }
        }
        if change == Change::Strength {
            let levels = xiangqi_search::Level::all();
            notes.push(
                match self.options.level_index(levels.len()).map(|i| levels[i]) {
                    Some(l) => format!("strength level {}: {}", l.name, l.description),
                    None => "full strength".to_string(),
                },
            );
        }
        if change == Change::Evaluator {
            notes.push(if self.options.use_nnue {
                format!("evaluation: NNUE, net {}", self.options.eval_file)
            } else {
                format!(
                    "evaluation: hand-written (net {} loaded; Use NNUE switches to it)",
                    self.options.eval_file
                )
            });
        }
        let o = self.options.clone();
        let job: Option<Configure> = match change {
            Change::Nothing => None,
            Change::Hash => Some(Box::new(move |s| s.set_hash_size(o.hash_mb))),
            Change::Threads => Some(Box::new(move |s| s.set_threads(o.threads))),
            Change::MultiPv => Some(Box::new(move |s| s.set_multipv(o.multipv))),
            Change::Tunables => Some(Box::new(move |s| {
                let mut params = s.params().clone();
                params.tune = o.tunables;
                s.set_params(params);
            })),
            Change::Strength => Some(Box::new(move |s| worker::apply_strength(s, &o))),
            Change::Rules => Some(Box::new(move |s| worker::apply_rules(s, &o))),
            Change::Evaluator => Some(Box::new(move |s| worker::apply_evaluator(s, &o))),
            Change::ClearHash | Change::NewGame => Some(Box::new(|s| s.new_game())),
            Change::Tablebase => None,
        };
        if let Some(job) = job {
            if !self.send(Job::Configure(job, Box::new(self.options.clone()))) {
                notes.push("the search thread has stopped".to_string());
            }
        }
        Ok(notes)
    }

    /// What the hash table holds for `pos` (read-only; also while a search runs).
    pub fn probe(&self, pos: &Position) -> Option<TtProbe> {
        let mut f = self.shared.lock();
        // A search just sent may not have begun: its table comes when it does.
        while f.searching && f.table.is_none() && self.worker.is_some() {
            f = self.shared.wait(f);
        }
        let running = f.table.clone();
        drop(f);
        let table = match running {
            Some(t) => t,
            None => {
                let (tx, rx) = mpsc::channel();
                if !self.send(Job::Table(tx)) {
                    return None;
                }
                rx.recv_timeout(PATIENCE).ok()?
            }
        };
        table.probe(pos)
    }

    /// A clock for the search from a protocol's figures (milliseconds), `Move Overhead`
    /// taken off the time left: once, and with moves to go (a control without increment,
    /// where nothing refills the clock) once more for each of them, since the GUI's lag is
    /// paid on every move before the control.
    pub fn clock(&self, time_ms: u64, increment_ms: u64, moves_to_go: Option<u32>) -> Clock {
        clock_after_overhead(
            self.options.move_overhead_ms,
            time_ms,
            increment_ms,
            moves_to_go,
        )
    }

    /// Stops any search, lets the search thread finish, and joins it. Idempotent.
    pub fn shutdown(&mut self) {
        self.stop_and_wait();
        self.jobs = None; // Closing the channel ends the worker's loop.
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }
}

impl Drop for Core {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Locks `m`, going on with the data when a thread panicked holding it (the state is a
/// plain record, whole at every point).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn clock_after_overhead(
    overhead_ms: u64,
    time_ms: u64,
    increment_ms: u64,
    moves_to_go: Option<u32>,
) -> Clock {
    let moves = match moves_to_go {
        Some(n) if increment_ms == 0 => 1 + u64::from(n),
        _ => 1,
    };
    Clock {
        time: Duration::from_millis(time_ms.saturating_sub(overhead_ms.saturating_mul(moves))),
        increment: Duration::from_millis(increment_ms),
        moves_to_go,
    }
}

/// The longest one move may take under `clock` when moves to the control are given: twice
/// an even share of what is left. The search's own plan may stretch a move to several times
/// its share when the best move is unsettled; before a control without increment that
/// borrows from the moves still to play, so this caps it. `None` for other clocks.
pub fn move_cap(clock: &Clock) -> Option<Duration> {
    let n = clock.moves_to_go?.max(1);
    Some((clock.time / n).saturating_mul(2).min(clock.time) + clock.increment)
}

/// Sets `limits` to play by `clock`, with the cap of [`move_cap`].
pub fn play_by(limits: &mut Limits, clock: Clock) {
    if let Some(cap) = move_cap(&clock) {
        limits.movetime = Some(limits.movetime.map_or(cap, |t| t.min(cap)));
    }
    limits.clock = Some(clock);
}

/// Whether `limits` set no bound at all (a bare `go`): such a search runs until stopped.
pub fn unbounded(limits: &Limits) -> bool {
    limits.depth.is_none()
        && limits.nodes.is_none()
        && limits.movetime.is_none()
        && limits.clock.is_none()
        && limits.mate.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overhead_is_kept_back_per_move_before_a_control() {
        let ms = Duration::from_millis;
        // Increment: once.
        assert_eq!(clock_after_overhead(10, 1000, 10, None).time, ms(990));
        assert_eq!(clock_after_overhead(10, 1000, 10, Some(5)).time, ms(990));
        // 10 s for 40 moves, 15 to go: 16 times.
        let c = clock_after_overhead(10, 10_000, 0, Some(15));
        assert_eq!((c.time, c.moves_to_go), (ms(9_840), Some(15)));
        // Never below zero.
        assert_eq!(clock_after_overhead(100, 50, 0, Some(40)).time, ms(0));
    }

    #[test]
    fn a_move_before_a_control_takes_at_most_twice_its_share() {
        let ms = Duration::from_millis;
        let clock = |time, moves_to_go| Clock {
            time: ms(time),
            increment: ms(0),
            moves_to_go,
        };
        assert_eq!(move_cap(&clock(3000, Some(15))), Some(ms(400)));
        assert_eq!(move_cap(&clock(3000, Some(1))), Some(ms(3000)));
        assert_eq!(move_cap(&clock(3000, None)), None);
        let mut limits = Limits {
            movetime: Some(ms(100)),
            ..Limits::default()
        };
        play_by(&mut limits, clock(3000, Some(15)));
        assert_eq!(limits.movetime, Some(ms(100)));
        let mut limits = Limits::default();
        play_by(&mut limits, clock(3000, Some(15)));
        assert_eq!(
            (limits.movetime, limits.clock),
            (Some(ms(400)), Some(clock(3000, Some(15))))
        );
    }
}
