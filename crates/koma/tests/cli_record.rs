//! `koma convert` and `koma show` end to end.

mod common;

/// Whether `koma` succeeded, its standard output and its standard error.
fn koma(args: &[&str], stdin: &str) -> (bool, String, String) {
    let run = common::koma(args, stdin);
    (run.code == 0, run.out, run.err)
}

fn data(name: &str) -> String {
    format!(
        "{}/../koma-record/tests/data/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn convert_detects_encoding_and_format() {
    let (ok, out, _) = koma(&["convert", &data("nimaiochi.kif"), "--to", "usi"], "");
    assert!(ok);
    assert!(out.starts_with(
        "position sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 7a6b 7g7f"
    ));
    let (ok, out, _) = koma(
        &["convert", "-", "--to", "ki2"],
        "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n",
    );
    assert!(ok);
    assert_eq!(out, "▲７六歩    △３四歩\nまで2手で後手の勝ち\n");
}

#[test]
fn convert_writes_shift_jis_kif_files() {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("koma-cli-test-{}.kif", std::process::id()));
    let p = path.to_str().unwrap();
    let (ok, _, _) = koma(
        &["convert", "-", "--from", "usi", "--to", "kif", "--out", p],
        "startpos moves 7g7f",
    );
    assert!(ok);
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "a .kif file is Shift-JIS"
    );
    let (ok, out, _) = koma(&["convert", "-", "--to", "usi"], "");
    assert!(!ok && out.is_empty());
}

#[test]
fn bad_input_is_one_line_and_keeps_the_good_part() {
    let (ok, out, err) = koma(
        &["convert", "-", "--from", "kif", "--to", "usi"],
        "   1 ７六歩(77)\n   2 ７六歩(77)\n",
    );
    assert!(!ok);
    assert_eq!(out, "position startpos moves 7g7f\n");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("koma: error: -: line 2, column 6: `７六歩(77)`: illegal move at ply 2"),
        "{err}"
    );
}

