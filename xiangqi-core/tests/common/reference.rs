//! A deliberately simple, separate model of the rules, written only for the tests.
//!
//! It walks the board point by point with (file, rank) coordinates, the way the rules are
//! written down, and shares no code or tables with the crate's move generator: it is the
//! independent judge of "every generated move is legal and every legal move is generated".

use xiangqi_core::{Color, Move, Piece, Position, Role, Square};

type Board = [[Option<Piece>; 10]; 9]; // [file][rank]

pub fn board_of(pos: &Position) -> Board {
    let mut b = [[None; 10]; 9];
    for (sq, p) in pos.all_pieces() {
        b[sq.file().index() as usize][sq.rank().index() as usize] = Some(p);
    }
    b
}

fn in_board(f: i32, r: i32) -> bool {
    (0..9).contains(&f) && (0..10).contains(&r)
}

fn in_palace(c: Color, f: i32, r: i32) -> bool {
    (3..=5).contains(&f)
        && match c {
            Color::Red => (0..=2).contains(&r),
            Color::Black => (7..=9).contains(&r),
        }
}

fn own_half(c: Color, r: i32) -> bool {
    match c {
        Color::Red => r <= 4,
        Color::Black => r >= 5,
    }
}

/// Pseudo-legal destinations of the piece on (f, r): by the movement rules only.
pub fn destinations(b: &Board, f: i32, r: i32) -> Vec<(i32, i32)> {
    let p = b[f as usize][r as usize].expect("a piece");
    let c = p.color;
    let at = |f: i32, r: i32| b[f as usize][r as usize];
    let mut out = Vec::new();
    let add = |tf: i32, tr: i32, out: &mut Vec<(i32, i32)>| {
        if in_board(tf, tr) && at(tf, tr).is_none_or(|q| q.color != c) {
            out.push((tf, tr));
        }
    };
    match p.role {
        Role::King => {
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                if in_palace(c, f + df, r + dr) {
                    add(f + df, r + dr, &mut out);
                }
            }
        }
        Role::Advisor => {
            for (df, dr) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                if in_palace(c, f + df, r + dr) {
                    add(f + df, r + dr, &mut out);
                }
            }
        }
        Role::Elephant => {
            for (df, dr) in [(2, 2), (-2, 2), (2, -2), (-2, -2)] {
                let (tf, tr) = (f + df, r + dr);
                if in_board(tf, tr) && own_half(c, tr) && at(f + df / 2, r + dr / 2).is_none() {
                    add(tf, tr, &mut out);
                }
            }
        }
        Role::Horse => {
            for (df, dr) in [
                (1, 2),
                (-1, 2),
                (1, -2),
                (-1, -2),
                (2, 1),
                (2, -1),
                (-2, 1),
                (-2, -1),
            ] {
                let (tf, tr) = (f + df, r + dr);
                // The leg is the point next to the horse in the direction of the long step.
                let (lf, lr) = if dr.abs() == 2 {
                    (f, r + dr / 2)
                } else {
                    (f + df / 2, r)
                };
                if in_board(tf, tr) && at(lf, lr).is_none() {
                    add(tf, tr, &mut out);
                }
            }
        }
        Role::Chariot | Role::Cannon => {
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (mut tf, mut tr) = (f + df, r + dr);
                let mut screens = 0;
                while in_board(tf, tr) {
                    match at(tf, tr) {
                        None => {
                            if screens == 0 {
                                out.push((tf, tr));
                            }
                        }
                        Some(q) => {
                            if p.role == Role::Chariot {
                                if q.color != c {
                                    out.push((tf, tr));
                                }
                                break;
                            }
                            screens += 1;
                            if screens == 2 {
                                if q.color != c {
                                    out.push((tf, tr));
                                }
                                break;
                            }
                        }
                    }
                    tf += df;
                    tr += dr;
                }
            }
        }
        Role::Pawn => {
            let fwd = if c == Color::Red { 1 } else { -1 };
            add(f, r + fwd, &mut out);
            if !own_half(c, r) {
                add(f - 1, r, &mut out);
                add(f + 1, r, &mut out);
            }
        }
    }
    out
}

/// Is `color`'s general attacked on board `b`, or facing the other general on an open file?
pub fn general_in_danger(b: &Board, color: Color) -> bool {
    let mut king = None;
    let mut other_king = None;
    for f in 0..9 {
        for r in 0..10 {
            if let Some(p) = b[f as usize][r as usize] {
                if p.role == Role::King {
                    if p.color == color {
                        king = Some((f, r));
                    } else {
                        other_king = Some((f, r));
                    }
                }
            }
        }
    }
    let (kf, kr) = king.expect("general");
    let (of, or) = other_king.expect("general");
    if kf == of {
        let (lo, hi) = (kr.min(or), kr.max(or));
        if (lo + 1..hi).all(|r| b[kf as usize][r as usize].is_none()) {
            return true;
        }
    }
    for f in 0..9 {
        for r in 0..10 {
            if let Some(p) = b[f as usize][r as usize] {
                if p.color != color && destinations(b, f, r).contains(&(kf, kr)) {
                    return true;
                }
            }
        }
    }
    false
}

fn square(f: i32, r: i32) -> Square {
    Square::new((r * 9 + f) as u8).unwrap()
}

/// Every legal move by the simple model: movement rules, then "own general safe afterwards".
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    let b = board_of(pos);
    let us = pos.side_to_move();
    let mut out = Vec::new();
    for f in 0..9 {
        for r in 0..10 {
            let Some(p) = b[f as usize][r as usize] else {
                continue;
            };
            if p.color != us {
                continue;
            }
            for (tf, tr) in destinations(&b, f, r) {
                let mut after = b;
                after[tf as usize][tr as usize] = after[f as usize][r as usize].take();
                if !general_in_danger(&after, us) {
                    out.push(Move::new(square(f, r), square(tf, tr)));
                }
            }
        }
    }
    out.sort();
    out
}

/// Is `us`'s general in danger in `pos` by the simple model?
pub fn in_check(pos: &Position, us: Color) -> bool {
    general_in_danger(&board_of(pos), us)
}
