//! Tournament rules beyond the board: repetitions (perpetual check and chase), the
//! 60-move rule and draws for lack of attacking material.
//!
//! Two rule sets are supported where they differ ([`RuleSet`]): the Asian rules (AXF/WXF,
//! the default) and the Chinese rules (CXA 1999). Both forbid a one-sided perpetual check
//! and a one-sided perpetual chase (长捉) of the same piece. The Chinese rules also forbid
//! perpetual mate threats (长杀) and any mix of checks, chases and mate threats (一将一捉,
//! 一将一杀, 一杀一捉); the Asian rules allow those (they are draws when repeated).

mod chase;

use crate::{Color, Move, Position, Square};
use core::fmt;
use smallvec::SmallVec;

pub(crate) use chase::Ids;

/// Which rule book judges repetitions.
///
/// The default is [`RuleSet::Asian`]: the AXF/WXF rules that international events and most
/// engines (Pikafish, Fairy-Stockfish) follow.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// The Asian Xiangqi Federation / World Xiangqi Federation rules (亚洲规则): perpetual
    /// check and perpetual chase of one piece lose; everything else that repeats is a draw.
    #[default]
    Asian,
    /// The Chinese Xiangqi Association rules of 1999 (中国象棋竞赛规则): besides perpetual
    /// check and chase, perpetual mate threats and mixes of check, chase and mate threat lose
    /// when the other side's moves are allowed ones.
    Chinese,
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RuleSet::Asian => "Asian (AXF/WXF) rules",
            RuleSet::Chinese => "Chinese (CXA 1999) rules",
        })
    }
}

/// A forbidden way of repeating moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Violation {
    /// Every move of the side gave check (长将).
    PerpetualCheck,
    /// Every move of the side chased the same unprotected piece (长捉).
    PerpetualChase,
    /// Every move of the side threatened mate next move (长杀; Chinese rules only).
    PerpetualMateThreat,
    /// Every move of the side was a check, a chase or a mate threat, mixed (一将一捉 and the
    /// like; Chinese rules only).
    Mixed,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Violation::PerpetualCheck => "perpetual check",
            Violation::PerpetualChase => "perpetual chase",
            Violation::PerpetualMateThreat => "perpetual mate threat",
            Violation::Mixed => "perpetual check, chase and mate threat mixed",
        })
    }
}

/// Why a repetition is a draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// Neither side broke a rule (idle moves, or moves the rules allow).
    Allowed,
    /// Both sides broke the rules (for example both check perpetually, or both chase).
    BothForbidden,
}

/// The judgement of a repeated sequence of moves, as [`judge_repetition`] gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RepetitionVerdict {
    /// The repetition is a draw.
    Draw {
        /// Why.
        reason: DrawReason,
    },
    /// One side broke the repetition rules and loses.
    Loss {
        /// The side that loses.
        loser: Color,
        /// The rule it broke.
        violation: Violation,
        /// The loser's moves in the cycle (each a check, chase or threat).
        moves: SmallVec<[Move; 8]>,
        /// For a chase: the chased piece, by its square at the start of the cycle.
        target: Option<Square>,
    },
}

impl RepetitionVerdict {
    /// The side that loses, or `None` for a draw.
    pub fn loser(&self) -> Option<Color> {
        match self {
            RepetitionVerdict::Draw { .. } => None,
            RepetitionVerdict::Loss { loser, .. } => Some(*loser),
        }
    }

    /// Is it a draw?
    pub fn is_draw(&self) -> bool {
        matches!(self, RepetitionVerdict::Draw { .. })
    }
}

