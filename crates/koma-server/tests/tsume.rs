//! Tsume jobs through the API: solve, check (with a recorded answer), cancel, bad input.

mod common;

use common::{TestServer, limits, temp_dir};
use koma_server::Limits;
use serde_json::{Value, json};

/// ▲3四飛 △同玉 ▲4四飛成 (koma-tsume's CHASE; cshogi's mate search finds R*3d too).
const CHASE: &str = "5R3/4g2p1/6k2/9/5PN2/7G1/9/9/9 b R2b2g4s3n4l16p 1";

/// Posts a tsume job: the API accepts it with 202 and its id.
fn start(s: &TestServer, body: &Value) -> i64 {
    let r = s.post("/api/tsume", body);
    assert_eq!(r.status, 202, "{}", r.body);
    let v = r.json();
    v["id"].as_i64().unwrap_or_else(|| panic!("no job id: {v}"))
}

fn server(name: &str) -> TestServer {
    TestServer::start(
        &temp_dir(name),
        Limits {
            tsume_hash_mib: 16,
            ..limits()
        },
    )
}

#[test]
fn solve_and_check() {
    let s = server("tsume");
    let j = s.wait_job(start(&s, &json!({"sfen": CHASE})), 120);
    assert_eq!(j["state"], "done", "{j}");
    let res = &j["result"];
    assert_eq!(res["outcome"], "mate");
    assert_eq!(res["length"], 3);
    let usi: Vec<&str> = res["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["usi"].as_str().unwrap())
        .collect();
    assert_eq!(usi, ["R*3d", "3c3d", "4a4d+"]);
    assert_eq!(res["moves"][1]["name"], "△同　玉");
    assert_eq!(res["moves"][2]["name"], "▲４四飛成");
    assert_eq!(
        res["moves"][2]["sfen"],
        "9/4g2p1/9/5+Rk2/5PN2/7G1/9/9/9 w r2b2g4s3n4l16p 4"
    );
    assert_eq!(res["leftover"], "");

    // Checked against a wrong recorded answer: the verdict, and where the record differs.
    let j = s.wait_job(
        start(
            &s,
            &json!({"sfen": CHASE, "mode": "check", "expected": ["R*3d", "3c3d", "4a4c+"]}),
        ),
        120,
    );
    let res = &j["result"];
    assert_eq!(res["outcome"], "mate", "{j}");
    assert!(["sound", "flawed"].contains(&res["verdict"].as_str().unwrap()));
    assert_eq!(res["expected_agrees"], false);
    assert_eq!(res["expected_differs_at"], 3);
    for f in res["findings"].as_array().unwrap() {
        assert!(f["text_en"].as_str().unwrap().contains("ply"), "{f}");
    }

    // No mate: a bare king with nothing in hand.
    let j = s.wait_job(
        start(&s, &json!({"sfen": "4k4/9/9/9/9/9/9/9/9 b - 1"})),
        120,
    );
    assert_eq!(j["result"]["outcome"], "nomate", "{j}");
}

/// 将棋図巧25 after 28 plies (CC0): △３二玉 at ply 2 lasts the answer's 7 plies only through a
/// continuation that ends with a pawn left; its line by the leftover rules is 4 plies.
const SHORT_LINE_EQUAL: &str = "7p1/1P1l5/3n1k3/+b3R4/2PP5/3G5/9/9/5+b3 b 2Grg4s3n3l14p 1";

#[test]
fn an_equal_defence_says_its_minimax_length_when_its_line_is_shorter() {
    let s = server("tsume-equal");
    let j = s.wait_job(
        start(&s, &json!({"sfen": SHORT_LINE_EQUAL, "mode": "check"})),
        300,
    );
    let res = &j["result"];
    assert_eq!(res["length"], 7, "{j}");
    let equal: Vec<&Value> = res["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == "equal_defence")
        .collect();
    let short = equal
        .iter()
        .find(|f| f["minimax_length"] == 6)
        .unwrap_or_else(|| panic!("no equal defence with a shorter line: {equal:?}"));
    assert_eq!(short["ply"], 2);
    assert!(
        short["text_en"].as_str().unwrap().contains("4 plies"),
        "{short}"
    );
    assert!(
        short["text_ja"].as_str().unwrap().contains("最長6手"),
        "{short}"
    );
    // The others last as long along their own lines: no minimax length to add.
    assert!(
        equal.iter().any(|f| f["minimax_length"].is_null()),
        "{equal:?}"
    );
}

/// The API's findings are koma-tsume's `FindingReport`s (what `koma tsume --check --json` and
/// the Python dicts carry) plus their sentences: the same check through the library gives the
/// same fields.
#[test]
fn the_findings_are_the_librarys_reports_with_sentences() {
    let s = server("tsume-same");
    let j = s.wait_job(
        start(&s, &json!({"sfen": SHORT_LINE_EQUAL, "mode": "check"})),
        300,
    );
    let mut api = j["result"]["findings"].clone();
    for f in api.as_array_mut().unwrap() {
        let f = f.as_object_mut().unwrap();
        assert!(
            f.remove("text_en").is_some() && f.remove("text_ja").is_some(),
            "{f:?}"
        );
    }
    let pos = koma_core::Position::from_sfen(SHORT_LINE_EQUAL).unwrap();
    let options = koma_tsume::Options::default().hash_mib(16);
    let c = koma_tsume::check(
        &pos,
        &options,
        None,
        &mut |_| {},
        &koma_tsume::Cancel::new(),
    )
    .unwrap();
    let lib = koma_tsume::Report::from_check(koma_tsume::ProblemId::Number(1), &pos, &c, None);
    assert_eq!(api, serde_json::to_value(lib.findings.unwrap()).unwrap());
    assert!(api.as_array().unwrap().len() >= 2, "{api}");
}

#[test]
fn bad_problems_are_refused_with_reasons() {
    let s = server("tsume-bad");
    s.post("/api/tsume", &json!({"sfen": "9/9/9"}))
        .error(400, "bad_sfen");
    let e = s
        .post("/api/tsume", &json!({"sfen": "9/9/9/9/9/9/9/9/9 b G 1"}))
        .error(400, "bad_sfen");
    assert!(e["message"].as_str().unwrap().contains("no king"), "{e}");
    // Legal, but the defender (White, not to move) has no king: the side to move is wrong.
    let e = s
        .post("/api/tsume", &json!({"sfen": "9/9/9/9/9/9/9/9/4K4 b G 1"}))
        .error(400, "not_a_problem");
    assert_eq!(e["field"], "sfen", "{e}");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("white, who defends, has no king"),
        "{e}"
    );
    s.post("/api/tsume", &json!({"sfen": CHASE, "expected": ["R*3d"]}))
        .error(400, "expected_needs_check");
    s.post(
        "/api/tsume",
        &json!({"sfen": CHASE, "mode": "check", "expected": ["R*3z"]}),
    )
    .error(400, "bad_move");
    s.post("/api/tsume", &json!({"sfen": CHASE, "time_limit_secs": 0}))
        .error(400, "bad_time_limit");
    s.post("/api/tsume", &json!({"sfen": CHASE, "mode": "prove"}))
        .error(400, "bad_request_fields");
}

#[test]
fn a_long_solve_can_be_cancelled_and_a_time_limit_answers_unknown() {
    let s = server("tsume-cancel");
    // 将棋図巧 第1番 (data/tsume/zukou.jsonl): far beyond a few seconds of a debug build.
    let zukou1 = "1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N6 b SP2gn2l11p 1";
    let j = start(&s, &json!({"sfen": zukou1}));
    s.wait_until(j, 30, |v| {
        v["state"] == "running" && v["progress"]["nodes"].is_u64()
    });
    let r = s.post(&format!("/api/jobs/{j}/cancel"), &json!({}));
    assert_eq!(r.status, 200);
    assert_eq!(s.wait_job(j, 30)["state"], "cancelled");

    let j = start(&s, &json!({"sfen": zukou1, "time_limit_secs": 1}));
    let done = s.wait_job(j, 60);
    assert_eq!(done["result"]["outcome"], "unknown", "{done}");
    assert_eq!(done["result"]["reason"], "time");
}
