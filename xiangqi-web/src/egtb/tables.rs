//! The server's endgame tables and where they stand: off, being generated, open or failed.

use crate::config::Config;
use crate::error::ApiError;
use axum::http::StatusCode;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::{Arc, PoisonError, RwLock};
use xiangqi_core::{Color, Role};
use xiangqi_egtb::{Event, Material, TableStats, Tablebase};

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
