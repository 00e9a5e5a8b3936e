//! The NNUE as an [`Evaluator`]: the accumulators follow the search move by move.

use crate::features::feature;
use crate::net::{output_bucket, Network, HIDDEN};
use multiversion::multiversion;
use std::sync::Arc;
use xiangqi_core::{Color, Move, Piece, Position, Square};
use xiangqi_eval::{Evaluator, Score};

/// Both perspectives' accumulators for one position, indexed by [`Color::index`].
/// Aligned to a cache line so that the vector loads never straddle one.
#[derive(Clone)]
#[repr(C, align(64))]
struct Accumulator {
    values: [[i16; HIDDEN]; 2],
}

/// How many positions deep the accumulator stack starts: the search's deepest ply and some
/// room, so that it does not grow while searching.
const INITIAL_DEPTH: usize = Score::MAX_PLY as usize + 8;

/// An evaluator running a [`Network`].
///
/// It keeps one accumulator pair per ply of the current line: [`Evaluator::make_move`]
/// writes the next pair from the current one with the moved and captured pieces' columns
/// added and taken away (two or three columns per perspective instead of the 32 a fresh
/// computation adds), and [`Evaluator::unmake_move`] steps back. Null moves change no piece,
/// so they touch nothing: the side to move is read from the position at evaluation time.
///
/// Like every incremental evaluator it must see the position first through
/// [`Evaluator::reset`] (the search does this with its root); [`NnueEvaluator::evaluate_fresh`]
/// scores a lone position.
///
/// ```
/// use xiangqi_core::Position;
/// use xiangqi_eval::Evaluator;
/// use xiangqi_nnue::NnueEvaluator;
/// let mut eval = NnueEvaluator::new();
/// let mut pos = Position::startpos();
/// eval.reset(&pos);
/// let m = pos.parse_uci("h2e2")?; // 炮二平五
/// eval.make_move(&pos, m);
/// pos.make_move(m);
/// assert_eq!(eval.evaluate(&pos), NnueEvaluator::new().evaluate_fresh(&pos));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct NnueEvaluator {
    net: Arc<Network>,
    stack: Vec<Accumulator>,
    top: usize,
}

impl Default for NnueEvaluator {
    fn default() -> Self {
        NnueEvaluator::new()
    }
}

impl core::fmt::Debug for NnueEvaluator {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("NnueEvaluator")
            .field("net", &self.net)
            .finish()
    }
}

impl NnueEvaluator {
    /// An evaluator with the net built into the binary.
    pub fn new() -> NnueEvaluator {
        NnueEvaluator::with_network(Network::shared_embedded())
    }

    /// An evaluator running `net` (shared, read-only, between clones).
    pub fn with_network(net: Arc<Network>) -> NnueEvaluator {
        let empty = Accumulator {
            values: [[0; HIDDEN]; 2],
        };
        NnueEvaluator {
            net,
            stack: vec![empty; INITIAL_DEPTH],
            top: 0,
        }
    }

    /// The net in use.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// The evaluation of `pos` computed from scratch, without the incremental state.
    pub fn evaluate_fresh(&self, pos: &Position) -> Score {
        let mut acc = Accumulator {
            values: [[0; HIDDEN]; 2],
        };
        refresh(&self.net, pos, &mut acc);
        score(&self.net, &acc, pos)
    }
}

/// Computes both perspectives' accumulators of `pos` from the biases and every piece.
fn refresh(net: &Network, pos: &Position, acc: &mut Accumulator) {
    for perspective in Color::ALL {
        let values = &mut acc.values[perspective.index()];
        *values = net.feature_bias;
        for (square, piece) in pos.all_pieces() {
            add(
                values,
                &net.feature_weights[feature(perspective, piece, square)],
            );
        }
    }
}

/// The net's score of `pos`, whose accumulators are `acc`, for the side to move.
fn score(net: &Network, acc: &Accumulator, pos: &Position) -> Score {
    let side = pos.side_to_move();
    let bucket = output_bucket(pos.piece_count(), net.output_buckets());
    let value = net.output(
        bucket,
        &acc.values[side.index()],
        &acc.values[side.other().index()],
    );
    // The net's outputs stay far below mate scores; the clamp keeps that true for any net.
    let bound = Score::MATE_BOUND.0 - 1;
    Score(value.clamp(-bound, bound))
}

