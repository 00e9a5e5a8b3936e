//! The UCCI front end (the Universal Chinese Chess Protocol 3.0, as ElephantEye speaks it):
//! the parts that differ from UCI. The session and the shared command syntax are
//! [`crate::uci`]'s.
//!
//! - `ucci`: `id name/copyright/author/user`, the options in UCCI form, `ucciok`.
//! - `go time T increment I opptime T oppincrement I movestogo N`, in seconds unless
//!   `usemillisec` is on; `go draw` (the opponent offers a draw) is answered `bestmove M draw`
//!   when the engine does not expect to win.
//! - `banmoves`: moves the next search must not play.
//! - `probe`: `pophash [bestmove M] [lowerbound V depth D] [upperbound V depth D]`, read from
//!   the hash table (also while a search runs); an empty `pophash` when it knows nothing.
//! - `quit` is answered `bye`; no legal move is `nobestmove`.

use crate::command::{GoParams, PositionSpec, Protocol};
use crate::core::{AUTHOR, NAME};
use crate::notation;
use crate::output;
use crate::session::Session;
use xiangqi_core::Move;
use xiangqi_eval::Score;
use xiangqi_search::{Bound, Clock};

/// Centipawns below which an offered draw is welcome (the engine does not expect to win).
const DRAW_ACCEPT_BELOW: i32 = 50;

/// `ucci`: switch to UCCI and identify.
pub(crate) fn handshake(s: &mut Session) {
    s.protocol = Protocol::Ucci;
    s.core.say(&format!("id name {NAME}"));
    s.core.say("id copyright MIT OR Apache-2.0");
    s.core.say(&format!("id author {AUTHOR}"));
    s.core.say("id user unknown");
    for l in s.core.options.lines(Protocol::Ucci) {
        s.core.say(&l);
    }
    s.core.say("ucciok");
}

/// Whether to accept a draw offer when the search scores the position `score`.
pub(crate) fn accepts_draw(score: Score) -> bool {
    score.0 < DRAW_ACCEPT_BELOW
}

/// `banmoves m...`: replaces the banned list (it lasts until the next search or position).
pub(crate) fn ban_moves(s: &mut Session, moves: &[String]) {
    s.banned.clear();
    for text in moves {
        match s.parse_move(s.game.position(), text) {
            Ok(m) => s.banned.push(m),
            Err(e) => s.info(&format!("banmoves: {text:?}: {e}; ignored")),
        }
    }
}

/// The root moves left when the banned ones are taken out of `allowed` (all legal moves
/// when empty); the ban is dropped, with a message, when it would leave none.
pub(crate) fn without_banned(s: &Session, allowed: Vec<Move>) -> Vec<Move> {
    let allowed: Vec<Move> = if allowed.is_empty() {
        s.game.position().legal_moves().iter().copied().collect()
    } else {
        allowed
    };
    let kept: Vec<Move> = allowed
        .iter()
        .copied()
        .filter(|m| !s.banned.contains(m))
        .collect();
    if kept.is_empty() {
        s.info("banmoves: every move is banned; the ban is ignored");
        allowed
    } else {
        kept
    }
}

/// The clock of `go time ... increment ... movestogo ...` (UCCI gives the side to move's
/// own figures; `opptime`/`oppincrement` are the opponent's and do not change the plan).
pub(crate) fn clock(s: &Session, go: &GoParams) -> Option<Clock> {
    let unit = if s.core.options.use_millisec { 1 } else { 1000 };
    go.time.map(|t| {
        s.core.clock(
            t.saturating_mul(unit),
            go.increment.unwrap_or(0).saturating_mul(unit),
            go.movestogo,
        )
    })
}

/// `probe`: what the hash table knows of the position.
pub(crate) fn probe(s: &Session, spec: &PositionSpec) {
    let Some(game) = s.build_game(spec, "probe") else {
        s.core.say("pophash");
        return;
    };
    let line = match s.core.probe(game.position()) {
        None => "pophash".to_string(),
        Some(p) => {
            let mut line = "pophash".to_string();
            if let Some(m) = p.best_move {
                line.push_str(&format!(" bestmove {}", notation::write(m, s.ranks)));
            }
            let v = output::ucci_score(p.score);
            let d = p.depth.max(0);
            if matches!(p.bound, Bound::Lower | Bound::Exact) {
                line.push_str(&format!(" lowerbound {v} depth {d}"));
            }
            if matches!(p.bound, Bound::Upper | Bound::Exact) {
                line.push_str(&format!(" upperbound {v} depth {d}"));
            }
            line
        }
    };
    s.core.say(&line);
}
