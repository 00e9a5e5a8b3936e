//! Move ordering: the ordering scores, the staged move picker of the full-width search, and
//! the selection of the next move that quiescence shares with it.

use super::history::{move_slot, mvv_lva, role_of, CaptureHistory, ContinuationRow, History};
use super::{Shared, Worker};
use crate::params::Params;
use crate::see::{see_ge, see_value};
use arrayvec::ArrayVec;
use xiangqi_core::{Move, MoveList, Position, MAX_MOVES};
use xiangqi_eval::Evaluator;

/// Move-ordering scores.
pub(super) const GOOD_CAPTURE: i32 = 2_000_000;
const KILLER1: i32 = 1_000_000;
const KILLER2: i32 = 999_000;
pub(super) const COUNTER: i32 = 998_000;
const BAD_CAPTURE: i32 = -2_000_000;
/// The tables the ordering of one node reads.
pub(super) struct OrderTables<'a> {
    /// The quiet moves' history.
    pub history: &'a History,
    /// The continuation histories after the moves one, two and four plies before.
    pub cont: [ContinuationRow<'a>; 3],
    /// The captures' history, when that feature is on.
    pub captures: Option<&'a CaptureHistory>,
}

/// A capture's ordering score within its stage: MVV-LVA, moved by its capture history.
#[inline]
pub(super) fn capture_score(pos: &Position, m: Move, captures: Option<&CaptureHistory>) -> i32 {
    let base = mvv_lva(pos, m);
    match (captures, pos.piece_at(m.to()), pos.piece_at(m.from())) {
        (Some(h), Some(victim), Some(attacker)) => {
            base + h[attacker.index()][m.to().index()][victim.role.index()] / 4
        }
        _ => base,
    }
}

/// A quiet move's ordering score: its history and its continuation histories after the
/// moves one and two plies before, and at half weight after the move four plies before
/// (the same side's previous move but one: a weaker signal).
#[inline]
pub(super) fn quiet_score(
    history: &History,
    cont: &[ContinuationRow; 3],
    piece: usize,
    to: usize,
) -> i32 {
    let slot = move_slot(piece, to);
    let mut s = history[piece][to];
    for row in cont[..2].iter().flatten() {
        s += row[slot] as i32;
    }
    if let Some(row) = cont[2] {
        s += row[slot] as i32 / 2;
    }
    s
}

impl<E: Evaluator> Worker<E> {
    /// The killer and counter moves of `ply`, tried before the other quiet moves.
    #[inline]
    pub(super) fn order_hints(
        &self,
        shared: &Shared,
        ply: usize,
    ) -> ([Option<Move>; 2], Option<Move>) {
        let p = shared.params;
        let counter = if ply > 0 && p.countermove {
            match self.frames[ply - 1].mv {
                Some(prev) => self.counter[self.frames[ply - 1].piece as usize][prev.to().index()],
                None => None,
            }
        } else {
            None
        };
        (self.killers[ply], counter)
    }
}

/// The index of the best-scored move in `start..end` (the first of equals).
#[inline]
pub(super) fn best_index(scores: &[i32], start: usize, end: usize) -> usize {
    let mut best = start;
    let mut best_score = scores[start];
    for (i, &s) in scores[start + 1..end].iter().enumerate() {
        if s > best_score {
            best_score = s;
            best = start + 1 + i;
        }
    }
    best
}

/// The next move to try, from `start`: selection of the best while `sorted` is false
/// (most nodes cut off early), and once the caller sets `sort` one insertion sort of
/// the rest (all-nodes try everything), after which the moves are taken in order.
#[inline]
pub(super) fn pick(
    list: &mut MoveList,
    scores: &mut [i32],
    start: usize,
    sort: bool,
    sorted: &mut bool,
) -> (Move, i32) {
    if *sorted {
        return (list[start], scores[start]);
    }
    if sort {
        *sorted = true;
        for i in start + 1..list.len() {
            let (m, sc) = (list[i], scores[i]);
            let mut j = i;
            while j > start && scores[j - 1] < sc {
                scores[j] = scores[j - 1];
                list[j] = list[j - 1];
                j -= 1;
            }
            scores[j] = sc;
            list[j] = m;
        }
        return (list[start], scores[start]);
    }
    let best = best_index(scores, start, list.len());
    list.swap(start, best);
    scores.swap(start, best);
    (list[start], scores[start])
}

