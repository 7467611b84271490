//! Every endpoint of the API with good and bad input, through a real socket.

mod common;

use common::{TestServer, limits, raw, temp_dir};
use serde_json::{Value, json};

const KIF: &str = "先手：A
後手：B
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:01/00:00:01)
   2 ３四歩(33)   ( 0:02/00:00:02)
   3 ２六歩(27)   ( 0:03/00:00:04)
*a comment
   4 投了

変化：3手
   3 ６六歩(67)   ( 0:01/00:00:02)
   4 ８四歩(83)   ( 0:01/00:00:03)
";

fn server(name: &str) -> TestServer {
    TestServer::start(&temp_dir(name), limits())
}

#[test]
fn info_session_and_openapi() {
    let s = server("info");
    let info = s.get("/api/info").json();
    assert_eq!(info["max_body_bytes"], 1 << 20);
    assert!(info["hasami_agents"].as_array().unwrap().len() >= 4);
    let a = s.post("/api/session", &json!({})).json();
    let b = s.post("/api/session", &json!({})).json();
    assert_eq!(a["session"].as_str().unwrap().len(), 32);
    assert_ne!(a["session"], b["session"]);

    // The OpenAPI document lists every API route the router serves.
    let doc = s.get("/api/openapi.json").json();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let paths = doc["paths"].as_object().unwrap();
    for p in [
        "/api/info",
        "/api/session",
        "/api/jobs",
        "/api/jobs/{id}",
        "/api/jobs/{id}/cancel",
        "/api/jobs/{id}/events",
        "/api/jobs/{id}/solutions",
        "/api/position",
        "/api/record",
        "/api/record/convert",
        "/api/place",
        "/api/tsume",
        "/api/hasami/games",
        "/api/hasami/games/{id}",
        "/api/hasami/games/{id}/move",
        "/api/hasami/games/{id}/ai",
    ] {
        assert!(
            paths.contains_key(p),
            "{p} missing from the OpenAPI document"
        );
    }
    assert!(doc["components"]["schemas"]["ErrorBody"].is_object());
    let job = &doc["components"]["schemas"]["JobView"]["properties"];
    assert!(
        job["state"].is_object() && job["progress"].is_object(),
        "{job}"
    );
    assert!(
        job.get("session").is_none(),
        "the session id is not shown: {job}"
    );
}

#[test]
fn position_good_and_bad() {
    let s = server("position");
    let start = s
        .post("/api/position", &json!({"sfen": koma_core::STARTPOS_SFEN}))
        .json();
    assert_eq!(start["legal_moves"].as_array().unwrap().len(), 30);
    assert_eq!(start["side_to_move"], "black");
    assert_eq!(start["status"], "ongoing");
    let names: Vec<&str> = start["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"▲７六歩"), "{names:?}");

    // A mate: 頭金.
    let mate = s
        .post(
            "/api/position",
            &json!({"sfen": "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1"}),
        )
        .json();
    assert_eq!(mate["status"], "checkmate");
    assert_eq!(mate["in_check"], true);
    assert_eq!(mate["checkers"], json!(["5b"]));
    assert!(mate["legal_moves"].as_array().unwrap().is_empty());

    let usi = s
        .post("/api/position", &json!({"usi": "startpos moves 7g7f 3c3d"}))
        .json();
    assert_eq!(usi["ply"], 3);
    let rec = s
        .post("/api/position", &json!({"text": KIF, "move": 2}))
        .json();
    assert_eq!(rec["sfen"], usi["sfen"]);

    let e = s
        .post(
            "/api/position",
            &json!({"sfen": "9/9/46/9/9/9/9/9/9 b - 1"}),
        )
        .error(400, "bad_sfen");
    assert_eq!(e["field"], "sfen");
    s.post("/api/position", &json!({"sfen": "x", "usi": "startpos"}))
        .error(400, "one_input");
    s.post("/api/position", &json!({})).error(400, "one_input");
    s.post("/api/position", &json!({"usi": "startpos moves 7g7f 7g7f"}))
        .error(400, "bad_usi");
    s.post("/api/position", &json!({"text": KIF, "move": 99}))
        .error(400, "bad_move_number");
    s.post("/api/position", &json!({"sfen": 5}))
        .error(400, "bad_request_fields");
    s.post("/api/position", &json!({"fen": "x"}))
        .error(400, "bad_request_fields");
    // Two kings of one colour, and a pawn on the last rank: validation names the problem.
    let e = s
        .post(
            "/api/position",
            &json!({"sfen": "K8/9/9/9/9/9/9/9/K8 b - 1"}),
        )
        .error(400, "bad_sfen");
    assert!(e["message"].as_str().unwrap().contains("king"), "{e}");
}

#[test]
fn malformed_requests_get_json_errors() {
    let s = server("malformed");
    s.request("POST", "/api/position", Some("{\"sfen\": "), &[])
        .error(400, "bad_json");
    s.request(
        "POST",
        "/api/position",
        Some("{}"),
        &[("Content-Type", "text/plain")],
    )
    .error(415, "not_json");
    let big = format!("{{\"text\": \"{}\"}}", "a".repeat(2 << 20));
    s.request("POST", "/api/record", Some(&big), &[])
        .error(413, "body_too_large");
    s.get("/api/nothing").error(404, "not_found");
    s.get("/api/position").error(405, "method_not_allowed");
    s.get("/api/jobs/abc").error(400, "bad_path");
    s.get("/api/jobs/1/solutions?cursor=-1")
        .error(400, "bad_query");
    s.request(
        "POST",
        "/api/place",
        Some("{\"pieces\":\"R\"}"),
        &[("X-Koma-Session", "bad session!")],
    )
    .error(400, "bad_session");
    // Garbage on the socket: the server answers 400 and goes on.
    let r = raw(s.addr, "NOT HTTP AT ALL\r\n\r\n");
    assert!(r.status == 400 || r.status == 0, "{r:?}");
    assert_eq!(s.get("/api/info").status, 200);
}

#[test]
fn host_and_origin_are_checked() {
    let s = server("guard");
    s.request("GET", "/api/info", None, &[("Host", "rebind.example:8080")])
        .error(403, "host_not_allowed");
    s.request(
        "POST",
        "/api/session",
        Some("{}"),
        &[("Origin", "http://evil.example")],
    )
    .error(403, "cross_origin");
    s.request("GET", "/", None, &[("Sec-Fetch-Site", "cross-site")])
        .error(403, "cross_site");
    let own = format!("http://{}", s.addr);
    let r = s.request("POST", "/api/session", Some("{}"), &[("Origin", &own)]);
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s.request("GET", "/api/info", None, &[("Host", "localhost:1")]);
    assert_eq!(r.status, 200);
    // Pages carry the anti-framing and no-sniff headers.
    let page = s.get("/hasami");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<div id=\"app\">"));
    assert_eq!(page.header("x-frame-options"), Some("DENY"));
    assert!(
        page.header("content-security-policy")
            .unwrap()
            .contains("frame-ancestors 'none'")
    );
    assert_eq!(
        s.get("/app.js").header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    assert_eq!(s.get("/nope.js").status, 404);
}

