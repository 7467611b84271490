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
/// where it was cut ([`koma_core::text::excerpt`]).
pub(crate) fn excerpt(text: &str) -> String {
    koma_core::text::excerpt(text, EXCERPT_CHARS)
}

/// Something a reader accepted but a user may want to know about (the record is still read):
/// where ([`line`](Warning::line)) and what ([`kind`](Warning::kind), which holds a bounded
/// excerpt of the text concerned where there is one). `Display` gives one line for a person,
/// `line N: …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The line, from 1 (0 for the input as a whole).
    pub line: usize,
    /// What was noticed.
    pub kind: WarningKind,
}

/// Why a bookmark (しおり, an `&…` line) was skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BookmarkSkip {
    /// The position it names has a bookmark already (one a position).
    #[error("the position has a bookmark already")]
    Taken,
    /// It follows an illegal move, whose position the record does not keep.
    #[error("it follows an illegal move")]
    AfterIllegalMove,
    /// It comes before the first move of a variation, whose position is the main line's.
    #[error("it comes before the variation's first move")]
    BeforeVariation,
}

/// What a reader noticed and accepted. Texts quoted from the input are bounded excerpts (at most
/// [`EXCERPT_CHARS`] characters, control characters escaped, `…` where cut); `Display` gives
/// the message without the line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WarningKind {
    /// The content is in another format than the file name's extension says; it is read as what
    /// the content is.
    #[error(
        "the content is {}, not {} as the file name says; read as {}",
        content.name(),
        named.name(),
        content.name()
    )]
    FormatMismatch {
        /// The format the content shows (the one read).
        content: crate::Format,
        /// The format the file name's extension names.
        named: crate::Format,
    },
    /// The start of the input was plain ASCII and later bytes showed its encoding.
    #[error(
        "the first {} bytes were plain ASCII; the text from here is {encoding}, read as {encoding}",
        crate::input::HEAD_BYTES
    )]
    EncodingFound {
        /// The encoding the text is read in from this line on.
        encoding: Encoding,
    },
    /// A CSA file with several games (`/` lines): only the first is read.
    #[error("only the first game of a multi-game file is read")]
    MultiGame,
    /// A CSA record with no initial position: read from the standard start.
    #[error(
        "no initial position (PI or P1..P9) before the side to move: read from the standard start"
    )]
    NoInitialPosition,
    /// A header key the format does not define, kept under its own name.
    #[error("unknown header `{key}` kept as is")]
    UnknownHeader {
        /// The key as written (with CSA's `$`), an excerpt.
        key: String,
    },
    /// A bookmark (しおり) that could not be kept on its position.
    #[error("bookmark `{text}` skipped: {why}")]
    BookmarkSkipped {
        /// The bookmark line (`&…`), an excerpt.
        text: String,
        /// Why it was skipped.
        why: BookmarkSkip,
    },
    /// Several 手合割 headers that disagree; one is kept.
    #[error(
        "手合割 given {count} times ({names}); kept {kept}, {}",
        if *shown_by_diagram { "the one the board diagram shows" } else { "the first" }
    )]
    HandicapConflict {
        /// How many 手合割 headers the record has.
        count: usize,
        /// Their values, comma-separated, an excerpt.
        names: String,
        /// The value kept, an excerpt.
        kept: String,
        /// Whether the kept one is the one the board diagram shows (else it is the first).
        shown_by_diagram: bool,
    },
    /// A 手合割 line among the moves, which cannot change the initial position: skipped.
    #[error(
        "`{text}` among the moves skipped: the initial position is {}",
        if *names_start { "named by the 手合割 before the moves" } else { "another one" }
    )]
    HandicapAmongMoves {
        /// The line, an excerpt.
        text: String,
        /// Whether it names the initial position (which a 手合割 before the moves named already).
        names_start: bool,
    },
    /// A closing `まで…` line the table of game ends does not know: kept as a comment.
    #[error("result `まで{text}` not understood; kept as a comment, the line has no end")]
    UnknownResult {
        /// What follows `まで`, an excerpt.
        text: String,
    },
    /// A line among the moves that names no move (a rule, a program's note): kept as a comment.
    #[error("`{text}` is not a move; kept as a comment")]
    NotAMove {
        /// The line, an excerpt.
        text: String,
    },
    /// An illegal move the record's result names as the foul (反則) the game ended with: the
    /// record ends before it.
    #[error(
        "`{text}` (move {ply}) is illegal: the record ends before it, with the foul (反則) its result names"
    )]
    FoulEndsRecord {
        /// The move as written, an excerpt.
        text: String,
        /// Its ply number.
        ply: u32,
    },
    /// An SFEN without its move number: read as move 1.
    #[error("the SFEN has no move number; read as move 1 (`… 1`)")]
    MissingMoveNumber,
}

