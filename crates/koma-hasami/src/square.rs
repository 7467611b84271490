//! Squares and 81-bit bitboards (in a `u128`).
//!
//! Square index = `row * 9 + col`, row 0 = rank a (top), col 0 = file 9 (left on the diagram), so
//! the index order is the SFEN reading order. USI square `5e` is the centre, index 40.
//!
//! This is not koma-core's numbering (file by file from `1a`): the move generation order, the
//! random agents' choices, the n-tuple features and so the shipped model are defined on this
//! one (docs/ARCHITECTURE.md). The squares themselves are the same: [`Square`] converts to and
//! from [`koma_core::Square`].

use std::fmt;

/// One of the 81 squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Square 9a, index 0 (top left of the diagram).
    pub const SQ_9A: Square = Square(0);

    /// The square at `row` (0 = rank a) and `col` (0 = file 9), if both are below 9.
    pub const fn from_row_col(row: u8, col: u8) -> Option<Square> {
        if row < 9 && col < 9 {
            Some(Square(row * 9 + col))
        } else {
            None
        }
    }

    /// The square with this index (0..81).
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 81 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// Index 0..81 in SFEN reading order.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Row 0..9 (0 = rank a).
    pub const fn row(self) -> u8 {
        self.0 / 9
    }

    /// Column 0..9 (0 = file 9).
    pub const fn col(self) -> u8 {
        self.0 % 9
    }

    /// USI file number 1..=9.
    pub const fn file(self) -> u8 {
        9 - self.col()
    }

    /// USI rank number 1..=9 (1 = a).
    pub const fn rank(self) -> u8 {
        self.row() + 1
    }

    /// The single-bit bitboard of this square.
    pub const fn bit(self) -> u128 {
        1u128 << self.0
    }

    /// The neighbour one step in direction `dir`, if on the board.
    pub const fn step(self, dir: Dir) -> Option<Square> {
        let (r, c) = (self.row() as i8, self.col() as i8);
        let (dr, dc) = dir.delta();
        let (nr, nc) = (r + dr, c + dc);
        if nr < 0 || nc < 0 {
            None
        } else {
            Square::from_row_col(nr as u8, nc as u8)
        }
    }
}

impl From<Square> for koma_core::Square {
    /// The same square in koma-core's numbering.
    ///
    /// ```
    /// let sq: koma_hasami::Square = "9i9e".parse::<koma_hasami::Move>().unwrap().to;
    /// let core = koma_core::Square::from(sq);
    /// assert_eq!(core.to_string(), "9e");
    /// assert_eq!(koma_hasami::Square::from(core), sq);
    /// ```
    fn from(sq: Square) -> koma_core::Square {
        koma_core::Square::from_file_rank(sq.file(), sq.rank())
            .unwrap_or_else(|| unreachable!("{sq} is on the board"))
    }
}

impl From<koma_core::Square> for Square {
    /// The same square in koma-hasami's numbering.
    fn from(sq: koma_core::Square) -> Square {
        Square((sq.rank() - 1) * 9 + 9 - sq.file())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.row()) as char)
    }
}

/// The four rook directions, in the fixed generation order koma uses everywhere: towards rank a,
/// towards rank i, towards file 9, towards file 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Towards rank a (up the diagram).
    Up,
    /// Towards rank i.
    Down,
    /// Towards file 9 (left on the diagram).
    Left,
    /// Towards file 1.
    Right,
}

impl Dir {
    /// All four, in generation order.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// (row delta, column delta).
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Dir::Up => (-1, 0),
            Dir::Down => (1, 0),
            Dir::Left => (0, -1),
            Dir::Right => (0, 1),
        }
    }
}

/// Bit set of all 81 squares.
pub const FULL: u128 = (1u128 << 81) - 1;

const fn column_mask(col: u32) -> u128 {
    let mut m = 0u128;
    let mut r = 0;
    while r < 9 {
        m |= 1u128 << (r * 9 + col);
        r += 1;
    }
    m
}

const COL_FILE9: u128 = column_mask(0);
const COL_FILE1: u128 = column_mask(8);

/// The squares orthogonally adjacent to some square of `b` (may include squares of `b`).
pub const fn neighbours(b: u128) -> u128 {
    let up = b >> 9;
    let down = (b << 9) & FULL;
    let left = (b & !COL_FILE9) >> 1;
    let right = (b & !COL_FILE1) << 1;
    up | down | left | right
}

/// The orthogonally connected part of `within` that contains `seed` (a subset of `within`).
pub fn flood(seed: u128, within: u128) -> u128 {
    let mut group = seed & within;
    loop {
        let next = (group | neighbours(group)) & within;
        if next == group {
            return group;
        }
        group = next;
    }
}

/// Iterates over the squares of a bitboard in index order.
pub fn squares(mut b: u128) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let i = b.trailing_zeros() as u8;
            b &= b - 1;
            Some(Square(i))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_coordinates_match_usi() {
        let centre = Square::from_row_col(4, 4).unwrap();
        assert_eq!(centre.to_string(), "5e");
        assert_eq!(centre.index(), 40);
        assert_eq!(Square::from_index(0).unwrap().to_string(), "9a");
        assert_eq!(Square::from_index(80).unwrap().to_string(), "1i");
        assert_eq!(Square::from_index(81), None);
    }

    #[test]
    fn converts_to_and_from_koma_core() {
        for i in 0..81 {
            let sq = Square::from_index(i).unwrap();
            let core = koma_core::Square::from(sq);
            assert_eq!(core.to_string(), sq.to_string());
            assert_eq!(Square::from(core), sq);
        }
    }

    #[test]
    fn neighbours_do_not_wrap_around_files() {
        let sq9a = Square::from_index(0).unwrap().bit();
        let sq1a = Square::from_index(8).unwrap().bit();
        assert_eq!(neighbours(sq9a).count_ones(), 2);
        assert_eq!(neighbours(sq1a).count_ones(), 2);
        assert_eq!(neighbours(sq1a) & Square::from_index(9).unwrap().bit(), 0);
        assert_eq!(
            neighbours(Square::from_index(40).unwrap().bit()).count_ones(),
            4
        );
        assert_eq!(neighbours(FULL), FULL);
    }

    #[test]
    fn step_stops_at_edges() {
        let sq = Square::from_index(0).unwrap();
        assert_eq!(sq.step(Dir::Up), None);
        assert_eq!(sq.step(Dir::Left), None);
        assert_eq!(sq.step(Dir::Right).unwrap().to_string(), "8a");
        assert_eq!(sq.step(Dir::Down).unwrap().to_string(), "9b");
    }
}
