#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod board;
mod default;
mod geometry;
mod packed;
mod params;
mod score;
mod terms;
mod tuned;

pub use default::{DefaultEvaluator, Trace, LAZY_MARGIN};
pub use params::{half_table_index, EvalParams, HalfTable, Pair};
pub use score::Score;
use xiangqi_core::{Move, Position, Role};

/// An evaluation of positions, pluggable into the search.
///
/// `evaluate` returns the score from the side to move's point of view. The hooks
/// `make_move`/`unmake_move` (and the null-move pair) let an evaluator keep incremental state
/// (an accumulator) in step with the search: the search calls [`Evaluator::reset`] with the
/// root, then `make_move(pos, m)` with the position *before* `m` just before making it,
/// and `unmake_move(pos, m)` with the position *before* `m` right after taking it back. All
/// hooks do nothing by default, so a plain evaluator implements `evaluate` alone.
///
/// Each search thread owns its own clone (`Clone + Send`); share read-only data such as
/// big tables through an `Arc` inside the evaluator.
///
/// Keep the evaluation symmetric: the same score for the side to move after swapping the
/// colours ([`Position::swap_colors`]) or mirroring the board ([`Position::flip_horizontal`]).
///
/// # Example: a user evaluator
///
/// Material plus a bonus for pawns across the river, kept incrementally (O(1) per move)
/// through the hooks, then searched by the engine with
/// `xiangqi_search::Searcher::with_evaluator(PawnsAndMaterial::default())`.
///
/// ```
/// use xiangqi_core::{Color, Move, Piece, Position, Role, Square};
/// use xiangqi_eval::{Evaluator, Score};
///
/// #[derive(Clone, Default)]
/// struct PawnsAndMaterial {
///     /// Red's total minus black's, for the current position.
///     red: i32,
///     /// Earlier totals, so that unmaking is O(1).
///     history: Vec<i32>,
/// }
///
/// fn value(p: Piece, sq: Square) -> i32 {
///     let v = match p.role {
///         Role::King => 0,
///         Role::Advisor | Role::Elephant => 200,
///         Role::Horse => 400,
///         Role::Cannon => 450,
///         Role::Chariot => 900,
///         Role::Pawn if sq.on_side_of(p.color) => 100,
///         Role::Pawn => 200, // across the river
///     };
///     if p.color == Color::Red { v } else { -v }
/// }
///
/// impl Evaluator for PawnsAndMaterial {
///     fn evaluate(&mut self, pos: &Position) -> Score {
///         match pos.side_to_move() {
///             Color::Red => Score(self.red),
///             Color::Black => Score(-self.red),
///         }
///     }
///     fn reset(&mut self, pos: &Position) {
///         self.history.clear();
///         self.red = pos.all_pieces().map(|(sq, p)| value(p, sq)).sum();
///     }
///     fn make_move(&mut self, pos: &Position, m: Move) {
///         self.history.push(self.red);
///         let p = pos.piece_at(m.from()).expect("a piece on the from-square");
///         self.red += value(p, m.to()) - value(p, m.from());
///         if let Some(captured) = pos.piece_at(m.to()) {
///             self.red -= value(captured, m.to());
///         }
///     }
///     fn unmake_move(&mut self, _pos: &Position, _m: Move) {
///         self.red = self.history.pop().expect("make_move came first");
///     }
///     fn make_null(&mut self, _pos: &Position) {
///         self.history.push(self.red);
///     }
///     fn unmake_null(&mut self, _pos: &Position) {
///         self.red = self.history.pop().expect("make_null came first");
///     }
/// }
///
/// // Follow a capture with the hooks and compare with a fresh evaluation.
/// let mut pos = Position::from_fen("4k4/9/9/9/4p4/4P4/9/9/9/3K5 w - - 0 1")?;
/// let mut eval = PawnsAndMaterial::default();
/// eval.reset(&pos);
/// assert_eq!(eval.evaluate(&pos), Score(0));
/// let m = pos.parse_uci("e4e5")?; // the red pawn takes the black one
/// eval.make_move(&pos, m);
/// let undo = pos.make_move(m);
/// let mut fresh = PawnsAndMaterial::default();
/// fresh.reset(&pos);
/// assert_eq!(eval.evaluate(&pos), fresh.evaluate(&pos));
/// assert_eq!(eval.evaluate(&pos), Score(-200)); // black to move, a crossed pawn down
/// pos.unmake_move(m, undo);
/// eval.unmake_move(&pos, m);
/// assert_eq!(eval.evaluate(&pos), Score(0));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub trait Evaluator: Clone + Send + 'static {
    /// The score of `pos` for the side to move.
    fn evaluate(&mut self, pos: &Position) -> Score;

    /// Rebuilds incremental state for `pos` (called before each search, with the root).
    fn reset(&mut self, _pos: &Position) {}

    /// Called just before `m` is made on `pos`.
    fn make_move(&mut self, _pos: &Position, _m: Move) {}

    /// Called just after `m` was taken back; `pos` is again the position before `m`.
    fn unmake_move(&mut self, _pos: &Position, _m: Move) {}

    /// Called just before a null move (passing the turn) is made on `pos`.
    fn make_null(&mut self, _pos: &Position) {}

    /// Called just after a null move was taken back.
    fn unmake_null(&mut self, _pos: &Position) {}

    /// The score of `pos` when it lies strictly inside `(alpha, beta)`; outside, an
    /// evaluator may answer with a cheaper bound that is on the same side of the window as
    /// the full score: a result `<= alpha` is at least the full score (an upper bound), a
    /// result `>= beta` at most the full score (a lower bound). A search can use it for the
    /// stand-pat in quiescence. By default the full [`Evaluator::evaluate`].
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// use xiangqi_eval::{DefaultEvaluator, Evaluator, Score};
    /// let pos = Position::startpos();
    /// let mut eval = DefaultEvaluator::new();
    /// let full = eval.evaluate(&pos);
    /// // Inside the window: the full score.
    /// assert_eq!(eval.evaluate_bounded(&pos, Score(-1000), Score(1000)), full);
    /// // Far outside: a bound, on the right side of it.
    /// let b = eval.evaluate_bounded(&pos, Score(2000), Score(2001));
    /// assert!(full <= b && b <= Score(2000));
    /// ```
    fn evaluate_bounded(&mut self, pos: &Position, _alpha: Score, _beta: Score) -> Score {
        self.evaluate(pos)
    }
}

/// Material only, with the customary values (pawn 100 before the river). Mostly an
/// example and a baseline for matches.
#[derive(Clone, Copy, Debug, Default)]
pub struct Material;

impl Material {
    /// The value of a piece of `role`.
    pub const fn value(role: Role) -> i32 {
        match role {
            Role::King => 0,
            Role::Advisor => 200,
            Role::Elephant => 200,
            Role::Horse => 400,
            Role::Chariot => 900,
            Role::Cannon => 450,
            Role::Pawn => 100,
        }
    }
}

impl Evaluator for Material {
    fn evaluate(&mut self, pos: &Position) -> Score {
        let us = pos.side_to_move();
        let mut s = 0;
        for role in Role::ALL {
            let diff = pos.count(us, role) as i32 - pos.count(us.other(), role) as i32;
            s += diff * Material::value(role);
        }
        Score(s)
    }
}
