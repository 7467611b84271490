//! A count resumed from the tasks of an earlier run (`Options::resume`) searches only the
//! other tasks and adds up to the same count.

use std::sync::Mutex;

use koma_place::{Geometry, Options, Problem, Progress, TaskCount, solve};

/// Runs a count, returning its count and the tasks it searched (in no set order).
fn count(problem: &Problem, resume: &[TaskCount], threads: usize) -> (u128, u128, Vec<TaskCount>) {
    let searched = Mutex::new(Vec::new());
    let progress = |p: Progress| searched.lock().unwrap().push(p.task);
    let opts = Options {
        threads,
        split: 64,
        resume,
        progress: Some(&progress),
        ..Options::default()
    };
    let out = solve(problem, &opts, &|_| {});
    assert!(out.complete);
    assert_eq!(out.tasks_done, out.tasks);
    (
        out.count,
        out.count_mirror_identified,
        searched.into_inner().unwrap(),
    )
}

#[test]
fn resumed_count_searches_only_what_is_left() {
    for (pieces, files, ranks, both) in [("R2B2G2S2N2", 6, 6, true), ("R2B2K2G3L2P4", 6, 7, false)]
    {
        let problem = Problem::new(
            pieces.parse().unwrap(),
            Geometry::new(files, ranks).unwrap(),
            both,
        )
        .unwrap();
        let (full, full_mirror, mut tasks) = count(&problem, &[], 2);
        assert!(tasks.len() > 8, "{pieces}: {} tasks", tasks.len());
        tasks.sort_by_key(|t| t.task);
        // Resume from every other task, some of which found placements.
        let earlier: Vec<TaskCount> = tasks.iter().copied().step_by(2).collect();
        assert!(earlier.iter().any(|t| t.count > 0), "{pieces}");
        let (resumed, resumed_mirror, searched) = count(&problem, &earlier, 1);
        assert_eq!((resumed, resumed_mirror), (full, full_mirror), "{pieces}");
        let mut searched: Vec<usize> = searched.iter().map(|t| t.task).collect();
        searched.sort_unstable();
        let rest: Vec<usize> = tasks.iter().skip(1).step_by(2).map(|t| t.task).collect();
        assert_eq!(searched, rest, "{pieces}");
        // The split does not depend on the thread count: the same tasks find the same.
        let (_, _, mut again) = count(&problem, &[], 1);
        again.sort_by_key(|t| t.task);
        assert_eq!(again, tasks, "{pieces}");
    }
}

/// A count cancelled part-way (`Options::cancel`) stops incomplete; the tasks it reported,
/// resumed, add up to the full count.
#[test]
fn cancelled_count_stops_and_resumes() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let problem = Problem::new(
        "R2B2G2S2N2".parse().unwrap(),
        Geometry::new(6, 6).unwrap(),
        true,
    )
    .unwrap();
    let (full, _, _) = count(&problem, &[], 1);
    let cancel = AtomicBool::new(false);
    let searched = Mutex::new(Vec::new());
    let progress = |p: Progress| {
        searched.lock().unwrap().push(p.task);
        if p.done >= 5 {
            cancel.store(true, Ordering::Relaxed);
        }
    };
    let opts = Options {
        threads: 1,
        split: 64,
        cancel: Some(&cancel),
        progress: Some(&progress),
        ..Options::default()
    };
    let out = solve(&problem, &opts, &|_| {});
    assert!(!out.complete);
    let done = searched.into_inner().unwrap();
    assert!(
        done.len() >= 5 && done.len() < out.tasks,
        "{} of {}",
        done.len(),
        out.tasks
    );
    let (resumed, _, _) = count(&problem, &done, 1);
    assert_eq!(resumed, full);
}