#[test]
fn records_read_and_convert() {
    let s = server("record");
    let r = s.post("/api/record", &json!({"text": KIF})).json();
    assert_eq!(r["format"], "kif");
    assert_eq!(r["headers"][0], json!(["先手", "A"]));
    let moves = r["main"]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3);
    assert_eq!(r["main"]["end"], "投了");
    assert_eq!(moves[0]["name"], "▲７六歩");
    assert_eq!(moves[0]["time_ms"], 1000);
    assert_eq!(moves[2]["comments"], json!(["a comment"]));
    let var = &moves[2]["variations"][0]["moves"];
    assert_eq!(var[0]["usi"], "6g6f");
    assert_eq!(var[1]["name"], "△８四歩");
    assert_eq!(
        var[1]["sfen"],
        "lnsgkgsnl/1r5b1/p1pppp1pp/1p4p2/9/2PP5/PP2PPPPP/1B5R1/LNSGKGSNL b - 5"
    );

    let csa = s
        .post("/api/record/convert", &json!({"text": KIF, "to": "csa"}))
        .json();
    assert_eq!(csa["from"], "kif");
    assert!(csa["text"].as_str().unwrap().contains("+7776FU"));
    let back = s
        .post(
            "/api/record",
            &json!({"text": csa["text"], "format": "csa"}),
        )
        .json();
    assert_eq!(back["main"]["moves"].as_array().unwrap().len(), 3);
    let usi = s
        .post("/api/record", &json!({"text": "startpos moves 7g7f 3c3d"}))
        .json();
    assert_eq!(usi["format"], "usi");

    let e = s
        .post(
            "/api/record",
            &json!({"text": "先手：A\n手数----指手--\n   1 ７六歩(77)\n   2 ７六歩(77)\n"}),
        )
        .error(400, "bad_record");
    assert_eq!(e["line"], 4);
    s.post("/api/record", &json!({"text": "  \n"}))
        .error(400, "empty_record");

    // Warnings say what (a stable code, a message) and where (the line, the text quoted).
    let r = s
        .post(
            "/api/record",
            &json!({"text": "対局者：A\n手数----指手--\n   1 ７六歩(77)\n----\n"}),
        )
        .json();
    assert_eq!(
        r["warnings"],
        json!([
            {"code": "unknown_header", "line": 1, "message": "line 1: unknown header `対局者` kept as is", "excerpt": "対局者"},
            {"code": "not_a_move", "line": 4, "message": "line 4: `----` is not a move; kept as a comment", "excerpt": "----"},
        ])
    );

    // A Shift-JIS file as bytes: koma-record's input call detects the encoding and format.
    use base64::Engine as _;
    let file = include_bytes!("../../koma-record/tests/data/yokofudori.kif");
    let b64 = base64::engine::general_purpose::STANDARD.encode(file);
    let r = s
        .post(
            "/api/record",
            &json!({"base64": b64, "name": "yokofudori.kif"}),
        )
        .json();
    assert_eq!(r["format"], "kif");
    assert_eq!(r["main"]["moves"].as_array().unwrap().len(), 30);
    assert_eq!(
        r["main"]["moves"][9]["sfen"],
        "lnsgk1snl/1r4gb1/p1pppp2p/6pp1/1p7/2P6/PP1PPPP1P/1BG4R1/LNS1KGSNL b p 11"
    );
    let csa = s
        .post("/api/record/convert", &json!({"base64": b64, "to": "csa"}))
        .json();
    assert!(csa["text"].as_str().unwrap().contains("+2726FU"));
    s.post("/api/record", &json!({"base64": "***"}))
        .error(400, "bad_base64");
    s.post("/api/record", &json!({"text": KIF, "base64": b64}))
        .error(400, "one_input");
    s.post("/api/record", &json!({"text": KIF, "format": "pgn"}))
        .error(400, "bad_format");
    s.post("/api/record/convert", &json!({"text": KIF, "to": "docx"}))
        .error(400, "bad_format");
}

