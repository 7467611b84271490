//! Published and landmark results on the 9×9 board. Quick ones run always; heavy ones are
//! `#[ignore]`d and meant for release builds:
//! `cargo test -p koma-place --release --test published -- --include-ignored`.

mod common;

use std::sync::Mutex;

use koma_place::{Geometry, Mode, Options, Placement, Problem, TaskCount, checkpoint, solve};

fn problem(pieces: &str, both: bool) -> Problem {
    Problem::new(pieces.parse().unwrap(), Geometry::standard(), both).unwrap()
}

fn board(p: &Placement) -> common::Board {
    p.pieces()
        .iter()
        .map(|q| (q.square as usize, q.kind, q.color))
        .collect()
}

fn enumerate(problem: &Problem, limit: Option<u64>) -> (koma_place::Outcome, Vec<Placement>) {
    let found = Mutex::new(Vec::new());
    let opts = Options {
        mode: Mode::Enumerate { limit },
        ..Options::default()
    };
    let out = solve(problem, &opts, &|p| found.lock().unwrap().push(p.clone()));
    (out, found.into_inner().unwrap())
}

/// The published count: 3720 one-directional placements of the 40 pieces, 1860 up to mirror.
#[test]
fn standard_40_one_directional() {
    let p = problem("P18L4N4S4G4K2R2B2", false);
    let counted = solve(&p, &Options::default(), &|_| {});
    assert!(counted.complete);
    assert_eq!(
        (counted.count, counted.count_mirror_identified),
        (3720, 1860)
    );
    let (out, all) = enumerate(&p, None);
    assert_eq!((out.count, out.count_mirror_identified), (3720, 1860));
    let distinct: std::collections::HashSet<String> = all.iter().map(Placement::to_sfen).collect();
    assert_eq!(distinct.len(), 3720);
    assert!(
        all.iter()
            .all(|p| p.pieces().len() == 40 && common::valid(9, 9, &board(p)))
    );
}

/// A pawn more than the set holds cannot be placed one-directionally (the 40 is the maximum
/// with this many pawns), and no 41st piece of any kind fits: even a stone is refused.
#[test]
fn standard_40_plus_a_stone_one_directional_is_impossible() {
    let p = problem("P18L4N4S4G4K2R2B2X", false);
    let out = solve(&p, &Options::default(), &|_| {});
    assert!(out.complete);
    assert_eq!(out.count, 0);
}

/// Thirty stones: C(81, 30) placements, more than a `u64` holds, and (C(81, 30) + the
/// mirror-symmetric ones) / 2 up to mirror; the leaf then counts in `u128`.
#[test]
fn thirty_stones_count_beyond_u64() {
    let out = solve(&problem("X30", false), &Options::default(), &|_| {});
    assert!(out.complete);
    assert_eq!(
        (out.count, out.count_mirror_identified),
        (
            14_089_890_496_511_308_441_248,
            7_044_945_248_527_625_353_536
        )
    );
}

/// The 39-piece count by enumeration equals the count with pawns counted at the leaves.
#[test]
#[ignore = "heavy: run in release"]
fn standard_39_one_directional_enumerated_matches_counted() {
    let p = problem("P17L4N4S4G4K2R2B2", false);
    let counted = solve(&p, &Options::default(), &|_| {});
    assert!(counted.complete);
    assert_eq!(counted.count, 14_032_268);
    assert_eq!(counted.count_mirror_identified, 7_016_134);
    let opts = Options {
        mode: Mode::Enumerate { limit: None },
        ..Options::default()
    };
    let out = solve(&p, &opts, &|_| {});
    assert_eq!(
        (out.count, out.count_mirror_identified),
        (counted.count, counted.count_mirror_identified)
    );
}

/// The largest known two-directional placement: the 40 pieces and 6 more knights.
#[test]
#[ignore = "heavy: run in release"]
fn forty_six_pieces_two_directional() {
    let p = problem("P18L4N10S4G4K2R2B2", true);
    let (out, found) = enumerate(&p, Some(1));
    assert_eq!(out.count, 1);
    assert!(common::valid(9, 9, &board(&found[0])));
    assert_eq!(found[0].pieces().len(), 46);
}

