//! Game review (复盘): the engine looks at every position of a played game once and says,
//! for each move, how much of the mover's winning chances it gave away against the move
//! the engine would have played.
//!
//! # How a move is judged
//!
//! Each of the `n + 1` positions of a game of `n` moves is searched once with the same
//! [`Limits`] (the final position is not searched when the game is over there: a side that
//! is mated or has lost by a rule scores a mate against it, a draw scores 0). The score of
//! position `i` is the mover's value *with the best move*; the negated score of position
//! `i + 1` is the mover's value *after the move played*. Both become a winning chance by
//! [`win_percent`], and the move's **loss** is how far it fell, in win% points (never below
//! zero: a deeper look at the next position may find more than the shallower one did). A
//! move that is the engine's best move loses nothing, whatever the two searches said.
//!
//! The loss is measured in win% rather than centipawns, as lichess does, because a pawn
//! matters far more in a level game than when a chariot up: throwing away 300 centipawns of a
//! 2000-centipawn lead changes nothing, while the same 300 from level ground loses the game.
//!
//! The classes by loss are those of [`Thresholds`] (10, 20 and 30 win% points by default:
//! inaccuracy `?!`, mistake `?`, blunder `??`).
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use xiangqi_core::Game;
//! use xiangqi_search::review::{review, ReviewOptions};
//! use xiangqi_search::{Limits, Searcher};
//! let mut game = Game::default();
//! for m in ["h2e2", "h9g7"] {
//!     let m = game.position().parse_move(m).unwrap();
//!     game.play(m).unwrap();
//! }
//! let options = ReviewOptions {
//!     limits: Limits { depth: Some(4), ..Limits::default() },
//!     ..ReviewOptions::default()
//! };
//! let mut searcher = Searcher::new();
//! let stop = AtomicBool::new(false);
//! let done = review(&mut searcher, &game, &options, &stop, &mut |_| {});
//! assert!(done.complete);
//! assert_eq!(done.moves.len(), 2);
//! assert_eq!(done.summary(xiangqi_core::Color::Red).moves, 1);
//! ```

use crate::{Evaluator, Limits, Searcher};
use std::sync::atomic::{AtomicBool, Ordering};
use xiangqi_core::{Color, Game, Move, RuleSet};
use xiangqi_eval::Score;

/// Centipawns per unit of the logistic that turns a score into a winning chance.
///
/// The value is fitted to *this* engine's scale, not taken from chess: the NNUE trainer
/// (`xiangqi-nnue`, `docs/NNUE.md`) fits `K` in `sigmoid(score / K)` to the results of its
/// self-play games, the scale at which the search's scores best predict who wins, and found
/// 320 for the first generation of data and 316 for the second. Lichess's constant for
/// Stockfish's chess scores is 0.00368208, about 1/272 (a pawn is worth more in chess, where
/// there is less material to trade).
pub const CP_PER_LOGISTIC_UNIT: f64 = 320.0;

/// The largest centipawn value counted in the average centipawn loss: beyond it (and for
/// mates) a score counts as this much, as lichess caps at 1000, so that one missed mate does
/// not swamp a game's average.
pub const CP_CAP: i32 = 1000;

/// The mover's chance of winning, in percent (0..=100), for a score from its point of view:
/// `50 + 50 · (2 / (1 + e^(−cp / K)) − 1)`, lichess's formula with `K` =
/// [`CP_PER_LOGISTIC_UNIT`]. A mate for the mover is 100, a mate against it 0.
///
/// ```
/// use xiangqi_search::review::win_percent;
/// use xiangqi_eval::Score;
/// assert_eq!(win_percent(Score(0)), 50.0);
/// assert!(win_percent(Score(320)) > 73.0 && win_percent(Score(320)) < 73.2);
/// assert_eq!(win_percent(Score::mate_in(3)), 100.0);
/// assert_eq!(win_percent(Score::mated_in(2)), 0.0);
/// ```
pub fn win_percent(score: Score) -> f64 {
    if score.is_mate() {
        return if score.0 > 0 { 100.0 } else { 0.0 };
    }
    let x = f64::from(score.0) / CP_PER_LOGISTIC_UNIT;
    50.0 + 50.0 * (2.0 / (1.0 + (-x).exp()) - 1.0)
}

