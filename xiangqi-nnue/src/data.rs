//! Training positions in a compact binary file: 36 bytes a position.
//!
//! A file is the 8-byte magic `XQNNDAT1` followed by records, each:
//!
//! | bytes | what |
//! |---|---|
//! | 0..12 | which of the 90 points hold a piece, bit `i` for square index `i` (little-endian; bits 90..96 zero) |
//! | 12..28 | the pieces in square order, a nibble each (`color * 8 + role`), low nibble first; unused nibbles zero |
//! | 28..30 | the search score for the side to move (`i16`, little-endian) |
//! | 30 | the game's result for the side to move: 0 lost, 1 drawn, 2 won |
//! | 31 | bit 0: black to move; bit 1: from a master game (else self-play); other bits zero |
//! | 32..36 | the number of the game the position comes from (`u32`, little-endian) |
//!
//! The game number lets the trainer hold out whole games for validation, so that the
//! validation loss is not flattered by near-copies of training positions.

use core::fmt;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;
use xiangqi_core::{Color, Piece, Position, Problems, Role, Setup, Square};

/// The first bytes of every data file.
pub const MAGIC: &[u8; 8] = b"XQNNDAT1";
/// The size of one record.
pub const RECORD_BYTES: usize = 36;
/// The most pieces a legal position has.
const MAX_PIECES: usize = 32;

/// How a game ended, for the side to move of a position in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move went on to lose.
    Loss = 0,
    /// The game was drawn.
    Draw = 1,
    /// The side to move went on to win.
    Win = 2,
}

impl Outcome {
    /// The same result seen by the other side.
    pub fn flipped(self) -> Outcome {
        match self {
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Win => Outcome::Loss,
        }
    }
    /// 0, ½ or 1: the training target's game-result part.
    pub fn value(self) -> f32 {
        f32::from(self as u8) / 2.0
    }
}

/// Where a position comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// A game of the engine against itself.
    SelfPlay,
    /// A master game, scored by the engine's search.
    Master,
}

/// One training position: the pieces, the side to move, a search score and the game result.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Sample {
    bytes: [u8; RECORD_BYTES],
}

impl fmt::Debug for Sample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sample")
            .field("side_to_move", &self.side_to_move())
            .field("score", &self.score())
            .field("outcome", &self.outcome())
            .field("source", &self.source())
            .field("game", &self.game())
            .finish()
    }
}

impl Sample {
    /// Packs `pos` with its search `score` (side to move's view), the game's `outcome` for
    /// the side to move, where it comes from and its game number.
    pub fn new(pos: &Position, score: i16, outcome: Outcome, source: Source, game: u32) -> Sample {
        let mut bytes = [0u8; RECORD_BYTES];
        let mut occupancy: u128 = 0;
        let mut nibble = 0;
        for square in Square::all() {
            if let Some(piece) = pos.piece_at(square) {
                occupancy |= 1 << square.index();
                let code = (piece.color.index() * 8 + piece.role.index()) as u8;
                bytes[12 + nibble / 2] |= code << (4 * (nibble % 2));
                nibble += 1;
            }
        }
        bytes[..12].copy_from_slice(&occupancy.to_le_bytes()[..12]);
        bytes[28..30].copy_from_slice(&score.to_le_bytes());
        bytes[30] = outcome as u8;
        bytes[31] = u8::from(pos.side_to_move() == Color::Black)
            | (u8::from(source == Source::Master) << 1);
        bytes[32..36].copy_from_slice(&game.to_le_bytes());
        Sample { bytes }
    }

