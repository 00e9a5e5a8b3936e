//! Switches for every search feature, so that each one's worth can be measured by
//! self-play (the match example's `off=` key), and the numeric constants ([`Tunables`]).

use crate::tune::Tunables;

/// Which search features are on. [`Params::default`] turns on the common core and the
/// refinements whose match tests came out ahead (docs/SEARCH.md); `capture_history`,
/// `correction_history` and `probcut` are off until a test shows them worth it.
///
/// ```
/// use xiangqi_search::Params;
/// let mut p = Params::default();
/// p.set("null_move", false).unwrap();
/// assert!(!p.null_move);
/// assert!(p.set("no_such_feature", false).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Principal variation search (null windows after the first move).
    pub pvs: bool,
    /// Transposition table cutoffs and move (the table is always written).
    pub tt: bool,
    /// Static exchange evaluation: bad captures ordered last, pruned at low depth and in
    /// quiescence.
    pub see: bool,
    /// Two killer moves per ply.
    pub killers: bool,
    /// The countermove heuristic.
    pub countermove: bool,
    /// The history heuristic for quiet moves.
    pub history: bool,
    /// Quiescence search on captures (off: static evaluation at the horizon).
    pub quiescence: bool,
    /// Delta pruning in quiescence.
    pub delta_pruning: bool,
    /// The transposition table in quiescence too (probed for cutoffs, written, and the
    /// children's entries prefetched); off, quiescence never touches it, which saves the
    /// memory traffic of half the nodes.
    pub qsearch_tt: bool,
    /// Null-move pruning (never in check, never without a chariot, horse or cannon).
    pub null_move: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Late-move pruning (quiet moves late in the list at low depth).
    pub late_move_pruning: bool,
    /// Futility pruning of quiet moves.
    pub futility: bool,
    /// Reverse futility (static null move) pruning.
    pub reverse_futility: bool,
    /// Extend moves that give check by one ply.
    pub check_extension: bool,
    /// Mate distance pruning.
    pub mate_distance_pruning: bool,
    /// Internal iterative reduction: one ply less where the table has no move.
    pub iir: bool,
    /// Continuation histories: quiet moves scored also by the move one and two plies
    /// before (ordering and reductions).
    pub continuation_history: bool,
    /// The continuation history also after the move four plies before (the same side's
    /// move before last), in ordering at half weight and in the updates.
    pub continuation_history_4: bool,
    /// Capture history: captures ordered also by how well the same capture (piece,
    /// target, victim) has done.
    pub capture_history: bool,
    /// Correction history: the static evaluation corrected by how far searches of
    /// positions with the same pawns, and with the same material, found it off.
    pub correction_history: bool,
    /// Singular extensions: the table's move is searched a ply deeper when every other
    /// move fails well below its score (two plies when far below), a cutoff is taken
    /// when others also beat beta (multi-cut), and it is searched a ply shallower when
    /// its score alone was already above beta.
    pub singular_extension: bool,
    /// ProbCut: at a node well above beta, a capture whose shallow search beats beta by a
    /// margin cuts the node off without the full-depth search.
    pub probcut: bool,
    /// Time management by the best move's share of the nodes: with a clock, an iteration
    /// whose best move took most of the search's effort ends the thinking sooner, one
    /// whose effort was spread over several moves (an unclear choice) makes it last longer.
    pub node_share_time: bool,
    /// The table's score as the evaluation for pruning: where the table's bound says its
    /// score is nearer the truth than the static evaluation (a lower bound above it, an
    /// upper bound below it), reverse futility, null move, razoring and futility pruning
    /// start from it.
    pub tt_eval: bool,
    /// Razoring: at depth 1 to 3, a node whose evaluation is far below alpha is searched
    /// by quiescence alone, and given up when that stays below alpha.
    pub razoring: bool,
    /// History pruning: at depth 1 to 4, a quiet move (not a killer or the counter move)
    /// whose history is far below zero is not searched.
    pub history_pruning: bool,
    /// After a reduced search beat alpha, the full-depth re-search goes a ply deeper when
    /// the reduced score beat the best so far by a margin, and a ply shallower when it
    /// barely did.
    pub lmr_deeper: bool,
    /// The history tables are halved before each search, so that the last moves' records
    /// weigh more than older ones; off, they carry over whole from move to move (as
    /// Stockfish's do) until a new game clears them.
    pub history_decay: bool,
    /// The numeric constants (margins, reductions, bonuses), for tuning.
    pub tune: Tunables,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            aspiration: true,
            pvs: true,
            tt: true,
            see: true,
            killers: true,
            countermove: true,
            history: true,
            quiescence: true,
            delta_pruning: true,
            qsearch_tt: true,
            null_move: true,
            lmr: true,
            late_move_pruning: true,
            futility: true,
            reverse_futility: true,
            check_extension: true,
            mate_distance_pruning: true,
            iir: true,
            continuation_history: true,
            // Off until it passes its SPRT (docs/SEARCH.md).
            continuation_history_4: false,
            // Off until it passes its SPRT: even at fixed nodes (docs/SEARCH.md).
            capture_history: false,
            // Off: it lost its SPRTs (docs/SEARCH.md).
            correction_history: false,
            singular_extension: true,
            // Off until it passes its SPRT: even at fixed nodes (docs/SEARCH.md).
            probcut: false,
            node_share_time: true,
            // Off until they pass their SPRTs (docs/SEARCH.md).
            tt_eval: false,
            razoring: false,
            history_pruning: false,
            lmr_deeper: false,
            history_decay: true,
            tune: Tunables::default(),
        }
    }
}

