//! The generator's own board: a mailbox of the table's slots, with the moves and the
//! un-moves (moves played backwards) of the pieces a table has.
//!
//! The generator visits every position of a table many times, so it does not build a
//! [`xiangqi_core::Position`] (key, occupancy sets, check flags) for each: it places the
//! slots on 90 cells and generates from there. Its moves are checked against the core's
//! legal moves on every position of sample tables (`tests/movegen.rs`).

use crate::index::{Layout, Placement, MAX_PIECES, NO_SQUARE};
use arrayvec::ArrayVec;
use xiangqi_core::{Color, Role};

/// A move of a slot: from, to, and the slot it captures (`NO_SQUARE` when none).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct SlotMove {
    pub(crate) slot: u8,
    pub(crate) from: u8,
    pub(crate) to: u8,
    pub(crate) captured: u8,
}

/// Enough room for every move of a table's side.
pub(crate) type Moves = ArrayVec<SlotMove, 128>;

const ORTHO: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// The horse's jumps (file, rank) and, for each, the leg's offset from the horse.
const HORSE: [((i8, i8), (i8, i8)); 8] = [
    ((1, 2), (0, 1)),
    ((-1, 2), (0, 1)),
    ((1, -2), (0, -1)),
    ((-1, -2), (0, -1)),
    ((2, 1), (1, 0)),
    ((2, -1), (1, 0)),
    ((-2, 1), (-1, 0)),
    ((-2, -1), (-1, 0)),
];

#[inline]
fn step(sq: u8, df: i8, dr: i8) -> Option<u8> {
    let f = (sq % 9) as i8 + df;
    let r = (sq / 9) as i8 + dr;
    if (0..9).contains(&f) && (0..10).contains(&r) {
        Some((r * 9 + f) as u8)
    } else {
        None
    }
}

#[inline]
fn in_palace(sq: u8, color: Color) -> bool {
    let f = sq % 9;
    let r = sq / 9;
    (3..=5).contains(&f)
        && match color {
            Color::Red => r <= 2,
            Color::Black => r >= 7,
        }
}

#[inline]
fn own_side(sq: u8, color: Color) -> bool {
    match color {
        Color::Red => sq < 45,
        Color::Black => sq >= 45,
    }
}

/// A pawn of `color` can stand on `sq`.
#[inline]
fn pawn_point(sq: u8, color: Color) -> bool {
    let r = sq / 9;
    let f = sq % 9;
    match color {
        Color::Red => r >= 5 || (r >= 3 && f.is_multiple_of(2)),
        Color::Black => r <= 4 || (r <= 6 && f.is_multiple_of(2)),
    }
}

#[inline]
fn forward(color: Color) -> i8 {
    match color {
        Color::Red => 1,
        Color::Black => -1,
    }
}

#[cfg(test)]
/// Whether `sq` shares a file or rank with `k` or stands diagonally next to it: the
/// points where a piece's leaving or arriving can change whether `k` is attacked.
#[inline]
fn near_lines(k: u8, sq: u8) -> bool {
    let (kf, kr) = ((k % 9) as i8, (k / 9) as i8);
    let (f, r) = ((sq % 9) as i8, (sq / 9) as i8);
    kf == f || kr == r || ((kf - f).abs() == 1 && (kr - r).abs() == 1)
}

/// The slots of a table on a mailbox board.
#[derive(Clone)]
pub(crate) struct Board {
    /// Slot + 1 on each cell, 0 when empty.
    cells: [u8; 90],
    pub(crate) squares: [u8; MAX_PIECES],
    colors: [Color; MAX_PIECES],
    roles: [Role; MAX_PIECES],
    n: usize,
    /// Which kinds of attacker each colour has (chariot or cannon, horse, pawn), so that
    /// a check test looks only for the attacks that can be there.
    lines: [bool; 2],
    horses: [bool; 2],
    pawns: [bool; 2],
}

