//! The JSON API under `/api/v1/`: every request carries its whole game, so any instance
//! answers any request and a restart loses nothing.

use crate::error::ApiError;
use crate::game::{parse_fen, GameInput, Rules};
use crate::json::ApiJson;
use crate::records;
use crate::search::{book_moves, start, BookView, InfoView, Kind, MoveAnswer, SearchRequest};
use crate::state::AppState;
use crate::view::{color_name, line, MoveView, OutcomeView};
use axum::body::Bytes;
use axum::extract::{ConnectInfo, State};
use axum::http::{header, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::stream::Stream;
use serde::{Deserialize, Serialize};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::sync::mpsc;
use xiangqi_search::Level;

/// The routes under `/api/v1`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/info", get(info))
        .route("/position", post(position))
        .route("/move", post(engine_move))
        .route("/analysis", post(analysis))
        .route("/notation", post(notation))
        .route("/records", post(read_records))
        .route("/pgn", post(write_pgn))
        .merge(crate::egtb::routes())
}

#[derive(Serialize)]
struct LevelView {
    name: &'static str,
    description: &'static str,
    depth: Option<u32>,
    nodes: Option<u64>,
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
    max_movetime_ms: u64,
    max_analysis_ms: u64,
    max_depth: u32,
    max_nodes: u64,
    max_moves: usize,
    max_multipv: usize,
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
        levels: Level::all()
            .iter()
            .map(|l| LevelView {
                name: l.name,
                description: l.description,
                depth: l.depth,
                nodes: l.nodes,
            })
            .collect(),
        limits: LimitsAnswer {
            max_movetime_ms: c.max_movetime_ms,
            max_analysis_ms: c.max_analysis_ms,
            max_depth: c.max_depth,
            max_nodes: c.max_nodes,
            max_moves: c.max_moves,
            max_multipv: c.max_multipv,
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

#[derive(Serialize)]
struct PositionAnswer {
    fen: String,
    start_fen: String,
    side_to_move: &'static str,
    check: bool,
    /// The square of the side to move's general when it is in check.
    #[serde(skip_serializing_if = "Option::is_none")]
    checked_general: Option<String>,
    legal_moves: Vec<MoveView>,
    moves: Vec<MoveView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_move: Option<MoveView>,
    outcome: Option<OutcomeView>,
    plies_toward_move_limit: u32,
    rules: Rules,
    book: Vec<BookView>,
}

async fn position(
    State(state): State<AppState>,
    ApiJson(input): ApiJson<GameInput>,
) -> Result<Json<PositionAnswer>, ApiError> {
    let game = input.build(&state.config)?;
    let pos = game.position();
    let rules = input.rule_set();
    let legal_moves = pos
        .legal_moves()
        .into_iter()
        .map(|m| MoveView::new(pos, m))
        .collect();
    let moves = line(game.start_position(), game.moves());
    Ok(Json(PositionAnswer {
        fen: pos.fen(),
        start_fen: game.start_position().fen(),
        side_to_move: color_name(pos.side_to_move()),
        check: pos.is_check(),
        checked_general: pos
            .is_check()
            .then(|| pos.king_square(pos.side_to_move()).to_string()),
        legal_moves,
        last_move: moves.last().cloned(),
        moves,
        outcome: game.outcome(rules).map(|o| OutcomeView::new(&o, rules)),
        plies_toward_move_limit: game.plies_toward_move_limit(),
        rules: input.rules,
        book: book_moves(pos),
    }))
}

async fn engine_move(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<SearchRequest>,
) -> Result<Json<MoveAnswer>, ApiError> {
    let prepared = req.prepare(&state.config, Kind::Move)?;
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
    let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::<InfoView>::new()));
    let seen = std::sync::Arc::clone(&lines);
    let (guard, handle) = start(&state.pool, prepared.clone(), move |pos, info| {
        if multipv > 1 {
            let mut lines = seen
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let view = InfoView::new(pos, info);
            match lines.iter_mut().find(|l| l.multipv == view.multipv) {
                Some(l) => *l = view,
                None => lines.push(view),
            }
        }
        true
    })
    .await?;
    // Dropping this future (the client went away) drops the guard, which stops the search.
    let (result, time) = handle
        .await
        .map_err(|e| ApiError::internal(format!("the search failed: {e}")))?;
    drop(guard);
    let mut lines = std::mem::take(
        &mut *lines
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    );
    lines.sort_by_key(|l| l.multipv);
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
    let prepared = req.prepare(&state.config, Kind::Analysis)?;
    let slot = state
        .streams
        .enter(client.ip(), state.config.max_streams_per_client)?;
    let (tx, rx) = mpsc::channel::<Progress>(64);
    let mut keep: Option<crate::search::StopOnDrop> = None;
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

#[derive(Deserialize)]
struct NotationRequest {
    #[serde(flatten)]
    game: GameInput,
    #[serde(default)]
    to: Option<Notation>,
}

#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Notation {
    Iccs,
    Wxf,
    Chinese,
}

#[derive(Serialize)]
struct NotationAnswer {
    moves: Vec<MoveView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    converted: Option<Vec<String>>,
}

async fn notation(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<NotationRequest>,
) -> Result<Json<NotationAnswer>, ApiError> {
    let game = req.game.build(&state.config)?;
    let moves = line(game.start_position(), game.moves());
    let converted = req.to.map(|to| {
        moves
            .iter()
            .map(|m| match to {
                Notation::Iccs => m.iccs.clone(),
                Notation::Wxf => m.wxf.clone(),
                Notation::Chinese => m.chinese.clone(),
            })
            .collect()
    });
    Ok(Json(NotationAnswer { moves, converted }))
}

async fn read_records(
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Json<records::Records>, ApiError> {
    let body = body?;
    Ok(Json(records::read(&body)?))
}

#[derive(Deserialize)]
struct PgnRequest {
    #[serde(flatten)]
    game: GameInput,
    #[serde(default)]
    tags: Vec<(String, String)>,
    /// A whole variation tree (as `/records` gives it) instead of `moves`.
    #[serde(default)]
    tree: Option<Vec<records::TreeMoveInput>>,
    /// The comment before the first move, with `tree`.
    #[serde(default)]
    start_comment: String,
}

async fn write_pgn(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<PgnRequest>,
) -> Result<Response, ApiError> {
    for (i, (name, _)) in req.tags.iter().enumerate() {
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(ApiError::invalid(
                "bad_tag",
                format!("tags[{i}]"),
                format!("tag name {name:?}: letters, digits and _ only"),
            ));
        }
    }
    let text = match &req.tree {
        Some(moves) => {
            if !req.game.moves.is_empty() {
                return Err(ApiError::invalid(
                    "bad_tree",
                    "moves",
                    "send either moves or a tree, not both",
                ));
            }
            let start = parse_fen(req.game.fen.as_deref(), "fen")?;
            let tree = records::build_tree(start, moves, state.config.max_moves)?;
            records::write_tree_pgn(tree, &req.start_comment, &req.tags, req.game.rule_set())
        }
        None => {
            let game = req.game.build(&state.config)?;
            let ended = game.outcome(req.game.rule_set()).map(|o| o.winner);
            records::write_pgn(game, &req.tags, ended)
        }
    };
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
