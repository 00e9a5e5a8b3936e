//! Builds `xiangqi-book/data/book.bin` from a file of games, one per line:
//! `result<TAB>ICCS moves` (result `1-0`, `0-1` or `1/2-1/2` from red's side).
//!
//! `cargo run --release -p xiangqi-book --example build_book -- ../shared/data/games/master_games_iccs.txt`

use std::collections::HashMap;
use xiangqi_book::{Book, BookMove, BUILD_PLIES, MIN_GAMES, MIN_SCORE_PERCENT};
use xiangqi_core::{Color, Move, Position};

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: build_book <games file> [out]");
    let out = std::env::args()
        .nth(2)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/data/book.bin").to_string());
    let text = std::fs::read_to_string(&path).expect("read the games file");
    // (key, move) -> (games, points for the mover in half points)
    let mut stats: HashMap<(u64, u16), (u32, u32)> = HashMap::new();
    let mut games = 0;
    for line in text.lines() {
        let Some((result, moves)) = line.split_once('\t') else {
            continue;
        };
        let red_points = match result.trim() {
            "1-0" => 2,
            "0-1" => 0,
            "1/2-1/2" => 1,
            _ => continue,
        };
        games += 1;
        for mirror in [false, true] {
            let mut pos = Position::startpos();
            for text in moves.split_whitespace().take(BUILD_PLIES) {
                let Ok(m) = pos.parse_uci(text) else { break };
                let stored = if mirror {
                    let flipped = pos.flip_horizontal();
                    let fm = m.flip_horizontal();
                    (flipped.key(), fm)
                } else {
                    (pos.key(), m)
                };
                let points = if pos.side_to_move() == Color::Red {
                    red_points
                } else {
                    2 - red_points
                };
                let e = stats.entry((stored.0, stored.1.to_u16())).or_default();
                e.0 += 1;
                e.1 += points;
                pos.play(m).expect("checked legal");
            }
        }
    }
    let entries: Vec<(u64, BookMove)> = stats
        .into_iter()
        .filter(|(_, (n, pts))| *n >= MIN_GAMES && pts * 100 >= n * 2 * MIN_SCORE_PERCENT)
        .map(|((key, mv), (n, pts))| {
            (
                key,
                BookMove {
                    mv: Move::from_u16(mv).expect("a move"),
                    games: n.min(u32::from(u16::MAX)) as u16,
                    score_permille: (pts * 500 / n) as u16,
                },
            )
        })
        .collect();
    let book = Book::from_entries(entries);
    std::fs::write(&out, book.to_bytes()).expect("write the book");
    println!("{games} games -> {} book entries -> {out}", book.len());
}
