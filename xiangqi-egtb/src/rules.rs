//! The perpetual-check rule: which of a table's naive draws are won or lost under the
//! Asian rules, where a side that checks with every move of a repetition while the other
//! does not loses.
//!
//! Naive retrograde analysis ([`crate::generate`]) is exact for every forced mate: a
//! mating line never repeats a position, so no repetition rule touches it, and a
//! position the naive analysis calls lost stays lost. Only its draws can change. On the
//! draws, the play is a game of infinite duration with two kinds of exit: a capture into
//! a smaller table (whose values, rule included, are final) and a move into a naively
//! decided position (a mate for the opponent: a draw has no move into its own mate).
//!
//! For each side V in turn (the *victim*; the other side C is the *checker*), V wins an
//! endless play exactly when, from some point on, every move of C gives check and V makes
//! infinitely many moves that do not. Whether a move gives check depends only on the
//! position it leads to (the side to move there is in check), so this is a parity game
//! with three priorities on positions:
//!
//! | position                       | priority |
//! |--------------------------------|----------|
//! | V to move, not in check (C did not check) | 2 (C's) |
//! | C to move, not in check (V did not check) | 1 (V's) |
//! | in check                       | 0        |
//!
//! V wins when the largest priority seen infinitely often is 1. Zielonka's algorithm
//! solves it with attractors, each computed by counting (as the generator's rounds do):
//!
//! 0. **Exits.** V's attractor of the exits V wins (stage 0), then C's attractor of the
//!    exits V does not win (C-won: left as they are).
//! 1. **Stage s** (s = 1, 2, …) on the positions left: A = C's attractor of the priority-2
//!    positions. In the rest, V's Büchi game (reach priority 1 again and again): the
//!    *core* is what is left after repeatedly removing C's attractor of the positions from
//!    which V cannot force priority 1. If the core is empty, C holds every position left:
//!    they stay draws. Otherwise V's attractor of the core in the positions left is won
//!    for V; remove it and go on with stage s + 1.
//!
//! Every position V wins gets a **rank**: `1024 s + q` for a core position at distance q
//! from priority 1, `1024 s + 511 + r` for a position at distance r from the core (or, in
//! stage 0, from an exit). V's strategy is to move to the lowest rank. Along any play
//! that follows it, the rank drops with every move except C's moves from priority-1
//! positions, which stay within the stage's core (or go to an earlier stage); so every
//! repetition lies inside one core, where C checks with every move, and passes through a
//! priority-1 position, where V did not check: the repetition judge rules that C loses by
//! perpetual check. `verify` checks exactly these local conditions on every position.

// The loops run over position indices, which index several per-side arrays at once.
#![allow(clippy::needless_range_loop)]

use crate::board::{Board, Moves};
use crate::index::{Layout, NO_SQUARE};
use crate::retro::{predecessors, Captures, GenerateError};
use crate::table::{INVALID, UNKNOWN};
use crate::value::{Wdl, MAX_RANK, RULE_FLAG, RULE_WIN};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use xiangqi_core::Color;

/// Ranks within a stage: core positions below [`CORE_SPAN`], the attractor above.
pub(crate) const STAGE_SPAN: u16 = 1024;
/// The first rank of a stage's attractor (distance 1 from the core is `CORE_SPAN`).
pub(crate) const CORE_SPAN: u16 = 512;
/// Stages a rank holds (14 bits: 16 stages of 1,024).
const MAX_STAGES: u16 = (MAX_RANK + 1) / STAGE_SPAN;

/// The stage a rank belongs to.
pub(crate) fn stage_of(rank: u16) -> u16 {
    rank / STAGE_SPAN
}

/// Whether a rank is a core position (the repetition lies there).
pub(crate) fn is_core(rank: u16) -> bool {
    rank % STAGE_SPAN < CORE_SPAN
}

/// The highest core rank of a rank's stage.
pub(crate) fn core_ceiling(rank: u16) -> u16 {
    stage_of(rank) * STAGE_SPAN + CORE_SPAN - 1
}

// Flags per position and side to move.
/// In the positions left at the current stage (at first: every naive draw).
const LEFT: u8 = 2;
/// In the Büchi game of the current stage.
const BUCHI: u8 = 4;
/// In the attractor being computed.
const ATTR: u8 = 8;
/// Won for the victim.
const WON: u8 = 16;
/// The side to move is in check.
const CHECK: u8 = 32;