impl fmt::Display for RepetitionVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RepetitionVerdict::Draw {
                reason: DrawReason::Allowed,
            } => f.write_str("draw by repetition (no side broke the rules)"),
            RepetitionVerdict::Draw {
                reason: DrawReason::BothForbidden,
            } => f.write_str("draw by repetition (both sides broke the rules)"),
            RepetitionVerdict::Loss {
                loser,
                violation,
                moves,
                target,
            } => {
                write!(f, "{loser} loses by {violation}")?;
                if let Some(t) = target {
                    write!(f, " of the piece on {t}")?;
                }
                f.write_str(" (moves")?;
                for m in moves {
                    write!(f, " {m}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// What one side did in the cycle.
#[derive(Clone, Default)]
struct Conduct {
    /// Number of moves the side made.
    moves: u32,
    /// Number of those that gave check.
    checks: u32,
    /// Moves that threatened mate without check (computed under the Chinese rules only).
    threats: u32,
    /// Moves that neither checked nor threatened mate (those must all chase).
    others: u32,
    /// Pieces newly chased by every one of the `others` moves (bit per piece id).
    chase: u32,
    /// The side's moves, in order.
    list: SmallVec<[Move; 8]>,
}

impl Conduct {
    fn new() -> Conduct {
        Conduct {
            chase: u32::MAX,
            ..Conduct::default()
        }
    }

    fn perpetual_check(&self) -> bool {
        self.moves > 0 && self.checks == self.moves
    }

    /// Asian rules: every move chases the same piece (a check in between breaks the chase).
    fn perpetual_chase(&self) -> bool {
        self.moves > 0 && self.checks == 0 && self.threats == 0 && self.chase != 0
    }

    /// The Chinese rules' forbidden conduct, other than pure perpetual check.
    fn chinese_violation(&self) -> Option<Violation> {
        if self.moves == 0 || self.perpetual_check() {
            return None;
        }
        let chases = self.others > 0 && self.chase != 0;
        if self.others > 0 && !chases {
            return None;
        }
        Some(if self.checks == 0 && self.threats == 0 {
            Violation::PerpetualChase
        } else if self.checks == 0 && self.others == 0 {
            Violation::PerpetualMateThreat
        } else {
            Violation::Mixed
        })
    }
}

/// Judges a repetition: `start` is the position at its first occurrence and playing `cycle`
/// (legal moves, no captures) from it returns to the same position, once or several times.
///
/// The verdict says which side, if any, loses and why: a side that checks with every move
/// while the other does not loses (perpetual check); otherwise a side that chases the same
/// piece with every move while the other does not loses (perpetual chase); under
/// [`RuleSet::Chinese`] perpetual mate threats and mixes of check, chase and threat are
/// forbidden too. Everything else is a draw.
///
/// No heap allocation for cycles of up to 16 plies. Moves that are not legal end the replay
/// early (what was played so far is judged).
///
/// ```
/// use xiangqi_core::{judge_repetition, Color, Position, RuleSet, Violation};
/// // Red's chariot checks from a9 and a8 while the black general steps between d9 and d8.
/// let start = Position::from_fen("R2k5/9/9/9/9/9/9/9/9/5K3 b - - 1 1")?;
/// let mut pos = start.clone();
/// let mut cycle = Vec::new();
/// for text in ["d9d8", "a9a8", "d8d9", "a8a9"] {
///     let m = pos.parse_uci(text)?;
///     pos.play(m)?;
///     cycle.push(m);
/// }
/// let verdict = judge_repetition(&start, &cycle, RuleSet::Asian);
/// assert_eq!(verdict.loser(), Some(Color::Red));
/// assert!(verdict.to_string().starts_with("red loses by perpetual check"));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn judge_repetition(start: &Position, cycle: &[Move], rules: RuleSet) -> RepetitionVerdict {
    let mut conduct = [Conduct::new(), Conduct::new()];
    // A cheap first pass for checks: perpetual check decides alone, and under the Asian
    // rules a side that checks at all cannot be chasing perpetually.
    let mut pos = start.clone();
    let mut checks = [(0u32, 0u32); 2];
    for &m in cycle {
        if !pos.is_legal(m) {
            break;
        }
        let us = pos.side_to_move().index();
        pos.make_move(m);
        checks[us].0 += 1;
        checks[us].1 += u32::from(pos.is_check());
    }
    let all_checks = |(moves, checks): (u32, u32)| moves > 0 && moves == checks;
    if all_checks(checks[0]) || all_checks(checks[1]) {
        for (c, &(moves, n)) in conduct.iter_mut().zip(checks.iter()) {
            c.moves = moves;
            c.checks = n;
        }
        let mut pos = start.clone();
        for &m in cycle {
            if !pos.is_legal(m) {
                break;
            }
            conduct[pos.side_to_move().index()].list.push(m);
            pos.make_move(m);
        }
        return verdict(&conduct, start, rules);
    }
    if rules == RuleSet::Asian {
        for (c, &(_, n)) in conduct.iter_mut().zip(checks.iter()) {
            if n > 0 {
                c.chase = 0;
            }
        }
    }
    let mut pos = start.clone();
    let mut ids = Ids::new(start);
    for &m in cycle {
        if !pos.is_legal(m) {
            break;
        }
        let us = pos.side_to_move();
        let them = us.other();
        let c = &mut conduct[us.index()];
        let tracking = c.chase != 0;
        let before = if !tracking {
            Before::Untracked
        } else if pos.is_check() {
            Before::Evasion(chase::pseudo_attacks(&pos, &ids, us))
        } else {
            Before::Normal(
                chase::attack_pairs(&mut pos, &ids, us),
                chase::attack_pairs(&mut pos, &ids, them).chased(),
            )
        };
        pos.make_move(m);
        ids.make_move(m);
        c.moves += 1;
        c.list.push(m);
        if pos.is_check() {
            c.checks += 1;
        } else if rules == RuleSet::Chinese && chase::threatens_mate(&mut pos, us) {
            c.threats += 1;
        } else {
            c.others += 1;
            c.chase &= new_chases(&mut pos, &ids, us, &before);
        }
    }
    verdict(&conduct, start, rules)
}

/// What the judge knew of the mover's attacks before its move.
enum Before {
    /// The side's chase is already broken: nothing to compare.
    Untracked,
    /// The mover was not in check: its attack pairs, and the pieces of its own that the
    /// opponent chased.
    Normal(chase::Pairs, u32),
    /// The mover was in check (the move answers it): the attacks on the board by the
    /// movement rules alone, since the check made most captures illegal for the moment.
    Evasion([u32; 32]),
}

/// The pieces that the move just made by `us` newly chases.
///
/// A chase is new when the attack itself is new (the moved piece attacks, or its move
/// uncovered another attacker), or when an existing attack became a chase because the
/// move took away the target's protection, unless the move was an escape: it ended a
/// chase against one of `us`'s own pieces (a defensive move that happens to unprotect
/// a piece is no chase; WXF rulings D39-41, D61).
///
/// A move that answers a check creates only attacks that were not on the board before
/// it: an attack that the check merely suspended (the capture was illegal while the
/// general stood in check) is not made by the answer, so it chases nothing new (CXA 1999
/// art. 29.2: the chase must arise from the move just made). Fairy-Stockfish rules the
/// same; see docs/REPETITION.md, class E1.
fn new_chases(pos: &mut Position, ids: &Ids, us: Color, before: &Before) -> u32 {
    match before {
        Before::Untracked => 0,
        Before::Normal(pairs, threatened_before) => {
            let after = chase::attack_pairs(pos, ids, us);
            let mut new = after.new_attack_victims(pairs);
            let threatened_after = chase::attack_pairs(pos, ids, us.other()).chased();
            let escaped = threatened_before & !threatened_after != 0;
            if !escaped {
                new |= after.chased() & !pairs.chased();
            }
            new
        }
        Before::Evasion(on_board) => {
            let after = chase::attack_pairs(pos, ids, us);
            after
                .chases
                .iter()
                .zip(on_board.iter())
                .fold(0, |acc, (now, then)| acc | (now & !then))
        }
    }
}

fn verdict(conduct: &[Conduct; 2], start: &Position, rules: RuleSet) -> RepetitionVerdict {
    let loss = |color: Color, violation: Violation| {
        let c = &conduct[color.index()];
        let target =
            if matches!(violation, Violation::PerpetualChase | Violation::Mixed) && c.others > 0 {
                target_square(c.chase, start)
            } else {
                None
            };
        RepetitionVerdict::Loss {
            loser: color,
            violation,
            moves: c.list.clone(),
            target,
        }
    };
    let [red, black] = conduct;
    match (red.perpetual_check(), black.perpetual_check()) {
        (true, false) => return loss(Color::Red, Violation::PerpetualCheck),
        (false, true) => return loss(Color::Black, Violation::PerpetualCheck),
        (true, true) => {
            return RepetitionVerdict::Draw {
                reason: DrawReason::BothForbidden,
            }
        }
        (false, false) => {}
    }
    let (r, b) = match rules {
        RuleSet::Asian => (
            red.perpetual_chase().then_some(Violation::PerpetualChase),
            black.perpetual_chase().then_some(Violation::PerpetualChase),
        ),
        RuleSet::Chinese => (red.chinese_violation(), black.chinese_violation()),
    };
    match (r, b) {
        (Some(v), None) => loss(Color::Red, v),
        (None, Some(v)) => loss(Color::Black, v),
        (Some(_), Some(_)) => RepetitionVerdict::Draw {
            reason: DrawReason::BothForbidden,
        },
        (None, None) => RepetitionVerdict::Draw {
            reason: DrawReason::Allowed,
        },
    }
}

/// Where the lowest-numbered chased piece stood at the start of the cycle.
fn target_square(set: u32, start: &Position) -> Option<Square> {
    if set == 0 || set == u32::MAX {
        return None;
    }
    let id = set.trailing_zeros() as u8;
    Ids::new(start).square_of(id)
}
