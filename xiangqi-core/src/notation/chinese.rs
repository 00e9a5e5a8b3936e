//! Chinese notation: `炮二平五`, `马８进７`, `前马退二`, `前九平八`; simplified and
//! traditional characters, ASCII and full-width digits.

use super::{
    check_places, digit, find_move, narrow, parts, wxf_dir, wxf_letter, Dir, NotationError, Parts,
};
use crate::{Color, Move, Piece, Position, Role};
use alloc::{string::String, string::ToString, vec, vec::Vec};

const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const FULL_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// A number as the mover writes it: red in Chinese numerals, black in full-width digits.
fn number(color: Color, n: u8) -> char {
    let i = usize::from(n.clamp(1, 9) - 1);
    match color {
        Color::Red => NUMERALS[i],
        Color::Black => FULL_DIGITS[i],
    }
}

fn dir_char(dir: Dir) -> char {
    match dir {
        Dir::Forward => '进',
        Dir::Backward => '退',
        Dir::Traverse => '平',
    }
}

/// The Chinese position word for piece `index` (from the front) of `count` on a file.
fn position_word(index: u8, count: u8) -> char {
    if index == 0 {
        '前'
    } else if index + 1 == count {
        '后'
    } else if count == 3 {
        '中'
    } else {
        NUMERALS[usize::from(index)]
    }
}

/// The canonical codes accepted for piece `index` of `count`: F/M/B and the ordinal digit.
fn position_codes(index: u8, count: u8) -> Vec<char> {
    let mut v = vec![digit(index + 1)];
    if index == 0 {
        v.push('F');
    }
    if index + 1 == count {
        v.push('B');
    }
    if count == 3 && index == 1 {
        v.push('M');
    }
    v
}

/// Maps one character of Chinese move text to its canonical code, if it has one.
fn normalize(c: char) -> Option<char> {
    let c = narrow(c);
    Some(match c {
        '车' | '車' | '俥' | '伡' => 'R',
        '马' | '馬' | '傌' | '㐷' => 'H',
        '炮' | '砲' | '包' => 'C',
        '帅' | '帥' | '将' | '將' => 'K',
        '仕' | '士' => 'A',
        '相' | '象' => 'E',
        '兵' | '卒' => 'P',
        '进' | '進' => '+',
        '退' => '-',
        '平' => '.',
        '前' => 'F',
        '中' => 'M',
        '后' | '後' => 'B',
        '1'..='9' => c,
        _ => match NUMERALS.iter().position(|&n| n == c) {
            Some(i) => digit(i as u8 + 1),
            None => return None,
        },
    })
}

/// Every canonical spelling of `m` that the parser accepts.
fn spellings(pos: &Position, m: Move) -> Vec<String> {
    let Some(p) = parts(pos, m) else {
        return Vec::new();
    };
    let tail = [wxf_dir(p.dir), digit(p.dest)];
    let mut out = vec![[wxf_letter(p.role), digit(p.file), tail[0], tail[1]]
        .iter()
        .collect::<String>()];
    if p.count >= 2 {
        for pc in position_codes(p.index, p.count) {
            out.push([pc, wxf_letter(p.role), tail[0], tail[1]].iter().collect());
            out.push([pc, digit(p.file), tail[0], tail[1]].iter().collect());
        }
    }
    out
}

fn format(p: &Parts) -> String {
    let piece = Piece::new(p.color, p.role).chinese();
    let mut s = String::with_capacity(12);
    let tandem = p.count >= 2 && !matches!(p.role, Role::Advisor | Role::Elephant);
    if !tandem {
        s.push(piece);
        s.push(number(p.color, p.file));
    } else if p.role == Role::Pawn && p.other_tandem_file {
        s.push(position_word(p.index, p.count));
        s.push(number(p.color, p.file));
    } else {
        s.push(position_word(p.index, p.count));
        s.push(piece);
    }
    s.push(dir_char(p.dir));
    s.push(number(p.color, p.dest));
    s
}

impl Position {
    /// The move in Chinese notation (`炮二平五`, `马８进７`, `前马退二`): red with Chinese
    /// numerals, black with full-width digits, simplified characters. Two or more pieces
    /// of a kind on one file are told apart by 前/中/后 (and 二/三/四 for four or five
    /// pawns); with tandem pawns on two files the file stays and the piece name goes
    /// (`前九平八`). Advisors and elephants never need 前/后. For a move without a piece of
    /// the side to move on its from-square the ICCS text is returned.
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// let pos = Position::startpos();
    /// assert_eq!(pos.to_chinese(pos.parse_uci("h2e2")?), "炮二平五");
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_chinese(&self, m: Move) -> String {
        match parts(self, m) {
            Some(p) => format(&p),
            None => m.to_string(),
        }
    }

    /// Reads a move in Chinese notation: simplified or traditional characters (車 馬 砲
    /// 帥 將 進 後, and 俥 傌 for red), either side's piece names, Chinese numerals, ASCII or
    /// full-width digits, white space ignored.
    ///
    /// # Errors
    /// [`NotationError::Syntax`] for text not in the four-part form,
    /// [`NotationError::NoSuchMove`] when no legal move fits, [`NotationError::Ambiguous`]
    /// when several do.
    pub fn parse_chinese(&self, text: &str) -> Result<Move, NotationError> {
        let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        if chars.is_empty() {
            return Err(NotationError::Empty);
        }
        let syntax = |at: usize, expected: &'static str| NotationError::Syntax {
            text: text.into(),
            at,
            expected,
        };
        let mut norm = Vec::with_capacity(4);
        for (i, &c) in chars.iter().enumerate() {
            match normalize(c) {
                Some(n) => norm.push(n),
                None => return Err(syntax(i, "a piece, 前/中/后, a number or 进/退/平")),
            }
        }
        // (what is expected, the canonical codes allowed) for each of the four places.
        let checks: [(&str, &str); 4] = [
            ("a piece name, 前/中/后 or a number", "KAEHRCPFMB123456789"),
            ("a file number or a piece name", "KAEHRCP123456789"),
            ("进, 退 or 平", "+-."),
            ("a number 1-9", "123456789"),
        ];
        check_places(&norm, &checks, syntax)?;
        let normalized: String = norm.into_iter().collect();
        find_move(self, text, &normalized, spellings)
    }
}
