//! The transposition table: a lock-free hash table shared by all search threads.
//!
//! Each entry is two `AtomicU64`: the data word and the key XOR the data word (the
//! "lockless hashing" of Hyatt and Mann, 2002). A reader recomputes `key ^ data` and accepts
//! the entry only when it matches, so a torn write by another thread reads as a miss, never
//! as a wrong entry. The only `unsafe` code is two hints to the machine: the cache prefetch
//! ([`Tt::prefetch`]) and, on Linux, `madvise` for huge pages under the table.
//!
//! Entries come in buckets of four (one cache line). Replacement keeps the entry of the same
//! position if present, else overwrites the one with the least `depth - 8 * age`, where age is
//! how many searches ago it was written.

use crate::tablebase::TB_WIN_BOUND;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use xiangqi_core::{Move, Position};
use xiangqi_eval::Score;

/// How a stored score bounds the true score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most the stored one (fail low).
    Upper = 1,
    /// The true score is at least the stored one (fail high).
    Lower = 2,
    /// The stored score is exact.
    Exact = 3,
}

/// What the table remembers of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The best (or refuting) move found.
    pub mv: Option<Move>,
    /// The score, mate scores relative to the stored node (see [`score_to_tt`]).
    pub score: i32,
    /// The static evaluation.
    pub eval: i32,
    /// The remaining depth of the search that stored it.
    pub depth: i32,
    /// The kind of bound `score` is.
    pub bound: Bound,
}

/// What the table says about a position, for a GUI or a tool (UCCI's `probe`): read-only.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TtProbe {
    /// The best (or refuting) move stored, checked to be legal in the position.
    pub best_move: Option<Move>,
    /// The score for the side to move (mate scores count from this position).
    pub score: Score,
    /// The remaining depth of the search that stored it, in plies (0 or less: quiescence).
    pub depth: i32,
    /// How `score` bounds the true score.
    pub bound: Bound,
}

/// A shared, read-only view of a searcher's table (see `Searcher::table`).
#[derive(Clone)]
pub struct TableView(Arc<Tt>);

impl TableView {
    pub(crate) fn new(tt: Arc<Tt>) -> TableView {
        TableView(tt)
    }
    /// What the table holds for `pos` (see [`Tt::probe_position`]).
    pub fn probe(&self, pos: &Position) -> Option<TtProbe> {
        self.0.probe_position(pos)
    }
}

const BUCKET: usize = 4;
/// Bytes per bucket (one cache line).
const BUCKET_BYTES: usize = 64;
/// The size of a huge page on x86-64 and ARM64 Linux.
const HUGE_PAGE: usize = 2 * 1024 * 1024;

