#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

use std::sync::OnceLock;
use xiangqi_core::{Move, Position};

/// How many plies of each game the built-in book covers.
pub const BUILD_PLIES: usize = 30;
/// A move enters the book only if played at least this often in the position.
pub const MIN_GAMES: u32 = 3;
/// ...and only if the side that played it scored at least this share (wins + half the draws).
pub const MIN_SCORE_PERCENT: u32 = 40;

/// One book move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// How many master games played it here (the weight when picking).
    pub games: u16,
    /// The score of the side that played it, in per mille (1000 = won every game).
    pub score_permille: u16,
}

/// Size of one entry in the binary format: key u64, move u16, games u16, score u16 (LE).
const ENTRY: usize = 14;

/// An opening book: entries sorted by position key.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: Vec<(u64, BookMove)>,
}

/// Why a book file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The length is not a multiple of the entry size.
    BadLength(usize),
    /// An entry holds something that is not a move (entry index).
    BadMove(usize),
}

impl std::fmt::Display for BookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BookError::BadLength(n) => write!(f, "book length {n} is not a multiple of {ENTRY}"),
            BookError::BadMove(i) => write!(f, "book entry {i} does not hold a move"),
        }
    }
}

impl std::error::Error for BookError {}

impl Book {
    /// The built-in book (made once, on first use).
    pub fn builtin() -> &'static Book {
        static BOOK: OnceLock<Book> = OnceLock::new();
        BOOK.get_or_init(|| {
            Book::from_bytes(include_bytes!("../data/book.bin"))
                .expect("the built-in book is valid")
        })
    }

    /// Reads a book in the binary format [`Book::to_bytes`] writes.
    ///
    /// # Errors
    /// [`BookError`] if the bytes are not a book.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if !bytes.len().is_multiple_of(ENTRY) {
            return Err(BookError::BadLength(bytes.len()));
        }
        let mut entries = Vec::with_capacity(bytes.len() / ENTRY);
        for (i, e) in bytes.chunks_exact(ENTRY).enumerate() {
            let key = u64::from_le_bytes(e[0..8].try_into().expect("8 bytes"));
            let word = |o: usize| u16::from_le_bytes([e[o], e[o + 1]]);
            let mv = Move::from_u16(word(8)).ok_or(BookError::BadMove(i))?;
            entries.push((
                key,
                BookMove {
                    mv,
                    games: word(10),
                    score_permille: word(12),
                },
            ));
        }
        entries.sort_by_key(|(k, m)| (*k, m.mv));
        Ok(Book { entries })
    }

    /// The binary form: entries of 14 bytes (key u64, move u16, games u16, score u16, little endian).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.entries.len() * ENTRY);
        for (key, m) in &self.entries {
            out.extend_from_slice(&key.to_le_bytes());
            out.extend_from_slice(&m.mv.to_u16().to_le_bytes());
            out.extend_from_slice(&m.games.to_le_bytes());
            out.extend_from_slice(&m.score_permille.to_le_bytes());
        }
        out
    }

    /// A book from (position key, move) entries, in any order.
    pub fn from_entries(mut entries: Vec<(u64, BookMove)>) -> Book {
        entries.sort_by_key(|(k, m)| (*k, m.mv));
        Book { entries }
    }

    /// How many (position, move) entries the book has.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Is the book empty?
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book moves for `pos` that are legal there, most played first.
    pub fn moves(&self, pos: &Position) -> Vec<BookMove> {
        let key = pos.key();
        let start = self.entries.partition_point(|(k, _)| *k < key);
        let mut out: Vec<BookMove> = self.entries[start..]
            .iter()
            .take_while(|(k, _)| *k == key)
            .map(|(_, m)| *m)
            .filter(|m| pos.is_legal(m.mv))
            .collect();
        out.sort_by(|a, b| b.games.cmp(&a.games).then(a.mv.cmp(&b.mv)));
        out
    }

    /// A book move for `pos`, chosen at random in proportion to how often masters played
    /// it; `seed` makes the choice (the same seed gives the same move). `None` out of book.
    pub fn pick(&self, pos: &Position, seed: u64) -> Option<Move> {
        let moves = self.moves(pos);
        let total: u64 = moves.iter().map(|m| u64::from(m.games)).sum();
        if total == 0 {
            return None;
        }
        // SplitMix64 step: a well-mixed number from the seed and the position.
        let mut z = seed ^ pos.key();
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        let mut r = z % total;
        for m in &moves {
            if r < u64::from(m.games) {
                return Some(m.mv);
            }
            r -= u64::from(m.games);
        }
        None
    }
}
