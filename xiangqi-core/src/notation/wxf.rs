//! WXF notation: `C2.5`, `H8+7`, tandem `R+.3` / `C--1`, pawns `P+.4`, `3+.4`.

use super::{
    check_places, digit, find_move, narrow, parts, wxf_dir, wxf_letter, NotationError, Parts,
};
use crate::{Color, Move, Position, Role, Square};
use alloc::{string::String, string::ToString, vec::Vec};

/// Can a piece of this kind and colour ever stand on `square`?
fn can_stand(role: Role, color: Color, square: Square) -> bool {
    let f = i32::from(square.file().index());
    let r = match color {
        Color::Red => i32::from(square.rank().index()),
        Color::Black => 9 - i32::from(square.rank().index()),
    };
    match role {
        Role::King | Role::Advisor => square.in_palace(color),
        Role::Elephant => r <= 4 && f % 2 == 0 && r % 2 == 0 && (f + r) % 4 == 2,
        Role::Pawn => r >= 5 || (r >= 3 && f % 2 == 0),
        _ => true,
    }
}

/// Would the other piece of a pair on this file be written the same way (moving in
/// parallel lands on a point where such a piece can stand)? Then front/rear is needed.
fn pair_is_ambiguous(pos: &Position, m: Move, role: Role, color: Color) -> bool {
    let from = m.from();
    let other = pos
        .pieces(color)
        .find(|&(s, p)| p.role == role && s != from && s.file() == from.file());
    let Some((other, _)) = other else {
        return false;
    };
    let df = i32::from(m.to().file().index()) - i32::from(from.file().index());
    let dr = i32::from(m.to().rank().index()) - i32::from(from.rank().index());
    let f = i32::from(other.file().index()) + df;
    let r = i32::from(other.rank().index()) + dr;
    if !(0..9).contains(&f) || !(0..10).contains(&r) {
        return false;
    }
    let target = Square::new((r * 9 + f) as u8);
    target.is_some_and(|t| can_stand(role, color, t))
}

/// The position marker for piece `index` (from the front) of `count` on one file, or
/// `None` where the file digit is written (the middle one of three).
fn markers(index: u8, count: u8) -> &'static str {
    match (count, index) {
        (2, 0) | (3, 0) => "+",
        (2, _) | (3, 2) => "-",
        (3, _) => "",
        (4, 0) | (5, 0) => "++",
        (4, 1) | (5, 1) => "+",
        (4, 2) | (5, 3) => "-",
        (4, _) | (5, 4) => "--",
        _ => "",
    }
}

/// The tandem spelling of a move: letter (or the file digit when two files hold tandem
/// pawns) and position marker replacing letter + file.
fn tandem(p: &Parts, two_files: bool) -> String {
    let head = if two_files {
        digit(p.file)
    } else {
        wxf_letter(p.role)
    };
    let mark = markers(p.index, p.count);
    let mut s = String::with_capacity(4);
    match mark {
        "" => {
            s.push(head);
            s.push(digit(p.file));
        }
        "++" | "--" if !two_files => s.push_str(mark),
        _ => {
            s.push(head);
            s.push_str(mark);
        }
    }
    s.push(wxf_dir(p.dir));
    s.push(digit(p.dest));
    s
}

fn plain(p: &Parts) -> String {
    let mut s = String::with_capacity(4);
    s.push(wxf_letter(p.role));
    s.push(digit(p.file));
    s.push(wxf_dir(p.dir));
    s.push(digit(p.dest));
    s
}

/// Every spelling of `m` this parser accepts (normalised: ASCII, `.` for traverse).
fn spellings(pos: &Position, m: Move) -> Vec<String> {
    let Some(p) = parts(pos, m) else {
        return Vec::new();
    };
    let mut out = Vec::with_capacity(3);
    // With three or more on a file, the plain file form names the middle pawn only.
    if p.count <= 2 || markers(p.index, p.count).is_empty() {
        out.push(plain(&p));
    }
    if p.count >= 2 {
        out.push(tandem(&p, false));
        // The position mark may also come first: `+P+1` for `P++1`.
        let mark = markers(p.index, p.count);
        if mark.len() == 1 {
            let mut s = String::with_capacity(4);
            s.push_str(mark);
            s.push(wxf_letter(p.role));
            s.push(wxf_dir(p.dir));
            s.push(digit(p.dest));
            out.push(s);
        }
        if p.role == Role::Pawn {
            out.push(tandem(&p, true));
        }
    }
    out
}

impl Position {
    /// The move in WXF notation (`C2.5`, `H8+7`, `R+.3`), with `.` for sideways moves.
    /// Front/rear (`+`/`-`) replaces the file when two pieces of a kind on one file would
    /// otherwise be written alike, as Fairy-Stockfish writes it; three or more pawns on a
    /// file always use position markers, and the file digit replaces `P` when two files
    /// hold such pawns (`3+.4`). `m` should be legal here; for a move without a piece of
    /// the side to move on its from-square the ICCS text is returned.
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// let pos = Position::startpos();
    /// assert_eq!(pos.to_wxf(pos.parse_uci("b0c2")?), "H8+7");
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_wxf(&self, m: Move) -> String {
        let Some(p) = parts(self, m) else {
            return m.to_string();
        };
        let tandem_needed = match p.count {
            0 | 1 => false,
            2 => pair_is_ambiguous(self, m, p.role, p.color),
            _ => true,
        };
        if tandem_needed {
            tandem(&p, p.other_tandem_file)
        } else {
            plain(&p)
        }
    }

    /// Reads a move in WXF notation. Accepts `=` for `.` (as Fairy-Stockfish writes it),
    /// full-width characters (`Ｃ２＝５`), lower case, `N`/`B` for horse/elephant, white
    /// space, and a trailing check or mate mark (`+`, `#`).
    ///
    /// # Errors
    /// [`NotationError::Syntax`] for text not in WXF form, [`NotationError::NoSuchMove`]
    /// when no legal move fits, [`NotationError::Ambiguous`] when several do.
    pub fn parse_wxf(&self, text: &str) -> Result<Move, NotationError> {
        let mut norm: Vec<char> = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| match narrow(c).to_ascii_uppercase() {
                '=' => '.',
                'N' => 'H',
                'B' => 'E',
                c => c,
            })
            .collect();
        if norm.is_empty() {
            return Err(NotationError::Empty);
        }
        while norm.len() > 4 && matches!(norm.last(), Some('+' | '#' | '!' | '?')) {
            norm.pop();
        }
        let syntax = |at: usize, expected: &'static str| NotationError::Syntax {
            text: text.into(),
            at,
            expected,
        };
        // (what is expected, the characters allowed) for each of the four places.
        let checks: [(&str, &str); 4] = [
            (
                "a piece letter KAEHRCP, a file digit or +/-",
                "KAEHRCP+-123456789",
            ),
            (
                "a file digit 1-9, a position mark +/- or a piece letter",
                "+-123456789KAEHRCP",
            ),
            ("a direction: + (forward), - (back) or . (sideways)", "+-."),
            ("a digit 1-9", "123456789"),
        ];
        check_places(&norm, &checks, syntax)?;
        let normalized: String = norm.into_iter().collect();
        find_move(self, text, &normalized, spellings)
    }
}
