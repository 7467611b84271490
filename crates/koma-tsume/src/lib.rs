//! koma-tsume: a tsume (詰将棋, mate problem) solver.
//!
//! [`solve`] proves mate or no mate by depth-first proof-number search (df-pn) over the
//! AND/OR graph of checks and evasions, then settles the composer's answer by the rules of tsume
//! (docs/tsume.md): the attacker plays the shortest mate, the defender the longest resistance,
//! useless interpositions (無駄合) are left out, and a fixed order decides among equals. The
//! answer does not depend on the hash size or on timing: it comes from exact length searches,
//! not from whatever proof the table kept. Every returned line is replayed and verified.
//!
//! The side to move attacks, whichever colour it is; the attacker may have no king, and with a
//! king (双玉) checks that expose it are illegal like any other such move. Repetition is not mate
//! (perpetual check loses), and no result that depends on the path through a repetition is
//! stored as if it held on every path.
//!
//! Main types: [`Options`] ([`Limits`], [`Mode`]), [`Cancel`], [`Progress`], [`Solver`] (a
//! table's memory kept from one solve to the next), and the
//! [`Solution`] with its [`Outcome`]: [`Answer`], no mate, or [`UnknownReason`]; a position
//! that is no mate problem is refused as [`NotAProblem`].
//! For front ends: [`Problem`] reads a line of a problem file (SFEN, USI or JSON), [`Report`]
//! is a solve's or check's result as serialisable data (moves in USI), [`Summary`] counts many.
//!
//! ```
//! use koma_core::{Move, Position};
//! use koma_tsume::{Cancel, Options, Outcome, solve};
//!
//! // ▲５二金 is mate: the pawn on 5c guards the gold.
//! let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").unwrap();
//! let sol = solve(&pos, &Options::default().hash_mib(4), &mut |_| {}, &Cancel::new()).unwrap();
//! let Outcome::Mate(answer) = sol.outcome else { panic!("mate expected") };
//! assert_eq!(answer.moves, ["G*5b".parse().unwrap()]);
//! assert!(answer.leftover.is_empty() && answer.optimal);
//! ```

#![warn(missing_docs)]

mod check;
mod hands;
mod keys;
mod options;
/// The exhaustive oracle of the integration tests, for the search's own unit tests.
#[cfg(test)]
#[path = "../tests/oracle/mod.rs"]
mod oracle;
mod order;
mod outcome;
mod problem;
mod report;
mod search;
mod solve;
mod table;
mod verify;

pub use check::{Check, Comparison, Description, Difference, Finding, Verdict, plies};
pub use options::{Cancel, DEFAULT_HASH_MIB, Limits, Mode, Options};
pub use outcome::{Answer, Outcome, Phase, Progress, Solution, Stats, UnknownReason, Variation};
pub use problem::{EXCERPT_CHARS, NotAProblem, Problem, ProblemError, ProblemErrorKind, ProblemId};
pub use report::{
    ComparisonReport, DifferenceReport, ErrorReport, FindingData, FindingReport, Report, Status,
    Summary, VerdictName, hand_letters, hand_text,
};
pub use search::{MAX_PLY, Tuning};

use koma_core::{Move, Position};

use crate::table::Table;

/// Solves the mate problem `pos`: the side to move attacks.
///
/// `progress` is called every quarter second or so from the solver's thread; `cancel` stops the
/// solve from another thread. The solve runs on a thread of its own with a deep stack and
/// returns when it knows, or at a limit of `options` ([`Outcome::Unknown`] then says which).
/// A position that is no mate problem (the defender has no king) is refused with
/// [`NotAProblem`] before any search.
///
/// ```
/// use std::time::Duration;
/// use koma_core::{Move, Position};
/// use koma_tsume::{Cancel, Options, Outcome, solve};
///
/// // A bare king cannot be mated: no mate, or unknown at the limit, never a mate.
/// let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b - 1").unwrap();
/// let opts = Options::default().hash_mib(4).time(Duration::from_secs(5));
/// let sol = solve(&pos, &opts, &mut |_| {}, &Cancel::new()).unwrap();
/// assert_eq!(sol.outcome, Outcome::NoMate);
/// ```
pub fn solve(
    pos: &Position,
    options: &Options,
    progress: &mut (dyn FnMut(&Progress) + Send),
    cancel: &Cancel,
) -> Result<Solution, NotAProblem> {
    Solver::new().solve(pos, options, progress, cancel)
}

