//! The job system through the API: the bounded queue, fairness between sessions, cancel,
//! restarts (graceful and after a crash) that lose nothing, and a server that keeps answering
//! while solver jobs run.

mod common;

use std::time::{Duration, Instant};

use common::{TestServer, limits, temp_dir};
use koma_server::Limits;
use koma_server::db::{Db, PlaceTaskRow};
use koma_server::jobs::JobError;
use serde_json::{Value, json};

/// A count that runs for hours: the two-directional 40 (stopped by cancel in every test).
fn long_job() -> Value {
    json!({"pieces": "P18L4N4S4G4K2R2B2", "both_ways": true})
}

fn id(v: &Value) -> i64 {
    v["id"].as_i64().unwrap_or_else(|| panic!("no job id: {v}"))
}

fn cancel(s: &TestServer, id: i64) {
    let r = s.post(&format!("/api/jobs/{id}/cancel"), &json!({}));
    assert_eq!(r.status, 200, "{}", r.body);
    let j = s.wait_job(id, 30);
    assert_eq!(j["state"], "cancelled", "{j}");
}

#[test]
fn a_full_queue_answers_429() {
    let s = TestServer::start(
        &temp_dir("queue"),
        Limits {
            queue_capacity: 2,
            queue_per_session: 10,
            running_total: 1,
            running_per_session: 1,
            ..limits()
        },
    );
    let running = id(&s.post("/api/place", &long_job()).json());
    s.wait_until(running, 30, |j| j["state"] == "running");
    let q1 = id(&s.post("/api/place", &long_job()).json());
    let q2 = id(&s.post("/api/place", &long_job()).json());
    let e = s.post("/api/place", &long_job()).error(429, "queue_full");
    assert!(e["message"].as_str().unwrap().contains("wait"), "{e}");
    // A cancelled queued job frees its place.
    cancel(&s, q1);
    let q3 = id(&s.post("/api/place", &long_job()).json());
    for j in [q2, q3, running] {
        cancel(&s, j);
    }
}

#[test]
fn one_session_cannot_fill_the_queue() {
    let s = TestServer::start(
        &temp_dir("session-queue"),
        Limits {
            queue_per_session: 1,
            running_total: 1,
            running_per_session: 1,
            ..limits()
        },
    );
    let a = id(&s.post_as("session-a-2", "/api/place", &long_job()).json());
    s.wait_until(a, 30, |j| j["state"] == "running");
    let a2 = id(&s.post_as("session-a-2", "/api/place", &long_job()).json());
    s.post_as("session-a-2", "/api/place", &long_job())
        .error(429, "session_queue_full");
    let b = s.post_as("session-b-2", "/api/place", &long_job());
    assert_eq!(b.status, 202, "{}", b.body);
    for j in [a2, id(&b.json()), a] {
        cancel(&s, j);
    }
}

#[test]
fn sessions_share_the_runners_fairly() {
    let s = TestServer::start(
        &temp_dir("fair"),
        Limits {
            running_total: 2,
            running_per_session: 1,
            ..limits()
        },
    );
    let a1 = id(&s.post_as("session-a-3", "/api/place", &long_job()).json());
    let a2 = id(&s.post_as("session-a-3", "/api/place", &long_job()).json());
    s.wait_until(a1, 30, |j| j["state"] == "running");
    // B's job, submitted after A's second, runs first: A already has its one running job.
    let b = id(&s
        .post_as(
            "session-b-3",
            "/api/place",
            &json!({"pieces": "P18L4N4S4G4K2R2B2"}),
        )
        .json());
    let done = s.wait_job(b, 120);
    assert_eq!(done["result"]["count"], "3720");
    assert_eq!(s.get(&format!("/api/jobs/{a2}")).json()["state"], "queued");
    cancel(&s, a2);
    cancel(&s, a1);
}

