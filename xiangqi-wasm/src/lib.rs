//! Xiangqi (Chinese chess) in WebAssembly: the rules, the three notations, game records and
//! the engine with its embedded net, for browsers and Node.
//!
//! This crate is the Rust half of the npm package `xiangqi-wasm` (built by `build.sh`).
//! The JavaScript half (`js/`) wraps it: `Board` and the record functions come from here
//! as they are; `Engine` runs [`search`] in a Web Worker (or a Node worker thread) so that a
//! page never blocks, and stops a search by ending the worker.
//!
//! Everything that can fail on input throws a `XiangqiError` (the class the JavaScript half
//! registers with [`set_error_class`]) with a `kind` (`fen`, `notation`, `illegal`, `record`,
//! `option`) and the library's own message.
#![deny(missing_docs)]

mod board;
mod engine;
mod error;
mod records;
mod service;
mod view;

pub use board::{move_text, Board};
pub use engine::{levels, new_game, search};
pub use error::set_error_class;
pub use records::{read_records, GameRecord};
pub use service::{service_request, service_search};

use wasm_bindgen::prelude::*;

/// The library's version (the workspace's).
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A move in the three notations. */
export interface Move {
  /** ICCS, `h2e2`. */ iccs: string;
  /** WXF, `C2.5`. */ wxf: string;
  /** Chinese, `炮二平五`. */ chinese: string;
  from: string;
  to: string;
  /** The moving piece as a FEN letter (upper case: red). */ piece: string;
  /** The piece taken, as a FEN letter. */ captured?: string;
}
/** How a game ended. */
export interface Outcome {
  winner: 'red' | 'black' | null;
  reason: 'checkmate' | 'stalemate' | 'perpetual_check' | 'perpetual_chase' | 'perpetual_mate_threat'
    | 'mixed_perpetual' | 'repetition' | 'move_limit' | 'no_attacking_material';
  /** For a perpetual chase: the chased piece's point. */ chased?: string;
  text: string;
}
/** A record file read by `readRecords`. */
export interface RecordFile {
  format: string;
  encoding: string;
  games: GameRecord[];
  warnings: { game: number; message: string }[];
}
/** Centipawns, or moves to mate (negative: mated), for the side to move. */
export interface Score { cp?: number; mate?: number }
/** A search's limits and settings; one second a move when no limit is given. */
export interface SearchOptions {
  movetime?: number; depth?: number; nodes?: number; multipv?: number;
  /** `beginner` ... `full`: see `levels()`. */ level?: string;
  /** Hash table in MB (16 by default). */ hash?: number;
  rules?: 'asian' | 'chinese'; seed?: number;
}
/** A progress report, once per iteration and line. */
export interface Info {
  depth: number; seldepth: number; multipv: number; score: Score; nodes: number; nps: number;
  timeMs: number; hashfull: number; pv: string[]; pvChinese: string[];
}
/** What a search found. */
export interface SearchResult {
  bestMove: Move | null; ponder: string | null; score: Score; pv: string[]; depth: number;
  nodes: number; timeMs: number; stopped?: boolean;
}
"#;