/// The stages of [`MovePicker`], in the order they run.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// The table's move, before generating anything.
    TtMove,
    /// The good captures (only captures generated).
    GoodCaptures,
    /// The killers and the counter move, checked for legality.
    Hints,
    /// Generate the quiet moves.
    GenerateQuiets,
    /// The quiet moves by history.
    Quiets,
    /// The bad captures.
    BadCaptures,
}

/// The full-width search's moves of one node, in stages (see [`Stage`]), generated only as
/// far as the node gets: most nodes cut off on the table's move or a capture.
///
/// The bad captures stay in `list[idx..bad_end]`, in the order the good captures' stage left
/// them; the quiet moves follow them, from `quiet_idx` on.
pub(super) struct MovePicker {
    stage: Stage,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    counter: Option<Move>,
    /// Whether selection may give way to one sort after three picks (otherwise after 12):
    /// at PV nodes and high depth, where late move pruning will not soon drop the quiets.
    sort_early: bool,
    captures_generated: bool,
    picks: usize,
    hint_idx: usize,
    tried: ArrayVec<Move, 3>,
    sorted: bool,
    idx: usize,
    bad_end: usize,
    quiet_idx: usize,
    list: MoveList,
    scores: ArrayVec<i32, MAX_MOVES>,
}

impl MovePicker {
    /// A picker for a node with the table's move `tt_move` (legal here) and the hints of
    /// [`Worker::order_hints`].
    #[inline]
    pub(super) fn new(
        tt_move: Option<Move>,
        (killers, counter): ([Option<Move>; 2], Option<Move>),
        sort_early: bool,
    ) -> MovePicker {
        MovePicker {
            stage: if tt_move.is_some() {
                Stage::TtMove
            } else {
                Stage::GoodCaptures
            },
            tt_move,
            killers,
            counter,
            sort_early,
            captures_generated: false,
            picks: 0,
            hint_idx: 0,
            tried: ArrayVec::new(),
            sorted: false,
            idx: 0,
            bad_end: 0,
            quiet_idx: 0,
            list: MoveList::new(),
            scores: ArrayVec::new(),
        }
    }

