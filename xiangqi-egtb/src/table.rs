//! A table in memory and what its bytes mean: the layer that generation, the perpetual-check
//! rule, the file format and the statistics all build on, kept apart from them so that each of
//! those imports it and none imports another to reach it.

use crate::index::Layout;
use crate::material::Material;
use xiangqi_core::{Color, Role};

/// Stored byte: unknown during generation, a draw afterwards.
pub(crate) const UNKNOWN: u8 = 0;
/// Stored byte of an index that is no legal position for that side to move.
pub(crate) const INVALID: u8 = 1;
/// The longest distance one byte holds.
pub const MAX_PLIES: u32 = 253;

/// The rules a table obeys.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Rules {
    /// Every endless line is a draw: exact for tables where one side cannot attack (it
    /// cannot check, so no perpetual check or chase can decide a game).
    Naive,
    /// The Asian rules: the perpetual checker loses.
    Asian,
}

/// A generated table in memory: its layout and one byte per position and side to move
/// (the values without the perpetual-check rule), and for a table that obeys the rule
/// the full two-byte entries too.
#[derive(Clone)]
pub struct TableData {
    pub(crate) layout: Layout,
    pub(crate) values: [Vec<u8>; 2],
    /// The entries with the rule's values, for a table where both sides can attack.
    pub(crate) ruled: Option<[Vec<u16>; 2]>,
}

impl TableData {
    /// The table's material.
    pub fn material(&self) -> Material {
        self.layout.material
    }

    /// Positions per side to move.
    pub fn size(&self) -> u64 {
        self.layout.size()
    }

    /// The rules the table obeys.
    pub fn rules(&self) -> Rules {
        if self.ruled.is_some() {
            Rules::Asian
        } else {
            Rules::Naive
        }
    }

    /// The stored entry of an index (see [`Dtm::from_entry`]).
    #[inline]
    pub(crate) fn entry(&self, side: Color, idx: u64) -> u16 {
        match &self.ruled {
            Some(r) => r[side.index()][idx as usize],
            None => u16::from(self.values[side.index()][idx as usize]),
        }
    }

    /// The value of the position with `pieces` and `side` to move, the pieces given in
    /// any orientation: a material that is not this table's canonical one is turned round.
    pub(crate) fn entry_of_pieces(&self, pieces: &[(Color, Role, u8)], side: Color) -> Option<u16> {
        let idx = self.layout.encode_pieces(pieces)?;
        Some(self.entry(side, idx))
    }
}
