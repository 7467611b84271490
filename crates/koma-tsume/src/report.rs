//! Results as data: a [`Report`] is the typed, serialisable record of one solve or check (the
//! JSON of `koma tsume --json`, one line of a batch, what the workbench sends), with moves as
//! USI strings and hands as SFEN letters. [`ErrorReport`] stands for a problem line that could
//! not be read, and [`Summary`] adds reports up.

use koma_core::{Hand, Move, PieceKind, Position};
use serde::{Deserialize, Serialize};

use crate::{
    Check, Comparison, Finding, Outcome, ProblemError, ProblemId, Solution, Stats, UnknownReason,
    Verdict,
};

/// Whether a problem mates, as a report says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Mate proven; the report carries a verified line.
    Mate,
    /// No mate.
    #[serde(rename = "nomate")]
    NoMate,
    /// Not known: a limit struck first (`reason` says which).
    Unknown,
    /// The problem could not be read ([`ErrorReport`]).
    Error,
}

impl Status {
    /// The status a solve's outcome reports.
    pub fn of(outcome: &Outcome) -> Status {
        match outcome {
            Outcome::Mate(_) => Status::Mate,
            Outcome::NoMate => Status::NoMate,
            Outcome::Unknown(_) => Status::Unknown,
        }
    }

    /// The status a check's verdict reports: a sound or flawed problem mates.
    pub fn of_verdict(verdict: &Verdict) -> Status {
        match verdict {
            Verdict::Sound | Verdict::Flawed => Status::Mate,
            Verdict::NoMate => Status::NoMate,
            Verdict::Unknown(_) => Status::Unknown,
        }
    }

    /// The status's name in every front end's output: `mate`, `nomate`, `unknown`, `error`
    /// (as in the JSON of a [`Report`]).
    pub fn name(self) -> &'static str {
        match self {
            Status::Mate => "mate",
            Status::NoMate => "nomate",
            Status::Unknown => "unknown",
            Status::Error => "error",
        }
    }
}

/// The record of one solve or check.
///
/// ```
/// use koma_core::Position;
/// use koma_tsume::{Cancel, Options, ProblemId, Report, Status, solve};
///
/// let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").unwrap();
/// let sol = solve(&pos, &Options::default().hash_mib(4), &mut |_| {}, &Cancel::new()).unwrap();
/// let r = Report::from_solution(ProblemId::Number(1), &pos, &sol, None);
/// assert_eq!((r.status, r.length, r.moves.as_slice()), (Status::Mate, Some(1), &["G*5b".to_string()][..]));
/// let json = serde_json::to_string(&r).unwrap();
/// assert!(json.starts_with(r#"{"id":1,"sfen":"4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1","status":"mate","length":1,"moves":["G*5b"],"leftover":"""#), "{json}");
/// assert_eq!(serde_json::from_str::<Report>(&json).unwrap(), r);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// The problem's id (the input's, else its line number).
    pub id: ProblemId,
    /// The problem position.
    pub sfen: String,
    /// Mate, no mate or unknown.
    pub status: Status,
    /// The answer's length in plies, when mate.
    pub length: Option<usize>,
    /// The answer in USI notation (empty unless mate).
    pub moves: Vec<String>,
    /// The attacker's hand at the end of the answer in SFEN letters (`""`: nothing left, as in
    /// a sound problem; `"2P"`: two pawns), uppercase whichever side attacks; `None` unless
    /// mate.
    pub leftover: Option<String>,
    /// Whether the line is the composer's answer (`false`: a verified mate that may not be the
    /// shortest, from the fast mode or a limit after the proof); `None` unless mate.
    pub optimal: Option<bool>,
    /// Why the solve or check stopped before it knew, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<UnknownReason>,
    /// Search nodes.
    pub nodes: u64,
    /// Wall-clock time in milliseconds.
    pub ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// The transposition table's size in MiB.
    pub hash_mib: usize,
    /// The table's filled share at the end, in permille.
    pub hashfull: u32,
    /// The check's verdict, for a check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<VerdictName>,
    /// What the check found along the answer, in ply order, for a check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub findings: Option<Vec<FindingReport>>,
    /// How the input's own answer compares, when it gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<ComparisonReport>,
}