#[test]
fn the_server_keeps_answering_while_solver_jobs_run() {
    let s = TestServer::start(&temp_dir("busy"), limits());
    let jobs: Vec<i64> = (0..3)
        .map(|_| id(&s.post("/api/place", &long_job()).json()))
        .collect();
    for &j in &jobs[..2] {
        s.wait_until(j, 30, |v| v["state"] == "running");
    }
    let mut times = Vec::new();
    let start = Instant::now();
    for i in 0..200 {
        let t = Instant::now();
        let r = if i % 2 == 0 {
            s.get("/api/info")
        } else {
            s.post(
                "/api/position",
                &json!({"usi": "startpos moves 7g7f 3c3d 8h2b+"}),
            )
        };
        assert_eq!(r.status, 200, "{}", r.body);
        times.push(t.elapsed());
    }
    let total = start.elapsed();
    times.sort();
    let p99 = times[times.len() * 99 / 100];
    eprintln!(
        "200 requests while 2 solver jobs run: {:.0} req/s, median {:?}, p99 {:?}, max {:?}",
        200.0 / total.as_secs_f64(),
        times[100],
        p99,
        times[199]
    );
    assert!(p99 < Duration::from_secs(1), "p99 {p99:?}");
    // Both still running: the requests did not stop them.
    for &j in &jobs[..2] {
        assert_eq!(s.get(&format!("/api/jobs/{j}")).json()["state"], "running");
    }
    for j in jobs {
        cancel(&s, j);
    }
}

#[test]
fn a_count_resumes_from_its_checkpoint_and_results_survive_restarts() {
    let dir = temp_dir("resume");
    let paused = Limits {
        running_total: 0,
        ..limits()
    };
    // Submitted while nothing runs, then half its tasks recorded as an earlier run would have.
    let s = TestServer::start(&dir, paused.clone());
    let job = s
        .post("/api/place", &json!({"pieces": "P18L4N4S4G4K2R2B2"}))
        .json();
    let job_id = id(&job);
    let split = job["params"]["split"].as_u64().unwrap() as usize;
    s.stop();
    let problem = koma_place::Problem::new(
        "P18L4N4S4G4K2R2B2".parse().unwrap(),
        koma_place::Geometry::standard(),
        false,
    )
    .unwrap();
    let tasks = std::sync::Mutex::new(Vec::new());
    let progress = |p: koma_place::Progress| tasks.lock().unwrap().push((p.task, p.total));
    let opts = koma_place::Options {
        threads: 1,
        split,
        progress: Some(&progress),
        ..koma_place::Options::default()
    };
    koma_place::solve(&problem, &opts, &|_| {});
    let mut tasks = tasks.into_inner().unwrap();
    tasks.sort_by_key(|(t, _)| t.task);
    assert!(tasks.len() >= 4, "{} tasks", tasks.len());
    let half: Vec<PlaceTaskRow> = tasks[..tasks.len() / 2]
        .iter()
        .map(|(t, total)| PlaceTaskRow {
            task: t.task,
            tasks: *total,
            count: t.count,
            mirror_fixed: t.mirror_fixed,
            nodes: t.nodes,
        })
        .collect();
    Db::open(&dir)
        .unwrap()
        .add_place_tasks(job_id, &half)
        .unwrap();

    let s = TestServer::start(&dir, limits());
    let done = s.wait_job(job_id, 120);
    assert_eq!(done["result"]["count"], "3720", "{done}");
    assert_eq!(done["result"]["count_mirror_identified"], "1860");
    assert_eq!(done["result"]["tasks_resumed"], half.len());
    s.stop();
    // The result stays.
    let s = TestServer::start(&dir, paused);
    assert_eq!(
        s.get(&format!("/api/jobs/{job_id}")).json()["result"]["count"],
        "3720"
    );
}

