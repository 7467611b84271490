//! `koma convert` and `koma show` end to end.

use std::io::Write;
use std::process::{Command, Stdio};

fn koma(args: &[&str], stdin: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
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
    let path = std::env::temp_dir().join(format!("koma-cli-test-{}.kif", std::process::id()));
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
