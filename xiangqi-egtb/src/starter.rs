//! Tables without a download: the small tables generated on first use into a cache folder.

use crate::batch::{generate_into, BatchError, Event};
use crate::format::{table_path, FormatError};
use crate::material::{Material, ATTACKERS};
use crate::probe::Tablebase;
use crate::sets::with_dependencies;
use std::path::{Path, PathBuf};
use xiangqi_core::Role;

/// The environment variable that names the tables' folder.
pub const DIR_VARIABLE: &str = "XIANGQI_EGTB_DIR";

/// The folder tables are kept in when nobody names one: `$XIANGQI_EGTB_DIR`, else on
/// Windows `%LOCALAPPDATA%\xiangqi\egtb` (the per-user, non-roaming cache folder: the
/// tables are regenerated rather than synced between machines), else
/// `$XDG_CACHE_HOME/xiangqi/egtb`, else `~/.cache/xiangqi/egtb`, else `xiangqi-egtb` in
/// the system's temporary folder.
pub fn default_dir() -> PathBuf {
    if let Some(d) = std::env::var_os(DIR_VARIABLE).filter(|d| !d.is_empty()) {
        return PathBuf::from(d);
    }
    #[cfg(windows)]
    if let Some(d) = std::env::var_os("LOCALAPPDATA").filter(|d| !d.is_empty()) {
        return PathBuf::from(d).join("xiangqi").join("egtb");
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(d).join("xiangqi").join("egtb");
    }
    if let Some(h) = std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(h).join(".cache").join("xiangqi").join("egtb");
    }
    std::env::temp_dir().join("xiangqi-egtb")
}

/// The starter set: one attacking piece without defenders of its own against every
/// defence (车对士象全, 马对单士, 炮对双象, 卒对单士象 …): 36 endings, with the tables they
/// need 64 files of about 1 MB in all, generated in seconds.
pub fn starter_endings() -> Vec<Material> {
    let mut out = Vec::new();
    for att in ATTACKERS {
        for a in 0..=2u8 {
            for e in 0..=2u8 {
                let mut counts = [[0u8; 7]; 2];
                counts[0][att as usize] = 1;
                counts[1][Role::Advisor as usize] = a;
                counts[1][Role::Elephant as usize] = e;
                out.push(Material::from_counts(counts));
            }
        }
    }
    out
}

/// Whether every table of `endings` (and what they need) is in `dir`.
pub fn is_complete(dir: &Path, endings: &[Material]) -> bool {
    with_dependencies(endings)
        .into_iter()
        .all(|m| crate::format::is_usable(&table_path(dir, m)))
}

/// Opens `dir`, first generating whatever of the starter set is missing there (or is
/// unreadable, such as a table of an older format). Safe when several programs do it at
/// once: each writes its files under names of its own and renames them into place.
///
/// # Errors
/// [`BatchError`] when a table cannot be generated or written, or one there is damaged.
pub fn open_with_starter(
    dir: &Path,
    report: &mut dyn FnMut(Event),
) -> Result<Tablebase, BatchError> {
    let starter = starter_endings();
    if !is_complete(dir, &starter) {
        generate_into(dir, &starter, false, report)?;
    }
    Tablebase::open(dir).map_err(BatchError::Format)
}

/// Opens a folder that may not exist yet as an empty tablebase.
///
/// # Errors
/// [`FormatError`] when a table there is damaged.
pub fn open_if_present(dir: &Path) -> Result<Tablebase, FormatError> {
    if dir.is_dir() {
        Tablebase::open(dir)
    } else {
        Ok(Tablebase::empty())
    }
}
