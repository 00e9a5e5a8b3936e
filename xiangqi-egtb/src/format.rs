//! The table file: a header naming the material, the format version and the rules, a
//! block table with each block's checksum, and the values of each side to move in blocks
//! of 65,536 positions compressed with zstd, so that a probe reads and unpacks one block.
//!
//! ```text
//! 0   magic       "XQEGTB\r\n"
//! 8   version     u16 (2; version 1 indexed positions with both generals on file e
//!                 twice)
//! 10  rules       u16: 0 = naive (every endless line a draw; exact when one side cannot
//!                 attack), 1 = Asian rules (the perpetual checker loses)
//! 12  entry bytes u8: 1 for naive tables (0 draw, 1 invalid, 2 + d a result in d
//!                 plies, odd d a win); 2 for Asian ones, the same values as u16 and,
//!                 with the top bit set, a result by the perpetual-check rule (bit 14 set
//!                 for a win, the rank in bits 0-13)
//! 13  reserved    u8
//! 14  name        32 bytes, ASCII, zero-padded ("krkaabb")
//! 46  positions   u64, per side to move
//! 54  block size  u32, positions per block (65,536)
//! 58  blocks      u32, per side to move
//! 62  longest     u16, the longest distance to mate in the table (plies)
//! 64  block table red's blocks then black's, each: offset u64, length u32, crc32 u32
//! ..  header crc  u32, CRC-32 of everything above
//! ..  blocks
//! ```
//! All numbers little-endian. Invalid positions (which no legal position maps to) take the
//! value before them, which compresses better and is never read.

use crate::index::Layout;
use crate::material::Material;
use crate::platform::{self, RandomAccess};
use crate::table::{Rules, TableData, INVALID, UNKNOWN};
use crate::value::RULE_FLAG;
use rayon::prelude::*;
use std::fmt;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use xiangqi_core::Color;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"XQEGTB\r\n";
/// The format version this build writes and reads.
pub const VERSION: u16 = 2;
/// Positions per compressed block.
pub const BLOCK: usize = 1 << 16;
const HEADER: usize = 64;
const NAME_BYTES: usize = 32;
/// zstd level. 9 packs a table's runs of equal bytes well at little cost.
const LEVEL: i32 = 9;
/// zstd level for a table of at most [`SMALL_TABLE`] positions a side. 15 packs 15–18 %
/// smaller than 9 and costs 5–15 % more generation time (kcckaabb: 4.40 against 5.13 MB,
/// 50 against 44 s CPU): worth it only where the time is nothing and the fixed cost of a
/// file is a larger share, which is also where FelicityEgtb's files come nearest ours
/// (kcaakaa: 67 KB at 15, 77 KB at 9, its 68 KB).
const SMALL_LEVEL: i32 = 15;
/// The largest table, in positions a side, written at [`SMALL_LEVEL`].
const SMALL_TABLE: usize = 1 << 19;

/// Whether a table file is there and readable by this build (its header checks out).
pub fn is_usable(path: &Path) -> bool {
    TableFile::open(path).is_ok()
}

/// The file name of a material's table in a folder.
pub fn table_path(dir: &Path, material: Material) -> PathBuf {
    dir.join(format!("{material}.xqtb"))
}

/// A table file that cannot be read, and why.
#[derive(Debug)]
pub enum FormatError {
    /// The file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        error: io::Error,
    },
    /// The file is not what its header says, or is damaged.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            FormatError::Corrupt { path, what } => {
                write!(f, "{}: not a valid table: {what}", path.display())
            }
        }
    }
}

impl std::error::Error for FormatError {}

#[derive(Copy, Clone, Debug)]
pub(crate) struct BlockRef {
    offset: u64,
    len: u32,
    crc: u32,
}

/// An open table file: its header read and checked; blocks read on demand.
#[derive(Debug)]
pub(crate) struct TableFile {
    pub(crate) path: PathBuf,
    file: RandomAccess,
    pub(crate) material: Material,
    pub(crate) rules: Rules,
    pub(crate) positions: u64,
    #[allow(dead_code)]
    pub(crate) longest: u16,
    blocks: [Vec<BlockRef>; 2],
}

fn corrupt(path: &Path, what: impl Into<String>) -> FormatError {
    FormatError::Corrupt {
        path: path.to_path_buf(),
        what: what.into(),
    }
}

