//! What a solve returns.

use std::time::Duration;

use koma_core::{Hand, Move};

/// The result of [`solve`](crate::solve): the outcome and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Mate, no mate, or unknown.
    pub outcome: Outcome,
    /// Nodes, time and memory.
    pub stats: Stats,
}

/// Whether the side to move mates by continuous checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Mate is proven; the answer line was replayed and verified before it was returned.
    Mate(Answer),
    /// No mate exists: every line of checks runs out or repeats (perpetual check loses).
    NoMate,
    /// The solve stopped before it knew.
    Unknown(UnknownReason),
}

/// Why a solve stopped without an answer (in JSON: `"time"`, `"nodes"`, `"memory"`,
/// `"cancelled"`, `"depth"`, `"inconsistent"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnknownReason {
    /// The time limit was reached.
    Time,
    /// The node limit was reached.
    Nodes,
    /// The transposition table could not hold what the search needed.
    Memory,
    /// The solve was cancelled.
    Cancelled,
    /// Lines longer than the solver's ply limit ([`MAX_PLY`](crate::MAX_PLY)) were cut off,
    /// so "no mate" could not be concluded.
    Depth,
    /// A search contradicted an earlier one, or an answer failed its replay: a bug in the
    /// solver. Nothing is claimed; please report the position.
    Inconsistent,
}

impl UnknownReason {
    /// Every reason, in declaration order.
    pub const ALL: [UnknownReason; 6] = [
        UnknownReason::Time,
        UnknownReason::Nodes,
        UnknownReason::Memory,
        UnknownReason::Cancelled,
        UnknownReason::Depth,
        UnknownReason::Inconsistent,
    ];

    /// The reason's name for programs, the same as in JSON: `time`, `nodes`, `memory`,
    /// `cancelled`, `depth`, `inconsistent`.
    pub fn name(self) -> &'static str {
        match self {
            UnknownReason::Time => "time",
            UnknownReason::Nodes => "nodes",
            UnknownReason::Memory => "memory",
            UnknownReason::Cancelled => "cancelled",
            UnknownReason::Depth => "depth",
            UnknownReason::Inconsistent => "inconsistent",
        }
    }
}

/// For people: what happened, as a clause (`the time limit was reached`).
impl std::fmt::Display for UnknownReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            UnknownReason::Time => "the time limit was reached",
            UnknownReason::Nodes => "the node limit was reached",
            UnknownReason::Memory => {
                "the transposition table could not hold what the search needed"
            }
            UnknownReason::Cancelled => "cancelled",
            UnknownReason::Depth => "lines longer than the solver's ply limit were cut off",
            UnknownReason::Inconsistent => {
                "the solver contradicted itself (a bug: please report the position)"
            }
        })
    }
}

/// A mate: the line and what is left at its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The moves from the problem position to mate, attacker first.
    pub moves: Vec<Move>,
    /// Pieces left in the attacker's hand at the end (駒余り); empty in a sound problem.
    pub leftover: Hand,
    /// Whether this is the composer's answer ([`Mode::Composer`](crate::Mode::Composer) that
    /// settled every length and the leftover rules); `false` in [`Mode::Any`](crate::Mode::Any),
    /// or when a limit struck after the proof: the line is then a verified mate that may not be
    /// the shortest, nor the defences the rules choose.
    pub optimal: bool,
    /// The defender's alternatives along the line, found by [`check`](crate::check) (empty after
    /// [`solve`](crate::solve)).
    pub variations: Vec<Variation>,
}

impl Answer {
    /// The number of plies (手数).
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the line is empty (never for a mate).
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

/// A defender's alternative at one ply of the answer, with the line that mates it: a 変化 branch
/// of a KIF record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation {
    /// The ply (1-based) of the answer the alternative replaces: a defender's ply (even).
    pub ply: usize,
    /// The alternative and the mate after it (the alternative first).
    pub moves: Vec<Move>,
    /// Pieces left in the attacker's hand at the end of this line.
    pub leftover: Hand,
}

/// What a solve cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Search nodes: positions entered by the df-pn searches (proof, length settling, useless
    /// interposition tests) and new positions looked at once on expansion.
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The transposition table's memory limit in bytes (the table grows up to it as needed).
    pub hash_bytes: usize,
    /// Filled share of the table's limit at the end, in permille.
    pub hashfull: u32,
}

impl Stats {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let us = self.elapsed.as_micros().max(1);
        (self.nodes as u128 * 1_000_000 / us) as u64
    }
}

/// Where a solve stands, handed to the progress callback every few hundred milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
    /// Filled share of the table's limit, in permille.
    pub hashfull: u32,
    /// Proof number of the search's current root (0: proven).
    pub pn: u32,
    /// Disproof number of the search's current root (0: disproven).
    pub dn: u32,
    /// What the solve is doing.
    pub phase: Phase,
}

/// The stages of a solve, as reported in [`Progress`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Proving mate or no mate.
    Proof,
    /// Mate proven in at most `upper` plies; looking for shorter.
    Shortening {
        /// The shortest mate proven so far.
        upper: u32,
    },
    /// The length is settled; choosing the answer's moves.
    Answer {
        /// The ply being chosen.
        ply: u32,
    },
    /// Checking a problem: looking at alternatives at one ply of the answer.
    Check {
        /// The ply being checked.
        ply: u32,
    },
}

#[cfg(test)]
mod tests {
    use super::UnknownReason;

    #[test]
    fn reason_names_are_the_json_names() {
        for r in UnknownReason::ALL {
            assert_eq!(
                serde_json::to_string(&r).expect("a reason serialises"),
                format!("\"{}\"", r.name())
            );
        }
    }
}
