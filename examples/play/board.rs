//! Drawing the board in the terminal: Chinese characters or ASCII letters, colours or
//! plain text, the river, the palace diagonals, file numbers for both sides, ICCS
//! coordinates, the last move highlighted, and a flipped view for the black side.

use xiangqi::core::{Color, File, Move, Piece, Position, Rank, Role, Square};

/// How to draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// ASCII letters and lines instead of Chinese characters and box drawing.
    pub ascii: bool,
    /// ANSI colours (red and black pieces, the last move highlighted).
    pub color: bool,
    /// Black at the bottom (正反棋盘).
    pub flipped: bool,
}

const RED: &str = "\x1b[1;31m";
const BLACK: &str = "\x1b[1;36m";
const LINES: &str = "\x1b[2m";
const MARK: &str = "\x1b[7m";
const RESET: &str = "\x1b[0m";

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The character for a piece. Without colour, red and black must still differ, so red's
/// horse, chariot and cannon take their traditional forms (傌 俥 炮 against 马 车 砲).
fn piece_glyph(piece: Piece, style: Style) -> String {
    if style.ascii {
        return piece.char().to_string();
    }
    let c = match (style.color, piece.color, piece.role) {
        (false, Color::Red, Role::Horse) => '傌',
        (false, Color::Red, Role::Chariot) => '俥',
        (false, Color::Black, Role::Cannon) => '砲',
        _ => piece.chinese(),
    };
    c.to_string()
}

/// The point glyph for an empty intersection at display row `row` (0 = top), column `col`.
fn empty_glyph(row: usize, col: usize, ascii: bool) -> char {
    if ascii {
        return '+';
    }
    let (left, right) = (col == 0, col == 8);
    match row {
        0 if left => '┌',
        0 if right => '┐',
        0 => '┬',
        9 if left => '└',
        9 if right => '┘',
        9 => '┴',
        4 if !left && !right => '┴',
        5 if !left && !right => '┬',
        _ if left => '├',
        _ if right => '┤',
        _ => '┼',
    }
}

/// The square shown at display row `row`, column `col`.
fn square_at(row: usize, col: usize, flipped: bool) -> Square {
    let (file, rank) = if flipped {
        (8 - col, row)
    } else {
        (col, 9 - row)
    };
    Square::from_coords(
        File::new(file as u8).expect("file < 9"),
        Rank::new(rank as u8).expect("rank < 10"),
    )
}

/// The text between display rows `row` and `row + 1`: vertical lines, palace diagonals,
/// or the river.
fn between_rows(row: usize, style: Style) -> String {
    let bar = if style.ascii { '|' } else { '│' };
    if row == 4 {
        let river = if style.ascii {
            "   Chu He            Han Jie   "
        } else {
            "    楚  河          汉  界     "
        };
        return format!("{bar}{river}{bar}");
    }
    let (back, fwd) = if style.ascii {
        ('\\', '/')
    } else {
        ('╲', '╱')
    };
    let mut s = String::new();
    for col in 0..9 {
        s.push(bar);
        if col == 8 {
            break;
        }
        let diag = match (row, col) {
            (0 | 7, 3) | (1 | 8, 4) => Some(back),
            (0 | 7, 4) | (1 | 8, 3) => Some(fwd),
            _ => None,
        };
        match diag {
            Some(d) => {
                s.push(' ');
                s.push(d);
                s.push(' ');
            }
            None => s.push_str("   "),
        }
    }
    s
}

fn paint(s: &str, code: &str, style: Style) -> String {
    if style.color {
        format!("{code}{s}{RESET}")
    } else {
        s.to_string()
    }
}

/// The file labels for `color`'s player, one per display column.
fn file_labels(color: Color, style: Style) -> String {
    let mut s = String::from("   ");
    for col in 0..9 {
        let file = square_at(0, col, style.flipped).file();
        let n = file.number_for(color);
        let label = match (color, style.ascii) {
            (Color::Red, false) => format!("{}  ", RED_NUMERALS[usize::from(n - 1)]),
            _ => format!("{n}   "),
        };
        s.push_str(&label);
    }
    s.trim_end().to_string()
}

