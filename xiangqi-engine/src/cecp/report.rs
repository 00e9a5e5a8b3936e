//! The search thread's side of CECP: thinking output, the engine's move played on the game
//! and written as `move ...`, and the claim of a result when the game is over.

use crate::core::Sink;
use crate::worker::{Finished, Report};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use xiangqi_core::{
    Color, Game, GameEndReason, GameOutcome, Move, RepetitionVerdict, RuleSet, Violation,
};
use xiangqi_eval::Score;
use xiangqi_search::Info;

/// Wakes the input loop when a search has ended (so that pondering can start). Here, with
/// the search thread's side that calls it, so that this file needs nothing from the front
/// end above it.
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// What a search's end is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Mode {
    /// Nothing: the search was cancelled (or analysis ended).
    Discard = 0,
    /// Play the move.
    Play = 1,
    /// Pondering on the opponent's time: becomes `Play` on a ponder hit.
    Ponder = 2,
    /// Analysis: thinking output only.
    Analyze = 3,
}

impl Mode {
    pub(crate) fn from_u8(v: u8) -> Mode {
        match v {
            1 => Mode::Play,
            2 => Mode::Ponder,
            3 => Mode::Analyze,
            _ => Mode::Discard,
        }
    }
}

/// State the input thread and the search thread share.
pub(crate) struct Shared {
    game: Mutex<Game>,
    post: AtomicBool,
    /// A result has been claimed for the current game.
    over: AtomicBool,
    /// The reply the last search expects to the engine's move.
    expected: Mutex<Option<Move>>,
    /// The last thinking output, for `.` in analysis.
    last: Mutex<Option<Info>>,
    wake: Waker,
}

fn locked<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // The data stay usable if a thread panicked while holding the lock.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    pub(crate) fn new(game: Game, wake: Waker) -> Shared {
        Shared {
            game: Mutex::new(game),
            post: AtomicBool::new(false),
            over: AtomicBool::new(false),
            expected: Mutex::new(None),
            last: Mutex::new(None),
            wake,
        }
    }

    pub(crate) fn game(&self) -> MutexGuard<'_, Game> {
        locked(&self.game)
    }

    pub(crate) fn set_post(&self, on: bool) {
        self.post.store(on, Ordering::SeqCst);
    }

    pub(crate) fn is_over(&self) -> bool {
        self.over.load(Ordering::SeqCst)
    }

    /// The game was set up anew (`new`, `setboard`, `undo`): no result stands.
    pub(crate) fn reopen(&self) {
        self.over.store(false, Ordering::SeqCst);
        *locked(&self.expected) = None;
        *locked(&self.last) = None;
    }

    pub(crate) fn take_expected(&self) -> Option<Move> {
        locked(&self.expected).take()
    }

    /// `stat01: time nodes depth moves-left total-moves` from the last thinking output.
    pub(crate) fn status_line(&self) -> Option<String> {
        let last = locked(&self.last);
        let i = last.as_ref()?;
        let total = self.game().position().legal_moves().len();
        Some(format!(
            "stat01: {} {} {} {} {}",
            i.time.as_millis() / 10,
            i.nodes,
            i.depth,
            0,
            total
        ))
    }

    /// Writes the claim of `outcome` (`1-0 {...}`, `0-1 {...}`, `1/2-1/2 {...}`).
    ///
    /// A loss by perpetual chase (or, under Chinese rules, by mate threats) is not claimed,
    /// only noted: XBoard checks claims (`-testClaims`) and judges chases by its own reading
    /// of the rules, and a claim it does not share forfeits the game. The engine plays on;
    /// XBoard ends the game as it sees it. Returns whether the game is over (claimed now or
    /// before).
    pub(crate) fn claim(&self, outcome: &GameOutcome, out: &dyn Fn(&str)) -> bool {
        if let GameEndReason::Repetition(RepetitionVerdict::Loss { violation, .. }) =
            &outcome.reason
        {
            if *violation != Violation::PerpetualCheck {
                out(&format!(
                    "# {outcome}; not claimed: chases are left to the GUI"
                ));
                return false;
            }
        }
        if !self.over.swap(true, Ordering::SeqCst) {
            out(&result_line(outcome));
        }
        true
    }

    /// Plays `m` for the engine, writes it, and claims the result if the game ended.
    /// Holds the game's lock throughout, so the input thread sees the move played as soon
    /// as the GUI can have read it.
    fn play_and_claim(&self, m: Move, rules: RuleSet, out: &dyn Fn(&str)) {
        let mut game = self.game();
        if game.play(m).is_err() {
            out(&format!(
                "# the search's move {m} is not legal here; not played"
            ));
            return;
        }
        out(&format!("move {m}"));
        if let Some(o) = game.outcome(rules) {
            let _ = self.claim(&o, out);
        }
    }

    /// A move from the opening book: played at once.
    pub(crate) fn play_book_move(&self, m: Move, rules: RuleSet, out: &dyn Fn(&str)) {
        self.play_and_claim(m, rules, out);
        (self.wake)();
    }
}

