//! The problem check: is the problem sound by the rules of tsume, and does a given answer agree?

use koma_core::{Hand, Move, Position};

use crate::report::hand_text;
use crate::search::{Shared, Walker};
use crate::solve::{self, Halt, defences, leftover_after, query};
use crate::table::{LEN_INF, Table};
use crate::{Answer, Cancel, Options, Outcome, Phase, Progress, Stats, UnknownReason, Variation};

/// The result of [`check`](crate::check).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// The overall judgement.
    pub verdict: Verdict,
    /// The composer's answer with the equal-length defences as [`Variation`]s, when mate was
    /// settled.
    pub answer: Option<Answer>,
    /// Everything found along the answer, in ply order.
    pub findings: Vec<Finding>,
    /// How the expected answer given to the check compares, if one was given.
    pub expected: Option<Comparison>,
    /// What the check cost.
    pub stats: Stats,
}

/// The judgement of a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Mate with a unique answer: no alternative mate, no longer defence, nothing left over.
    /// Allowed blemishes (an alternative final move, an equal-length defence) may be listed.
    Sound,
    /// Mate, but with at least one flaw listed in the findings.
    Flawed,
    /// No mate.
    NoMate,
    /// The check stopped before it knew; findings so far are kept.
    Unknown(UnknownReason),
}

/// One observation about the answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// Another attacker move mates at a ply of the answer other than the last (余詰): a flaw.
    AlternativeMate {
        /// The ply (1-based, odd).
        ply: usize,
        /// The other mating move.
        mv: Move,
        /// An upper bound of the plies to mate after it, the move included.
        within: u32,
    },
    /// Another move mates at the answer's last ply (最終手余詰): allowed by custom, reported.
    AlternativeFinalMove {
        /// The ply (1-based, odd).
        ply: usize,
        /// The other mating move.
        mv: Move,
    },
    /// A defence that lasts exactly as long as the answer's, by another line (変同): a minor
    /// blemish, reported with its line.
    EqualDefence {
        /// The ply (1-based, even).
        ply: usize,
        /// The defence and the mate after it.
        line: Vec<Move>,
        /// Pieces left in the attacker's hand at the end of that line.
        leftover: Hand,
    },
    /// A defence that lasts longer than the answer's (変長): a flaw, unless it ends with pieces
    /// left over (変長駒余り, `leftover` not empty), which the rules let pass.
    LongerDefence {
        /// The ply (1-based, even).
        ply: usize,
        /// The defence and the mate after it.
        line: Vec<Move>,
        /// Pieces left in the attacker's hand at the end of that line.
        leftover: Hand,
    },
    /// The answer ends with pieces in the attacker's hand (駒余り): a flaw.
    Leftover {
        /// The pieces.
        pieces: Hand,
    },
}

impl Finding {
    /// Whether the finding makes the problem unsound (as opposed to a blemish custom allows).
    pub fn is_flaw(&self) -> bool {
        match self {
            Finding::AlternativeMate { .. } | Finding::Leftover { .. } => true,
            Finding::LongerDefence { leftover, .. } => leftover.is_empty(),
            Finding::AlternativeFinalMove { .. } | Finding::EqualDefence { .. } => false,
        }
    }

    /// For an equal-length defence (変同) whose line is shorter than the answer's from its ply:
    /// the defence's minimax length, the plies from it to the mate as the answer's defence
    /// lasts, for an answer of `answer_len` plies. The defence lasts that long only through a
    /// continuation that ends with pieces left (変長駒余り further down), which does not make
    /// its line (rule 6 of docs/tsume.md), so the line stops sooner. `None` for other findings
    /// and for a 変同 whose line is as long as the answer's.
    ///
    /// ```
    /// use koma_core::Move;
    /// use koma_tsume::Finding;
    /// let line: Vec<Move> = ["4c3b", "5d5b+", "3b3a", "G*3b"]
    ///     .iter()
    ///     .map(|m| m.parse().unwrap())
    ///     .collect();
    /// let f = Finding::EqualDefence { ply: 2, line, leftover: Default::default() };
    /// assert_eq!(f.minimax_beyond_line(7), Some(6)); // a 4-ply line of a 6-ply defence
    /// assert_eq!(f.minimax_beyond_line(5), None);
    /// ```
    pub fn minimax_beyond_line(&self, answer_len: usize) -> Option<usize> {
        match self {
            Finding::EqualDefence { ply, line, .. } => {
                let minimax = (answer_len + 1).checked_sub(*ply)?;
                (line.len() < minimax).then_some(minimax)
            }
            _ => None,
        }
    }

