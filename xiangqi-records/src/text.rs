//! Decoding game files: UTF-8 (with or without BOM), UTF-16 with BOM, GB18030/GBK/GB2312
//! and Big5, chosen by what decodes cleanly and reads like xiangqi text.

use encoding_rs::{Encoding, BIG5, GB18030, UTF_8};

/// Characters common in xiangqi records, simplified and traditional. A wrong guess
/// between GB18030 and Big5 decodes to rare characters, so counting these tells them apart.
const VOCABULARY: &str = "车马炮进将帅兵卒士仕相象后前中平退红黑胜负和棋局赛年月日第轮届国\
                          車馬砲進將帥後紅勝負賽輪屆國队隊杯象棋一二三四五六七八九";

fn score(text: &str) -> usize {
    text.chars().filter(|c| VOCABULARY.contains(*c)).count()
}

/// Decodes `bytes`, returning the text and the encoding used.
pub(crate) fn decode(bytes: &[u8]) -> (String, &'static Encoding) {
    let (text, enc, _) = decode_checked(bytes);
    (text, enc)
}

/// Decodes `bytes`: the text, the encoding used, and whether some bytes were invalid in
/// it (replaced by U+FFFD).
pub(crate) fn decode_checked(bytes: &[u8]) -> (String, &'static Encoding, bool) {
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        let (text, errors) = enc.decode_without_bom_handling(&bytes[bom_len..]);
        return (text.into_owned(), enc, errors);
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return (text.to_owned(), UTF_8, false);
    }
    // Mostly UTF-8 with a few broken bytes: UTF-8, the broken bytes replaced.
    let lossy = String::from_utf8_lossy(bytes);
    let replaced = lossy.chars().filter(|&c| c == '\u{fffd}').count();
    let multibyte = lossy
        .chars()
        .filter(|&c| c != '\u{fffd}' && !c.is_ascii())
        .count();
    if multibyte > 2 * replaced {
        return (lossy.into_owned(), UTF_8, true);
    }
    let (text, enc) = decode_legacy(bytes);
    let errors = enc
        .decode_without_bom_handling_and_without_replacement(bytes)
        .is_none();
    (text, enc, errors)
}

/// Decodes text without a byte-order mark: UTF-8 if it is valid UTF-8, otherwise
/// GB18030 (which covers GBK and GB2312) unless it reads better as Big5.
pub(crate) fn decode_legacy(bytes: &[u8]) -> (String, &'static Encoding) {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return (text.to_owned(), UTF_8);
    }
    let (gb, gb_errors) = GB18030.decode_without_bom_handling(bytes);
    let (big5, big5_errors) = BIG5.decode_without_bom_handling(bytes);
    let pick_big5 = match (gb_errors, big5_errors) {
        (false, true) => false,
        (true, false) => true,
        _ => score(&big5) > score(&gb),
    };
    if pick_big5 {
        (big5.into_owned(), BIG5)
    } else {
        (gb.into_owned(), GB18030)
    }
}

/// Decodes a string of a Chinese binary format (XQF): GB18030 (GBK), unless it only
/// decodes cleanly as Big5.
pub(crate) fn decode_gb(bytes: &[u8]) -> String {
    let (gb, gb_errors) = GB18030.decode_without_bom_handling(bytes);
    if gb_errors {
        let (big5, big5_errors) = BIG5.decode_without_bom_handling(bytes);
        if !big5_errors {
            return big5.into_owned();
        }
    }
    gb.into_owned()
}
