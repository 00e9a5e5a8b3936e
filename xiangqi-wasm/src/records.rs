//! Game records: every format `xiangqi-records` reads (PGN, XQF, DhtmlXQ/UBB, CBF, CBR,
//! CBL, plain move lists), written back as PGN, XQF, DhtmlXQ or CBF.

use crate::board::Board;
use crate::error::Error;
use crate::view::{to_js, MoveView};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use xiangqi_records::pgn::{MoveFormat, WriteOptions};
use xiangqi_records::{Format, Record};

/// One game of a record file: its tags, start position, moves (the main line; the tree with
/// side lines and comments is kept for writing) and result.
#[wasm_bindgen]
#[derive(Clone, Debug)]
pub struct GameRecord {
    record: Record,
}

/// What was skipped or repaired while reading.
#[derive(Serialize)]
struct WarningView {
    game: usize,
    message: String,
}

/// The games of a file and the warnings.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Summary {
    format: &'static str,
    encoding: &'static str,
    warnings: Vec<WarningView>,
}

/// Reads a record file (bytes, or text already decoded) in any format the library reads;
/// the format is detected. Returns `{ format, encoding, games, warnings }`; throws a
/// `XiangqiError` of kind `record` when nothing in it can be read.
#[wasm_bindgen(js_name = readRecords, unchecked_return_type = "RecordFile")]
pub fn read_records(data: &[u8]) -> Result<JsValue, JsValue> {
    let loaded = xiangqi_records::read(data).map_err(|e| Error::new("record", e.to_string()))?;
    let summary = Summary {
        format: loaded.format.name(),
        encoding: loaded.encoding,
        warnings: loaded
            .warnings
            .iter()
            .map(|w| WarningView {
                game: w.place.game,
                message: w.to_string(),
            })
            .collect(),
    };
    let out = to_js(&summary);
    let games = js_sys::Array::new();
    for record in loaded.records {
        games.push(&JsValue::from(GameRecord { record }));
    }
    js_sys::Reflect::set(&out, &"games".into(), &games)?;
    Ok(out)
}

fn format_named(name: &str) -> Result<Format, Error> {
    match name.to_ascii_lowercase().as_str() {
        "pgn" => Ok(Format::Pgn),
        "xqf" => Ok(Format::Xqf),
        "ubb" | "dhtmlxq" => Ok(Format::Ubb),
        "cbf" => Ok(Format::Cbf),
        other => Err(Error::new(
            "option",
            format!("cannot write {other:?}: pgn, xqf, dhtmlxq (ubb) or cbf"),
        )),
    }
}

#[wasm_bindgen]
impl GameRecord {
    /// A record of a board's game (its start position and moves), with no tags.
    #[wasm_bindgen(js_name = fromBoard)]
    pub fn from_board(board: &Board) -> GameRecord {
        let game = board.game();
        let mut tree = xiangqi_records::GameTree::new(game.start_position().clone());
        let mut at = tree.root();
        for &m in game.moves() {
            // A game's moves are legal, so this never stops early.
            match tree.add_move(at, m) {
                Ok(next) => at = next,
                Err(_) => break,
            }
        }
        GameRecord {
            record: Record::new(tree),
        }
    }

    /// The tags as `[name, value]` pairs in file order.
    #[wasm_bindgen(unchecked_return_type = "[string, string][]")]
    pub fn tags(&self) -> JsValue {
        to_js(&self.record.tags)
    }

    /// The value of tag `name` (case-insensitive), or `undefined`.
    pub fn tag(&self, name: &str) -> Option<String> {
        self.record.tag(name).map(str::to_string)
    }

    /// Sets tag `name`.
    #[wasm_bindgen(js_name = setTag)]
    pub fn set_tag(&mut self, name: &str, value: &str) {
        self.record.set_tag(name, value);
    }

    /// The result: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn result(&self) -> String {
        self.record.result.as_str().to_string()
    }

    /// The start position as FEN.
    #[wasm_bindgen(js_name = startFen)]
    pub fn start_fen(&self) -> String {
        self.record.tree.start().fen()
    }

    /// The main line's moves, each in the three notations.
    #[wasm_bindgen(unchecked_return_type = "Move[]")]
    pub fn moves(&self) -> JsValue {
        let game = self.record.main_game();
        let views: Vec<MoveView> = game
            .positions()
            .iter()
            .zip(game.moves())
            .map(|(p, &m)| MoveView::new(p, m))
            .collect();
        to_js(&views)
    }

    /// The main line on a board, at its last position.
    #[wasm_bindgen(js_name = toBoard)]
    pub fn to_board(&self) -> Board {
        Board::from_game(self.record.main_game())
    }

    /// The record as PGN text, moves in `notation` (`chinese`, the default unless the
    /// record's `Format` tag says otherwise; `wxf`; `iccs`), side lines and comments kept.
    #[wasm_bindgen(js_name = toPgn)]
    pub fn to_pgn(&self, notation: Option<String>) -> Result<String, JsValue> {
        let notation = match notation.as_deref().map(str::to_ascii_lowercase).as_deref() {
            None => None,
            Some("chinese") => Some(MoveFormat::Chinese),
            Some("wxf") => Some(MoveFormat::Wxf),
            Some("iccs") => Some(MoveFormat::Iccs),
            Some(other) => {
                return Err(Error::new(
                    "option",
                    format!("unknown notation {other:?}: chinese, wxf or iccs"),
                )
                .into())
            }
        };
        Ok(xiangqi_records::pgn::write_record(
            &self.record,
            &WriteOptions { notation },
        ))
    }

    /// The record's bytes in `format`: `pgn` (UTF-8), `xqf`, `dhtmlxq` (or `ubb`), `cbf`.
    pub fn write(&self, format: &str) -> Result<Vec<u8>, JsValue> {
        Ok(match format_named(format)? {
            Format::Xqf => xiangqi_records::xqf::write(&self.record),
            Format::Ubb => xiangqi_records::ubb::write(&self.record).into_bytes(),
            Format::Cbf => xiangqi_records::cbf::write(&self.record).into_bytes(),
            _ => xiangqi_records::pgn::write_record(&self.record, &WriteOptions::default())
                .into_bytes(),
        })
    }
}
