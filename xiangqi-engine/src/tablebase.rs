//! Endgame tablebases for the engine (`UseEGTB`, `EGTBPath`): a folder named by the GUI
//! is opened at once; the default folder ([`xiangqi_egtb::default_dir`]) is opened in the
//! background, after generating the starter set there if it is missing, so that a new user
//! gets tablebase play without a download and the handshake never waits.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};
use xiangqi_egtb::{generate_into, is_complete, starter_endings, Tablebase};

/// How old a private generation folder left by an engine that was killed must be before
/// another engine removes it.
const STALE: Duration = Duration::from_secs(3600);

/// Opens a folder the GUI named.
///
/// # Errors
/// A message when the folder cannot be read or a table there is damaged.
pub(crate) fn open(dir: &str) -> Result<Arc<Tablebase>, String> {
    Tablebase::open(dir)
        .map(Arc::new)
        .map_err(|e| format!("tablebases in {dir}: {e}"))
}

/// What a tablebase holds, for the GUI: `36 tables, up to 5 pieces, in DIR`.
pub(crate) fn describe(tb: &Tablebase) -> String {
    format!(
        "{} tables, up to {} pieces, in {}",
        tb.materials().len(),
        tb.max_pieces(),
        tb.dir().display()
    )
}

/// Opens `dir`, first generating the starter set ([`starter_endings`]) there if it is
/// not complete. The tables are generated on one thread (the search keeps the others)
/// into a private folder inside `dir` and then moved in file by file: a table appears
/// whole or not at all, and two engines starting at once (a first match) never write the
/// same file. When the folder cannot be opened (tables of an older format, say), the
/// starter set is generated again over the old files, once.
///
/// # Errors
/// A message when the tables cannot be generated, moved or opened.
pub(crate) fn open_default(dir: &Path) -> Result<Arc<Tablebase>, String> {
    if !is_complete(dir, &starter_endings()) {
        generate_starter(dir, false)?;
    }
    let opened = match Tablebase::open(dir) {
        Ok(tb) => Ok(tb),
        Err(_) => {
            generate_starter(dir, true)?;
            Tablebase::open(dir)
        }
    };
    opened
        .map(Arc::new)
        .map_err(|e| format!("tablebases in {}: {e}", dir.display()))
}

/// Generates the starter set into `dir` as [`open_default`] says, over the files there
/// when `replace`.
fn generate_starter(dir: &Path, replace: bool) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    remove_stale(dir);
    let private = dir.join(format!(
        ".starter-{}-{}",
        std::process::id(),
        SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    let generated = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| e.to_string())
        .and_then(|pool| {
            pool.install(|| generate_into(&private, &starter_endings(), false, &mut |_| {}))
                .map_err(|e| e.to_string())
        })
        .and_then(|_| move_tables(&private, dir, replace));
    let _ = std::fs::remove_dir_all(&private);
    generated.map_err(|e| format!("generating the starter tables in {}: {e}", dir.display()))
}

/// Moves every file of `from` into `to` (renaming is atomic within one file system),
/// over the files there when `replace`.
fn move_tables(from: &Path, to: &Path, replace: bool) -> Result<(), String> {
    let entries = std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))?;
    let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    // The statistics first, each table last: a table in the folder has its companion.
    files.sort_by_key(|p| p.extension().is_some_and(|e| e == "xqtb"));
    for file in files {
        let Some(name) = file.file_name() else {
            continue;
        };
        let target = to.join(name);
        if replace || !target.exists() {
            std::fs::rename(&file, &target).map_err(|e| format!("{}: {e}", target.display()))?;
        }
    }
    Ok(())
}

/// Removes private generation folders that engines killed while generating left behind.
fn remove_stale(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > STALE);
        if name.to_string_lossy().starts_with(".starter-") && old {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}
