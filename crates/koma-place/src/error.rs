//! The one error type of the crate.

use thiserror::Error;

/// Why a piece set or a problem was rejected. Every variant is a user mistake, never a bug.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlaceError {
    /// The piece set names no piece at all.
    #[error("the piece set is empty")]
    Empty,
    /// A character that is not a piece letter, a count, `+` or `^`.
    #[error(
        "unknown piece letter '{letter}' at position {position} (expected P L N S G K B R X, '+', '^' or a count)"
    )]
    UnknownLetter {
        /// The offending character.
        letter: char,
        /// Its 0-based character position in the input.
        position: usize,
    },
    /// `+` before a piece that has no promoted form, or at the end.
    #[error("'+' at position {position} must be followed by P, L, N, S, B or R")]
    BadPromotion {
        /// 0-based character position of the `+`.
        position: usize,
    },
    /// `^` (fixed Black) not followed by a piece letter.
    #[error("'^' at position {position} must be followed by a piece")]
    BadColourMark {
        /// 0-based character position of the `^`.
        position: usize,
    },
    /// A colour was fixed White (lowercase) in one-directional mode, where every piece faces Black's way.
    #[error(
        "'{piece}' faces White's way, but one-directional placement has every piece facing Black's way"
    )]
    WhiteInOneWay {
        /// The piece as written (lowercase).
        piece: String,
    },
    /// More pieces than squares.
    #[error("{pieces} pieces cannot fit on {squares} squares")]
    TooMany {
        /// Number of pieces asked for (saturated at `u32::MAX`).
        pieces: u32,
        /// Number of squares of the board.
        squares: u32,
    },
    /// A board size outside 1..=9 by 1..=9.
    #[error("board size {files}x{ranks} is not supported (files and ranks must be 1..=9)")]
    BadBoard {
        /// Files asked for.
        files: u8,
        /// Ranks asked for.
        ranks: u8,
    },
}