fn job_id(v: &Value) -> i64 {
    v["id"].as_i64().unwrap()
}

#[test]
fn placement_count_first_and_all_with_paging() {
    let s = server("place");
    let r = s.post("/api/place", &json!({"pieces": "P18L4N4S4G4K2R2B2"}));
    assert_eq!(r.status, 202, "{}", r.body);
    let j = s.wait_job(job_id(&r.json()), 120);
    assert_eq!(j["state"], "done", "{j}");
    assert_eq!(j["result"]["count"], "3720");
    assert_eq!(j["result"]["count_mirror_identified"], "1860");
    assert_eq!(j["result"]["complete"], true);

    let first = s.post("/api/place", &json!({"pieces": "R2B2", "mode": "first"}));
    let id = job_id(&first.json());
    assert_eq!(s.wait_job(id, 60)["state"], "done");
    let page = s.get(&format!("/api/jobs/{id}/solutions")).json();
    assert_eq!(page["total"], 1);
    assert_eq!(page["next_cursor"], Value::Null);

    // Two rooks, the first 120 placements, paged 50 at a time.
    let all = s.post(
        "/api/place",
        &json!({"pieces": "R2", "mode": "all", "limit": 120}),
    );
    let id = job_id(&all.json());
    let j = s.wait_job(id, 60);
    assert_eq!(j["result"]["found"], "120");
    assert_eq!(j["result"]["limit_reached"], true);
    let mut seen = std::collections::HashSet::new();
    let mut cursor = Some(0);
    while let Some(c) = cursor {
        let page = s
            .get(&format!("/api/jobs/{id}/solutions?cursor={c}&limit=50"))
            .json();
        for item in page["items"].as_array().unwrap() {
            assert!(seen.insert(item["sfen"].as_str().unwrap().to_owned()));
        }
        cursor = page["next_cursor"].as_u64();
    }
    assert_eq!(seen.len(), 120);

    let e = s
        .post("/api/place", &json!({"pieces": "Q2"}))
        .error(400, "bad_pieces");
    assert_eq!(e["field"], "pieces");
    s.post("/api/place", &json!({"pieces": ""}))
        .error(400, "bad_pieces");
    s.post("/api/place", &json!({"pieces": "P82"}))
        .error(400, "bad_pieces");
    s.post(
        "/api/place",
        &json!({"pieces": "R", "mode": "all", "limit": 0}),
    )
    .error(400, "bad_limit");
    s.post("/api/place", &json!({"pieces": "R", "time_limit_secs": -1}))
        .error(400, "bad_time_limit");
    s.post("/api/place", &json!({"pieces": "R", "mode": "some"}))
        .error(400, "bad_request_fields");
    s.get(&format!("/api/jobs/{id}/solutions?limit=501"))
        .error(400, "bad_limit");
    s.get("/api/jobs/999/solutions").error(404, "not_found");
    s.get("/api/jobs/999").error(404, "not_found");
    s.post("/api/jobs/999/cancel", &json!({}))
        .error(404, "not_found");
    s.post(&format!("/api/jobs/{id}/cancel"), &json!({}))
        .error(409, "job_finished");
}

