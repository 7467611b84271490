//! 将棋図巧 (data/tsume/zukou.jsonl, CC0): a subset solved for the composer's answer and compared
//! with the records; the answer must not depend on the hash size. Heavy: release only
//! (`cargo test --release -p koma-tsume -- --ignored`). The whole set is a benchmark
//! (`cargo bench -p koma-tsume --bench zukou`), not a test.

use std::time::Duration;

use koma_core::{Move, Position};
use koma_tsume::{Cancel, Mode, Options, Outcome, Solver, Tuning, Verdict, check, solve};

struct Problem {
    id: String,
    sfen: String,
    solution: Vec<Move>,
}

fn problems() -> Vec<Problem> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/tsume/zukou.jsonl");
    let text =
        std::fs::read_to_string(path).expect("data/tsume/zukou.jsonl is part of the repository");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            Problem {
                id: v["id"].as_str().expect("id").to_string(),
                sfen: v["sfen"].as_str().expect("sfen").to_string(),
                solution: v["solution_usi"]
                    .as_array()
                    .expect("solution_usi")
                    .iter()
                    .map(|m| m.as_str().expect("a USI move").parse().expect("a USI move"))
                    .collect(),
            }
        })
        .collect()
}

fn problem(id: &str) -> Problem {
    problems()
        .into_iter()
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("{id} missing"))
}

fn composer(p: &Problem, hash_mib: usize) -> Vec<Move> {
    composer_tuned(p, hash_mib, Tuning::default())
}

fn composer_tuned(p: &Problem, hash_mib: usize, tuning: Tuning) -> Vec<Move> {
    composer_counted(p, hash_mib, tuning).0
}

#[test]
fn the_set_is_complete() {
    let all = problems();
    assert_eq!(all.len(), 100);
    for p in &all {
        Position::from_sfen(&p.sfen).unwrap_or_else(|e| panic!("{}: {e}", p.id));
        assert!(p.solution.len() % 2 == 1, "{}", p.id);
    }
}

/// Whether `line` is a mate from `sfen`: legal moves, the attacker checking every time, the
/// defender without an answer at the end.
fn mates(sfen: &str, line: &[Move]) -> bool {
    let mut pos = Position::from_sfen(sfen).unwrap();
    let attacker = pos.side_to_move();
    for &m in line {
        let mover = pos.side_to_move();
        if !pos.play(m) || (mover == attacker && !pos.in_check()) {
            return false;
        }
    }
    pos.is_checkmate()
}

/// A subset against the records: the same length, and the same line except where the record
/// picks another of equally long defences (変同; koma takes the first in its canonical order).
#[test]
#[ignore = "heavy: run in release"]
fn subset_agrees_with_the_records() {
    for (id, same_line) in [
        ("zukou-002", true),
        ("zukou-018", false),
        ("zukou-042", true),
    ] {
        let p = problem(id);
        let ours = composer(&p, 64);
        assert!(
            mates(&p.sfen, &p.solution),
            "{id}: the record is not a mate"
        );
        assert_eq!(ours.len(), p.solution.len(), "{id}");
        assert_eq!(ours == p.solution, same_line, "{id}: {ours:?}");
    }
    // 図巧18: at ply 22 the record plays △2三玉, koma △1二玉 (first in its order); both are
    // mated by ▲2二馬 (3a2b) at once.
    let p = problem("zukou-018");
    let ours = composer(&p, 64);
    let differ: Vec<usize> = (0..ours.len())
        .filter(|&i| ours[i] != p.solution[i])
        .collect();
    assert_eq!(differ, [21]);
}

#[test]
#[ignore = "heavy: run in release"]
fn the_answer_does_not_depend_on_the_hash_size() {
    for id in ["zukou-002", "zukou-018", "zukou-044"] {
        let p = problem(id);
        let small = composer(&p, 1);
        let large = composer(&p, 256);
        assert_eq!(small, large, "{id}");
    }
}

