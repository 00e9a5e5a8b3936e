//! 象棋桥 (CCBridge) CBF: an XML record, `<ChineseChessRecord Version="1.0">` with a
//! `<Head>` of fields (`<Name>`, `<Contest>`, `<Red>`, `<Black>`, `<ECCO>`,
//! `<RecordResult>` 0 unknown / 1 red won / 2 black won / 3 draw, `<FEN>`, ...) and a
//! `<MoveList>` of `<Move value="XY-XY">` elements (file from red's left 0–8, row from the
//! top 0–9; the first, `00-00`, stands for the start and carries the opening comment), each
//! with its comment as text (CDATA). The layout is the one of the CBF files cchess ships
//! (`tests/data/test.cbf`); those hold a main line only, so side lines are not written.

use crate::pgn::PgnResult;
use crate::record::{Format, Loaded, ReadError, Record};
use crate::text;
use crate::tree::GameTree;
use crate::warning::{Place, Warning, WarningKind};
use xiangqi_core::{File, Move, Position, Rank, Square};

/// Head elements and the tags they become.
const TAGS: [(&str, &str); 12] = [
    ("Name", "Title"),
    ("Contest", "Event"),
    ("Round", "Round"),
    ("Date", "Date"),
    ("Site", "Site"),
    ("Red", "Red"),
    ("RedTeam", "RedTeam"),
    ("Black", "Black"),
    ("BlackTeam", "BlackTeam"),
    ("Commentator", "Annotator"),
    ("Creator", "Creator"),
    ("ECCO", "ECCO"),
];

/// Head elements that are not tags.
const NOT_TAGS: [&str; 2] = ["FEN", "RecordResult"];

fn point(text: &str) -> Option<Square> {
    let b = text.as_bytes();
    if b.len() != 2 || !b[0].is_ascii_digit() || !b[1].is_ascii_digit() {
        return None;
    }
    let (x, y) = (b[0] - b'0', b[1] - b'0');
    Some(Square::from_coords(
        File::new(x)?,
        Rank::new(9u8.checked_sub(y)?)?,
    ))
}

/// Reads a CBF file.
///
/// # Errors
/// A [`ReadError`] when it is not XML or has no `ChineseChessRecord`, or its FEN holds no
/// legal position.
pub fn load(bytes: &[u8]) -> Result<Loaded, ReadError> {
    let (text, encoding, bad) = text::decode_checked(bytes);
    let fail = |place: Place, kind: WarningKind| ReadError {
        format: Format::Cbf,
        warning: Warning { place, kind },
    };
    let doc = roxmltree::Document::parse(text.trim_start_matches('\u{feff}')).map_err(|e| {
        let p = e.pos();
        fail(
            Place::text(0, p.row as usize, p.col as usize),
            WarningKind::NotThisFormat("not well-formed XML"),
        )
    })?;
    let root = doc.root_element();
    if root.tag_name().name() != "ChineseChessRecord" {
        return Err(fail(
            Place::default(),
            WarningKind::NotThisFormat("no ChineseChessRecord element"),
        ));
    }
    let at = |n: roxmltree::Node<'_, '_>| {
        let p = doc.text_pos_at(n.range().start);
        Place::text(0, p.row as usize, p.col as usize)
    };
    let mut warnings = Vec::new();
    if bad {
        warnings.push(Warning {
            place: Place::default(),
            kind: WarningKind::BadEncoding,
        });
    }
    let child = |name: &str| root.children().find(|c| c.tag_name().name() == name);
    let head: Vec<(String, String, roxmltree::Node<'_, '_>)> = child("Head")
        .map(|h| {
            h.children()
                .filter(|c| c.is_element())
                .map(|c| {
                    let name = c.tag_name().name().to_string();
                    (name, c.text().unwrap_or("").trim().to_string(), c)
                })
                .collect()
        })
        .unwrap_or_default();
    let field = |name: &str| head.iter().find(|(n, _, _)| n == name);
    let start = match field("FEN").filter(|(_, v, _)| !v.is_empty()) {
        None => Position::startpos(),
        Some((_, fen, node)) => match crate::pgn::start_from_fen(fen) {
            Ok((p, None)) => p,
            Ok((p, Some(used))) => {
                warnings.push(Warning {
                    place: at(*node),
                    kind: WarningKind::FenRepaired {
                        found: fen.clone(),
                        used,
                    },
                });
                p
            }
            Err(e) => return Err(fail(at(*node), WarningKind::BadFen(e))),
        },
    };
    let mut record = Record::new(GameTree::new(start.clone()));
    for (name, value, _) in &head {
        if value.is_empty() || NOT_TAGS.contains(&name.as_str()) {
            continue;
        }
        let tag = TAGS
            .iter()
            .find(|(k, _)| k == name)
            .map_or(name.as_str(), |(_, t)| t);
        record.set_tag(tag, value);
    }
    record.result = match field("RecordResult").map(|(_, v, _)| v.as_str()) {
        Some("1") => PgnResult::RedWins,
        Some("2") => PgnResult::BlackWins,
        Some("3") => PgnResult::Draw,
        _ => PgnResult::Unknown,
    };
    let moves = child("MoveList")
        .map(|l| {
            l.children()
                .filter(|c| c.tag_name().name() == "Move")
                .collect()
        })
        .unwrap_or_else(Vec::new);
    let mut pos = start;
    let mut node = record.tree.root();
    for (i, m) in moves.iter().enumerate() {
        let comment = m.text().unwrap_or("").trim().replace("\r\n", "\n");
        let value = m.attribute("value").unwrap_or("");
        if i == 0 && value == "00-00" {
            record.tree.node_mut(node).comment = comment;
            continue;
        }
        let (from, to) = value.split_once('-').unwrap_or((value, ""));
        let mv = match (point(from), point(to)) {
            (Some(f), Some(t)) => Move::try_new(f, t).filter(|&mv| pos.is_legal(mv)),
            _ => None,
        };
        let Some(mv) = mv else {
            let text = value.to_string();
            let error = xiangqi_core::NotationError::NoSuchMove { text: text.clone() };
            let ply = record.tree.ply_of(node) + 1;
            warnings.push(Warning {
                place: at(*m).at_ply(ply),
                kind: WarningKind::BadMove { text, error },
            });
            break;
        };
        pos.make_move(mv);
        node = record.tree.push_unchecked(node, mv);
        record.tree.node_mut(node).comment = comment;
    }
    Ok(Loaded {
        format: Format::Cbf,
        encoding: encoding.name(),
        records: vec![record],
        games: vec![0],
        warnings,
    })
}

