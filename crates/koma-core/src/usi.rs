//! The USI `position` command: `startpos` or `sfen ...`, then optional `moves ...`.

use crate::text::{EXCERPT_CHARS, excerpt};
use crate::{FromSfenError, Move, ParseMoveError, Position};

/// Why a USI `position` string could not be applied.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UsiPositionError {
    /// Neither `startpos` nor `sfen` where the position should start.
    #[error(
        "expected `startpos` or `sfen <board> <side> <hand> <ply>`, found `{}`",
        excerpt(.0, EXCERPT_CHARS)
    )]
    BadStart(String),
    /// The SFEN part is not a legal position.
    #[error("in the SFEN: {0}")]
    Sfen(#[from] FromSfenError),
    /// Text after the position that is not `moves ...`.
    #[error(
        "expected `moves` after the position, found `{}`",
        excerpt(.0, EXCERPT_CHARS)
    )]
    ExpectedMoves(String),
    /// A move is not USI notation.
    #[error("move {index}: {source}")]
    BadMove {
        /// 1-based index in the move list.
        index: usize,
        /// The notation problem.
        source: ParseMoveError,
    },
    /// A move is well formed but not legal in the position it is played in. The position
    /// before it is kept.
    #[error("move {index} `{}` is illegal in {sfen}", excerpt(text, EXCERPT_CHARS))]
    IllegalMove {
        /// 1-based index in the move list.
        index: usize,
        /// The move as written.
        text: String,
        /// The position it was played in.
        sfen: String,
    },
}

/// A USI position string taken apart: the start position, and the words after `moves`, not yet
/// played. The one reading of `position` strings that [`parse_position`] and the record readers
/// (koma-record's USI records, which may end in a game-end token) share.
#[derive(Clone, Debug)]
pub struct PositionCommand<'a> {
    /// The position before the moves.
    pub start: Position,
    /// Where the position starts (column from 1, in characters): `startpos`, `sfen` or the SFEN.
    pub start_column: usize,
    /// The words after `moves`, with their columns.
    pub moves: Words<'a>,
}

/// A USI position string that could not be taken apart, and where (column from 1, in
/// characters).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {error}")]
pub struct PositionCommandError {
    /// Where the problem is.
    pub column: usize,
    /// What it is.
    pub error: UsiPositionError,
}

/// The whitespace-separated words of a text with their columns (from 1, in characters), found
/// in one pass.
#[derive(Clone, Debug)]
pub struct Words<'a> {
    rest: &'a str,
    column: usize,
}

impl<'a> Words<'a> {
    /// The words of `text`.
    pub fn new(text: &'a str) -> Words<'a> {
        Words {
            rest: text,
            column: 1,
        }
    }
}

impl<'a> Iterator for Words<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<(usize, &'a str)> {
        let skipped = self.rest.len() - self.rest.trim_start().len();
        self.column += self.rest[..skipped].chars().count();
        self.rest = &self.rest[skipped..];
        if self.rest.is_empty() {
            return None;
        }
        let len = self
            .rest
            .find(char::is_whitespace)
            .unwrap_or(self.rest.len());
        let (word, rest) = self.rest.split_at(len);
        let at = self.column;
        self.column += word.chars().count();
        self.rest = rest;
        Some((at, word))
    }
}

/// Whether `w`, with no `/`, is still a bare SFEN's board: SFEN's board letters followed by a
/// side to move (a board of one rank, which the SFEN reader then refuses by name).
fn one_rank_board(w: &str, rest: &Words) -> bool {
    crate::is_sfen_board_text(w) && matches!(rest.clone().next(), Some((_, "b" | "w")))
}

