//! Inputs the fuzz targets (fuzz/) found, kept as ordinary tests.

use xiangqi_core::Position;
use xiangqi_records::{cbf, pgn, read, ubb, xqf, GameTree, Record};

/// A record of a position with black to move and no moves yet: XQF and CBF keep who is to
/// move (found by `records_roundtrip`: XQF lost it, having only the first move to show it;
/// its header's "who plays" byte now says it). DhtmlXQ has no such field: it keeps the board,
/// and a record without a move reads as red to move.
#[test]
fn black_to_move_without_moves_survives_xqf_and_cbf() {
    let start = Position::from_fen("4k4/4a4/5a3/3PR4/6r2/9/2pp5/9/4A4/4KA3 b - - 0 1").unwrap();
    let record = Record::new(GameTree::new(start.clone()));
    let written: [(&str, Vec<u8>); 2] = [
        ("XQF", xqf::write(&record)),
        ("CBF", cbf::write(&record).into_bytes()),
    ];
    for (format, bytes) in written {
        let back = read(&bytes).unwrap();
        assert_eq!(back.records[0].tree.start(), &start, "{format}");
    }
    let back = read(ubb::write(&record).as_bytes()).unwrap();
    let placement = |p: &Position| p.fen().split(' ').next().unwrap().to_string();
    assert_eq!(placement(back.records[0].tree.start()), placement(&start));
}

/// A `;` comment with spaces at its end, and one of blank space only: comments are read
/// trimmed, as PGN can hold them, so they read back the same after writing (found by
/// `records_read` and `records_roundtrip`).
#[test]
fn comments_read_back_the_same_after_writing() {
    let text = "[Game \"Chinese Chess\"]\n\n1. h2e2 ; a line comment   \n h9g7 ;  \n;\n *\n";
    let first = read(text.as_bytes()).unwrap();
    let tree = &first.records[0].tree;
    let comments: Vec<&str> = tree
        .main_line()
        .iter()
        .map(|&n| tree.node(n).comment.as_str())
        .collect();
    assert!(comments.contains(&"a line comment"), "{comments:?}");
    assert!(comments.iter().all(|c| c.trim() == *c), "{comments:?}");
    let written = pgn::write_record(&first.records[0], &pgn::WriteOptions::default());
    let again = read(written.as_bytes()).unwrap();
    assert_eq!(&again.records[0].tree, tree, "{written}");
}

/// A PGN whose comment quotes another format's marker is still PGN: our own output with
/// `<ChineseChessRecord` in a comment read back as CBF, and failed (found by `records_read`).
#[test]
fn pgn_quoting_other_formats_is_pgn() {
    for quoted in [
        "<ChineseChessRecord>",
        "[DhtmlXQ]",
        "[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]",
    ] {
        let text = format!("[Game \"Chinese Chess\"]\n\n1. h2e2 {{ {quoted} }} h9g7 *\n");
        let loaded = read(text.as_bytes()).unwrap();
        assert_eq!(loaded.format, xiangqi_records::Format::Pgn, "{quoted}");
        assert_eq!(loaded.records[0].tree.main_line_moves().len(), 2);
    }
}

/// An XQF whose header strings hold line breaks (a fuzzed file): written as PGN, each tag
/// stays one line, so the PGN reads back as the one game with the same moves (it read as
/// three games; found by `records_read`).
#[test]
fn tags_with_line_breaks_stay_one_line_in_pgn() {
    let bytes = std::fs::read("tests/data/fuzz/xqf_tag_with_line_breaks.xqf").unwrap();
    let loaded = read(&bytes).unwrap();
    for record in &loaded.records {
        assert!(
            record.tags.iter().any(|(_, v)| v.contains('\n')),
            "the sample has a line break in a tag"
        );
        let text = pgn::write_record(record, &pgn::WriteOptions::default());
        let back = read(text.as_bytes()).unwrap();
        assert_eq!(back.records.len(), 1, "{text}");
        assert_eq!(
            back.records[0].tree.main_line_moves(),
            record.tree.main_line_moves()
        );
    }
}

