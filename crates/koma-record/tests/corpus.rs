//! The record corpus (tests/corpus, sources in tests/corpus/SOURCES.md): every file opens through
//! the one input call, the same from its path and as nameless bytes (standard input), and each
//! problem real files showed is checked on the file that shows it.

use std::path::PathBuf;

use koma_record::encoding::Encoding;
use koma_record::input::{self, Options, Records};
use koma_record::output::RecordWriter;
use koma_record::{EndKind, ErrorKind, Format, Read, Record, WarningKind, ki2, kif, usi};

fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(name)
}

/// Every file of the corpus, with the encoding and format its content has.
const CORPUS: [(&str, Encoding, Format); 28] = [
    (
        "meijinsen_20180508_M7_10034.kifu",
        Encoding::Utf8,
        Format::Kif,
    ),
    ("fuujite.ki2u", Encoding::Utf8, Format::Ki2),
    ("doh_branch.kifu", Encoding::Utf8, Format::Kif),
    ("shogidokoro.kifu", Encoding::Utf8, Format::Kif),
    ("same_move_minimal.jkf", Encoding::Utf8, Format::Jkf),
    ("tsume-3te.kif", Encoding::ShiftJis, Format::Kif),
    ("tsume-3te.ki2", Encoding::ShiftJis, Format::Ki2),
    ("tsume-3te-de.ki2u", Encoding::Utf8, Format::Ki2),
    ("hansoku.ki2u", Encoding::Utf8, Format::Ki2),
    ("kachi.csa", Encoding::Utf8, Format::Csa),
    ("old-tournament.csa", Encoding::EucJp, Format::Csa),
    ("bom.kifu", Encoding::Utf8, Format::Kif),
    ("teai-conflict.kif", Encoding::ShiftJis, Format::Kif),
    ("teai-twice.kifu", Encoding::Utf8, Format::Kif),
    ("end-tokens.usi", Encoding::Utf8, Format::Usi),
    ("forks.jkf", Encoding::Utf8, Format::Jkf),
    ("../data/zukou-first5.sfen", Encoding::Utf8, Format::Sfen),
    ("space-before-origin.kif", Encoding::ShiftJis, Format::Kif),
    ("wars-no-position.csa", Encoding::Utf8, Format::Csa),
    ("v3-headers.csa", Encoding::Utf8, Format::Csa),
    ("clipboard-trailer.ki2u", Encoding::Utf8, Format::Ki2),
    ("mochi-goma.kifu", Encoding::Utf8, Format::Kif),
    ("no-move-number.sfen", Encoding::Utf8, Format::Sfen),
    ("nifu.kif", Encoding::ShiftJis, Format::Kif),
    ("nifu.ki2u", Encoding::Utf8, Format::Ki2),
    ("bookmarks.kifu", Encoding::Utf8, Format::Kif),
    ("inline-notes.kifu", Encoding::Utf8, Format::Kif),
    ("bookmarks.ki2u", Encoding::Utf8, Format::Ki2),
];

/// The records of a corpus file read from its path (a missing file fails the test).
fn read_path(name: &str) -> Vec<Read> {
    let records = input::open(&path(name), Options::default())
        .unwrap_or_else(|e| panic!("{name}: {e} (the corpus is part of the repository)"));
    records
        .map(|r| r.unwrap_or_else(|e| panic!("{name}: {e}")))
        .collect()
}

fn one(name: &str) -> Read {
    let mut all = read_path(name);
    assert_eq!(all.len(), 1, "{name}");
    all.remove(0)
}

fn usi_moves(rec: &Record) -> Vec<String> {
    rec.moves().map(|m| m.to_string()).collect()
}

fn end(rec: &Record) -> Option<EndKind> {
    rec.main().end().map(|e| e.kind)
}

