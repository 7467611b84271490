//! Bad input: errors name the line, the text and what was expected; nothing panics; the good
//! part of a record survives an illegal move.

use koma_record::{ErrorKind, Format, csa, encoding, ki2, kif, usi};
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
    assert_eq!(e.partial.as_ref().unwrap().main.moves.len(), 12);
    assert!(
        e.to_string().starts_with(
            "line 23, column 6: `同　歩(88)`: illegal move at ply 13 (expected a legal move in "
        ),
        "{e}"
    );

    let e = ki2::read(&KI2.replace("▲同　飛    △８六歩", "▲同　飛    △８六桂")).unwrap_err();
    assert_eq!((e.line, e.text.as_str()), (7, "△８六桂"));
    assert_eq!(e.partial.unwrap().main.moves.len(), 11);

    let e = csa::read(&CSA.replace("-8286HI", "-8286KA")).unwrap_err();
    assert_eq!((e.line, e.text.as_str()), (42, "-8286KA"));
    assert_eq!(e.partial.unwrap().main.moves.len(), 13);

    let e = kif::read("先手：A\nこれは何\n").unwrap_err();
    assert_eq!((e.line, e.column, e.text.as_str()), (2, 1, "これは何"));
    assert!(e.to_string().contains("expected a header line"), "{e}");

    let e = usi::read("startpos moves 7g7f 8c8d 7f7e x").unwrap_err();
    assert_eq!((e.column, e.text.as_str()), (31, "x"));
    assert_eq!(e.partial, None);

    let e = encoding::decode(b"\x82\xa0\n\x82", Some(encoding::Encoding::ShiftJis)).unwrap_err();
    assert_eq!((e.line, e.column), (2, 1));
}

#[test]
fn illegal_position_is_an_error_not_a_panic() {
    let e =
        kif::read(&koma_record::bod::write(&koma_core::Position::startpos()).replace("v玉", "v歩"))
            .unwrap_err();
    assert!(matches!(e.kind, ErrorKind::IllegalPosition { .. }), "{e}");
    let e = csa::read("P1-OU-OU\nP2\n+\n").unwrap_err();
    assert_eq!(e.line, 1);
}

/// Inputs the fuzzer found (crates/koma-record/fuzz): each must read and write back the same,
/// or be an error.
#[test]
fn fuzzer_findings() {
    // A header line with an empty key among the moves.
    assert!(kif::read("   1 ７六歩(77)\n:03\u{b}:\n").is_err());
    // A hand line of a diagram among the moves is not a header.
    assert!(kif::read("   1 ７六歩(77)\n後手の持駒:::\n").is_err());
    // Two 手合割 headers are both kept.
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