    /// Reads a record, checking everything a reader relies on.
    pub fn from_bytes(bytes: [u8; RECORD_BYTES]) -> Result<Sample, &'static str> {
        let sample = Sample { bytes };
        let occupancy = sample.occupancy();
        if occupancy >> Square::COUNT != 0 {
            return Err("a piece beyond the 90 points");
        }
        let count = occupancy.count_ones() as usize;
        if count > MAX_PIECES {
            return Err("more than 32 pieces");
        }
        let mut kings = [0; 2];
        for i in 0..MAX_PIECES {
            let code = sample.nibble(i);
            if i >= count {
                if code != 0 {
                    return Err("a piece code after the last piece");
                }
                continue;
            }
            if code & 7 == 7 {
                return Err("an unknown piece code");
            }
            if code & 7 == 0 {
                kings[usize::from(code >> 3)] += 1;
            }
        }
        if kings != [1, 1] {
            return Err("not exactly one general a side");
        }
        if bytes[30] > 2 {
            return Err("an unknown game result");
        }
        if bytes[31] & !3 != 0 {
            return Err("unknown flag bits");
        }
        Ok(sample)
    }

    /// The record as stored.
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        self.bytes
    }

    fn occupancy(&self) -> u128 {
        let mut b = [0u8; 16];
        b[..12].copy_from_slice(&self.bytes[..12]);
        u128::from_le_bytes(b)
    }

    fn nibble(&self, i: usize) -> u8 {
        (self.bytes[12 + i / 2] >> (4 * (i % 2))) & 15
    }

    /// The pieces and their points.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let mut occupancy = self.occupancy();
        let mut i = 0;
        core::iter::from_fn(move || {
            if occupancy == 0 {
                return None;
            }
            let index = occupancy.trailing_zeros() as u8;
            occupancy &= occupancy - 1;
            let code = self.nibble(i);
            i += 1;
            let color = if code >> 3 == 0 {
                Color::Red
            } else {
                Color::Black
            };
            let role = Role::ALL[usize::from(code & 7)];
            Some((Square::from_index_unchecked(index), Piece::new(color, role)))
        })
    }

    /// Whose turn it is.
    pub fn side_to_move(&self) -> Color {
        if self.bytes[31] & 1 == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// The search score for the side to move.
    pub fn score(&self) -> i16 {
        i16::from_le_bytes([self.bytes[28], self.bytes[29]])
    }

    /// The game's result for the side to move.
    pub fn outcome(&self) -> Outcome {
        match self.bytes[30] {
            0 => Outcome::Loss,
            1 => Outcome::Draw,
            _ => Outcome::Win,
        }
    }

    /// Where the position comes from.
    pub fn source(&self) -> Source {
        if self.bytes[31] & 2 == 0 {
            Source::SelfPlay
        } else {
            Source::Master
        }
    }

    /// The number of the game the position comes from.
    pub fn game(&self) -> u32 {
        u32::from_le_bytes([
            self.bytes[32],
            self.bytes[33],
            self.bytes[34],
            self.bytes[35],
        ])
    }

    /// The position (move counters reset). Fails where the pieces break the rules' setup
    /// checks, say a general outside its palace.
    pub fn position(&self) -> Result<Position, xiangqi_core::SetupError> {
        let mut setup = Setup::empty();
        for (square, piece) in self.pieces() {
            setup.board[square.index()] = Some(piece);
        }
        setup.side_to_move = self.side_to_move();
        Position::from_setup(&setup, Problems::empty())
    }
}

/// Why a data file could not be read.
#[derive(Debug)]
pub enum DataError {
    /// Reading failed.
    Io(io::Error),
    /// The file does not start with [`MAGIC`].
    NotADataFile,
    /// The file ends inside a record.
    Truncated {
        /// The number of the incomplete record (0-based).
        record: u64,
        /// How many of its bytes are there.
        bytes: usize,
    },
    /// A record breaks the format.
    BadRecord {
        /// The number of the record (0-based).
        record: u64,
        /// What is wrong with it.
        problem: &'static str,
    },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Io(e) => write!(f, "reading the data file failed: {e}"),
            DataError::NotADataFile => {
                write!(
                    f,
                    "not a training data file (it does not start with XQNNDAT1)"
                )
            }
            DataError::Truncated { record, bytes } => write!(
                f,
                "the file ends inside record {record}: {bytes} of its {RECORD_BYTES} bytes"
            ),
            DataError::BadRecord { record, problem } => write!(f, "record {record}: {problem}"),
        }
    }
}

impl std::error::Error for DataError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DataError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for DataError {
    fn from(e: io::Error) -> DataError {
        DataError::Io(e)
    }
}

/// Writes samples to a data file.
pub struct DataWriter<W: Write> {
    out: W,
    written: u64,
}

impl DataWriter<BufWriter<File>> {
    /// Creates (or truncates) the file at `path`.
    pub fn create(path: impl AsRef<Path>) -> io::Result<Self> {
        DataWriter::new(BufWriter::new(File::create(path)?))
    }
}

