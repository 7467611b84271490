//! Errors and warnings of the record readers.

use crate::Record;

/// What went wrong reading a record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ErrorKind {
    /// The text does not follow the format.
    #[error("expected {expected}")]
    Syntax {
        /// What the reader expected at this place.
        expected: String,
    },
    /// The initial position is not a legal position.
    #[error("the initial position is illegal ({reason})")]
    IllegalPosition {
        /// Every reason, from koma-core's validation.
        reason: String,
    },
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
        "ambiguous move at ply {ply}: it fits {candidates} (expected a disambiguating word such as 右 左 直 上 寄 引 打)"
    )]
    Ambiguous {
        /// The ply number of the move.
        ply: u32,
        /// The legal moves it fits, in USI notation.
        candidates: String,
    },
    /// The bytes are not text in the expected encoding.
    #[error("the text is not valid {encoding}")]
    Encoding {
        /// The encoding tried.
        encoding: &'static str,
    },
}

/// A record that could not be read, with where and why.
///
/// `line` and `column` count from 1 (column in characters); `text` is the offending text.
/// When moves were read before the problem, `partial` holds the record up to the last good
/// move, so a user never loses the part that was good.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: `{text}`: {kind}")]
pub struct ReadError {
    /// The line, from 1.
    pub line: usize,
    /// The column in characters, from 1.
    pub column: usize,
    /// The offending text.
    pub text: String,
    /// What is wrong.
    pub kind: ErrorKind,
    /// The record up to the last good move, if the header and initial position were read.
    pub partial: Option<Box<Record>>,
}

impl ReadError {
    /// A syntax error: `expected` says what should have been there.
    pub(crate) fn syntax(
        line: usize,
        column: usize,
        text: &str,
        expected: impl Into<String>,
    ) -> ReadError {
        ReadError {
            line,
            column,
            text: text.to_owned(),
            kind: ErrorKind::Syntax {
                expected: expected.into(),
            },
            partial: None,
        }
    }

    /// The same error with the partial record attached.
    pub(crate) fn with_partial(mut self, record: Record) -> ReadError {
        self.partial = Some(Box::new(record));
        self
    }
}

/// Something a reader accepted but a user may want to know about (the record is still read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The line, from 1.
    pub line: usize,
    /// What was noticed.
    pub message: String,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
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
