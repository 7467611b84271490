//! Problem lines: one problem a line of a problem file (an SFEN or USI position, or a JSON
//! object with `sfen`, an optional `id` and an optional recorded answer), as batch front ends
//! read them.

use std::fmt;

use koma_core::text::excerpt;
use koma_core::usi::{UsiPositionError, parse_position};
use koma_core::{Color, Move, ParseMoveError, Position};
use serde::{Deserialize, Serialize};

/// How many characters of a bad line an error keeps.
pub const EXCERPT_CHARS: usize = 60;

/// A problem's name in a batch: the `id` its input line gives (a number or a string, kept as
/// given), else its line number.
///
/// ```
/// use koma_tsume::ProblemId;
/// let id: ProblemId = serde_json::from_str("\"zukou-001\"").unwrap();
/// assert_eq!(id.to_string(), "zukou-001");
/// assert_eq!(serde_json::to_string(&ProblemId::Number(7)).unwrap(), "7");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ProblemId {
    /// A numeric id (or a line number).
    Number(u64),
    /// A textual id.
    Text(String),
}

impl fmt::Display for ProblemId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProblemId::Number(n) => write!(f, "{n}"),
            ProblemId::Text(s) => f.write_str(s),
        }
    }
}

/// One problem: its id, the position (the side to move attacks) and the answer the input
/// records for it, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The input's id, else the line number.
    pub id: ProblemId,
    /// The problem position.
    pub position: Position,
    /// The recorded answer (`solution_usi`), if the line gives one.
    pub expected: Option<Vec<Move>>,
}

/// Why a legal position is not a mate problem. [`solve`](crate::solve) and
/// [`check`](crate::check) refuse it, and [`Problem::from_line`] reports it as
/// [`ProblemErrorKind::NotAProblem`], so every front end says the same.
///
/// ```
/// use koma_core::{Color, Position};
/// use koma_tsume::NotAProblem;
///
/// // Black to move attacks, but White, who defends, has no king: most likely `w` was meant.
/// let pos = Position::from_sfen("9/9/9/9/9/9/9/9/4K4 b G 1").unwrap();
/// assert_eq!(NotAProblem::of(&pos), Some(NotAProblem::NoDefendingKing { defender: Color::White }));
/// let pos = Position::from_sfen("9/9/9/9/9/9/9/9/4K4 w G 1").unwrap();
/// assert_eq!(NotAProblem::of(&pos), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NotAProblem {
    /// The defender (the side not to move) has no king, so nothing can be mated. A position
    /// with the wrong side to move looks like this.
    #[error(
        "not a mate problem: the side to move attacks, and {defender}, who defends, has no king \
         (is the side to move right?)"
    )]
    NoDefendingKing {
        /// The side not to move.
        defender: Color,
    },
}

impl NotAProblem {
    /// Why `pos` is not a mate problem for the side to move, or `None` when it is one: the
    /// defender has a king (the attacker may have none, and may even be in check).
    pub fn of(pos: &Position) -> Option<NotAProblem> {
        let defender = !pos.side_to_move();
        match pos.king(defender) {
            Some(_) => None,
            None => Some(NotAProblem::NoDefendingKing { defender }),
        }
    }
}

/// A problem line that could not be read: where, which problem, what, and a bounded excerpt.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {kind} (`{excerpt}`)")]
pub struct ProblemError {
    /// The line number (from 1).
    pub line: usize,
    /// The line's id if it could be read, else the line number.
    pub id: ProblemId,
    /// What is wrong.
    pub kind: ProblemErrorKind,
    /// The start of the line: its first [`EXCERPT_CHARS`] characters, control characters escaped,
    /// with `…` where it was cut ([`koma_core::text::excerpt`]).
    pub excerpt: String,
}

