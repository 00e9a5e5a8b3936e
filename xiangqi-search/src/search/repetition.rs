//! Repetitions in the tree: finding one, and judging its cycle by the rules.

use super::{Shared, Worker, MAX_PLY};
use arrayvec::ArrayVec;
use xiangqi_core::{judge_repetition, Move};
use xiangqi_eval::Evaluator;

/// The score of winning by the repetition rules (the opponent's perpetual check or chase):
/// decisive, but below every mate score.
const REPETITION_WIN: i32 = 20_000;

impl<E: Evaluator> Worker<E> {
    /// Verdict on a repetition of the current position, if any: `Some(score)` for the side
    /// to move. Perpetual check by one side loses for it; other repetitions are draws.
    #[inline]
    pub(super) fn repetition(&self, shared: &Shared, ply: usize) -> Option<i32> {
        let cur = self.keys.len() - 1;
        let key = self.keys[cur];
        let limit = (self.pos.halfmove_clock() as usize).min(cur);
        let mut i = 4;
        while i <= limit {
            if self.keys[cur - i] == key {
                return Some(self.judge_cycle(shared, cur - i, cur, ply));
            }
            i += 2;
        }
        None
    }

    /// Judges the cycle from index `first` to `cur` (same position, same side to move).
    /// This is the swappable rule: the rules team's `judge_repetition` (chases too) can
    /// replace it.
    pub(super) fn judge_cycle(&self, shared: &Shared, first: usize, cur: usize, ply: usize) -> i32 {
        // A win or loss by the repetition rules scores below every checkmate: the engine
        // mates when it can rather than relying on the arbiter's judgement of a repetition.
        let lose = -REPETITION_WIN + ply as i32;
        let win = REPETITION_WIN - ply as i32;
        // Positions first+1, first+3, ..: the opponent to move, in check = we checked.
        let us_checks = (first + 1..cur).step_by(2).all(|k| self.in_check[k]);
        let them_checks = (first + 2..=cur).step_by(2).all(|k| self.in_check[k]);
        match (us_checks, them_checks) {
            (true, false) => return lose,
            (false, true) => return win,
            (true, true) => return 0,
            _ => {}
        }
        // No perpetual check: ask the rules about chases (and, under the Chinese rules,
        // mate threats), replaying the cycle from its first position.
        let root_idx = self.hist_positions.len() - 1;
        let mut cycle: ArrayVec<Move, { 2 * MAX_PLY + 8 }> = ArrayVec::new();
        let start;
        let tree_from;
        if first >= root_idx {
            let mut p = self.hist_positions[root_idx].clone();
            for f in &self.frames[..first - root_idx] {
                match f.mv {
                    Some(m) => {
                        p.make_move(m);
                    }
                    None => return 0,
                }
            }
            start = p;
            tree_from = first - root_idx;
        } else {
            start = self.hist_positions[first].clone();
            for &m in &self.hist_moves[first..] {
                if cycle.try_push(m).is_err() {
                    return 0;
                }
            }
            tree_from = 0;
        }
        for f in &self.frames[tree_from..ply] {
            match f.mv {
                Some(m) if cycle.try_push(m).is_ok() => {}
                _ => return 0,
            }
        }
        match judge_repetition(&start, &cycle, shared.rules).loser() {
            Some(c) if c == self.pos.side_to_move() => lose,
            Some(_) => win,
            None => 0,
        }
    }
}
