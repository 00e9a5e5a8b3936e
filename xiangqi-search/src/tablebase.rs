//! Endgame tablebases in the search ([`xiangqi_egtb`], distance to mate).
//!
//! - **At the root**, a position with a table is not searched: the table's move is played
//!   ([`root_lines`] orders the moves, [`table_line`] gives each its principal variation),
//!   reported as depth 1 with the exact mate distance (`score mate N`, or 0 for a draw).
//! - **In the tree**, a node reached by a capture (the half-move clock at zero: every node
//!   whose material differs from its parent's) with at most the tables' most pieces is
//!   probed, and a position with a table gets its value from it: a win scores just below
//!   the mate range, [`TB_WIN`] less the plies to mate counted from the root (the plies to
//!   the node and the table's distance from there), a draw 0, a loss the negation.
//!
//! The 60-move rule at the root: the tables know nothing of it, so a win whose mate cannot
//! come before the limit is not taken as it stands (see [`root_lines`]).

use xiangqi_core::{Game, Move, Position, MOVE_LIMIT_PLIES};
use xiangqi_egtb::{Dtm, FormatError, Tablebase};
use xiangqi_eval::Score;

/// The score of a tablebase win in the tree before its distance is taken off: just below
/// the mate range. A win found through a table at ply `p` whose table says mate in `d`
/// more plies scores `TB_WIN - (p + d)`, a loss the negation, a draw 0.
pub const TB_WIN: Score = Score(Score::MATE_BOUND.0 - 1);

/// Scores from this up to [`TB_WIN`] (and their negations) are tablebase wins (losses);
/// evaluations stay below it.
pub const TB_WIN_BOUND: Score = Score(TB_WIN.0 - TB_SPAN);

/// Room for the plies to a tablebase mate: the search's deepest ply (120) and the
/// longest distance a table holds (253).
const TB_SPAN: i32 = 400;

/// How many plies the principal variation of a table move follows the table.
pub(crate) const TABLE_PV_PLIES: usize = 20;

/// The score in the tree of a table's value for the side to move at `ply`.
#[inline]
pub(crate) fn tree_score(value: Dtm, ply: usize) -> i32 {
    match value {
        Dtm::Draw => 0,
        // Mated or stalemated here: the exact mate score, as the search gives it.
        Dtm::Loss(0) => -Score::MATE.0 + ply as i32,
        Dtm::Win(n) => TB_WIN.0 - (ply as i32 + n as i32).min(TB_SPAN),
        Dtm::Loss(n) => -TB_WIN.0 + (ply as i32 + n as i32).min(TB_SPAN),
        Dtm::WinByRule(_) => RULE_WIN,
        Dtm::LossByRule(_) => -RULE_WIN,
    }
}

/// The score of a win by the perpetual-check rule (the loser can hold only by checking
/// for ever): a table win, below every mate a table gives (the plies to one are at most
/// 120 + 253), since it has no distance to count.
const RULE_WIN: i32 = TB_WIN.0 - (TB_SPAN - 10);

/// The score at the root of a move whose table value for the mover is `value`: the
/// exact mate distance.
pub(crate) fn root_score(value: Dtm) -> Score {
    match value {
        Dtm::Win(n) => Score::mate_in(n as i32),
        Dtm::Loss(n) => Score::mated_in(n as i32),
        Dtm::Draw => Score::DRAW,
        Dtm::WinByRule(_) => Score(RULE_WIN),
        Dtm::LossByRule(_) => Score(-RULE_WIN),
    }
}

/// The root moves a table decides, in the order to play them, with their values.
pub(crate) struct RootTable {
    /// Best first.
    pub lines: Vec<(Move, Dtm)>,
    /// Positions probed.
    pub probes: u64,
}