/// A position and side to move, packed: `idx << 1 | side`.
type Node = u64;

#[inline]
fn node(side: Color, idx: u64) -> Node {
    idx << 1 | side.index() as u64
}

#[inline]
fn unpack(n: Node) -> (Color, u64) {
    (if n & 1 == 0 { Color::Red } else { Color::Black }, n >> 1)
}

/// The state of one game: flags, escape counts and ranks, by side to move.
struct Game<'a> {
    layout: &'a Layout,
    captures: &'a Captures,
    values: &'a [Vec<u8>; 2],
    victim: Color,
    flags: [Vec<AtomicU8>; 2],
    counts: [Vec<AtomicU8>; 2],
    ranks: [Vec<u16>; 2],
}

/// Where a position's moves lead, for the victim.
#[derive(Default)]
struct MoveSummary {
    /// Distinct positions in this table's draws that are in the set asked for.
    inside: u32,
    /// Moves to exits the victim wins.
    good: u32,
    /// Moves to exits the victim does not win.
    bad: u32,
}

impl<'a> Game<'a> {
    fn set(&self, n: Node, f: u8) -> u8 {
        let (s, i) = unpack(n);
        self.flags[s.index()][i as usize].fetch_or(f, Relaxed)
    }

    fn clear_all(&self, f: u8) {
        for side in &self.flags {
            side.par_iter().for_each(|x| {
                x.fetch_and(!f, Relaxed);
            });
        }
    }