/// A score in centipawns for the average centipawn loss: within ±[`CP_CAP`], mates at the cap.
pub fn capped_cp(score: Score) -> i32 {
    if score.is_mate() {
        CP_CAP * score.0.signum()
    } else {
        score.0.clamp(-CP_CAP, CP_CAP)
    }
}

/// The losses, in win% points, from which a move is an inaccuracy, a mistake, a blunder.
///
/// The defaults are 10, 20 and 30. Lichess's are 0.1, 0.2 and 0.3 of its winning-chance
/// scale, which runs from −1 to 1, so 5, 10 and 15 win% points: ours are twice as lenient,
/// because a review searches each position briefly and a xiangqi middle game is sharp, so the
/// scores of neighbouring positions swing by a few points without anyone erring. With
/// [`CP_PER_LOGISTIC_UNIT`], losing a pawn (100 cp) from a level game costs 7.8 points (a
/// good move), a horse or cannon (about 400 cp) 27.7 (a mistake), a chariot (about 900 cp)
/// 44 (a blunder).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// A loss of at least this is an inaccuracy (`?!`).
    pub inaccuracy: f64,
    /// A loss of at least this is a mistake (`?`).
    pub mistake: f64,
    /// A loss of at least this is a blunder (`??`).
    pub blunder: f64,
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds {
            inaccuracy: 10.0,
            mistake: 20.0,
            blunder: 30.0,
        }
    }
}

impl Thresholds {
    /// The class of a move that is not the engine's best and loses `loss` win% points.
    pub fn classify(&self, loss: f64) -> MoveClass {
        if loss >= self.blunder {
            MoveClass::Blunder
        } else if loss >= self.mistake {
            MoveClass::Mistake
        } else if loss >= self.inaccuracy {
            MoveClass::Inaccuracy
        } else {
            MoveClass::Good
        }
    }
}

/// What a review makes of one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveClass {
    /// The engine's own choice.
    Best,
    /// Another move that loses less than an inaccuracy.
    Good,
    /// Loses at least [`Thresholds::inaccuracy`]: `?!`.
    Inaccuracy,
    /// Loses at least [`Thresholds::mistake`]: `?`.
    Mistake,
    /// Loses at least [`Thresholds::blunder`]: `??`.
    Blunder,
}

impl MoveClass {
    /// The class's name in the API and the Python module (`best`, `good`, `inaccuracy`,
    /// `mistake`, `blunder`).
    pub fn name(self) -> &'static str {
        match self {
            MoveClass::Best => "best",
            MoveClass::Good => "good",
            MoveClass::Inaccuracy => "inaccuracy",
            MoveClass::Mistake => "mistake",
            MoveClass::Blunder => "blunder",
        }
    }

    /// The PGN Numeric Annotation Glyph: 6 (`?!`), 2 (`?`), 4 (`??`); none for a good move.
    pub fn nag(self) -> Option<u8> {
        match self {
            MoveClass::Inaccuracy => Some(6),
            MoveClass::Mistake => Some(2),
            MoveClass::Blunder => Some(4),
            MoveClass::Best | MoveClass::Good => None,
        }
    }

    /// The glyph as a symbol: `?!`, `?`, `??`.
    pub fn symbol(self) -> Option<&'static str> {
        match self {
            MoveClass::Inaccuracy => Some("?!"),
            MoveClass::Mistake => Some("?"),
            MoveClass::Blunder => Some("??"),
            MoveClass::Best | MoveClass::Good => None,
        }
    }
}

/// How to review: the search limits of each position, the thresholds, the rules.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewOptions {
    /// The limits of each position's search (the same for every position, so that the
    /// moves of a game are judged alike).
    pub limits: Limits,
    /// The losses that make inaccuracies, mistakes and blunders.
    pub thresholds: Thresholds,
    /// The rules that judge a game that ended by repetition (the searcher's own rules judge
    /// the repetitions inside its searches: set both alike).
    pub rules: RuleSet,
}

impl Default for ReviewOptions {
    /// Depth 10 per position with 1 s at most, the default thresholds, Asian rules.
    fn default() -> ReviewOptions {
        ReviewOptions {
            limits: Limits {
                depth: Some(10),
                movetime: Some(std::time::Duration::from_secs(1)),
                ..Limits::default()
            },
            thresholds: Thresholds::default(),
            rules: RuleSet::Asian,
        }
    }
}