/// Orders the `allowed` root moves of `game` by the table, or `None` when the root has no
/// table (or a move into a material without a table might matter: then the search decides).
///
/// The order:
/// - **Won**: the quickest mate when it comes before the 60-move rule's limit (plies left
///   to it: [`MOVE_LIMIT_PLIES`] less [`Game::plies_toward_move_limit`]); when no winning
///   move's mate fits, a winning capture (it restarts the count) with the shortest mate,
///   else the shortest mate. Among equal mates a capture first.
/// - **Drawn**: a drawing move, the table's order, except that moves which repeat a
///   position of the game or give check come after the others (a drawing side that
///   checks or repeats for ever could lose by the repetition rules).
/// - **Won by the perpetual-check rule** (the opponent can hold only by checking for
///   ever): the move to the lowest rank, the table's strategy (see `xiangqi_egtb::Dtm`).
///   A mate, where one exists, comes first.
/// - **Lost**: a loss by the rule (the highest rank: checking on as long as the rules
///   allow) before a mate, then the longest mate, moves that repeat a position after the
///   others.
///
/// # Errors
/// When a table cannot be read.
pub(crate) fn root_lines(
    tb: &Tablebase,
    game: &Game,
    allowed: &[Move],
) -> Result<Option<RootTable>, FormatError> {
    let root = game.position();
    let Some(value) = tb.probe_dtm(root)? else {
        return Ok(None);
    };
    let Some(moves) = tb.probe_moves(root)? else {
        return Ok(None);
    };
    let probes = 2 + moves.len() as u64;
    let mut unknown = false;
    let mut lines: Vec<(Move, Dtm)> = Vec::new();
    for mv in moves.iter().filter(|m| allowed.contains(&m.mv)) {
        match mv.value {
            Some(v) => lines.push((mv.mv, v)),
            None => unknown = true,
        }
    }
    let Some(best) = lines.first().map(|l| l.1) else {
        return Ok(None);
    };
    // A move into a material without a table could be better than every known one,
    // unless the best known already reaches the root's value.
    if unknown && best.wdl() != value.wdl() {
        return Ok(None);
    }
    let plies_left = MOVE_LIMIT_PLIES.saturating_sub(game.plies_toward_move_limit());
    let mate_fits = |d: u16| u32::from(d) <= plies_left;
    let any_fits = lines
        .iter()
        .any(|&(_, v)| matches!(v, Dtm::Win(d) if mate_fits(d)));
    let seen: Vec<u64> = game.positions().iter().map(Position::key).collect();
    let repeats = |m: Move| seen.contains(&root.key_after(m));
    let is_capture = |m: Move| root.piece_at(m.to()).is_some();
    // Greater first; the sort is stable, so the table's order breaks the remaining ties.
    lines.sort_by_key(|&(m, v)| {
        let key: (i32, i32, i32, i32) = match v {
            Dtm::Win(n) => {
                let d = i32::from(n);
                if any_fits {
                    (4, mate_fits(n) as i32, -d, is_capture(m) as i32)
                } else {
                    (4, is_capture(m) as i32, -d, 0)
                }
            }
            // A capture leaves the table: progress whatever its rank (see
            // `Tablebase::probe_moves`).
            Dtm::WinByRule(r) => (3, is_capture(m) as i32, -i32::from(r), 0),
            Dtm::Draw => (2, !repeats(m) as i32, !root.gives_check(m) as i32, 0),
            Dtm::LossByRule(r) => (1, i32::from(r), 0, 0),
            Dtm::Loss(d) => (0, i32::from(d), !repeats(m) as i32, 0),
        };
        std::cmp::Reverse(key)
    });
    Ok(Some(RootTable { lines, probes }))
}

/// The principal variation of `first` from `root`: the table's best moves after it (the
/// quickest mate for the winner, the slowest for the loser), up to
/// [`TABLE_PV_PLIES`] plies in all, with the positions probed.
pub(crate) fn table_line(tb: &Tablebase, root: &Position, first: Move) -> (Vec<Move>, u64) {
    let mut pv = vec![first];
    let mut probes = 0;
    let mut pos = root.clone();
    pos.make_move(first);
    while pv.len() < TABLE_PV_PLIES {
        let Ok(Some(moves)) = tb.probe_moves(&pos) else {
            break;
        };
        probes += 1 + moves.len() as u64;
        let Some(next) = moves.first().filter(|m| m.value.is_some()) else {
            break;
        };
        pv.push(next.mv);
        pos.make_move(next.mv);
    }
    (pv, probes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_scores_stay_between_the_evaluations_and_the_mates() {
        for ply in [1usize, 60, 120] {
            for d in [1u16, 63, 253] {
                let w = tree_score(Dtm::Win(d), ply);
                assert!((TB_WIN_BOUND.0..=TB_WIN.0).contains(&w) && w < Score::MATE_BOUND.0);
                assert_eq!(tree_score(Dtm::Loss(d + 1), ply), -(w - 1));
            }
        }
        assert_eq!(tree_score(Dtm::Draw, 5), 0);
        assert_eq!(tree_score(Dtm::Loss(0), 7), Score::mated_in(7).0);
        assert_eq!(root_score(Dtm::Win(7)).mate_moves(), Some(4));
        assert_eq!(root_score(Dtm::Loss(6)).mate_moves(), Some(-3));
    }
}