/// Asks Linux to back `len` bytes from `addr` (huge-page aligned, allocated but not yet
/// touched) with transparent huge pages, where the system allows it (`madvise` mode). A
/// hint only: nothing changes if it is refused, and other systems skip it.
#[cfg(target_os = "linux")]
fn advise_huge_pages(addr: usize, len: usize) {
    let len = len / HUGE_PAGE * HUGE_PAGE;
    if len > 0 && addr.is_multiple_of(HUGE_PAGE) {
        // SAFETY: `madvise` with MADV_HUGEPAGE only changes how the kernel backs the pages of
        // this range, which lies inside our own allocation; it reads and writes no memory,
        // and its result (an error on kernels without the feature) is ignored.
        #[allow(unsafe_code)]
        unsafe {
            libc::madvise(addr as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_addr: usize, _len: usize) {}

/// Four entries (check word, data word) in one cache line.
#[repr(align(64))]
struct Bucket([AtomicU64; 2 * BUCKET]);

/// A lock-free transposition table sized in MiB.
pub struct Tt {
    /// The buckets, from index `offset` on (the ones before only align the table).
    table: Vec<Bucket>,
    /// Index of the first bucket in `table`: the table starts on a huge-page boundary.
    offset: usize,
    buckets: usize,
    age: AtomicU64,
}

/// Converts a score at `ply` from the root into the form stored in the table: mate and
/// tablebase scores (from [`crate::TB_WIN_BOUND`] on) count from the stored node, not from
/// the root.
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND.0 {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND.0 {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`]: a stored score seen from a node at `ply`.
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND.0 {
        score - ply as i32
    } else if score <= -TB_WIN_BOUND.0 {
        score + ply as i32
    } else {
        score
    }
}

#[inline]
fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, age: u64) -> u64 {
    let m = mv.map_or(0, |m| m.to_u16()) as u64;
    let s = (score.clamp(-32_000, 32_000) as i16 as u16) as u64;
    let e = (eval.clamp(-32_000, 32_000) as i16 as u16) as u64;
    let d = (depth.clamp(-1, 254) + 1) as u64;
    m | s << 16 | e << 32 | d << 48 | (bound as u64) << 56 | (age & 63) << 58
}

#[inline]
fn unpack(data: u64) -> Option<TtEntry> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some(TtEntry {
        mv: Move::from_u16(data as u16),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xff) as i32 - 1,
        bound,
    })
}

impl Tt {
    /// A table of about `mb` MiB (at least one bucket). If the memory cannot be had, the
    /// size is halved until it can (see [`Tt::size_mb`]), rather than aborting the process.
    pub fn new(mb: usize) -> Tt {
        let bytes = mb.max(1).saturating_mul(1024 * 1024);
        let mut buckets = (bytes / (BUCKET * 16)).max(1);
        // Room to start the table on a huge-page boundary (the operating system may then back
        // it with 2 MiB pages: fewer TLB misses on random probes).
        let slack = if buckets * BUCKET_BYTES >= HUGE_PAGE {
            HUGE_PAGE / BUCKET_BYTES
        } else {
            0
        };
        let mut table: Vec<Bucket> = Vec::new();
        while table.try_reserve_exact(buckets + slack).is_err() && buckets > 1 {
            buckets /= 2;
        }
        let addr = table.as_ptr() as usize;
        let offset = if slack > 0 {
            (HUGE_PAGE - addr % HUGE_PAGE) % HUGE_PAGE / BUCKET_BYTES
        } else {
            0
        };
        advise_huge_pages(addr + offset * BUCKET_BYTES, buckets * BUCKET_BYTES);
        table.resize_with(offset + buckets, || Bucket(Default::default()));
        Tt {
            table,
            offset,
            buckets,
            age: AtomicU64::new(0),
        }
    }

    /// The table's size in MiB (rounded down; 0 for a table under a MiB).
    pub fn size_mb(&self) -> usize {
        self.buckets * BUCKET * 16 / (1024 * 1024)
    }

    /// Empties the table.
    pub fn clear(&self) {
        for b in &self.table {
            for s in &b.0 {
                s.store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: older entries become easier to replace.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[AtomicU64; 2 * BUCKET] {
        &self.table[self.offset + (((key as u128) * (self.buckets as u128)) >> 64) as usize].0
    }

    /// Asks the processor to start loading the bucket of `key` into the cache, so that a
    /// [`Tt::probe`] shortly after does not wait for memory. Only a hint: it has no effect
    /// on the table's contents, and on other processors it does nothing.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse"))]
        {
            let p = self.bucket(key).as_ptr() as *const i8;
            // SAFETY: `_mm_prefetch` only hints the cache; it never faults and reads no
            // data into the program, whatever the address (here a valid bucket). The `sse`
            // feature it needs is checked by the `cfg` above.
            #[allow(unsafe_code)]
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p);
            }
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse")))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let b = self.bucket(key);
        for i in 0..BUCKET {
            let data = b[2 * i + 1].load(Ordering::Relaxed);
            let check = b[2 * i].load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    /// The entry for `pos` as a [`TtProbe`]: the score seen from `pos` itself, the move
    /// dropped unless it is legal there (a key collision can store another position's move).
    pub fn probe_position(&self, pos: &Position) -> Option<TtProbe> {
        let e = self.probe(pos.key())?;
        Some(TtProbe {
            best_move: e.mv.filter(|&m| pos.is_legal(m)),
            score: Score(score_from_tt(e.score, 0)),
            depth: e.depth,
            bound: e.bound,
        })
    }

    /// Stores an entry for `key` (the score already converted with [`score_to_tt`]).
    /// A missing move keeps the move stored before for the same position.
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mut mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let b = self.bucket(key);
        let age = self.age.load(Ordering::Relaxed) & 63;
        let mut victim = 0;
        let mut worst = i32::MAX;
        for i in 0..BUCKET {
            let data = b[2 * i + 1].load(Ordering::Relaxed);
            let check = b[2 * i].load(Ordering::Relaxed);
            if data == 0 {
                if worst > i32::MIN {
                    victim = i;
                    worst = i32::MIN;
                }
                continue;
            }
            if check ^ data == key {
                if let Some(old) = unpack(data) {
                    if mv.is_none() {
                        mv = old.mv;
                    }
                    // Keep a deeper exact entry of the same position from this search.
                    if bound != Bound::Exact && old.depth > depth + 3 && (data >> 58) & 63 == age {
                        return;
                    }
                }
                victim = i;
                break;
            }
            let e_age = (data >> 58) & 63;
            let age_diff = ((age + 64 - e_age) & 63) as i32;
            let value = ((data >> 48) & 0xff) as i32 - 8 * age_diff;
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let data = pack(mv, score, eval, depth, bound, age);
        b[2 * victim].store(key ^ data, Ordering::Relaxed);
        b[2 * victim + 1].store(data, Ordering::Relaxed);
    }

    /// Per mille of a sample of entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let n = (1000 / BUCKET).min(self.buckets);
        let mut used = 0;
        for b in 0..n {
            for i in 0..BUCKET {
                let data = self.table[self.offset + b].0[2 * i + 1].load(Ordering::Relaxed);
                if data != 0 && (data >> 58) & 63 == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * BUCKET)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use xiangqi_core::Square;

    fn mv(a: u8, b: u8) -> Move {
        Move::new(Square::new(a).unwrap(), Square::new(b).unwrap())
    }

    #[test]
    fn store_then_probe() {
        let tt = Tt::new(1);
        let m = mv(7 + 18, 4 + 18);
        tt.store(0x1234_5678_9abc_def0, Some(m), -35, 12, 7, Bound::Lower);
        let e = tt.probe(0x1234_5678_9abc_def0).unwrap();
        assert_eq!(
            e,
            TtEntry {
                mv: Some(m),
                score: -35,
                eval: 12,
                depth: 7,
                bound: Bound::Lower
            }
        );
        assert!(tt.probe(0x1234_5678_9abc_def1).is_none());
        tt.clear();
        assert!(tt.probe(0x1234_5678_9abc_def0).is_none());
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        // Mate in 5 plies from the root, found at a node 3 plies deep: mate in 2 from there.
        let root_score = Score::mate_in(5).0;
        let stored = score_to_tt(root_score, 3);
        assert_eq!(stored, Score::mate_in(2).0);
        // Seen again from a node 1 ply deep: mate in 3 plies from the root.
        assert_eq!(score_from_tt(stored, 1), Score::mate_in(3).0);
        let mated = Score::mated_in(6).0;
        assert_eq!(score_to_tt(mated, 4), Score::mated_in(2).0);
        assert_eq!(score_from_tt(score_to_tt(mated, 4), 4), mated);
        assert_eq!(score_to_tt(123, 9), 123);
    }

    #[test]
    fn probe_a_position() {
        let tt = Tt::new(1);
        let pos = Position::startpos();
        assert_eq!(tt.probe_position(&pos), None);
        let m = pos.parse_uci("h2e2").unwrap();
        tt.store(
            pos.key(),
            Some(m),
            score_to_tt(Score::mate_in(7).0, 3),
            5,
            9,
            Bound::Exact,
        );
        let view = TableView::new(Arc::new(tt));
        let p = view.probe(&pos).unwrap();
        assert_eq!(p.best_move, Some(m));
        assert_eq!(p.score, Score::mate_in(4));
        assert_eq!((p.depth, p.bound), (9, Bound::Exact));
        // A move that is not legal in the position is not reported.
        view.0
            .store(pos.key(), Some(mv(0, 89)), 0, 0, 20, Bound::Exact);
        assert_eq!(view.probe(&pos).unwrap().best_move, None);
    }

    proptest! {
        #[test]
        fn round_trip(key in any::<u64>(), from in 0u8..90, to in 0u8..90, score in -30_000i32..30_000,
                      eval in -20_000i32..20_000, depth in -1i32..120, b in 1u8..4, ply in 0usize..100) {
            prop_assume!(from != to);
            let bound = match b { 1 => Bound::Upper, 2 => Bound::Lower, _ => Bound::Exact };
            let tt = Tt::new(1);
            let m = mv(from, to);
            tt.store(key, Some(m), score_to_tt(score, ply), eval, depth, bound);
            let e = tt.probe(key).unwrap();
            prop_assert_eq!(e.mv, Some(m));
            prop_assert_eq!(score_from_tt(e.score, ply), score);
            prop_assert_eq!(e.eval, eval);
            prop_assert_eq!(e.depth, depth);
            prop_assert_eq!(e.bound, bound);
        }

        #[test]
        fn many_keys_never_give_wrong_entries(keys in proptest::collection::vec(any::<u64>(), 1..300)) {
            let tt = Tt::new(1);
            for (i, &k) in keys.iter().enumerate() {
                tt.store(k, None, i as i32, 0, 1, Bound::Exact);
            }
            for &k in &keys {
                if let Some(e) = tt.probe(k) {
                    // the last store for this key wins
                    let last = keys.iter().rposition(|&x| x == k).unwrap();
                    prop_assert_eq!(e.score, last as i32);
                }
            }
        }
    }
}