/// The value of one position of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionValue {
    /// The score for the side to move.
    pub score: Score,
    /// The engine's move (`None` when the game is over here or the search was stopped
    /// before it had one).
    pub best: Option<Move>,
    /// The engine's line, starting with `best`.
    pub line: Vec<Move>,
    /// The depth of the search (0 when the value came from the game's end).
    pub depth: u32,
    /// The nodes searched.
    pub nodes: u64,
}

/// The review of one move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// The move's ply, from 1.
    pub ply: usize,
    /// Who played it.
    pub mover: Color,
    /// The move played.
    pub played: Move,
    /// The position before the move, valued for the mover.
    pub before: PositionValue,
    /// The position after it, valued for the opponent (the side to move there).
    pub after: PositionValue,
    /// Win% points the mover gave away (0 for the engine's move; never negative).
    pub loss: f64,
    /// Centipawns the mover gave away (scores within ±[`CP_CAP`]; never negative).
    pub cp_loss: i32,
    /// What the move was.
    pub class: MoveClass,
}

impl MoveReview {
    /// The engine's move in the position before, when it had one.
    pub fn best(&self) -> Option<Move> {
        self.before.best
    }
}

/// A side's totals over the moves reviewed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Moves reviewed.
    pub moves: usize,
    /// Mean win% loss per move (0 without moves).
    pub average_loss: f64,
    /// Mean centipawn loss per move (0 without moves).
    pub average_cp_loss: f64,
    /// Moves that were the engine's.
    pub best: usize,
    /// Other moves below an inaccuracy.
    pub good: usize,
    /// Inaccuracies.
    pub inaccuracies: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
}

/// A game's review.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// The moves reviewed, in order (all of the game's unless stopped).
    pub moves: Vec<MoveReview>,
    /// Whether every move was reviewed (`false` when stopped).
    pub complete: bool,
    /// The thresholds the moves were classified by.
    pub thresholds: Thresholds,
}

impl Review {
    /// The totals of `side`'s moves.
    pub fn summary(&self, side: Color) -> SideSummary {
        let mut s = SideSummary::default();
        let (mut loss, mut cp) = (0.0, 0.0);
        for m in self.moves.iter().filter(|m| m.mover == side) {
            s.moves += 1;
            loss += m.loss;
            cp += f64::from(m.cp_loss);
            match m.class {
                MoveClass::Best => s.best += 1,
                MoveClass::Good => s.good += 1,
                MoveClass::Inaccuracy => s.inaccuracies += 1,
                MoveClass::Mistake => s.mistakes += 1,
                MoveClass::Blunder => s.blunders += 1,
            }
        }
        if s.moves > 0 {
            s.average_loss = loss / s.moves as f64;
            s.average_cp_loss = cp / s.moves as f64;
        }
        s
    }
}

/// The value of the current position of `game`: from the game's end when it is over there
/// (`at_end`: only the final position is judged so), else a search; `None` when stopped.
fn value_of<E: Evaluator>(
    searcher: &mut Searcher<E>,
    game: &Game,
    options: &ReviewOptions,
    stop: &AtomicBool,
    at_end: bool,
) -> Option<PositionValue> {
    let pos = game.position();
    let over = if at_end || !pos.has_legal_move() {
        game.outcome(options.rules)
    } else {
        None
    };
    if let Some(outcome) = over {
        let score = match outcome.winner {
            None => Score::DRAW,
            Some(w) if w == pos.side_to_move() => Score::mate_in(0),
            Some(_) => Score::mated_in(0),
        };
        return Some(PositionValue {
            score,
            best: None,
            line: Vec::new(),
            depth: 0,
            nodes: 0,
        });
    }
    if stop.load(Ordering::SeqCst) {
        return None;
    }
    let handle = searcher.stop_handle();
    let result = searcher.search(game, &options.limits, &mut |_| {
        // The search clears a stop asked before it began: look at the flag at each report.
        if stop.load(Ordering::SeqCst) {
            handle.stop();
        }
    });
    if stop.load(Ordering::SeqCst) {
        return None;
    }
    Some(PositionValue {
        score: result.score,
        best: result.best_move,
        line: result.pv,
        depth: result.depth,
        nodes: result.nodes,
    })
}

