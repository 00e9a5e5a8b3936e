//! The engine: one searcher with the embedded net, kept between searches (its hash table
//! and histories carry over, as in a game). Searches run to completion on the calling
//! thread: the JavaScript half calls [`search`] inside a worker and stops a search by
//! ending the worker.

use crate::board::{parse_fen, parse_move};
use crate::error::Error;
use crate::view::{rule_set, to_js, MoveView, ScoreView};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use xiangqi_core::{Game, Position};
use xiangqi_nnue::EvalChoice;
use xiangqi_search::{Info, Level, Limits, Searcher};

thread_local! {
    static SEARCHER: RefCell<Option<Searcher<EvalChoice>>> = const { RefCell::new(None) };
}

/// The hash table's size unless `hash` says otherwise: small, since a page shares the
/// browser's memory.
const DEFAULT_HASH_MB: usize = 16;
/// The most a search may ask for.
const MAX_HASH_MB: usize = 1024;
/// The time per move when no limit is given.
const DEFAULT_MOVETIME_MS: u64 = 1000;

/// A search's options, as JavaScript gives them.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchOptions {
    /// Milliseconds for this move.
    pub movetime: Option<u64>,
    /// Depth in plies.
    pub depth: Option<u32>,
    /// Nodes.
    pub nodes: Option<u64>,
    /// Lines to report (1 = the best only).
    pub multipv: Option<usize>,
    /// A strength level by name (`beginner` … `full`).
    pub level: Option<String>,
    /// Hash table size in MB.
    pub hash: Option<usize>,
    /// The rules that judge repetitions in the search: `asian` (default) or `chinese`.
    pub rules: Option<String>,
    /// Seed for the weaker levels' noise.
    pub seed: Option<u64>,
}

/// One progress report.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InfoView {
    depth: u32,
    seldepth: u32,
    multipv: usize,
    score: ScoreView,
    nodes: u64,
    nps: u64,
    time_ms: u64,
    hashfull: u32,
    /// The line in ICCS.
    pv: Vec<String>,
    /// The line in Chinese notation.
    pv_chinese: Vec<String>,
}

/// What the search found.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResultView {
    best_move: Option<MoveView>,
    ponder: Option<String>,
    score: ScoreView,
    pv: Vec<String>,
    depth: u32,
    nodes: u64,
    time_ms: u64,
}

fn chinese_line(pos: &Position, pv: &[xiangqi_core::Move]) -> Vec<String> {
    let mut pos = pos.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &m in pv {
        if !pos.is_legal(m) {
            break;
        }
        out.push(pos.to_chinese(m));
        pos.make_move(m);
    }
    out
}

fn limits_of(options: &SearchOptions) -> Result<(Limits, Option<Level>), Error> {
    let level = match options.level.as_deref() {
        None => None,
        Some(name) => Some(Level::by_name(name).ok_or_else(|| {
            let names: Vec<&str> = Level::all().iter().map(|l| l.name).collect();
            Error::new(
                "option",
                format!("unknown level {name:?}: one of {}", names.join(", ")),
            )
        })?),
    };
    let mut limits = Limits {
        depth: options.depth,
        nodes: options.nodes,
        movetime: options.movetime.map(Duration::from_millis),
        ..Limits::default()
    };
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
        limits.movetime = Some(Duration::from_millis(DEFAULT_MOVETIME_MS));
    }
    if options.depth == Some(0) || options.nodes == Some(0) {
        return Err(Error::new("option", "depth and nodes must be at least 1"));
    }
    Ok((limits, level))
}

/// Calls `f` with the engine (made on first use), its hash table resized to `hash_mb`
/// when given.
pub fn with_searcher<R>(
    hash_mb: Option<usize>,
    f: impl FnOnce(&mut Searcher<EvalChoice>) -> R,
) -> R {
    SEARCHER.with(|cell| {
        let mut slot = cell.borrow_mut();
        let searcher = slot.get_or_insert_with(|| {
            let mut s = Searcher::with_evaluator(EvalChoice::default());
            s.set_hash_size(DEFAULT_HASH_MB);
            s
        });
        if let Some(mb) = hash_mb {
            if searcher.hash_size() != mb {
                searcher.set_hash_size(mb);
            }
        }
        f(searcher)
    })
}