/// Two-directional counts of the 40 + 4 pawns (44 pieces), the 40 + 3 pawns with two of them
/// promoted and the 40 + 3 pawns (43): the same as the searches before the transfer over files
/// found them (kings, golds, silvers, knights placed square by square; before that, lances too
/// and golds and promoted pawns as separate groups). The 40 + 2 pawns (42) was first counted by
/// the transfer (229 s on one thread): kept so that it stays the same.
#[test]
#[ignore = "heavy: run in release"]
fn two_directional_counts() {
    for (pieces, count, classes) in [
        ("P22L4N4S4G4K2R2B2", 51_058_048, 25_529_024),
        ("P19+P2L4N4S4G4K2R2B2", 686_905_920, 343_452_960),
        ("P21L4N4S4G4K2R2B2", 30_960_351_132, 15_480_175_566),
        ("P20L4N4S4G4K2R2B2", 107_178_460_802_076, 53_589_230_401_038),
    ] {
        let out = solve(&problem(pieces, true), &Options::default(), &|_| {});
        assert!(out.complete, "{pieces}");
        assert_eq!((out.count, out.count_mirror_identified), (count, classes));
    }
}

/// Every two-directional placement of the 40: 1,881,364,205,598,115,808, counted by
/// `koma place P18L4N4S4G4K2R2B2 --both-ways --checkpoint FILE` in 91 minutes on two threads.
/// That file is kept in tests/data; this test checks that its tasks add up to the count and
/// recounts a sample of them (tasks with few nodes, whose counts range from 10⁴ to 3 × 10¹⁰),
/// taking the rest as recorded, so a change to the search or the transfer that alters any of
/// them fails here.
#[test]
#[ignore = "heavy: run in release"]
fn the_40_two_directional_recorded_and_sampled() {
    const COUNT: u128 = 1_881_364_205_598_115_808;
    let text = include_str!("data/the40_both_ways.jsonl");
    let the40 = problem("P18L4N4S4G4K2R2B2", true);
    let expected = checkpoint::CheckpointHeader::new(&the40, 0);
    let (header, recorded) = checkpoint::read(text.as_bytes(), &expected).unwrap();
    let header = header.unwrap();
    assert_eq!(header.pieces, "P18L4N4S4G4K2B2R2");
    assert!(header.both_ways);
    let split = header.split;
    let mut tasks: Vec<TaskCount> = recorded
        .iter()
        .map(|r| {
            assert_eq!(r.of, 600);
            r.task_count()
        })
        .collect();
    assert_eq!(tasks.len(), text.lines().count() - 1);
    tasks.sort_by_key(|t| t.task);
    assert!(tasks.iter().enumerate().all(|(i, t)| t.task == i));
    assert_eq!(tasks.iter().map(|t| t.count).sum::<u128>(), COUNT);
    let sample = [269, 282, 320, 335, 385, 594];
    let resume: Vec<TaskCount> = tasks
        .iter()
        .copied()
        .filter(|t| !sample.contains(&t.task))
        .collect();
    let searched = Mutex::new(Vec::new());
    let progress = |p: koma_place::Progress| searched.lock().unwrap().push(p.task);
    let opts = Options {
        split,
        resume: &resume,
        progress: Some(&progress),
        ..Options::default()
    };
    let out = solve(&the40, &opts, &|_| {});
    assert!(out.complete);
    assert_eq!(out.tasks, 600);
    let mut searched = searched.into_inner().unwrap();
    searched.sort_by_key(|t| t.task);
    let recorded: Vec<TaskCount> = sample.iter().map(|&i| tasks[i]).collect();
    assert_eq!(searched, recorded);
    assert_eq!((out.count, out.count_mirror_identified), (COUNT, COUNT / 2));
}

/// Eight pawns promoted and one knight more (41 pieces) fit two-directionally.
#[test]
#[ignore = "heavy: run in release"]
fn eight_promoted_pawns_and_a_ninth_knight_two_directional() {
    let p = problem("P10+P8L4N5S4G4K2R2B2", true);
    let (out, found) = enumerate(&p, Some(1));
    assert_eq!(out.count, 1);
    assert_eq!(found[0].pieces().len(), 41);
    assert!(common::valid(9, 9, &board(&found[0])));
}

/// Eight pawns promoted and two knights more (42 pieces), and nine pawns promoted (the 40), do
/// not fit two-directionally: complete searches, the first also without symmetry.
#[test]
#[ignore = "heavy: run in release"]
fn promoted_pawn_sets_that_do_not_fit_two_directionally() {
    for (pieces, symmetry) in [
        ("P10+P8L4N6S4G4K2R2B2", true),
        ("P10+P8L4N6S4G4K2R2B2", false),
        ("P9+P9L4N4S4G4K2R2B2", true),
    ] {
        let opts = Options {
            mode: Mode::Enumerate { limit: Some(1) },
            symmetry,
            ..Options::default()
        };
        let out = solve(&problem(pieces, true), &opts, &|_| {});
        assert!(out.complete, "{pieces}");
        assert_eq!(out.count, 0, "{pieces}");
    }
}
