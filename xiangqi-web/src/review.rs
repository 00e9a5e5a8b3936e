//! `POST /api/v1/review`: a game review (复盘) streamed as server-sent events, a `move` event
//! for each ply as soon as it is judged and a `summary` at the end. The review holds one
//! pooled engine for its whole length and stops when the client goes away.

use crate::json::ApiJson;
use crate::running::start_review;
use crate::state::AppState;
use axum::extract::{ConnectInfo, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::Stream;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::sync::mpsc;
use xiangqi_service::review::{MoveEvent, ReviewRequest, SummaryEvent};
use xiangqi_service::ApiError;

/// Events of a review stream.
enum Progress {
    Move(Box<MoveEvent>),
    Summary(SummaryEvent),
    Failed(ApiError),
}

fn event(progress: Progress) -> Event {
    let (name, data) = match progress {
        Progress::Move(v) => ("move", serde_json::to_string(&v)),
        Progress::Summary(v) => ("summary", serde_json::to_string(&v)),
        Progress::Failed(e) => ("error", Ok(e.to_json())),
    };
    Event::default().event(name).data(
        data.unwrap_or_else(|e| ApiError::internal(format!("unwritable event: {e}")).to_json()),
    )
}

/// The handler: the request is checked (errors before the stream as the usual JSON), then
/// the review runs on a pooled engine while its events stream out.
pub async fn review(
    State(state): State<AppState>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    ApiJson(req): ApiJson<ReviewRequest>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let prepared = req.prepare(&state.config.limits())?;
    let slot = state
        .streams
        .enter(client.ip(), state.config.max_streams_per_client)?;
    let (tx, rx) = mpsc::channel::<Progress>(16);
    let move_tx = tx.clone();
    let game = prepared.game.clone();
    let (guard, handle) = start_review(&state.pool, prepared, move |game, m| {
        // Every move event is kept (a slow reader slows the review); a closed stream stops.
        let Some(event) = MoveEvent::new(game, m) else {
            return true;
        };
        move_tx
            .blocking_send(Progress::Move(Box::new(event)))
            .is_ok()
    })
    .await?;
    tokio::spawn(async move {
        let last = match handle.await {
            Ok(review) => Progress::Summary(SummaryEvent::new(&game, &review)),
            Err(e) => Progress::Failed(ApiError::internal(format!("the review failed: {e}"))),
        };
        let _ = tx.send(last).await;
    });
    // The stream owns the stop guard and the client's stream slot: when the client goes
    // away, the body (and with it the stream) is dropped, which stops the review.
    let stream = futures_util::stream::unfold(
        (rx, Some(guard), slot),
        |(mut rx, guard, slot)| async move {
            let progress = rx.recv().await?;
            Some((Ok(event(progress)), (rx, guard, slot)))
        },
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(1))))
}
