//! The tables' routes and `/info`'s part on them.

use super::tables::{english_name, Ending, Ready, Tables, TablesState, TRAINER_MIN_PLIES};
use crate::error::ApiError;
use crate::game::GameInput;
use crate::json::ApiJson;
use crate::state::AppState;
use crate::view::{color_name, MoveView};
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use std::path::Path;
use xiangqi_egtb::{Dtm, Material, Wdl};

/// The routes `/api/v1/egtb`, `/api/v1/egtb/endings` and `/api/v1/egtb/trainer`, to be
/// merged into the API's router.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/egtb", post(probe))
        .route("/egtb/endings", get(list_endings))
        .route("/egtb/trainer", post(trainer))
}

/// `/info`'s part on the tables.
#[derive(Serialize)]
pub struct InfoView {
    /// Whether the server uses tables at all.
    enabled: bool,
    /// Whether they are open and answering.
    ready: bool,
    /// Tables open.
    tables: usize,
    /// The folder's name (its last part only: the server's paths stay private).
    #[serde(skip_serializing_if = "Option::is_none")]
    folder: Option<String>,
    /// The most pieces of any table (positions with more are not looked up).
    max_pieces: u32,
    /// While the starter set is generated: tables done and to do.
    #[serde(skip_serializing_if = "Option::is_none")]
    generating: Option<Generating>,
    /// Why there are no tables, when opening or generating them failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// Progress of the starter set's generation.
#[derive(Clone, Copy, Serialize)]
pub struct Generating {
    done: usize,
    of: usize,
}

fn folder_name(dir: &Path) -> Option<String> {
    dir.file_name().map(|n| n.to_string_lossy().into_owned())
}

impl InfoView {
    /// The view of `tables` now.
    pub fn new(tables: &Tables) -> InfoView {
        let mut v = InfoView {
            enabled: true,
            ready: false,
            tables: 0,
            folder: None,
            max_pieces: 0,
            generating: None,
            error: None,
        };
        match tables.state() {
            TablesState::Off => v.enabled = false,
            TablesState::Generating { dir, done, of } => {
                v.folder = folder_name(&dir);
                v.generating = Some(Generating { done, of });
            }
            TablesState::Ready(r) => {
                v.ready = true;
                v.tables = r.endings.len();
                v.folder = folder_name(r.tablebase.dir());
                v.max_pieces = r.tablebase.max_pieces();
            }
            TablesState::Failed { dir, error } => {
                v.folder = folder_name(&dir);
                v.error = Some(error);
            }
        }
        v
    }
}

/// A move with its value for the side that plays it.
#[derive(Serialize)]
struct MoveValueView {
    #[serde(rename = "move")]
    mv: MoveView,
    /// `win`, `draw` or `loss` for the mover; `null` when the move leads into an ending
    /// without a table.
    result: Option<Wdl>,
    /// Plies to mate with best play after this move is counted; `null` for a draw and for
    /// a value by the perpetual-check rule.
    plies: Option<u16>,
    /// Whether the win or loss is by the perpetual-check rule (the loser can hold only by
    /// checking for ever) rather than by mate: it has no distance.
    by_rule: bool,
}

/// The `/api/v1/egtb` answer.
#[derive(Serialize)]
struct ProbeAnswer {
    /// `ok` (the table's value is here), `no_table` (no table for this material),
    /// `no_value` (the table has no value for this position: the side not to move is in
    /// check), `not_ready` (the tables are being generated), `off` (no tables).
    status: &'static str,
    fen: String,
    side_to_move: &'static str,
    material: String,
    name: String,
    name_en: String,
    /// For the side to move.
    result: Option<Wdl>,
    /// Plies to mate with best play; `null` for a draw and for a value by the rule.
    plies: Option<u16>,
    /// Whether `result` is by the perpetual-check rule rather than by mate.
    by_rule: bool,
    /// Every legal move with its value, best first (quickest mate, wins by the rule, draws,
    /// losses by the rule, slowest mate).
    moves: Vec<MoveValueView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    generating: Option<Generating>,
}

/// A value's result, its distance to mate (none for a draw or a value by the rule) and
/// whether it is by the perpetual-check rule.
fn split(dtm: Option<Dtm>) -> (Option<Wdl>, Option<u16>, bool) {
    (
        dtm.map(Dtm::wdl),
        dtm.and_then(Dtm::plies),
        dtm.is_some_and(Dtm::is_by_rule),
    )
}

async fn probe(
    State(state): State<AppState>,
    ApiJson(input): ApiJson<GameInput>,
) -> Result<Json<ProbeAnswer>, ApiError> {
    let game = input.build(&state.config.limits())?;
    let pos = game.position().clone();
    let material = Material::of(&pos);
    let mut answer = ProbeAnswer {
        status: "ok",
        fen: pos.fen(),
        side_to_move: color_name(pos.side_to_move()),
        material: material.to_string(),
        name: material.chinese_name(),
        name_en: english_name(material),
        result: None,
        plies: None,
        by_rule: false,
        moves: Vec::new(),
        generating: None,
    };
    let ready = match state.tables.state() {
        TablesState::Ready(r) => r,
        TablesState::Generating { done, of, .. } => {
            answer.status = "not_ready";
            answer.generating = Some(Generating { done, of });
            return Ok(Json(answer));
        }
        TablesState::Off | TablesState::Failed { .. } => {
            answer.status = "off";
            return Ok(Json(answer));
        }
    };
    if !ready.tablebase.has(material) && !material.is_dead_draw() {
        answer.status = "no_table";
        return Ok(Json(answer));
    }
    // Reading a table's block from disk and unpacking it: off the server's threads.
    let probed = tokio::task::spawn_blocking(move || {
        let tb = &ready.tablebase;
        Ok::<_, xiangqi_egtb::FormatError>((tb.probe_dtm(&pos)?, tb.probe_moves(&pos)?, pos))
    })
    .await
    .map_err(|e| ApiError::internal(format!("the probe failed: {e}")))?
    .map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "egtb_error",
            format!("an endgame table cannot be read: {e}"),
        )
    })?;
    let (value, moves, pos) = probed;
    let Some(value) = value else {
        answer.status = "no_value";
        return Ok(Json(answer));
    };
    (answer.result, answer.plies, answer.by_rule) = split(Some(value));
    answer.moves = moves
        .unwrap_or_default()
        .into_iter()
        .map(|m| {
            let (result, plies, by_rule) = split(m.value);
            MoveValueView {
                mv: MoveView::new(&pos, m.mv),
                result,
                plies,
                by_rule,
            }
        })
        .collect();
    Ok(Json(answer))
}