/// `text` with the characters XML 1.0 has no place for (control characters other than tab
/// and line breaks, U+FFFE, U+FFFF) as spaces: not even escaped may they stand in a document,
/// and one made the whole file unreadable (found by the fuzz target `records_roundtrip`).
fn xml_chars(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            '\u{fffe}' | '\u{ffff}' => ' ',
            c if c < ' ' => ' ',
            c => c,
        })
        .collect()
}

fn xml_text(text: &str) -> String {
    xml_chars(text)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A comment as element content: CDATA, split where the text holds `]]>`.
fn cdata(text: &str) -> String {
    format!(
        "<![CDATA[{}]]>",
        xml_chars(text).replace("]]>", "]]]]><![CDATA[>")
    )
}

fn xy(sq: Square) -> String {
    format!("{}{}", sq.file().index(), 9 - sq.rank().index())
}

/// Writes a record's main line as CBF (UTF-8 XML). Side lines, NAGs and comments before
/// moves are not written (CBF as its public samples show it has none of them).
pub fn write(record: &Record) -> String {
    let tree = &record.tree;
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str("<ChineseChessRecord Version=\"1.0\">\n <Head>\n");
    let mut written: Vec<&str> = Vec::new();
    for (element, tag) in TAGS {
        if let Some(v) = record.tag(tag) {
            out.push_str(&format!("  <{element}>{}</{element}>\n", xml_text(v)));
            written.push(tag);
        }
    }
    for (name, value) in &record.tags {
        let is_name = !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit());
        if is_name
            && !written.iter().any(|w| w.eq_ignore_ascii_case(name))
            && !TAGS.iter().any(|(e, _)| e.eq_ignore_ascii_case(name))
            && !NOT_TAGS.iter().any(|e| e.eq_ignore_ascii_case(name))
        {
            out.push_str(&format!("  <{name}>{}</{name}>\n", xml_text(value)));
        }
    }
    let result = match record.result {
        PgnResult::Unknown => 0,
        PgnResult::RedWins => 1,
        PgnResult::BlackWins => 2,
        PgnResult::Draw => 3,
    };
    out.push_str(&format!("  <RecordResult>{result}</RecordResult>\n"));
    out.push_str(&format!("  <FEN>{}</FEN>\n", tree.start().fen()));
    out.push_str(" </Head>\n <MoveList>\n");
    let mut element = |value: &str, comment: &str| {
        if comment.is_empty() {
            out.push_str(&format!("  <Move value=\"{value}\" />\n"));
        } else {
            out.push_str(&format!(
                "  <Move value=\"{value}\">{}</Move>\n",
                cdata(comment)
            ));
        }
    };
    element("00-00", &tree.node(tree.root()).comment);
    for n in tree.main_line() {
        let node = tree.node(n);
        if let Some(m) = node.mv() {
            element(&format!("{}-{}", xy(m.from()), xy(m.to())), &node.comment);
        }
    }
    out.push_str(" </MoveList>\n</ChineseChessRecord>\n");
    out
}
