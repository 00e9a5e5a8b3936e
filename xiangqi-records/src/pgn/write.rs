//! Writing PGN: tags, then the move text with every variation, comment and NAG.

use super::{MoveFormat, PgnGame};
use crate::record::Record;
use crate::tree::Step;
use xiangqi_core::{Color, Move, Position};

/// Column after which the move text wraps.
const WIDTH: usize = 79;

/// How to write PGN.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteOptions {
    /// The move notation; `None` uses the record's `Format` tag (Chinese when it has none).
    pub notation: Option<MoveFormat>,
}

/// A tag's name as a reader reads it back: one word, so white space, control characters,
/// `"` and `]` (where a reader ends the name) are written as `_`; an empty name is no tag.
/// A record built in code, or read from a format with looser names, may hold such a name.
fn tag_name(name: &str) -> Option<String> {
    let name: String = name
        .chars()
        .map(|c| {
            if c.is_whitespace() || c.is_control() || c == '"' || c == ']' {
                '_'
            } else {
                c
            }
        })
        .collect();
    (!name.is_empty()).then_some(name)
}

fn escape(value: &str) -> String {
    // A tag pair is one line: a line break or other control character in a value (an XQF
    // header's string may hold one) would end the tag and start movetext, so it is written as
    // a space (found by the fuzz target `records_read`).
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Writes a game as PGN text (UTF-8): `[Game "Chinese Chess"]` first, the other tags in
/// order, `Result` and `FEN` (for a non-initial start) kept in step with the game, and the
/// moves in the notation of the `Format` tag (Chinese when there is none), one move pair a
/// line, with comments.
pub fn write(game: &PgnGame) -> String {
    write_record(&game.to_record(), &WriteOptions::default())
}

/// Writes several records, a blank line between them.
pub fn write_records(records: &[Record], options: &WriteOptions) -> String {
    records
        .iter()
        .map(|r| write_record(r, options))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Move text being laid out in lines.
struct Out {
    text: String,
    column: usize,
    /// The next token follows without a space (after `(`).
    glue: bool,
}

impl Out {
    fn token(&mut self, t: &str) {
        let len = t.chars().count();
        if self.column > 0 && !self.glue {
            if self.column + 1 + len > WIDTH {
                self.newline();
            } else {
                self.text.push(' ');
                self.column += 1;
            }
        }
        self.glue = false;
        self.text.push_str(t);
        self.column += len;
    }

    /// A token written right after the previous one (`)`).
    fn attach(&mut self, t: &str) {
        self.text.push_str(t);
        self.column += t.chars().count();
    }

    fn newline(&mut self) {
        if self.column > 0 {
            self.text.push('\n');
            self.column = 0;
        }
    }

    /// A comment, trimmed and with its line breaks as LF (as readers read one): `{...}`, or
    /// `;` lines when it holds a `}` (which braces cannot).
    fn comment(&mut self, text: &str) {
        let text = super::lex::comment_line_breaks(text.trim());
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        if text.contains('}') {
            self.newline();
            for line in text.split('\n') {
                self.text.push_str("; ");
                self.text.push_str(line);
                self.text.push('\n');
            }
            self.column = 0;
            self.glue = false;
        } else {
            self.token(&format!("{{{text}}}"));
            if let Some(last) = text.rsplit('\n').next() {
                if text.contains('\n') {
                    self.column = last.chars().count() + 1;
                }
            }
        }
    }
}

fn move_text(pos: &Position, m: Move, notation: MoveFormat) -> String {
    match notation {
        MoveFormat::Iccs => m.to_string(),
        MoveFormat::Wxf => pos.to_wxf(m),
        MoveFormat::Chinese => pos.to_chinese(m),
    }
}

/// Writes a record as PGN text (UTF-8), with its whole tree: side lines in `( ... )`,
/// comments in `{ ... }` (or `;` lines when they hold a `}`), NAGs as `$n`.
pub fn write_record(record: &Record, options: &WriteOptions) -> String {
    let tree = &record.tree;
    let start = tree.start();
    let notation = options
        .notation
        .unwrap_or_else(|| MoveFormat::of_tags(&record.tags));
    let mut tags: Vec<(String, String)> = vec![("Game".into(), "Chinese Chess".into())];
    for (n, v) in &record.tags {
        if ["Game", "Result", "FEN", "Format"]
            .iter()
            .any(|k| n.eq_ignore_ascii_case(k))
        {
            continue;
        }
        tags.push((n.clone(), v.clone()));
    }
    tags.push(("Result".into(), record.result.as_str().into()));
    if start != &Position::startpos() {
        tags.push(("FEN".into(), start.fen()));
    }
    if options.notation.is_some() || record.tag("Format").is_some() {
        tags.push(("Format".into(), notation.tag_value().into()));
    }
    let mut text = String::new();
    for (n, v) in &tags {
        let Some(name) = tag_name(n) else { continue };
        text.push_str(&format!("[{name} \"{}\"]\n", escape(v)));
    }
    text.push('\n');
    let mut out = Out {
        text,
        column: 0,
        glue: false,
    };
    out.comment(&tree.node(tree.root()).comment);
    let mut cur = start.clone();
    let mut prev: Option<Position> = None;
    let mut stack: Vec<(Option<Position>, Position)> = Vec::new();
    let mut force_number = true;
    for step in tree.walk() {
        match step {
            Step::Move(n) => {
                let node = tree.node(n);
                let Some(m) = node.mv() else { continue };
                if !node.starting_comment.is_empty() {
                    out.comment(&node.starting_comment);
                    force_number = true;
                }
                let number = cur.fullmove_number().max(1);
                let side = cur.side_to_move();
                let mut t = match side {
                    Color::Red => format!("{number}. "),
                    Color::Black if force_number => format!("{number}... "),
                    Color::Black => String::new(),
                };
                t.push_str(&move_text(&cur, m, notation));
                for nag in &node.nags {
                    t.push_str(&format!(" ${nag}"));
                }
                out.token(&t);
                let mut after = cur.clone();
                after.make_move(m);
                prev = Some(core::mem::replace(&mut cur, after));
                force_number = false;
                if !node.comment.is_empty() {
                    out.comment(&node.comment);
                    force_number = true;
                }
                if side == Color::Black && stack.is_empty() {
                    out.newline();
                }
            }
            Step::BeginVariation => {
                let before = prev.clone().unwrap_or_else(|| cur.clone());
                stack.push((prev.take(), core::mem::replace(&mut cur, before)));
                out.token("(");
                out.glue = true;
                force_number = true;
            }
            Step::EndVariation => {
                out.attach(")");
                if let Some((p, c)) = stack.pop() {
                    prev = p;
                    cur = c;
                }
                force_number = true;
            }
        }
    }
    out.token(record.result.as_str());
    out.text.push('\n');
    out.text
}

/// PGN text in GB18030 (for programs that read only GBK/GB18030 files).
pub fn to_gb18030(text: &str) -> Vec<u8> {
    encoding_rs::GB18030.encode(text).0.into_owned()
}
