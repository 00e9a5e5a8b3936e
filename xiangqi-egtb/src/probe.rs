//! Probing: a folder of table files, asked about positions.

use crate::format::{table_path, FormatError, TableFile, BLOCK};
use crate::index::Layout;
use crate::material::Material;
use crate::table::Rules;
use crate::value::{Dtm, Wdl};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use xiangqi_core::{Color, Move, Position};

/// How many unpacked blocks (64 KiB each) one table keeps.
const CACHED_BLOCKS: usize = 64;

/// Unpacked blocks by (side to move, block number).
type BlockCache = Mutex<HashMap<(u8, u32), Arc<Vec<u8>>>>;

/// A table that [`Tablebase::open`] found, read when first probed.
struct Table {
    file: TableFile,
    layout: Layout,
    /// Unpacked blocks by (side, block); emptied when full.
    cache: BlockCache,
}

/// A folder of tables.
///
/// ```no_run
/// use xiangqi_core::Position;
/// use xiangqi_egtb::{Dtm, Tablebase};
///
/// let tb = Tablebase::open("tables")?;
/// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/R2K5 w - - 0 1")?;
/// if let Some(Dtm::Win(plies)) = tb.probe_dtm(&pos)? {
///     println!("red mates in {plies} plies");
/// }
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub struct Tablebase {
    dir: PathBuf,
    tables: HashMap<Material, Table>,
}

/// The value of one legal move: its distance to mate for the side that plays it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MoveValue {
    /// The move.
    #[serde(serialize_with = "serialize_move")]
    pub mv: Move,
    /// What it leads to, from the mover's point of view; `None` when it leads into a
    /// material without a table.
    pub value: Option<Dtm>,
}

fn serialize_move<S: serde::Serializer>(m: &Move, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&m.to_string())
}

impl Tablebase {
    /// Opens every table file (`*.xqtb`) in `dir`, checking each header.
    ///
    /// # Errors
    /// [`FormatError`] when the folder cannot be read or a table's header is damaged.
    pub fn open(dir: impl AsRef<Path>) -> Result<Tablebase, FormatError> {
        let dir = dir.as_ref().to_path_buf();
        let mut tables = HashMap::new();
        let entries = std::fs::read_dir(&dir).map_err(|error| FormatError::Io {
            path: dir.clone(),
            error,
        })?;
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "xqtb"))
            .collect();
        paths.sort();
        for path in paths {
            let file = TableFile::open(&path)?;
            let layout = Layout::new(file.material);
            tables.insert(
                file.material,
                Table {
                    file,
                    layout,
                    cache: Mutex::new(HashMap::new()),
                },
            );
        }
        Ok(Tablebase { dir, tables })
    }

    /// An empty tablebase (no tables): every probe answers `None` except dead draws.
    pub fn empty() -> Tablebase {
        Tablebase {
            dir: PathBuf::new(),
            tables: HashMap::new(),
        }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The materials that have a table, by name.
    pub fn materials(&self) -> Vec<Material> {
        let mut v: Vec<Material> = self.tables.keys().copied().collect();
        v.sort_by_key(|m| m.to_string());
        v
    }

    /// Whether a table for this material (in either orientation) is here.
    pub fn has(&self, material: Material) -> bool {
        self.tables.contains_key(&material.canonical())
    }

    /// The rules a material's table obeys.
    pub fn rules(&self, material: Material) -> Option<Rules> {
        self.tables.get(&material.canonical()).map(|t| t.file.rules)
    }

    /// The most pieces of any table here (the engine probes below this many).
    pub fn max_pieces(&self) -> u32 {
        self.tables.keys().map(|m| m.total()).max().unwrap_or(0)
    }

    /// The file of a material's table in this folder, whether or not it exists.
    pub fn path_of(&self, material: Material) -> PathBuf {
        table_path(&self.dir, material.canonical())
    }

    /// The distance to mate of a position, `None` when its material has no table here.
    /// A material where neither side can attack is a draw by the rules and needs no table.
    ///
    /// # Errors
    /// [`FormatError`] when the table's file cannot be read or is damaged: never a wrong
    /// answer.
    pub fn probe_dtm(&self, pos: &Position) -> Result<Option<Dtm>, FormatError> {
        let material = Material::of(pos);
        if material.is_dead_draw() {
            return Ok(Some(Dtm::Draw));
        }
        let Some(table) = self.tables.get(&material.canonical()) else {
            return Ok(None);
        };
        // A position accepted with the side not to move in check is outside every table.
        let us = pos.side_to_move();
        if pos.is_attacked(pos.king_square(us.other()), us) {
            return Ok(None);
        }
        let (pieces, side) = crate::index::table_orientation(pos, material);
        let Some(idx) = table.layout.encode_pieces(&pieces) else {
            return Ok(None);
        };
        let entry = table.entry(side.index(), idx)?;
        Ok(Dtm::from_entry(entry))
    }

    /// Win, draw or loss for the side to move, `None` without a table.
    ///
    /// # Errors
    /// As [`Tablebase::probe_dtm`].
    pub fn probe_wdl(&self, pos: &Position) -> Result<Option<Wdl>, FormatError> {
        Ok(self.probe_dtm(pos)?.map(Dtm::wdl))
    }

    /// Every legal move with its value for the mover, best first (quickest win, then a
    /// win by the perpetual-check rule: a capture, else the lowest rank; then draws, then
    /// losses by the rule, highest rank first, then the slowest loss); `None` when the
    /// position has no table. A move into a
    /// material without a table comes last with `value: None`.
    ///
    /// # Errors
    /// As [`Tablebase::probe_dtm`].
    pub fn probe_moves(&self, pos: &Position) -> Result<Option<Vec<MoveValue>>, FormatError> {
        if self.probe_dtm(pos)?.is_none() {
            return Ok(None);
        }
        let mut out = Vec::new();
        for m in pos.legal_moves() {
            let mut after = pos.clone();
            after.make_move(m);
            let value = self.probe_dtm(&after)?.map(Dtm::before);
            out.push(MoveValue { mv: m, value });
        }
        out.sort_by_key(|mv| {
            let capture = pos.piece_at(mv.mv.to()).is_some();
            std::cmp::Reverse(mv.value.map_or(i32::MIN, |v| order_key(v, capture)))
        });
        Ok(Some(out))
    }

    /// The best move and its value: the quickest mate when winning, a drawing move when
    /// drawn, the slowest mate when losing. `None` without a table or without a legal move.
    ///
    /// # Errors
    /// As [`Tablebase::probe_dtm`].
    pub fn best_move(&self, pos: &Position) -> Result<Option<(Move, Dtm)>, FormatError> {
        Ok(self
            .probe_moves(pos)?
            .and_then(|v| v.first().and_then(|m| m.value.map(|d| (m.mv, d)))))
    }
}

