//! Arithmetic on the attacker's hand for proof and disproof pieces (証明駒・反証駒).
//!
//! A proof hand is the least attacker hand known to mate; a disproof hand the greatest known not
//! to. In a mate problem the pieces outside the board are split between the two hands, so the
//! attacker's hand alone fixes the defender's: more for the attacker is less for the defender.

use koma_core::{Hand, PieceKind};

/// `h` with one more `kind`.
#[inline]
pub(crate) fn plus(mut h: Hand, kind: PieceKind) -> Hand {
    h.add(kind);
    h
}

/// `h` with one `kind` fewer, or `h` itself when it holds none.
#[inline]
pub(crate) fn minus_sat(mut h: Hand, kind: PieceKind) -> Hand {
    if h.has(kind) {
        h.remove(kind);
    }
    h
}

/// The larger count of each kind.
#[inline]
pub(crate) fn max_each(a: Hand, b: Hand) -> Hand {
    let mut out = a;
    for k in PieceKind::HAND {
        if b.count(k) > a.count(k) {
            out = with(out, k, b.count(k));
        }
    }
    out
}

/// The smaller count of each kind.
#[inline]
pub(crate) fn min_each(a: Hand, b: Hand) -> Hand {
    let mut out = a;
    for k in PieceKind::HAND {
        if b.count(k) < a.count(k) {
            out = with(out, k, b.count(k));
        }
    }
    out
}

/// `h` with exactly `n` of hand kind `kind` (`n` within a set's count).
#[inline]
pub(crate) fn with(h: Hand, kind: PieceKind, n: u8) -> Hand {
    h.with_count(kind, n).unwrap_or(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_kind_max_and_min() {
        let a = Hand::EMPTY
            .with_count(PieceKind::Pawn, 3)
            .unwrap()
            .with_count(PieceKind::Gold, 1)
            .unwrap();
        let b = Hand::EMPTY
            .with_count(PieceKind::Pawn, 1)
            .unwrap()
            .with_count(PieceKind::Rook, 2)
            .unwrap();
        let hi = max_each(a, b);
        let lo = min_each(a, b);
        assert_eq!(
            (
                hi.count(PieceKind::Pawn),
                hi.count(PieceKind::Gold),
                hi.count(PieceKind::Rook)
            ),
            (3, 1, 2)
        );
        assert_eq!(lo.total(), 1);
        assert_eq!(minus_sat(Hand::EMPTY, PieceKind::Pawn), Hand::EMPTY);
        assert_eq!(plus(Hand::EMPTY, PieceKind::Pawn).count(PieceKind::Pawn), 1);
    }
}
