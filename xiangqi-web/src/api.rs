//! The JSON API under `/api/v1/`: every request carries its whole game, so any instance
//! answers any request and a restart loses nothing.

use crate::json::ApiJson;
use crate::running::start;
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, State};
use axum::http::{header, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::stream::Stream;
use serde::Serialize;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::sync::mpsc;
use xiangqi_service::answers::PositionAnswer;
use xiangqi_service::answers::{self, LevelView, NotationAnswer, NotationRequest, PgnRequest};
use xiangqi_service::game::GameInput;
use xiangqi_service::records;
use xiangqi_service::search::{InfoView, Kind, Lines, MoveAnswer, SearchRequest};
use xiangqi_service::ApiError;

/// The routes under `/api/v1`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/info", get(info))
        .route("/position", post(position))
        .route("/move", post(engine_move))
        .route("/analysis", post(analysis))
        .route("/review", post(crate::review::review))
        .route("/notation", post(notation))
        .route("/records", post(read_records))
        .route("/pgn", post(write_pgn))
        .merge(crate::egtb::routes())
}

#[derive(Serialize)]
struct InfoAnswer {
    name: &'static str,
    version: &'static str,
    levels: Vec<LevelView>,
    limits: LimitsAnswer,
    engines: usize,
    /// `nnue` or `classical`.
    evaluator: &'static str,
    /// The net's file name, `embedded` for the built-in one; `null` without a net.
    net: Option<String>,
    running: usize,
    waiting: usize,
    /// The endgame tables: whether ready, how many, their folder's name.
    egtb: crate::egtb::InfoView,
}

#[derive(Serialize)]
struct LimitsAnswer {
    /// What a request may ask for (as the WebAssembly build lists its own).
    #[serde(flatten)]
    request: xiangqi_service::RequestLimits,
    max_streams_per_client: usize,
    max_body_bytes: usize,
    queue: usize,
}

/// The net's name for `/info`: the file name only, so the server's paths stay private.
fn net_name(c: &crate::Config) -> Option<String> {
    match (&c.eval_file, c.classical_eval) {
        (_, true) => None,
        (None, false) => Some("embedded".into()),
        (Some(file), false) => Some(
            file.path
                .file_name()
                .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned()),
        ),
    }
}

async fn info(State(state): State<AppState>) -> Json<InfoAnswer> {
    let c = &state.config;
    Json(InfoAnswer {
        name: "xiangqi-web",
        version: env!("CARGO_PKG_VERSION"),
        levels: answers::levels(),
        limits: LimitsAnswer {
            request: c.limits(),
            max_streams_per_client: c.max_streams_per_client,
            max_body_bytes: c.max_body_bytes,
            queue: c.queue,
        },
        engines: c.pool_size(),
        evaluator: if c.classical_eval {
            "classical"
        } else {
            "nnue"
        },
        net: net_name(c),
        running: state.pool.running(),
        waiting: state.pool.waiting(),
        egtb: crate::egtb::InfoView::new(&state.tables),
    })
}

async fn position(
    State(state): State<AppState>,
    ApiJson(input): ApiJson<GameInput>,
) -> Result<Json<PositionAnswer>, ApiError> {
    answers::position(&input, &state.config.limits()).map(Json)
}

async fn engine_move(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<SearchRequest>,
) -> Result<Json<MoveAnswer>, ApiError> {
    let prepared = req.prepare(&state.config.limits(), Kind::Move)?;
    if let Some(outcome) = prepared.game.outcome(prepared.rules) {
        return Err(ApiError::invalid(
            "game_over",
            "moves",
            format!("the game is over: {outcome}"),
        ));
    }
    if let Some(answer) = prepared.book_answer() {
        return Ok(Json(answer));
    }
    let multipv = prepared.multipv;
    let lines = std::sync::Arc::new(std::sync::Mutex::new(Lines::default()));
    let seen = std::sync::Arc::clone(&lines);
    let (guard, handle) = start(&state.pool, prepared.clone(), move |pos, info| {
        if multipv > 1 {
            seen.lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .record(InfoView::new(pos, info));
        }
        true
    })
    .await?;
    // Dropping this future (the client went away) drops the guard, which stops the search.
    let (result, time) = handle
        .await
        .map_err(|e| ApiError::internal(format!("the search failed: {e}")))?;
    drop(guard);
    let lines = std::mem::take(
        &mut *lines
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    )
    .into_sorted();
    prepared
        .answer(&result, time, lines)
        .map(Json)
        .ok_or_else(|| {
            ApiError::invalid("game_over", "moves", "the side to move has no legal move")
        })
}

/// Events of an analysis stream.
enum Progress {
    Info(InfoView),
    Book(MoveAnswer),
    Done(Option<MoveAnswer>),
}

fn event(progress: Progress) -> Event {
    let (name, data) = match progress {
        Progress::Info(v) => ("info", serde_json::to_string(&v)),
        Progress::Book(v) => ("bestmove", serde_json::to_string(&v)),
        Progress::Done(Some(v)) => ("bestmove", serde_json::to_string(&v)),
        Progress::Done(None) => ("end", Ok("{}".into())),
    };
    Event::default()
        .event(name)
        .data(data.unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}")))
}

async fn analysis(
    State(state): State<AppState>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    ApiJson(req): ApiJson<SearchRequest>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let prepared = req.prepare(&state.config.limits(), Kind::Analysis)?;
    let slot = state
        .streams
        .enter(client.ip(), state.config.max_streams_per_client)?;
    let (tx, rx) = mpsc::channel::<Progress>(64);
    let mut keep: Option<crate::running::StopOnDrop> = None;
    if let Some(answer) = prepared.book_answer() {
        let _ = tx.try_send(Progress::Book(answer));
    } else {
        let info_tx = tx.clone();
        let (guard, handle) = start(&state.pool, prepared.clone(), move |pos, info| {
            // Progress is dropped when the client reads too slowly; a closed stream stops.
            !matches!(
                info_tx.try_send(Progress::Info(InfoView::new(pos, info))),
                Err(mpsc::error::TrySendError::Closed(_))
            )
        })
        .await?;
        keep = Some(guard);
        let done_tx = tx.clone();
        tokio::spawn(async move {
            if let Ok((result, time)) = handle.await {
                let _ = done_tx
                    .send(Progress::Done(prepared.answer(&result, time, Vec::new())))
                    .await;
            }
        });
    }
    drop(tx);
    // The stream owns the stop guard and the client's stream slot: when the client goes
    // away, the body (and with it the stream) is dropped, which stops the search.
    let stream =
        futures_util::stream::unfold((rx, keep, slot), |(mut rx, keep, slot)| async move {
            let progress = rx.recv().await?;
            Some((Ok(event(progress)), (rx, keep, slot)))
        });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(1))))
}

async fn notation(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<NotationRequest>,
) -> Result<Json<NotationAnswer>, ApiError> {
    answers::notation(&req, &state.config.limits()).map(Json)
}

async fn read_records(
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Json<records::Records>, ApiError> {
    let body = body?;
    Ok(Json(records::read(&body)?))
}

async fn write_pgn(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<PgnRequest>,
) -> Result<Response, ApiError> {
    let text = answers::pgn(&req, &state.config.limits())?;
    Ok((
        StatusCode::OK,
        [(
            header::CONTENT_TYPE,
            "application/x-chess-pgn; charset=utf-8",
        )],
        text,
    )
        .into_response())
}
