//! The lines the engine writes while and after searching, in each protocol's dialect.

use crate::command::Protocol;
use crate::notation::{self, Ranks};
use xiangqi_core::Move;
use xiangqi_eval::Score;
use xiangqi_search::{Info, TB_WIN, TB_WIN_BOUND};

/// UCCI engines print plain numbers; ElephantEye's mate scores are 10000 minus the plies,
/// and a tablebase win (mate in N plies by the table, after the search's line) 9800 minus
/// N, below the mates as ElephantEye's "win" scores are.
pub fn ucci_score(score: Score) -> i32 {
    if score.is_mate() {
        let plies = Score::MATE.0 - score.0.abs();
        score.0.signum() * (10_000 - plies)
    } else if score.0.abs() >= TB_WIN_BOUND.0 {
        let plies = TB_WIN.0 - score.0.abs();
        score.0.signum() * (9_800 - plies)
    } else {
        score.0
    }
}

/// One `info` line for a search iteration (or MultiPV line), moves written with `ranks`.
pub fn info_line(info: &Info, protocol: Protocol, ranks: Ranks) -> String {
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
    if info.tbhits > 0 && protocol == Protocol::Uci {
        line.push_str(&format!(" tbhits {}", info.tbhits));
    }
    if !info.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&notation::write_all(&info.pv, ranks));
    }
    line
}

/// The `bestmove` line; with no move (the side to move is mated or stalemated) UCI says
/// `bestmove (none)` after a `score mate 0` info line, as Pikafish does, and UCCI says
/// `nobestmove`. UCCI's `draw` (accepting a draw offer) is `extra`.
pub fn bestmove_line(
    best: Option<Move>,
    ponder: Option<Move>,
    protocol: Protocol,
    ranks: Ranks,
    extra: Option<&str>,
) -> String {
    match (best, protocol) {
        (Some(b), _) => {
            let mut line = format!("bestmove {}", notation::write(b, ranks));
            if let Some(p) = ponder {
                line.push_str(&format!(" ponder {}", notation::write(p, ranks)));
            }
            if let Some(x) = extra {
                line.push(' ');
                line.push_str(x);
            }
            line
        }
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
            tbhits: 0,
        }
    }

    #[test]
    fn info_lines() {
        assert_eq!(
            info_line(&info(Score(35)), Protocol::Uci, Ranks::FromZero),
            "info depth 3 seldepth 5 multipv 1 score cp 35 nodes 1000 nps 20000 hashfull 4 time 50 pv h2e2"
        );
        assert_eq!(
            info_line(&info(Score::mate_in(3)), Protocol::Ucci, Ranks::FromZero),
            "info depth 3 score 9997 time 50 nodes 1000 nps 20000 pv h2e2"
        );
        assert!(
            info_line(&info(Score::mated_in(2)), Protocol::Uci, Ranks::FromZero)
                .contains("score mate -1")
        );
        assert!(info_line(&info(Score(0)), Protocol::Uci, Ranks::FromOne).ends_with("pv h3e3"));
        let mut tb = info(Score(TB_WIN.0 - 9));
        tb.tbhits = 12;
        assert!(info_line(&tb, Protocol::Uci, Ranks::FromZero).contains(" tbhits 12 pv "));
        assert_eq!(ucci_score(Score(-(TB_WIN.0 - 9))), -9791);
    }
}