/// Builds the game of a search request.
pub fn game_of(fen: Option<&str>, moves: &[String]) -> Result<Game, Error> {
    let mut game = Game::new(parse_fen(fen)?);
    for (i, text) in moves.iter().enumerate() {
        let m = parse_move(game.position(), text).map_err(|e| e.at(i))?;
        game.play(m)
            .map_err(|e| Error::new("illegal", e.to_string()).at(i))?;
    }
    Ok(game)
}

/// Searches the position after `moves` from `fen` (`startpos` or empty: the start) with
/// `options` (`{ movetime, depth, nodes, multipv, level, hash, rules, seed }`; one second a
/// move when no limit is given), calling `onInfo` with each iteration's report (one per
/// line with MultiPV). Blocks until done: call it in a worker (the package's `Engine` does).
#[wasm_bindgen(unchecked_return_type = "SearchResult")]
pub fn search(
    fen: Option<String>,
    moves: Vec<String>,
    #[wasm_bindgen(unchecked_param_type = "SearchOptions | undefined")] options: JsValue,
    #[wasm_bindgen(js_name = onInfo)] on_info: Option<js_sys::Function>,
) -> Result<JsValue, JsValue> {
    let options: SearchOptions = if options.is_undefined() || options.is_null() {
        SearchOptions::default()
    } else {
        serde_wasm_bindgen::from_value(options)
            .map_err(|e| Error::new("option", format!("search options: {e}")))?
    };
    let game = game_of(fen.as_deref(), &moves)?;
    let (limits, level) = limits_of(&options)?;
    let rules = rule_set(options.rules.clone())?;
    let hash = options.hash.unwrap_or(DEFAULT_HASH_MB);
    if hash == 0 || hash > MAX_HASH_MB {
        return Err(Error::new("option", format!("hash {hash} MB: 1 to {MAX_HASH_MB}")).into());
    }
    let root = game.position().clone();
    let result = with_searcher(Some(hash), |searcher| {
        searcher.set_threads(1);
        searcher.set_multipv(options.multipv.unwrap_or(1).clamp(1, 64));
        searcher.set_level(level);
        searcher.set_rules(rules);
        if let Some(seed) = options.seed {
            searcher.set_seed(seed);
        }
        let mut observer = |info: &Info| {
            if let Some(f) = &on_info {
                let view = InfoView {
                    depth: info.depth,
                    seldepth: info.seldepth,
                    multipv: info.multipv,
                    score: info.score.into(),
                    nodes: info.nodes,
                    nps: info.nps,
                    time_ms: info.time.as_millis() as u64,
                    hashfull: info.hashfull,
                    pv: info.pv.iter().map(|m| m.to_string()).collect(),
                    pv_chinese: chinese_line(&root, &info.pv),
                };
                // A callback that throws must not end the search half-way.
                let _ = f.call1(&JsValue::NULL, &to_js(&view));
            }
        };
        let start = web_time::Instant::now();
        let r = searcher.search(&game, &limits, &mut observer);
        (r, start.elapsed())
    });
    let (r, took) = result;
    Ok(to_js(&ResultView {
        best_move: r.best_move.map(|m| MoveView::new(&root, m)),
        ponder: r.ponder_move.map(|m| m.to_string()),
        score: r.score.into(),
        pv: r.pv.iter().map(|m| m.to_string()).collect(),
        depth: r.depth,
        nodes: r.nodes,
        time_ms: took.as_millis() as u64,
    }))
}

/// Forgets what earlier searches learnt (the hash table and histories): call it between
/// unrelated games.
#[wasm_bindgen(js_name = newGame)]
pub fn new_game() {
    SEARCHER.with(|cell| {
        if let Some(s) = cell.borrow_mut().as_mut() {
            s.new_game();
        }
    });
}

/// The strength levels, weakest first: `{ name, description }`.
#[wasm_bindgen(unchecked_return_type = "{ name: string; description: string }[]")]
pub fn levels() -> JsValue {
    #[derive(Serialize)]
    struct L {
        name: &'static str,
        description: &'static str,
    }
    let all: Vec<L> = Level::all()
        .iter()
        .map(|l| L {
            name: l.name,
            description: l.description,
        })
        .collect();
    to_js(&all)
}
