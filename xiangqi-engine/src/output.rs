//! The lines the engine writes while and after searching, in each protocol's dialect.

use crate::command::Protocol;
use xiangqi_core::Move;
use xiangqi_eval::Score;
use xiangqi_search::Info;

/// UCCI engines print plain numbers; ElephantEye's mate scores are 10000 minus the plies.
pub fn ucci_score(score: Score) -> i32 {
    if score.is_mate() {
        let plies = Score::MATE.0 - score.0.abs();
        score.0.signum() * (10_000 - plies)
    } else {
        score.0
    }
}

fn pv_text(pv: &[Move]) -> String {
    pv.iter().map(Move::to_string).collect::<Vec<_>>().join(" ")
}

/// One `info` line for a search iteration (or MultiPV line).
pub fn info_line(info: &Info, protocol: Protocol) -> String {
    let time = info.time.as_millis();
    let mut line = match protocol {
        Protocol::Uci => format!(
            "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {}",
            info.depth,
            info.seldepth,
            info.multipv,
            info.score,
            info.nodes,
            info.nps,
            info.hashfull,
            time
        ),
        Protocol::Ucci => format!(
            "info depth {} score {} time {} nodes {} nps {}",
            info.depth,
            ucci_score(info.score),
            time,
            info.nodes,
            info.nps
        ),
    };
    if !info.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&pv_text(&info.pv));
    }
    line
}

/// The `bestmove` line; with no move (the side to move is mated or stalemated) UCI says
/// `bestmove (none)` after a `score mate 0` info line, as Pikafish does, and UCCI says
/// `nobestmove`.
pub fn bestmove_line(best: Option<Move>, ponder: Option<Move>, protocol: Protocol) -> String {
    match (best, protocol) {
        (Some(b), _) => match ponder {
            Some(p) => format!("bestmove {b} ponder {p}"),
            None => format!("bestmove {b}"),
        },
        (None, Protocol::Uci) => "info depth 0 score mate 0\nbestmove (none)".to_string(),
        (None, Protocol::Ucci) => "nobestmove".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use xiangqi_core::Position;

    fn info(score: Score) -> Info {
        Info {
            depth: 3,
            seldepth: 5,
            multipv: 1,
            score,
            nodes: 1000,
            nps: 20000,
            hashfull: 4,
            time: Duration::from_millis(50),
            pv: vec![Position::startpos().parse_uci("h2e2").unwrap()],
        }
    }

    #[test]
    fn info_lines() {
        assert_eq!(
            info_line(&info(Score(35)), Protocol::Uci),
            "info depth 3 seldepth 5 multipv 1 score cp 35 nodes 1000 nps 20000 hashfull 4 time 50 pv h2e2"
        );
        assert_eq!(
            info_line(&info(Score::mate_in(3)), Protocol::Ucci),
            "info depth 3 score 9997 time 50 nodes 1000 nps 20000 pv h2e2"
        );
        assert!(info_line(&info(Score::mated_in(2)), Protocol::Uci).contains("score mate -1"));
    }
}
