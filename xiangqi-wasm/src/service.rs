//! The web board's engine service in WebAssembly: the requests and JSON answers of
//! `xiangqi-web`'s HTTP API (`/api/v1/...`), answered by the same code (`xiangqi-service`),
//! for the page when it is opened from static files. The page's `api.js` turns each answer
//! into a `Response`, so it reads them as it reads the server's.
//!
//! The searches (`serviceSearch` for a move or an analysis, `serviceReview` for a game
//! review) block until they end, so the page runs them in a Web Worker.
//!
//! What needs the server by nature is answered with a `501`: the endgame tables (hundreds of
//! megabytes of files that the server generates and reads from its disk).

use crate::engine::with_searcher;
use http::StatusCode;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use xiangqi_service::answers::{self, LevelView};
use xiangqi_service::review::{MoveEvent, ReviewRequest, SummaryEvent};
use xiangqi_service::search::{InfoView, Kind, Lines, MoveAnswer, SearchRequest};
use xiangqi_service::{json, records, ApiError, RequestLimits};

/// An answer as the page's `api.js` makes a `Response` of it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Answer {
    status: u16,
    content_type: &'static str,
    body: String,
}

const JSON: &str = "application/json";

fn ok<T: Serialize>(value: &T) -> Answer {
    match serde_json::to_string(value) {
        Ok(body) => Answer {
            status: 200,
            content_type: JSON,
            body,
        },
        Err(e) => failed(&ApiError::internal(format!("unwritable answer: {e}"))),
    }
}

fn failed(e: &ApiError) -> Answer {
    Answer {
        status: e.status().as_u16(),
        content_type: JSON,
        body: e.to_json(),
    }
}

fn answer(result: Result<Answer, ApiError>) -> JsValue {
    crate::view::to_js(&result.unwrap_or_else(|e| failed(&e)))
}

/// The limits of the page's own engine: the server's defaults.
fn limits() -> RequestLimits {
    RequestLimits::default()
}

#[derive(Serialize)]
struct Info {
    name: &'static str,
    version: &'static str,
    /// `wasm`: the page's own engine, no server.
    backend: &'static str,
    levels: Vec<LevelView>,
    limits: RequestLimits,
    engines: usize,
    evaluator: &'static str,
    net: &'static str,
    running: usize,
    waiting: usize,
    egtb: Egtb,
}

#[derive(Serialize)]
struct Egtb {
    enabled: bool,
    ready: bool,
    tables: usize,
    max_pieces: u32,
}

fn info() -> Info {
    Info {
        name: "xiangqi-wasm",
        version: env!("CARGO_PKG_VERSION"),
        backend: "wasm",
        levels: answers::levels(),
        limits: limits(),
        engines: 1,
        evaluator: "nnue",
        net: "embedded",
        running: 0,
        waiting: 0,
        egtb: Egtb {
            enabled: false,
            ready: false,
            tables: 0,
            max_pieces: 0,
        },
    }
}

fn route(method: &str, path: &str, body: &[u8]) -> Result<Answer, ApiError> {
    let path = path.trim_start_matches('/').trim_start_matches("api/v1/");
    match (method, path) {
        ("GET", "info") => Ok(ok(&info())),
        ("POST", "position") => answers::position(&json::parse(body)?, &limits()).map(|a| ok(&a)),
        ("POST", "notation") => answers::notation(&json::parse(body)?, &limits()).map(|a| ok(&a)),
        ("POST", "records") => records::read(body).map(|a| ok(&a)),
        ("POST", "pgn") => answers::pgn(&json::parse(body)?, &limits()).map(|text| Answer {
            status: 200,
            content_type: "application/x-chess-pgn; charset=utf-8",
            body: text,
        }),
        ("POST", "move" | "analysis") => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "use_the_worker",
            format!("/{path} searches: send it to the engine's worker (serviceSearch)"),
        )),
        ("POST", "review") => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "use_the_worker",
            "/review searches: send it to the engine's worker (serviceReview)",
        )),
        (_, p) if p == "egtb" || p.starts_with("egtb/") => Err(ApiError::new(
            StatusCode::NOT_IMPLEMENTED,
            "needs_server",
            "the endgame tables need the server (xiangqi-web): they are files on its disk",
        )),
        _ => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no such path: /api/v1/{path} ({method})"),
        )),
    }
}

/// Answers a request of the engine service that needs no search: `method` (`GET`,
/// `POST`), `path` (`/api/v1/position`, …) and the body's bytes. Returns
/// `{ status, contentType, body }`, an error as the server writes it included.
#[wasm_bindgen(js_name = serviceRequest, unchecked_return_type = "{ status: number; contentType: string; body: string }")]
pub fn service_request(method: &str, path: &str, body: &[u8]) -> JsValue {
    answer(route(method, path, body))
}

