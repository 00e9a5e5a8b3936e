//! Game review (复盘), `POST /api/v1/review`: the request (a game and the limits of each
//! position's search) checked against [`RequestLimits`], the views of the stream's events
//! (`move` for each ply, `summary` at the end), and [`annotate`], which writes a review into
//! a game record as NAGs, comments and the better lines.
//!
//! The judging itself is [`xiangqi_search::review`]; running it (on a pooled engine and a
//! blocking thread, or in a Web Worker) is the transport's part.
//!
//! [`annotate`] lives here rather than in `xiangqi-search` or `xiangqi-records` because it
//! needs both (a search's review, a record's tree) and neither of those two may depend on the
//! other; this crate already sits above both, and the Python module and the examples use it
//! from here too, so the comments a review writes are the same everywhere.

use crate::error::ApiError;
use crate::game::GameInput;
use crate::limits::RequestLimits;
use crate::search::{in_range, LimitsInput};
use crate::view::{color_name, line, MoveView, ScoreView};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;
use xiangqi_core::{Color, Game, Move, Position};
use xiangqi_records::GameTree;
use xiangqi_search::review::{
    MoveClass, MoveReview, Review, ReviewOptions, SideSummary, Thresholds,
};
use xiangqi_search::{Limits, Score};

/// The depth of each position's search when a request gives no limits.
pub const DEFAULT_DEPTH: u32 = 10;

/// The most time one position's search takes when a request gives no limits (a position
/// where depth [`DEFAULT_DEPTH`] takes longer ends then).
pub const DEFAULT_MOVETIME: Duration = Duration::from_millis(1_000);

/// The body of `/api/v1/review`.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct ReviewRequest {
    /// The game to review: a start FEN and its moves.
    #[serde(flatten)]
    pub game: GameInput,
    /// The limits of each position's search (the same for all); depth
    /// [`DEFAULT_DEPTH`] within [`DEFAULT_MOVETIME`] when none is given.
    #[serde(default)]
    pub limits: LimitsInput,
}

/// A review checked and ready to run.
#[derive(Clone, Debug)]
pub struct PreparedReview {
    /// The game, every move played.
    pub game: Game,
    /// The limits, thresholds and rules.
    pub options: ReviewOptions,
}

impl ReviewRequest {
    /// Checks the request against `limits` and replays its game.
    ///
    /// Each position's search obeys the limits of one engine move (`max_depth`,
    /// `max_nodes`, `max_movetime_ms`), and the whole review those of an analysis: its
    /// `n + 1` searches together take at most `max_analysis_ms`, so a `movetime_ms` that would
    /// take longer is refused, and a search limited by depth or nodes only gets its share of
    /// that time.
    ///
    /// # Errors
    /// A 4xx naming the field at fault: the game's (`fen`, `moves[i]` with its index, too
    /// many `moves`, `no_moves` for a game without moves) or a limit's.
    pub fn prepare(&self, limits: &RequestLimits) -> Result<PreparedReview, ApiError> {
        let l = &self.limits;
        in_range(
            l.depth.map(u64::from),
            "limits.depth",
            u64::from(limits.max_depth),
        )?;
        in_range(l.nodes, "limits.nodes", limits.max_nodes)?;
        in_range(l.movetime_ms, "limits.movetime_ms", limits.max_movetime_ms)?;
        let game = self.game.build(limits)?;
        let moves = game.moves().len();
        if moves == 0 {
            return Err(ApiError::invalid(
                "no_moves",
                "moves",
                "a review needs a game with at least one move",
            ));
        }
        let positions = moves as u64 + 1;
        let share_ms = (limits.max_analysis_ms / positions).max(1);
        if let Some(ms) = l.movetime_ms {
            if ms > share_ms {
                return Err(ApiError::invalid(
                    "over_limit",
                    "limits.movetime_ms",
                    format!(
                        "a review of {positions} positions at {ms} ms each would take {} ms, \
                         over this server's limit of {} ms",
                        ms.saturating_mul(positions),
                        limits.max_analysis_ms
                    ),
                ));
            }
        }
        let unlimited = l.depth.is_none() && l.nodes.is_none() && l.movetime_ms.is_none();
        let default_ms = u64::try_from(DEFAULT_MOVETIME.as_millis()).unwrap_or(u64::MAX);
        let movetime_ms = match l.movetime_ms {
            Some(ms) => ms,
            None if unlimited => default_ms.min(share_ms),
            None => limits.max_movetime_ms.min(share_ms),
        };
        let options = ReviewOptions {
            limits: Limits {
                depth: if unlimited {
                    Some(DEFAULT_DEPTH)
                } else {
                    l.depth
                },
                nodes: l.nodes,
                movetime: Some(Duration::from_millis(movetime_ms)),
                ..Limits::default()
            },
            thresholds: Thresholds::default(),
            rules: self.game.rule_set(),
        };
        Ok(PreparedReview { game, options })
    }
}

