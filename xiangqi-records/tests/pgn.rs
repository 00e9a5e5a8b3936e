//! PGN reading and writing against real files (`tests/data/`, see its README for sources
//! and licences): the same 15 games in Chinese, full-width WXF and ICCS; two Big5 files
//! with traditional characters; a GB18030 encoding of the Chinese file.

use xiangqi_core::{Game, Move, NotationError, Position};
use xiangqi_records::pgn::{self, PgnErrorKind, PgnGame, PgnResult};

const CHINESE: &[u8] = include_bytes!("data/pgn_utf8_chinese_multigame_noresult.pgn");
const WXF: &[u8] = include_bytes!("data/pgn_utf8_fullwidth_wxf_multigame.pgn");
const ICCS: &[u8] = include_bytes!("data/pgn_ascii_iccs_nodash_multigame.pgn");
const BIG5_TRAD: &[u8] = include_bytes!("data/pgn_big5_trad_front_back.pgn");
const BIG5_ENDGAME: &[u8] = include_bytes!("data/pgn_big5_endgame_black_first.pgn");

fn moves(g: &PgnGame) -> Vec<Move> {
    g.game.moves().to_vec()
}

#[test]
fn chinese_wxf_and_iccs_files_agree() {
    let chinese = pgn::read(CHINESE).unwrap();
    let wxf = pgn::read(WXF).unwrap();
    assert_eq!(chinese.len(), 15);
    assert_eq!(wxf.len(), 15);
    // The ICCS file has an upstream conversion error in game 2, ply 71 (README): a legal
    // but different move, e5e6 where the Chinese and WXF files' 后兵进一 is e3e4.
    let iccs = pgn::read(ICCS).unwrap();
    assert_eq!(iccs.len(), 15);
    for (i, ((c, w), a)) in chinese.iter().zip(&wxf).zip(&iccs).enumerate() {
        assert_eq!(moves(c), moves(w), "game {i}");
        assert_eq!(c.tag("Red"), a.tag("Red"));
        if i == 1 {
            assert_eq!(&moves(c)[..70], &moves(a)[..70]);
            assert_eq!(moves(c)[70].to_string(), "e3e4");
            assert_eq!(moves(a)[70].to_string(), "e5e6");
        } else {
            assert_eq!(moves(c), moves(a), "game {i}");
        }
        assert!(!c.game.moves().is_empty());
    }
    assert_eq!(chinese[0].tag("Red"), Some("ZHAO GuoRong"));
    assert_eq!(chinese[0].tag("Black"), Some("KE YongQing"));
    assert_eq!(chinese[0].game.moves()[0].to_string(), "h2e2");
}

#[test]
fn big5_traditional_with_front_and_back() {
    let games = pgn::read(BIG5_TRAD).unwrap();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g.game.moves().len(), 68);
    assert_eq!(g.result, PgnResult::BlackWins);
    assert_eq!(g.tag("Red"), Some("河北馬國樑"));
    assert_eq!(g.tag("Black"), Some("廣東楊官麟"));
    assert_eq!(g.tag("ECCO"), Some("D30"));
}

#[test]
fn big5_endgame_black_moves_first() {
    let games = pgn::read(BIG5_ENDGAME).unwrap();
    let g = &games[0];
    assert_eq!(g.game.moves().len(), 43);
    assert_eq!(g.result, PgnResult::BlackWins);
    assert_eq!(
        g.game.start_position().fen(),
        "4k4/4a4/5a3/3PR4/6r2/9/2pp5/9/4A4/4KA3 b - - 0 1"
    );
    assert_eq!(g.tag("Site"), Some("溫州"));
}

#[test]
fn gb18030_file_reads() {
    let text = std::str::from_utf8(CHINESE).unwrap();
    let (gb, _, errors) = encoding_rs::GB18030.encode(text);
    assert!(!errors);
    assert!(std::str::from_utf8(&gb).is_err(), "really not UTF-8");
    let games = pgn::read(&gb).unwrap();
    assert_eq!(games, pgn::read(CHINESE).unwrap());
    // And GBK proper (the same bytes for these characters).
    let (gbk, _, _) = encoding_rs::GBK.encode(text);
    assert_eq!(pgn::read(&gbk).unwrap().len(), 15);
}

#[test]
fn write_then_read_gives_the_same_game() {
    let mut all = pgn::read(CHINESE).unwrap();
    all.extend(pgn::read(BIG5_TRAD).unwrap());
    all.extend(pgn::read(BIG5_ENDGAME).unwrap());
    for g in &all {
        for format in ["Chinese", "WXF", "ICCS"] {
            let mut h = g.clone();
            h.set_tag("Format", format);
            let text = pgn::write(&h);
            let back = pgn::read(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.len(), 1);
            let b = &back[0];
            assert_eq!(b.game, h.game, "{format}\n{text}");
            assert_eq!(b.result, h.result);
            assert_eq!(b.tag("Red"), h.tag("Red"));
            assert_eq!(b.tag("Game"), Some("Chinese Chess"));
            assert_eq!(b.tag("Format"), Some(format));
        }
    }
}

