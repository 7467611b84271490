//! What a solve may spend and what it looks for.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The hash size (MiB) of [`Limits::default`]: 1 GiB, for a single solve on a desktop. Tests,
/// batch workers and servers holding several solves at once should set less.
pub const DEFAULT_HASH_MIB: usize = 1024;

/// Resources one solve may use. A solve that reaches a limit answers
/// [`Outcome::Unknown`](crate::Outcome::Unknown) with the figures so far; it never guesses.
///
/// ```
/// use std::time::Duration;
/// use koma_tsume::Limits;
/// let limits = Limits { time: Some(Duration::from_secs(30)), hash_mib: 64, ..Limits::default() };
/// assert_eq!(limits.nodes, None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time, or `None` for no limit.
    pub time: Option<Duration>,
    /// Search nodes (moves made in the search tree), or `None` for no limit.
    pub nodes: Option<u64>,
    /// Memory of the transposition table in MiB: all the memory a solve grows with. The table
    /// is allocated once and replaced into when full; pages the search never touches cost
    /// nothing on systems that map zeroed memory lazily.
    pub hash_mib: usize,
}

impl Limits {
    /// The table's memory in bytes (at least 1 MiB).
    pub(crate) fn hash_bytes(&self) -> usize {
        self.hash_mib.max(1) << 20
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            time: None,
            nodes: None,
            hash_mib: DEFAULT_HASH_MIB,
        }
    }
}

/// What the solve looks for once mate is proven.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// The composer's answer by the rules of tsume (docs/tsume.md): shortest mate against the
    /// longest resistance, useless interpositions left out, a fixed order among equals. The
    /// proof is followed by exact length searches.
    #[default]
    Composer,
    /// Stop at the first proof: the answer is some verified mating line, not necessarily the
    /// shortest.
    Any,
}

/// Limits and mode of a solve, built with the setters.
///
/// ```
/// use koma_tsume::{Mode, Options};
/// let opts = Options::default().hash_mib(16).nodes(1_000_000).mode(Mode::Any);
/// assert_eq!(opts.limits.hash_mib, 16);
/// assert_eq!(opts.mode, Mode::Any);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Resources.
    pub limits: Limits,
    /// What to find.
    pub mode: Mode,
    /// Accelerator switches, for measurements only.
    #[doc(hidden)]
    pub tuning: crate::Tuning,
}

impl Options {
    /// With a time limit.
    pub fn time(mut self, time: Duration) -> Options {
        self.limits.time = Some(time);
        self
    }

    /// With a node limit.
    pub fn nodes(mut self, nodes: u64) -> Options {
        self.limits.nodes = Some(nodes);
        self
    }

    /// With a hash size in MiB (at least 1 is used).
    pub fn hash_mib(mut self, mib: usize) -> Options {
        self.limits.hash_mib = mib;
        self
    }

    /// With the hash divided among `workers` solves running at once (each gets its share, at
    /// least 1 MiB), so that together they stay within the hash size set.
    ///
    /// ```
    /// use koma_tsume::Options;
    /// assert_eq!(Options::default().hash_mib(1024).divided_among(3).limits.hash_mib, 341);
    /// assert_eq!(Options::default().hash_mib(1).divided_among(4).limits.hash_mib, 1);
    /// ```
    pub fn divided_among(mut self, workers: usize) -> Options {
        self.limits.hash_mib = (self.limits.hash_mib / workers.max(1)).max(1);
        self
    }

    /// With a mode.
    pub fn mode(mut self, mode: Mode) -> Options {
        self.mode = mode;
        self
    }
}

/// Stops a solve from another thread: clone it, hand one copy to the solve and call
/// [`Cancel::cancel`] on the other. The solve answers
/// [`Unknown`](crate::Outcome::Unknown)`(`[`Cancelled`](crate::UnknownReason::Cancelled)`)`
/// within a few milliseconds.
///
/// ```
/// use koma_tsume::Cancel;
/// let token = Cancel::new();
/// let other = token.clone();
/// std::thread::spawn(move || other.cancel()).join().unwrap();
/// assert!(token.is_cancelled());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A token not yet cancelled.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Asks every solve holding this token (or a clone) to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`Cancel::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}
