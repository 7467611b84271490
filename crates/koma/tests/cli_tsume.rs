//! `koma tsume` end to end: every input form, the output for people and for programs, the
//! check, KIF output read back, batches with resume and threads, bad input.
//!
//! The problems are small ones composed for these tests (the solver's own tests analyse them):
//! each solves in milliseconds in a debug build.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::Value;

mod common;
use common::{Run, koma};

/// ▲１三飛成 △２一玉 ▲２二銀: sound, no alternative anywhere.
const SOUND: &str = "8k/6b2/5R3/9/9/9/9/9/9 b S 1";
/// ▲３二銀 △１二玉 ▲２三金, with △２二玉 ▲２三金 as long (変同): sound, one 変化.
const EQUAL: &str = "7ks/5G3/9/9/9/9/9/9/9 b GS 1";
/// ▲１三飛成 △２一玉 ▲２二金, but ▲３一飛成 mates too (余詰 at ply 1): flawed.
const FLAWED: &str = "8k/9/6R2/9/9/9/9/9/9 b G 1";
/// ▲５二金, with a pawn left over (駒余り): flawed.
const LEFTOVER: &str = "4k4/9/4P4/9/9/9/9/9/9 b GP2r2b3g4s4n4l16p 1";
/// The chase beside a sacrifice (issue 13): ▲３四飛 △同玉 ▲４四飛成.
const CHASE: &str = "5R3/4g2p1/6k2/9/5PN2/7G1/9/9/9 b R2b2g4s3n4l16p 1";

