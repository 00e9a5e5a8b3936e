//! A fixed pool of engines behind a semaphore with a bounded wait queue.
//!
//! Memory stays bounded under any load: there are exactly [`Config::pool_size`] searchers,
//! each with its own transposition table made once at start-up; a request borrows one for
//! its search and gives it back. Requests beyond the pool wait (at most [`Config::queue`] of
//! them, for at most [`Config::queue_wait_ms`]); the rest are refused at once with `503`.
//! Once the server's endgame tables are open ([`Pool::set_tablebase`]), every engine lent
//! plays with them (at full strength: the weaker levels play without).

use crate::config::Config;
use crate::error::ApiError;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use xiangqi_nnue::EvalChoice;
use xiangqi_search::Tablebase;

/// The pool's searchers: the net by default, or what the flags chose ([`Config::evaluator`]).
type Searcher = xiangqi_search::Searcher<EvalChoice>;

/// The engine pool.
pub struct Pool {
    idle: Mutex<Vec<Searcher>>,
    permits: Arc<Semaphore>,
    waiting: AtomicUsize,
    running: AtomicUsize,
    queue: usize,
    wait: Duration,
    hash_mb: usize,
    /// The evaluator each new searcher gets a copy of (a net is shared, not copied).
    evaluator: EvalChoice,
    /// The endgame tables every engine lent plays with, once they are open.
    tablebase: RwLock<Option<Arc<Tablebase>>>,
}

/// A borrowed engine; it goes back to the pool when dropped.
pub struct Lease {
    searcher: Option<Searcher>,
    pool: Arc<Pool>,
    _permit: OwnedSemaphorePermit,
}

impl Pool {
    /// The pool for `config`: its engines are made here, once.
    pub fn new(config: &Config) -> Arc<Pool> {
        let size = config.pool_size();
        let pool = Pool {
            idle: Mutex::new(Vec::with_capacity(size)),
            permits: Arc::new(Semaphore::new(size)),
            waiting: AtomicUsize::new(0),
            running: AtomicUsize::new(0),
            queue: config.queue,
            wait: Duration::from_millis(config.queue_wait_ms),
            hash_mb: config.hash_mb,
            evaluator: config.evaluator(),
            tablebase: RwLock::new(None),
        };
        let idle = (0..size).map(|_| pool.fresh()).collect();
        *pool.idle.lock().unwrap_or_else(PoisonError::into_inner) = idle;
        Arc::new(pool)
    }

    /// Searches running now.
    pub fn running(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }

    /// Requests waiting for an engine now.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::SeqCst)
    }

    /// Gives the engines the endgame tables (`None`: none): each engine lent from now on
    /// plays with them.
    pub fn set_tablebase(&self, tablebase: Option<Arc<Tablebase>>) {
        *self
            .tablebase
            .write()
            .unwrap_or_else(PoisonError::into_inner) = tablebase;
    }

    /// The endgame tables the engines play with, if any.
    pub fn tablebase(&self) -> Option<Arc<Tablebase>> {
        self.tablebase
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Borrows an engine: at once when one is idle, else after waiting in the queue.
    ///
    /// # Errors
    /// A `503` when the queue is full or the wait runs out.
    pub async fn acquire(self: &Arc<Pool>) -> Result<Lease, ApiError> {
        let permit = match Arc::clone(&self.permits).try_acquire_owned() {
            Ok(p) => p,
            Err(_) => {
                if self.waiting.fetch_add(1, Ordering::SeqCst) >= self.queue {
                    self.waiting.fetch_sub(1, Ordering::SeqCst);
                    return Err(ApiError::busy(1));
                }
                let got =
                    tokio::time::timeout(self.wait, Arc::clone(&self.permits).acquire_owned())
                        .await;
                self.waiting.fetch_sub(1, Ordering::SeqCst);
                match got {
                    Ok(Ok(p)) => p,
                    _ => return Err(ApiError::busy(self.wait.as_secs().max(1) as u32)),
                }
            }
        };
        let mut searcher = self
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .unwrap_or_else(|| self.fresh());
        // The tables may have become ready since the engine was last lent.
        searcher.set_tablebase(self.tablebase());
        self.running.fetch_add(1, Ordering::SeqCst);
        Ok(Lease {
            searcher: Some(searcher),
            pool: Arc::clone(self),
            _permit: permit,
        })
    }

    fn fresh(&self) -> Searcher {
        let mut s = Searcher::with_evaluator(self.evaluator.clone());
        s.set_hash_size(self.hash_mb);
        s
    }
}

impl Lease {
    /// The borrowed engine.
    pub fn searcher(&mut self) -> &mut Searcher {
        self.searcher
            .as_mut()
            .expect("a lease holds its searcher until dropped")
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        // An engine whose search panicked may hold broken state: a fresh one replaces it.
        let searcher = match self.searcher.take() {
            Some(_) if std::thread::panicking() => self.pool.fresh(),
            Some(s) => s,
            None => self.pool.fresh(),
        };
        self.pool
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(searcher);
        self.pool.running.fetch_sub(1, Ordering::SeqCst);
    }
}