#[inline]
fn add(values: &mut [i16; HIDDEN], column: &[i16; HIDDEN]) {
    for (v, w) in values.iter_mut().zip(column) {
        *v = v.wrapping_add(*w);
    }
}

/// `next = current + add - sub`, one pass. Compiled for SSE2 (every x86-64), AVX2 (twice the
/// lanes) and AVX-512 (four times), and chosen once at run time by `multiversion`, which keeps
/// the `unsafe` of calling a target-feature function inside the crate that checks the CPU.
#[multiversion(targets("x86_64+avx512f+avx512bw", "x86_64+avx2"))]
fn add_sub(
    next: &mut [i16; HIDDEN],
    current: &[i16; HIDDEN],
    add: &[i16; HIDDEN],
    sub: &[i16; HIDDEN],
) {
    for i in 0..HIDDEN {
        next[i] = current[i].wrapping_add(add[i]).wrapping_sub(sub[i]);
    }
}

/// `next = current + add - sub1 - sub2`, one pass (a capture); dispatched as [`add_sub`].
#[multiversion(targets("x86_64+avx512f+avx512bw", "x86_64+avx2"))]
fn add_sub_sub(
    next: &mut [i16; HIDDEN],
    current: &[i16; HIDDEN],
    add: &[i16; HIDDEN],
    sub1: &[i16; HIDDEN],
    sub2: &[i16; HIDDEN],
) {
    for i in 0..HIDDEN {
        next[i] = current[i]
            .wrapping_add(add[i])
            .wrapping_sub(sub1[i])
            .wrapping_sub(sub2[i]);
    }
}

impl NnueEvaluator {
    /// Makes room for the accumulators one ply deeper than the current ones.
    fn reserve_next(&mut self) {
        if self.top + 1 == self.stack.len() {
            // Deeper than ever before: grow once (never in a normal search, see INITIAL_DEPTH).
            let copy = self.stack[self.top].clone();
            self.stack.push(copy);
        }
    }

    /// Writes the accumulators after `piece` goes from `from` to `to` (taking `captured`).
    fn push(&mut self, piece: Piece, from: Square, to: Square, captured: Option<Piece>) {
        self.reserve_next();
        let (done, rest) = self.stack.split_at_mut(self.top + 1);
        let (current, next) = (&done[self.top], &mut rest[0]);
        let weights = &self.net.feature_weights;
        for perspective in Color::ALL {
            let p = perspective.index();
            let add = &weights[feature(perspective, piece, to)];
            let sub = &weights[feature(perspective, piece, from)];
            match captured {
                None => add_sub(&mut next.values[p], &current.values[p], add, sub),
                Some(c) => {
                    let taken = &weights[feature(perspective, c, to)];
                    add_sub_sub(&mut next.values[p], &current.values[p], add, sub, taken)
                }
            }
        }
        self.top += 1;
    }
}

impl Evaluator for NnueEvaluator {
    #[inline]
    fn evaluate(&mut self, pos: &Position) -> Score {
        score(&self.net, &self.stack[self.top], pos)
    }

    fn reset(&mut self, pos: &Position) {
        self.top = 0;
        refresh(&self.net, pos, &mut self.stack[0]);
    }

    #[inline]
    fn make_move(&mut self, pos: &Position, m: Move) {
        match pos.piece_at(m.from()) {
            Some(piece) => self.push(piece, m.from(), m.to(), pos.piece_at(m.to())),
            None => {
                // Not a move of this position (a caller's mistake): stay in step with the
                // unmake that follows by repeating the current accumulators.
                self.reserve_next();
                self.stack[self.top + 1] = self.stack[self.top].clone();
                self.top += 1;
            }
        }
    }

    #[inline]
    fn unmake_move(&mut self, _pos: &Position, _m: Move) {
        self.top = self.top.saturating_sub(1);
    }
}