fn tsume(args: &[&str], stdin: &str) -> Run {
    let mut all = vec!["tsume"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--hash", "8"]);
    koma(&all, stdin)
}

/// A fresh path in the build's temporary directory (`target/tmp`), not the system's.
fn temp(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("koma-cli-tsume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// A bad input: one line on stderr, nothing on stdout, exit 1.
fn assert_one_line_error(r: &Run, says: &str) {
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(r.out.is_empty(), "{}", r.out);
    assert_eq!(r.err.lines().count(), 1, "{}", r.err);
    assert!(r.err.starts_with("koma: error: "), "{}", r.err);
    assert!(r.err.contains(says), "`{says}` not in {}", r.err);
}

#[test]
fn an_sfen_for_people() {
    let r = tsume(&[CHASE], "");
    assert_eq!(r.code, 0, "{}", r.err);
    let lines: Vec<&str> = r.out.lines().collect();
    assert_eq!(lines[0], "▲３四飛 △同　玉 ▲４四飛成 まで3手詰");
    assert_eq!(lines[1], "usi       R*3d 3c3d 4a4d+");
    assert_eq!(lines[2], "length    3 plies (the composer's answer)");
    assert_eq!(lines[3], "leftover  none");
    assert!(lines[4].starts_with("search    ") && lines[4].contains("nodes/s), hash 8 MiB"));
}

#[test]
fn usi_strings_stdin_kif_and_csa_files() {
    // A USI position string names the position after its moves.
    let usi = "sfen 8k/6b2/5R3/9/9/9/9/9/9 b S 1 moves 4c4d 1a2a 4d4c 2a1a";
    let r = tsume(&[usi], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("usi       4c1c+ 1a2a S*2b"), "{}", r.out);

    let r = tsume(&["-"], &format!("{EQUAL}\n"));
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("usi       S*3b 2a1b G*2c"), "{}", r.out);

    // A KIF problem with a diagram and its answer (Shift-JIS, as .kif files are).
    let kif = "後手の持駒：残り全部\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n\
| ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n| ・ ・ ・ ・ ・ ・v角 ・ ・|二\n| ・ ・ ・ ・ ・ 飛 ・ ・ ・|三\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|九\n\
+---------------------------+\n先手の持駒：銀\n手数----指手---------消費時間--\n\
   1 １三飛成(43)\n   2 ２一玉(11)\n   3 ２二銀打\n   4 詰み\n";
    let path = temp("sound.kif");
    let bytes =
        koma_record::encoding::encode(kif, koma_record::encoding::Encoding::ShiftJis).unwrap();
    std::fs::write(&path, bytes).unwrap();
    let r = tsume(&[path.to_str().unwrap()], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out.starts_with("▲１三飛成 △２一玉 ▲２二銀 まで3手詰\n"),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("input     its answer (3 plies) agrees\n"),
        "{}",
        r.out
    );

    // A CSA problem whose answer is not a mate: where it leaves koma's answer is named.
    let csa = "V2.2\nP-11OU\nP+13FU\nP+00KI\nP-00AL\n+\n+0021KI\n";
    let path = temp("wrong.csa");
    std::fs::write(&path, csa).unwrap();
    let r = tsume(&[path.to_str().unwrap(), "--json"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    let v = json(&r.out);
    assert_eq!(v["moves"], serde_json::json!(["G*1b"]));
    assert_eq!(
        v["expected"],
        serde_json::json!({"agrees": false, "expected_mates": false, "expected_length": 1,
            "first_difference": {"ply": 1, "expected": "G*2a", "answer": "G*1b"}})
    );
    let r = tsume(&[path.to_str().unwrap()], "");
    assert!(
        r.out.contains(
            "its answer (1 ply) differs at ply 1: ▲２一金 in the input, ▲１二金 here; the input's line is not a mate"
        ),
        "{}",
        r.out
    );
}

/// The diagram of the KIF test problem above (▲１三飛成 △２一玉 ▲２二銀 まで3手詰), UTF-8.
const DIAGRAM: &str = "後手の持駒：残り全部\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n\
| ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n| ・ ・ ・ ・ ・ ・v角 ・ ・|二\n| ・ ・ ・ ・ ・ 飛 ・ ・ ・|三\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|九\n\
+---------------------------+\n先手の持駒：銀\n";

#[test]
fn bod_and_ki2_problem_files() {
    // A BOD diagram alone: a problem without a recorded answer.
    let path = temp("diagram.bod");
    std::fs::write(&path, DIAGRAM).unwrap();
    let r = tsume(&[path.to_str().unwrap(), "--json"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    let v = json(&r.out);
    assert_eq!(v["moves"], serde_json::json!(["4c1c+", "1a2a", "S*2b"]));
    assert_eq!(v["expected"], Value::Null, "{}", r.out);

    // The same diagram with a KI2 answer that takes another way at ply 3 (not a mate).
    let path = temp("wrong.ki2");
    std::fs::write(&path, format!("{DIAGRAM}▲１三飛成　△２一玉　▲３一銀\n")).unwrap();
    let r = tsume(&[path.to_str().unwrap(), "--json"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    let v = json(&r.out);
    assert_eq!(
        v["expected"],
        serde_json::json!({"agrees": false, "expected_mates": false, "expected_length": 3,
            "first_difference": {"ply": 3, "expected": "S*3a", "answer": "S*2b"}})
    );
    let r = tsume(&[path.to_str().unwrap()], "");
    assert!(
        r.out
            .contains("its answer (3 plies) differs at ply 3: ▲３一銀 in the input, ▲２二銀 here"),
        "{}",
        r.out
    );
}

#[test]
fn json_fields() {
    let r = tsume(&[LEFTOVER, "--json"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.out.lines().count(), 1);
    let v = json(&r.out);
    assert_eq!(v["id"], 1);
    assert_eq!(v["sfen"], LEFTOVER);
    assert_eq!(v["status"], "mate");
    assert_eq!(v["length"], 1);
    assert_eq!(v["moves"], serde_json::json!(["G*5b"]));
    assert_eq!(v["leftover"], "P");
    assert_eq!(v["optimal"], true);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["ms"].is_u64() && v["nps"].is_u64() && v["hashfull"].is_u64());
    assert_eq!(v["hash_mib"], 8);
    assert!(v.get("verdict").is_none() && v.get("expected").is_none());

    let r = tsume(&["startpos", "--json"], "");
    assert_eq!(r.code, 3);
    let v = json(&r.out);
    assert_eq!(
        (&v["status"], &v["length"], &v["moves"]),
        (&Value::from("nomate"), &Value::Null, &serde_json::json!([]))
    );

    let r = tsume(&[CHASE, "--json", "--nodes", "5"], "");
    assert_eq!(r.code, 4, "{}", r.err);
    let v = json(&r.out);
    assert_eq!(
        (&v["status"], &v["reason"]),
        (&Value::from("unknown"), &Value::from("nodes"))
    );
}

#[test]
fn any_stops_at_the_first_proof() {
    let r = tsume(&[SOUND, "--any", "--json"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    let v = json(&r.out);
    assert_eq!(v["status"], "mate");
    assert_eq!(v["optimal"], false);
    assert_eq!(v["length"].as_u64().unwrap() % 2, 1);
}

#[test]
fn check_verdicts() {
    let r = tsume(&[SOUND, "--check"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("verdict   sound\n"), "{}", r.out);

    let r = tsume(&[EQUAL, "--check"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out.contains("verdict   sound\n  ply 2    変同 (equal-length defence, allowed): △２二玉 ▲２三金 (leftover none)\n"),
        "{}",
        r.out
    );

    let r = tsume(&[FLAWED, "--check"], "");
    assert_eq!(r.code, 5, "{}", r.err);
    assert!(
        r.out.contains(
            "verdict   flawed\n  ply 1    余詰 (alternative mate): ▲３一飛成 also mates, within "
        ),
        "{}",
        r.out
    );
    let r = tsume(&[FLAWED, "--check", "--json"], "");
    assert_eq!(r.code, 5);
    let v = json(&r.out);
    assert_eq!(v["verdict"], "flawed");
    let f = &v["findings"][0];
    assert_eq!(
        (&f["kind"], &f["ply"], &f["move"], &f["flaw"]),
        (
            &Value::from("alternative_mate"),
            &Value::from(1),
            &Value::from("3c3a+"),
            &Value::from(true)
        )
    );

    let r = tsume(&[LEFTOVER, "--check"], "");
    assert_eq!(r.code, 5);
    assert!(
        r.out
            .contains("  end      駒余り (pieces left over): 歩 (P)\n"),
        "{}",
        r.out
    );

    let r = tsume(&["startpos", "--check"], "");
    assert_eq!(r.code, 3);
    assert!(
        r.out.starts_with("不詰 (no mate)\nverdict   no mate\n"),
        "{}",
        r.out
    );
}

#[test]
fn kif_output_reads_back_with_its_variation() {
    let path = temp("answer.kif");
    let r = tsume(&[EQUAL, "--kif", path.to_str().unwrap()], "");
    assert_eq!(r.code, 0, "{}", r.err);
    let bytes = std::fs::read(&path).unwrap();
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "a .kif file is Shift-JIS"
    );
    let read = koma_record::input::read_one(&bytes, path.to_str()).unwrap();
    let rec = read.record;
    assert_eq!(rec.initial().to_sfen(), EQUAL);
    let main: Vec<String> = rec.moves().map(|m| m.to_string()).collect();
    assert_eq!(main, ["S*3b", "2a1b", "G*2c"]);
    assert_eq!(rec.main().end().unwrap().kind, koma_record::EndKind::Mate);
    let vars = rec.main().moves()[1].variations();
    assert_eq!(vars.len(), 1);
    let var: Vec<String> = vars[0].moves().iter().map(|m| m.mv().to_string()).collect();
    assert_eq!(var, ["2a2b", "G*2c"]);
    assert_eq!(vars[0].end().unwrap().kind, koma_record::EndKind::Mate);

    // To standard output (UTF-8), the text for people then on standard error.
    let r = tsume(&[EQUAL, "--kif", "-"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("変化：2手\n   2 ２二玉(21)\n"), "{}", r.out);
    assert!(r.err.contains("verdict   sound"), "{}", r.err);
}

#[test]
fn bad_input_is_one_line_and_a_non_zero_exit() {
    assert_one_line_error(
        &tsume(&["9/9/46/9/9/9/9/9/9 b - 1"], ""),
        "is not a file, an SFEN or a USI position: rank 3 of the board describes 10 squares",
    );
    // A short board with a bad field after it is still read as SFEN, whose reader names the
    // first fault (another format's reader said "expected move number 1").
    assert_one_line_error(
        &tsume(&["9/9/9 x"], ""),
        "is not a file, an SFEN or a USI position: the board has 3 ranks, expected 9",
    );
    // So is a board of one rank (no '/') followed by a side to move.
    assert_one_line_error(
        &tsume(&["4k4 b - 1"], ""),
        "is not a file, an SFEN or a USI position: the board has 1 rank, expected 9",
    );
    // Control characters of the input are quoted escaped (found by fuzzing): a raw `\r` sent
    // the cursor back over the message, an escape character starts a terminal command.
    let r = tsume(&["4k4/9/4P4/9/9/9/9/9/9 \u{1b}b G\r 1"], "");
    assert_one_line_error(&r, "`4k4/9/4P4/9/9/9/9/9/9 \\u{1b}b G\\r 1` is not a file");
    assert_one_line_error(&r, "found `\\u{1b}b` at column 23");
    let r = tsume(&["no-such-file\u{1b}[2J"], "");
    assert_one_line_error(&r, "koma: error: no-such-file\\u{1b}[2J: ");
    for r in [&r, &tsume(&["9/9/9\r b - 1"], "")] {
        let message = r.err.strip_suffix('\n').unwrap_or(&r.err);
        assert!(!message.chars().any(char::is_control), "{message:?}");
    }
    // The side to move's opponent is in check: not a position.
    assert_one_line_error(
        &tsume(&["4k4/4G4/9/9/9/9/9/9/4K4 b G 1"], ""),
        "the side not to move is in check",
    );
    // Legal, but White, who defends (not to move), has no king: refused, not "no mate".
    const KINGLESS_DEFENDER: &str = "9/9/9/9/9/9/9/9/4K4 b G 1";
    assert_one_line_error(
        &tsume(&[KINGLESS_DEFENDER], ""),
        "not a mate problem: the side to move attacks, and white, who defends, has no king",
    );
    assert_one_line_error(
        &tsume(&["--check", KINGLESS_DEFENDER], ""),
        "white, who defends, has no king",
    );
    // In a batch the line is an error record.
    let r = tsume(&["--batch", "-"], &format!("{KINGLESS_DEFENDER}\n"));
    let v = json(r.out.trim());
    assert_eq!(
        (&v["status"], &v["line"]),
        (&Value::from("error"), &Value::from(1))
    );
    let says = v["error"].as_str().unwrap();
    assert!(
        says.starts_with("line 1: not a mate problem") && says.contains("has no king"),
        "{v}"
    );
    let empty = temp("empty.kif");
    std::fs::write(&empty, "").unwrap();
    assert_one_line_error(&tsume(&[empty.to_str().unwrap()], ""), "the input is empty");
    assert_one_line_error(&tsume(&["-"], ""), "-: the input is empty");
    let text = temp("notes.txt");
    std::fs::write(&text, "eggs, milk and bread\n").unwrap();
    assert_one_line_error(&tsume(&[text.to_str().unwrap()], ""), "line 1, column 1");
    let game = temp("game.csa");
    std::fs::write(&game, "V2.2\nPI\n+\n+7776FU\n-3334FU\n").unwrap();
    assert_one_line_error(
        &tsume(&[game.to_str().unwrap()], ""),
        "not a problem (no diagram)",
    );
    assert_one_line_error(
        &tsume(&["no-such-problem.kif"], ""),
        "no-such-problem.kif: ",
    );
    let several = temp("two.sfen");
    std::fs::write(&several, format!("{SOUND}\n{FLAWED}\n")).unwrap();
    assert_one_line_error(&tsume(&[several.to_str().unwrap()], ""), "--batch");
    assert_one_line_error(&koma(&["tsume", SOUND, "--hash", "0"], ""), "--hash");
    assert_one_line_error(&tsume(&[SOUND, "--time-limit", "0"], ""), "--time-limit");
    // Usage errors are clap's: exit 2.
    assert_eq!(tsume(&[SOUND, "--any", "--check"], "").code, 2);
    assert_eq!(koma(&["tsume"], "").code, 2);
}

/// The results of a batch by id, without the figures that vary from run to run.
fn results(text: &str) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let mut v = json(line);
        let o = v.as_object_mut().unwrap();
        for k in ["nodes", "ms", "nps", "hashfull", "hash_mib"] {
            o.remove(k);
        }
        let id = o["id"].to_string();
        assert!(out.insert(id, v).is_none(), "id twice: {line}");
    }
    out
}

fn problems_file() -> String {
    format!(
        "# composed problems\n{SOUND}\n\n\
         {{\"id\": \"equal\", \"sfen\": \"{EQUAL}\", \"solution_usi\": [\"S*3b\", \"2a1b\", \"G*2c\"]}}\n\
         {{\"id\": \"flawed\", \"sfen\": \"{FLAWED}\", \"solution_usi\": \"3c3a+\"}}\n\
         not an sfen\n\
         {{\"id\": 7, \"sfen\": \"4k4/4G4/9/9/9/9/9/9/4K4 b G 1\"}}\n\
         startpos\n\
         {{\"id\": \"leftover\", \"sfen\": \"{LEFTOVER}\"}}\n"
    )
}

#[test]
fn batch_writes_json_lines_and_error_records_and_sums_up() {
    let r = tsume(&["--batch", "-"], &problems_file());
    assert_eq!(r.code, 1, "bad lines make the exit non-zero: {}", r.err);
    let got = results(&r.out);
    assert_eq!(got.len(), 7, "{}", r.out);
    let sound = &got["2"];
    assert_eq!(sound["status"], "mate");
    assert_eq!(sound["moves"], serde_json::json!(["4c1c+", "1a2a", "S*2b"]));
    assert_eq!(got["\"equal\""]["expected"]["agrees"], true);
    let flawed = &got["\"flawed\""]["expected"];
    assert_eq!(
        (&flawed["agrees"], &flawed["expected_mates"]),
        (&Value::from(false), &Value::from(false))
    );
    let bad = &got["6"];
    assert_eq!(
        (&bad["status"], &bad["line"]),
        (&Value::from("error"), &Value::from(6))
    );
    assert!(
        bad["error"].as_str().unwrap().starts_with("line 6: "),
        "{bad}"
    );
    // The id of a bad line is the input's when it could be read.
    assert_eq!(got["7"]["line"], 7);
    assert!(
        got["7"]["error"]
            .as_str()
            .unwrap()
            .contains("not to move is in check")
    );
    assert_eq!(got["8"]["status"], "nomate");
    assert_eq!(got["\"leftover\""]["leftover"], "P");
    for part in [
        "koma tsume: 7 problems: 4 mate, 1 no mate, 0 unknown, 2 unreadable",
        "the input's answers: 2 given, 1 agree, 1 of the same length, 1 not a mate as given",
        "time: ",
        "2 lines could not be read",
    ] {
        assert!(r.err.contains(part), "`{part}` not in {}", r.err);
    }

    // --check adds the verdict and its findings to each line.
    let r = tsume(&["--batch", "-", "--check"], &problems_file());
    let got = results(&r.out);
    assert_eq!(got["2"]["verdict"], "sound");
    assert_eq!(got["\"flawed\""]["verdict"], "flawed");
    assert_eq!(got["\"flawed\""]["findings"][0]["kind"], "alternative_mate");
    assert!(r.err.contains("check: 2 sound, 2 flawed"), "{}", r.err);
}

#[test]
fn batch_resumes_after_a_kill_and_threads_give_the_same_results() {
    let input = temp("problems.jsonl");
    std::fs::write(&input, problems_file()).unwrap();
    let input = input.to_str().unwrap();
    let out = temp("results.jsonl");
    let out_s = out.to_str().unwrap();
    let whole = tsume(&["--batch", input, "--out", out_s], "");
    assert!(whole.out.is_empty());
    let first = std::fs::read_to_string(&out).unwrap();
    assert_eq!(first.lines().count(), 7);

    // A kill in the middle of the last line: it is cut off and solved again, the others kept.
    let cut = first.len() - 25;
    std::fs::write(&out, &first[..cut]).unwrap();
    let r = tsume(&["--batch", input, "--out", out_s], "");
    assert!(r.err.contains("last line was cut short"), "{}", r.err);
    assert!(r.err.contains("koma tsume: 1 problem: "), "{}", r.err);
    assert!(r.err.contains("resumed: 6 problems skipped"), "{}", r.err);
    let resumed = std::fs::read_to_string(&out).unwrap();
    assert_eq!(results(&resumed), results(&first));

    // Nothing left to do: everything skipped, nothing written.
    let r = tsume(&["--batch", input, "--out", out_s], "");
    assert!(r.err.contains("resumed: 7 problems skipped"), "{}", r.err);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), resumed);

    // Two at a time: the same results (in the order they finish).
    let two = tsume(&["--batch", input, "--threads", "2"], "");
    assert_eq!(results(&two.out), results(&first));

    // A file that is not a result file is never appended to.
    let notes = temp("notes.jsonl");
    std::fs::write(&notes, "my notes\nmore notes").unwrap();
    let r = tsume(&["--batch", input, "--out", notes.to_str().unwrap()], "");
    assert_one_line_error(&r, "line 1 is not a koma tsume result");
    assert_eq!(
        std::fs::read_to_string(&notes).unwrap(),
        "my notes\nmore notes"
    );
}

#[test]
fn an_empty_batch_is_an_error() {
    assert_one_line_error(&tsume(&["--batch", "-"], "\n# nothing\n"), "no problems");
    assert_one_line_error(
        &tsume(&["--batch", "no-such-file.jsonl"], ""),
        "no-such-file.jsonl: ",
    );
}

#[test]
fn one_unreadable_line_is_counted_in_the_singular() {
    let input = format!("{SOUND}\nnot a position\n");
    let r = tsume(&["--batch", "-"], &input);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(
        r.err
            .contains("1 line could not be read (see the error records in"),
        "{}",
        r.err
    );
}