impl WarningKind {
    /// A stable machine-readable name of the kind (`not_a_move`, `unknown_header`, ...), for
    /// programs (the server's JSON, scripts) that act on warnings.
    pub fn code(&self) -> &'static str {
        match self {
            WarningKind::FormatMismatch { .. } => "format_mismatch",
            WarningKind::EncodingFound { .. } => "encoding_found",
            WarningKind::MultiGame => "multi_game",
            WarningKind::NoInitialPosition => "no_initial_position",
            WarningKind::UnknownHeader { .. } => "unknown_header",
            WarningKind::BookmarkSkipped { .. } => "bookmark_skipped",
            WarningKind::HandicapConflict { .. } => "handicap_conflict",
            WarningKind::HandicapAmongMoves { .. } => "handicap_among_moves",
            WarningKind::UnknownResult { .. } => "unknown_result",
            WarningKind::NotAMove { .. } => "not_a_move",
            WarningKind::FoulEndsRecord { .. } => "foul_ends_record",
            WarningKind::MissingMoveNumber => "missing_move_number",
        }
    }

    /// The input text the warning is about, a bounded excerpt, where it quotes one.
    pub fn excerpt(&self) -> Option<&str> {
        match self {
            WarningKind::UnknownHeader { key: text }
            | WarningKind::BookmarkSkipped { text, .. }
            | WarningKind::HandicapAmongMoves { text, .. }
            | WarningKind::UnknownResult { text }
            | WarningKind::NotAMove { text }
            | WarningKind::FoulEndsRecord { text, .. } => Some(text),
            WarningKind::HandicapConflict { names, .. } => Some(names),
            WarningKind::FormatMismatch { .. }
            | WarningKind::EncodingFound { .. }
            | WarningKind::MultiGame
            | WarningKind::NoInitialPosition
            | WarningKind::MissingMoveNumber => None,
        }
    }
}

impl Warning {
    pub(crate) fn new(line: usize, kind: WarningKind) -> Warning {
        Warning { line, kind }
    }
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            0 => write!(f, "{}", self.kind),
            n => write!(f, "line {n}: {}", self.kind),
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

    /// The typed warnings read as the texts users and scripts knew from the string warnings.
    #[test]
    fn warnings_display_their_line_and_message() {
        let w = |line, kind| Warning::new(line, kind).to_string();
        assert_eq!(
            w(
                3,
                WarningKind::NotAMove {
                    text: "----".into()
                }
            ),
            "line 3: `----` is not a move; kept as a comment"
        );
        assert_eq!(
            w(0, WarningKind::MultiGame),
            "only the first game of a multi-game file is read"
        );
        assert_eq!(
            w(
                7,
                WarningKind::BookmarkSkipped {
                    text: "&x".into(),
                    why: BookmarkSkip::BeforeVariation
                }
            ),
            "line 7: bookmark `&x` skipped: it comes before the variation's first move"
        );
        assert_eq!(
            w(
                2,
                WarningKind::HandicapConflict {
                    count: 2,
                    names: "平手, 香落ち".into(),
                    kept: "平手".into(),
                    shown_by_diagram: false
                }
            ),
            "line 2: 手合割 given 2 times (平手, 香落ち); kept 平手, the first"
        );
        assert_eq!(
            w(
                1,
                WarningKind::FormatMismatch {
                    content: crate::Format::Csa,
                    named: crate::Format::Kif
                }
            ),
            "line 1: the content is csa, not kif as the file name says; read as csa"
        );
        let long = WarningKind::NotAMove {
            text: excerpt(&"x".repeat(10_000)),
        };
        assert_eq!(long.code(), "not_a_move");
        assert_eq!(
            long.excerpt().map(|t| t.chars().count()),
            Some(EXCERPT_CHARS + 1)
        );
    }
}
