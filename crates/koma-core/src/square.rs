//! Squares, files and ranks, named as in USI (`1a` .. `9i`).

use std::fmt;
use std::str::FromStr;

use crate::Color;
use crate::text::{EXCERPT_CHARS, excerpt};

/// One of the 81 squares.
///
/// The index is `(file - 1) * 9 + rank`, with rank 0 for `a` (White's back rank) and 8 for `i`
/// (Black's back rank); so `1a` is 0, `1i` is 8, `9i` is 80. Files run 1..=9 from right to left
/// as Black sees the board, exactly as in USI and Japanese notation (７六 is `7f`).
///
/// ```
/// use koma_core::Square;
/// let sq: Square = "7g".parse().unwrap();
/// assert_eq!((sq.file(), sq.rank()), (7, 7));
/// assert_eq!(sq.to_string(), "7g");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of squares on the board.
    pub const COUNT: usize = 81;

    /// The square with this index, if it is below 81.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 81 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with this index. The caller promises `index < 81`.
    #[inline]
    pub(crate) const fn new_unchecked(index: u8) -> Square {
        debug_assert!(index < 81);
        Square(index)
    }

    /// The square at `file` (1..=9) and `rank` (1..=9, 1 is `a`), if both are in range.
    #[inline]
    pub const fn from_file_rank(file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
            Some(Square((file - 1) * 9 + rank - 1))
        } else {
            None
        }
    }

    /// All 81 squares in index order (`1a`, `1b`, ..., `9i`).
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81).map(Square)
    }

    /// The index 0..81.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file 1..=9 (the digit in USI).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 / 9 + 1
    }

    /// The rank 1..=9 (1 is `a`, 9 is `i`).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 % 9 + 1
    }

    /// The rank counted from `color`'s side: 1 is the farthest rank (the last rank for that side's
    /// pawns), 9 its own back rank.
    #[inline]
    pub const fn relative_rank(self, color: Color) -> u8 {
        match color {
            Color::Black => self.rank(),
            Color::White => 10 - self.rank(),
        }
    }

    /// Whether a piece of `color` may promote when it moves from or to this square
    /// (the three ranks farthest from that side).
    #[inline]
    pub const fn in_promotion_zone(self, color: Color) -> bool {
        self.relative_rank(color) <= 3
    }

    /// The same square seen from the other side (the board turned 180 degrees).
    #[inline]
    pub const fn rotate(self) -> Square {
        Square(80 - self.0)
    }

    /// The square mirrored left-right (file f becomes file 10 - f).
    #[inline]
    pub const fn mirror(self) -> Square {
        Square((8 - self.0 / 9) * 9 + self.0 % 9)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.rank() - 1) as char)
    }
}

/// A string that is not a USI square name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{}` is not a square (expected a file 1-9 and a rank a-i, like `7g`)",
    excerpt(.0, EXCERPT_CHARS)
)]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let b = s.as_bytes();
        if b.len() == 2 && (b'1'..=b'9').contains(&b[0]) && (b'a'..=b'i').contains(&b[1]) {
            Ok(Square((b[0] - b'1') * 9 + (b[1] - b'a')))
        } else {
            Err(ParseSquareError(s.to_owned()))
        }
    }
}