/// A check's verdict by name (the reason of an unknown verdict is the report's `reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VerdictName {
    /// See [`Verdict::Sound`].
    Sound,
    /// See [`Verdict::Flawed`].
    Flawed,
    /// See [`Verdict::NoMate`].
    #[serde(rename = "nomate")]
    NoMate,
    /// See [`Verdict::Unknown`].
    Unknown,
}

impl VerdictName {
    /// The name of a check's verdict.
    pub fn of(verdict: &Verdict) -> VerdictName {
        match verdict {
            Verdict::Sound => VerdictName::Sound,
            Verdict::Flawed => VerdictName::Flawed,
            Verdict::NoMate => VerdictName::NoMate,
            Verdict::Unknown(_) => VerdictName::Unknown,
        }
    }

    /// The verdict's name in every front end's output: `sound`, `flawed`, `nomate`, `unknown`
    /// (as in the JSON of a [`Report`]).
    pub fn name(self) -> &'static str {
        match self {
            VerdictName::Sound => "sound",
            VerdictName::Flawed => "flawed",
            VerdictName::NoMate => "nomate",
            VerdictName::Unknown => "unknown",
        }
    }
}

/// One [`Finding`] of a check, with moves in USI and whether it is a flaw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FindingReport {
    /// What was found.
    #[serde(flatten)]
    pub finding: FindingData,
    /// Whether it makes the problem unsound ([`Finding::is_flaw`]).
    pub flaw: bool,
}

/// The data of a [`Finding`], tagged by `kind`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FindingData {
    /// [`Finding::AlternativeMate`] (余詰).
    AlternativeMate {
        /// The ply (odd).
        ply: usize,
        /// The other mating move.
        #[serde(rename = "move")]
        mv: String,
        /// An upper bound of the plies to mate after it, the move included.
        within: u32,
    },
    /// [`Finding::AlternativeFinalMove`] (最終手余詰).
    AlternativeFinalMove {
        /// The ply (odd).
        ply: usize,
        /// The other mating move.
        #[serde(rename = "move")]
        mv: String,
    },
    /// [`Finding::EqualDefence`] (変同).
    EqualDefence {
        /// The ply (even).
        ply: usize,
        /// The defence and the mate after it.
        line: Vec<String>,
        /// Pieces left at the end of that line (SFEN letters).
        leftover: String,
        /// The defence's length by minimax, where it is longer than `line` (it lasts as long as
        /// the answer only through a continuation that ends with pieces left:
        /// [`Finding::minimax_beyond_line`]); absent otherwise.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        minimax_length: Option<usize>,
    },
    /// [`Finding::LongerDefence`] (変長).
    LongerDefence {
        /// The ply (even).
        ply: usize,
        /// The defence and the mate after it.
        line: Vec<String>,
        /// Pieces left at the end of that line (SFEN letters).
        leftover: String,
    },
    /// [`Finding::Leftover`] (駒余り).
    Leftover {
        /// The answer's last ply (0 in results written before it was recorded).
        #[serde(default)]
        ply: usize,
        /// The pieces (SFEN letters).
        pieces: String,
    },
}

/// A [`Comparison`] with moves in USI.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComparisonReport {
    /// Whether the input's answer is the same line as the composer's answer.
    pub agrees: bool,
    /// Whether the input's answer is itself a legal mate by continuous checks.
    pub expected_mates: bool,
    /// The input's answer's length in plies.
    pub expected_length: usize,
    /// The first ply where the lines differ, if they do.
    pub first_difference: Option<DifferenceReport>,
}

/// The first ply where two lines differ, moves in USI (`None`: that line had ended).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DifferenceReport {
    /// The ply (from 1).
    pub ply: usize,
    /// The input's move there.
    pub expected: Option<String>,
    /// The answer's move there.
    pub answer: Option<String>,
}

/// A problem line that could not be read, as a batch writes it in place of a [`Report`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorReport {
    /// The line's id if it could be read, else its line number.
    pub id: ProblemId,
    /// The line number.
    pub line: usize,
    /// Always [`Status::Error`].
    pub status: Status,
    /// What is wrong, with where and an excerpt.
    pub error: String,
}

impl From<&ProblemError> for ErrorReport {
    fn from(e: &ProblemError) -> ErrorReport {
        ErrorReport {
            id: e.id.clone(),
            line: e.line,
            status: Status::Error,
            error: e.to_string(),
        }
    }
}

