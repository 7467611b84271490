//! How to search ([`Options`], [`Mode`]) and what a running search reports ([`Progress`],
//! [`TaskCount`]: the unit a long count records and resumes from).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// What the search does with solutions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Count all placements: the long-range pieces are searched, the short-range rest (king,
    /// gold-likes, silver, knight, lance, pawn, stone; free facing) is counted file by file
    /// without enumerating it.
    Count,
    /// Visit placements one by one and hand each to the callback, stopping after `limit`
    /// (`--first` is a limit of 1).
    Enumerate {
        /// Stop after this many solutions were handed out.
        limit: Option<u64>,
    },
}

/// What one finished parallel task found: the unit a long count records to resume from.
///
/// Tasks are numbered by their place in the split of the search, which depends only on the
/// problem, `symmetry`, `prune` and [`Options::split`], never on the thread count or the order
/// in which tasks finish.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskCount {
    /// The task's number, from 0.
    pub task: usize,
    /// Placements the task found (counted, or handed out when enumerating).
    pub count: u128,
    /// Counting only: of those, placements equal to their own mirror image.
    pub mirror_fixed: u128,
    /// Search nodes the task visited.
    pub nodes: u64,
}

/// Progress of a running search, reported after each finished task.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Tasks finished, those resumed from included.
    pub done: usize,
    /// Tasks in all.
    pub total: usize,
    /// Placements counted so far.
    pub found: u128,
    /// The task that just finished.
    pub task: TaskCount,
}

/// How to search.
pub struct Options<'a> {
    /// Count or enumerate.
    pub mode: Mode,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// Use the left-right mirror (and, two-directionally with free colours, the 180° turn with
    /// colours swapped) to search only one placement of each symmetry class.
    pub symmetry: bool,
    /// Use the pawn-and-stone test to prune.
    pub prune: bool,
    /// When enumerating, hand out only one placement of each mirror pair.
    pub identify_mirror: bool,
    /// Stop (with `complete == false`) after this long.
    pub time_limit: Option<Duration>,
    /// Stop (with `complete == false`) soon after this flag is set, from any thread: a caller's
    /// cancel button. Finished tasks have been reported to `progress`, so a count can resume.
    pub cancel: Option<&'a AtomicBool>,
    /// Called after each finished task.
    pub progress: Option<&'a (dyn Fn(Progress) + Sync)>,
    /// Split the search into at least this many parallel tasks; 0 means 256 per thread. A
    /// resumed count must use the split of the run it resumes.
    pub split: usize,
    /// Counting only (ignored when enumerating): tasks finished by an earlier run of the same
    /// problem, options and split. They are not searched again; their counts are added in.
    pub resume: &'a [TaskCount],
}

impl Options<'_> {
    /// The worker threads `solve` uses: `threads`, or one per core when it is 0.
    pub fn thread_count(&self) -> usize {
        if self.threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            self.threads
        }
    }

    /// The task split `solve` asks for: `split`, or 256 per thread when it is 0.
    pub fn split_target(&self) -> usize {
        if self.split == 0 {
            256 * self.thread_count()
        } else {
            self.split
        }
    }
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            mode: Mode::Count,
            threads: 0,
            symmetry: true,
            prune: true,
            identify_mirror: false,
            time_limit: None,
            cancel: None,
            progress: None,
            split: 0,
            resume: &[],
        }
    }
}
