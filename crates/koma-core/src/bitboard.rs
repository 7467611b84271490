//! Sets of squares as 81-bit masks.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::Square;

/// A set of squares: bit `i` stands for the square with index `i` (see [`Square`]).
///
/// Bits 81..128 are always zero. Files are 9 consecutive bits, so a file mask or a vertical ray
/// is a shift of a small constant.
///
/// ```
/// use koma_core::{Bitboard, Square};
/// let sq: Square = "5e".parse().unwrap();
/// let bb = Bitboard::from_square(sq) | Bitboard::file_mask(1);
/// assert_eq!(bb.count(), 10);
/// assert!(bb.contains(sq));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub(crate) u128);

const FULL: u128 = (1u128 << 81) - 1;

/// One-square sets: a load is cheaper than a variable 128-bit shift.
static SQUARE_BB: [Bitboard; 81] = {
    let mut t = [Bitboard(0); 81];
    let mut i = 0;
    while i < 81 {
        t[i] = Bitboard(1u128 << i);
        i += 1;
    }
    t
};

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const FULL: Bitboard = Bitboard(FULL);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        SQUARE_BB[sq.index()]
    }

    /// The set holding `sq` if there is one, else empty.
    #[inline]
    pub const fn from_square_opt(sq: Option<Square>) -> Bitboard {
        match sq {
            Some(s) => Bitboard::from_square(s),
            None => Bitboard::EMPTY,
        }
    }

    /// The raw 81-bit mask.
    #[inline]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// The set of a raw mask; bits above 80 are dropped.
    #[inline]
    pub const fn from_bits(bits: u128) -> Bitboard {
        Bitboard(bits & FULL)
    }

    /// The nine squares of file `file` (1..=9). Panics if `file` is out of range.
    #[inline]
    pub const fn file_mask(file: u8) -> Bitboard {
        assert!(file >= 1 && file <= 9);
        Bitboard(0x1FFu128 << ((file - 1) as u32 * 9))
    }

    /// The nine squares of rank `rank` (1..=9, 1 is `a`). Panics if `rank` is out of range.
    #[inline]
    pub const fn rank_mask(rank: u8) -> Bitboard {
        assert!(rank >= 1 && rank <= 9);
        let mut bits = 0u128;
        let mut f = 0;
        while f < 9 {
            bits |= 1u128 << (f * 9 + rank as u32 - 1);
            f += 1;
        }
        Bitboard(bits)
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    #[inline]
    pub const fn is_any(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & SQUARE_BB[sq.index()].0 != 0
    }

    /// The number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Every file holding at least one square of the set, as whole files. Branch-free: a file is
    /// nine consecutive bits; adding `0xFF` to its low eight bits carries into its ninth exactly
    /// when one of them is set (no carry leaves the file), and a file's ninth bit `h` spreads to
    /// the whole file as `h | (h - (h >> 8))`.
    ///
    /// ```
    /// use koma_core::{Bitboard, Square};
    /// let sq: Square = "3e".parse().unwrap();
    /// assert_eq!(Bitboard::from_square(sq).fill_files(), Bitboard::file_mask(3));
    /// ```
    #[inline]
    pub const fn fill_files(self) -> Bitboard {
        const LOW8: u128 = repeat_per_file(0xFF);
        const NINTH: u128 = repeat_per_file(0x100);
        let x = self.0;
        let h = (((x & LOW8) + LOW8) | x) & NINTH;
        Bitboard(h | (h - (h >> 8)))
    }

    /// The number of squares in the set, by clearing one bit at a time: faster than
    /// [`Bitboard::count`] for the few squares of one piece's moves on targets without a
    /// population-count instruction, slower for large sets.
    #[inline]
    pub const fn count_sparse(self) -> u32 {
        if cfg!(target_feature = "popcnt") {
            return self.0.count_ones();
        }
        let (mut lo, mut hi) = (self.0 as u64, (self.0 >> 64) as u64);
        let mut n = 0;
        while lo != 0 {
            lo &= lo - 1;
            n += 1;
        }
        while hi != 0 {
            hi &= hi - 1;
            n += 1;
        }
        n
    }

    /// Whether the set has two or more squares.
    #[inline]
    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The square with the lowest index, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// The square with the highest index, if any.
    #[inline]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_unchecked(127 - self.0.leading_zeros() as u8))
        }
    }

    /// The set with `sq` added.
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | SQUARE_BB[sq.index()].0)
    }

    /// The set with `sq` removed.
    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !SQUARE_BB[sq.index()].0)
    }

    /// The set turned 180 degrees (each square to [`Square::rotate`]).
    #[inline]
    pub const fn rotate(self) -> Bitboard {
        Bitboard(self.0.reverse_bits() >> (128 - 81))
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & FULL)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the set as a 9x9 grid as Black sees it (file 9 on the left, rank `a` on top).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for rank in 1..=9 {
            for file in (1..=9).rev() {
                let sq = Square::from_file_rank(file, rank).ok_or(fmt::Error)?;
                f.write_str(if self.contains(sq) { " X" } else { " ." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// `pattern` (nine bits) repeated in each of the nine files.
const fn repeat_per_file(pattern: u128) -> u128 {
    let mut out = 0;
    let mut f = 0;
    while f < 9 {
        out |= pattern << (9 * f);
        f += 1;
    }
    out
}

/// A fixed stream of pseudo-random 64-bit pairs (xorshift, then a multiply) for the unit tests
/// that compare bitboard tricks with slow references.
#[cfg(test)]
pub(crate) fn random_pairs() -> impl Iterator<Item = (u64, u64)> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    std::iter::repeat_with(move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x, x.wrapping_mul(0x2545_F491_4F6C_DD1D))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_files_matches_file_by_file() {
        for (i, (x, y)) in random_pairs().take(20_000).enumerate() {
            // Sparse and dense sets alike.
            let bits = ((x as u128) << 64 | y as u128) >> (i % 100);
            let b = Bitboard::from_bits(bits) & Bitboard::FULL;
            let mut want = Bitboard::EMPTY;
            for file in 1..=9 {
                if (b & Bitboard::file_mask(file)).is_any() {
                    want |= Bitboard::file_mask(file);
                }
            }
            assert_eq!(b.fill_files(), want, "{bits:#x}");
        }
        assert_eq!(Bitboard::EMPTY.fill_files(), Bitboard::EMPTY);
        assert_eq!(Bitboard::FULL.fill_files(), Bitboard::FULL);
    }
}