impl Params {
    /// The names [`Params::set`] accepts, one per field.
    pub const NAMES: &'static [&'static str] = &[
        "aspiration",
        "pvs",
        "tt",
        "see",
        "killers",
        "countermove",
        "history",
        "quiescence",
        "delta_pruning",
        "qsearch_tt",
        "null_move",
        "lmr",
        "late_move_pruning",
        "futility",
        "reverse_futility",
        "check_extension",
        "mate_distance_pruning",
        "iir",
        "continuation_history",
        "continuation_history_4",
        "capture_history",
        "correction_history",
        "singular_extension",
        "probcut",
        "node_share_time",
        "tt_eval",
        "razoring",
        "history_pruning",
        "lmr_deeper",
        "history_decay",
    ];

    /// Turns the feature called `name` (a field name) on or off.
    ///
    /// # Errors
    /// The unknown name, when `name` is not one of [`Params::NAMES`].
    pub fn set(&mut self, name: &str, on: bool) -> Result<(), String> {
        let f = match name {
            "aspiration" => &mut self.aspiration,
            "pvs" => &mut self.pvs,
            "tt" => &mut self.tt,
            "see" => &mut self.see,
            "killers" => &mut self.killers,
            "countermove" => &mut self.countermove,
            "history" => &mut self.history,
            "quiescence" => &mut self.quiescence,
            "delta_pruning" => &mut self.delta_pruning,
            "qsearch_tt" => &mut self.qsearch_tt,
            "null_move" => &mut self.null_move,
            "lmr" => &mut self.lmr,
            "late_move_pruning" => &mut self.late_move_pruning,
            "futility" => &mut self.futility,
            "reverse_futility" => &mut self.reverse_futility,
            "check_extension" => &mut self.check_extension,
            "mate_distance_pruning" => &mut self.mate_distance_pruning,
            "iir" => &mut self.iir,
            "continuation_history" => &mut self.continuation_history,
            "continuation_history_4" => &mut self.continuation_history_4,
            "capture_history" => &mut self.capture_history,
            "correction_history" => &mut self.correction_history,
            "singular_extension" => &mut self.singular_extension,
            "probcut" => &mut self.probcut,
            "node_share_time" => &mut self.node_share_time,
            "tt_eval" => &mut self.tt_eval,
            "razoring" => &mut self.razoring,
            "history_pruning" => &mut self.history_pruning,
            "lmr_deeper" => &mut self.lmr_deeper,
            "history_decay" => &mut self.history_decay,
            _ => {
                return Err(format!(
                    "unknown search feature `{name}` (known: {})",
                    Params::NAMES.join(", ")
                ))
            }
        };
        *f = on;
        Ok(())
    }
}