/// A solver that keeps its table's memory from one problem to the next answers each exactly
/// as a solve of its own does, node for node: nothing one problem leaves in the table reaches
/// the next. 4 MiB makes the table grow to its limit and collect; the hash size changed halfway
/// allocates a new table; a check after the solves is the check of its own.
#[test]
#[ignore = "heavy: run in release"]
fn a_solver_kept_from_problem_to_problem_answers_as_fresh_solves() {
    let mut solver = Solver::new();
    let cancel = Cancel::new();
    for (id, hash_mib) in [
        ("zukou-012", 4),
        ("zukou-025", 4),
        ("zukou-012", 4),
        ("zukou-044", 8),
        ("zukou-025", 8),
    ] {
        let p = problem(id);
        let pos = Position::from_sfen(&p.sfen).unwrap();
        let opts = Options::default().hash_mib(hash_mib);
        let kept = solver.solve(&pos, &opts, &mut |_| {}, &cancel).unwrap();
        let fresh = solve(&pos, &opts, &mut |_| {}, &cancel).unwrap();
        assert!(
            matches!(&kept.outcome, Outcome::Mate(a) if a.optimal),
            "{id}: {:?}",
            kept.outcome
        );
        assert_eq!(kept.outcome, fresh.outcome, "{id}");
        assert_eq!(kept.stats.nodes, fresh.stats.nodes, "{id}");
        assert_eq!(kept.stats.hashfull, fresh.stats.hashfull, "{id}");
        assert_eq!(kept.stats.hash_bytes, hash_mib << 20, "{id}");
    }
    let p = problem("zukou-025");
    let pos = Position::from_sfen(&p.sfen).unwrap();
    let opts = Options::default().hash_mib(8);
    let kept = solver
        .check(&pos, &opts, Some(&p.solution), &mut |_| {}, &cancel)
        .unwrap();
    let fresh = check(&pos, &opts, Some(&p.solution), &mut |_| {}, &cancel).unwrap();
    assert_eq!(kept.verdict, fresh.verdict);
    assert_eq!(kept.answer, fresh.answer);
    assert_eq!(kept.expected, fresh.expected);
    assert_eq!(kept.stats.nodes, fresh.stats.nodes);
}

/// The search's thresholds change its order, never the answer: every step of the composer's
/// answer is an exact fact (docs/tsume.md, "How the answer is found").
#[test]
#[ignore = "heavy: run in release"]
fn the_answer_does_not_depend_on_the_refutations_thresholds() {
    same_answers_with(Tuning {
        wide_refutation: false,
        ..Tuning::default()
    });
}

/// The first looks a defender node puts off (`Tuning::lazy_first_look`) change the search's
/// order, never the answer.
#[test]
#[ignore = "heavy: run in release"]
fn the_answer_does_not_depend_on_when_children_are_first_looked_at() {
    same_answers_with(Tuning {
        lazy_first_look: false,
        ..Tuning::default()
    });
}

/// The trials below a long line's nodes before it is settled (`Tuning::line_trials`) change
/// which exact searches are made, never the answer: on 図巧29, 34 and 36, whose first lines
/// are two to ten plies longer than their answers, with lines settled from 8 plies so that
/// theirs are. The trials do change the search (the node counts), so the test compares
/// something.
#[test]
#[ignore = "heavy: run in release"]
fn the_answer_does_not_depend_on_the_lines_trials() {
    let settled = Tuning {
        long_line: 8,
        ..Tuning::default()
    };
    let without = Tuning {
        line_trials: false,
        ..settled
    };
    let mut moved = 0;
    for id in ["zukou-029", "zukou-034", "zukou-036"] {
        let p = problem(id);
        let (line, nodes) = composer_counted(&p, 64, settled);
        let (line_without, nodes_without) = composer_counted(&p, 64, without);
        assert_eq!(line, line_without, "{id}");
        moved += (nodes != nodes_without) as u32;
    }
    assert!(moved > 0, "the trials changed no search");
}