fn io_err(path: &Path, error: io::Error) -> FormatError {
    FormatError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// Writes a table, returning the file's size in bytes.
///
/// # Errors
/// The system's error when the file cannot be written.
pub fn write_table(path: &Path, data: &TableData) -> io::Result<u64> {
    let n = data.size() as usize;
    let nblocks = n.div_ceil(BLOCK);
    let rules = data.rules();
    let width = entry_bytes(rules);
    let level = if n <= SMALL_TABLE { SMALL_LEVEL } else { LEVEL };
    let mut longest = 0u16;
    let mut packed: Vec<Vec<u8>> = Vec::with_capacity(2 * nblocks);
    for side in [Color::Red, Color::Black] {
        for &b in data.values[side.index()].iter() {
            if b >= 2 {
                longest = longest.max(b as u16 - 2);
            }
        }
        let blocks: Vec<io::Result<Vec<u8>>> = (0..nblocks)
            .into_par_iter()
            .map(|k| {
                let range = k * BLOCK..((k + 1) * BLOCK).min(n);
                let mut filled = Vec::with_capacity(range.len() * width);
                let mut last = u16::from(UNKNOWN);
                for idx in range {
                    let e = data.entry(side, idx as u64);
                    let e = if e == u16::from(INVALID) { last } else { e };
                    if width == 1 {
                        filled.push(e as u8);
                    } else {
                        filled.extend_from_slice(&e.to_le_bytes());
                    }
                    last = e;
                }
                platform::compress(&filled, level)
            })
            .collect();
        for b in blocks {
            packed.push(b?);
        }
    }
    let table_bytes = 2 * nblocks * 16;
    let data_start = (HEADER + table_bytes + 4) as u64;
    let mut header = Vec::with_capacity(HEADER + table_bytes + 4);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&VERSION.to_le_bytes());
    header.extend_from_slice(&(rules as u16).to_le_bytes());
    header.push(width as u8);
    header.push(0);
    let mut name = [0u8; NAME_BYTES];
    let text = data.material().to_string();
    name[..text.len()].copy_from_slice(text.as_bytes());
    header.extend_from_slice(&name);
    header.extend_from_slice(&(n as u64).to_le_bytes());
    header.extend_from_slice(&(BLOCK as u32).to_le_bytes());
    header.extend_from_slice(&(nblocks as u32).to_le_bytes());
    header.extend_from_slice(&longest.to_le_bytes());
    debug_assert_eq!(header.len(), HEADER);
    let mut offset = data_start;
    for block in &packed {
        header.extend_from_slice(&offset.to_le_bytes());
        header.extend_from_slice(&(block.len() as u32).to_le_bytes());
        header.extend_from_slice(&crc32fast::hash(block).to_le_bytes());
        offset += block.len() as u64;
    }
    let crc = crc32fast::hash(&header);
    header.extend_from_slice(&crc.to_le_bytes());
    // Written beside under a name of this process's own and renamed, so that a reader
    // never sees half a table and two programs making the same table at once (an engine
    // and the web server filling the default folder) never write into one file.
    let tmp = path.with_extension(format!("xqtb.{}.part", std::process::id()));
    {
        let mut f = io::BufWriter::new(File::create(&tmp)?);
        f.write_all(&header)?;
        for block in &packed {
            f.write_all(block)?;
        }
        f.flush()?;
    }
    std::fs::rename(&tmp, path)?;
    Ok(offset)
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("four bytes"))
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("eight bytes"))
}

impl TableData {
    /// Reads a whole table file into memory, checking every block.
    ///
    /// # Errors
    /// [`FormatError`] when the file is missing, truncated or damaged.
    pub fn load(path: &Path) -> Result<TableData, FormatError> {
        TableFile::open(path)?.load()
    }
}