/// Checks the mate problem `pos` (the side to move attacks) by the rules of tsume: solves it for
/// the composer's answer, then looks at every alternative along the answer: other mating moves
/// at the attacker's plies (余詰; at the last ply allowed and reported), defences at the
/// defender's plies that last as long (変同, with their lines as [`Variation`]s of the answer) or
/// longer (変長), and pieces left over at the end (駒余り). With `expected` (a recorded answer)
/// it also says whether that line agrees with the composer's answer and where it first differs.
/// A position that is no mate problem is refused with [`NotAProblem`], as by [`solve`].
///
/// ```
/// use koma_core::Position;
/// use koma_tsume::{Cancel, Options, Verdict, check};
///
/// let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").unwrap();
/// let expected = ["G*5b".parse().unwrap()];
/// let c = check(&pos, &Options::default().hash_mib(4), Some(&expected), &mut |_| {}, &Cancel::new())
///     .unwrap();
/// assert_eq!(c.verdict, Verdict::Sound);
/// assert!(c.expected.unwrap().agrees);
/// ```
pub fn check(
    pos: &Position,
    options: &Options,
    expected: Option<&[Move]>,
    progress: &mut (dyn FnMut(&Progress) + Send),
    cancel: &Cancel,
) -> Result<Check, NotAProblem> {
    Solver::new().check(pos, options, expected, progress, cancel)
}

/// A solver that keeps its transposition table's memory from one solve to the next, for many
/// problems solved one after another (a batch's worker, an engine between its searches).
///
/// [`Solver::solve`] and [`Solver::check`] answer exactly as [`solve`] and [`check`] do: the
/// table is emptied at the start of each solve (its time counted in the solve's), so nothing
/// one problem learnt reaches the next. What carries over is the memory: a fresh table of a
/// GiB costs the system a page fault and a clear of every page it grows into, several times
/// what clearing the slots used costs (on the development VM, about 0.3–2.4 s against 0.1 s
/// per GiB; docs/DECISIONS.md). The memory is allocated at the first solve, held until the
/// solver is dropped, and allocated anew when a solve asks for another hash size.
///
/// ```
/// use koma_core::Position;
/// use koma_tsume::{Cancel, Options, Outcome, Solver};
///
/// let mut solver = Solver::new();
/// let opts = Options::default().hash_mib(4);
/// for sfen in ["4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", "4k4/9/9/9/9/9/9/9/9 b - 1"] {
///     let pos = Position::from_sfen(sfen).unwrap();
///     let sol = solver.solve(&pos, &opts, &mut |_| {}, &Cancel::new()).unwrap();
///     assert_eq!(matches!(sol.outcome, Outcome::Mate(_)), sfen.contains('G'));
/// }
/// ```
#[derive(Default)]
pub struct Solver {
    table: Option<Table>,
}

impl Solver {
    /// A solver with no table yet (the first solve allocates it).
    pub fn new() -> Solver {
        Solver::default()
    }

    /// Solves the mate problem `pos` as [`solve`] does, with the solver's table.
    pub fn solve(
        &mut self,
        pos: &Position,
        options: &Options,
        progress: &mut (dyn FnMut(&Progress) + Send),
        cancel: &Cancel,
    ) -> Result<Solution, NotAProblem> {
        if let Some(why) = NotAProblem::of(pos) {
            return Err(why);
        }
        let (solution, tt) = solve::solve(pos, options, self.table(options), progress, cancel);
        self.table = Some(tt);
        Ok(solution)
    }

    /// Checks the mate problem `pos` as [`check`] does, with the solver's table.
    pub fn check(
        &mut self,
        pos: &Position,
        options: &Options,
        expected: Option<&[Move]>,
        progress: &mut (dyn FnMut(&Progress) + Send),
        cancel: &Cancel,
    ) -> Result<Check, NotAProblem> {
        if let Some(why) = NotAProblem::of(pos) {
            return Err(why);
        }
        let tt = self.table(options);
        let (check, tt) = check::check(pos, options, tt, expected, progress, cancel);
        self.table = Some(tt);
        Ok(check)
    }

    /// The table for a solve under `options`: the one held if it has that size, else a new one
    /// (the one held freed first, so that two are never held at once).
    fn table(&mut self, options: &Options) -> Table {
        let bytes = options.limits.hash_bytes();
        match self.table.take() {
            Some(tt) if tt.holds(bytes) => tt,
            held => {
                drop(held);
                Table::new(bytes)
            }
        }
    }
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("hash_bytes", &self.table.as_ref().map(Table::bytes))
            .finish()
    }
}
