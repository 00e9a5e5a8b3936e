//! Long generation runs cut into shards, and shards merged into one data file.
//!
//! Tens of millions of positions take many hours of search, longer than a machine can be
//! counted on, and more than one machine may share the work. So a run is cut into shards
//! of a fixed number of games: shard `k` holds games `k·n .. (k+1)·n`, and as game `g`
//! depends only on the run's seed and `g`, a shard is the same wherever and whenever it
//! is made. Each shard is written to a `.part` file and renamed when it is complete, so a
//! shard file in the folder is always whole: a stopped run loses at most the shards it was
//! making, and the same command run again skips the shards already there. Shards made on
//! several machines (or as the tasks of a batch scheduler, one command per shard) are
//! copied into one folder and merged.
//!
//! The folder's `run.txt` records what the run is (kind, seed, node budget, evaluator,
//! games per shard). A command whose settings differ from the folder's is refused instead
//! of mixing two runs' data in one folder.

use crate::data::{DataError, DataReader, DataWriter, Sample, RECORD_BYTES};
use std::collections::HashSet;
use std::fmt;
use std::fs;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::{self, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The name of the file that says which run a shard folder belongs to.
pub const MANIFEST: &str = "run.txt";

/// The file of shard `k` in `dir`.
pub fn shard_path(dir: &Path, k: u64) -> PathBuf {
    dir.join(format!("shard-{k:05}.bin"))
}

/// Parses a shard selection: `K` (one shard) or `A..B` (shards A to B−1).
pub fn parse_shards(text: &str) -> Result<Range<u64>, String> {
    let number = |t: &str| {
        t.trim()
            .parse::<u64>()
            .map_err(|_| format!("`{t}` is not a shard number"))
    };
    let range = match text.split_once("..") {
        Some((a, b)) => number(a)?..number(b)?,
        None => {
            let k = number(text)?;
            k..k.saturating_add(1)
        }
    };
    if range.is_empty() {
        return Err(format!("`{text}` selects no shard (write A..B with A < B)"));
    }
    Ok(range)
}

/// Why a shard folder cannot be used for a run.
#[derive(Debug)]
pub enum ShardError {
    /// Reading or writing the folder failed.
    Io(PathBuf, io::Error),
    /// The folder holds another run: its settings differ from this command's.
    OtherRun {
        /// The manifest's path.
        manifest: PathBuf,
        /// The first setting that differs, as `name: folder's value` and this command's.
        folder: String,
        /// This command's line for the same setting.
        command: String,
    },
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            ShardError::OtherRun {
                manifest,
                folder,
                command,
            } => write!(
                f,
                "{} belongs to another run: it says `{folder}`, this command `{command}` \
                 (use another folder, or the folder's settings)",
                manifest.display()
            ),
        }
    }
}

impl std::error::Error for ShardError {}

/// Makes `dir` a folder of the run described by `settings` (one `name: value` a line), or
/// checks that it already is one.
pub fn claim_folder(dir: &Path, settings: &str) -> Result<(), ShardError> {
    fs::create_dir_all(dir).map_err(|e| ShardError::Io(dir.to_path_buf(), e))?;
    let manifest = dir.join(MANIFEST);
    match fs::read_to_string(&manifest) {
        Ok(existing) => {
            let ours: Vec<&str> = settings.lines().collect();
            let theirs: Vec<&str> = existing.lines().collect();
            for i in 0..ours.len().max(theirs.len()) {
                let (a, b) = (theirs.get(i).copied(), ours.get(i).copied());
                if a != b {
                    return Err(ShardError::OtherRun {
                        manifest,
                        folder: a.unwrap_or("(nothing)").to_string(),
                        command: b.unwrap_or("(nothing)").to_string(),
                    });
                }
            }
            Ok(())
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            fs::write(&manifest, settings).map_err(|e| ShardError::Io(manifest, e))
        }
        Err(e) => Err(ShardError::Io(manifest, e)),
    }
}

/// Writes shard `k` of `dir` with `make`, which fills a writer and returns what it did.
/// Returns `None`, doing nothing, when the shard is already there. The shard is written
/// to a `.part` file first and renamed when `make` has finished, so a shard file is
/// never half written.
pub fn make_shard<T, E: From<io::Error>>(
    dir: &Path,
    k: u64,
    make: impl FnOnce(&mut DataWriter<io::BufWriter<fs::File>>) -> Result<T, E>,
) -> Result<Option<T>, E> {
    let path = shard_path(dir, k);
    if path.exists() {
        return Ok(None);
    }
    let part = path.with_extension("bin.part");
    let mut out = DataWriter::create(&part)?;
    let made = make(&mut out)?;
    let file = out.finish()?.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    fs::rename(&part, &path)?;
    Ok(Some(made))
}

/// What a merge did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeSummary {
    /// Files read.
    pub files: usize,
    /// Positions read.
    pub read: u64,
    /// Positions written.
    pub written: u64,
    /// Positions dropped because an earlier file (or the same one) already had them.
    pub duplicates: u64,
}