/// Draws `pos` with `last` (the last move) highlighted.
pub fn draw(pos: &Position, last: Option<Move>, style: Style) -> String {
    let mut out = String::new();
    let (top, bottom) = if style.flipped {
        (Color::Red, Color::Black)
    } else {
        (Color::Black, Color::Red)
    };
    out.push_str(&file_labels(top, style));
    out.push('\n');
    for row in 0..10 {
        let rank = square_at(row, 0, style.flipped).rank();
        out.push_str(&format!("{}  ", rank.char()));
        for col in 0..9 {
            let sq = square_at(row, col, style.flipped);
            let marked = last.is_some_and(|m| m.from() == sq || m.to() == sq);
            let glyph = match pos.piece_at(sq) {
                Some(p) => {
                    let g = piece_glyph(p, style);
                    let code = match (marked, p.color) {
                        (true, Color::Red) => "\x1b[1;31;7m",
                        (true, Color::Black) => "\x1b[1;36;7m",
                        (false, Color::Red) => RED,
                        (false, Color::Black) => BLACK,
                    };
                    paint(&g, code, style)
                }
                None => {
                    let g = empty_glyph(row, col, style.ascii).to_string();
                    paint(&g, if marked { MARK } else { LINES }, style)
                }
            };
            out.push_str(&glyph);
            if col < 8 {
                let occupied_cjk = !style.ascii && pos.piece_at(sq).is_some();
                let line = match (style.ascii, occupied_cjk) {
                    (true, _) => "---",
                    (false, true) => "──",
                    (false, false) => "───",
                };
                out.push_str(&paint(line, LINES, style));
            }
        }
        out.push('\n');
        if row < 9 {
            out.push_str("   ");
            out.push_str(&paint(&between_rows(row, style), LINES, style));
            out.push('\n');
        }
    }
    out.push_str(&file_labels(bottom, style));
    out.push('\n');
    let mut letters = String::from("   ");
    for col in 0..9 {
        letters.push(square_at(0, col, style.flipped).file().char());
        letters.push_str("   ");
    }
    out.push_str(letters.trim_end());
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(pos: &Position, last: Option<Move>, style: Style) -> Vec<String> {
        draw(pos, last, style).lines().map(str::to_string).collect()
    }

    #[test]
    fn start_position_in_ascii() {
        let l = lines(
            &Position::startpos(),
            None,
            Style {
                ascii: true,
                ..Style::default()
            },
        );
        assert_eq!(l.len(), 22);
        assert_eq!(l[0], "   1   2   3   4   5   6   7   8   9");
        assert_eq!(l[1], "9  r---n---b---a---k---a---b---n---r");
        assert_eq!(l[2], "   |   |   |   | \\ | / |   |   |   |");
        assert_eq!(l[10], "   |   Chu He            Han Jie   |");
        assert_eq!(l[19], "0  R---N---B---A---K---A---B---N---R");
        assert_eq!(l[20], "   9   8   7   6   5   4   3   2   1");
        assert_eq!(l[21], "   a   b   c   d   e   f   g   h   i");
    }

    #[test]
    fn flipped_chinese_board_without_colour() {
        let style = Style {
            flipped: true,
            ..Style::default()
        };
        let l = lines(&Position::startpos(), None, style);
        // Red's side at the top, seen from black: file i on the left, red's numbers 一..九.
        assert_eq!(l[0], "   一  二  三  四  五  六  七  八  九");
        assert_eq!(l[1], "0  俥──傌──相──仕──帅──仕──相──傌──俥");
        assert_eq!(l[5], "2  ├───炮──┼───┼───┼───┼───┼───炮──┤");
        assert_eq!(l[19], "9  车──马──象──士──将──士──象──马──车");
        assert_eq!(l[20], "   9   8   7   6   5   4   3   2   1");
        assert_eq!(l[21], "   i   h   g   f   e   d   c   b   a");
    }

    #[test]
    fn colours_mark_the_pieces_and_the_last_move() {
        let pos = Position::startpos();
        let m = pos.parse_uci("h2e2").unwrap();
        let after = pos.after(m).unwrap();
        let style = Style {
            color: true,
            ..Style::default()
        };
        let text = draw(&after, Some(m), style);
        // The cannon on e2 in reverse video, red; the empty h2 in reverse video.
        assert!(text.contains("\x1b[1;31;7m炮\x1b[0m"));
        assert!(text.contains("\x1b[7m┼\x1b[0m"));
        // Black's pieces in their own colour; with colour, 马车炮 are the same characters.
        assert!(text.contains("\x1b[1;36m车\x1b[0m"));
        assert!(text.contains("\x1b[1;31m车\x1b[0m"));
    }
}
