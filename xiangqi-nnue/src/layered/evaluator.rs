//! The layered net as an [`Evaluator`]: the accumulators follow the search move by move,
//! through the same hooks as the first format's ([`crate::NnueEvaluator`]).

use super::cache::{board_of, Board, RefreshCache};
use super::infer::{self, Prepared, Scratch};
use super::net::LayeredNet;
use super::update::{add_column, add_sub, add_sub_sub};
use crate::buckets::{input, is_general, king_key, KingKey};
use crate::net::output_bucket;
use std::sync::Arc;
use xiangqi_core::{Color, Move, Piece, Position, Square};
use xiangqi_eval::{Evaluator, Score};

/// How many positions deep the accumulator stack starts: the search's deepest ply and some
/// room, so that it does not grow while searching.
const INITIAL_DEPTH: usize = Score::MAX_PLY as usize + 8;

/// An evaluator running a [`LayeredNet`].
///
/// One accumulator pair per ply of the current line, in one flat buffer allocated up front
/// (the search never allocates through it): a move of any piece but a general adds and
/// takes away two or three columns per perspective; a general's move does the same for the
/// other side's perspective and, for its own, keeps doing so while the general stays in its
/// bucket and on its side of the palace, and otherwise rebuilds the accumulator from the
/// refresh cache (`cache.rs`). Null moves touch nothing.
#[derive(Clone)]
pub struct LayeredEvaluator {
    net: Arc<LayeredNet>,
    /// The net's hidden layers in the forward pass's layout, shared between clones.
    prepared: Arc<Prepared>,
    /// Room for the clipped accumulators of [`infer::evaluate`], `2 × width`.
    scratch: Scratch,
    /// Entry `e`'s perspective `p` is `values[(2 * e + p) * width..][..width]`.
    values: Vec<i16>,
    /// Per entry, each perspective's general key.
    keys: Vec<[KingKey; 2]>,
    top: usize,
    cache: RefreshCache,
}

impl core::fmt::Debug for LayeredEvaluator {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("LayeredEvaluator")
            .field("net", &self.net.shape)
            .finish()
    }
}

impl LayeredEvaluator {
    /// An evaluator running `net` (shared, read-only, between clones).
    pub fn new(net: Arc<LayeredNet>) -> LayeredEvaluator {
        let width = net.shape.width;
        let key = KingKey {
            bucket: 0,
            mirror: false,
        };
        LayeredEvaluator {
            values: vec![0; INITIAL_DEPTH * 2 * width],
            keys: vec![[key; 2]; INITIAL_DEPTH],
            top: 0,
            cache: RefreshCache::new(&net),
            prepared: Arc::new(Prepared::new(&net)),
            scratch: Scratch::new(width),
            net,
        }
    }

    /// The net in use.
    pub fn network(&self) -> &Arc<LayeredNet> {
        &self.net
    }

    /// The evaluation of `pos` computed from scratch, without the incremental state.
    pub fn evaluate_fresh(&self, pos: &Position) -> Score {
        let w = self.net.shape.width;
        let mut acc = vec![0i16; 2 * w];
        let (red, black) = acc.split_at_mut(w);
        for (perspective, out) in [(Color::Red, red), (Color::Black, black)] {
            refresh_from_scratch(&self.net, pos, perspective, out);
        }
        let mut scratch = Scratch::new(w);
        score(&self.net, &self.prepared, &acc, pos, &mut scratch)
    }

    /// Whether the current accumulators equal a fresh computation for `pos` (for tests).
    pub fn matches_fresh(&self, pos: &Position) -> bool {
        let w = self.net.shape.width;
        let mut acc = vec![0i16; 2 * w];
        let (red, black) = acc.split_at_mut(w);
        for (perspective, out) in [(Color::Red, red), (Color::Black, black)] {
            refresh_from_scratch(&self.net, pos, perspective, out);
        }
        acc[..] == self.values[self.top * 2 * w..(self.top + 1) * 2 * w]
    }

    /// Makes room for the accumulators one ply deeper than the current ones.
    fn reserve_next(&mut self) {
        let w = self.net.shape.width;
        if self.top + 1 == self.keys.len() {
            // Deeper than ever before: grow once (never in a normal search).
            self.values.extend_from_within(self.top * 2 * w..);
            self.keys.push(self.keys[self.top]);
        }
    }

