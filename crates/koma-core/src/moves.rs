//! Moves and move lists.

use std::fmt;
use std::mem::MaybeUninit;
use std::num::NonZeroU16;
use std::str::FromStr;

use crate::text::{EXCERPT_CHARS, excerpt};
use crate::{PieceKind, Square};

/// A move: a board move (from, to, promote or not) or a drop (kind, to), in 16 bits.
///
/// Layout: bits 0-6 destination, bits 7-13 origin square or `81 + hand kind` for a drop,
/// bit 14 promotion. A move carries no piece and no capture: the position supplies both, so a
/// move from elsewhere (a hash table, user input) is checked with
/// [`Position::is_pseudo_legal`](crate::Position::is_pseudo_legal) before it is played.
///
/// ```
/// use koma_core::Move;
/// let m: Move = "8h2b+".parse().unwrap();
/// assert!(m.is_promotion());
/// assert_eq!(m.to_string(), "8h2b+");
/// let d: Move = "P*5e".parse().unwrap();
/// assert!(d.is_drop());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

const PROMOTE: u16 = 1 << 14;

impl Move {
    /// A board move. Returns `None` when `from == to` (never a move).
    #[inline]
    pub const fn new(from: Square, to: Square, promote: bool) -> Option<Move> {
        if from.index() == to.index() {
            return None;
        }
        let raw =
            to.index() as u16 | (from.index() as u16) << 7 | if promote { PROMOTE } else { 0 };
        match NonZeroU16::new(raw) {
            Some(n) => Some(Move(n)),
            None => None,
        }
    }

    /// A board move; the caller promises `from != to`.
    #[inline]
    pub(crate) const fn board(from: Square, to: Square, promote: bool) -> Move {
        let raw =
            to.index() as u16 | (from.index() as u16) << 7 | if promote { PROMOTE } else { 0 };
        match NonZeroU16::new(raw) {
            Some(n) => Move(n),
            None => unreachable!(),
        }
    }

    /// A drop of `kind` on `to`. Returns `None` if `kind` cannot be held in hand.
    #[inline]
    pub const fn drop(kind: PieceKind, to: Square) -> Option<Move> {
        if !kind.is_hand_kind() {
            return None;
        }
        Some(Move::drop_unchecked(kind, to))
    }

    #[inline]
    pub(crate) const fn drop_unchecked(kind: PieceKind, to: Square) -> Move {
        let raw = to.index() as u16 | (81 + kind as u16) << 7;
        match NonZeroU16::new(raw) {
            Some(n) => Move(n),
            None => unreachable!(),
        }
    }

    /// The destination square.
    #[inline]
    pub const fn to(self) -> Square {
        Square::new_unchecked((self.0.get() & 0x7F) as u8)
    }

    /// The origin square, or `None` for a drop.
    #[inline]
    pub const fn from(self) -> Option<Square> {
        let f = (self.0.get() >> 7) & 0x7F;
        if f < 81 {
            Some(Square::new_unchecked(f as u8))
        } else {
            None
        }
    }

    /// Whether this is a drop (打).
    #[inline]
    pub const fn is_drop(self) -> bool {
        (self.0.get() >> 7) & 0x7F >= 81
    }

    /// The kind dropped, or `None` for a board move.
    #[inline]
    pub const fn drop_kind(self) -> Option<PieceKind> {
        let f = ((self.0.get() >> 7) & 0x7F) as usize;
        if f >= 81 {
            PieceKind::from_index(f - 81)
        } else {
            None
        }
    }

    /// Whether the moving piece promotes (成).
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.0.get() & PROMOTE != 0
    }

    /// The 16-bit encoding (stable; see the type docs).
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0.get()
    }

    /// The move with this 16-bit encoding, if it is one that [`Move::bits`] can return.
    pub fn from_bits(bits: u16) -> Option<Move> {
        let to = (bits & 0x7F) as u8;
        let from = (bits >> 7) & 0x7F;
        if bits >> 15 != 0 || to >= 81 || from >= 81 + 7 {
            return None;
        }
        let to = Square::new_unchecked(to);
        if from >= 81 {
            if bits & PROMOTE != 0 {
                return None;
            }
            Move::drop(PieceKind::from_index((from - 81) as usize)?, to)
        } else {
            Move::new(Square::new_unchecked(from as u8), to, bits & PROMOTE != 0)
        }
    }
}