/// The `move` event: one ply's review.
#[derive(Clone, Debug, Serialize)]
pub struct MoveEvent {
    /// The move's ply, from 1.
    pub ply: usize,
    /// The number of moves in the game.
    pub total: usize,
    /// The mover: `red` or `black`.
    pub side: &'static str,
    /// The move played.
    pub played: MoveView,
    /// The engine's move in the position before (`null` when the search had none).
    pub best: Option<MoveView>,
    /// The engine's line from the position before, starting with `best`.
    pub best_line: Vec<MoveView>,
    /// The position before the move, for the mover.
    pub score_before: ScoreView,
    /// The position after it, for the opponent (the side to move there).
    pub score_after: ScoreView,
    /// Win% points the mover gave away (0 or more).
    pub loss: f64,
    /// Centipawns the mover gave away (scores capped at ±1000; 0 or more).
    pub cp_loss: i32,
    /// `best`, `good`, `inaccuracy`, `mistake` or `blunder`.
    pub class: &'static str,
    /// `?!`, `?` or `??`; `null` for a best or good move.
    pub nag: Option<&'static str>,
    /// The depth of the search of the position before the move.
    pub depth: u32,
}

impl MoveEvent {
    /// The event of `m`, a move of `game` (`game.moves()[m.ply - 1]`); `None` when `game`
    /// has no such move (the review is of another game).
    pub fn new(game: &Game, m: &MoveReview) -> Option<MoveEvent> {
        let before = game.positions().get(m.ply.checked_sub(1)?)?;
        if game.moves().get(m.ply - 1) != Some(&m.played) {
            return None;
        }
        Some(MoveEvent {
            ply: m.ply,
            total: game.moves().len(),
            side: color_name(m.mover),
            played: MoveView::new(before, m.played),
            best: m
                .before
                .best
                .filter(|&b| before.is_legal(b))
                .map(|b| MoveView::new(before, b)),
            best_line: line(before, &m.before.line),
            score_before: ScoreView::new(m.before.score, m.mover),
            score_after: ScoreView::new(m.after.score, !m.mover),
            loss: round2(m.loss),
            cp_loss: m.cp_loss,
            class: m.class.name(),
            nag: m.class.symbol(),
            depth: m.before.depth,
        })
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// A side's totals in the `summary` event.
#[derive(Clone, Debug, Serialize)]
pub struct SideView {
    /// Moves reviewed.
    pub moves: usize,
    /// Mean win% loss.
    pub average_loss: f64,
    /// Mean centipawn loss.
    pub average_cp_loss: f64,
    /// Moves that were the engine's.
    pub best: usize,
    /// Other moves below an inaccuracy.
    pub good: usize,
    /// Inaccuracies (`?!`).
    pub inaccuracies: usize,
    /// Mistakes (`?`).
    pub mistakes: usize,
    /// Blunders (`??`).
    pub blunders: usize,
}

impl From<SideSummary> for SideView {
    fn from(s: SideSummary) -> SideView {
        SideView {
            moves: s.moves,
            average_loss: round2(s.average_loss),
            average_cp_loss: round2(s.average_cp_loss),
            best: s.best,
            good: s.good,
            inaccuracies: s.inaccuracies,
            mistakes: s.mistakes,
            blunders: s.blunders,
        }
    }
}

/// The losses, in win% points, that make each class.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ThresholdsView {
    /// From this loss on, an inaccuracy.
    pub inaccuracy: f64,
    /// From this loss on, a mistake.
    pub mistake: f64,
    /// From this loss on, a blunder.
    pub blunder: f64,
}

/// The `summary` event, at the end of the stream.
#[derive(Clone, Debug, Serialize)]
pub struct SummaryEvent {
    /// Red's totals.
    pub red: SideView,
    /// Black's totals.
    pub black: SideView,
    /// The thresholds the moves were classified by.
    pub thresholds: ThresholdsView,
    /// Whether every move was reviewed (`false` when the review was stopped).
    pub complete: bool,
    /// The game as PGN text with the review written in ([`annotated_pgn`]).
    pub pgn: String,
}

/// `game` as PGN text (Chinese notation, a `FEN` tag for another start) with `review`
/// written in by [`annotate`]; the moves after a review that stopped early, or all of them
/// for another game's review, are written without annotations.
pub fn annotated_pgn(game: &Game, review: &Review) -> String {
    let mut tree = GameTree::from_game(game);
    // A review of another game annotates the moves it shares with this one.
    let _ = annotate(&mut tree, review);
    let mut record = xiangqi_records::Record::new(tree);
    record.set_tag("Game", "Chinese Chess");
    xiangqi_records::pgn::write_record(&record, &Default::default())
}

impl SummaryEvent {
    /// The summary of `review`, a review of `game`.
    pub fn new(game: &Game, review: &Review) -> SummaryEvent {
        let t = review.thresholds;
        SummaryEvent {
            red: review.summary(Color::Red).into(),
            black: review.summary(Color::Black).into(),
            thresholds: ThresholdsView {
                inaccuracy: t.inaccuracy,
                mistake: t.mistake,
                blunder: t.blunder,
            },
            complete: review.complete,
            pgn: annotated_pgn(game, review),
        }
    }
}

/// A score as a comment says it, for the side it belongs to: `+1.20`, `-0.35`, `#3` (mates
/// in 3), `#-2` (is mated in 2).
pub fn score_text(score: Score) -> String {
    match score.mate_moves() {
        Some(n) => format!("#{n}"),
        None => format!("{:+.2}", f64::from(score.0) / 100.0),
    }
}

/// The comment [`annotate`] writes on a move: `Blunder (-38%). Best: 车二进六 +1.20`, the
/// score being the mover's after the engine's move. `None` for a best or good move.
pub fn comment(before: &Position, m: &MoveReview) -> Option<String> {
    let class = match m.class {
        MoveClass::Inaccuracy => "Inaccuracy",
        MoveClass::Mistake => "Mistake",
        MoveClass::Blunder => "Blunder",
        MoveClass::Best | MoveClass::Good => return None,
    };
    let mut text = format!("{class} (-{:.0}%).", m.loss);
    if let Some(best) = m.before.best.filter(|&b| before.is_legal(b)) {
        text.push_str(&format!(
            " Best: {} {}",
            before.to_chinese(best),
            score_text(m.before.score)
        ));
    }
    Some(text)
}

/// Why [`annotate`] could not write a review into a tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnnotateError {
    /// The tree's main line has no move at this ply (1-based), or another move than the
    /// review's: the review is of another game.
    OtherGame {
        /// The first ply where the two differ.
        ply: usize,
    },
}