    /// The ply the finding is at, for an answer of `answer_len` plies: leftover pieces are at
    /// the answer's last ply.
    pub fn ply(&self, answer_len: usize) -> usize {
        match self {
            Finding::AlternativeMate { ply, .. }
            | Finding::AlternativeFinalMove { ply, .. }
            | Finding::EqualDefence { ply, .. }
            | Finding::LongerDefence { ply, .. } => *ply,
            Finding::Leftover { .. } => answer_len,
        }
    }

    /// The finding in words, in English and in Japanese, for an answer of `answer_len` plies:
    /// what it is (with its Japanese term), the moves, and why it is allowed where custom allows
    /// it. The ply is left to the caller's layout ([`Finding::ply`]). `name(ply, moves)` names
    /// `moves` played from before ply `ply` of the answer: the CLI and the workbench write them
    /// in Japanese notation (koma-record's, which this crate does not depend on).
    ///
    /// ```
    /// use koma_core::Move;
    /// use koma_tsume::Finding;
    /// let mv: Move = "R*3a".parse().unwrap();
    /// let f = Finding::AlternativeMate { ply: 1, mv, within: 5 };
    /// let d = f.describe(3, &mut |ply, moves| format!("{ply}:{}", moves[0]));
    /// assert_eq!(d.en, "余詰 (alternative mate): 1:R*3a also mates, within 5 plies");
    /// assert_eq!(d.ja, "余詰：1:R*3a（5手以内）");
    /// ```
    pub fn describe(
        &self,
        answer_len: usize,
        name: &mut dyn FnMut(usize, &[Move]) -> String,
    ) -> Description {
        let (en, ja) = match self {
            Finding::AlternativeMate { ply, mv, within } => {
                let m = name(*ply, &[*mv]);
                (
                    format!(
                        "余詰 (alternative mate): {m} also mates, within {}",
                        plies(*within as usize)
                    ),
                    format!("余詰：{m}（{within}手以内）"),
                )
            }
            Finding::AlternativeFinalMove { ply, mv } => {
                let m = name(*ply, &[*mv]);
                (
                    format!("最終手余詰 (alternative final move, allowed): {m} also mates"),
                    format!("最終手余詰（許容）：{m}"),
                )
            }
            Finding::EqualDefence {
                ply,
                line,
                leftover,
            } => {
                let moves = name(*ply, line);
                // As long as the answer by minimax length, but only through a continuation
                // that ends with pieces left: its line by the leftover rules is shorter.
                let (how, how_ja) = self.minimax_beyond_line(answer_len).map_or_else(
                    || (String::new(), String::new()),
                    |n| {
                        (
                            format!(
                                "; {} by minimax length only through a continuation that ends \
                                 with pieces left, its line by the leftover rules {}",
                                plies(n),
                                plies(line.len())
                            ),
                            format!(
                                "（最長{n}手は駒余りの変化のみ、駒余りなしの手順は{}手）",
                                line.len()
                            ),
                        )
                    },
                );
                (
                    format!(
                        "変同 (equal-length defence, allowed{how}): {moves} (leftover {})",
                        hand_text(*leftover)
                    ),
                    format!("変同：{moves}{how_ja}"),
                )
            }
            Finding::LongerDefence {
                ply,
                line,
                leftover,
            } => {
                let moves = name(*ply, line);
                let (allowed, term) = if leftover.is_empty() {
                    ("", "変長".to_owned())
                } else {
                    (
                        ", allowed as 変長駒余り",
                        format!("変長駒余り（{}、許容）", hand_text(*leftover)),
                    )
                };
                (
                    format!(
                        "変長 (longer defence{allowed}): {moves} (leftover {})",
                        hand_text(*leftover)
                    ),
                    format!("{term}：{moves}"),
                )
            }
            Finding::Leftover { pieces } => (
                format!("駒余り (pieces left over): {}", hand_text(*pieces)),
                format!("駒余り：{}", hand_text(*pieces)),
            ),
        };
        Description { en, ja }
    }
}

