//! The full generator: every legal move, or the quiet moves only (`KIND`), and the moves of
//! one piece for counting.

use super::{file_rank, QUIETS};
use crate::position::{code_color, code_role, Position, EMPTY};
use crate::tables::{
    Steps, ADVISOR_MOVES, ELEPHANT_MOVES, FILE_QUIET, HORSE_MOVES, KING_MOVES, PAWN_MOVES,
    RANK_QUIET,
};
use crate::{Color, Move, MoveList};

impl Position {
    /// The core generator: appends every legal move (or every legal quiet move, for
    /// `QUIETS`) of the side to move to `list`, pieces in square order, each piece's
    /// destinations in the order of its step table (sliders: the empty points of the rank,
    /// then of the file, then the captures). Written out like [`Position::captures_into`]:
    /// no per-piece callbacks, the legality filter inline.
    #[inline(always)]
    pub(super) fn moves_into<const KIND: u8>(&self, list: &mut MoveList) {
        match self.side {
            Color::Red => self.moves_of::<KIND, 0>(list),
            Color::Black => self.moves_of::<KIND, 1>(list),
        }
    }

    /// [`Position::moves_into`] for the side to move, of colour index `UI` (a copy per
    /// colour, like [`Position::captures_of`]).
    #[inline(always)]
    fn moves_of<const KIND: u8, const UI: usize>(&self, list: &mut MoveList) {
        let us = if UI == 0 { Color::Red } else { Color::Black };
        let ui = UI;
        let ksq = self.kings[ui] as usize;
        let in_check = self.st.in_check;
        // The squares a non-general move must touch to need the full test (see
        // `danger_halves`), as two 64-bit halves (bit tests without 128-bit shifts),
        // computed when a piece other than the general first needs them.
        let mut danger = [0u64; 2];
        let mut danger_known = false;
        let bit = |d: &[u64; 2], s: usize| (d[(s >> 6) & 1] >> (s & 63)) & 1 != 0;
        let own = self.by_color[ui];
        for (half, base) in [(own as u64, 0usize), ((own >> 64) as u64, 64)] {
            let mut bits = half;
            while bits != 0 {
                let from = (base + bits.trailing_zeros() as usize) & 127;
                bits &= bits - 1;
                let piece = self.board[from];
                let role = code_role(piece);
                let (steps, blockable) = match role {
                    0 => {
                        let steps = &KING_MOVES[ui][from];
                        for i in 0..steps.len as usize {
                            let to = steps.to[i] as usize;
                            let target = self.board[to];
                            let ok = if KIND == QUIETS {
                                target == EMPTY
                            } else {
                                target == EMPTY || code_color(target) != ui
                            };
                            if ok && !self.exposes_general(us, from, to, to) {
                                list.push(Move::from_distinct(from, to));
                            }
                        }
                        continue;
                    }
                    1 => (&ADVISOR_MOVES[ui][from], false),
                    2 => (&ELEPHANT_MOVES[ui][from], true),
                    3 => (&HORSE_MOVES[from], true),
                    6 => (&PAWN_MOVES[ui][from], false),
                    _ => {
                        if !danger_known {
                            danger = self.danger_halves(us, ksq);
                            danger_known = true;
                        }
                        let from_sensitive = bit(&danger, from);
                        // The usual case, out of check and leaving no danger square: only
                        // the destination decides (one flag for the loops below to branch on).
                        let quick = !from_sensitive && !in_check;
                        let legal = |to: usize| -> bool {
                            if quick {
                                !bit(&danger, to) || !self.exposes_general(us, from, to, ksq)
                            } else if from_sensitive || bit(&danger, to) {
                                !self.exposes_general(us, from, to, ksq)
                            } else {
                                !in_check
                            }
                        };
                        let mut emit = |to| {
                            if legal(to) {
                                list.push(Move::from_distinct(from, to));
                            }
                        };
                        self.slider_quiet_moves(from, &mut emit);
                        if KIND != QUIETS {
                            self.slider_captures(from, ui, role == 5, &mut emit);
                        }
                        continue;
                    }
                };
                // The danger squares are needed by nearly every piece: known before its loop
                // (then, as for the sliders, one flag for the usual case).
                if !danger_known {
                    danger = self.danger_halves(us, ksq);
                    danger_known = true;
                }
                let from_sensitive = bit(&danger, from);
                let quick = !from_sensitive && !in_check;
                for i in 0..steps.len as usize {
                    let to = steps.to[i] as usize;
                    let target = self.board[to];
                    let ok = if KIND == QUIETS {
                        target == EMPTY
                    } else {
                        target == EMPTY || code_color(target) != ui
                    };
                    if !ok || (blockable && self.board[steps.via[i] as usize] != EMPTY) {
                        continue;
                    }
                    let legal = if quick {
                        !bit(&danger, to) || !self.exposes_general(us, from, to, ksq)
                    } else if from_sensitive || bit(&danger, to) {
                        !self.exposes_general(us, from, to, ksq)
                    } else {
                        !in_check
                    };
                    if legal {
                        list.push(Move::from_distinct(from, to));
                    }
                }
            }
        }
    }

    /// The empty points up to the first piece either way along the rank and the file of
    /// `from`, from the quiet tables (one load a line): bit `f` of the first for file `f`
    /// of the rank, bit `r` of the second for rank `r` of the file.
    #[inline(always)]
    pub(super) fn slider_quiets(&self, from: usize) -> (u16, u16) {
        let (ff, fr) = file_rank(from);
        (
            RANK_QUIET[ff][self.rank_occ[fr] as usize & 511],
            FILE_QUIET[fr][self.file_occ[ff] as usize & 1023],
        )
    }

    /// Calls `emit(to)` for each of the [`Position::slider_quiets`] points of `from`, the
    /// rank's first (files upward), then the file's (ranks upward).
    #[inline(always)]
    fn slider_quiet_moves(&self, from: usize, emit: &mut impl FnMut(usize)) {
        let (ff, fr) = file_rank(from);
        let (mut rank, mut file) = self.slider_quiets(from);
        while rank != 0 {
            emit(fr * 9 + rank.trailing_zeros() as usize);
            rank &= rank - 1;
        }
        while file != 0 {
            emit(file.trailing_zeros() as usize * 9 + ff);
            file &= file - 1;
        }
    }

    /// Calls `emit(to)` for every pseudo-legal destination of the piece `piece` on `from`
    /// (empty points and enemy pieces), for [`Position::count_legal_moves`].
    #[inline(always)]
    pub(super) fn piece_moves(&self, from: usize, piece: u8, emit: &mut impl FnMut(usize)) {
        let us = code_color(piece);
        let mut step = |t: &Steps, blockable: bool| {
            for i in 0..t.len as usize {
                let to = t.to[i] as usize;
                let target = self.board[to];
                if (target == EMPTY || code_color(target) != us)
                    && (!blockable || self.board[t.via[i] as usize] == EMPTY)
                {
                    emit(to);
                }
            }
        };
        match code_role(piece) {
            0 => step(&KING_MOVES[us][from], false),
            1 => step(&ADVISOR_MOVES[us][from], false),
            2 => step(&ELEPHANT_MOVES[us][from], true),
            3 => step(&HORSE_MOVES[from], true),
            6 => step(&PAWN_MOVES[us][from], false),
            role => {
                self.slider_quiet_moves(from, emit);
                self.slider_captures(from, us, role == 5, emit);
            }
        }
    }
}