fn seed_if_missing(req: &mut SearchRequest) {
    if req.seed.is_none() {
        // The server seeds from its own randomness; here it is the browser's.
        req.seed = Some((js_sys::Math::random() * 9_007_199_254_740_992.0) as u64);
    }
}

/// Runs the search of `/api/v1/move` (`path` ending in `move`) or `/api/v1/analysis`,
/// calling `onEvent(name, json)` with each `info` (for an analysis; for a move with
/// MultiPV too) and, for an analysis, the final `bestmove` (or `end` when none). Blocks
/// until the search ends: call it in a worker, and end the worker to stop it. Returns the
/// answer as [`service_request`] does (for an analysis, `{}` once streamed).
#[wasm_bindgen(js_name = serviceSearch, unchecked_return_type = "{ status: number; contentType: string; body: string }")]
pub fn service_search(
    path: &str,
    body: &[u8],
    #[wasm_bindgen(js_name = onEvent)] on_event: &js_sys::Function,
) -> JsValue {
    let kind = if path.ends_with("analysis") {
        Kind::Analysis
    } else {
        Kind::Move
    };
    let emit = |name: &str, data: &str| {
        // A callback that throws must not end the search half-way.
        let _ = on_event.call2(&JsValue::NULL, &name.into(), &data.into());
    };
    let run = || -> Result<Answer, ApiError> {
        let mut req: SearchRequest = json::parse(body)?;
        seed_if_missing(&mut req);
        let prepared = req.prepare(&limits(), kind)?;
        if kind == Kind::Move {
            if let Some(outcome) = prepared.game.outcome(prepared.rules) {
                return Err(ApiError::invalid(
                    "game_over",
                    "moves",
                    format!("the game is over: {outcome}"),
                ));
            }
        }
        let finished = match prepared.book_answer() {
            Some(book) => Some(book),
            None => with_searcher(None, |searcher| {
                let mut lines = Lines::default();
                let (result, time) = prepared.run(searcher, false, |pos, info| {
                    let view = InfoView::new(pos, info);
                    if kind == Kind::Analysis {
                        if let Ok(text) = serde_json::to_string(&view) {
                            emit("info", &text);
                        }
                    } else if prepared.multipv > 1 {
                        lines.record(view);
                    }
                    true
                });
                prepared.answer(&result, time, lines.into_sorted())
            }),
        };
        match kind {
            Kind::Move => finished.map(|a: MoveAnswer| ok(&a)).ok_or_else(|| {
                ApiError::invalid("game_over", "moves", "the side to move has no legal move")
            }),
            Kind::Analysis => {
                match finished.map(|a| serde_json::to_string(&a)) {
                    Some(Ok(text)) => emit("bestmove", &text),
                    _ => emit("end", "{}"),
                }
                Ok(ok(&serde_json::json!({})))
            }
        }
    };
    answer(run())
}

/// Runs the game review of `/api/v1/review`, calling `onEvent(name, json)` with a `move`
/// event for each ply as soon as it is judged, then the `summary`, as the server streams
/// them. Blocks until the review ends: call it in a worker, and end the worker to stop it.
/// Returns the answer as [`service_request`] does: a refused request's error (before any
/// event), else `{}` once streamed.
#[wasm_bindgen(js_name = serviceReview, unchecked_return_type = "{ status: number; contentType: string; body: string }")]
pub fn service_review(
    body: &[u8],
    #[wasm_bindgen(js_name = onEvent)] on_event: &js_sys::Function,
) -> JsValue {
    let emit = |name: &str, data: &str| {
        // A callback that throws must not end the review half-way.
        let _ = on_event.call2(&JsValue::NULL, &name.into(), &data.into());
    };
    let run = || -> Result<Answer, ApiError> {
        let req: ReviewRequest = json::parse(body)?;
        let prepared = req.prepare(&limits())?;
        let review = with_searcher(None, |searcher| {
            // Full strength, one line, the game's rules: whatever an engine move set before.
            searcher.set_threads(1);
            searcher.set_multipv(1);
            searcher.set_level(None);
            searcher.set_rules(prepared.options.rules);
            // Nothing stops it from inside: the page ends the worker.
            let never = std::sync::atomic::AtomicBool::new(false);
            xiangqi_search::review::review(
                searcher,
                &prepared.game,
                &prepared.options,
                &never,
                &mut |m| {
                    let event =
                        MoveEvent::new(&prepared.game, m).map(|e| serde_json::to_string(&e));
                    if let Some(Ok(text)) = event {
                        emit("move", &text);
                    }
                },
            )
        });
        match serde_json::to_string(&SummaryEvent::new(&prepared.game, &review)) {
            Ok(text) => emit("summary", &text),
            Err(e) => emit(
                "error",
                &ApiError::internal(format!("unwritable summary: {e}")).to_json(),
            ),
        }
        Ok(ok(&serde_json::json!({})))
    };
    answer(run())
}