#[test]
fn show_draws_positions() {
    let (ok, out, _) = koma(&["show", "startpos moves 7g7f"], "");
    assert!(ok);
    assert!(out.starts_with("後手の持駒：なし\n"), "{out}");
    assert!(out.contains("手数＝1  ▲７六歩  まで"), "{out}");
    let (ok, out, _) = koma(
        &["show", &data("yokofudori.kif"), "--move", "2", "--ascii"],
        "",
    );
    assert!(ok);
    assert!(out.contains("Black to move, move 3"), "{out}");
    let (ok, _, err) = koma(&["show", "not a position"], "");
    assert!(!ok && err.starts_with("koma: error:"));
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("koma-cli-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A KIF tsume problem (a diagram, no extension to go by) reads the same from a path without an
/// extension and from standard input.
#[test]
fn format_from_content_for_paths_and_stdin() {
    let bytes = std::fs::read(data("zukou007.kif")).unwrap();
    let path = temp("problem");
    std::fs::write(&path, &bytes).unwrap();
    let (ok, from_path, _) = koma(&["convert", path.to_str().unwrap(), "--to", "sfen"], "");
    assert!(ok);
    assert_eq!(
        from_path,
        "1nkg5/2s6/3rp4/1B7/r8/1PN6/9/9/9 b BG3SN2gn4l16p 1\n"
    );
    let text = std::fs::read_to_string(data("zukou007.bod")).unwrap();
    let (ok, from_stdin, _) = koma(&["convert", "-", "--to", "sfen"], &text);
    assert!(ok);
    assert_eq!(from_stdin, from_path);
    // Content wins over an extension that says otherwise, with a warning.
    let csa_as_kif = temp("game.kif");
    std::fs::copy(data("yokofudori.csa"), &csa_as_kif).unwrap();
    let (ok, out, err) = koma(
        &["convert", csa_as_kif.to_str().unwrap(), "--to", "usi"],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.starts_with("position startpos moves 7g7f"), "{out}");
    assert!(err.contains("the content is csa, not kif"), "{err}");
}

/// Many records: CSA's own `/` form (which koma reads back), one file each with --out-dir, and a
/// refusal for KIF to one stream.
#[test]
fn many_records_in_each_format_own_form() {
    let sfen = "8k/9/9/9/9/9/9/9/8K b - 1\n4k4/9/9/9/9/9/9/9/4K4 b G 1\n";
    let (ok, csa, _) = koma(&["convert", "-", "--to", "csa"], sfen);
    assert!(ok);
    assert_eq!(csa.matches("\n/\n").count(), 1, "{csa}");
    let (ok, back, _) = koma(&["convert", "-", "--to", "sfen"], &csa);
    assert!(ok);
    assert_eq!(back, sfen);
    let (ok, out, err) = koma(&["convert", "-", "--to", "kif"], sfen);
    assert!(!ok && out.is_empty());
    assert!(err.contains("--out-dir"), "{err}");
    let dir = temp("out");
    let (ok, _, err) = koma(
        &[
            "convert",
            "-",
            "--to",
            "kif",
            "--out-dir",
            dir.to_str().unwrap(),
        ],
        sfen,
    );
    assert!(ok, "{err}");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["record-0001.kif", "record-0002.kif"]);
}

/// A character Shift-JIS cannot hold: the hint names the flag that works.
#[test]
fn unrepresentable_character_hint_names_out_encoding() {
    let path = temp("emoji.kif");
    let (ok, _, err) = koma(
        &[
            "convert",
            "-",
            "--to",
            "kif",
            "--out",
            path.to_str().unwrap(),
        ],
        "V2.2\nN+先手😀\nPI\n+\n+7776FU\n",
    );
    assert!(!ok);
    assert!(err.contains("`😀` cannot be written in Shift-JIS"), "{err}");
    assert!(err.contains("--out-encoding utf-8"), "{err}");
    assert!(!err.contains("--encoding utf-8"), "{err}");
}

/// One reading of USI position strings: `koma show` and `koma moves` say the same.
#[test]
fn one_usi_position_reading() {
    let (ok, _, show) = koma(&["show", "startpos 7g7f"], "");
    assert!(!ok);
    let (ok, _, moves) = koma(&["moves", "startpos 7g7f"], "");
    assert!(!ok);
    let words = "expected `moves` after the position, found `7g7f`";
    assert!(show.trim_end().ends_with(words), "{show}");
    assert!(moves.trim_end().ends_with(words), "{moves}");
}

/// `--out FILE` is put in place only when the conversion has something to show: a failed
/// write (a character the encoding cannot hold, `--move` past the end) or an input with nothing
/// readable in it leaves no file behind, and an existing FILE as it was; the file written
/// beside it never replaces a file of the user's.
#[test]
fn failed_out_file_leaves_nothing_behind() {
    let dir = temp("atomic");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("game.kif");
    let out_s = out.to_str().unwrap();
    let listing = || {
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    };
    // Nothing there before: nothing there after any failure.
    let failures: [(&[&str], &str); 3] = [
        (&["--to", "kif"], "V2.2\nN+先手😀\nPI\n+\n+7776FU\n"),
        (&["--to", "bod", "--move", "9"], "startpos moves 7g7f"),
        (&["--to", "kif"], "not a record at all"),
    ];
    for (flags, input) in failures {
        let mut args = vec!["convert", "-", "--out", out_s];
        args.extend_from_slice(flags);
        let (ok, _, err) = koma(&args, input);
        assert!(!ok, "{flags:?}");
        assert!(err.starts_with("koma: error:"), "{err}");
        assert!(listing().is_empty(), "{flags:?}: {:?}", listing());
    }
    // An existing file is kept as it was through the same failures.
    std::fs::write(&out, "mine\n").unwrap();
    // A file in the way of the first temporary name is not touched either.
    std::fs::write(dir.join("game.kif.koma-partial"), "also mine\n").unwrap();
    for (flags, input) in failures {
        let mut args = vec!["convert", "-", "--out", out_s];
        args.extend_from_slice(flags);
        let (ok, _, _) = koma(&args, input);
        assert!(!ok);
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "mine\n");
        assert_eq!(listing(), ["game.kif", "game.kif.koma-partial"]);
    }
    // A conversion that works replaces the file; the good moves of a record with a bad move
    // are written, with the error.
    let (ok, _, _) = koma(
        &["convert", "-", "--to", "usi", "--out", out_s],
        "startpos moves 7g7f",
    );
    assert!(ok);
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "position startpos moves 7g7f\n"
    );
    let (ok, _, err) = koma(
        &["convert", "-", "--to", "usi", "--out", out_s],
        "startpos moves 7g7f 3c3d 7g7f",
    );
    assert!(
        !ok && err.contains("the 2 moves before it were written"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "position startpos moves 7g7f 3c3d\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("game.kif.koma-partial")).unwrap(),
        "also mine\n"
    );
    assert_eq!(listing(), ["game.kif", "game.kif.koma-partial"]);
}

/// A resigned game converted to USI keeps its end as the token GUIs write, with no warning; a
/// JKF file cut short writes the moves before the cut and fails, naming the place.
#[test]
fn usi_end_token_and_jkf_cut_short() {
    let (ok, out, err) = koma(
        &["convert", "-", "--to", "usi"],
        "   1 ７六歩(77)\n   2 投了\n",
    );
    assert!(ok, "{err}");
    assert_eq!(out, "position startpos moves 7g7f resign\n");
    assert!(err.is_empty(), "{err}");
    let jkf = r#"{"header":{},"moves":[{},{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}},{"move":{"from":{"x":3,"y":3},"#;
    let (ok, out, err) = koma(&["convert", "-", "--to", "usi"], jkf);
    assert!(!ok);
    assert_eq!(out, "position startpos moves 7g7f\n");
    assert!(
        err.contains("line 1, column") && err.contains("the 1 moves before it were written"),
        "{err}"
    );
}