    /// Every node whose flags include `all`, in parallel, as a list.
    fn nodes_with(&self, all: u8, pred: impl Fn(Node, u8) -> bool + Sync) -> Vec<Node> {
        let n = self.layout.size() as usize;
        Color::ALL
            .iter()
            .flat_map(|&side| {
                (0..n)
                    .into_par_iter()
                    .filter_map(|i| {
                        let f = self.flags[side.index()][i].load(Relaxed);
                        let x = node(side, i as u64);
                        (f & all == all && pred(x, f)).then_some(x)
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// The moves of a position: how many distinct successors carry every flag of `within`,
    /// and its exits for the victim.
    fn scan(&self, x: Node, within: u8, moves: &mut Moves, seen: &mut Vec<u64>) -> MoveSummary {
        let (side, idx) = unpack(x);
        let p = self.layout.decode(idx);
        let mut b = Board::new(self.layout, &p).expect("a valid index");
        moves.clear();
        b.pseudo_moves(side, moves);
        seen.clear();
        let mut out = MoveSummary::default();
        let victim_moves = side == self.victim;
        for &m in moves.iter() {
            if m.captured == NO_SQUARE {
                b.make(m);
                let s = self
                    .layout
                    .encode_quiet(idx, &p, &b.placement(), m.slot as usize);
                b.unmake(m);
                let v = self.values[side.other().index()][s as usize];
                if v == INVALID {
                    continue;
                }
                if v == UNKNOWN {
                    let f = self.flags[side.other().index()][s as usize].load(Relaxed);
                    if f & within == within {
                        seen.push(s);
                    }
                    continue;
                }
                // A naive result: a draw's only such moves walk into the opponent's mate.
                let mover_wins = v.is_multiple_of(2);
                if mover_wins == victim_moves {
                    out.good += 1;
                } else {
                    out.bad += 1;
                }
                continue;
            }
            let Some(v) = self.captures.after(self.layout, &mut b, m, side) else {
                continue;
            };
            let mover = v.before();
            let victim_wins = if victim_moves {
                mover.wdl() == Wdl::Win
            } else {
                mover.wdl() == Wdl::Loss
            };
            if victim_wins {
                out.good += 1;
            } else {
                out.bad += 1;
            }
        }
        seen.sort_unstable();
        seen.dedup();
        out.inside = seen.len() as u32;
        out
    }

    /// The attractor for `player` within the nodes flagged `within`: `targets` (rank 0,
    /// already in the set) and every node from which `player` forces play into them.
    /// With `exits`, a node joins at rank 1 through its exits as well: one of the player's
    /// own that the player wins with, or for the other side, no move but exits the player
    /// wins. Returns the layers by rank; every member is flagged `ATTR`.
    fn attract(
        &self,
        player: Color,
        within: u8,
        targets: Vec<Node>,
        exits: bool,
    ) -> Vec<Vec<Node>> {
        for &t in &targets {
            self.set(t, ATTR);
        }
        let n = self.layout.size() as usize;
        let player_is_victim = player == self.victim;
        // Escape counts of the other side's nodes, and the joins through exits.
        let mut first: Vec<Node> = Color::ALL
            .iter()
            .flat_map(|&side| {
                (0..n.div_ceil(1 << 12))
                    .into_par_iter()
                    .map_init(
                        || (Moves::new(), Vec::with_capacity(64)),
                        |(moves, seen), c| {
                            let mut joined = Vec::new();
                            for i in c << 12..((c + 1) << 12).min(n) {
                                let f = self.flags[side.index()][i].load(Relaxed);
                                if f & within != within || f & ATTR != 0 {
                                    continue;
                                }
                                let x = node(side, i as u64);
                                let mine = side == player;
                                if mine && !exits {
                                    continue;
                                }
                                let m = self.scan(x, within, moves, seen);
                                // The player's wins and losses at the exits.
                                let (win, lose) = if player_is_victim {
                                    (m.good, m.bad)
                                } else {
                                    (m.bad, m.good)
                                };
                                if mine {
                                    if win > 0 {
                                        joined.push(x);
                                    }
                                    continue;
                                }
                                let escapes = m.inside + if exits { lose } else { 0 };
                                self.counts[side.index()][i].store(escapes.min(255) as u8, Relaxed);
                                if exits && escapes == 0 {
                                    joined.push(x);
                                }
                            }
                            joined
                        },
                    )
                    .flatten_iter()
                    .collect::<Vec<_>>()
            })
            .collect();
        first.retain(|&x| self.set(x, ATTR) & ATTR == 0);
        let mut layers = vec![targets];
        let mut frontier_from = 0; // layers[frontier_from] is processed next
        if !first.is_empty() {
            layers.push(first);
        }
        while frontier_from < layers.len() {
            let next: Vec<Node> = layers[frontier_from]
                .par_iter()
                .map_init(
                    || (Moves::new(), Vec::with_capacity(64)),
                    |(un, preds), &y| {
                        let (side, idx) = unpack(y);
                        let mover = side.other();
                        let p = self.layout.decode(idx);
                        predecessors(self.layout, idx, &p, mover, un, preds);
                        let mut joined = Vec::new();
                        for &pi in preds.iter() {
                            let x = node(mover, pi);
                            let f = self.flags[mover.index()][pi as usize].load(Relaxed);
                            if f & within != within || f & ATTR != 0 {
                                continue;
                            }
                            let join = if mover == player {
                                true
                            } else {
                                self.counts[mover.index()][pi as usize].fetch_sub(1, Relaxed) == 1
                            };
                            if join && self.set(x, ATTR) & ATTR == 0 {
                                joined.push(x);
                            }
                        }
                        joined
                    },
                )
                .flatten_iter()
                .collect();
            frontier_from += 1;
            if next.is_empty() {
                continue;
            }
            if frontier_from == layers.len() {
                layers.push(next);
            } else {
                layers[frontier_from].extend(next);
            }
        }
        layers
    }

    fn rank(&mut self, x: Node, r: u16) {
        let (s, i) = unpack(x);
        self.ranks[s.index()][i as usize] = r;
        self.set(x, WON);
    }

    /// Solves the game for the victim: flags `WON` with a rank on every position it wins.
    fn solve(&mut self) -> Result<(), String> {
        let c = self.victim.other();
        let v = self.victim;
        // Stage 0: the exits.
        let good = self.attract(v, LEFT, Vec::new(), true);
        for (r, layer) in good.iter().enumerate().skip(1) {
            let r = r as u16 + CORE_SPAN - 1;
            if r >= STAGE_SPAN {
                return Err("stage 0 attractor deeper than 512".into());
            }
            for &x in layer {
                self.rank(x, r);
            }
        }
        self.remove(&good, LEFT | ATTR);
        let bad = self.attract(c, LEFT, Vec::new(), true);
        self.remove(&bad, LEFT | ATTR);
        let mut stage = 1u16;
        loop {
            // A: the checker's attractor of the positions after its non-checks.
            let p2 = self.nodes_with(LEFT, |x, f| unpack(x).0 == v && f & CHECK == 0);
            let a = self.attract(c, LEFT, p2, false);
            // The Büchi game: what is left and outside A.
            let rest = self.nodes_with(LEFT, |_, f| f & ATTR == 0);
            self.remove(&a, ATTR);
            if rest.is_empty() {
                break;
            }
            for &x in &rest {
                self.set(x, BUCHI);
            }
            let core = loop {
                let p1 = self.nodes_with(BUCHI, |x, f| unpack(x).0 == c && f & CHECK == 0);
                let a1 = self.attract(v, BUCHI, p1, false);
                let lost = self.nodes_with(BUCHI, |_, f| f & ATTR == 0);
                if lost.is_empty() {
                    break a1;
                }
                self.remove(&a1, ATTR);
                let b = self.attract(c, BUCHI, lost, false);
                self.remove(&b, BUCHI | ATTR);
            };
            let core_nodes: Vec<Node> = core.iter().flatten().copied().collect();
            self.remove(&core, ATTR);
            self.clear_all(BUCHI);
            if core_nodes.is_empty() {
                break;
            }
            if stage >= MAX_STAGES {
                return Err(format!("more than {MAX_STAGES} stages"));
            }
            if core.len() > CORE_SPAN as usize {
                return Err(format!("a core {} deep", core.len()));
            }
            let base = stage * STAGE_SPAN;
            for (q, layer) in core.iter().enumerate() {
                for &x in layer {
                    self.rank(x, base + q as u16);
                }
            }
            let won = self.attract(v, LEFT, core_nodes, false);
            if won.len() > (STAGE_SPAN - CORE_SPAN + 1) as usize {
                return Err(format!("an attractor {} deep", won.len()));
            }
            for (r, layer) in won.iter().enumerate().skip(1) {
                for &x in layer {
                    self.rank(x, base + CORE_SPAN - 1 + r as u16);
                }
            }
            self.remove(&won, LEFT | ATTR);
            stage += 1;
        }
        Ok(())
    }

    fn remove(&self, layers: &[Vec<Node>], f: u8) {
        layers.par_iter().for_each(|l| {
            for &x in l {
                let (s, i) = unpack(x);
                self.flags[s.index()][i as usize].fetch_and(!f, Relaxed);
            }
        });
    }
}

/// The entries of a table under the perpetual-check rule, from its naive values: every
/// naive draw the rule decides gets a rule value with its rank.
pub(crate) fn apply(
    layout: &Layout,
    captures: &Captures,
    values: &[Vec<u8>; 2],
) -> Result<[Vec<u16>; 2], GenerateError> {
    let n = layout.size() as usize;
    let mut entries: [Vec<u16>; 2] = [
        values[0].iter().map(|&b| u16::from(b)).collect(),
        values[1].iter().map(|&b| u16::from(b)).collect(),
    ];
    // The draws, and which of them have the side to move in check.
    let check: [Vec<bool>; 2] = [Color::Red, Color::Black].map(|side| {
        (0..n)
            .into_par_iter()
            .map(|i| {
                values[side.index()][i] == UNKNOWN && {
                    let p = layout.decode(i as u64);
                    Board::new(layout, &p).is_some_and(|b| b.in_check(side))
                }
            })
            .collect()
    });
    for victim in Color::ALL {
        let flags = [0, 1].map(|s: usize| {
            (0..n)
                .map(|i| {
                    let f = if values[s][i] == UNKNOWN { LEFT } else { 0 };
                    AtomicU8::new(if check[s][i] { f | CHECK } else { f })
                })
                .collect()
        });
        let mut game = Game {
            layout,
            captures,
            values,
            victim,
            flags,
            counts: [0, 1].map(|_| (0..n).map(|_| AtomicU8::new(0)).collect()),
            ranks: [vec![0; n], vec![0; n]],
        };
        game.solve().map_err(|why| GenerateError::RuleRanks {
            table: layout.material.to_string(),
            why,
        })?;
        for side in Color::ALL {
            let s = side.index();
            for i in 0..n {
                if game.flags[s][i].load(Relaxed) & WON == 0 {
                    continue;
                }
                let rank = game.ranks[s][i];
                debug_assert!(rank <= MAX_RANK);
                if side == victim {
                    entries[s][i] = RULE_FLAG | RULE_WIN | rank;
                } else {
                    entries[s][i] = RULE_FLAG | rank;
                }
            }
        }
    }
    Ok(entries)
}