    /// Writes the accumulators after `piece` goes from `from` to `to` (taking `captured`)
    /// on `pos`, the position before the move.
    fn push(&mut self, pos: &Position, piece: Piece, from: Square, to: Square) {
        self.reserve_next();
        let captured = pos.piece_at(to);
        let w = self.net.shape.width;
        let mut keys = self.keys[self.top];
        if is_general(piece) {
            let c = piece.color.index();
            keys[c] = king_key(&self.net.shape.buckets, piece.color, to);
        }
        let (done, rest) = self.values.split_at_mut((self.top + 1) * 2 * w);
        let current = &done[self.top * 2 * w..];
        let next = &mut rest[..2 * w];
        let weights = &self.net.ft_weights;
        let column = |f: usize| &weights[f * w..(f + 1) * w];
        let mut board: Option<Board> = None;
        for perspective in Color::ALL {
            let p = perspective.index();
            let key = keys[p];
            let out = &mut next[p * w..(p + 1) * w];
            if key != self.keys[self.top][p] {
                // The general changed bucket or side: rebuild from the cache.
                let board = board.get_or_insert_with(|| {
                    let mut b = board_of(pos);
                    b[to.index()] = b[from.index()];
                    b[from.index()] = 0;
                    b
                });
                self.cache.refresh(&self.net, perspective, key, board, out);
                continue;
            }
            let cur = &current[p * w..(p + 1) * w];
            let add = column(input(key, perspective, piece, to));
            let sub = column(input(key, perspective, piece, from));
            match captured {
                None => add_sub(out, cur, add, sub),
                Some(c) => {
                    let taken = column(input(key, perspective, c, to));
                    add_sub_sub(out, cur, add, sub, taken)
                }
            }
        }
        self.top += 1;
        self.keys[self.top] = keys;
    }
}

/// `perspective`'s accumulator of `pos` from the biases and every piece.
fn refresh_from_scratch(net: &LayeredNet, pos: &Position, perspective: Color, out: &mut [i16]) {
    let w = net.shape.width;
    let key = king_key(
        &net.shape.buckets,
        perspective,
        pos.king_square(perspective),
    );
    out.copy_from_slice(&net.ft_bias);
    for (square, piece) in pos.all_pieces() {
        let f = input(key, perspective, piece, square);
        add_column(out, &net.ft_weights[f * w..(f + 1) * w]);
    }
}

/// The net's score of `pos`, whose accumulators (red's, then black's) are `acc`.
fn score(
    net: &LayeredNet,
    prepared: &Prepared,
    acc: &[i16],
    pos: &Position,
    scratch: &mut Scratch,
) -> Score {
    let w = net.shape.width;
    let side = pos.side_to_move().index();
    let stack = output_bucket(pos.piece_count(), net.shape.stacks);
    let us = &acc[side * w..(side + 1) * w];
    let them = &acc[(1 - side) * w..(2 - side) * w];
    let value = infer::evaluate(net, prepared, stack, us, them, scratch);
    let bound = Score::MATE_BOUND.0 - 1;
    Score(value.clamp(-bound, bound))
}

impl Evaluator for LayeredEvaluator {
    #[inline]
    fn evaluate(&mut self, pos: &Position) -> Score {
        let w = self.net.shape.width;
        score(
            &self.net,
            &self.prepared,
            &self.values[self.top * 2 * w..(self.top + 1) * 2 * w],
            pos,
            &mut self.scratch,
        )
    }

    fn reset(&mut self, pos: &Position) {
        self.top = 0;
        let w = self.net.shape.width;
        for perspective in Color::ALL {
            let p = perspective.index();
            self.keys[0][p] = king_key(
                &self.net.shape.buckets,
                perspective,
                pos.king_square(perspective),
            );
            refresh_from_scratch(
                &self.net,
                pos,
                perspective,
                &mut self.values[p * w..(p + 1) * w],
            );
        }
    }

    #[inline]
    fn make_move(&mut self, pos: &Position, m: Move) {
        match pos.piece_at(m.from()) {
            Some(piece) => self.push(pos, piece, m.from(), m.to()),
            None => {
                // Not a move of this position (a caller's mistake): stay in step with the
                // unmake that follows by repeating the current accumulators.
                self.reserve_next();
                let w = self.net.shape.width;
                let at = self.top * 2 * w;
                self.values.copy_within(at..at + 2 * w, at + 2 * w);
                self.keys[self.top + 1] = self.keys[self.top];
                self.top += 1;
            }
        }
    }

    #[inline]
    fn unmake_move(&mut self, _pos: &Position, _m: Move) {
        self.top = self.top.saturating_sub(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layered::Shape;

    /// Down random lines from the opening, the evaluation (the rearranged forward pass on
    /// the incremental accumulators) equals the row-by-row reference pass bit for bit, and
    /// the scores differ between positions (so the comparison compares something).
    #[test]
    fn evaluation_equals_the_reference_pass_on_random_positions() {
        let net = Arc::new(LayeredNet::random(Shape::default(), 5).unwrap());
        let mut eval = LayeredEvaluator::new(net.clone());
        let w = net.shape.width;
        let mut rng = fastrand::Rng::with_seed(3);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..20 {
            let mut pos = Position::startpos();
            eval.reset(&pos);
            for _ in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.usize(..moves.len())];
                eval.make_move(&pos, m);
                pos.make_move(m);
                let side = pos.side_to_move().index();
                let acc = &eval.values[eval.top * 2 * w..(eval.top + 1) * 2 * w];
                let stack = output_bucket(pos.piece_count(), net.shape.stacks);
                let us = &acc[side * w..(side + 1) * w];
                let them = &acc[(1 - side) * w..(2 - side) * w];
                let expected = infer::reference(&net, stack, us, them);
                let bound = Score::MATE_BOUND.0 - 1;
                assert_eq!(eval.evaluate(&pos), Score(expected.clamp(-bound, bound)));
                seen.insert(expected);
            }
        }
        assert!(seen.len() > 100, "only {} distinct scores", seen.len());
    }
}
