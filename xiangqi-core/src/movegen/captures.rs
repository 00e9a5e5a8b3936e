//! The capture generator (quiescence and the search's first stage): captures only, with the
//! lighter legality test a capture needs.

use super::file_rank;
use crate::position::{code_color, code_role, Position, EMPTY};
use crate::tables::{
    ADVISOR_MOVES, CAPTURE_REACH, CHECK_SOURCES, ELEPHANT_MOVES, EXPOSING, FILE_DOWN, FILE_UP,
    HORSE_MOVES, KING_MOVES, LINES, PAWN_MOVES, RANK_DOWN, RANK_UP, SQUARE_BITS,
};
use crate::{Color, Move, MoveList};

impl Position {
    /// [`Position::line_captures`] of the chariot, or of the cannon when `cannon`, on `from`.
    #[inline(always)]
    pub(super) fn slider_captures(
        &self,
        from: usize,
        us: usize,
        cannon: bool,
        emit: &mut impl FnMut(usize),
    ) {
        if cannon {
            self.line_captures::<true>(from, us, emit);
        } else {
            self.line_captures::<false>(from, us, emit);
        }
    }

    /// Calls `emit(to)` for each capture of the chariot (or, with `CANNON`, the cannon) on
    /// `from` of colour index `us`: the first (or second) piece along its rank upward and
    /// downward, then along its file, when an enemy's. The
    /// targets are read from the ray tables (one load a direction, an always empty point
    /// past the 90th when there is none) rather than isolated bit by bit on the masks.
    #[inline(always)]
    fn line_captures<const CANNON: bool>(
        &self,
        from: usize,
        us: usize,
        emit: &mut impl FnMut(usize),
    ) {
        let (ff, fr) = file_rank(from);
        let (rank, file) = (self.rank_occ[fr], self.file_occ[ff]);
        let k = CANNON as usize;
        let ru = RANK_UP[(rank >> (ff + 1)) as u8 as usize][k] as usize;
        let rd = RANK_DOWN[(rank << (8 - ff)) as u8 as usize][k] as usize;
        let fu = FILE_UP[(file >> (fr + 1)) as usize & 511][k] as usize;
        let fd = FILE_DOWN[(file << (9 - fr)) as usize & 511][k] as usize;
        for to in [
            (from + ru) & 255,
            from.wrapping_sub(rd) & 255,
            (from + fu) & 255,
            from.wrapping_sub(fd) & 255,
        ] {
            let target = self.board[to];
            if target != EMPTY && code_color(target) != us {
                emit(to);
            }
        }
    }

    /// The capture generator: what `moves_into::<ALL>` gives of the captures, in the same order, written
    /// out for the quiescence search's sake (no callbacks, the per-piece work hoisted, the
    /// sliders' targets read off the ray tables).
    #[inline(always)]
    pub(super) fn captures_into(&self, list: &mut MoveList) {
        match self.side {
            Color::Red => self.captures_of::<0>(list),
            Color::Black => self.captures_of::<1>(list),
        }
    }

    /// [`Position::captures_into`] for the side to move, of colour index `UI`: a copy per
    /// colour, so that the colour's tables are at fixed addresses.
    #[inline(always)]
    fn captures_of<const UI: usize>(&self, list: &mut MoveList) {
        let us = if UI == 0 { Color::Red } else { Color::Black };
        let ui = UI;
        let ksq = self.kings[ui] as usize;
        let enemies = self.by_color[ui ^ 1];
        let in_check = self.st.in_check;
        let exposing = EXPOSING[ksq & 127];
        let exposing = [exposing as u64, (exposing >> 64) as u64];
        // Is the capture `from`-`to` legal? (`king`: the general is the piece moving.)
        let legal = |from: usize, to: usize, king: bool| -> bool {
            if king {
                return !self.exposes_general(us, from, to, to);
            }
            if !in_check {
                // A capture leaves `to` occupied and takes an enemy piece away, so only
                // leaving `from` can expose the general, and only from a point of its rank
                // or file or diagonally next to it (`EXPOSING`, one bit test).
                if (exposing[(from >> 6) & 1] >> (from & 63)) & 1 == 0 {
                    return true;
                }
                return !self.leaving_exposes(us, from, to, ksq);
            }
            // In check, a capture by a piece other than the general can only end it by
            // taking a checker (which stands on a point of CHECK_SOURCES) or by leaving the
            // general's rank or file (a cannon's screen): `to` stays occupied, so nothing
            // else changes on the check lines, and a checking horse's leg is empty. Any
            // other capture leaves the check; the rest get the full test.
            if (CHECK_SOURCES[ui ^ 1][ksq & 127] & SQUARE_BITS[to].bit) == 0
                && (LINES[ksq & 127] & SQUARE_BITS[from].bit) == 0
            {
                return false;
            }
            !self.exposes_general(us, from, to, ksq)
        };
        let own = self.by_color[ui];
        for (half, base) in [(own as u64, 0usize), ((own >> 64) as u64, 64)] {
            let mut bits = half;
            while bits != 0 {
                let from = (base + bits.trailing_zeros() as usize) & 127;
                bits &= bits - 1;
                let piece = self.board[from];
                // Most pieces have no enemy piece within reach: skipped on one load.
                if CAPTURE_REACH[ui][piece as usize & 7][from] & enemies == 0 {
                    continue;
                }
                let (steps, blockable) = match code_role(piece) {
                    0 => (&KING_MOVES[ui][from], false),
                    1 => (&ADVISOR_MOVES[ui][from], false),
                    2 => (&ELEPHANT_MOVES[ui][from], true),
                    3 => (&HORSE_MOVES[from], true),
                    6 => (&PAWN_MOVES[ui][from], false),
                    role @ (4 | 5) => {
                        self.slider_captures(from, ui, role == 5, &mut |to| {
                            if legal(from, to, false) {
                                list.push(Move::from_distinct(from, to));
                            }
                        });
                        continue;
                    }
                    _ => continue,
                };
                let king = code_role(piece) == 0;
                for i in 0..steps.len as usize {
                    let to = steps.to[i] as usize;
                    let target = self.board[to];
                    if target != EMPTY
                        && code_color(target) != ui
                        && (!blockable || self.board[steps.via[i] as usize] == EMPTY)
                        && legal(from, to, king)
                    {
                        list.push(Move::from_distinct(from, to));
                    }
                }
            }
        }
    }
}