/// Every file: encoding and format detected from the content, the same records from the path
/// and from nameless bytes (as from standard input), and written in every format and read back
/// with the same main line where the format holds moves.
#[test]
fn every_file_opens_the_same_from_path_and_stdin() {
    for (name, encoding, format) in CORPUS {
        let bytes = std::fs::read(path(name)).unwrap();
        let records = Records::new(&bytes[..], None, Options::default()).unwrap();
        assert_eq!(
            (records.detected().encoding, records.detected().format),
            (encoding, format),
            "{name}"
        );
        let from_stdin: Vec<Read> = records.map(|r| r.unwrap()).collect();
        let from_path = read_path(name);
        assert_eq!(from_stdin, from_path, "{name}");
        for read in &from_path {
            let rec = &read.record;
            for f in [
                Format::Csa,
                Format::Kif,
                Format::Ki2,
                Format::Usi,
                Format::Jkf,
            ] {
                let back = f
                    .read(&f.write(rec))
                    .unwrap_or_else(|e| panic!("{name} {f:?}: {e}"));
                assert_eq!(back.record.initial(), rec.initial(), "{name} {f:?}");
                assert_eq!(usi_moves(&back.record), usi_moves(rec), "{name} {f:?}");
            }
        }
    }
}

/// Item 1: a tsume problem with a diagram is KIF (or KI2) by its content, even as bytes with no
/// name; and the problem's line ends in mate.
#[test]
fn tsume_diagrams_by_content() {
    for name in ["tsume-3te.kif", "tsume-3te.ki2", "tsume-3te-de.ki2u"] {
        let rec = one(name).record;
        assert_eq!(
            rec.initial().to_sfen(),
            "8k/6n2/5g3/7P1/9/9/9/9/4K4 b RG 1",
            "{name}"
        );
        assert_eq!(rec.main().moves().len(), 3, "{name}");
        assert!(rec.position_after(3).is_checkmate(), "{name}");
        assert_eq!(end(&rec), Some(EndKind::Mate), "{name}");
    }
    let kif = one("tsume-3te.kif").record;
    assert_eq!(kif.main().moves()[0].comments(), ["王手"]);
    assert_eq!(usi_moves(&kif), usi_moves(&one("tsume-3te.ki2").record));
}

/// Item 2 and 3: the closing lines and 封じ手, through one table of ends.
#[test]
fn ki2_results_and_sealed_moves() {
    let rec = one("hansoku.ki2u").record;
    assert_eq!(end(&rec), Some(EndKind::IllegalMove));
    assert!(ki2::write(&rec).ends_with("まで2手で後手の反則勝ち\n"));
    let rec = one("fuujite.ki2u").record;
    assert_eq!(end(&rec), Some(EndKind::Sealed));
    assert_eq!(rec.header("手合割"), Some("八枚落ち"));
    assert_eq!(usi_moves(&rec), ["6a7b", "7g7f"]);

    let meijin = one("meijinsen_20180508_M7_10034.kifu").record;
    assert_eq!(meijin.main().moves().len(), 52);
    let sealed = meijin.main().end().unwrap();
    assert_eq!(sealed.kind, EndKind::Sealed);
    assert_eq!(sealed.time.unwrap().used_ms, 25 * 60 * 1000);
    assert_eq!(meijin.header("先手"), Some("羽生 善治竜王"));
    let kif_text = kif::write(&meijin);
    assert!(kif_text.contains("\n  53 封じ手"), "{kif_text}");
    assert!(kif_text.contains("まで52手で封じ手\n"), "{kif_text}");
    // CSA has no sealed move: the nearest, %CHUDAN, and a remark saying so.
    assert!(Format::Csa.write(&meijin).contains("\n%CHUDAN\n"));
    assert_eq!(
        Format::Csa.losses(&meijin),
        ["CSA has no special move for 封じ手; written as CHUDAN"]
    );
}

/// Item 4: CSA comments after commas, and EUC-JP.
#[test]
fn csa_comments_after_commas_and_euc_jp() {
    let rec = one("kachi.csa").record;
    assert_eq!(usi_moves(&rec), ["7g7f", "3c3d", "2g2f", "8c8d"]);
    let moves = rec.main().moves();
    assert_eq!(moves[0].time().unwrap().used_ms, 0);
    assert_eq!(moves[0].comments(), ["T0 depth 1 score 0"]);
    assert_eq!(moves[1].comments(), [" 30 8c8d"]);
    assert_eq!(moves[2].comments(), ["* 45 8c8d 2f2e"]);
    let kachi = rec.main().end().unwrap();
    assert_eq!(kachi.kind, EndKind::DeclareWin);
    assert_eq!(kachi.comments, [" -5000 win"]);

    let rec = one("old-tournament.csa").record;
    assert_eq!(rec.header("先手"), Some("先手の名人"));
    assert_eq!(rec.header("棋戦"), Some("第一回コーパス杯"));
    assert_eq!(rec.main().moves()[0].comments(), ["初手は角道を開ける"]);
    assert_eq!(end(&rec), Some(EndKind::Resign));
}

