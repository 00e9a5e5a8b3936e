//! The endgame tables (`xiangqi-egtb`): opened at start-up, or, when the starter set is
//! missing from their folder, generated there first on a thread of their own while the
//! server already answers (until then the API says they are not ready). Probed by
//! `/api/v1/egtb`, listed by `/api/v1/egtb/endings`; `/api/v1/egtb/trainer` draws won
//! positions for the endgame trainer. Once open, the engine pool's searchers play with
//! them too (see [`crate::pool::Pool::set_tablebase`]).

use crate::config::Config;
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
use std::path::{Path, PathBuf};
use std::sync::{Arc, PoisonError, RwLock};
use xiangqi_core::{Color, Role};
use xiangqi_egtb::{Dtm, Event, Material, TableStats, Tablebase, Wdl};

/// The shortest win, in plies, the trainer asks for by default: shorter ones are no exercise.
pub const TRAINER_MIN_PLIES: u16 = 9;

/// The server's tables and where they stand.
pub struct Tables {
    state: RwLock<TablesState>,
}

/// Where the tables stand.
#[derive(Clone)]
pub enum TablesState {
    /// No tables (`--no-egtb`).
    Off,
    /// The starter set is being generated into `dir`: table `done` of `of` is under way.
    Generating {
        /// The folder.
        dir: PathBuf,
        /// Tables generated so far.
        done: usize,
        /// Tables to generate (0 until the first has started).
        of: usize,
    },
    /// Open and answering.
    Ready(Arc<Ready>),
    /// The folder could not be opened or generated into: the server goes on without tables.
    Failed {
        /// The folder.
        dir: PathBuf,
        /// Why.
        error: String,
    },
}

/// Open tables with their endings.
pub struct Ready {
    /// The tables (the engine pool's searchers share them).
    pub tablebase: Arc<Tablebase>,
    /// The endings with a table, in the order the page lists them.
    pub endings: Vec<Ending>,
}

/// An ending with a table, as `/api/v1/egtb/endings` lists it.
#[derive(Clone, Debug, Serialize)]
pub struct Ending {
    /// The material's name, strong side first (`krkaa`).
    pub material: String,
    /// Its Chinese name (车对双士).
    pub name: String,
    /// Its English name (chariot vs two advisors).
    pub name_en: String,
    /// Pieces on the board, the generals included.
    pub pieces: u32,
    /// Whether the trainer can draw won positions of it (red, the strong side, to move, wins
    /// somewhere in at least [`TRAINER_MIN_PLIES`]); from the table's statistics file, yes
    /// when there is none.
    pub trainer: bool,
    /// The longest win with red to move, in plies, when the statistics file says it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub longest: Option<u16>,
}

impl Tables {
    /// Tables in the state `state`.
    pub fn new(state: TablesState) -> Tables {
        Tables {
            state: RwLock::new(state),
        }
    }

    /// Opens the tables `config` names and gives them to `on_ready` (the engine pool) once
    /// they are open. When the starter set is missing from the folder or cannot be read
    /// (tables of an older format, say), and `--no-egtb-generate` is not given, it is
    /// generated there on a thread of its own ([`xiangqi_egtb::open_with_starter`]: each
    /// table written under a name of this process's own and renamed into place, so that the
    /// engine or another server filling the folder at once never writes, or reads
    /// half-written, the same file), and this returns at once with the tables not ready.
    pub fn start(
        config: &Config,
        on_ready: impl FnOnce(Arc<Tablebase>) + Send + 'static,
    ) -> Arc<Tables> {
        let Some(dir) = config.egtb_folder() else {
            return Arc::new(Tables::new(TablesState::Off));
        };
        let tables = Tables::new(TablesState::Off);
        if config.no_egtb_generate {
            let opened = xiangqi_egtb::open_if_present(&dir).map_err(|e| e.to_string());
            tables.finish(dir, opened, on_ready);
            return Arc::new(tables);
        }
        // A complete folder that opens is ready at once; anything else is generated (the
        // missing or unreadable tables only) on the thread.
        if xiangqi_egtb::is_complete(&dir, &xiangqi_egtb::starter_endings()) {
            match Tablebase::open(&dir) {
                Ok(tablebase) => {
                    tables.finish(dir, Ok(tablebase), on_ready);
                    return Arc::new(tables);
                }
                Err(error) => {
                    tracing::warn!(dir = %dir.display(), %error, "the endgame tables cannot be opened: generating the starter set again");
                }
            }
        }
        tracing::info!(dir = %dir.display(), "generating the endgame starter set in the background");
        tables.set(TablesState::Generating {
            dir: dir.clone(),
            done: 0,
            of: 0,
        });
        let tables = Arc::new(tables);
        let job = {
            let tables = Arc::clone(&tables);
            move || {
                let opened = xiangqi_egtb::open_with_starter(&dir, &mut |event| {
                    if let Event::Start { number, of, .. } = event {
                        tables.set(TablesState::Generating {
                            dir: dir.clone(),
                            done: number,
                            of,
                        });
                    }
                })
                .map_err(|e| format!("generating the starter tables in {}: {e}", dir.display()));
                tables.finish(dir, opened, on_ready);
            }
        };
        // A thread of its own rather than the runtime's blocking pool: the runtime waits for
        // its blocking tasks when it shuts down, and Ctrl-C should not wait for a table.
        if let Err(e) = std::thread::Builder::new()
            .name("egtb-starter".into())
            .spawn(job)
        {
            tables.set(TablesState::Failed {
                dir: PathBuf::new(),
                error: format!("cannot start the generating thread: {e}"),
            });
        }
        tables
    }

