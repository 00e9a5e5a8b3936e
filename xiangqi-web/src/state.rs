//! What every handler shares: the settings, the engine pool and the open streams per client.

use crate::config::Config;
use crate::egtb::Tables;
use crate::error::ApiError;
use crate::pool::Pool;
use axum::http::StatusCode;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

/// The server's shared state.
#[derive(Clone)]
pub struct AppState {
    /// The settings.
    pub config: Arc<Config>,
    /// The engines.
    pub pool: Arc<Pool>,
    /// Analysis streams open per client address.
    pub streams: Arc<Streams>,
    /// The endgame tables.
    pub tables: Arc<Tables>,
}

impl AppState {
    /// The state for `config` (this makes the engine pool, and opens the endgame tables or
    /// starts generating them: see [`Tables::start`]; the pool's engines get them once
    /// they are open).
    pub fn new(config: Config) -> AppState {
        let pool = Pool::new(&config);
        let tables = {
            let pool = Arc::clone(&pool);
            Tables::start(&config, move |tb| pool.set_tablebase(Some(tb)))
        };
        AppState {
            pool,
            tables,
            config: Arc::new(config),
            streams: Arc::new(Streams::default()),
        }
    }
}

/// Counts the analysis streams open per client address.
#[derive(Default)]
pub struct Streams {
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// One open stream; the count goes down when it is dropped.
pub struct StreamSlot {
    streams: Arc<Streams>,
    client: IpAddr,
}

impl Streams {
    /// Opens a stream for `client`.
    ///
    /// # Errors
    /// A `429` when the client has `limit` streams open already.
    pub fn enter(
        self: &Arc<Streams>,
        client: IpAddr,
        limit: usize,
    ) -> Result<StreamSlot, ApiError> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let n = open.entry(client).or_insert(0);
        if *n >= limit {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too_many_streams",
                format!("this client has {n} analysis streams open, the most this server allows: close one first"),
            ));
        }
        *n += 1;
        Ok(StreamSlot {
            streams: Arc::clone(self),
            client,
        })
    }

    /// Streams open now, over all clients.
    pub fn open(&self) -> usize {
        self.open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .values()
            .sum()
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut open = self
            .streams
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(n) = open.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.client);
            }
        }
    }
}
