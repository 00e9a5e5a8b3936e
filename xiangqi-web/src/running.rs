//! Running one search (or one game review: a search per position) on a pooled engine on a
//! blocking thread that stops when the request goes away.

use crate::pool::Pool;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use xiangqi_core::{Game, Position};
use xiangqi_search::review::{self, MoveReview, Review};
use xiangqi_search::{Info, SearchResult, StopHandle};
use xiangqi_service::review::PreparedReview;
use xiangqi_service::search::Prepared;
use xiangqi_service::ApiError;

/// Stops a search when dropped: the request future or the stream holding it went away.
pub struct StopOnDrop {
    /// The running search's stop handle; taken away (under the lock) when the search ends,
    /// before its engine goes back to the pool, so that a late drop cannot stop the search
    /// of the engine's next request.
    running: Arc<Mutex<Option<StopHandle>>>,
    cancelled: Arc<AtomicBool>,
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.cancelled.store(true, Ordering::SeqCst);
        if let Some(stop) = self
            .running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
        {
            stop.stop();
        }
    }
}

/// Runs `prepared` on a pooled engine on a blocking thread, calling `observer` with each
/// report (it returns `false` to stop the search). Returns at once the guard that stops the
/// search when dropped, and the search's result to await.
///
/// # Errors
/// A `503` when no engine is free in time.
pub async fn start(
    pool: &Arc<Pool>,
    prepared: Prepared,
    mut observer: impl FnMut(&Position, &Info) -> bool + Send + 'static,
) -> Result<
    (
        StopOnDrop,
        tokio::task::JoinHandle<(SearchResult, Duration)>,
    ),
    ApiError,
> {
    let mut lease = pool.acquire().await?;
    let stop = lease.searcher().stop_handle();
    let cancelled = Arc::new(AtomicBool::new(false));
    let running = Arc::new(Mutex::new(Some(stop.clone())));
    let guard = StopOnDrop {
        running: Arc::clone(&running),
        cancelled: Arc::clone(&cancelled),
    };
    let handle = tokio::task::spawn_blocking(move || {
        let searcher = lease.searcher();
        let gone = cancelled.load(Ordering::SeqCst);
        let answer = prepared.run(searcher, gone, |pos, info| {
            // A stop asked just before the search began was cleared by it: ask again.
            !cancelled.load(Ordering::SeqCst) && observer(pos, info)
        });
        running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        drop(lease);
        answer
    });
    Ok((guard, handle))
}

/// Runs a game review on a pooled engine on a blocking thread, calling `on_move` with each
/// move's review as soon as it is known (it returns `false` to stop the review: its
/// listener went away). Returns at once the guard that stops the review when dropped, and
/// the review (complete or as far as it went) to await. The engine is held for the whole
/// review, so it counts as one running search until it ends.
///
/// # Errors
/// A `503` when no engine is free in time.
pub async fn start_review(
    pool: &Arc<Pool>,
    prepared: PreparedReview,
    mut on_move: impl FnMut(&Game, &MoveReview) -> bool + Send + 'static,
) -> Result<(StopOnDrop, tokio::task::JoinHandle<Review>), ApiError> {
    let mut lease = pool.acquire().await?;
    let stop = lease.searcher().stop_handle();
    let cancelled = Arc::new(AtomicBool::new(false));
    let running = Arc::new(Mutex::new(Some(stop)));
    let guard = StopOnDrop {
        running: Arc::clone(&running),
        cancelled: Arc::clone(&cancelled),
    };
    let handle = tokio::task::spawn_blocking(move || {
        let searcher = lease.searcher();
        // One thread, the game's rules for the repetitions met in the searches, full
        // strength: what an engine of the pool may have been set to by an earlier request.
        searcher.set_threads(1);
        searcher.set_multipv(1);
        searcher.set_level(None);
        searcher.set_rules(prepared.options.rules);
        let game = &prepared.game;
        // The review looks at `cancelled` between searches and at each iteration: a stop
        // asked just before a search began, which the search cleared, is seen there.
        let review = review::review(searcher, game, &prepared.options, &cancelled, &mut |m| {
            if !on_move(game, m) {
                cancelled.store(true, Ordering::SeqCst);
            }
        });
        running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        drop(lease);
        review
    });
    Ok((guard, handle))
}
