//! Real files, round trips and the conversion matrix.

use std::path::PathBuf;

use koma_core::{Move, Position};
use koma_record::encoding::{self, Encoding};
use koma_record::input::{Options, Records};
use koma_record::{EndKind, Format, Record, bod, csa, ki2, kif};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// Reads a data file, detecting encoding and format as the CLI does.
fn read_file(name: &str) -> (Record, Encoding) {
    let bytes = std::fs::read(data(name)).unwrap();
    let decoded = encoding::decode(&bytes, None);
    assert_eq!(decoded.error, None);
    let (text, enc) = (decoded.text, decoded.encoding);
    let format = Format::from_path(name).unwrap();
    let read = format.read(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    (read.record, enc)
}

fn usi_moves(rec: &Record) -> Vec<String> {
    rec.moves().map(|m| m.to_string()).collect()
}

#[test]
fn shift_jis_and_utf8_files_read_the_same() {
    for (sjis, utf8) in [
        ("yokofudori.kif", "yokofudori.kifu"),
        ("nimaiochi.kif", "nimaiochi.kifu"),
        ("yokofudori.ki2", "yokofudori.ki2u"),
    ] {
        let (a, ea) = read_file(sjis);
        let (b, eb) = read_file(utf8);
        assert_eq!((ea, eb), (Encoding::ShiftJis, Encoding::Utf8));
        assert_eq!(a, b, "{sjis} vs {utf8}");
    }
}

#[test]
fn the_game_in_every_format_has_the_same_moves() {
    let (kif, _) = read_file("yokofudori.kif");
    let (ki2, _) = read_file("yokofudori.ki2");
    let (csa, _) = read_file("yokofudori.csa");
    assert_eq!(kif.main().moves().len(), 30);
    assert_eq!(usi_moves(&kif), usi_moves(&ki2));
    assert_eq!(usi_moves(&kif)[..16], usi_moves(&csa)[..]);
    assert_eq!(kif.header("先手"), Some("先手太郎"));
    assert_eq!(csa.header("先手"), Some("先手太郎"));
    assert_eq!(csa.header("戦型"), Some("横歩取り"));
    assert_eq!(kif.main().moves()[14].comments(), ["横歩を取る"]);
    assert_eq!(ki2.main().moves()[14].comments(), ["横歩を取る"]);
    assert_eq!(csa.main().moves()[14].comments(), ["横歩を取る"]);
    assert_eq!(
        kif.main().end().as_ref().map(|e| e.kind),
        Some(EndKind::Interrupt)
    );
    assert_eq!(
        csa.main().end().as_ref().map(|e| e.kind),
        Some(EndKind::Interrupt)
    );
    // The variation at move 16: 角交換.
    let v = &kif.main().moves()[15].variations()[0];
    assert_eq!(
        v.moves()
            .iter()
            .map(|m| m.mv().to_string())
            .collect::<Vec<_>>(),
        ["2b8h+", "7i8h", "B*4e", "3d2d"]
    );
    assert_eq!(v.moves()[0].comments(), ["角交換の変化"]);
    // CSA times are seconds per move; KIF keeps both.
    assert_eq!(csa.main().moves()[14].time().unwrap().used_ms, 72_000);
    assert_eq!(kif.main().moves()[14].time().unwrap().used_ms, 72_000);
    // The total 00:02:09 is the sum of Black's times, so it is recomputed rather than kept.
    assert_eq!(kif.main().moves()[14].time().unwrap().total_ms, None);
    // Written as the file has it, the time at Kakinoki's column.
    assert!(kif::write(&kif).contains("  15 ３四飛(24)   ( 1:12/00:02:09)\n"));
    assert!(kif::write(&csa).contains("  15 ３四飛(24)   ( 1:12/00:02:09)\n"));
}

#[test]
fn handicap_game() {
    let (rec, _) = read_file("nimaiochi.kif");
    assert_eq!(
        rec.initial().to_sfen(),
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(rec.header("上手"), Some("上手の先生"));
    assert_eq!(rec.main().moves().len(), 18);
    let text = ki2::write(&rec);
    assert!(text.contains("手合割：二枚落ち\n"), "{text}");
    assert!(text.starts_with("開始日時："));
    assert!(text.contains("▲５八金右"), "{text}");
    let csa_text = csa::write(&rec);
    assert!(
        csa_text.contains("N-上手の先生\nN+下手の生徒\n"),
        "{csa_text}"
    );
    // CSA has no 上手/下手: they come back as 後手/先手.
    assert_eq!(
        csa::read(&csa_text).unwrap().record.header("先手"),
        Some("下手の生徒")
    );
    assert!(csa_text.contains("\n-\n-7162GI\n"), "{csa_text}");
    assert_eq!(
        usi_moves(&csa::read(&csa_text).unwrap().record),
        usi_moves(&rec)
    );
}

#[test]
fn tsume_in_kif_bod_form() {
    let (rec, enc) = read_file("zukou007.kif");
    assert_eq!(enc, Encoding::ShiftJis);
    assert_eq!(
        rec.initial().to_sfen(),
        "1nkg5/2s6/3rp4/1B7/r8/1PN6/9/9/9 b BG3SN2gn4l16p 1"
    );
    assert_eq!(rec.main().moves().len(), 13);
    assert_eq!(
        rec.main().end().as_ref().map(|e| e.kind),
        Some(EndKind::Mate)
    );
    assert!(rec.position_after(13).is_checkmate());
    assert_eq!(rec.header("作者"), Some("伊藤看寿"));
    let (bod_only, _) = read_file("zukou007.bod");
    assert_eq!(bod_only.initial(), rec.initial());
    assert!(bod_only.main().moves().is_empty());
    let file = std::fs::File::open(data("zukou-first5.sfen")).unwrap();
    let records = Records::new(std::io::BufReader::new(file), None, Options::default()).unwrap();
    let lines: Vec<_> = records.collect();
    assert_eq!(lines.len(), 5);
    assert!(lines.iter().all(Result::is_ok));
}

#[test]
fn csa_version_3() {
    let (rec, _) = read_file("v3.csa");
    assert_eq!(rec.header("TIME"), Some("600+10"));
    assert_eq!(rec.main().moves()[0].time().unwrap().used_ms, 1250);
    assert_eq!(rec.main().end().unwrap().time.unwrap().used_ms, 1000);
    assert_eq!(csa::read(&csa::write(&rec)).unwrap().record, rec);
}

/// Every data file, written in its own format and read again, is the same record.
#[test]
fn same_format_round_trips_keep_everything() {
    for name in [
        "yokofudori.kif",
        "nimaiochi.kif",
        "yokofudori.ki2",
        "yokofudori.csa",
        "v3.csa",
        "zukou007.kif",
        "zukou007.bod",
    ] {
        let (rec, _) = read_file(name);
        let format = Format::from_path(name).unwrap();
        let text = if format == Format::Bod {
            kif::write(&rec)
        } else {
            format.write(&rec)
        };
        let again = format.read(&text).unwrap().record;
        assert_eq!(again, rec, "{name}:\n{text}");
        let bytes = encoding::encode(&text, Encoding::ShiftJis).unwrap();
        assert_eq!(encoding::decode(&bytes, None).text, text);
    }
}

/// CSA→KIF→CSA and every other pair keep the initial position and the main line.
#[test]
fn conversion_matrix_keeps_the_moves() {
    let formats = [
        Format::Csa,
        Format::Kif,
        Format::Ki2,
        Format::Usi,
        Format::Jkf,
    ];
    for name in [
        "yokofudori.kif",
        "nimaiochi.kif",
        "yokofudori.csa",
        "v3.csa",
        "zukou007.kif",
    ] {
        let (rec, _) = read_file(name);
        for a in formats {
            let in_a = a.read(&a.write(&rec)).unwrap().record;
            for b in formats {
                let in_b = b.read(&b.write(&in_a)).unwrap().record;
                let back = a.read(&a.write(&in_b)).unwrap().record;
                assert_eq!(back.initial(), rec.initial(), "{name} {a:?}->{b:?}->{a:?}");
                assert_eq!(
                    usi_moves(&back),
                    usi_moves(&rec),
                    "{name} {a:?}->{b:?}->{a:?}"
                );
            }
        }
        // Headers with a place in both formats survive KIF <-> CSA.
        let via_csa = kif::read(&kif::write(&csa::read(&csa::write(&rec)).unwrap().record))
            .unwrap()
            .record;
        for key in ["先手", "後手", "棋戦", "開始日時"]
            .into_iter()
            .filter(|k| rec.header(k).is_some())
        {
            assert_eq!(via_csa.header(key), rec.header(key), "{name} {key}");
        }
    }
}

/// All 100 problems of 将棋図巧 with their recorded answers, through every format.
#[test]
fn zukou_problems_through_every_format() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/tsume/zukou.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (the data file is part of the repository)",
            path.display()
        )
    });
    let mut checked = 0;
    for line in text.lines() {
        let sfen = field(line, "\"sfen\": \"");
        let moves_text = field(line, "\"solution_usi\": [");
        let mut rec = Record::new(Position::from_sfen(&sfen).unwrap());
        for m in moves_text
            .split(", ")
            .map(|m| m.trim_matches('"'))
            .filter(|m| !m.is_empty())
        {
            let mv: Move = m.parse().unwrap();
            rec.push(mv).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        }
        rec.edit_main()
            .set_end(Some(koma_record::GameEnd::new(EndKind::Mate)));
        for f in [Format::Csa, Format::Kif, Format::Ki2, Format::Usi] {
            let back = f
                .read(&f.write(&rec))
                .unwrap_or_else(|e| panic!("{sfen} {f:?}: {e}"))
                .record;
            assert_eq!(back.initial(), rec.initial(), "{sfen} {f:?}");
            assert_eq!(back.main().moves(), rec.main().moves(), "{sfen} {f:?}");
        }
        let diagram = bod::write(rec.initial());
        assert_eq!(&bod::read(&diagram).unwrap(), rec.initial());
        checked += 1;
    }
    assert_eq!(checked, 100);
}

/// The text of a JSON string field or array (enough JSON for the data file's fixed layout).
fn field(line: &str, key: &str) -> String {
    let start = line.find(key).unwrap() + key.len();
    let end = line[start..].find(['"', ']']).unwrap();
    line[start..start + end].to_owned()
}

#[test]
fn a_record_built_in_code_writes_everywhere() {
    let mut rec = Record::new(Position::startpos());
    for m in ["7g7f", "3c3d", "8h2b+", "3a2b"] {
        rec.push(m.parse().unwrap()).unwrap();
    }
    rec.edit_main()
        .comments_mut(0)
        .unwrap()
        .push("first".into());
    for f in Format::ALL {
        assert!(!f.write(&rec).is_empty());
    }
}