/// A hand in SFEN letters, uppercase, `""` when empty.
///
/// ```
/// use koma_core::{Hand, PieceKind};
/// let h = Hand::EMPTY.with_count(PieceKind::Pawn, 2).unwrap().with_count(PieceKind::Gold, 1).unwrap();
/// assert_eq!(koma_tsume::hand_letters(h), "G2P");
/// assert_eq!(koma_tsume::hand_letters(Hand::EMPTY), "");
/// ```
pub fn hand_letters(hand: Hand) -> String {
    if hand.is_empty() {
        String::new()
    } else {
        koma_core::hands_sfen(&[hand, Hand::EMPTY])
    }
}

/// A hand for people: its pieces in Japanese with the SFEN letters, `金 歩2 (G2P)`; `none` when
/// empty.
///
/// ```
/// use koma_core::{Hand, PieceKind};
/// let h = Hand::EMPTY.with_count(PieceKind::Pawn, 2).unwrap().with_count(PieceKind::Gold, 1).unwrap();
/// assert_eq!(koma_tsume::hand_text(h), "金 歩2 (G2P)");
/// assert_eq!(koma_tsume::hand_text(Hand::EMPTY), "none");
/// ```
pub fn hand_text(hand: Hand) -> String {
    if hand.is_empty() {
        return "none".to_owned();
    }
    let names: Vec<String> = PieceKind::HAND_WRITING_ORDER
        .iter()
        .filter(|&&k| hand.has(k))
        .map(|&k| match hand.count(k) {
            1 => k.kanji().to_owned(),
            n => format!("{}{n}", k.kanji()),
        })
        .collect();
    format!("{} ({})", names.join(" "), hand_letters(hand))
}

