//! Endgame tablebases for the engine (`UseEGTB`, `EGTBPath`): a folder named by the GUI
//! is opened at once; the default folder ([`xiangqi_egtb::default_dir`]) is opened in the
//! background, after generating the starter set there if it is missing, so that a new user
//! gets tablebase play without a download and the handshake never waits (`isready` does:
//! [`crate::core::Core::wait_for_tables`]).

use std::path::Path;
use std::sync::Arc;
use xiangqi_egtb::{open_with_starter, Tablebase};

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

/// Opens `dir`, first generating the starter set ([`xiangqi_egtb::starter_endings`])
/// there if it is not complete or a table of it cannot be read (tables of an older format,
/// say): [`open_with_starter`], on one thread (the search keeps the others). Each table is
/// written under a name of this process's own and renamed into place, so a table appears
/// whole or not at all, and two engines starting at once (a first match) never write the
/// same file.
///
/// # Errors
/// A message when the tables cannot be generated or opened.
pub(crate) fn open_default(dir: &Path) -> Result<Arc<Tablebase>, String> {
    let opened = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| e.to_string())
        .and_then(|pool| {
            pool.install(|| open_with_starter(dir, &mut |_| {}))
                .map_err(|e| e.to_string())
        });
    opened
        .map(Arc::new)
        .map_err(|e| format!("tablebases in {}: {e}", dir.display()))
}