    fn set(&self, state: TablesState) {
        *self.state.write().unwrap_or_else(PoisonError::into_inner) = state;
    }

    /// Ends the start-up: the tables go to `on_ready`, then are ready for the API.
    fn finish(
        &self,
        dir: PathBuf,
        opened: Result<Tablebase, String>,
        on_ready: impl FnOnce(Arc<Tablebase>),
    ) {
        match opened {
            Ok(tablebase) => {
                let tablebase = Arc::new(tablebase);
                let endings = endings(&tablebase);
                tracing::info!(dir = %dir.display(), tables = endings.len(), "endgame tables ready");
                on_ready(Arc::clone(&tablebase));
                self.set(TablesState::Ready(Arc::new(Ready { tablebase, endings })));
            }
            Err(error) => {
                tracing::warn!(dir = %dir.display(), %error, "no endgame tables");
                self.set(TablesState::Failed { dir, error });
            }
        }
    }

    /// Where the tables stand now.
    pub fn state(&self) -> TablesState {
        self.state
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The open tables, or the error a request that needs them gets: a `503`
    /// (`egtb_not_ready`, with `Retry-After`) while they are generated, a `422` (`no_table`)
    /// without tables.
    pub fn ready(&self) -> Result<Arc<Ready>, ApiError> {
        match self.state() {
            TablesState::Ready(r) => Ok(r),
            TablesState::Generating { done, of, .. } => {
                Err(ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "egtb_not_ready",
                    format!("the endgame tables are being generated ({done} of {of} done): try again shortly"),
                )
                .retry_after(2))
            }
            TablesState::Off | TablesState::Failed { .. } => Err(ApiError::invalid(
                "no_table",
                "ending",
                "this server has no endgame tables",
            )),
        }
    }
}

/// The endings of `tb` with a table, attackers first by strength (chariot, cannon, horse,
/// pawn), then by defence.
fn endings(tb: &Tablebase) -> Vec<Ending> {
    let mut out: Vec<Ending> = tb
        .materials()
        .into_iter()
        .map(|m| {
            let stats = read_stats(&tb.path_of(m));
            let longest = stats.as_ref().map(|s| s.red.longest);
            Ending {
                material: m.to_string(),
                name: m.chinese_name(),
                name_en: english_name(m),
                pieces: m.total(),
                trainer: stats
                    .as_ref()
                    .is_none_or(|s| s.red.wins > 0 && s.red.longest >= TRAINER_MIN_PLIES),
                longest,
            }
        })
        .collect();
    let key = |name: &str| -> String {
        name.chars()
            .map(|c| match c {
                'k' => '0',
                'r' => '1',
                'c' => '2',
                'n' => '3',
                'p' => '4',
                'a' => '5',
                _ => '6',
            })
            .collect()
    };
    out.sort_by_key(|e| key(&e.material));
    out
}

/// The statistics `xiangqi-egtb` writes beside a table (`krkaa.json`), if they are there.
fn read_stats(table: &Path) -> Option<TableStats> {
    let text = std::fs::read(table.with_extension("json")).ok()?;
    serde_json::from_slice(&text).ok()
}

/// The English name of an ending, strong side first: "chariot vs two advisors", "horse vs
/// full defence", "pawn vs bare general".
pub fn english_name(m: Material) -> String {
    let m = m.canonical();
    let side = |color: Color| -> String {
        let names = [
            (Role::Chariot, "chariot"),
            (Role::Cannon, "cannon"),
            (Role::Horse, "horse"),
            (Role::Pawn, "pawn"),
            (Role::Advisor, "advisor"),
            (Role::Elephant, "elephant"),
        ];
        if m.count(color, Role::Advisor) == 2
            && m.count(color, Role::Elephant) == 2
            && m.attackers(color) == 0
        {
            return "full defence".into();
        }
        let mut parts = Vec::new();
        for (role, name) in names {
            let n = m.count(color, role);
            let attacker = !matches!(role, Role::Advisor | Role::Elephant);
            match n {
                0 => {}
                1 if attacker => parts.push(name.to_string()),
                1 => parts.push(format!("one {name}")),
                2 => parts.push(format!("two {name}s")),
                n => parts.push(format!("{n} {name}s")),
            }
        }
        match parts.len() {
            0 => "bare general".into(),
            1 => parts.remove(0),
            _ => {
                let last = parts.pop().unwrap_or_default();
                format!("{} and {last}", parts.join(", "))
            }
        }
    };
    format!("{} vs {}", side(Color::Red), side(Color::Black))
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_names() {
        let name = |s: &str| english_name(s.parse().unwrap());
        assert_eq!(name("krkaa"), "chariot vs two advisors");
        assert_eq!(name("knka"), "horse vs one advisor");
        assert_eq!(name("kpkaabb"), "pawn vs full defence");
        assert_eq!(name("kck"), "cannon vs bare general");
        assert_eq!(
            name("kcpkab"),
            "cannon and pawn vs one advisor and one elephant"
        );
        assert_eq!(name("kaakr"), "chariot vs two advisors");
    }
}