/// A position's identity for deduplication: its pieces and side to move, not its score,
/// result or game.
fn position_key(sample: &Sample) -> u64 {
    let bytes = sample.to_bytes();
    let mut hasher = DefaultHasher::new();
    bytes[..28].hash(&mut hasher);
    (bytes[31] & 1).hash(&mut hasher);
    hasher.finish()
}

/// Copies the positions of `inputs`, in that order, to `out`, each position once (the
/// first time it is met: shards of one run repeat openings that another shard has
/// already played). Stops at the first damaged file, naming it.
pub fn merge<W: Write>(
    inputs: &[PathBuf],
    out: &mut DataWriter<W>,
) -> Result<MergeSummary, (String, DataError)> {
    let mut seen: HashSet<u64> = HashSet::new();
    let mut summary = MergeSummary::default();
    for path in inputs {
        let name = path.display().to_string();
        let reader = DataReader::open(path).map_err(|e| (name.clone(), e))?;
        for sample in reader {
            let sample = sample.map_err(|e| (name.clone(), e))?;
            summary.read += 1;
            if seen.insert(position_key(&sample)) {
                out.write(&sample).map_err(|e| (name.clone(), e.into()))?;
                summary.written += 1;
            } else {
                summary.duplicates += 1;
            }
        }
        summary.files += 1;
    }
    Ok(summary)
}

/// The shard files of `dir`, in shard order.
pub fn shards_in(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut found: Vec<PathBuf> = fs::read_dir(dir)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("shard-") && n.ends_with(".bin"))
        })
        .collect();
    found.sort();
    Ok(found)
}

/// The size in bytes of a data file of `positions` positions.
pub fn file_bytes(positions: u64) -> u64 {
    8 + positions * RECORD_BYTES as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{Outcome, Source};
    use xiangqi_core::Position;

    #[test]
    fn shard_selections_read() {
        assert_eq!(parse_shards("7"), Ok(7..8));
        assert_eq!(parse_shards("0..30"), Ok(0..30));
        assert!(parse_shards("5..5").unwrap_err().contains("no shard"));
        assert!(parse_shards("a..3").unwrap_err().contains("`a`"));
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xq-shard-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_folder_refuses_another_runs_settings() {
        let dir = temp_dir("claim");
        claim_folder(&dir, "kind: self-play\nseed: 4\n").unwrap();
        claim_folder(&dir, "kind: self-play\nseed: 4\n").unwrap();
        let err = claim_folder(&dir, "kind: self-play\nseed: 5\n").unwrap_err();
        assert!(
            err.to_string()
                .contains("it says `seed: 4`, this command `seed: 5`"),
            "{err}"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_shard_is_made_once_and_merged_without_duplicates() {
        let dir = temp_dir("merge");
        fs::create_dir_all(&dir).unwrap();
        let start = Position::startpos();
        let other = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
        )
        .unwrap();
        let sample = |pos: &Position, g| Sample::new(pos, 5, Outcome::Draw, Source::SelfPlay, g);
        let made = make_shard(&dir, 0, |out| -> io::Result<u64> {
            out.write(&sample(&start, 0))?;
            out.write(&sample(&other, 1))?;
            Ok(2)
        })
        .unwrap();
        assert_eq!(made, Some(2));
        let again = make_shard(&dir, 0, |_| -> io::Result<u64> { panic!("made twice") });
        assert_eq!(again.unwrap(), None, "a shard already there is skipped");
        make_shard(&dir, 1, |out| -> io::Result<()> {
            out.write(&sample(&start, 1000))?; // the same position from another game
            Ok(())
        })
        .unwrap();
        // A shard stopped half way leaves only a `.part` file, which is not a shard.
        fs::write(dir.join("shard-00002.bin.part"), b"XQNNDAT1abc").unwrap();
        let shards = shards_in(&dir).unwrap();
        assert_eq!(shards, vec![shard_path(&dir, 0), shard_path(&dir, 1)]);

        let mut out = DataWriter::new(Vec::new()).unwrap();
        let summary = merge(&shards, &mut out).unwrap();
        assert_eq!(
            summary,
            MergeSummary {
                files: 2,
                read: 3,
                written: 2,
                duplicates: 1
            }
        );
        let bytes = out.finish().unwrap();
        assert_eq!(bytes.len() as u64, file_bytes(2));

        // A damaged shard is named, and nothing is taken from past the damage.
        let damaged = dir.join("shard-00003.bin");
        fs::write(&damaged, &bytes[..bytes.len() - 3]).unwrap();
        let (name, err) = merge(
            std::slice::from_ref(&damaged),
            &mut DataWriter::new(Vec::new()).unwrap(),
        )
        .unwrap_err();
        assert_eq!(name, damaged.display().to_string());
        assert!(
            matches!(err, DataError::Truncated { record: 1, .. }),
            "{err}"
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