fn usi(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

impl Report {
    /// The report of a [`solve`](crate::solve) of `pos`; with `expected` (the input's own
    /// answer) it also says how that line compares with the answer.
    pub fn from_solution(
        id: ProblemId,
        pos: &Position,
        solution: &Solution,
        expected: Option<&[Move]>,
    ) -> Report {
        let answer = match &solution.outcome {
            Outcome::Mate(a) => Some(a),
            _ => None,
        };
        let mut r = Report::bare(id, pos, &solution.stats);
        r.status = Status::of(&solution.outcome);
        match &solution.outcome {
            Outcome::Mate(a) => r.set_answer(&a.moves, a.leftover, a.optimal),
            Outcome::NoMate => {}
            Outcome::Unknown(why) => r.reason = Some(*why),
        }
        r.expected = expected.map(|e| Comparison::new(pos, e, answer).into_report(e));
        r
    }

    /// The report of a [`check`](crate::check) of `pos`: the verdict and findings, the answer
    /// when mate is proven, and the comparison with the expected answer given to the check.
    pub fn from_check(
        id: ProblemId,
        pos: &Position,
        check: &Check,
        expected: Option<&[Move]>,
    ) -> Report {
        let mut r = Report::bare(id, pos, &check.stats);
        if let Some(a) = &check.answer {
            r.set_answer(&a.moves, a.leftover, a.optimal);
        }
        r.verdict = Some(VerdictName::of(&check.verdict));
        if check.verdict == Verdict::NoMate {
            r.status = Status::NoMate;
        }
        if let Verdict::Unknown(why) = check.verdict {
            r.reason = Some(why);
        }
        let answer_len = check.answer.as_ref().map_or(0, |a| a.len());
        r.findings = Some(
            check
                .findings
                .iter()
                .map(|f| FindingReport::new(f, answer_len))
                .collect(),
        );
        if let (Some(c), Some(e)) = (&check.expected, expected) {
            r.expected = Some(c.clone().into_report(e));
        }
        r
    }

    fn bare(id: ProblemId, pos: &Position, stats: &Stats) -> Report {
        Report {
            id,
            sfen: pos.to_sfen(),
            status: Status::Unknown,
            length: None,
            moves: Vec::new(),
            leftover: None,
            optimal: None,
            reason: None,
            nodes: stats.nodes,
            ms: stats.elapsed.as_millis() as u64,
            nps: stats.nps(),
            hash_mib: stats.hash_bytes >> 20,
            hashfull: stats.hashfull,
            verdict: None,
            findings: None,
            expected: None,
        }
    }

    fn set_answer(&mut self, moves: &[Move], leftover: Hand, optimal: bool) {
        self.status = Status::Mate;
        self.length = Some(moves.len());
        self.moves = usi(moves);
        self.leftover = Some(hand_letters(leftover));
        self.optimal = Some(optimal);
    }
}

impl Comparison {
    fn into_report(self, expected: &[Move]) -> ComparisonReport {
        ComparisonReport {
            agrees: self.agrees,
            expected_mates: self.expected_mates,
            expected_length: expected.len(),
            first_difference: self.first_difference.map(|d| DifferenceReport {
                ply: d.ply,
                expected: d.expected.map(|m| m.to_string()),
                answer: d.answer.map(|m| m.to_string()),
            }),
        }
    }
}

impl FindingReport {
    /// The report of `finding` along an answer of `answer_len` plies (an equal defence's
    /// `minimax_length` and the leftover's ply depend on it).
    pub fn new(finding: &Finding, answer_len: usize) -> FindingReport {
        let data = match finding {
            Finding::AlternativeMate { ply, mv, within } => FindingData::AlternativeMate {
                ply: *ply,
                mv: mv.to_string(),
                within: *within,
            },
            Finding::AlternativeFinalMove { ply, mv } => FindingData::AlternativeFinalMove {
                ply: *ply,
                mv: mv.to_string(),
            },
            Finding::EqualDefence {
                ply,
                line,
                leftover,
            } => FindingData::EqualDefence {
                ply: *ply,
                line: usi(line),
                leftover: hand_letters(*leftover),
                minimax_length: finding.minimax_beyond_line(answer_len),
            },
            Finding::LongerDefence {
                ply,
                line,
                leftover,
            } => FindingData::LongerDefence {
                ply: *ply,
                line: usi(line),
                leftover: hand_letters(*leftover),
            },
            Finding::Leftover { pieces } => FindingData::Leftover {
                ply: finding.ply(answer_len),
                pieces: hand_letters(*pieces),
            },
        };
        FindingReport {
            finding: data,
            flaw: finding.is_flaw(),
        }
    }
}

/// Counts over many reports: what a batch says at its end.
///
/// ```
/// use koma_tsume::{Report, Status, Summary};
/// let mut s = Summary::default();
/// assert_eq!(s.median_ms(), None);
/// s.add_error();
/// assert_eq!((s.problems, s.errors), (1, 1));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Problems counted, bad lines included.
    pub problems: usize,
    /// Mates proven.
    pub mate: usize,
    /// No mate.
    pub nomate: usize,
    /// Unknown at a limit.
    pub unknown: usize,
    /// Lines that could not be read.
    pub errors: usize,
    /// Checks judged sound.
    pub sound: usize,
    /// Checks judged flawed.
    pub flawed: usize,
    /// Problems whose input gave an answer.
    pub with_expected: usize,
    /// Of those, answers the same line as the input's.
    pub agree: usize,
    /// Of those, mates of the same length as the input's answer.
    pub same_length: usize,
    /// Of those, input answers that are not a legal mate by continuous checks.
    pub expected_not_mate: usize,
    /// Total solving time in milliseconds.
    pub total_ms: u64,
    /// Each problem's time, for the median.
    #[serde(skip)]
    times: Vec<u64>,
}

impl Summary {
    /// Counts one report.
    pub fn add(&mut self, r: &Report) {
        self.problems += 1;
        match r.status {
            Status::Mate => self.mate += 1,
            Status::NoMate => self.nomate += 1,
            Status::Unknown => self.unknown += 1,
            Status::Error => self.errors += 1,
        }
        match r.verdict {
            Some(VerdictName::Sound) => self.sound += 1,
            Some(VerdictName::Flawed) => self.flawed += 1,
            _ => {}
        }
        if let Some(e) = &r.expected {
            self.with_expected += 1;
            self.agree += e.agrees as usize;
            self.same_length += (r.length == Some(e.expected_length)) as usize;
            self.expected_not_mate += !e.expected_mates as usize;
        }
        self.total_ms += r.ms;
        self.times.push(r.ms);
    }