impl fmt::Display for AnnotateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnnotateError::OtherGame { ply } => write!(
                f,
                "the review is of another game: its move {ply} is not the record's"
            ),
        }
    }
}

impl std::error::Error for AnnotateError {}

/// Writes `review` into `tree`, whose main line is the reviewed game: on each inaccuracy,
/// mistake and blunder its NAG (`?!` = 6, `?` = 2, `??` = 4), a [`comment`] (after any
/// comment the move had), and the engine's line from the position before as a variation
/// beside the move. Returns the number of moves annotated.
///
/// # Errors
/// [`AnnotateError::OtherGame`] when the tree's main line is not the reviewed game; the
/// moves before that ply are annotated.
pub fn annotate(tree: &mut GameTree, review: &Review) -> Result<usize, AnnotateError> {
    // The root, then the node of each ply.
    let mut main = vec![tree.root()];
    main.extend(tree.main_line());
    let mut annotated = 0;
    for m in &review.moves {
        let other = AnnotateError::OtherGame { ply: m.ply };
        let (Some(&node), Some(&parent)) = (main.get(m.ply), main.get(m.ply.wrapping_sub(1)))
        else {
            return Err(other);
        };
        if tree.node(node).mv() != Some(m.played) {
            return Err(other);
        }
        let Some(nag) = m.class.nag() else {
            continue;
        };
        let before = tree.position_at(parent);
        let n = tree.node_mut(node);
        if !n.nags.contains(&nag) {
            n.nags.push(nag);
        }
        if let Some(text) = comment(&before, m) {
            if n.comment.is_empty() {
                n.comment = text;
            } else if !n.comment.contains(&text) {
                n.comment = format!("{} {text}", n.comment);
            }
        }
        add_line(tree, parent, &m.before.line);
        annotated += 1;
    }
    Ok(annotated)
}