/// What is wrong with a problem line.
#[derive(Debug, thiserror::Error)]
pub enum ProblemErrorKind {
    /// A line starting with `{` that is not a JSON object.
    #[error("not a JSON object: {0}")]
    Json(#[from] serde_json::Error),
    /// A JSON line without `sfen`.
    #[error("no `sfen` field")]
    MissingSfen,
    /// A field of the wrong type.
    #[error("field `{field}`: expected {expected}")]
    Field {
        /// The field.
        field: &'static str,
        /// What it should hold.
        expected: &'static str,
    },
    /// The position is not a legal position (or USI position string).
    #[error("{0}")]
    Position(#[from] UsiPositionError),
    /// The position is legal but not a mate problem.
    #[error("{0}")]
    NotAProblem(#[from] NotAProblem),
    /// A move of the recorded answer is not USI notation.
    #[error("move {index} of the recorded answer: {source}")]
    Answer {
        /// 1-based index in the answer.
        index: usize,
        /// The notation problem.
        source: ParseMoveError,
    },
}

/// The JSON fields a problem line may carry (others are ignored).
#[derive(Deserialize)]
struct JsonLine {
    sfen: Option<serde_json::Value>,
    id: Option<serde_json::Value>,
    #[serde(alias = "answer")]
    solution_usi: Option<serde_json::Value>,
}

impl Problem {
    /// Reads line `line` (from 1) of a problem file: an SFEN or a USI position string
    /// (`sfen ... moves ...`, `startpos moves ...`: the position after the moves), or a JSON
    /// object with `sfen` (either form), an optional `id` (number or string) and an optional
    /// recorded answer `solution_usi` (also `answer`: an array of USI moves or one string of
    /// them). Blank lines and lines starting with `#` give `Ok(None)`. A legal position that is
    /// no mate problem ([`NotAProblem`]) is an error of its line.
    ///
    /// ```
    /// use koma_tsume::{Problem, ProblemId};
    /// let p = Problem::from_line(3, r#"{"id": "a", "sfen": "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", "solution_usi": ["G*5b"]}"#)
    ///     .unwrap().unwrap();
    /// assert_eq!(p.id, ProblemId::Text("a".into()));
    /// assert_eq!(p.expected.unwrap().len(), 1);
    /// let p = Problem::from_line(4, "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").unwrap().unwrap();
    /// assert_eq!(p.id, ProblemId::Number(4));
    /// let e = Problem::from_line(5, "4k4/9/9 b G 1").unwrap_err();
    /// assert_eq!(e.line, 5);
    /// assert!(Problem::from_line(6, "  # a comment").unwrap().is_none());
    /// ```
    pub fn from_line(line: usize, text: &str) -> Result<Option<Problem>, ProblemError> {
        let t = text.trim();
        if t.is_empty() || t.starts_with('#') {
            return Ok(None);
        }
        let mut id = ProblemId::Number(line as u64);
        let fail = |id: &ProblemId, kind: ProblemErrorKind| ProblemError {
            line,
            id: id.clone(),
            kind,
            excerpt: excerpt(t, EXCERPT_CHARS),
        };
        if !t.starts_with('{') {
            let position = parse_position(t).map_err(|e| fail(&id, e.into()))?;
            if let Some(why) = NotAProblem::of(&position) {
                return Err(fail(&id, why.into()));
            }
            return Ok(Some(Problem {
                id,
                position,
                expected: None,
            }));
        }
        let json: JsonLine = serde_json::from_str(t).map_err(|e| fail(&id, e.into()))?;
        match json.id {
            None | Some(serde_json::Value::Null) => {}
            Some(v) => match serde_json::from_value::<ProblemId>(v) {
                Ok(given) => id = given,
                Err(_) => {
                    let kind = ProblemErrorKind::Field {
                        field: "id",
                        expected: "a number or a string",
                    };
                    return Err(fail(&id, kind));
                }
            },
        }
        let sfen = match json.sfen {
            Some(serde_json::Value::String(s)) => s,
            None | Some(serde_json::Value::Null) => {
                return Err(fail(&id, ProblemErrorKind::MissingSfen));
            }
            Some(_) => {
                let kind = ProblemErrorKind::Field {
                    field: "sfen",
                    expected: "a string",
                };
                return Err(fail(&id, kind));
            }
        };
        let position = parse_position(&sfen).map_err(|e| fail(&id, e.into()))?;
        if let Some(why) = NotAProblem::of(&position) {
            return Err(fail(&id, why.into()));
        }
        let expected = match json.solution_usi {
            None | Some(serde_json::Value::Null) => None,
            Some(v) => Some(answer_moves(v).map_err(|k| fail(&id, k))?),
        };
        Ok(Some(Problem {
            id,
            position,
            expected,
        }))
    }
}

/// The recorded answer: an array of USI move strings, or one string of them.
fn answer_moves(v: serde_json::Value) -> Result<Vec<Move>, ProblemErrorKind> {
    let bad = || ProblemErrorKind::Field {
        field: "solution_usi",
        expected: "an array of USI moves or a string of them",
    };
    let words: Vec<String> = match v {
        serde_json::Value::String(s) => s.split_whitespace().map(str::to_owned).collect(),
        serde_json::Value::Array(items) => items
            .into_iter()
            .map(|i| match i {
                serde_json::Value::String(s) => Ok(s),
                _ => Err(bad()),
            })
            .collect::<Result<_, _>>()?,
        _ => return Err(bad()),
    };
    words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            w.parse().map_err(|source| ProblemErrorKind::Answer {
                index: i + 1,
                source,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_defender_without_a_king_is_an_error_of_its_line() {
        // White to move attacks; Black, who defends, has no king (a wrong side to move).
        let sfen = "r1pkl4/sP7/p1+B1gS3/3+R1N3/P8/9/9/9/9 w Nb3g2s2n3l14p 64";
        for (n, text) in [
            (3, sfen.to_owned()),
            (4, format!(r#"{{"id": "x", "sfen": "{sfen}"}}"#)),
        ] {
            let e = Problem::from_line(n, &text).unwrap_err();
            assert!(
                matches!(
                    e.kind,
                    ProblemErrorKind::NotAProblem(NotAProblem::NoDefendingKing {
                        defender: Color::Black
                    })
                ),
                "{e}"
            );
            assert_eq!(e.line, n);
            assert!(
                e.to_string().contains("black, who defends, has no king"),
                "{e}"
            );
        }
        // A defender with a king and an attacker without one is a problem.
        assert!(
            Problem::from_line(5, "4k4/9/9/9/9/9/9/9/9 b G 1")
                .unwrap()
                .is_some()
        );
    }

    #[test]
    fn reads_every_form_and_names_each_problem() {
        let sfen = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
        let a = Problem::from_line(1, &format!("sfen {sfen} moves"))
            .unwrap()
            .unwrap();
        let b = Problem::from_line(2, &format!("position sfen {sfen}"))
            .unwrap()
            .unwrap();
        assert_eq!(a.position, b.position);
        let c = Problem::from_line(
            3,
            &format!(r#"{{"id": 9, "sfen": "{sfen}", "answer": "G*5b"}}"#),
        )
        .unwrap()
        .unwrap();
        assert_eq!(c.id, ProblemId::Number(9));
        assert_eq!(c.expected, Some(vec!["G*5b".parse().unwrap()]));
        let after = Problem::from_line(4, "startpos moves 7g7f")
            .unwrap()
            .unwrap();
        assert_eq!(after.position.ply(), 2);
    }

    #[test]
    fn errors_show_control_characters_escaped() {
        // A raw `\r` or escape character in a bad line is not echoed: the message stays on its
        // line and starts no terminal command (found by fuzzing `koma tsume`'s input).
        let line = "4k4/9/4P4/9/9/9/9/9/9 b\u{1b}[2J G\r 1";
        let e = Problem::from_line(2, line).unwrap_err();
        assert_eq!(e.excerpt, "4k4/9/4P4/9/9/9/9/9/9 b\\u{1b}[2J G\\r 1");
        let message = e.to_string();
        assert!(!message.chars().any(char::is_control), "{message:?}");
        assert!(message.contains("found `b\\u{1b}[2J`"), "{message}");
    }

    #[test]
    fn errors_keep_the_line_the_id_and_an_excerpt() {
        let long = format!(
            "{{\"id\": \"x\", \"sfen\": \"9/9 b - 1\", \"pad\": \"{}\"}}",
            "z".repeat(200)
        );
        let e = Problem::from_line(7, &long).unwrap_err();
        assert_eq!((e.line, &e.id), (7, &ProblemId::Text("x".into())));
        assert!(matches!(e.kind, ProblemErrorKind::Position(_)));
        assert_eq!(e.excerpt.chars().count(), EXCERPT_CHARS + 1);
        assert!(e.excerpt.ends_with("zz…"), "{}", e.excerpt);
        let e = Problem::from_line(8, r#"{"id": "y"}"#).unwrap_err();
        assert!(matches!(e.kind, ProblemErrorKind::MissingSfen), "{e}");
        let e = Problem::from_line(
            9,
            r#"{"sfen": "4k4/9/4P4/9/9/9/9/9/9 b G 1", "solution_usi": ["G*5b", "x"]}"#,
        )
        .unwrap_err();
        assert!(
            matches!(e.kind, ProblemErrorKind::Answer { index: 2, .. }),
            "{e}"
        );
        assert_eq!(e.id, ProblemId::Number(9));
        let e = Problem::from_line(10, "{not json").unwrap_err();
        assert!(
            e.to_string().starts_with("line 10: not a JSON object"),
            "{e}"
        );
        let e = Problem::from_line(11, r#"{"sfen": 3}"#).unwrap_err();
        assert!(e.to_string().contains("field `sfen`"), "{e}");
    }
}