/// Characters XML cannot hold (a control character, U+FFFF) in a tag and a comment: the CBF
/// written is still a document its reader reads (found by `records_roundtrip`).
#[test]
fn cbf_with_characters_xml_cannot_hold_reads_back() {
    let mut tree = GameTree::new(Position::startpos());
    let root = tree.root();
    let m = Position::startpos().parse_move("h2e2").unwrap();
    let n = tree.add_move(root, m).unwrap();
    tree.node_mut(n).comment = "a\u{1}b\u{ffff}c".to_string();
    let mut record = Record::new(tree);
    record.set_tag("Red", "x\u{8}y");
    let text = cbf::write(&record);
    let back = read(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.records[0].tree.main_line_moves(), vec![m]);
    assert_eq!(back.records[0].tag("Red"), Some("x y"));
}

/// A start the rules can play though no game reaches it (an elephant off its points): the
/// PGN reader takes its FEN as the XQF reader takes the board, so such a record survives
/// being written as PGN (found by `records_read`); a missing general is still refused.
#[test]
fn an_irregular_but_playable_start_reads_from_pgn() {
    let fen = "4k4/9/9/9/9/4B4/9/9/9/4K4 w - - 0 1";
    let text = format!("[Game \"Chinese Chess\"]\n[FEN \"{fen}\"]\n\n1. e0d0 *\n");
    let loaded = read(text.as_bytes()).unwrap();
    assert_eq!(loaded.records[0].tree.main_line_moves().len(), 1);
    let text = "[Game \"Chinese Chess\"]\n[FEN \"9/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n\n*\n";
    assert!(read(text.as_bytes()).is_err());
}

/// A comment holding a `}` and a CR LF line break (found by `records_roundtrip`): written as
/// `;` lines, the CR ended up at a line's end, where it is the file's line end, and the
/// comment read back without it. In PGN a CR before a line feed belongs to the line end, in
/// braces and `;` lines alike, so the writer writes such a break as LF and the reader reads
/// it so: the comment reads back as written, and as the same text from a CRLF file.
#[test]
fn a_comment_with_crlf_and_a_closing_brace_reads_back_as_written() {
    let mut tree = GameTree::new(Position::startpos());
    let root = tree.root();
    tree.node_mut(root).comment = "`\u{1}\r\n}@ and\r\r\nmore".into();
    let m = tree.position_at(root).legal_moves()[0];
    let child = tree.add_move(root, m).unwrap();
    tree.node_mut(child).comment = "in braces\r\nas well".into();
    let record = Record::new(tree);
    let written = pgn::write_record(&record, &pgn::WriteOptions::default());
    assert!(!written.contains('\r'), "{written:?}");
    let back = read(written.as_bytes()).unwrap();
    let read_tree = &back.records[0].tree;
    assert_eq!(
        read_tree.node(read_tree.root()).comment,
        "`\u{1}\n}@ and\nmore"
    );
    assert_eq!(
        read_tree.node(read_tree.main_line()[0]).comment,
        "in braces\nas well"
    );
    // The same file with CRLF line ends reads the same.
    let crlf = written.replace('\n', "\r\n");
    assert_eq!(&read(crlf.as_bytes()).unwrap().records[0].tree, read_tree);
}

/// A DhtmlXQ text whose `[DhtmlXQ_` opens no field (its "name" runs over lines of comment
/// text to the next `]`; found by `records_read` in a damaged record): skipped with a warning,
/// never a tag, so the PGN written of the record is one game that reads back the same. The PGN
/// writer writes any tag name as one word, so a record built in code cannot break it either.
#[test]
fn a_dhtmlxq_field_without_a_name_is_skipped_and_tag_names_stay_one_word() {
    let text = "[DhtmlXQ]\n[DhtmlXQ_title]t[/DhtmlXQ_title]\n\
                [DhtmlXQ_g车\n{ x }\n1. h2e2 [DhtmlXQ_event]e[/DhtmlXQ_event]\n\
                [DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n";
    let loaded = read(text.as_bytes()).unwrap();
    assert!(
        loaded
            .warnings
            .iter()
            .any(|w| w.to_string().contains("[DhtmlXQ_g车")),
        "{:?}",
        loaded.warnings
    );
    let record = &loaded.records[0];
    assert!(
        record.tags.iter().all(|(n, _)| !n.contains('\n')),
        "{:?}",
        record.tags
    );
    assert_eq!(record.tree.main_line_moves().len(), 1);
    let written = pgn::write_record(record, &pgn::WriteOptions::default());
    let back = read(written.as_bytes()).unwrap();
    assert_eq!(back.records.len(), 1, "{written}");
    assert_eq!(back.records[0].tree, record.tree, "{written}");

    let mut built = Record::new(GameTree::new(Position::startpos()));
    built.set_tag("Two words\n[Event \"x\"]", "v");
    built.set_tag("", "no name");
    let written = pgn::write_record(&built, &pgn::WriteOptions::default());
    let back = read(written.as_bytes()).unwrap();
    assert_eq!(back.records.len(), 1, "{written}");
    assert_eq!(
        back.records[0].tag("Two_words_[Event__x__"),
        Some("v"),
        "{written}"
    );
    assert!(back.records[0].tag("Event").is_none(), "{written}");
}