/// Reviews every move of `game` (from its start position) with `searcher`, calling `on_move`
/// with each move's review as soon as it is known (after the search of the position that
/// follows it), in order. Setting `stop` ends the review soon after, within the current
/// search (at its next iteration; stop the searcher's [`StopHandle`](crate::StopHandle) as
/// well to end that at once): the moves reviewed so far are returned with
/// [`Review::complete`] `false`.
///
/// The searcher is used as it is (its hash, threads, evaluator, rules and level); its
/// transposition table carries what one position's search learned to the next.
pub fn review<E: Evaluator>(
    searcher: &mut Searcher<E>,
    game: &Game,
    options: &ReviewOptions,
    stop: &AtomicBool,
    on_move: &mut dyn FnMut(&MoveReview),
) -> Review {
    let moves = game.moves();
    let mut out = Review {
        moves: Vec::with_capacity(moves.len()),
        complete: false,
        thresholds: options.thresholds,
    };
    let mut replay = Game::new(game.start_position().clone());
    let Some(mut before) = value_of(searcher, &replay, options, stop, moves.is_empty()) else {
        return out;
    };
    for (i, &played) in moves.iter().enumerate() {
        let mover = replay.position().side_to_move();
        if replay.play(played).is_err() {
            // The game's own moves are legal; a game that is not stops the review here.
            return out;
        }
        let at_end = i + 1 == moves.len();
        let Some(after) = value_of(searcher, &replay, options, stop, at_end) else {
            return out;
        };
        let judged = judge(i + 1, mover, played, before, after, &options.thresholds);
        on_move(&judged);
        before = judged.after.clone();
        out.moves.push(judged);
    }
    out.complete = true;
    out
}

