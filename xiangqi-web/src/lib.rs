//! # xiangqi-web
//!
//! The web board and the stateless JSON/HTTP engine service: [`app`] builds the server
//! (the page at `/`, the API under `/api/v1/`, `/healthz`), [`serve`] runs it on a listener.
//! Every request carries its whole game (a start FEN and its moves in any notation), so any
//! number of instances behind a load balancer serve the same clients. Searches run on a
//! fixed pool of engines ([`pool`]) behind a bounded wait queue; every limit is a field of
//! [`Config`] with a flag and a default.
//!
//! ```no_run
//! # async fn run() -> std::io::Result<()> {
//! let config = xiangqi_web::Config::default();
//! let listener = tokio::net::TcpListener::bind(config.listen).await?;
//! xiangqi_web::serve(listener, config).await
//! # }
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod api;
mod assets;
pub mod config;
pub mod egtb;
mod json;
pub mod pool;
mod review;
pub mod running;
pub mod state;

/// The requests and answers, shared with the WebAssembly build of the page.
pub use xiangqi_service::{error, game, records, search, view};

pub use config::{Config, NetFile};
pub use error::ApiError;
pub use state::AppState;

use axum::extract::{DefaultBodyLimit, State};
use axum::http::{Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use std::any::Any;
use std::time::Duration;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::trace::TraceLayer;
use tracing::Span;

/// The whole server for `config`: page, API, health check, with its safety layers. The
/// analysis route reads the client's address (to count its streams): serve the router with
/// [`serve`], or with `into_make_service_with_connect_info::<SocketAddr>()`.
pub fn app(config: Config) -> Router {
    let state = AppState::new(config);
    harden(routes(), &state).with_state(state)
}

/// The routes without their layers.
fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(assets::index))
        .route("/assets/{name}", get(assets::asset))
        .route("/healthz", get(health))
        .nest("/api/v1", api::routes())
}

/// Puts the safety layers around `router`: JSON answers for unknown paths and methods, the
/// body size limit, a JSON `500` for a panic in a request (the server goes on), and request
/// logging (method, path, status, time).
pub fn harden(router: Router<AppState>, state: &AppState) -> Router<AppState> {
    router
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(state.config.max_body_bytes))
        .layer(CatchPanicLayer::custom(panic_answer))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|req: &Request<_>| {
                    tracing::info_span!("request", method = %req.method(), path = %req.uri().path())
                })
                .on_request(())
                .on_response(|res: &Response, latency: Duration, _span: &Span| {
                    tracing::info!(status = res.status().as_u16(), ms = latency.as_secs_f64() * 1e3, "done");
                })
                .on_failure(()),
        )
}

/// Serves `app(config)` on `listener` until the process ends: HTTP/1.1 with keep-alive, each
/// connection on a task of its own, its client's address given to the handlers, and a time
/// limit on reading a request's headers ([`Config::header_timeout_ms`]).
///
/// # Errors
/// Never in practice: a failed accept (such as too many open files) is logged and waited out.
pub async fn serve(listener: tokio::net::TcpListener, config: Config) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let header_timeout = Duration::from_millis(config.header_timeout_ms);
    let router = app(config);
    loop {
        let (stream, client) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                tracing::warn!(error = %e, "accept failed");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut req: Request<hyper::body::Incoming>| {
            req.extensions_mut()
                .insert(axum::extract::ConnectInfo(client));
            tower_service::Service::call(&mut router.clone(), req.map(axum::body::Body::new))
        });
        tokio::spawn(async move {
            let served = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(TokioIo::new(stream), service)
                .await;
            if let Err(e) = served {
                tracing::debug!(error = %e, %client, "connection ended");
            }
        });
    }
}

#[derive(Serialize)]
struct Health {
    status: &'static str,
    searches_running: usize,
    searches_waiting: usize,
    streams_open: usize,
}

async fn health(State(state): State<AppState>) -> Json<Health> {
    Json(Health {
        status: "ok",
        searches_running: state.pool.running(),
        searches_waiting: state.pool.waiting(),
        streams_open: state.streams.open(),
    })
}

async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        format!("no such path: {}", uri.path()),
    )
}

async fn method_not_allowed(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!("{method} is not allowed on {}", uri.path()),
    )
}

fn panic_answer(panic: Box<dyn Any + Send + 'static>) -> Response {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into());
    tracing::error!(panic = %what, "a request panicked");
    ApiError::internal(format!("a bug in the server: {what}")).into_response()
}