impl<W: Write> DataWriter<W> {
    /// Starts a data file on `out` (writes the magic).
    pub fn new(mut out: W) -> io::Result<Self> {
        out.write_all(MAGIC)?;
        Ok(DataWriter { out, written: 0 })
    }
    /// Appends one sample.
    pub fn write(&mut self, sample: &Sample) -> io::Result<()> {
        self.out.write_all(&sample.bytes)?;
        self.written += 1;
        Ok(())
    }
    /// How many samples were written.
    pub fn written(&self) -> u64 {
        self.written
    }
    /// Flushes and hands back the output.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Reads samples from a data file, one at a time.
pub struct DataReader<R: Read> {
    input: R,
    record: u64,
    done: bool,
}

impl DataReader<BufReader<File>> {
    /// Opens the file at `path` and checks its magic.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, DataError> {
        DataReader::new(BufReader::new(File::open(path)?))
    }
}

impl<R: Read> DataReader<R> {
    /// Reads the magic from `input`.
    pub fn new(mut input: R) -> Result<Self, DataError> {
        let mut magic = [0u8; 8];
        match input.read_exact(&mut magic) {
            Ok(()) if &magic == MAGIC => {}
            Ok(()) => return Err(DataError::NotADataFile),
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                return Err(DataError::NotADataFile)
            }
            Err(e) => return Err(e.into()),
        }
        Ok(DataReader {
            input,
            record: 0,
            done: false,
        })
    }
}

impl<R: Read> Iterator for DataReader<R> {
    type Item = Result<Sample, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut bytes = [0u8; RECORD_BYTES];
        let mut filled = 0;
        while filled < RECORD_BYTES {
            match self.input.read(&mut bytes[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.done = true;
                    return Some(Err(e.into()));
                }
            }
        }
        let record = self.record;
        self.record += 1;
        if filled == 0 {
            self.done = true;
            return None;
        }
        if filled < RECORD_BYTES {
            self.done = true;
            return Some(Err(DataError::Truncated {
                record,
                bytes: filled,
            }));
        }
        Some(Sample::from_bytes(bytes).map_err(|problem| {
            self.done = true;
            DataError::BadRecord { record, problem }
        }))
    }
}

/// Reads every sample of the files at `paths`, stopping at the first damage.
pub fn read_all(paths: &[impl AsRef<Path>]) -> Result<Vec<Sample>, (String, DataError)> {
    let mut samples = Vec::new();
    for path in paths {
        let name = path.as_ref().display().to_string();
        let reader = DataReader::open(path).map_err(|e| (name.clone(), e))?;
        for sample in reader {
            samples.push(sample.map_err(|e| (name.clone(), e))?);
        }
    }
    Ok(samples)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_keeps_its_position() {
        let pos =
            Position::from_fen("2bak4/4a4/4b1n2/p3p1p1p/2p6/6P2/P1P1P3P/4B1N2/4A4/2BAK4 b - - 0 1")
                .unwrap();
        let s = Sample::new(&pos, -123, Outcome::Win, Source::Master, 77);
        let back = Sample::from_bytes(s.to_bytes()).unwrap();
        assert_eq!(back.position().unwrap().to_string(), pos.to_string());
        assert_eq!(back.side_to_move(), Color::Black);
        assert_eq!(
            (back.score(), back.outcome(), back.source(), back.game()),
            (-123, Outcome::Win, Source::Master, 77)
        );
    }

    #[test]
    fn damaged_files_are_refused_with_the_record_named() {
        let pos = Position::startpos();
        let mut w = DataWriter::new(Vec::new()).unwrap();
        for g in 0..3 {
            w.write(&Sample::new(&pos, 10, Outcome::Draw, Source::SelfPlay, g))
                .unwrap();
        }
        let bytes = w.finish().unwrap();
        let all: Vec<_> = DataReader::new(&bytes[..])
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(all.len(), 3);

        let cut = &bytes[..bytes.len() - 5];
        let last = DataReader::new(cut).unwrap().last().unwrap();
        assert!(
            matches!(
                last,
                Err(DataError::Truncated {
                    record: 2,
                    bytes: 31
                })
            ),
            "{last:?}"
        );

        let mut bad = bytes.clone();
        bad[8 + RECORD_BYTES + 30] = 9; // record 1's result
        let err = DataReader::new(&bad[..])
            .unwrap()
            .find_map(Result::err)
            .unwrap();
        assert_eq!(err.to_string(), "record 1: an unknown game result");

        assert!(matches!(
            DataReader::new(&b"XQNN"[..]),
            Err(DataError::NotADataFile)
        ));
    }
}