/// A [`Finding`] in words ([`Finding::describe`]): one sentence in English (with the Japanese
/// term) and one in Japanese, the moves named by the caller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Description {
    /// The sentence in English.
    pub en: String,
    /// The sentence in Japanese.
    pub ja: String,
}

/// `1 ply`, `n plies`.
///
/// ```
/// assert_eq!((koma_tsume::plies(1), koma_tsume::plies(3)), ("1 ply".to_string(), "3 plies".to_string()));
/// ```
pub fn plies(n: usize) -> String {
    match n {
        1 => "1 ply".to_owned(),
        n => format!("{n} plies"),
    }
}

/// How an expected answer compares with the composer's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// Whether the two lines are the same move for move.
    pub agrees: bool,
    /// The first ply where they differ, if they do.
    pub first_difference: Option<Difference>,
    /// Whether the expected line is itself a legal mate by continuous checks.
    pub expected_mates: bool,
}

impl Comparison {
    /// Compares an expected line (a recorded answer) with `answer` from the problem `pos`:
    /// whether they are the same line, where they first differ, and whether the expected line
    /// is itself a mate by continuous checks. With no answer (no mate, unknown) they never
    /// agree.
    ///
    /// ```
    /// use koma_core::Position;
    /// use koma_tsume::Comparison;
    /// let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").unwrap();
    /// let c = Comparison::new(&pos, &["G*4b".parse().unwrap()], None);
    /// assert!(!c.agrees && !c.expected_mates);
    /// assert_eq!(c.first_difference.unwrap().ply, 1);
    /// ```
    pub fn new(pos: &Position, expected: &[Move], answer: Option<&Answer>) -> Comparison {
        compare(pos, expected, answer)
    }
}

/// The first ply where an expected answer leaves the composer's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The ply (1-based).
    pub ply: usize,
    /// The expected move there (`None`: the expected line ended).
    pub expected: Option<Move>,
    /// The answer's move there (`None`: the answer ended).
    pub answer: Option<Move>,
}

/// Checks `pos` with the table `tt` (emptied first), and gives the table back for the next
/// solve.
pub(crate) fn check(
    pos: &Position,
    options: &Options,
    tt: Table,
    expected: Option<&[Move]>,
    progress: &mut (dyn FnMut(&Progress) + Send),
    cancel: &Cancel,
) -> (Check, Table) {
    solve::on_big_stack(|| {
        let mut sh = Shared::new(pos, options, tt, cancel, progress);
        let (verdict, answer, findings) = check_with(&mut sh, pos);
        sh.report();
        let stats = solve::stats(&sh);
        let expected = expected.map(|e| compare(pos, e, answer.as_ref()));
        let check = Check {
            verdict,
            answer,
            findings,
            expected,
            stats,
        };
        (check, sh.tt)
    })
}

fn check_with(sh: &mut Shared, pos: &Position) -> (Verdict, Option<Answer>, Vec<Finding>) {
    let mut w = Walker::new(sh, pos.clone(), true);
    let outcome = solve::prove_and_answer(&mut w, pos, true);
    let answer = match outcome {
        Outcome::Mate(a) if a.optimal => a,
        Outcome::Mate(a) => {
            let why = w.sh.stop.unwrap_or(UnknownReason::Memory);
            return (Verdict::Unknown(why), Some(a), Vec::new());
        }
        Outcome::NoMate => return (Verdict::NoMate, None, Vec::new()),
        Outcome::Unknown(r) => return (Verdict::Unknown(r), None, Vec::new()),
    };
    let mut findings = Vec::new();
    let mut answer = answer;
    let r = inspect(&mut w, &mut answer, &mut findings);
    if !answer.leftover.is_empty() {
        findings.push(Finding::Leftover {
            pieces: answer.leftover,
        });
    }
    let verdict = match r {
        Ok(()) if findings.iter().any(Finding::is_flaw) => Verdict::Flawed,
        Ok(()) => Verdict::Sound,
        Err(Halt::Stopped) => Verdict::Unknown(w.sh.stop.unwrap_or(UnknownReason::Memory)),
        Err(Halt::Inconsistent) => Verdict::Unknown(UnknownReason::Inconsistent),
    };
    (verdict, Some(answer), findings)
}

