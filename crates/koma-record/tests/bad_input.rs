//! Bad input: errors name the line, the text and what was expected; nothing panics; the good
//! part of a record survives an illegal move.

use koma_record::input::{Options, Records};
use koma_record::{ErrorKind, Format, csa, encoding, ki2, kif, usi};
use koma_test_support::mutated_bytes;
use proptest::prelude::*;

const KIF: &str = include_str!("data/yokofudori.kifu");
const KI2: &str = include_str!("data/yokofudori.ki2u");
const CSA: &str = include_str!("data/yokofudori.csa");

#[test]
fn errors_say_where_and_what() {
    let e = kif::read(&KIF.replace("  13 同　歩(87)", "  13 同　歩(88)")).unwrap_err();
    assert_eq!(e.line, 23);
    assert_eq!(e.text, "同　歩(88)");
    assert!(matches!(e.kind, ErrorKind::IllegalMove { ply: 13, .. }));
    assert_eq!(e.partial.as_ref().unwrap().main().moves().len(), 12);
    assert!(
        e.to_string().starts_with(
            "line 23, column 6: `同　歩(88)`: illegal move at ply 13 (expected a legal move in "
        ),
        "{e}"
    );

    let e = ki2::read(&KI2.replace("▲同　飛    △８六歩", "▲同　飛    △８六桂")).unwrap_err();
    assert_eq!((e.line, e.text.as_str()), (7, "△８六桂"));
    assert_eq!(e.partial.unwrap().main().moves().len(), 11);

    let e = csa::read(&CSA.replace("-8286HI", "-8286KA")).unwrap_err();
    assert_eq!((e.line, e.text.as_str()), (42, "-8286KA"));
    assert_eq!(e.partial.unwrap().main().moves().len(), 13);

    let e = kif::read("先手：A\nこれは何\n").unwrap_err();
    assert_eq!((e.line, e.column, e.text.as_str()), (2, 1, "これは何"));
    assert!(e.to_string().contains("expected a header line"), "{e}");

    let e = usi::read("startpos moves 7g7f 8c8d 7f7e x").unwrap_err();
    assert_eq!((e.column, e.text.as_str()), (31, "x"));
    // The moves before a malformed one are kept, as before an illegal one.
    assert_eq!(e.kept_moves(), 3);

    let e = encoding::decode(b"\x82\xa0\n\x82", Some(encoding::Encoding::ShiftJis))
        .error
        .unwrap();
    assert_eq!((e.line, e.column), (2, 1));
}

#[test]
fn illegal_position_is_an_error_not_a_panic() {
    let e =
        kif::read(&koma_record::bod::write(&koma_core::Position::startpos()).replace("v玉", "v歩"))
            .unwrap_err();
    assert!(matches!(e.kind, ErrorKind::IllegalPosition(_)), "{e}");
    let e = csa::read("P1-OU-OU\nP2\n+\n").unwrap_err();
    assert_eq!(e.line, 1);
}

