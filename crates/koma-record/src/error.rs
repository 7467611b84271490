//! Errors and warnings of the record readers.

use koma_core::{Move, PositionError, SfenError};

use crate::Record;
use crate::encoding::Encoding;

/// What went wrong reading a record. Callers can act on the kind: a web API answers a syntax
/// error differently from an I/O error, a tool may retry another encoding, and so on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The text does not follow the format.
    #[error("expected {expected}")]
    Syntax {
        /// What the reader expected at this place.
        expected: String,
    },
    /// An SFEN (in a USI position or an SFEN line) that is not SFEN.
    #[error("{0}")]
    Sfen(SfenError),
    /// The initial position is not a legal position.
    #[error("the initial position is an {0}")]
    IllegalPosition(PositionError),
    /// A well-formed move that cannot be played in the position it is read in.
    #[error("illegal move at ply {ply} (expected a legal move in {sfen})")]
    IllegalMove {
        /// The ply number of the move in its line (1 for the first move of the game).
        ply: u32,
        /// The position the move was read in.
        sfen: String,
    },
    /// A Japanese move that more than one legal move fits.
    #[error(
        "ambiguous move at ply {ply}: it fits {} (expected a disambiguating word such as 右 左 直 上 寄 引 打)",
        crate::japanese::usi_list(candidates)
    )]
    Ambiguous {
        /// The ply number of the move.
        ply: u32,
        /// The legal moves it fits.
        candidates: Vec<Move>,
    },
    /// The bytes are not text in the encoding they were read in.
    #[error("the text is not valid {encoding}")]
    Encoding {
        /// The encoding tried.
        encoding: Encoding,
    },
    /// The input could not be read (a file that does not open, a broken pipe).
    #[error("{message}")]
    Io {
        /// The kind of the I/O error.
        kind: std::io::ErrorKind,
        /// The operating system's message.
        message: String,
    },
    /// The input holds no record at all (nothing, or only blank lines and comments).
    #[error("the input is empty (expected a record)")]
    Empty,
}

impl From<std::io::Error> for ErrorKind {
    fn from(e: std::io::Error) -> ErrorKind {
        ErrorKind::Io {
            kind: e.kind(),
            message: e.to_string(),
        }
    }
}

/// The most characters of the input an error quotes.
pub const EXCERPT_CHARS: usize = 40;

/// A record that could not be read, with where and why.
///
/// `line` and `column` count from 1 (column in characters; both 0 for an error that is not at a
/// place in the text: a file that does not open, an empty input, or a place in a JSON tree,
/// which `text` then names, like `moves[3].move`); `text` is otherwise a bounded excerpt of the
/// input starting at the column. When moves were read before the problem, `partial` holds the
/// record up to the last good move, so a user never loses the part that was good.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.describe())]
pub struct ReadError {
    /// The line, from 1.
    pub line: usize,
    /// The column in characters, from 1.
    pub column: usize,
    /// The offending text: at most [`EXCERPT_CHARS`] characters from the column, control
    /// characters escaped (`\u{0}`), `…` where it was cut.
    pub text: String,
    /// What is wrong.
    pub kind: ErrorKind,
    /// The record up to the last good move, if the header and initial position were read.
    pub partial: Option<Box<Record>>,
}

impl ReadError {
    /// An error at a place in the text; `text` is the input from the column on (it is cut to an
    /// excerpt here).
    pub(crate) fn new(line: usize, column: usize, text: &str, kind: ErrorKind) -> ReadError {
        ReadError {
            line,
            column,
            text: excerpt(text),
            kind,
            partial: None,
        }
    }

    /// A syntax error: `expected` says what should have been there.
    pub(crate) fn syntax(
        line: usize,
        column: usize,
        text: &str,
        expected: impl Into<String>,
    ) -> ReadError {
        let kind = ErrorKind::Syntax {
            expected: expected.into(),
        };
        ReadError::new(line, column, text, kind)
    }

    /// An input with no record in it.
    pub(crate) fn empty() -> ReadError {
        ReadError::new(0, 0, "", ErrorKind::Empty)
    }

    /// An error reading the input itself, at no place in the text.
    pub(crate) fn io(line: usize, e: std::io::Error) -> ReadError {
        ReadError::new(line, 0, "", e.into())
    }

    /// The same error with the partial record attached (if it has anything to keep).
    pub(crate) fn with_partial(mut self, record: Record) -> ReadError {
        self.partial = Some(Box::new(record));
        self
    }

    /// The same error moved down by `lines` lines (for a record read from the middle of a file).
    pub(crate) fn shifted(mut self, lines: usize) -> ReadError {
        self.line += lines;
        self
    }

    /// How many moves of the main line the partial record kept (0 without one).
    pub fn kept_moves(&self) -> usize {
        self.partial.as_ref().map_or(0, |r| r.main.moves.len())
    }

    fn describe(&self) -> String {
        if self.column == 0 {
            // Not at a place in the text: an I/O error, an empty input, or a place in a tree
            // (JKF's `moves[3].move`) named by `text`.
            return match self.text.as_str() {
                "" => self.kind.to_string(),
                at => format!("at {at}: {}", self.kind),
            };
        }
        format!(
            "line {}, column {}: `{}`: {}",
            self.line, self.column, self.text, self.kind
        )
    }
}

/// The first [`EXCERPT_CHARS`] characters of `text`, control characters escaped, with `…`
/// where it was cut.
pub(crate) fn excerpt(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == EXCERPT_CHARS {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Something a reader accepted but a user may want to know about (the record is still read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The line, from 1 (0 for the input as a whole).
    pub line: usize,
    /// What was noticed.
    pub message: String,
}

impl Warning {
    pub(crate) fn new(line: usize, message: impl Into<String>) -> Warning {
        Warning {
            line,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            0 => write!(f, "{}", self.message),
            n => write!(f, "line {n}: {}", self.message),
        }
    }
}

/// A record as read, with the warnings the reader gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Read {
    /// The record.
    pub record: Record,
    /// Things accepted with a remark (an unknown header kept as is, a line skipped, ...).
    pub warnings: Vec<Warning>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_are_bounded_and_escaped() {
        assert_eq!(excerpt("７六歩"), "７六歩");
        assert_eq!(excerpt("a\0b\tc"), "a\\u{0}b\\tc");
        let long = "x".repeat(1_000_000);
        assert_eq!(excerpt(&long).chars().count(), EXCERPT_CHARS + 1);
        let e = ReadError::syntax(1, 1, &"\0".repeat(1 << 20), "a record");
        assert!(e.to_string().len() < 400, "{e}");
    }
}
