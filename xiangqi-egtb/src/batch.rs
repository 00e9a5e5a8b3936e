//! Generating a list of endings into a folder: each table after the tables its captures
//! lead into, each written with its statistics beside it; tables already there are kept.
//! Every table is an independent job given its sub-tables, so a batch scheduler can run
//! one `xiangqi-egtb generate` per ending once the smaller ones are in the folder.

use crate::format::{is_usable, table_path, write_table, FormatError, TableFile};
use crate::generate::{generate, Progress};
use crate::material::Material;
use crate::retro::GenerateError;
use crate::sets::with_dependencies;
use crate::stats::{table_stats, TableStats};
use crate::table::TableData;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// Why a batch stopped.
#[derive(Debug)]
pub enum BatchError {
    /// Generation failed.
    Generate(GenerateError),
    /// A table in the folder could not be read.
    Format(FormatError),
    /// A file could not be written.
    Io(PathBuf, std::io::Error),
}

impl std::fmt::Display for BatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BatchError::Generate(e) => e.fmt(f),
            BatchError::Format(e) => e.fmt(f),
            BatchError::Io(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl std::error::Error for BatchError {}

/// What a batch reports as it goes.
#[derive(Debug)]
pub enum Event<'a> {
    /// A table is starting: its place in the batch and its index size.
    Start {
        /// The ending.
        material: Material,
        /// Its place (0-based) among the tables to generate.
        number: usize,
        /// How many the batch generates.
        of: usize,
        /// Positions a side in this table.
        size: u64,
        /// Positions a side in the tables still to do, this one included.
        remaining: u64,
    },
    /// A round of the current table finished.
    Round(&'a Progress),
    /// A table was written.
    Done(&'a TableStats),
    /// A table was already in the folder and is kept.
    Kept(Material),
}

/// Generates `wanted` (and every table they need) into `dir`, skipping tables already
/// there unless `force`. Returns the statistics of the tables it wrote.
///
/// # Errors
/// [`BatchError`] on the first table that cannot be generated, read or written.
pub fn generate_into(
    dir: &Path,
    wanted: &[Material],
    force: bool,
    report: &mut dyn FnMut(Event),
) -> Result<Vec<TableStats>, BatchError> {
    std::fs::create_dir_all(dir).map_err(|e| BatchError::Io(dir.to_path_buf(), e))?;
    remove_stale_parts(dir);
    let all = with_dependencies(wanted);
    let wanted: Vec<Material> = wanted.iter().map(|m| m.canonical()).collect();
    let todo: Vec<Material> = all
        .iter()
        .copied()
        .filter(|&m| (force && wanted.contains(&m)) || !is_usable(&table_path(dir, m)))
        .collect();
    for m in &all {
        if !todo.contains(m) {
            report(Event::Kept(*m));
        }
    }
    let mut remaining: u64 = todo
        .iter()
        .map(|&m| crate::index::Layout::new(m).size())
        .sum();
    let mut held: HashMap<Material, Arc<TableData>> = HashMap::new();
    let mut out = Vec::new();
    for (number, &material) in todo.iter().enumerate() {
        let size = crate::index::Layout::new(material).size();
        report(Event::Start {
            material,
            number,
            of: todo.len(),
            size,
            remaining,
        });
        // Hold exactly the tables this one's captures lead into.
        let needs = direct_subs(material);
        held.retain(|m, _| needs.contains(m));
        for &sub in &needs {
            if let std::collections::hash_map::Entry::Vacant(e) = held.entry(sub) {
                let file = TableFile::open(&table_path(dir, sub)).map_err(BatchError::Format)?;
                e.insert(Arc::new(file.load().map_err(BatchError::Format)?));
            }
        }
        let started = Instant::now();
        let data = generate(material, &held, &mut |p| report(Event::Round(p)))
            .map_err(BatchError::Generate)?;
        let seconds = started.elapsed().as_secs_f64();
        let path = table_path(dir, material);
        let bytes = write_table(&path, &data).map_err(|e| BatchError::Io(path.clone(), e))?;
        let stats = table_stats(&data, seconds, bytes);
        // Written beside and renamed, as the table is: a reader never sees half of it.
        let json = path.with_extension("json");
        let tmp = path.with_extension(format!("json.{}.part", std::process::id()));
        std::fs::write(
            &tmp,
            serde_json::to_string_pretty(&stats).expect("statistics serialise"),
        )
        .and_then(|()| std::fs::rename(&tmp, &json))
        .map_err(|e| BatchError::Io(json.clone(), e))?;
        report(Event::Done(&stats));
        remaining -= size;
        out.push(stats);
    }
    Ok(out)
}

/// Removes the temporary files (`NAME.xqtb.PID.part`, `NAME.json.PID.part`) that a
/// generation killed before its rename left behind: those of a process that no longer
/// runs. A file of a running process (another program filling the folder) is kept.
fn remove_stale_parts(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        let Some(stem) = name.strip_suffix(".part") else {
            continue;
        };
        let Some(pid) = stem.rsplit('.').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        let running = pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists();
        if !running {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The tables a material's captures lead into (dead draws left out).
pub fn direct_subs(material: Material) -> Vec<Material> {
    let mut v = Vec::new();
    for color in xiangqi_core::Color::ALL {
        for role in xiangqi_core::Role::ALL {
            if let Some(sub) = material.without(color, role) {
                let c = sub.canonical();
                if !sub.is_dead_draw() && !v.contains(&c) {
                    v.push(c);
                }
            }
        }
    }
    v
}
