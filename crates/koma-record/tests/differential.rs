//! koma-record against an independent reader, the cshogi library (scripts/setup-python.sh
//! installs it): every record of the corpus and the test data, written by koma as CSA and as
//! KIF, reads in cshogi as the same initial position and main line.
//!
//! cshogi's own gaps are known and not followed: its KIF reader drops moves written with 不成
//! (its move pattern lacks the word), does not take the tsume hand `残り全部` (the rest of the
//! set) and reads no board diagram (only 手合割), so a KIF text holding any of them is compared
//! through CSA only.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use koma_record::input::{self, Options};
use koma_record::{Format, Record};

const ORACLE: &str = r#"
import json, sys
import cshogi, cshogi.CSA, cshogi.KIF
out = []
for item in json.load(sys.stdin):
    try:
        if item["format"] == "csa":
            p = cshogi.CSA.Parser.parse_str(item["text"])[0]
        else:
            p = cshogi.KIF.Parser.parse_str(item["text"])
        out.append({"sfen": p.sfen, "moves": [cshogi.move_to_usi(m) for m in p.moves]})
    except Exception as e:
        out.append({"error": repr(e)})
json.dump(out, sys.stdout)
"#;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn records() -> Vec<(String, Record)> {
    let mut out = Vec::new();
    for dir in ["tests/corpus", "tests/data"] {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir);
        let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e != "md"))
            .collect();
        names.sort();
        for path in names {
            for item in input::open(&path, Options::default()).unwrap() {
                let read = item.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                out.push((path.display().to_string(), read.record));
            }
        }
    }
    out
}

/// The SFEN as cshogi writes it: the move number of a position read from CSA or KIF is 1.
fn sfen_at_one(rec: &Record) -> String {
    let sfen = rec.initial().to_sfen();
    let cut = sfen.rfind(' ').unwrap_or(sfen.len());
    format!("{} 1", &sfen[..cut])
}

#[test]
fn csa_and_kif_written_by_koma_read_the_same_in_cshogi() {
    let python = root().join(".venv/bin/python");
    assert!(
        python.exists(),
        "the cshogi oracle needs {}: run scripts/setup-python.sh first",
        python.display()
    );
    let records = records();
    assert!(records.len() > 40, "{} records", records.len());
    let mut items = Vec::new();
    let mut expected = Vec::new();
    for (name, rec) in &records {
        let moves: Vec<String> = rec.moves().map(|m| m.to_string()).collect();
        for format in [Format::Csa, Format::Kif] {
            let text = format.write(rec);
            let gaps = ["不成", "残り全部", "\n+---"];
            if format == Format::Kif && gaps.iter().any(|g| text.contains(g)) {
                continue;
            }
            items.push(serde_json::json!({"format": format.name(), "text": text}));
            expected.push((
                format!("{name} as {}", format.name()),
                sfen_at_one(rec),
                moves.clone(),
            ));
        }
    }
    let mut child = Command::new(&python)
        .args(["-c", ORACLE])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::Value::from(items).to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "the oracle failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answers: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answers.len(), expected.len());
    for ((what, sfen, moves), answer) in expected.iter().zip(&answers) {
        if let Some(e) = answer.get("error") {
            panic!("{what}: cshogi could not read it: {e}");
        }
        // The same position, whatever order the hand is written in.
        let theirs = koma_core::Setup::from_sfen(answer["sfen"].as_str().unwrap()).unwrap();
        assert_eq!(theirs, koma_core::Setup::from_sfen(sfen).unwrap(), "{what}");
        let theirs: Vec<&str> = answer["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert_eq!(theirs, *moves, "{what}");
    }
}