impl Board {
    /// The board of a placement; `None` when two pieces share a point.
    pub(crate) fn new(layout: &Layout, p: &Placement) -> Option<Board> {
        let n = layout.slots.len();
        let mut b = Board {
            cells: [0; 90],
            squares: p.squares,
            colors: [Color::Red; MAX_PIECES],
            roles: [Role::King; MAX_PIECES],
            n,
            lines: [false; 2],
            horses: [false; 2],
            pawns: [false; 2],
        };
        for (i, &(c, r)) in layout.slots.iter().enumerate() {
            b.colors[i] = c;
            b.roles[i] = r;
            match r {
                Role::Chariot | Role::Cannon => b.lines[c.index()] = true,
                Role::Horse => b.horses[c.index()] = true,
                Role::Pawn => b.pawns[c.index()] = true,
                _ => {}
            }
            let sq = p.squares[i];
            if sq == NO_SQUARE {
                continue;
            }
            if b.cells[sq as usize] != 0 {
                return None;
            }
            b.cells[sq as usize] = i as u8 + 1;
        }
        Some(b)
    }

    /// The placement as it stands.
    pub(crate) fn placement(&self) -> Placement {
        Placement {
            squares: self.squares,
        }
    }

    /// The colour, role and point of every piece on the board.
    pub(crate) fn pieces(&self) -> ArrayVec<(Color, Role, u8), MAX_PIECES> {
        (0..self.n)
            .filter(|&i| self.squares[i] != NO_SQUARE)
            .map(|i| (self.colors[i], self.roles[i], self.squares[i]))
            .collect()
    }

    #[inline]
    fn slot_at(&self, sq: u8) -> Option<usize> {
        match self.cells[sq as usize] {
            0 => None,
            s => Some(s as usize - 1),
        }
    }

    #[inline]
    fn is_enemy(&self, sq: u8, color: Color, role: Role) -> bool {
        match self.slot_at(sq) {
            Some(s) => self.colors[s] != color && self.roles[s] == role,
            None => false,
        }
    }

    /// The generals see each other along a file with nothing between.
    pub(crate) fn kings_face(&self) -> bool {
        let (rk, bk) = (self.squares[0], self.squares[1]);
        if rk % 9 != bk % 9 {
            return false;
        }
        let mut sq = rk + 9;
        while sq < bk {
            if self.cells[sq as usize] != 0 {
                return false;
            }
            sq += 9;
        }
        true
    }