/// Item 5: USI records ending in a game-end token.
#[test]
fn usi_end_tokens() {
    let all = read_path("end-tokens.usi");
    let kinds: Vec<Option<EndKind>> = all.iter().map(|r| end(&r.record)).collect();
    // Written as USI, each keeps its token.
    for read in &all {
        let again = usi::read(&usi::write(&read.record)).unwrap().record;
        assert_eq!(again, read.record);
    }
    use EndKind::*;
    assert_eq!(
        kinds,
        [
            Repetition,
            Resign,
            DeclareWin,
            Draw,
            SuperiorPosition,
            InferiorPosition,
            IllegalWin,
            IllegalMove,
            TimeUp,
            Interrupt
        ]
        .map(Some)
    );
}

/// Item 6: many records written in the format's own form read back as many records.
#[test]
fn many_records_round_trip_in_csa_and_usi() {
    let records: Vec<Record> = read_path("end-tokens.usi")
        .into_iter()
        .map(|r| r.record)
        .collect();
    for format in [Format::Csa, Format::Usi, Format::Sfen] {
        let mut w = RecordWriter::new(Vec::new(), format, Encoding::Utf8);
        for r in &records {
            w.write(r).unwrap();
        }
        let bytes = w.finish().unwrap();
        let back: Vec<Record> = Records::new(&bytes[..], None, Options::default())
            .unwrap()
            .map(|r| r.unwrap().record)
            .collect();
        assert_eq!(back.len(), records.len(), "{format:?}");
        for (a, b) in back.iter().zip(&records) {
            assert_eq!(a.initial(), b.initial(), "{format:?}");
            if format != Format::Sfen {
                assert_eq!(usi_moves(a), usi_moves(b), "{format:?}");
            }
        }
    }
}

/// Item 9: the moves before a problem are kept by every reader, and counted.
#[test]
fn every_reader_keeps_the_moves_before_a_problem() {
    let rec = one("meijinsen_20180508_M7_10034.kifu").record;
    let cases: [(Format, &str, &str); 4] = [
        (Format::Kif, "  31 ９六歩(97)", "  31 ９六X(97)"),
        (Format::Ki2, "▲９六歩", "▲９六X"),
        (Format::Csa, "+9796FU", "+9796XX"),
        (Format::Usi, " 9g9f ", " 9g9x "),
    ];
    for (format, good, bad) in cases {
        let text = format.write(&rec);
        assert!(text.contains(good), "{format:?}: {good} not in\n{text}");
        let e = format.read(&text.replacen(good, bad, 1)).unwrap_err();
        assert_eq!(e.kept_moves(), 30, "{format:?}: {e}");
    }
    // JKF: move 31 sent to a square off the board.
    let mut tree: serde_json::Value = serde_json::from_str(&Format::Jkf.write(&rec)).unwrap();
    tree["moves"][31]["move"]["to"]["x"] = 19.into();
    let e = Format::Jkf.read(&tree.to_string()).unwrap_err();
    assert_eq!(e.kept_moves(), 30, "{e}");
    assert!(
        e.to_string()
            .starts_with("at moves[31].move.to: expected a square"),
        "{e}"
    );
}

