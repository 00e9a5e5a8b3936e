//! Each table's statistics, written beside it as JSON.

use crate::index::{Layout, Placement, NO_SQUARE};
use crate::table::{TableData, INVALID};
use crate::value::Dtm;
use serde::{Deserialize, Serialize};
use xiangqi_core::{Color, Piece, Position, Setup};

/// Counts for one side to move.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct SideStats {
    /// Legal positions with this side to move (mirror images counted once).
    pub positions: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost for the side to move (mated or stalemated with best play).
    pub losses: u64,
    /// Of the wins, those by the perpetual-check rule (0 in a naive table).
    #[serde(default)]
    pub wins_by_rule: u64,
    /// Of the losses, those by the perpetual-check rule: the generation without the rule
    /// calls each of these and of `wins_by_rule` a draw.
    #[serde(default)]
    pub losses_by_rule: u64,
    /// Draws in a generation without the rule: `draws + wins_by_rule + losses_by_rule`
    /// (equal to `draws` in a naive table).
    #[serde(default)]
    pub naive_draws: u64,
    /// The longest mate with this side to move, in plies.
    pub longest: u16,
    /// A position with that distance.
    pub longest_fen: Option<String>,
}

/// A table's statistics.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TableStats {
    /// The ending's name (`krkaabb`).
    pub name: String,
    /// Its Chinese name (车对士象全).
    pub chinese: String,
    /// Index size per side to move (legal positions and the invalid ones the index holds).
    pub index_size: u64,
    /// Red (the strong side) to move.
    pub red: SideStats,
    /// Black to move.
    pub black: SideStats,
    /// The rules the table obeys.
    pub rules: String,
    /// Seconds to generate (not counting the file).
    pub seconds: f64,
    /// The file's size in bytes.
    pub file_bytes: u64,
}

/// The position of an index, `side` to move.
pub(crate) fn position_of(data: &TableData, idx: u64, side: Color) -> Option<Position> {
    position_in(&data.layout, idx, side)
}

/// The position of an index of a layout, `side` to move; `None` for an index no legal
/// position has (two pieces on a point, the generals facing).
pub(crate) fn position_in(layout: &Layout, idx: u64, side: Color) -> Option<Position> {
    let p = layout.decode(idx);
    if !layout.is_canonical_index(idx, &p) {
        return None;
    }
    position_of_placement(layout, &p, side)
}

/// The position of a decoded placement of a layout, `side` to move; `None` when it is
/// no legal position (two pieces on a point, the generals facing).
pub(crate) fn position_of_placement(
    layout: &Layout,
    p: &Placement,
    side: Color,
) -> Option<Position> {
    let mut setup = Setup::empty().side_to_move(side);
    let mut seen = 0u128;
    for (slot, &(color, role)) in layout.slots.iter().enumerate() {
        let sq = p.squares[slot];
        if sq == NO_SQUARE {
            continue;
        }
        // Two pieces on one point: an index no position has.
        if seen & (1 << sq) != 0 {
            return None;
        }
        seen |= 1 << sq;
        *setup.board.get_mut(usize::from(sq))? = Some(Piece::new(color, role));
    }
    setup.build().ok()
}

/// Counts a generated table (whose invalid positions are still marked).
pub fn table_stats(data: &TableData, seconds: f64, file_bytes: u64) -> TableStats {
    let side_stats = |side: Color| {
        let mut s = SideStats::default();
        let mut longest_idx = None;
        for idx in 0..data.size() {
            let e = data.entry(side, idx);
            if e == u16::from(INVALID) {
                continue;
            }
            s.positions += 1;
            match Dtm::from_entry(e) {
                Some(Dtm::WinByRule(_)) => {
                    s.wins += 1;
                    s.wins_by_rule += 1;
                }
                Some(Dtm::LossByRule(_)) => {
                    s.losses += 1;
                    s.losses_by_rule += 1;
                }
                Some(Dtm::Win(n)) | Some(Dtm::Loss(n)) => {
                    if n % 2 == 1 {
                        s.wins += 1
                    } else {
                        s.losses += 1
                    }
                    if n > s.longest || longest_idx.is_none() {
                        s.longest = n;
                        longest_idx = Some(idx);
                    }
                }
                _ => s.draws += 1,
            }
        }
        s.naive_draws = s.draws + s.wins_by_rule + s.losses_by_rule;
        s.longest_fen = longest_idx
            .and_then(|i| position_of(data, i, side))
            .map(|p| p.fen());
        s
    };
    TableStats {
        name: data.material().to_string(),
        chinese: data.material().chinese_name(),
        index_size: data.size(),
        red: side_stats(Color::Red),
        black: side_stats(Color::Black),
        rules: match data.rules() {
            crate::table::Rules::Naive => "naive",
            crate::table::Rules::Asian => "asian",
        }
        .to_string(),
        seconds,
        file_bytes,
    }
}
