//! [`solve`]: the search split into tasks run on a thread pool, resumed tasks skipped, and the
//! counts added up into an [`Outcome`].

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::search::{Acc, Scratch, Search, Task};
use crate::{Mode, Options, Placement, Problem, Progress, TaskCount};

/// What a search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Placements (mirror images counted separately). When enumerating, those found.
    pub count: u128,
    /// Placements with each mirror pair counted once.
    pub count_mirror_identified: u128,
    /// True when the search ran to the end, so the counts are the full answer.
    pub complete: bool,
    /// Search nodes visited (by the earlier runs too, for resumed tasks).
    pub nodes: u64,
    /// Parallel tasks finished (resumed ones included).
    pub tasks_done: usize,
    /// Parallel tasks in all.
    pub tasks: usize,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// Solves `problem`: counts or enumerates its placements, handing each enumerated placement to
/// `on_solution` as soon as it is found (from several threads, hence `Sync`).
///
/// Counts are exact when `complete` is true; the search stops early on a limit or time limit.
pub fn solve(
    problem: &Problem,
    opts: &Options<'_>,
    on_solution: &(dyn Fn(&Placement) + Sync),
) -> Outcome {
    let start = Instant::now();
    let search = Search::new(problem, opts, on_solution);
    let threads = opts.thread_count();
    let split = opts.split_target();
    let tasks = search.tasks(split);
    let total = tasks.len();
    // Resumed tasks (each once): skipped, their counts added in.
    let mut skip = vec![false; total];
    let mut before = Acc::default();
    let resume = if opts.mode == Mode::Count {
        opts.resume
    } else {
        &[]
    };
    for t in resume.iter().filter(|t| t.task < total) {
        if !std::mem::replace(&mut skip[t.task], true) {
            before = before.add(Acc {
                count: t.count,
                mirror_fixed: t.mirror_fixed,
                mirror_classes: 0,
                nodes: t.nodes,
            });
        }
    }
    let done = AtomicUsize::new(skip.iter().filter(|&&s| s).count());
    let found = Mutex::new(before.count);
    let run = |scratch: &mut Scratch, (index, task): (usize, Task)| {
        let acc = search.run(task, scratch);
        if search.stopped() {
            return acc;
        }
        let d = done.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(progress) = opts.progress {
            let mut f = found.lock().unwrap_or_else(|e| e.into_inner());
            *f += acc.count;
            progress(Progress {
                done: d,
                total,
                found: *f,
                task: TaskCount {
                    task: index,
                    count: acc.count,
                    mirror_fixed: acc.mirror_fixed,
                    nodes: acc.nodes,
                },
            });
        }
        acc
    };
    let todo: Vec<_> = tasks
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !skip[*i])
        .collect();
    let acc = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| {
            todo.into_par_iter()
                .map_init(Scratch::default, run)
                .reduce(Acc::default, Acc::add)
        }),
        Err(_) => {
            let mut scratch = Scratch::default();
            let run = |task| run(&mut scratch, task);
            todo.into_iter().map(run).fold(Acc::default(), Acc::add)
        }
    }
    .add(before);
    let complete = !search.stopped();
    Outcome {
        count: acc.count,
        count_mirror_identified: match opts.mode {
            Mode::Count => (acc.count + acc.mirror_fixed) / 2,
            Mode::Enumerate { .. } => acc.mirror_classes,
        },
        complete: complete && !search.interrupted(),
        nodes: acc.nodes,
        tasks_done: done.load(Ordering::Relaxed),
        tasks: total,
        elapsed: start.elapsed(),
    }
}