/// Item 10: two 手合割 that disagree: a warning, the one the diagram shows (else the first), and
/// one written.
#[test]
fn conflicting_handicap_headers() {
    let read = one("teai-conflict.kif");
    assert_eq!(
        read.record.initial().to_sfen(),
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(read.record.header("手合割"), Some("香落ち"));
    assert!(
        read.warnings.iter().any(|w| matches!(
            &w.kind,
            WarningKind::HandicapConflict { kept, shown_by_diagram: true, .. } if kept == "香落ち"
        ) && w
            .kind
            .to_string()
            .contains("kept 香落ち, the one the board diagram shows")),
        "{:?}",
        read.warnings
    );
    assert_eq!(kif::write(&read.record).matches("手合割").count(), 1);

    let read = one("teai-twice.kifu");
    assert_eq!(read.record.initial(), &koma_core::Position::startpos());
    assert_eq!(read.record.header("手合割"), Some("平手"));
    assert!(read.warnings.iter().any(|w| matches!(
        w.kind,
        WarningKind::HandicapConflict {
            shown_by_diagram: false,
            ..
        }
    ) && w.kind.to_string().contains("the first")));
    assert_eq!(kif::write(&read.record).matches("手合割").count(), 1);
}

/// Item 11: JKF read and written with its variations and comments, and KIF's tree through JKF.
#[test]
fn jkf_with_variations_and_comments() {
    let rec = one("forks.jkf").record;
    assert_eq!(rec.comments(), ["初期局面へのコメント"]);
    assert_eq!(usi_moves(&rec), ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
    let third = &rec.main().moves()[2];
    assert_eq!(third.variations().len(), 2);
    let v0: Vec<String> = third.variations()[0]
        .moves()
        .iter()
        .map(|m| m.mv().to_string())
        .collect();
    assert_eq!(v0, ["2g2f", "8c8d"]);
    assert_eq!(third.variations()[0].moves()[0].comments(), ["居飛車"]);
    assert_eq!(
        third.variations()[0].end().map(|e| e.kind),
        Some(EndKind::Interrupt)
    );
    assert_eq!(third.variations()[1].moves()[0].mv().to_string(), "6g6f");
    assert_eq!(rec.main().moves()[1].time().unwrap().used_ms, 62_000);
    assert_eq!(rec.main().end().unwrap().comments, ["後手投了"]);
    let jkf = Format::Jkf.write(&rec);
    assert_eq!(Format::Jkf.read(&jkf).unwrap().record, rec, "{jkf}");
    // KIF's variations of variations survive KIF -> JKF -> KIF.
    let doh = one("doh_branch.kifu").record;
    let via = Format::Jkf.read(&Format::Jkf.write(&doh)).unwrap().record;
    assert_eq!(kif::write(&via), kif::write(&doh));
    let minimal = one("same_move_minimal.jkf").record;
    assert_eq!(
        usi_moves(&minimal),
        ["7g7f", "3c3d", "8h2b+", "3a2b", "2g2f"]
    );
}

/// UTF-8 with a byte-order mark.
#[test]
fn byte_order_mark() {
    let read = one("bom.kifu");
    assert_eq!(read.record.header("先手"), Some("ボム太郎"));
    assert_eq!(end(&read.record), Some(EndKind::Resign));
}

/// Real files put spaces where the format has none: between a move and its origin
/// (`同銀　(79)`, Kifu for Android) and a tab after the move number. The time still reads, and
/// KIF is written back with Kakinoki's spacing (the time after a field of 13 columns).
#[test]
fn space_before_the_origin() {
    let read = one("space-before-origin.kif");
    assert!(read.warnings.is_empty(), "{:?}", read.warnings);
    let rec = read.record;
    let moves = rec.main().moves();
    assert_eq!(moves.len(), 24);
    assert_eq!(moves[4].mv().to_string(), "7i8h");
    assert_eq!(moves[4].time().unwrap().used_ms, 0);
    assert_eq!(moves[7].mv().to_string(), "7a6b");
    assert_eq!(moves[7].time().unwrap().used_ms, 1000);
    assert_eq!(moves[23].mv().to_string(), "5d4e");
    assert_eq!(end(&rec), Some(EndKind::Resign));
    let text = kif::write(&rec);
    for line in [
        "   5 同　銀(79)   ( 0:00/00:00:07)\n",
        "   4 ８八角成(22) ( 0:02/00:00:02)\n",
        "  17 ４五角打     ( 0:01/00:00:22)\n",
        "  25 投了         ( 0:05/00:00:33)\n",
    ] {
        assert!(text.contains(line), "{line} not in\n{text}");
    }
}

/// CSA as 将棋ウォーズ exports give no version and no position: the standard start, with a
/// warning, rather than an empty board refused as "no king".
#[test]
fn csa_without_a_position() {
    let read = one("wars-no-position.csa");
    assert!(
        read.warnings.iter().any(|w| w.line == 8
            && w.kind == WarningKind::NoInitialPosition
            && w.to_string().contains("read from the standard start")),
        "{:?}",
        read.warnings
    );
    let rec = read.record;
    assert_eq!(rec.initial(), &koma_core::Position::startpos());
    assert_eq!(rec.header("先手"), Some("sente_player 三段"));
    assert_eq!(rec.header("棋戦"), Some("将棋ウォーズ(10分切れ負け)"));
    assert_eq!(rec.header("X_FINAL"), Some("投了"));
    assert_eq!(rec.main().moves().len(), 12);
    assert_eq!(rec.main().moves()[1].time().unwrap().used_ms, 0);
    assert_eq!(end(&rec), Some(EndKind::Resign));
}

/// CSA 3.0 headers: a player's own time (`$TIME+:`, `$TIME-:`), values with commas kept whole,
/// times with fractions.
#[test]
fn csa_3_0_headers() {
    let read = one("v3-headers.csa");
    assert!(read.warnings.is_empty(), "{:?}", read.warnings);
    let rec = read.record;
    assert_eq!(rec.header("棋戦"), Some("第1回 koma 杯, 予選 A 組"));
    assert_eq!(rec.header("TIME+"), Some("600+10+0"));
    assert_eq!(rec.header("TIME-"), Some("300+10+0"));
    assert_eq!(rec.header("NOTE"), Some("持ち時間は先手 10 分, 後手 5 分"));
    assert_eq!(rec.main().moves()[0].time().unwrap().used_ms, 1250);
    assert_eq!(rec.main().moves()[0].comments(), ["* 30 3c3d 2g2f"]);
    assert_eq!(rec.main().end().unwrap().time.unwrap().used_ms, 3000);
    // Written and read back: the same headers.
    let again = Format::Csa.read(&Format::Csa.write(&rec)).unwrap();
    assert!(again.warnings.is_empty(), "{:?}", again.warnings);
    assert_eq!(again.record.headers(), rec.headers());
}

/// A KI2 copied from a program's clipboard: `先手: a / 後手: b`, moves run together, and a rule
/// and a `generated by` note after the moves, which are kept as comments with a warning.
#[test]
fn ki2_with_a_trailer() {
    let read = one("clipboard-trailer.ki2u");
    assert_eq!(read.record.main().moves().len(), 19);
    let last = read.record.main().moves().last().unwrap();
    assert_eq!(last.mv().to_string(), "4h5g");
    assert_eq!(
        last.comments(),
        [
            "------------------------------",
            "generated by a clipboard export"
        ]
    );
    let lines: Vec<usize> = read.warnings.iter().map(|w| w.line).collect();
    assert_eq!(lines, [7, 8], "{:?}", read.warnings);
    // A line that looks like a move is still refused, not skipped.
    let e = ki2::read("▲７六歩\n△３四X\n").unwrap_err();
    assert_eq!((e.line, e.kept_moves()), (2, 1), "{e}");
}

/// Hands written `の持ち駒` (as some programs spell it) are the diagram's hands, not unknown
/// headers dropped with the pieces in them.
#[test]
fn hands_spelled_mochi_goma() {
    let read = one("mochi-goma.kifu");
    assert!(read.warnings.is_empty(), "{:?}", read.warnings);
    let rec = read.record;
    assert_eq!(
        rec.initial().to_sfen(),
        "8k/9/8P/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
    );
    assert!(rec.position_after(1).is_checkmate());
    assert_eq!(end(&rec), Some(EndKind::Mate));
}

/// SFEN written without its move number reads from move 1, with a warning each.
#[test]
fn sfen_without_a_move_number() {
    let all = read_path("no-move-number.sfen");
    assert_eq!(all.len(), 3);
    for read in &all {
        assert_eq!(read.record.initial().ply(), 1);
        assert_eq!(read.warnings[0].kind, WarningKind::MissingMoveNumber);
        assert!(read.warnings[0].to_string().contains("no move number"));
    }
    assert_eq!(usi_moves(&all[1].record), ["7g7f", "3c3d"]);
    assert_eq!(usi_moves(&all[2].record), ["G*2c", "2b2c", "S*2b"]);
    // An error after the inserted move number points into the line as written.
    let e = usi::read_line(1, "8k/9/9/9/9/9/9/9/8K b G moves G*1x").unwrap_err();
    assert_eq!((e.column, e.text.as_str()), (31, "G*1x"), "{e}");
}

/// A game that ends with a foul (二歩, as professional records keep it): the illegal move is
/// written, then the winner's `反則勝ち` (KIF) or the closing line naming the foul (KI2). The
/// line ends before the illegal move with the foul as its end, the move and its comment kept in
/// the end's comments, and a warning; written and read back, the same record.
#[test]
fn a_game_ending_in_a_foul() {
    for (name, written) in [("nifu.kif", "３三歩打"), ("nifu.ki2u", "△３三歩")] {
        let read = one(name);
        assert_eq!(read.warnings.len(), 1, "{name}: {:?}", read.warnings);
        assert!(
            matches!(
                read.warnings[0].kind,
                WarningKind::FoulEndsRecord { ply: 10, .. }
            ) && read.warnings[0]
                .to_string()
                .contains("(move 10) is illegal"),
            "{name}"
        );
        let rec = read.record;
        assert_eq!(rec.main().moves().len(), 9, "{name}");
        assert_eq!(end(&rec), Some(EndKind::IllegalMove), "{name}");
        assert_eq!(
            rec.main().end().unwrap().comments,
            [format!("反則手 {written}"), "二歩の反則".to_owned()],
            "{name}"
        );
        for format in [Format::Kif, Format::Ki2, Format::Csa] {
            let again = format.read(&format.write(&rec)).unwrap().record;
            assert_eq!(usi_moves(&again), usi_moves(&rec), "{name} as {format:?}");
            assert_eq!(
                end(&again),
                Some(EndKind::IllegalMove),
                "{name} as {format:?}"
            );
        }
    }
    // An illegal move that nothing names as the game's foul is the error it is, with the moves
    // before it kept: followed by another move, by a result that is no foul, or by nothing.
    for text in [
        "   1 ７六歩(77)\n   2 ７六歩(77)\n   3 ２六歩(27)\n",
        "   1 ７六歩(77)\n   2 ７六歩(77)\nまで2手で後手の勝ち\n",
        "   1 ７六歩(77)\n   2 ７六歩(77)\n*コメント\n",
        "   1 ７六歩(77)\n   2 ７六歩(77)\n   3 反則負け\n",
    ] {
        let e = kif::read(text).unwrap_err();
        assert!(
            matches!(e.kind, ErrorKind::IllegalMove { ply: 2, .. }),
            "{text}: {e}"
        );
        assert_eq!((e.line, e.kept_moves()), (2, 1), "{text}: {e}");
    }
    for text in [
        "▲７六歩\n△７六歩\n▲２六歩\n",
        "▲７六歩\n△７六歩 ▲２六歩\nまで3手で後手の反則負け\n",
        "▲７六歩\n△７六歩\n",
    ] {
        let e = ki2::read(text).unwrap_err();
        assert!(
            matches!(e.kind, ErrorKind::IllegalMove { ply: 2, .. }),
            "{text}: {e}"
        );
        assert_eq!(e.kept_moves(), 1, "{text}: {e}");
    }
}

/// A stream whose first [`input::HEAD_BYTES`] are plain ASCII (floodgate games with ASCII
/// names) and whose Japanese text starts later: the encoding is settled by the first bytes
/// that are not ASCII, with a warning naming their line, instead of reading Shift-JIS as UTF-8.
#[test]
fn encoding_settled_after_an_ascii_head() {
    let game = "V2.2\nN+alpha\nN-beta\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n/\n";
    let count = input::HEAD_BYTES / game.len() + 1;
    let mut bytes = game.repeat(count).into_bytes();
    let late = "V2.2\nN+先手の人\nN-beta\nPI\n+\n+2726FU\n%TORYO\n";
    bytes.extend(koma_record::encoding::encode(late, Encoding::ShiftJis).unwrap());
    let all: Vec<Read> = Records::new(&bytes[..], None, Options::default())
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(all.len(), count + 1);
    let last = &all[count];
    assert_eq!(last.record.header("先手"), Some("先手の人"));
    let line = 9 * count + 2;
    assert!(
        last.warnings.iter().any(|w| w.line == line
            && w.kind
                == WarningKind::EncodingFound {
                    encoding: Encoding::ShiftJis
                }
            && w.to_string().contains("Shift-JIS")),
        "{:?}",
        last.warnings
    );
}

/// Bookmarks (しおり, `&` lines, as Kifu for Windows and ShogiHome write them) are kept on their
/// positions (the initial one, after a move, after the last move when they follow the end, in
/// variations), written back by KIF and KI2, and named as a loss by the formats without them.
#[test]
fn bookmarks_are_kept() {
    let read = one("bookmarks.kifu");
    assert!(read.warnings.is_empty(), "{:?}", read.warnings);
    let rec = read.record;
    assert_eq!(rec.bookmark(), Some("開始局面"));
    assert_eq!(rec.comments(), ["開始局面のコメント"]);
    let marks: Vec<Option<&str>> = rec.main().moves().iter().map(|m| m.bookmark()).collect();
    let mut want = vec![None; 8];
    want[5] = Some("基本図");
    want[6] = Some("途中図");
    want[7] = Some("投了図");
    assert_eq!(marks, want);
    assert_eq!(rec.main().moves()[6].comments(), ["7手目のコメント"]);
    let variation = &rec.main().moves()[6].variations()[0];
    assert_eq!(variation.moves()[0].bookmark(), Some("変化図"));
    assert!(rec.has_bookmarks());
    let again = kif::read(&kif::write(&rec)).unwrap();
    assert!(again.warnings.is_empty(), "{:?}", again.warnings);
    assert_eq!(again.record, rec);
    for format in [Format::Csa, Format::Usi, Format::Jkf] {
        assert!(
            format.losses(&rec).iter().any(|l| l.contains("bookmarks")),
            "{format:?}"
        );
    }
    assert!(Format::Kif.losses(&rec).is_empty());

    let read = one("bookmarks.ki2u");
    assert!(read.warnings.is_empty(), "{:?}", read.warnings);
    let rec = read.record;
    assert_eq!(rec.bookmark(), Some("開始局面"));
    assert_eq!(rec.main().moves()[5].bookmark(), Some("基本図"));
    assert_eq!(rec.main().moves()[6].bookmark(), Some("途中図"));
    assert_eq!(ki2::read(&ki2::write(&rec)).unwrap().record, rec);

    // Where no position of its own is there, a bookmark is skipped with a warning.
    let read = kif::read("   1 ７六歩(77)\n&一\n&二\n\n変化：1手\n&三\n   1 ２六歩(27)\n").unwrap();
    assert_eq!(read.record.main().moves()[0].bookmark(), Some("一"));
    let lines: Vec<usize> = read.warnings.iter().map(|w| w.line).collect();
    assert_eq!(lines, [3, 6], "{:?}", read.warnings);
}

/// A comment (`*…`) or bookmark (`&…`) written on a move's own line, after the move, after its
/// time, after a full-width space or after an end word, is kept as if on the next line (it was
/// refused as "expected a time"); written back on lines of their own, the same record.
#[test]
fn inline_notes_after_a_move_are_kept() {
    let read = one("inline-notes.kifu");
    assert!(read.warnings.is_empty(), "{:?}", read.warnings);
    let rec = read.record;
    let moves = rec.main().moves();
    assert_eq!(
        usi_moves(&rec),
        ["7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e"]
    );
    assert_eq!(moves[0].comments(), ["初手のコメント"]);
    assert_eq!(moves[1].comments(), ["角道を開ける"]);
    assert_eq!(moves[1].time().map(|t| t.used_ms), Some(2_000));
    assert_eq!(moves[2].bookmark(), Some("しおり"));
    assert_eq!(moves[3].bookmark(), Some("居飛車*しおりの名前の続き"));
    assert_eq!(moves[3].comments(), ["次の行のコメント"]);
    assert_eq!(moves[4].comments(), ["全角空白のあと"]);
    assert_eq!(end(&rec), Some(EndKind::Resign));
    assert_eq!(rec.main().end().unwrap().comments, ["先手の投了"]);
    let variation = &moves[5].variations()[0];
    assert_eq!(variation.moves()[0].comments(), ["変化のコメント"]);
    let again = kif::read(&kif::write(&rec)).unwrap();
    assert!(again.warnings.is_empty(), "{:?}", again.warnings);
    assert_eq!(again.record, rec);

    // After an illegal move the record's result names as its foul, the comment goes with it.
    let text = "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７五歩打*二歩\n   4 反則勝ち\n";
    let read = kif::read(text).unwrap();
    assert_eq!(
        read.record.main().end().unwrap().comments,
        ["反則手 ７五歩打", "二歩"]
    );
}

/// A corpus file that is not there fails, as any missing test data must.
#[test]
fn a_missing_file_is_an_error() {
    let e = input::open(&path("no-such-file.kif"), Options::default())
        .err()
        .unwrap();
    assert!(matches!(
        e.kind,
        ErrorKind::Io {
            kind: std::io::ErrorKind::NotFound,
            ..
        }
    ));
    let _ = usi::read("startpos");
}
