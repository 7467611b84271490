//! The two sides.

/// A side: Black (先手, moves first, uppercase in SFEN) or White (後手, lowercase).
///
/// Also the colour of koma-place's pieces (which way a piece faces) and of hasami shogi's sides.
/// Displayed as `black` / `white`; with the `serde` feature it serialises as `"Black"` /
/// `"White"`.
///
/// ```
/// use koma_core::Color;
/// assert_eq!(!Color::Black, Color::White);
/// assert_eq!(Color::White.to_string(), "white");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Color {
    /// 先手 ▲, moves first and toward rank `a`.
    Black = 0,
    /// 後手 △, moves second and toward rank `i`.
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other side.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index into per-colour tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// +1 for Black, −1 for White: turns a score from the side to move's view into Black's.
    #[inline]
    pub const fn sign(self) -> i32 {
        match self {
            Color::Black => 1,
            Color::White => -1,
        }
    }

    /// The SFEN side-to-move character: `b` or `w`.
    pub const fn sfen_char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.flip()
    }
}

impl std::fmt::Display for Color {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}