impl fmt::Display for Move {
    /// USI notation: `7g7f`, `8h2b+`, `P*5e`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.drop_kind() {
            Some(kind) => write!(f, "{}*{}", kind.sfen_letter(), self.to()),
            None => {
                let from = self.from().ok_or(fmt::Error)?;
                write!(
                    f,
                    "{from}{}{}",
                    self.to(),
                    if self.is_promotion() { "+" } else { "" }
                )
            }
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

/// Text that is not a USI move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{}` is not a USI move: {reason}", excerpt(text, EXCERPT_CHARS))]
pub struct ParseMoveError {
    /// The text given.
    pub text: String,
    /// What was wrong with it.
    pub reason: &'static str,
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Reads USI move notation (`7g7f`, `8h2b+`, `P*5e`) without looking at a position.
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let err = |reason| ParseMoveError {
            text: s.to_owned(),
            reason,
        };
        let b = s.as_bytes();
        if b.len() == 4 && b[1] == b'*' {
            let kind = PieceKind::from_sfen_letter(b[0] as char)
                .filter(|k| k.is_hand_kind() && b[0].is_ascii_uppercase())
                .ok_or(err("a drop starts with one of P L N S G B R (uppercase)"))?;
            let to = s[2..].parse().map_err(|_| err("bad destination square"))?;
            return Ok(Move::drop_unchecked(kind, to));
        }
        let promote = match b.len() {
            4 => false,
            5 if b[4] == b'+' => true,
            _ => return Err(err("expected like 7g7f, 8h2b+ or P*5e")),
        };
        let from: Square = s
            .get(0..2)
            .and_then(|t| t.parse().ok())
            .ok_or(err("bad origin square"))?;
        let to: Square = s
            .get(2..4)
            .and_then(|t| t.parse().ok())
            .ok_or(err("bad destination square"))?;
        Move::new(from, to, promote).ok_or(err("origin and destination are the same square"))
    }
}

/// The most legal moves any shogi position has is 593; a list of this capacity never overflows.
pub const MAX_MOVES: usize = 600;

/// A fixed-capacity list of moves, filled without allocation or initialisation.
pub struct MoveList {
    len: usize,
    moves: [MaybeUninit<Move>; MAX_MOVES],
}

impl Clone for MoveList {
    fn clone(&self) -> MoveList {
        let mut out = MoveList::new();
        for &m in self.iter() {
            out.push(m);
        }
        out
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
        }
    }

    /// Appends a move. Panics if the list already holds [`MAX_MOVES`] moves, which legal move
    /// generation never reaches.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }

    /// Removes all moves.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `f` returns true.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self[i];
            if f(m) {
                self.moves[j] = MaybeUninit::new(m);
                j += 1;
            }
        }
        self.len = j;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

// The generators' output buffer is left uninitialised (MAX_MOVES moves would otherwise be zeroed
// for every list); reading its filled part as a slice needs unsafe.
#[allow(unsafe_code)]
impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        // SAFETY: the first `len` elements were written by `push`, and `MaybeUninit<Move>` has
        // the layout of `Move`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }
}

#[allow(unsafe_code)]
impl std::ops::DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        // SAFETY: as in `deref`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_round_trip_and_bits() {
        for s in ["7g7f", "8h2b+", "P*5e", "G*1a", "1a9i", "9i1a+"] {
            let m: Move = s.parse().unwrap();
            assert_eq!(m.to_string(), s);
            assert_eq!(Move::from_bits(m.bits()), Some(m));
        }
        for bad in [
            "", "7g7g", "K*5e", "p*5e", "P*5j", "7g7", "0a1a", "7g7f=", "7g7f++",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
    }
}
