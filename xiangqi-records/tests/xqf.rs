//! XQF reading: the XQF 1.0 sample from `tests/data` (moves and header decoded
//! independently with `xxd`/`iconv`), and an encrypted file built here per the format notes
//! (`shared/notes/rules.md` (f), from cchess `read_xqf.py` / XQFRW.pas).

use xiangqi_core::{Color, Game, Position};
use xiangqi_records::pgn::{self, PgnResult};
use xiangqi_records::xqf::{self, XqfErrorKind};

const SAMPLE: &[u8] = include_bytes!("data/xqf10_sample_1997.xqf");
const SAMPLE_MOVES: &str =
    "c3c4 h9g7 g3g4 b7c7 c0e2 b9a7 b0c2 a9b9 a0b0 b9b5 b2a2 b5h5 h2h7 c7h7 h0g2 i9h9";

fn iccs(game: &Game) -> String {
    game.moves()
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn sample_reads() {
    let g = xqf::read(SAMPLE).unwrap();
    assert_eq!(g.version, 10);
    assert_eq!(g.game.moves().len(), 16);
    assert_eq!(iccs(&g.game), SAMPLE_MOVES);
    assert_eq!(g.game.start_position(), &Position::startpos());
    assert_eq!(g.result, PgnResult::BlackWins);
    assert_eq!(g.red, "柳大华");
    assert_eq!(g.black, "吕  钦");
    assert_eq!(g.title, "仙人指路对起马局");
    assert_eq!(g.event, "\"中立杯\"象棋电视快棋赛");
    assert_eq!(g.date, "1997年11月16日");
    assert_eq!(g.site, "北京");
    assert_eq!(g.commentator, "刘殿中");
    assert_eq!(g.author, "过河象");
    // And on to PGN and back.
    let p = g.to_pgn();
    let back = pgn::read(pgn::write(&p).as_bytes()).unwrap();
    assert_eq!(back[0].game, g.game);
    assert_eq!(back[0].tag("Red"), Some("柳大华"));
    assert_eq!(back[0].result, PgnResult::BlackWins);
}

/// Builds an encrypted XQF (version 12 or 11) of the sample's game with a comment on the
/// third move and a variation record after the main line, encrypting as the format
/// notes say the reader decrypts.
fn encrypt(version: u8) -> Vec<u8> {
    let plain = SAMPLE;
    let mut out = plain[..0x400].to_vec();
    out[2] = version;
    let (mask, or) = (0x5A_u8, [0x11_u8, 0x22, 0x44, 0x08]);
    let (sum, xy, xyf, xyt) = (0x37_u8, 0x9C_u8, 0x45_u8, 0xD3_u8);
    out[3] = mask;
    out[8..12].copy_from_slice(&or);
    out[12..16].copy_from_slice(&[sum, xy, xyf, xyt]);
    let derive = |b: u8, seed: u8| -> u8 {
        let b = b as u64;
        let v = (((((b * b) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8) * seed as u64;
        (v % 256) as u8
    };
    let k_xy = derive(xy, xy);
    let k_xyf = derive(xyf, k_xy);
    let k_xyt = derive(xyt, k_xyf);
    let comment_size = ((sum as u32) * 256 + xy as u32) % 32000 + 767;
    let key_bytes = [
        (sum & mask) | or[0],
        (xy & mask) | or[1],
        (xyf & mask) | or[2],
        (xyt & mask) | or[3],
    ];
    let stream: Vec<u8> = b"[(C) Copyright Mr. Dong Shiwei.]"
        .iter()
        .enumerate()
        .map(|(i, c)| c & key_bytes[i % 4])
        .collect();
    // Pieces: shifted by the key, and (version >= 12) rotated.
    for i in 0..32 {
        let value = plain[0x10 + i].wrapping_add(k_xy);
        let stored_at = if version >= 12 {
            // The reader puts raw[i] at (i + 1 + k_xy) % 32: store slot j's value at the i
            // that maps to j.
            (i + 64 - 1 - k_xy as usize % 32) % 32
        } else {
            i
        };
        out[0x10 + stored_at] = value;
    }
    // Move records in plain form first.
    let mut area = Vec::new();
    let moves: Vec<(u8, u8)> = (0..=16)
        .map(|k| (plain[0x400 + 8 * k], plain[0x400 + 8 * k + 1]))
        .collect();
    for (k, &(f, t)) in moves.iter().enumerate() {
        let comment: &[u8] = if k == 3 { "好棋".as_bytes() } else { b"" };
        let (gb, _, _) = encoding_rs::GB18030.encode(std::str::from_utf8(comment).unwrap());
        let mut flag = 0u8;
        if k < 16 {
            flag |= 0x80;
        }
        if k == 16 {
            flag |= 0x40; // a variation follows the last main-line move
        }
        if !gb.is_empty() {
            flag |= 0x20;
        }
        let (f, t) = if k == 0 {
            (f, t)
        } else {
            (f.wrapping_add(k_xyf), t.wrapping_add(k_xyt))
        };
        area.extend_from_slice(&[f, t, flag, 0]);
        if !gb.is_empty() {
            area.extend_from_slice(&(gb.len() as u32 + comment_size).to_le_bytes());
            area.extend_from_slice(&gb);
        }
    }
    // The variation: red's last move replaced by i0i1 (a plain record, no next).
    let (f, t) = (0x18 + 80, 0x20 + 81); // i0 -> i1
    area.extend_from_slice(&[
        (f as u8).wrapping_add(k_xyf),
        (t as u8).wrapping_add(k_xyt),
        0,
        0,
    ]);
    for (i, b) in area.iter().enumerate() {
        out.push(b.wrapping_add(stream[(0x400 + i) % 32]));
    }
    out
}

#[test]
fn encrypted_versions_read() {
    for version in [11, 12, 18] {
        let bytes = encrypt(version);
        let g = xqf::read(&bytes).unwrap_or_else(|e| panic!("version {version}: {e}"));
        assert_eq!(g.version, version);
        assert_eq!(iccs(&g.game), SAMPLE_MOVES, "version {version}");
        assert_eq!(g.game.start_position(), &Position::startpos());
        assert_eq!(g.red, "柳大华");
        assert_eq!(g.result, PgnResult::BlackWins);
        assert_eq!(g.comments.len(), 1);
        assert_eq!(
            (g.comments[0].ply, g.comments[0].text.as_str()),
            (3, "好棋")
        );
    }
}

#[test]
fn errors_give_the_offset() {
    assert_eq!(xqf::read(b"PK").unwrap_err().kind, XqfErrorKind::BadMagic);
    assert_eq!(
        xqf::read(&SAMPLE[..100]).unwrap_err().kind,
        XqfErrorKind::TooShort
    );
    // Cut inside the last record.
    let e = xqf::read(&SAMPLE[..SAMPLE.len() - 6]).unwrap_err();
    assert_eq!(e.kind, XqfErrorKind::Truncated);
    assert!(e.offset >= 0x400, "{e}");
    // An illegal move: the third move made to jump.
    let mut bytes = SAMPLE.to_vec();
    bytes[0x400 + 8 * 3 + 1] = 0x20 + 6 * 10 + 9; // g3 -> g9
    let e = xqf::read(&bytes).unwrap_err();
    assert_eq!(e.offset, 0x400 + 8 * 3);
    assert!(matches!(e.kind, XqfErrorKind::IllegalMove(_)), "{e}");
    // A move off the board.
    bytes[0x400 + 8 * 3 + 1] = 0x20 + 95;
    assert_eq!(
        xqf::read(&bytes).unwrap_err().kind,
        XqfErrorKind::BadSquare(95)
    );
}

#[test]
fn black_to_move_first_from_a_setup() {
    // Red king e0, black king d9 and a black chariot: black's chariot moves first.
    let mut bytes = SAMPLE[..0x400].to_vec();
    for b in &mut bytes[0x10..0x30] {
        *b = 0xFF;
    }
    bytes[0x10 + 4] = 40; // red king e0
    bytes[0x10 + 16 + 4] = 39; // black king d9
    bytes[0x10 + 16] = 7; // black chariot a7
    bytes.extend_from_slice(&[0x18, 0x20, 0xF0, 0xFF, 0, 0, 0, 0]);
    bytes.extend_from_slice(&[0x18 + 7, 0x20 + 10 + 7, 0x00, 0, 0, 0, 0, 0]); // a7b7
    let g = xqf::read(&bytes).unwrap();
    assert_eq!(g.game.start_position().side_to_move(), Color::Black);
    assert_eq!(iccs(&g.game), "a7b7");
}

mod never_panic {
    use proptest::prelude::*;
    use xiangqi_records::xqf;

    proptest! {
        #[test]
        fn arbitrary_bytes(mut bytes in proptest::collection::vec(any::<u8>(), 0..1400)) {
            let _ = xqf::read(&bytes);
            if bytes.len() >= 2 {
                bytes[0] = b'X';
                bytes[1] = b'Q';
            }
            let _ = xqf::read(&bytes);
        }

        #[test]
        fn mangled_sample(at in 0usize..1160, byte in any::<u8>(), version in any::<u8>()) {
            let mut bytes = super::SAMPLE.to_vec();
            let last = bytes.len() - 1;
            bytes[at.min(last)] = byte;
            let _ = xqf::read(&bytes);
            bytes[2] = version;
            let _ = xqf::read(&bytes);
            let _ = xqf::read(&bytes[..at.min(bytes.len())]);
        }
    }
}