#[derive(Serialize)]
struct EndingsAnswer {
    ready: bool,
    endings: Vec<Ending>,
}

async fn list_endings(State(state): State<AppState>) -> Json<EndingsAnswer> {
    Json(match state.tables.state() {
        TablesState::Ready(r) => EndingsAnswer {
            ready: true,
            endings: r.endings.clone(),
        },
        _ => EndingsAnswer {
            ready: false,
            endings: Vec::new(),
        },
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TrainerRequest {
    /// The ending: its material name (`krkaa`) or Chinese name (车对双士).
    ending: String,
    /// The draw's seed (a random one when absent); the answer says the one used.
    #[serde(default)]
    seed: Option<u64>,
    /// The shortest win wanted, in plies (default [`TRAINER_MIN_PLIES`]).
    #[serde(default)]
    min_plies: Option<u16>,
}

#[derive(Serialize)]
struct TrainerAnswer {
    fen: String,
    material: String,
    name: String,
    name_en: String,
    result: Wdl,
    plies: u16,
    seed: u64,
}

/// The ending a trainer request names, by material or Chinese name.
fn find_ending(ready: &Ready, name: &str) -> Result<Material, ApiError> {
    let name = name.trim();
    if let Some(e) = ready.endings.iter().find(|e| e.name == name) {
        return e
            .material
            .parse()
            .map_err(|e: xiangqi_egtb::MaterialError| ApiError::internal(e.to_string()));
    }
    let m: Material = name.parse().map_err(|e: xiangqi_egtb::MaterialError| {
        ApiError::invalid("bad_ending", "ending", e.to_string())
    })?;
    if !ready.tablebase.has(m) {
        return Err(ApiError::invalid(
            "no_table",
            "ending",
            format!("this server has no table for {m} ({})", m.chinese_name()),
        ));
    }
    Ok(m.canonical())
}

async fn trainer(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<TrainerRequest>,
) -> Result<Json<TrainerAnswer>, ApiError> {
    let ready = state.tables.ready()?;
    let material = find_ending(&ready, &req.ending)?;
    let seed = req.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let min = req
        .min_plies
        .unwrap_or(TRAINER_MIN_PLIES)
        .min(xiangqi_egtb::MAX_PLIES as u16);
    let drawn = tokio::task::spawn_blocking(move || -> Result<_, xiangqi_egtb::FormatError> {
        let tb = &ready.tablebase;
        let long = |d: Dtm| matches!(d, Dtm::Win(n) if n >= min);
        // An ending whose wins are all shorter than asked gets its longer ones.
        let pos = match tb.random_position(material, long, seed)? {
            Some(p) => Some(p),
            None => tb.random_position(material, |d| matches!(d, Dtm::Win(n) if n > 1), seed)?,
        };
        Ok(match pos {
            Some(p) => tb.probe_dtm(&p)?.map(|d| (p, d)),
            None => None,
        })
    })
    .await
    .map_err(|e| ApiError::internal(format!("the draw failed: {e}")))?
    .map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "egtb_error",
            format!("an endgame table cannot be read: {e}"),
        )
    })?;
    let Some((pos, value)) = drawn else {
        return Err(ApiError::invalid(
            "no_won_position",
            "ending",
            format!(
                "{material} ({}) has no position the strong side wins",
                material.chinese_name()
            ),
        ));
    };
    Ok(Json(TrainerAnswer {
        fen: pos.fen(),
        material: material.to_string(),
        name: material.chinese_name(),
        name_en: english_name(material),
        result: value.wdl(),
        plies: value.plies().unwrap_or(0),
        seed,
    }))
}