/// The review of the move `played` between the positions valued `before` (for the mover)
/// and `after` (for the opponent).
fn judge(
    ply: usize,
    mover: Color,
    played: Move,
    before: PositionValue,
    after: PositionValue,
    thresholds: &Thresholds,
) -> MoveReview {
    let best_score = before.score;
    let played_score = -after.score;
    let is_best = before.best == Some(played);
    let (loss, cp_loss, class) = if is_best {
        (0.0, 0, MoveClass::Best)
    } else {
        let loss = (win_percent(best_score) - win_percent(played_score)).max(0.0);
        let cp_loss = (capped_cp(best_score) - capped_cp(played_score)).max(0);
        (loss, cp_loss, thresholds.classify(loss))
    };
    MoveReview {
        ply,
        mover,
        played,
        before,
        after,
        loss,
        cp_loss,
        class,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use xiangqi_core::Position;

    fn game(fen: &str, moves: &[&str]) -> Game {
        let mut g = Game::new(Position::from_fen(fen).expect("a good FEN"));
        for m in moves {
            let m = g.position().parse_move(m).expect("a legal move");
            g.play(m).expect("a legal move");
        }
        g
    }

    fn options(depth: u32) -> ReviewOptions {
        ReviewOptions {
            limits: Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            ..ReviewOptions::default()
        }
    }

    #[test]
    fn win_percent_is_a_symmetric_rising_curve() {
        for cp in [-2000, -500, -100, -1, 0, 1, 100, 500, 2000] {
            let w = win_percent(Score(cp));
            assert!((w + win_percent(Score(-cp)) - 100.0).abs() < 1e-9, "{cp}");
            assert!(win_percent(Score(cp + 1)) > w, "{cp}");
        }
    }

    #[test]
    fn classes_follow_the_thresholds() {
        let t = Thresholds::default();
        assert_eq!(t.classify(0.0), MoveClass::Good);
        assert_eq!(t.classify(9.99), MoveClass::Good);
        assert_eq!(t.classify(10.0), MoveClass::Inaccuracy);
        assert_eq!(t.classify(25.0), MoveClass::Mistake);
        assert_eq!(t.classify(30.0), MoveClass::Blunder);
        assert_eq!(MoveClass::Blunder.nag(), Some(4));
        assert_eq!(MoveClass::Mistake.nag(), Some(2));
        assert_eq!(MoveClass::Inaccuracy.nag(), Some(6));
        assert_eq!(MoveClass::Good.nag(), None);
    }

    /// Red, a chariot up (two against one), plays two good chariot moves while black defends,
    /// then puts a chariot on the black chariot's rank where it is taken for nothing
    /// (`b6b7??`): a won game thrown away in one move. Only that move is a blunder.
    const THROWN: &str = "3aka3/9/r8/9/9/9/9/1R6R/9/3K5 w";
    const THROWN_MOVES: [&str; 6] = ["i2e2", "f9e8", "b2b6", "a7g7", "b6b7", "g7b7"];

    #[test]
    fn a_won_position_thrown_away_in_one_move_is_the_blunder() {
        let g = game(THROWN, &THROWN_MOVES);
        let mut searcher = Searcher::new();
        let stop = AtomicBool::new(false);
        let mut streamed = Vec::new();
        let r = review(&mut searcher, &g, &options(6), &stop, &mut |m| {
            streamed.push(m.ply)
        });
        assert!(r.complete);
        assert_eq!(streamed, [1, 2, 3, 4, 5, 6], "each move once, in order");
        let blunder = &r.moves[4];
        assert_eq!(blunder.played.to_string(), "b6b7");
        assert_eq!(blunder.class, MoveClass::Blunder, "{blunder:?}");
        assert_eq!(blunder.class.nag(), Some(4));
        assert!(
            blunder.loss >= 30.0 && blunder.cp_loss >= 500,
            "{blunder:?}"
        );
        assert_ne!(blunder.best(), Some(blunder.played));
        for m in r.moves.iter().filter(|m| m.ply != 5) {
            assert!(
                matches!(m.class, MoveClass::Best | MoveClass::Good),
                "move {} ({}) is {:?}, losing {:.1}",
                m.ply,
                m.played,
                m.class,
                m.loss
            );
        }
        // The capture is what the engine would play: the best move, no loss.
        assert_eq!(r.moves[5].class, MoveClass::Best);
        let red = r.summary(Color::Red);
        let black = r.summary(Color::Black);
        assert_eq!((red.moves, red.blunders), (3, 1));
        assert_eq!((black.moves, black.blunders), (3, 0));
        assert!(red.average_loss >= blunder.loss / 3.0);
        assert!(red.average_loss > black.average_loss);
    }

    #[test]
    fn a_checkmate_ends_the_review_with_the_mate_valued_from_the_game() {
        // Red mates at once with a0a9: the chariot on b8 holds the general's rank 8.
        let g = game("4k4/1R7/9/9/9/9/9/9/9/R2K5 w", &["a0a9"]);
        let mut searcher = Searcher::new();
        let r = review(
            &mut searcher,
            &g,
            &options(4),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert!(r.complete);
        let m = &r.moves[0];
        assert_eq!(m.after.depth, 0, "the mated position is not searched");
        assert_eq!(m.after.best, None);
        assert!(m.after.score.0 < 0 && m.after.score.is_mate());
        assert_eq!(m.loss, 0.0);
        assert!(matches!(m.class, MoveClass::Best | MoveClass::Good));
    }

    #[test]
    fn a_stopped_review_stops() {
        let g = game(THROWN, &THROWN_MOVES);
        let mut searcher = Searcher::new();
        let stop = AtomicBool::new(false);
        let mut seen = 0;
        let r = review(&mut searcher, &g, &options(8), &stop, &mut |_| {
            seen += 1;
            stop.store(true, Ordering::SeqCst);
        });
        assert!(!r.complete);
        assert_eq!((seen, r.moves.len()), (1, 1), "nothing after the stop");

        // A stop asked from another thread ends a review that would otherwise run for
        // minutes (no depth limit, 30 s per position) within its current search.
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let remote = std::sync::Arc::clone(&stop);
        let slow = ReviewOptions {
            limits: Limits {
                movetime: Some(Duration::from_secs(30)),
                ..Limits::default()
            },
            ..ReviewOptions::default()
        };
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            remote.store(true, Ordering::SeqCst);
        });
        let begun = std::time::Instant::now();
        let r = review(&mut searcher, &g, &slow, &stop, &mut |_| {});
        t.join().expect("the stopper ends");
        assert!(!r.complete);
        assert!(r.moves.is_empty());
        assert!(
            begun.elapsed() < Duration::from_secs(5),
            "{:?}",
            begun.elapsed()
        );
    }
}