#[test]
fn jobs_are_listed_per_session_and_stream_events() {
    let s = server("events");
    let a = s.post_as("session-a-1", "/api/place", &json!({"pieces": "R2B2"}));
    let b = s.post_as("session-b-1", "/api/place", &json!({"pieces": "R2"}));
    let (a, b) = (job_id(&a.json()), job_id(&b.json()));
    let list = s
        .request(
            "GET",
            "/api/jobs",
            None,
            &[("X-Koma-Session", "session-a-1")],
        )
        .json();
    let ids: Vec<i64> = list.as_array().unwrap().iter().map(job_id).collect();
    assert_eq!(ids, vec![a]);
    // The event stream ends with an `end` event carrying the finished job.
    let events = s.get(&format!("/api/jobs/{b}/events"));
    assert_eq!(events.header("content-type"), Some("text/event-stream"));
    let end = events
        .body
        .split("\n\n")
        .find(|e| e.contains("event: end"))
        .unwrap_or_else(|| panic!("no end event: {}", events.body));
    let data = end.lines().find_map(|l| l.strip_prefix("data: ")).unwrap();
    let job: Value = serde_json::from_str(data).unwrap();
    assert_eq!(job["state"], "done");
    // Two rooks on different files and ranks: C(9,2)² · 2.
    assert_eq!(job["result"]["count"], "2592");
    s.get("/api/jobs/12345/events").error(404, "not_found");
}

#[test]
fn hasami_games() {
    let s = server("hasami");
    let g = s
        .post(
            "/api/hasami/games",
            &json!({"agent": "random", "human": "b"}),
        )
        .json();
    let id = g["id"].as_str().unwrap().to_owned();
    assert_eq!(g["legal_moves"].as_array().unwrap().len(), 63);
    assert_eq!(g["pieces"], json!({"black": 9, "white": 9}));
    let url = format!("/api/hasami/games/{id}");
    let after = s
        .post(&format!("{url}/move"), &json!({"move": "9i9b"}))
        .json();
    assert_eq!(after["side_to_move"], "w");
    assert_eq!(after["last_move"], "9i9b");
    s.post(&format!("{url}/move"), &json!({"move": "1a1b"}))
        .error(409, "not_your_turn");
    let ai = s.post(&format!("{url}/ai"), &json!({})).json();
    assert_eq!(ai["side_to_move"], "b");
    assert_eq!(ai["moves"].as_array().unwrap().len(), 2);
    // Another agent for one move, and an empty body. The agent's moves are random, so Black
    // plays a move the state lists (a fixed one could be blocked by White's last move), off
    // file 9, which the illegal move below needs as it is.
    let first_legal = |state: &Value| {
        let moves = state["legal_moves"].as_array().unwrap();
        let off_9 = moves
            .iter()
            .filter_map(Value::as_str)
            .find(|m| !m.contains('9'));
        off_9.unwrap().to_owned()
    };
    let r = s.post(&format!("{url}/move"), &json!({"move": first_legal(&ai)}));
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s.request("POST", &format!("{url}/ai"), None, &[]);
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s.post(
        &format!("{url}/move"),
        &json!({"move": first_legal(&r.json())}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s.post(&format!("{url}/ai"), &json!({"agent": "search:50ms"}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(s.get(&url).json()["moves"].as_array().unwrap().len(), 6);

    s.post(&format!("{url}/move"), &json!({"move": "9i9a"}))
        .error(400, "illegal_move");
    s.post(&format!("{url}/move"), &json!({"move": "zz"}))
        .error(400, "bad_move");
    s.post(&format!("{url}/ai"), &json!({"agent": "alphazero"}))
        .error(400, "bad_agent");
    s.post("/api/hasami/games", &json!({"agent": "study:8"}))
        .error(400, "agent_too_slow");
    s.post("/api/hasami/games", &json!({"human": "x"}))
        .error(400, "bad_colour");
    s.post("/api/hasami/games", &json!({"ply_limit": 0}))
        .error(400, "bad_ply_limit");
    s.get("/api/hasami/games/nope").error(404, "not_found");

    // A game drawn at its ply limit refuses more moves.
    let g = s
        .post(
            "/api/hasami/games",
            &json!({"human": "both", "ply_limit": 2}),
        )
        .json();
    let url = format!("/api/hasami/games/{}", g["id"].as_str().unwrap());
    s.post(&format!("{url}/move"), &json!({"move": "9i9e"}));
    let end = s
        .post(&format!("{url}/move"), &json!({"move": "1a1e"}))
        .json();
    assert_eq!(end["outcome"], "draw");
    assert_eq!(end["reason"], "the ply limit");
    assert!(end["legal_moves"].as_array().unwrap().is_empty());
    assert_eq!(end["record"], "position startpos moves 9i9e 1a1e");
    s.post(&format!("{url}/move"), &json!({"move": "8i8e"}))
        .error(409, "game_over");
    s.post(&format!("{url}/ai"), &json!({}))
        .error(409, "game_over");
}