/// Inputs the fuzzer found (fuzz/, targets `record` and `japanese_move`): each must read and
/// write back the same, or be an error.
#[test]
fn fuzzer_findings() {
    // A header line with an empty key among the moves, and a hand line of a diagram among the
    // moves (not a header): kept as comments, and read back the same.
    for text in [
        "   1 ７六歩(77)\n:03\u{b}:\n",
        "   1 ７六歩(77)\n後手の持駒:::\n",
    ] {
        let read = kif::read(text).unwrap();
        assert_eq!(read.warnings.len(), 1, "{text:?}");
        let rec = read.record;
        assert_eq!(rec.main().moves()[0].comments().len(), 1, "{text:?}");
        assert_eq!(
            kif::read(&kif::write(&rec)).unwrap().record,
            rec,
            "{text:?}"
        );
    }
    // A 手合割 line among the moves (the `record` fuzz target's round-trip finding): kept only
    // as the record's one 手合割 naming the start, else skipped with a warning; either way the
    // record written as KIF reads back the same.
    for (text, warned, kept) in [
        ("手合割：平手\n   1 ７六歩(77)\n手合割：平手\n", 1, 1),
        ("   1 ７六歩(77)\n手合割：香落ち\n", 1, 0),
        ("   1 ７六歩(77)\n手合割：平手\n", 0, 1),
    ] {
        let read = kif::read(text).unwrap();
        assert_eq!(read.warnings.len(), warned, "{text:?}: {:?}", read.warnings);
        let rec = read.record;
        let count = rec.headers().iter().filter(|(k, _)| k == "手合割").count();
        assert_eq!(count, kept, "{text:?}");
        assert_eq!(
            kif::read(&kif::write(&rec)).unwrap().record,
            rec,
            "{text:?}"
        );
    }
    // Two 手合割 headers that agree are written as one, and read back the same.
    let text = "手合割：平手\n先手：A\n手合割：平手\n▲７六歩\n";
    let rec = ki2::read(text).unwrap().record;
    assert_eq!(ki2::read(&ki2::write(&rec)).unwrap().record, rec);
    // A CSA header key must be A-Z, 0-9 and _ (or it could not be written back).
    assert!(csa::read("$TI\0ME:600\nPI\n+\n").is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any edit of a real file reads or fails with an error; never a panic.
    #[test]
    fn edited_files_never_panic(which in 0usize..3, at in 0usize..2000, cut in 0usize..20, insert in "\\PC{0,8}") {
        let base = [KIF, KI2, CSA][which];
        let chars: Vec<char> = base.chars().collect();
        let at = at.min(chars.len());
        let end = (at + cut).min(chars.len());
        let edited: String = chars[..at].iter().chain(insert.chars().collect::<Vec<_>>().iter()).chain(chars[end..].iter()).collect();
        for f in Format::ALL {
            if let Ok(read) = f.read(&edited) {
                let _ = f.write(&read.record);
            }
        }
    }
}

/// Files of the test data and the corpus, as bytes (Shift-JIS, EUC-JP and UTF-8 alike; every
/// format).
const FILES: [&[u8]; 17] = [
    include_bytes!("corpus/forks.jkf"),
    include_bytes!("corpus/old-tournament.csa"),
    include_bytes!("corpus/kachi.csa"),
    include_bytes!("corpus/tsume-3te.ki2"),
    include_bytes!("corpus/end-tokens.usi"),
    include_bytes!("data/yokofudori.kif"),
    include_bytes!("data/yokofudori.kifu"),
    include_bytes!("data/yokofudori.ki2"),
    include_bytes!("data/yokofudori.ki2u"),
    include_bytes!("data/yokofudori.csa"),
    include_bytes!("data/v3.csa"),
    include_bytes!("data/nimaiochi.kif"),
    include_bytes!("data/nimaiochi.kifu"),
    include_bytes!("data/zukou007.kif"),
    include_bytes!("data/zukou007.bod"),
    include_bytes!("data/zukou-first5.sfen"),
    include_bytes!("data/games.usi"),
];

/// Reads bytes through the one input call (detected, then as every format in turn) and writes
/// every record read in every format: any result is fine but a panic; an error is typed and its
/// excerpt bounded.
fn read_everything(bytes: &[u8]) {
    let forced = Format::ALL.map(Some);
    for format in std::iter::once(None).chain(forced) {
        let options = Options {
            format,
            encoding: None,
        };
        let records =
            Records::new(bytes, Some("input"), options).expect("bytes never fail to read");
        for item in records.take(20) {
            match item {
                Ok(read) => {
                    for f in Format::ALL {
                        let _ = f.write(&read.record);
                    }
                }
                Err(e) => {
                    assert!(
                        e.text.chars().count() <= koma_record::EXCERPT_CHARS * 7,
                        "{e}"
                    );
                    if let Some(p) = &e.partial {
                        for f in Format::ALL {
                            let _ = f.write(p);
                        }
                    }
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Arbitrary bytes into every reader.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        read_everything(&bytes);
    }

    /// Every file cut at any byte (inside a Shift-JIS or UTF-8 character too) into every reader.
    #[test]
    fn truncated_files_never_panic(which in 0usize..FILES.len(), at in 0usize..4000) {
        let file = FILES[which];
        read_everything(&file[..at.min(file.len())]);
    }

    /// Every file with bytes changed, removed or inserted, into every reader.
    #[test]
    fn mutated_files_never_panic(bytes in mutated_bytes(&FILES)) {
        read_everything(&bytes);
    }
}

/// A file cut inside a Shift-JIS character keeps the moves of the lines before the cut, with the
/// encoding error saying where.
#[test]
fn cut_inside_a_character_keeps_the_good_moves() {
    let file = include_bytes!("data/yokofudori.kif");
    let text = encoding::decode(file, None).text;
    let line_15 = text.lines().take(14).map(|l| l.len() + 1).sum::<usize>();
    let sjis_line_15 = encoding::encode(&text[..line_15], encoding::Encoding::ShiftJis)
        .unwrap()
        .len();
    // Cut in the middle of the first double-byte character of line 15, `   5 ２五歩(26)`.
    let cut = &file[..sjis_line_15 + 6];
    let e = Records::new(cut, None, Options::default())
        .unwrap()
        .next()
        .unwrap()
        .unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Encoding { .. }), "{e}");
    assert_eq!(e.line, 15);
    let moves_before = text
        .lines()
        .take(14)
        .filter(|l| l.starts_with("   "))
        .count();
    assert_eq!(e.kept_moves(), moves_before);
    assert!(moves_before > 0);
}

/// Bytes bad from the first line keep nothing: there is no record to write.
#[test]
fn nothing_read_keeps_nothing() {
    let e = Records::new(&b"ab\xff\xfe\n   1 \x82"[..], None, Options::default())
        .unwrap()
        .next()
        .unwrap()
        .unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Encoding { .. }), "{e}");
    assert_eq!(e.partial, None);
}