/// Adds `moves` from `parent` as a variation (after the lines already there), as far as they
/// are legal.
fn add_line(tree: &mut GameTree, parent: xiangqi_records::NodeId, moves: &[Move]) {
    let mut at = parent;
    for (i, &m) in moves.iter().enumerate() {
        // The first move starts a new line; a line already there is not written twice.
        if i == 0 && tree.child_with(at, m).is_some() {
            return;
        }
        match tree.add_move(at, m) {
            Ok(id) => at = id,
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(body: &str) -> Result<PreparedReview, ApiError> {
        crate::json::parse::<ReviewRequest>(body.as_bytes())?.prepare(&RequestLimits::default())
    }

    #[test]
    fn limits_and_defaults() {
        let p = request(r#"{"moves": ["h2e2", "h9g7"]}"#).expect("a good request");
        assert_eq!(p.options.limits.depth, Some(DEFAULT_DEPTH));
        assert_eq!(p.options.limits.movetime, Some(DEFAULT_MOVETIME));
        let p = request(r#"{"moves": ["h2e2"], "limits": {"nodes": 5000}}"#).unwrap();
        assert_eq!(p.options.limits.depth, None);
        assert_eq!(p.options.limits.nodes, Some(5000));
        assert_eq!(
            p.options.limits.movetime,
            Some(Duration::from_millis(10_000))
        );
        let e = request(r#"{"moves": ["h2e2"], "limits": {"depth": 0}}"#).unwrap_err();
        assert_eq!(e.code(), "bad_limit");
        let e = request(r#"{"moves": ["h2e2"], "limits": {"depth": 99}}"#).unwrap_err();
        assert_eq!(e.code(), "over_limit");
        let e = request(r#"{"moves": []}"#).unwrap_err();
        assert_eq!(e.code(), "no_moves");
        let e = request(r#"{"moves": ["h2e2", "h2e2"]}"#).unwrap_err();
        assert_eq!(e.code(), "illegal_move");
        // 300 s over 301 positions: under a second each.
        let moves = ["h2e2", "h9g7", "e2h2", "g7h9"].repeat(75);
        let body = serde_json::json!({"moves": moves, "limits": {"movetime_ms": 1000}});
        let e = request(&body.to_string()).unwrap_err();
        assert_eq!(e.code(), "over_limit");
        assert!(e.message().contains("301 positions"), "{}", e.message());
    }

    #[test]
    fn score_texts() {
        assert_eq!(score_text(Score(120)), "+1.20");
        assert_eq!(score_text(Score(-35)), "-0.35");
        assert_eq!(score_text(Score::mate_in(5)), "#3");
        assert_eq!(score_text(Score::mated_in(4)), "#-2");
    }

    /// Red, a chariot up, leaves a chariot where the black chariot takes it (`b6b7??`): the
    /// record gets `??`, the comment and the engine's line beside the move, and reads back.
    #[test]
    fn a_blunder_is_written_into_the_record() {
        let p = request(
            r#"{"fen": "3aka3/9/r8/9/9/9/9/1R6R/9/3K5 w",
                "moves": ["i2e2", "f9e8", "b2b6", "a7g7", "b6b7", "g7b7"],
                "limits": {"depth": 6}}"#,
        )
        .unwrap();
        let mut searcher = xiangqi_search::Searcher::new();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let mut events = Vec::new();
        let review =
            xiangqi_search::review::review(&mut searcher, &p.game, &p.options, &stop, &mut |m| {
                events.push(MoveEvent::new(&p.game, m).expect("a move of the game"))
            });
        let classes: Vec<&str> = events.iter().map(|e| e.class).collect();
        assert_eq!(classes[4], "blunder", "{classes:?}");
        assert_eq!(events[4].nag, Some("??"));
        assert_eq!(events[4].played.iccs, "b6b7");
        assert_eq!(events[4].side, "red");
        assert_eq!(events[4].total, 6);
        assert!(events[4].best.is_some());
        assert_eq!(
            events[4].best_line[0].iccs,
            events[4].best.as_ref().unwrap().iccs
        );
        let summary = SummaryEvent::new(&p.game, &review);
        assert!(summary.pgn.contains("$4"), "{}", summary.pgn);
        assert!(summary
            .pgn
            .contains("[FEN \"3aka3/9/r8/9/9/9/9/1R6R/9/3K5 w"));
        assert_eq!(summary.red.blunders, 1);
        assert_eq!(summary.black.blunders, 0);
        assert!(summary.complete);

        let mut tree = GameTree::from_game(&p.game);
        assert_eq!(annotate(&mut tree, &review), Ok(1));
        let record = xiangqi_records::Record::new(tree);
        let pgn = xiangqi_records::pgn::write_record(&record, &Default::default());
        assert!(pgn.contains("??") || pgn.contains("$4"), "{pgn}");
        assert!(pgn.contains("Blunder (-"), "{pgn}");
        assert!(pgn.contains('('), "the better line as a variation: {pgn}");
        let again = xiangqi_records::pgn::load_str(&pgn, xiangqi_records::Format::Pgn).unwrap();
        let tree = &again.records[0].tree;
        let main = tree.main_line();
        assert_eq!(tree.node(main[4]).nags, [4]);
        assert_eq!(tree.node(main[3]).child_count(), 2, "played and best");
        assert_eq!(tree.main_line_moves(), p.game.moves());
        // Another game's review is refused.
        assert!(MoveEvent::new(&Game::default(), &review.moves[0]).is_none());
        let mut other = GameTree::from_game(&Game::default());
        assert_eq!(
            annotate(&mut other, &review),
            Err(AnnotateError::OtherGame { ply: 1 })
        );
    }
}
