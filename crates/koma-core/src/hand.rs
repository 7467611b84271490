//! Pieces in hand (持ち駒).

use crate::PieceKind;

/// Bit offset and width of each hand kind's count, in [`PieceKind::HAND`] order. Each field has a
/// spare bit above it so that [`Hand::is_superior_or_equal`] is one subtraction and one mask.
const SHIFT: [u32; 7] = [0, 6, 10, 14, 22, 25, 18];
const MASK: [u32; 7] = [0x1F, 0x7, 0x7, 0x7, 0x3, 0x3, 0x7];
const BORROW: u32 = (1 << 5) | (1 << 9) | (1 << 13) | (1 << 17) | (1 << 21) | (1 << 24) | (1 << 27);

/// The pieces one side holds in hand: a count for each of the seven hand kinds, packed in 32 bits.
///
/// Counts never exceed what a set holds (18 pawns, 4 lances/knights/silvers/golds, 2
/// bishops/rooks): [`Hand::add`] is only called by code that keeps that promise, and parsers
/// check counts before building a hand.
///
/// ```
/// use koma_core::{Hand, PieceKind};
/// let mut h = Hand::EMPTY;
/// h.add(PieceKind::Pawn);
/// h.add(PieceKind::Pawn);
/// h.add(PieceKind::Rook);
/// assert_eq!(h.count(PieceKind::Pawn), 2);
/// assert!(h.is_superior_or_equal(Hand::EMPTY));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Hand(u32);

impl Hand {
    /// No pieces.
    pub const EMPTY: Hand = Hand(0);

    /// How many pieces of `kind` are held (0 for kinds that cannot be held).
    #[inline]
    pub const fn count(self, kind: PieceKind) -> u8 {
        let i = kind as usize;
        if i < 7 {
            ((self.0 >> SHIFT[i]) & MASK[i]) as u8
        } else {
            0
        }
    }

    /// Whether any piece of `kind` is held.
    #[inline]
    pub const fn has(self, kind: PieceKind) -> bool {
        self.count(kind) > 0
    }

    /// Whether no piece is held.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Adds one piece of hand kind `kind` (pawn .. gold).
    #[inline]
    pub fn add(&mut self, kind: PieceKind) {
        debug_assert!(kind.is_hand_kind() && self.count(kind) < kind.set_count());
        self.0 += 1 << SHIFT[kind as usize];
    }

    /// Removes one piece of hand kind `kind`; the caller promises one is held.
    #[inline]
    pub fn remove(&mut self, kind: PieceKind) {
        debug_assert!(self.has(kind));
        self.0 -= 1 << SHIFT[kind as usize];
    }

    /// The hand with `count` pieces of `kind`, if `kind` is a hand kind and the count fits in a set.
    pub fn with_count(self, kind: PieceKind, count: u8) -> Option<Hand> {
        if !kind.is_hand_kind() || count > kind.set_count() {
            return None;
        }
        let i = kind as usize;
        Some(Hand(
            (self.0 & !(MASK[i] << SHIFT[i])) | (count as u32) << SHIFT[i],
        ))
    }

    /// Whether this hand holds at least as many of every kind as `other` (優越関係).
    #[inline]
    pub const fn is_superior_or_equal(self, other: Hand) -> bool {
        self.0.wrapping_sub(other.0) & BORROW == 0
    }

    /// Total number of pieces held.
    pub fn total(self) -> u32 {
        PieceKind::HAND.iter().map(|&k| self.count(k) as u32).sum()
    }

    /// The packed value (stable: usable as a hash or table key).
    #[inline]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// The hand whose packed value is `bits`, if [`Hand::bits`] can return it (every count
    /// within a set, no stray bits).
    ///
    /// ```
    /// use koma_core::{Hand, PieceKind};
    /// let h = Hand::EMPTY.with_count(PieceKind::Silver, 2).unwrap();
    /// assert_eq!(Hand::from_bits(h.bits()), Some(h));
    /// assert_eq!(Hand::from_bits(u32::MAX), None);
    /// ```
    #[inline]
    pub const fn from_bits(bits: u32) -> Option<Hand> {
        let mut fields = 0;
        let mut i = 0;
        while i < 7 {
            if (bits >> SHIFT[i]) & MASK[i] > PieceKind::HAND[i].set_count() as u32 {
                return None;
            }
            fields |= MASK[i] << SHIFT[i];
            i += 1;
        }
        if bits & !fields != 0 {
            return None;
        }
        Some(Hand(bits))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_do_not_overlap() {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            for _ in 0..k.set_count() {
                h.add(k);
            }
        }
        for k in PieceKind::HAND {
            assert_eq!(h.count(k), k.set_count(), "{k:?}");
        }
        assert_eq!(h.total(), 38);
        assert_eq!(h.bits() & BORROW, 0);
    }

    #[test]
    fn superiority_is_per_kind() {
        let a = Hand::EMPTY.with_count(PieceKind::Gold, 2).unwrap();
        let b = Hand::EMPTY.with_count(PieceKind::Pawn, 1).unwrap();
        assert!(!a.is_superior_or_equal(b));
        assert!(!b.is_superior_or_equal(a));
        let c = a.with_count(PieceKind::Pawn, 3).unwrap();
        assert!(c.is_superior_or_equal(a) && c.is_superior_or_equal(b));
        assert!(Hand::EMPTY.with_count(PieceKind::Pawn, 19).is_none());
    }
}
