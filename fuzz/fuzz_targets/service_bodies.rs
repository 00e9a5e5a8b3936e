//! The web service's request bodies through its handlers, without a socket (the same code
//! the server and the static page run): any bytes as JSON for each request, and as a record
//! upload; an error that names the problem, or an answer, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use xiangqi_service::search::{Kind, SearchRequest};
use xiangqi_service::{answers, game::GameInput, json, records, RequestLimits};

fuzz_target!(|data: &[u8]| {
    let Some((&which, body)) = data.split_first() else {
        return;
    };
    let limits = RequestLimits::default();
    match which % 5 {
        0 => {
            if let Ok(input) = json::parse::<GameInput>(body) {
                let _ = answers::position(&input, &limits);
            }
        }
        1 => {
            if let Ok(req) = json::parse::<answers::NotationRequest>(body) {
                let _ = answers::notation(&req, &limits);
            }
        }
        2 => {
            if let Ok(req) = json::parse::<answers::PgnRequest>(body) {
                let _ = answers::pgn(&req, &limits);
            }
        }
        3 => {
            if let Ok(req) = json::parse::<SearchRequest>(body) {
                let _ = req.prepare(&limits, Kind::Move);
                let _ = req.prepare(&limits, Kind::Analysis);
            }
        }
        _ => {
            let _ = records::read(body);
        }
    }
});
