//! The steps of retrograde analysis that both passes take: the naive one ([`crate::generate`])
//! and the perpetual-check rule's ([`crate::rules`]). Where a capture leads, which positions
//! reach an index by an un-move, and the error either pass reports: kept here, below both,
//! so that the rule's pass uses them without importing the generator that calls it.

use crate::board::{Board, Moves, SlotMove};
use crate::index::{Layout, Placement};
use crate::material::Material;
use crate::table::{TableData, MAX_PLIES};
use crate::value::Dtm;
use std::collections::HashMap;
use std::sync::Arc;
use xiangqi_core::{Color, Role};

/// Why a table could not be generated.
#[derive(Debug)]
pub enum GenerateError {
    /// A table that a capture leads into is not there (generate it first).
    MissingSubTable {
        /// The table being generated.
        table: String,
        /// The table its captures need.
        needs: String,
    },
    /// A distance to mate longer than one byte holds.
    TooLong {
        /// The table.
        table: String,
    },
    /// The perpetual-check rule's ranks do not fit an entry.
    RuleRanks {
        /// The table.
        table: String,
        /// What overflowed.
        why: String,
    },
    /// The index is too large for this machine.
    TooLarge {
        /// The table.
        table: String,
        /// Positions per side.
        size: u64,
    },
}

impl std::fmt::Display for GenerateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenerateError::MissingSubTable { table, needs } => {
                write!(
                    f,
                    "{table}: its captures lead into {needs}, which is not generated"
                )
            }
            GenerateError::TooLong { table } => {
                write!(
                    f,
                    "{table}: a mate longer than {MAX_PLIES} plies does not fit one byte"
                )
            }
            GenerateError::RuleRanks { table, why } => {
                write!(
                    f,
                    "{table}: the perpetual-check rule's ranks overflow: {why}"
                )
            }
            GenerateError::TooLarge { table, size } => {
                write!(
                    f,
                    "{table}: {size} positions a side is more than this build indexes"
                )
            }
        }
    }
}

impl std::error::Error for GenerateError {}

/// Where a capture of one group's piece leads.
#[derive(Clone)]
enum Capture {
    /// Into a material where neither side can attack: a draw by the rules.
    DeadDraw,
    /// Into a table, turned round when `swap`.
    Table { data: Arc<TableData>, swap: bool },
}

/// The tables a material's captures lead into, by the captured piece's colour and role.
pub(crate) struct Captures {
    by_kind: HashMap<(Color, Role), Capture>,
}

impl Captures {
    pub(crate) fn new(
        material: Material,
        tables: &HashMap<Material, Arc<TableData>>,
    ) -> Result<Captures, GenerateError> {
        let mut by_kind = HashMap::new();
        for color in Color::ALL {
            for role in Role::ALL {
                let Some(sub) = material.without(color, role) else {
                    continue;
                };
                let capture = if sub.is_dead_draw() {
                    Capture::DeadDraw
                } else {
                    let canon = sub.canonical();
                    let data = tables.get(&canon).cloned().ok_or_else(|| {
                        GenerateError::MissingSubTable {
                            table: material.to_string(),
                            needs: canon.to_string(),
                        }
                    })?;
                    Capture::Table {
                        data,
                        swap: !sub.is_canonical(),
                    }
                };
                by_kind.insert((color, role), capture);
            }
        }
        Ok(Captures { by_kind })
    }

    /// The value, for the opponent, of `side`'s capture `m`; `None` when the capture is
    /// illegal (it leaves `side`'s general attacked).
    pub(crate) fn after(
        &self,
        layout: &Layout,
        board: &mut Board,
        m: SlotMove,
        side: Color,
    ) -> Option<Dtm> {
        let kind = (side.other(), roles_of(layout, m.captured));
        board.make(m);
        let v = (!board.in_check(side)).then(|| self.value(board, kind, side.other()));
        board.unmake(m);
        v
    }

    /// The value, for `side` to move, of the board after a capture.
    fn value(&self, board: &Board, captured: (Color, Role), side: Color) -> Dtm {
        match &self.by_kind[&captured] {
            Capture::DeadDraw => Dtm::Draw,
            Capture::Table { data, swap } => {
                let mut pieces = board.pieces();
                let mut side = side;
                if *swap {
                    for p in pieces.iter_mut() {
                        *p = (p.0.other(), p.1, crate::index::flip(p.2));
                    }
                    side = side.other();
                }
                let e = data
                    .entry_of_pieces(&pieces, side)
                    .expect("a legal position after a capture has an index");
                Dtm::from_entry(e).expect("a legal position after a capture is valid")
            }
        }
    }
}

/// The distinct indices of the positions from which `mover` reaches index `idx` (decoded
/// as `p`) by a move without capture. Every position has one index, the same as its
/// mirror image's, so the un-moves of `p` alone find them all (those into `p`'s mirror
/// image come from the mirror images of these).
#[inline]
pub(crate) fn predecessors(
    layout: &Layout,
    idx: u64,
    p: &Placement,
    mover: Color,
    un: &mut Moves,
    out: &mut Vec<u64>,
) {
    let mut b = Board::new(layout, p).expect("a valid index");
    un.clear();
    out.clear();
    b.unmoves(mover, false, un);
    for &u in un.iter() {
        b.make(u);
        out.push(layout.encode_quiet(idx, p, &b.placement(), u.slot as usize));
        b.unmake(u);
    }
    out.sort_unstable();
    out.dedup();
}

/// The role of a slot.
#[inline]
pub(crate) fn roles_of(layout: &Layout, slot: u8) -> Role {
    layout.slots[slot as usize].1
}