/// The composer's answer of `p` with `tuning`, and the nodes its solve took.
fn composer_counted(p: &Problem, hash_mib: usize, tuning: Tuning) -> (Vec<Move>, u64) {
    let pos = Position::from_sfen(&p.sfen).unwrap();
    let mut opts = Options::default()
        .hash_mib(hash_mib)
        .time(Duration::from_secs(120));
    opts.tuning = tuning;
    let sol = solve(&pos, &opts, &mut |_| {}, &Cancel::new()).expect("a mate problem");
    match sol.outcome {
        Outcome::Mate(a) => {
            assert!(a.optimal, "{}: the composer's answer was not settled", p.id);
            (a.moves, sol.stats.nodes)
        }
        other => panic!("{}: {other:?}", p.id),
    }
}

/// Asserts that 図巧2, 18 and 44 get the same composer's answer with `tuning` as with the
/// default one.
fn same_answers_with(tuning: Tuning) {
    for id in ["zukou-002", "zukou-018", "zukou-044"] {
        let p = problem(id);
        assert_eq!(composer(&p, 64), composer_tuned(&p, 64, tuning), "{id}");
    }
}

/// 図巧33's answer needs the rook's non-promotion ▲８三飛不成 (8e8c) at ply 3: the bounded
/// searches, which search it only after the promotion is refuted, give the same answer as
/// without the delay (docs/tsume.md, "The search").
#[test]
#[ignore = "heavy: run in release"]
fn a_non_promotion_the_answer_needs_is_found_behind_its_promotion() {
    let p = problem("zukou-033");
    let delayed = composer(&p, 64);
    let plain = Tuning {
        delay_non_promotions: false,
        ..Tuning::default()
    };
    assert_eq!(
        delayed.get(2),
        Some(&"8e8c".parse().unwrap()),
        "{delayed:?}"
    );
    assert_eq!(delayed, composer_tuned(&p, 64, plain));
}

/// 図巧44 in the fast mode: the proof's line once ended "inconsistent" at ply 26, where the only
/// mating check returns to a position of the line (graph-history interaction in the line walk;
/// the same shape from ply 10 is a test in problems.rs). Its composer's answer is 15 plies, the
/// record's length.
#[test]
#[ignore = "heavy: run in release"]
fn zukou_044_fast_mode_ends_in_a_verified_mate() {
    let p = problem("zukou-044");
    let pos = Position::from_sfen(&p.sfen).unwrap();
    for hash in [1, 64] {
        let opts = Options::default()
            .hash_mib(hash)
            .mode(Mode::Any)
            .time(Duration::from_secs(120));
        match solve(&pos, &opts, &mut |_| {}, &Cancel::new())
            .expect("a mate problem")
            .outcome
        {
            Outcome::Mate(a) => assert!(mates(&p.sfen, &a.moves), "hash {hash}: {:?}", a.moves),
            other => panic!("hash {hash}: {other:?}"),
        }
    }
    assert_eq!(composer(&p, 64).len(), 15);
}

/// The short endings of real problems checked as problems of their own: the position `plies`
/// before the end of the record, with the record's last moves as the expected answer. A check
/// of a short problem costs little: the node count is deterministic and bounded here (in
/// release it is milliseconds; the figures are in docs/tsume.md).
#[test]
fn checks_of_short_endings_are_cheap_and_agree_with_the_records() {
    for (id, plies) in [
        ("zukou-002", 3),
        ("zukou-002", 5),
        ("zukou-042", 3),
        ("zukou-092", 3),
    ] {
        let p = problem(id);
        let start = p.solution.len() - plies;
        let mut pos = Position::from_sfen(&p.sfen).unwrap();
        for &m in &p.solution[..start] {
            assert!(pos.play(m), "{id}: the record's move {m} is legal");
        }
        let expected = &p.solution[start..];
        let opts = Options::default().hash_mib(16);
        let c = check(&pos, &opts, Some(expected), &mut |_| {}, &Cancel::new())
            .expect("a mate problem");
        assert_eq!(
            c.verdict,
            Verdict::Sound,
            "{id} last {plies}: {:?}",
            c.findings
        );
        let cmp = c.expected.expect("compared");
        assert!(
            cmp.agrees && cmp.expected_mates,
            "{id} last {plies}: {cmp:?}"
        );
        assert!(
            c.stats.nodes < 20_000,
            "{id} last {plies}: {} nodes",
            c.stats.nodes
        );
    }
}