impl TableFile {
    /// Opens a table file and checks its header against its name and its checksum.
    pub(crate) fn open(path: &Path) -> Result<TableFile, FormatError> {
        let file = RandomAccess::new(File::open(path).map_err(|e| io_err(path, e))?);
        let len = file.len().map_err(|e| io_err(path, e))?;
        if len < HEADER as u64 + 4 {
            return Err(corrupt(path, format!("{len} bytes, shorter than a header")));
        }
        let mut head = [0u8; HEADER];
        file.read_exact_at(&mut head, 0)
            .map_err(|e| io_err(path, e))?;
        if &head[..8] != MAGIC {
            return Err(corrupt(path, "no XQEGTB magic at the start"));
        }
        let version = u16_at(&head, 8);
        if version != VERSION {
            return Err(corrupt(
                path,
                format!("format version {version}; this build reads {VERSION}"),
            ));
        }
        let rules = match u16_at(&head, 10) {
            0 => Rules::Naive,
            1 => Rules::Asian,
            r => return Err(corrupt(path, format!("unknown rules {r}"))),
        };
        if usize::from(head[12]) != entry_bytes(rules) {
            return Err(corrupt(
                path,
                format!("{}-byte entries in a table with rules {rules:?}", head[12]),
            ));
        }
        let name_end = head[14..14 + NAME_BYTES]
            .iter()
            .position(|&b| b == 0)
            .unwrap_or(NAME_BYTES);
        let name = std::str::from_utf8(&head[14..14 + name_end])
            .map_err(|_| corrupt(path, "the material name is not text"))?;
        let material: Material = name
            .parse()
            .map_err(|e| corrupt(path, format!("material: {e}")))?;
        if material.to_string() != name {
            return Err(corrupt(
                path,
                format!("material {name:?} is not in canonical form"),
            ));
        }
        let positions = u64_at(&head, 46);
        let expected = Layout::new(material).size();
        if positions != expected {
            return Err(corrupt(
                path,
                format!("{positions} positions a side; {name} has {expected}"),
            ));
        }
        let block = u32_at(&head, 54) as usize;
        if block != BLOCK {
            return Err(corrupt(
                path,
                format!("block size {block}; expected {BLOCK}"),
            ));
        }
        let nblocks = u32_at(&head, 58) as usize;
        if nblocks != (positions as usize).div_ceil(BLOCK) {
            return Err(corrupt(
                path,
                format!("{nblocks} blocks for {positions} positions"),
            ));
        }
        let longest = u16_at(&head, 62);
        let table_bytes = 2 * nblocks * 16;
        if len < (HEADER + table_bytes + 4) as u64 {
            return Err(corrupt(path, "truncated in the block table"));
        }
        let mut table = vec![0u8; table_bytes + 4];
        file.read_exact_at(&mut table, HEADER as u64)
            .map_err(|e| io_err(path, e))?;
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(&head);
        hasher.update(&table[..table_bytes]);
        if hasher.finalize() != u32_at(&table, table_bytes) {
            return Err(corrupt(path, "header checksum mismatch"));
        }
        let mut blocks = [Vec::with_capacity(nblocks), Vec::with_capacity(nblocks)];
        for i in 0..2 * nblocks {
            let at = i * 16;
            let r = BlockRef {
                offset: u64_at(&table, at),
                len: u32_at(&table, at + 8),
                crc: u32_at(&table, at + 12),
            };
            if r.offset + r.len as u64 > len {
                return Err(corrupt(
                    path,
                    format!("truncated: block {i} ends past the end of the file"),
                ));
            }
            blocks[i / nblocks].push(r);
        }
        Ok(TableFile {
            path: path.to_path_buf(),
            file,
            material,
            rules,
            positions,
            longest,
            blocks,
        })
    }

    /// Blocks per side to move.
    pub(crate) fn blocks(&self) -> usize {
        self.blocks[0].len()
    }

    /// Reads, checks and unpacks one block of one side.
    pub(crate) fn read_block(&self, side: usize, k: usize) -> Result<Vec<u8>, FormatError> {
        let r = self.blocks[side][k];
        let mut packed = vec![0u8; r.len as usize];
        self.file
            .read_exact_at(&mut packed, r.offset)
            .map_err(|e| io_err(&self.path, e))?;
        if crc32fast::hash(&packed) != r.crc {
            return Err(corrupt(
                &self.path,
                format!("block {k} of side {side}: checksum mismatch"),
            ));
        }
        let want = (self.positions as usize - k * BLOCK).min(BLOCK) * entry_bytes(self.rules);
        let out = platform::decompress(&packed, want)
            .map_err(|e| corrupt(&self.path, format!("block {k} of side {side}: {e}")))?;
        if out.len() != want {
            return Err(corrupt(
                &self.path,
                format!(
                    "block {k} of side {side}: {} bytes, expected {want}",
                    out.len()
                ),
            ));
        }
        Ok(out)
    }

    /// The whole table in memory (for generating the tables whose captures lead here).
    /// The naive values of a table with the rule are its entries with the rule's values
    /// as draws.
    pub(crate) fn load(&self) -> Result<TableData, FormatError> {
        let mut raw = [Vec::new(), Vec::new()];
        for (side, v) in raw.iter_mut().enumerate() {
            let parts: Result<Vec<Vec<u8>>, FormatError> = (0..self.blocks())
                .into_par_iter()
                .map(|k| self.read_block(side, k))
                .collect();
            *v = parts?.concat();
        }
        let layout = Layout::new(self.material);
        if self.rules == Rules::Naive {
            return Ok(TableData {
                layout,
                values: raw,
                ruled: None,
            });
        }
        let words = raw.map(|b| {
            b.chunks_exact(2)
                .map(|w| u16::from_le_bytes([w[0], w[1]]))
                .collect::<Vec<u16>>()
        });
        let values = [0, 1].map(|s| {
            words[s]
                .iter()
                .map(|&e| if e & RULE_FLAG != 0 { UNKNOWN } else { e as u8 })
                .collect()
        });
        Ok(TableData {
            layout,
            values,
            ruled: Some(words),
        })
    }
}

/// Bytes per entry: one for a naive table, two for one with the rule's values.
pub(crate) fn entry_bytes(rules: Rules) -> usize {
    match rules {
        Rules::Naive => 1,
        Rules::Asian => 2,
    }
}
