//! `koma place` end to end: the count, `--json`, and `--checkpoint` (record and resume).

use std::process::Command;

fn koma(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

/// A fresh file path in the target directory's temporary folder.
fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!("{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

const FORTY: &str = "P18L4N4S4G4K2R2B2";
/// The 40 less a knight: quick, and its count is spread over many tasks.
const NO_KNIGHT: &str = "P18L4N3S4G4K2R2B2";

#[test]
fn json_counts_are_exact_beyond_u64() {
    let (ok, out, _) = koma(&["place", "X30", "--json"]);
    assert!(ok);
    // C(81, 30): an f64 would round it.
    assert!(out.contains("\"count\":14089890496511308441248,"), "{out}");
}

#[test]
fn checkpoint_records_every_task_and_resumes_after_an_interruption() {
    let path = temp("forty.jsonl");
    let file = path.to_str().unwrap();
    let (ok, out, err) = koma(&["place", NO_KNIGHT, "--checkpoint", file, "--json"]);
    assert!(ok, "{err}");
    let full = json(&out);
    let (ok, plain, _) = koma(&["place", NO_KNIGHT, "--json"]);
    assert!(ok);
    assert_eq!(full["count"], json(&plain)["count"]);
    assert!(full["count"].as_u64().unwrap() > 0);
    let tasks = full["tasks"].as_u64().unwrap() as usize;
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + tasks);
    assert!(lines[0].contains("\"pieces\":\"P18L4N3S4G4K2B2R2\""));

    // Keep the header, the tasks that found placements but the last, and half a line.
    let found: Vec<&str> = lines[1..]
        .iter()
        .copied()
        .filter(|l| !l.contains("\"count\":0,"))
        .collect();
    assert!(found.len() >= 2, "{text}");
    let kept = &found[..found.len() - 1];
    let cut = lines[0].to_owned() + "\n" + &kept.join("\n") + "\n" + &found[found.len() - 1][..10];
    std::fs::write(&path, cut).unwrap();
    let (ok, out, err) = koma(&["place", NO_KNIGHT, "--checkpoint", file, "--json"]);
    assert!(ok, "{err}");
    let resumed = json(&out);
    assert_eq!(resumed["count"], full["count"]);
    assert_eq!(
        resumed["count_mirror_identified"],
        full["count_mirror_identified"]
    );
    assert_eq!(resumed["tasks_resumed"], kept.len());
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 1 + tasks, "{text}");
    assert!(
        text.lines()
            .all(|l| serde_json::from_str::<serde_json::Value>(l).is_ok())
    );

    // Everything recorded: nothing is searched again.
    let (ok, out, _) = koma(&["place", NO_KNIGHT, "--checkpoint", file]);
    assert!(ok);
    assert!(
        out.contains(&format!("count: {}\n", full["count"])),
        "{out}"
    );
    let (ok, out, _) = koma(&["place", NO_KNIGHT, "--checkpoint", file, "--json"]);
    assert!(ok);
    let again = json(&out);
    assert_eq!(again["tasks_resumed"], tasks);
    assert_eq!(again["nodes"], full["nodes"]);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn checkpoint_refuses_other_files_and_leaves_them_alone() {
    let path = temp("other.txt");
    let file = path.to_str().unwrap();
    std::fs::write(&path, "my notes\n").unwrap();
    let (ok, _, err) = koma(&["place", FORTY, "--checkpoint", file]);
    assert!(!ok);
    assert!(
        err.contains(":1: not a koma place checkpoint header"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "my notes\n");

    // A checkpoint of another problem; a file next to it with another extension survives.
    let _ = std::fs::remove_file(&path);
    let sibling = path.with_extension("tmp");
    std::fs::write(&sibling, "mine\n").unwrap();
    assert!(koma(&["place", FORTY, "--checkpoint", file]).0);
    assert_eq!(std::fs::read_to_string(&sibling).unwrap(), "mine\n");
    let _ = std::fs::remove_file(&sibling);
    let (ok, _, err) = koma(&["place", FORTY, "--both-ways", "--checkpoint", file]);
    assert!(!ok);
    assert!(
        err.contains(":1: the checkpoint is for P18L4N4S4G4K2B2R2 (koma"),
        "{err}"
    );
    assert!(err.contains("not P18L4N4S4G4K2B2R2 --both-ways"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");

    // A damaged line that is not the last.
    let text = std::fs::read_to_string(&path).unwrap();
    let damaged = text.replacen("\"task\"", "\"tusk\"", 1);
    std::fs::write(&path, &damaged).unwrap();
    let (ok, _, err) = koma(&["place", FORTY, "--checkpoint", file]);
    assert!(!ok);
    assert!(err.contains(":2: not a task line"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), damaged);

    // --checkpoint is for counting.
    let (ok, _, err) = koma(&["place", FORTY, "--all", "--checkpoint", file]);
    assert!(!ok);
    assert!(err.contains("cannot be used with"), "{err}");
    let _ = std::fs::remove_file(&path);
}