    /// Counts a line that could not be read.
    pub fn add_error(&mut self) {
        self.problems += 1;
        self.errors += 1;
    }

    /// Adds the counts of `other` (another run over more problems) to these.
    pub fn merge(&mut self, other: &Summary) {
        self.problems += other.problems;
        self.mate += other.mate;
        self.nomate += other.nomate;
        self.unknown += other.unknown;
        self.errors += other.errors;
        self.sound += other.sound;
        self.flawed += other.flawed;
        self.with_expected += other.with_expected;
        self.agree += other.agree;
        self.same_length += other.same_length;
        self.expected_not_mate += other.expected_not_mate;
        self.total_ms += other.total_ms;
        self.times.extend_from_slice(&other.times);
    }

    /// The median time of the reports counted (the upper of the middle two for an even count),
    /// in milliseconds.
    pub fn median_ms(&self) -> Option<u64> {
        let mut t = self.times.clone();
        t.sort_unstable();
        t.get(t.len() / 2).copied()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use koma_core::PieceKind;

    use super::*;
    use crate::{Answer, Difference};

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn a_check_reads_back_with_its_findings_and_comparison() {
        let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b GP2r2b3g4s4n4l16p 1").unwrap();
        let pawn = Hand::EMPTY.with_count(PieceKind::Pawn, 1).unwrap();
        let check = Check {
            verdict: Verdict::Flawed,
            answer: Some(Answer {
                moves: vec![mv("G*5b")],
                leftover: pawn,
                optimal: true,
                variations: Vec::new(),
            }),
            findings: vec![
                Finding::AlternativeFinalMove {
                    ply: 1,
                    mv: mv("G*4b"),
                },
                Finding::Leftover { pieces: pawn },
            ],
            expected: Some(Comparison {
                agrees: false,
                first_difference: Some(Difference {
                    ply: 2,
                    expected: Some(mv("5a5b")),
                    answer: None,
                }),
                expected_mates: false,
            }),
            stats: Stats {
                nodes: 10,
                elapsed: Duration::from_millis(1500),
                hash_bytes: 16 << 20,
                hashfull: 3,
            },
        };
        let expected = [mv("G*5b"), mv("5a5b")];
        let r = Report::from_check(ProblemId::Text("p".into()), &pos, &check, Some(&expected));
        let json = serde_json::to_string(&r).unwrap();
        for part in [
            r#""status":"mate","length":1,"moves":["G*5b"],"leftover":"P","optimal":true"#,
            r#""nodes":10,"ms":1500,"nps":6,"hash_mib":16,"hashfull":3,"verdict":"flawed""#,
            r#"{"kind":"alternative_final_move","ply":1,"move":"G*4b","flaw":false}"#,
            r#"{"kind":"leftover","ply":1,"pieces":"P","flaw":true}"#,
            r#""expected":{"agrees":false,"expected_mates":false,"expected_length":2,"first_difference":{"ply":2,"expected":"5a5b","answer":null}}"#,
        ] {
            assert!(json.contains(part), "{part} not in {json}");
        }
        assert!(!json.contains("reason"), "{json}");
        assert_eq!(serde_json::from_str::<Report>(&json).unwrap(), r);

        let mut s = Summary::default();
        s.add(&r);
        let unknown = Check {
            verdict: Verdict::Unknown(UnknownReason::Time),
            answer: None,
            findings: Vec::new(),
            expected: None,
            stats: Stats::default(),
        };
        let u = Report::from_check(ProblemId::Number(2), &pos, &unknown, None);
        assert_eq!(
            (u.status, u.reason),
            (Status::Unknown, Some(UnknownReason::Time))
        );
        assert!(
            serde_json::to_string(&u)
                .unwrap()
                .contains(r#""reason":"time""#)
        );
        s.add(&u);
        assert_eq!(
            (s.mate, s.unknown, s.flawed, s.with_expected, s.agree),
            (1, 1, 1, 1, 0)
        );
        assert_eq!(
            (s.same_length, s.expected_not_mate, s.total_ms),
            (0, 1, 1500)
        );
        assert_eq!(s.median_ms(), Some(1500));
        let mut t = Summary::default();
        t.add_error();
        t.merge(&s);
        assert_eq!((t.problems, t.errors, t.mate, t.total_ms), (3, 1, 1, 1500));
    }
}