#[test]
fn a_running_job_is_requeued_by_a_graceful_stop() {
    let dir = temp_dir("graceful");
    let s = TestServer::start(&dir, limits());
    let j = id(&s.post("/api/place", &long_job()).json());
    s.wait_until(j, 30, |v| v["state"] == "running");
    s.stop();
    let s = TestServer::start(
        &dir,
        Limits {
            running_total: 0,
            ..limits()
        },
    );
    let v = s.get(&format!("/api/jobs/{j}")).json();
    assert_eq!(v["state"], "queued", "{v}");
    assert_eq!(v["restarts"], 1);
    assert_eq!(v["error"]["code"], "interrupted", "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("interrupted"),
        "{v}"
    );
    cancel(&s, j);
}

#[test]
fn jobs_interrupted_by_a_crash_are_requeued_or_failed_with_a_reason() {
    let dir = temp_dir("crash");
    {
        // What a killed server leaves: jobs marked running.
        let db = Db::open(&dir).unwrap();
        let params = json!({"pieces": "R2", "both_ways": false, "mode": "count", "limit": null,
            "mirror": false, "time_limit_secs": 60.0, "threads": 1, "split": 256});
        let place = db.insert_job("place", "s", &params).unwrap();
        db.set_running(place).unwrap();
        let unknown = db.insert_job("teleport", "s", &json!({})).unwrap();
        db.set_running(unknown).unwrap();
        let flaky = db.insert_job("place", "s", &params).unwrap();
        for _ in 0..3 {
            db.requeue(flaky, &JobError::Interrupted { crashed: true }.note())
                .unwrap();
        }
        db.set_running(flaky).unwrap();
    }
    let s = TestServer::start(
        &dir,
        Limits {
            running_total: 0,
            ..limits()
        },
    );
    let v = s.get("/api/jobs/1").json();
    assert_eq!(v["state"], "queued", "{v}");
    assert_eq!(v["error"]["code"], "interrupted", "{v}");
    assert!(v["error"]["message"].as_str().unwrap().contains("resumed"));
    let v = s.get("/api/jobs/2").json();
    assert_eq!(v["state"], "failed");
    assert_eq!(v["error"]["code"], "unknown_kind", "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("unknown"),
        "{v}"
    );
    let v = s.get("/api/jobs/3").json();
    assert_eq!(v["state"], "failed");
    assert!(
        v["error"]["code"] == "interrupted_too_often"
            && v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("interrupted 4 times"),
        "{v}"
    );
    s.stop();
    // Resumed with runners: the re-queued count finishes.
    let s = TestServer::start(&dir, limits());
    assert_eq!(s.wait_job(1, 60)["result"]["count"], "2592");
}

/// A job that fails says what and where as the API's errors do: a stable code, the message, the
/// parameter concerned (the libraries' typed errors, stored as such).
#[test]
fn failed_jobs_say_what_and_where() {
    let dir = temp_dir("typed-failures");
    let (pieces, sfen, unreadable) = {
        let db = Db::open(&dir).unwrap();
        let place = json!({"pieces": "R2Q", "both_ways": false, "mode": "count", "limit": null,
            "mirror": false, "time_limit_secs": 60.0, "threads": 1, "split": 256});
        let tsume = json!({"sfen": "9/9/9 b - 1", "mode": "solve", "expected": null,
            "time_limit_secs": 5.0, "hash_mib": 16});
        (
            db.insert_job("place", "s", &place).unwrap(),
            db.insert_job("tsume", "s", &tsume).unwrap(),
            db.insert_job("tsume", "s", &json!({"sfen": 3})).unwrap(),
        )
    };
    let s = TestServer::start(&dir, limits());
    for (id, code, field, says) in [
        (pieces, "bad_pieces", Some("pieces"), "pieces: "),
        (sfen, "bad_sfen", Some("sfen"), "sfen: "),
        (unreadable, "bad_stored_params", None, "cannot be read"),
    ] {
        let v = s.wait_job(id, 60);
        assert_eq!(v["state"], "failed", "{v}");
        assert_eq!(v["error"]["code"], code, "{v}");
        assert_eq!(v["error"]["field"].as_str(), field, "{v}");
        assert!(
            v["error"]["message"].as_str().unwrap().contains(says),
            "{v}"
        );
    }
    s.stop();
}