/// The result line CECP expects for `outcome`.
pub(crate) fn result_line(outcome: &GameOutcome) -> String {
    let score = match outcome.winner {
        Some(Color::Red) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    };
    format!("{score} {{{outcome}}}")
}

/// The score as CECP writes it: centipawns, or 100000 + N for mate in N moves.
pub(crate) fn cecp_score(score: Score) -> i64 {
    match score.mate_moves() {
        Some(n) if n > 0 => 100_000 + n as i64,
        Some(n) => -100_000 + n as i64,
        None => score.0 as i64,
    }
}

/// Writes one search in CECP form.
pub(crate) struct CecpReport {
    out: Sink,
    shared: Arc<Shared>,
    mode: Arc<AtomicU8>,
    rules: RuleSet,
}

impl CecpReport {
    pub(crate) fn new(
        out: Sink,
        shared: Arc<Shared>,
        mode: Arc<AtomicU8>,
        rules: RuleSet,
    ) -> CecpReport {
        CecpReport {
            out,
            shared,
            mode,
            rules,
        }
    }

    fn mode(&self) -> Mode {
        Mode::from_u8(self.mode.load(Ordering::SeqCst))
    }
}

impl Report for CecpReport {
    fn info(&mut self, info: &Info) {
        let mode = self.mode();
        if mode == Mode::Discard || info.multipv != 1 {
            return;
        }
        *locked(&self.shared.last) = Some(info.clone());
        if !self.shared.post.load(Ordering::SeqCst) && mode != Mode::Analyze {
            return;
        }
        let pv = info
            .pv
            .iter()
            .map(Move::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        (self.out)(&format!(
            "{} {} {} {} {} {} 0\t{pv}",
            info.depth,
            cecp_score(info.score),
            info.time.as_millis() / 10,
            info.nodes,
            info.seldepth,
            info.nps
        ));
    }

    fn finished(&mut self, end: &Finished) {
        if self.mode() != Mode::Play {
            return;
        }
        match end.best {
            Some(m) => {
                self.shared.play_and_claim(m, self.rules, &*self.out);
                *locked(&self.shared.expected) = end.ponder;
            }
            None => {
                // No legal move: the game is over, and the engine lost it.
                let outcome = self.shared.game().outcome(self.rules);
                if let Some(o) = outcome {
                    let _ = self.shared.claim(&o, &*self.out);
                }
            }
        }
        (self.shared.wake)();
    }

    fn note(&mut self, text: &str) {
        (self.out)(&format!("# {text}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_results() {
        assert_eq!(cecp_score(Score(37)), 37);
        assert_eq!(cecp_score(Score::mate_in(3)), 100_002);
        assert_eq!(cecp_score(Score::mated_in(4)), -100_002);
        let o = GameOutcome {
            winner: Some(Color::Black),
            reason: GameEndReason::Checkmate,
        };
        assert_eq!(result_line(&o), "0-1 {black wins by checkmate}");
        let shared = Shared::new(Game::default(), Arc::new(|| {}));
        let said = Mutex::new(Vec::<String>::new());
        let out = |l: &str| said.lock().unwrap().push(l.to_string());
        let loss = |violation| GameOutcome {
            winner: Some(Color::Red),
            reason: GameEndReason::Repetition(RepetitionVerdict::Loss {
                loser: Color::Black,
                violation,
                moves: Default::default(),
                target: None,
            }),
        };
        // A chase is noted, not claimed; a perpetual check is claimed, once.
        assert!(!shared.claim(&loss(Violation::PerpetualChase), &out));
        assert!(!shared.is_over());
        assert!(shared.claim(&loss(Violation::PerpetualCheck), &out));
        assert!(shared.claim(&loss(Violation::PerpetualCheck), &out));
        let said = said.lock().unwrap();
        assert_eq!(said.len(), 2, "{said:?}");
        assert!(
            said[0].starts_with("# ") && said[1].starts_with("1-0 {"),
            "{said:?}"
        );
    }
}