/// The order of a move's value among a position's moves ([`Dtm::preference`]), except that
/// a capture into a position won by the rule comes before every other win by the rule: its
/// rank belongs to another table, and leaving the table is progress in itself (a capture
/// cannot be undone), while a move inside the table must go to a lower rank than the
/// position's own. Choosing by rank alone across tables could step back up the ranks and
/// repeat positions in which the winner checks.
fn order_key(v: Dtm, capture: bool) -> i32 {
    match v {
        Dtm::WinByRule(_) if capture => Dtm::WinByRule(0).preference() + 1,
        v => v.preference(),
    }
}

impl Tablebase {
    /// A random legal position of `material` (strong side red, red to move) whose value
    /// satisfies `want`, drawn with `seed`; `None` without a table or when 200,000 draws
    /// found none (an ending with no such position).
    ///
    /// ```no_run
    /// # use xiangqi_egtb::{Dtm, Tablebase};
    /// let tb = Tablebase::open("tables")?;
    /// let m = "krkaa".parse()?;
    /// let won = tb.random_position(m, |d| matches!(d, Dtm::Win(n) if n >= 9), 7)?;
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Tablebase::probe_dtm`].
    pub fn random_position(
        &self,
        material: Material,
        want: impl Fn(Dtm) -> bool,
        seed: u64,
    ) -> Result<Option<Position>, FormatError> {
        self.random_position_to_move(material, Color::Red, want, seed)
    }

    /// As [`Tablebase::random_position`], with `side` (of the table's orientation: red is
    /// the strong side) to move.
    ///
    /// # Errors
    /// As [`Tablebase::probe_dtm`].
    pub fn random_position_to_move(
        &self,
        material: Material,
        side: Color,
        want: impl Fn(Dtm) -> bool,
        seed: u64,
    ) -> Result<Option<Position>, FormatError> {
        let material = material.canonical();
        let Some(table) = self.tables.get(&material) else {
            return Ok(None);
        };
        let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
        for _ in 0..200_000 {
            // xorshift64*: reproducible from the seed, no dependency.
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            let r = state.wrapping_mul(0x2545_F491_4F6C_DD1D);
            let idx = r % table.layout.size();
            let Some(pos) = crate::stats::position_in(&table.layout, idx, side) else {
                continue;
            };
            if pos.is_attacked(pos.king_square(side.other()), side) {
                continue;
            }
            if let Some(v) = self.probe_dtm(&pos)? {
                if want(v) {
                    return Ok(Some(pos));
                }
            }
        }
        Ok(None)
    }
}

impl Table {
    fn entry(&self, side: usize, idx: u64) -> Result<u16, FormatError> {
        let k = (idx as usize / BLOCK) as u32;
        let at = idx as usize % BLOCK;
        let read = |block: &[u8]| match self.file.rules {
            Rules::Naive => u16::from(block[at]),
            Rules::Asian => u16::from_le_bytes([block[2 * at], block[2 * at + 1]]),
        };
        let key = (side as u8, k);
        if let Some(block) = self
            .cache
            .lock()
            .expect("no panic holds the lock")
            .get(&key)
        {
            return Ok(read(block));
        }
        let block = Arc::new(self.file.read_block(side, k as usize)?);
        let value = read(&block);
        let mut cache = self.cache.lock().expect("no panic holds the lock");
        if cache.len() >= CACHED_BLOCKS {
            cache.clear();
        }
        cache.insert(key, block);
        Ok(value)
    }
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebase")
            .field("dir", &self.dir)
            .field("tables", &self.tables.len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The winner's order: a mate, then a capture into a win by the rule whatever its
    /// rank (the rank is another table's), then the lowest rank inside the table. Found
    /// by playing set 3 out: in krakrb and krknbb, ordering by rank alone chose a move up
    /// the ranks over the capture that was the table's exit, and the winner repeated its
    /// own checks.
    #[test]
    fn a_capture_into_a_win_by_the_rule_comes_before_any_rank() {
        let mut keys = [
            (Dtm::WinByRule(3), false),
            (Dtm::WinByRule(1024), true),
            (Dtm::Win(41), true),
            (Dtm::Draw, false),
            (Dtm::WinByRule(515), false),
        ];
        keys.sort_by_key(|&(v, capture)| std::cmp::Reverse(order_key(v, capture)));
        assert_eq!(
            keys,
            [
                (Dtm::Win(41), true),
                (Dtm::WinByRule(1024), true),
                (Dtm::WinByRule(3), false),
                (Dtm::WinByRule(515), false),
                (Dtm::Draw, false),
            ]
        );
    }
}