    /// The next move and its ordering score, `None` when all are tried. `skip_quiets` is
    /// asked once, when the quiet moves are due: `true` (late move pruning would drop the
    /// first one picked, and with it all the others) skips generating them.
    #[inline(always)]
    pub(super) fn next(
        &mut self,
        pos: &mut Position,
        tables: &OrderTables,
        p: &Params,
        skip_quiets: impl Fn() -> bool,
    ) -> Option<(Move, i32)> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GoodCaptures;
                    if let Some(t) = self.tt_move {
                        return Some((t, GOOD_CAPTURE * 2));
                    }
                }
                Stage::GoodCaptures => {
                    let (list, scores) = (&mut self.list, &mut self.scores);
                    if !self.captures_generated {
                        self.captures_generated = true;
                        pos.legal_captures_into(list);
                        if let Some(t) = self.tt_move {
                            if let Some(i) = list.iter().position(|&x| x == t) {
                                list.swap_remove(i);
                            }
                        }
                        // All scored as good: a capture of a less valuable piece is checked by
                        // SEE only when it is picked (most nodes cut off before), and then
                        // demoted if it loses.
                        for &c in list.iter() {
                            scores.push(GOOD_CAPTURE + capture_score(pos, c, tables.captures));
                        }
                    }
                    let idx = self.idx;
                    if idx < list.len() {
                        let best = best_index(scores, idx, list.len());
                        if scores[best] >= GOOD_CAPTURE {
                            let c = list[best];
                            let vv = role_of(pos, c.to()).map_or(0, see_value);
                            let av = role_of(pos, c.from()).map_or(0, see_value);
                            if p.see && vv < av && !see_ge(pos, c, 0) {
                                // A losing capture: with the bad ones, after the quiet moves.
                                scores[best] += BAD_CAPTURE - GOOD_CAPTURE;
                                continue;
                            }
                            list.swap(idx, best);
                            scores.swap(idx, best);
                            self.idx += 1;
                            return Some((list[idx], scores[idx]));
                        }
                    }
                    self.stage = Stage::Hints;
                }
                Stage::Hints => {
                    // The killers and the counter move, if legal quiet moves here, before
                    // generating the quiet moves.
                    while self.hint_idx < 3 {
                        let (h, order) = match self.hint_idx {
                            0 if p.killers => (self.killers[0], KILLER1),
                            1 if p.killers => (self.killers[1], KILLER2),
                            2 => (self.counter, COUNTER),
                            _ => (None, 0),
                        };
                        self.hint_idx += 1;
                        if let Some(h) = h {
                            if Some(h) != self.tt_move
                                && !self.tried.contains(&h)
                                && pos.piece_at(h.to()).is_none()
                                && pos.is_legal(h)
                            {
                                self.tried.push(h);
                                return Some((h, order));
                            }
                        }
                    }
                    self.stage = Stage::GenerateQuiets;
                }
                Stage::GenerateQuiets => {
                    self.stage = Stage::Quiets;
                    self.bad_end = self.list.len();
                    self.quiet_idx = self.bad_end;
                    if skip_quiets() {
                        // (When they are dropped they count as tried, for the reductions of
                        // the bad captures left; the caller skips them only below depth 3,
                        // where there are none, so the count is not needed.)
                        continue;
                    }
                    // Generated straight into the list after the bad captures; those already
                    // tried (the table's move, if quiet, and the killers and counter move of
                    // the hints' stage) are taken out in place, and the rest ordered by
                    // history alone.
                    let list = &mut self.list;
                    let first = list.len();
                    pos.legal_quiets_into(list);
                    let tt_quiet = self.tt_move.filter(|&t| pos.piece_at(t.to()).is_none());
                    if tt_quiet.is_some() || !self.tried.is_empty() {
                        let mut w = first;
                        for r in first..list.len() {
                            let q = list[r];
                            if Some(q) != tt_quiet && !self.tried.contains(&q) {
                                list[w] = q;
                                w += 1;
                            }
                        }
                        list.truncate(w);
                    }
                    for &q in &list[first..] {
                        self.scores.push(if p.history {
                            let piece = pos.piece_at(q.from()).map_or(0, |x| x.index());
                            quiet_score(tables.history, &tables.cont, piece, q.to().index())
                        } else {
                            0
                        });
                    }
                }
                Stage::Quiets => {
                    if self.quiet_idx >= self.list.len() {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    // Sort the rest after a few picks, except where late move pruning will
                    // soon drop the quiet moves (then selection is cheaper).
                    let sort = self.picks >= 3 && (self.sort_early || self.picks >= 12);
                    let r = pick(
                        &mut self.list,
                        &mut self.scores,
                        self.quiet_idx,
                        sort,
                        &mut self.sorted,
                    );
                    self.picks += 1;
                    self.quiet_idx += 1;
                    return Some(r);
                }
                Stage::BadCaptures => {
                    let idx = self.idx;
                    if idx >= self.bad_end {
                        return None;
                    }
                    let best = best_index(&self.scores, idx, self.bad_end);
                    self.list.swap(idx, best);
                    self.scores.swap(idx, best);
                    self.idx += 1;
                    return Some((self.list[idx], self.scores[idx]));
                }
            }
        }
    }

    /// Drops every quiet move not yet picked (late move pruning: they would all be pruned);
    /// returns how many, which count as tried for the reductions of the moves left.
    #[inline]
    pub(super) fn drop_quiets(&mut self) -> usize {
        let dropped = self.list.len() - self.quiet_idx;
        self.list.truncate(self.quiet_idx);
        self.scores.truncate(self.quiet_idx);
        dropped
    }
}