/// A comment or tag that quotes the DhtmlXQ markers (found by `records_roundtrip`): the format
/// has no escape, and the quoted `[/DhtmlXQ_ver]` ended the comment's field. Their `[` is
/// written full-width, so the block reads back strictly (no warning) with the same moves.
#[test]
fn dhtmlxq_values_quoting_its_markers_stay_inside_their_fields() {
    let mut tree = GameTree::new(Position::startpos());
    let root = tree.root();
    tree.node_mut(root).comment = "see [DhtmlXQ_ver]x[/DhtmlXQ_ver] and [/DhtmlXQ]".into();
    let m = tree.position_at(root).legal_moves()[3];
    tree.add_move(root, m).unwrap();
    let mut record = Record::new(tree);
    record.set_tag("Event", "[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]");
    record.set_tag("DhtmlXQ_bad key]", "left out");
    let written = ubb::write(&record);
    let strict = xiangqi_records::Options {
        strict: true,
        ..Default::default()
    };
    let back = xiangqi_records::read_with(written.as_bytes(), &strict).unwrap();
    let got = &back.records[0];
    assert_eq!(got.tree.main_line_moves(), vec![m], "{written}");
    assert_eq!(
        got.tree.node(got.tree.root()).comment,
        "see ［DhtmlXQ_ver]x［/DhtmlXQ_ver] and ［/DhtmlXQ]"
    );
    assert_eq!(
        got.tag("Event"),
        Some("［DhtmlXQ_movelist]7747［/DhtmlXQ_movelist]")
    );
    assert!(!written.contains("left out"), "{written}");
}

/// Our CBF of a record whose tag quotes the DhtmlXQ markers read back as DhtmlXQ (found by
/// `records_roundtrip`): a document that opens as CBF is CBF, whatever its text quotes.
#[test]
fn cbf_quoting_dhtmlxq_markers_is_cbf() {
    let mut tree = GameTree::new(Position::startpos());
    let root = tree.root();
    let m = tree.position_at(root).legal_moves()[0];
    tree.add_move(root, m).unwrap();
    let mut record = Record::new(tree);
    record.set_tag(
        "Event",
        "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]",
    );
    let loaded = read(cbf::write(&record).as_bytes()).unwrap();
    assert_eq!(loaded.format, xiangqi_records::Format::Cbf);
    assert_eq!(loaded.records[0].tree.main_line_moves(), vec![m]);
    assert_eq!(
        loaded.records[0].tag("Event"),
        Some("[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]")
    );
}

/// A move list with white space before its moves, U+3000 among it (found by `records_ubb`):
/// the moves were read trimmed but placed from the untrimmed value, so a bad move's place
/// fell inside the U+3000 and reading the file panicked. Its place and text are now those
/// of the move itself.
#[test]
fn a_bad_move_after_leading_wide_space_is_placed_at_the_move() {
    let text = "[DhtmlXQ]\n[DhtmlXQ_movelist]  \u{3000}77472625[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n";
    let loaded = ubb::load(text.as_bytes()).unwrap();
    let record = &loaded.records[0];
    assert_eq!(record.tree.main_line_moves().len(), 1);
    let bad: Vec<_> = loaded
        .warnings
        .iter()
        .filter(|w| w.to_string().contains("2625"))
        .collect();
    assert_eq!(bad.len(), 1, "{:?}", loaded.warnings);
    // "[DhtmlXQ_movelist]" (18 characters), two spaces and U+3000, "7747": column 26.
    assert_eq!(bad[0].place.line, Some(2), "{:?}", bad[0]);
    assert_eq!(bad[0].place.column, Some(26), "{:?}", bad[0]);
    assert!(read(text.as_bytes()).is_ok());
}