/// Walks the answer looking at every alternative.
fn inspect(w: &mut Walker, answer: &mut Answer, findings: &mut Vec<Finding>) -> Result<(), Halt> {
    let moves = answer.moves.clone();
    let n = moves.len();
    let mut played = 0;
    let r = (|| {
        for (i, &m) in moves.iter().enumerate() {
            let ply = i + 1;
            let left = (n - i) as u16;
            w.sh.phase = Phase::Check { ply: ply as u32 };
            if w.or_node() {
                for c in crate::order::moves(&w.pos, true) {
                    if c == m {
                        continue;
                    }
                    if ply == n {
                        if query(w, c, 0)?.pn == 0 {
                            findings.push(Finding::AlternativeFinalMove { ply, mv: c });
                        }
                    } else {
                        let r = query(w, c, LEN_INF)?;
                        if r.pn == 0 {
                            findings.push(Finding::AlternativeMate {
                                ply,
                                mv: c,
                                within: r.len as u32 + 1,
                            });
                        }
                    }
                }
            } else {
                for d in defences(w)? {
                    if d == m {
                        continue;
                    }
                    // Shorter than the answer's defence when mated within `left - 3`.
                    if left >= 3 && query(w, d, left - 3)?.dn != 0 {
                        continue;
                    }
                    // Longer when not mated within `left - 1`: the answer took a shorter defence
                    // because this one's line ends with pieces left (変長駒余り).
                    let longer = query(w, d, left - 1)?.dn == 0;
                    w.push(d);
                    let sub = longer_length(w, left - 1, longer)
                        .and_then(|l| solve::composer_line_from(w, l));
                    w.pop();
                    let mut line = vec![d];
                    line.extend(sub?);
                    let leftover = leftover_after(w, &line);
                    if longer {
                        findings.push(Finding::LongerDefence {
                            ply,
                            line,
                            leftover,
                        });
                        continue;
                    }
                    answer.variations.push(Variation {
                        ply,
                        moves: line.clone(),
                        leftover,
                    });
                    findings.push(Finding::EqualDefence {
                        ply,
                        line,
                        leftover,
                    });
                }
            }
            w.push(m);
            played += 1;
        }
        Ok(())
    })();
    for _ in 0..played {
        w.pop();
    }
    r
}

/// The exact mate length at the walker's (attacker) node: `at_most` plies, or if `longer`, more
/// than `at_most` (the shortest found by [`solve::shortest`] below an unbounded proof).
fn longer_length(w: &mut Walker, at_most: u16, longer: bool) -> Result<u16, Halt> {
    if !longer {
        return Ok(at_most);
    }
    let proof = w.run(LEN_INF).ok_or(Halt::Stopped)?;
    if proof.pn != 0 {
        return Err(Halt::Inconsistent);
    }
    solve::shortest(w, at_most, proof.len)
}

/// Compares an expected line with the answer.
fn compare(pos: &Position, expected: &[Move], answer: Option<&Answer>) -> Comparison {
    let expected_mates = crate::verify::verify(pos, expected, true).is_ok();
    let ours: &[Move] = answer.map_or(&[], |a| &a.moves);
    let first = (0..expected.len().max(ours.len()))
        .find(|&i| expected.get(i) != ours.get(i))
        .map(|i| Difference {
            ply: i + 1,
            expected: expected.get(i).copied(),
            answer: ours.get(i).copied(),
        });
    Comparison {
        agrees: answer.is_some() && first.is_none(),
        first_difference: first,
        expected_mates,
    }
}