/// Takes a USI position description apart, with or without the leading `position` word:
/// `startpos`, `sfen <4 fields>` or a bare SFEN, then optionally `moves` and the move words.
///
/// ```
/// use koma_core::usi::split_position;
/// let cmd = split_position("position startpos moves 7g7f 3c3d").unwrap();
/// assert_eq!(cmd.start_column, 10);
/// assert_eq!(cmd.moves.collect::<Vec<_>>(), [(25, "7g7f"), (30, "3c3d")]);
/// let e = split_position("startpos 7g7f").unwrap_err();
/// assert_eq!(e.column, 10);
/// assert_eq!(e.error.to_string(), "expected `moves` after the position, found `7g7f`");
/// ```
pub fn split_position(text: &str) -> Result<PositionCommand<'_>, PositionCommandError> {
    let mut words = Words::new(text);
    let fail = |column, error| PositionCommandError { column, error };
    let mut first = words.next();
    if first.map(|w| w.1) == Some("position") {
        first = words.next();
    }
    let (start_column, start) = match first {
        Some((column, "startpos")) => (column, Position::startpos()),
        Some((column, w)) if w == "sfen" || w.contains('/') || one_rank_board(w, &words) => {
            let mut fields: Vec<&str> = Vec::with_capacity(4);
            if w != "sfen" {
                fields.push(w);
            }
            let mut probe = words.clone();
            while let Some((_, f)) = probe.next() {
                if f == "moves" {
                    break;
                }
                fields.push(f);
                words = probe.clone();
            }
            let pos = Position::from_sfen(&fields.join(" "))
                .map_err(|e| fail(column, UsiPositionError::Sfen(e)))?;
            (column, pos)
        }
        other => {
            let (column, w) = other.unwrap_or((text.chars().count() + 1, ""));
            return Err(fail(column, UsiPositionError::BadStart(w.to_owned())));
        }
    };
    match words.next() {
        None | Some((_, "moves")) => {}
        Some((column, w)) => {
            return Err(fail(column, UsiPositionError::ExpectedMoves(w.to_owned())));
        }
    }
    Ok(PositionCommand {
        start,
        start_column,
        moves: words,
    })
}

/// Applies a USI position description, with or without the leading `position` word:
/// `startpos`, `sfen <4 fields>`, either followed by `moves m1 m2 ...`. A bare SFEN
/// (without the `sfen` word) is accepted too.
///
/// ```
/// use koma_core::usi::parse_position;
/// let pos = parse_position("position startpos moves 7g7f 3c3d").unwrap();
/// assert_eq!(pos.ply(), 3);
/// let err = parse_position("startpos moves 7g7f 7g7f").unwrap_err();
/// assert!(err.to_string().starts_with("move 2 `7g7f` is illegal"));
/// ```
pub fn parse_position(text: &str) -> Result<Position, UsiPositionError> {
    let cmd = split_position(text).map_err(|e| e.error)?;
    let mut pos = cmd.start;
    apply_moves(&mut pos, cmd.moves.map(|(_, w)| w))?;
    Ok(pos)
}

/// Plays USI moves in order on `pos`. On the first bad or illegal move it stops and returns the
/// error; the moves before it stay played.
pub fn apply_moves<'a>(
    pos: &mut Position,
    moves: impl IntoIterator<Item = &'a str>,
) -> Result<(), UsiPositionError> {
    for (i, text) in moves.into_iter().enumerate() {
        let m: Move = text.parse().map_err(|source| UsiPositionError::BadMove {
            index: i + 1,
            source,
        })?;
        if !pos.play(m) {
            return Err(UsiPositionError::IllegalMove {
                index: i + 1,
                text: text.to_owned(),
                sfen: pos.to_sfen(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_accepted() {
        let a = parse_position("startpos moves 7g7f").unwrap();
        let b = parse_position("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f").unwrap();
        let c = parse_position(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f",
        )
        .unwrap();
        assert_eq!(a, b);
        assert_eq!(b, c);
    }

    #[test]
    fn errors() {
        assert!(matches!(
            parse_position(""),
            Err(UsiPositionError::BadStart(_))
        ));
        assert!(matches!(
            parse_position("startpos 7g7f"),
            Err(UsiPositionError::ExpectedMoves(_))
        ));
        assert!(matches!(
            parse_position("startpos moves 7g7x"),
            Err(UsiPositionError::BadMove { index: 1, .. })
        ));
        // A bare board of one rank is still an SFEN, refused by the SFEN reader by name; a word
        // of other letters, or without a side to move after it, is no start at all.
        assert!(matches!(
            parse_position("4k4 b - 1"),
            Err(UsiPositionError::Sfen(FromSfenError::Sfen(
                crate::SfenError::RankCount { ranks: 1 }
            )))
        ));
        assert!(matches!(
            parse_position("4x4 b - 1"),
            Err(UsiPositionError::BadStart(_))
        ));
        assert!(matches!(
            parse_position("4k4 - 1"),
            Err(UsiPositionError::BadStart(_))
        ));
        assert!(matches!(
            parse_position("sfen 9/9 b - 1"),
            Err(UsiPositionError::Sfen(_))
        ));
    }
}