    /// Whether `color`'s general is attacked (the generals facing included).
    pub(crate) fn in_check(&self, color: Color) -> bool {
        let k = self.squares[color.index()];
        let them = color.other().index();
        if self.lines[them] {
            // Lines: chariot, cannon (one screen) and the other general on the file.
            for (df, dr) in ORTHO {
                let mut sq = k;
                let mut screens = 0;
                while let Some(next) = step(sq, df, dr) {
                    sq = next;
                    if let Some(s) = self.slot_at(sq) {
                        let enemy = self.colors[s] != color;
                        let role = self.roles[s];
                        if screens == 0 {
                            if enemy && (role == Role::Chariot || role == Role::King) {
                                return true;
                            }
                            screens = 1;
                        } else {
                            if enemy && role == Role::Cannon {
                                return true;
                            }
                            break;
                        }
                    }
                }
            }
        } else if self.kings_face() {
            return true;
        }
        if self.horses[them] {
            // A horse at k + jump attacks k when its leg (beside the horse, toward the
            // general) is empty: the point diagonally next to the general toward the horse.
            for ((df, dr), _) in HORSE {
                if let Some(h) = step(k, df, dr) {
                    if self.is_enemy(h, color, Role::Horse) {
                        let leg = step(k, df.signum(), dr.signum()).expect("on the board");
                        if self.cells[leg as usize] == 0 {
                            return true;
                        }
                    }
                }
            }
        }
        if self.pawns[them] {
            // In front of the general, or beside it (a pawn next to a general in its
            // palace has crossed the river).
            if let Some(sq) = step(k, 0, forward(color)) {
                if self.is_enemy(sq, color, Role::Pawn) {
                    return true;
                }
            }
            for df in [-1, 1] {
                if let Some(sq) = step(k, df, 0) {
                    if self.is_enemy(sq, color, Role::Pawn) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Plays a move on the board.
    #[inline]
    pub(crate) fn make(&mut self, m: SlotMove) {
        if m.captured != NO_SQUARE {
            self.squares[m.captured as usize] = NO_SQUARE;
        }
        self.cells[m.from as usize] = 0;
        self.cells[m.to as usize] = m.slot + 1;
        self.squares[m.slot as usize] = m.to;
    }

    /// Takes a move back.
    #[inline]
    pub(crate) fn unmake(&mut self, m: SlotMove) {
        self.squares[m.slot as usize] = m.from;
        self.cells[m.from as usize] = m.slot + 1;
        if m.captured != NO_SQUARE {
            self.squares[m.captured as usize] = m.to;
            self.cells[m.to as usize] = m.captured + 1;
        } else {
            self.cells[m.to as usize] = 0;
        }
    }

    #[inline]
    fn push_target(&self, out: &mut Moves, slot: usize, from: u8, to: u8) {
        match self.slot_at(to) {
            None => out.push(SlotMove {
                slot: slot as u8,
                from,
                to,
                captured: NO_SQUARE,
            }),
            Some(s) if self.colors[s] != self.colors[slot] => out.push(SlotMove {
                slot: slot as u8,
                from,
                to,
                captured: s as u8,
            }),
            Some(_) => {}
        }
    }

    /// The pseudo-legal moves of `color` (the own general may be left attacked).
    pub(crate) fn pseudo_moves(&self, color: Color, out: &mut Moves) {
        for slot in 0..self.n {
            let from = self.squares[slot];
            if from == NO_SQUARE || self.colors[slot] != color {
                continue;
            }
            match self.roles[slot] {
                Role::King => {
                    for (df, dr) in ORTHO {
                        if let Some(to) = step(from, df, dr) {
                            if in_palace(to, color) {
                                self.push_target(out, slot, from, to);
                            }
                        }
                    }
                }
                Role::Advisor => {
                    for (df, dr) in DIAG {
                        if let Some(to) = step(from, df, dr) {
                            if in_palace(to, color) {
                                self.push_target(out, slot, from, to);
                            }
                        }
                    }
                }
                Role::Elephant => {
                    for (df, dr) in DIAG {
                        if let Some(to) = step(from, 2 * df, 2 * dr) {
                            let eye = step(from, df, dr).expect("between two points");
                            if own_side(to, color) && self.cells[eye as usize] == 0 {
                                self.push_target(out, slot, from, to);
                            }
                        }
                    }
                }
                Role::Horse => {
                    for ((df, dr), (lf, lr)) in HORSE {
                        if let Some(to) = step(from, df, dr) {
                            let leg = step(from, lf, lr).expect("between two points");
                            if self.cells[leg as usize] == 0 {
                                self.push_target(out, slot, from, to);
                            }
                        }
                    }
                }
                Role::Chariot | Role::Cannon => {
                    let cannon = self.roles[slot] == Role::Cannon;
                    for (df, dr) in ORTHO {
                        let mut sq = from;
                        let mut screen = false;
                        while let Some(to) = step(sq, df, dr) {
                            sq = to;
                            let occupied = self.cells[to as usize] != 0;
                            if !screen {
                                if !occupied {
                                    self.push_target(out, slot, from, to);
                                    continue;
                                }
                                if !cannon {
                                    self.push_target(out, slot, from, to);
                                    break;
                                }
                                screen = true;
                            } else if occupied {
                                self.push_target(out, slot, from, to);
                                break;
                            }
                        }
                    }
                }
                Role::Pawn => {
                    if let Some(to) = step(from, 0, forward(color)) {
                        self.push_target(out, slot, from, to);
                    }
                    if !own_side(from, color) {
                        for df in [-1, 1] {
                            if let Some(to) = step(from, df, 0) {
                                self.push_target(out, slot, from, to);
                            }
                        }
                    }
                }
            }
        }
    }

    /// The legal moves of `color` (the generator tells legal quiet moves by the validity
    /// of the position they lead to; this is for the tests).
    #[cfg(test)]
    pub(crate) fn legal_moves(&mut self, color: Color, out: &mut Moves) {
        let mut pseudo = Moves::new();
        self.pseudo_moves(color, &mut pseudo);
        let k = self.squares[color.index()];
        let checked = self.in_check(color);
        for m in pseudo {
            // Out of check, a move of another piece can only uncover or make an attack on
            // its general along the general's file or rank (chariot, cannon screen, the
            // generals facing) or on a horse's leg, a point diagonally next to it.
            if !checked
                && m.slot as usize != color.index()
                && !near_lines(k, m.from)
                && !near_lines(k, m.to)
            {
                out.push(m);
                continue;
            }
            self.make(m);
            let ok = !self.in_check(color);
            self.unmake(m);
            if ok {
                out.push(m);
            }
        }
    }

    /// The un-captures-free un-moves of `color`: each move of a `color` piece that, played
    /// from the position it leads back to, would arrive here without capturing. Only the
    /// geometry is checked: the caller checks that the earlier position is legal.
    pub(crate) fn unmoves(&self, color: Color, kings_only: bool, out: &mut Moves) {
        let mut push = |slot: usize, to: u8, from: u8| {
            // `to` is where the piece stands now; the un-move takes it back to `from`.
            out.push(SlotMove {
                slot: slot as u8,
                from: to,
                to: from,
                captured: NO_SQUARE,
            })
        };
        for slot in 0..self.n {
            let at = self.squares[slot];
            if at == NO_SQUARE || self.colors[slot] != color {
                continue;
            }
            if kings_only && self.roles[slot] != Role::King {
                continue;
            }
            match self.roles[slot] {
                Role::King => {
                    for (df, dr) in ORTHO {
                        if let Some(back) = step(at, df, dr) {
                            if in_palace(back, color) && self.cells[back as usize] == 0 {
                                push(slot, at, back);
                            }
                        }
                    }
                }
                Role::Advisor => {
                    for (df, dr) in DIAG {
                        if let Some(back) = step(at, df, dr) {
                            if in_palace(back, color) && self.cells[back as usize] == 0 {
                                push(slot, at, back);
                            }
                        }
                    }
                }
                Role::Elephant => {
                    for (df, dr) in DIAG {
                        if let Some(back) = step(at, 2 * df, 2 * dr) {
                            let eye = step(at, df, dr).expect("between two points");
                            if own_side(back, color)
                                && self.cells[eye as usize] == 0
                                && self.cells[back as usize] == 0
                            {
                                push(slot, at, back);
                            }
                        }
                    }
                }
                Role::Horse => {
                    // The horse came from `back` = at - jump, its leg beside `back`.
                    for ((df, dr), (lf, lr)) in HORSE {
                        if let Some(back) = step(at, -df, -dr) {
                            let leg = step(back, lf, lr).expect("between two points");
                            if self.cells[back as usize] == 0 && self.cells[leg as usize] == 0 {
                                push(slot, at, back);
                            }
                        }
                    }
                }
                Role::Chariot | Role::Cannon => {
                    for (df, dr) in ORTHO {
                        let mut sq = at;
                        while let Some(back) = step(sq, df, dr) {
                            if self.cells[back as usize] != 0 {
                                break;
                            }
                            push(slot, at, back);
                            sq = back;
                        }
                    }
                }
                Role::Pawn => {
                    if let Some(back) = step(at, 0, -forward(color)) {
                        if pawn_point(back, color) && self.cells[back as usize] == 0 {
                            push(slot, at, back);
                        }
                    }
                    if !own_side(at, color) {
                        for df in [-1, 1] {
                            if let Some(back) = step(at, df, 0) {
                                if self.cells[back as usize] == 0 {
                                    push(slot, at, back);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::material::Material;
    use xiangqi_core::{Piece, Position, Setup, Square};

    /// The core's position of a placement, `side` to move, when it is a legal one.
    fn core_position(layout: &Layout, p: &Placement, side: Color) -> Option<Position> {
        let mut setup = Setup::empty().side_to_move(side);
        for (slot, &(c, r)) in layout.slots.iter().enumerate() {
            setup = setup.put(Square::new(p.squares[slot])?, Piece::new(c, r));
        }
        setup.build().ok()
    }

    /// The generator's board agrees with the core on which positions are legal, on every
    /// legal move, and on every un-move (each un-move, played forward from the position it
    /// leads to, is one of the core's legal moves there, and every legal quiet move into a
    /// position is found as an un-move from it).
    #[test]
    fn moves_and_unmoves_agree_with_the_core() {
        for name in [
            "krkaabb", "kcakab", "knbkaa", "kpkaabb", "kppk", "krnk", "kcpkab", "krkn", "kckp",
        ] {
            let m: Material = name.parse().unwrap();
            let layout = Layout::new(m.canonical());
            let step = (layout.size() / 3000).max(1) | 1;
            let mut idx = 7 % layout.size();
            let mut checked = 0;
            while idx < layout.size() {
                let p = layout.decode(idx);
                idx += step;
                let Some(mut b) = Board::new(&layout, &p) else {
                    continue;
                };
                for side in Color::ALL {
                    let valid = !b.kings_face() && !b.in_check(side.other());
                    let core = core_position(&layout, &p, side)
                        .filter(|pos| !pos.is_attacked(pos.king_square(side.other()), side));
                    assert_eq!(valid, core.is_some(), "{name} {p:?} {side:?}");
                    let Some(pos) = core else {
                        continue;
                    };
                    checked += 1;
                    let mut ours = Moves::new();
                    b.legal_moves(side, &mut ours);
                    let mut a: Vec<(u8, u8)> = ours.iter().map(|m| (m.from, m.to)).collect();
                    let mut c: Vec<(u8, u8)> = pos
                        .legal_moves()
                        .iter()
                        .map(|m| (m.from().index() as u8, m.to().index() as u8))
                        .collect();
                    a.sort_unstable();
                    c.sort_unstable();
                    assert_eq!(a, c, "{name}: {}", pos.fen());
                    // Every legal quiet move is found again as an un-move from where it leads.
                    for m in ours.iter().filter(|m| m.captured == NO_SQUARE) {
                        b.make(*m);
                        let mut back = Moves::new();
                        b.unmoves(side, false, &mut back);
                        b.unmake(*m);
                        assert!(
                            back.iter()
                                .any(|u| u.from == m.to && u.to == m.from && u.slot == m.slot),
                            "{name}: {m:?} from {} has no un-move",
                            pos.fen()
                        );
                    }
                    // Un-moves of the side that just moved (the other side).
                    let mover = side.other();
                    let mut un = Moves::new();
                    b.unmoves(mover, false, &mut un);
                    for u in &un {
                        b.make(*u);
                        let prev = core_position(&layout, &b.placement(), mover);
                        b.unmake(*u);
                        let Some(prev) = prev else { continue };
                        let fwd = prev.legal_moves().iter().any(|m| {
                            m.from().index() as u8 == u.to && m.to().index() as u8 == u.from
                        });
                        let legal_prev = !prev.is_attacked(prev.king_square(side), mover);
                        assert!(
                            !legal_prev || fwd,
                            "{name}: un-move {u:?} from {}",
                            pos.fen()
                        );
                    }
                }
            }
            assert!(checked > 500, "{name}: only {checked} positions");
        }
    }
}