#[test]
fn comments_tags_variations_and_several_games() {
    let text = "[Game \"Chinese Chess\"]\n[Event \"第24届“五羊杯”全国冠军邀请赛\"]\n\
        [Red \"许银川\"]\n[Black \"吕钦\"]\n[Result \"1-0\"]\n\
        {开局} 1. 炮二平五 {中炮} 马８进７ (1... 炮８平５ {顺炮} 2. 马二进三 (2. 车一进一)) \
        2. 马二进三 $1 车９平８ ; 屏风马\n3. 车一平二 1-0\n\n\
        [Game \"Chinese Chess\"]\n[FEN \"4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1\"]\n1. R9+8 *\n";
    let games = pgn::read(text.as_bytes()).unwrap();
    assert_eq!(games.len(), 2);
    let g = &games[0];
    assert_eq!(g.tag("Event"), Some("第24届“五羊杯”全国冠军邀请赛"));
    assert_eq!(g.result, PgnResult::RedWins);
    let texts: Vec<(usize, &str)> = g
        .comments
        .iter()
        .map(|c| (c.ply, c.text.as_str()))
        .collect();
    assert_eq!(texts, vec![(0, "开局"), (1, "中炮"), (4, "屏风马")]);
    let expected: Vec<String> = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let got: Vec<String> = g.game.moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(got, expected);
    assert_eq!(games[1].game.moves()[0].to_string(), "a1a9");
    // Comments survive a round trip.
    let back = pgn::read(pgn::write(g).as_bytes()).unwrap();
    assert_eq!(back[0].comments, g.comments);
}

#[test]
fn errors_say_where() {
    let e = pgn::read("[Game \"Chinese Chess\"]\n1. h2e2 h9g7\n2. h2e2\n".as_bytes()).unwrap_err();
    assert_eq!((e.line, e.column), (3, 4), "{e}");
    assert!(matches!(
        e.kind,
        PgnErrorKind::BadMove {
            error: NotationError::NoSuchMove { .. },
            ..
        }
    ));
    let e = pgn::read("1. h2e2 {never closed".as_bytes()).unwrap_err();
    assert_eq!(
        (e.line, e.column, e.kind),
        (1, 9, PgnErrorKind::Unterminated('{'))
    );
    let e = pgn::read("[FEN \"xyz\"]\n1. h2e2".as_bytes()).unwrap_err();
    assert!(matches!(e.kind, PgnErrorKind::BadFen(_)), "{e}");
    assert!(e.to_string().contains("line 2"), "{e}");
}

#[test]
fn written_text_looks_like_the_specification() {
    let mut game = Game::new(Position::startpos());
    for t in ["h2e2", "h9g7"] {
        let m = game.position().parse_uci(t).unwrap();
        game.play(m).unwrap();
    }
    let mut g = PgnGame::new(game);
    g.set_tag("Red", "许银川");
    g.result = PgnResult::Draw;
    let text = pgn::write(&g);
    assert!(text.starts_with("[Game \"Chinese Chess\"]\n[Red \"许银川\"]\n[Result \"1/2-1/2\"]\n"));
    assert!(text.contains("1. 炮二平五 马８进７\n"), "{text}");
    assert!(text.ends_with("1/2-1/2\n"));
}

#[test]
fn wxf_moves_starting_with_a_digit_are_not_move_numbers() {
    // Red pawns: three on file g (3), two on file c (7). The middle one of file 3 is `33`.
    let text = "[FEN \"3k5/9/2P3P2/2P3P2/6P2/9/9/9/9/4K4 w - - 0 1\"]\n1. 33.4 *\n";
    let g = &pgn::read(text.as_bytes()).unwrap()[0];
    assert_eq!(g.game.moves()[0].to_string(), "g6f6");
    let text = "[FEN \"3k5/9/2P3P2/2P3P2/6P2/9/9/9/9/4K4 w - - 0 1\"]\n1．前三进一 *\n";
    let g = &pgn::read(text.as_bytes()).unwrap()[0];
    assert_eq!(g.game.moves()[0].to_string(), "g7g8");
}

#[test]
fn lenient_reading_keeps_what_can_be_read() {
    let text = "[Red \"A\"]\n1. h2e2 h9g7 1-0\n\n[Red \"B\"]\n1. h2e2 h9g7 2. h2e2 i9h9 0-1\n\n\
        [Red \"C\"]\n1. 炮二平五 *\n";
    assert!(pgn::read(text.as_bytes()).is_err());
    let (games, errors) = pgn::read_lenient(text.as_bytes());
    assert_eq!(games.len(), 3);
    assert_eq!(errors.len(), 1);
    assert_eq!((errors[0].game, errors[0].line), (1, 5));
    assert_eq!(games[1].game.moves().len(), 2);
    assert_eq!(games[1].result, PgnResult::BlackWins);
    assert_eq!(games[2].tag("Red"), Some("C"));
    assert_eq!(games[2].game.moves().len(), 1);
}

mod never_panic {
    use proptest::prelude::*;
    use xiangqi_records::pgn;

    proptest! {
        #[test]
        fn arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
            let _ = pgn::read(&bytes);
            let _ = pgn::read_lenient(&bytes);
        }

        #[test]
        fn pgn_like_text(text in "[\\[\\]{}()\";$%0-9.a-iA-Z \\n\"-/*炮二平五马８进７车]{0,200}") {
            let _ = pgn::read(text.as_bytes());
        }

        #[test]
        fn mangled_real_file(cut in 0usize..21861, byte in any::<u8>()) {
            let mut bytes = super::CHINESE.to_vec();
            let cut = cut.min(bytes.len() - 1);
            bytes[cut] = byte;
            let _ = pgn::read(&bytes);
            let _ = pgn::read(&bytes[..cut]);
        }
    }
}
