//! Piece kinds, facings and piece sets (`P18L4N4S4G4K2R2B2`). A placed piece faces the way of
//! its [`Color`](koma_core::Color): Black's pieces attack toward rank a.

use std::fmt;

use crate::PlaceError;

/// A kind of piece, including the stone (石), a virtual piece with no attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// 歩
    Pawn,
    /// 香
    Lance,
    /// 桂
    Knight,
    /// 銀
    Silver,
    /// 金
    Gold,
    /// 玉
    King,
    /// 角
    Bishop,
    /// 飛
    Rook,
    /// と (+P)
    ProPawn,
    /// 成香 (+L)
    ProLance,
    /// 成桂 (+N)
    ProKnight,
    /// 成銀 (+S)
    ProSilver,
    /// 馬 (+B)
    Horse,
    /// 龍 (+R)
    Dragon,
    /// 石: no attacks, but may not stand on an attacked square.
    Stone,
}

impl Kind {
    /// Every kind, in declaration order.
    pub const ALL: [Kind; 15] = [
        Kind::Pawn,
        Kind::Lance,
        Kind::Knight,
        Kind::Silver,
        Kind::Gold,
        Kind::King,
        Kind::Bishop,
        Kind::Rook,
        Kind::ProPawn,
        Kind::ProLance,
        Kind::ProKnight,
        Kind::ProSilver,
        Kind::Horse,
        Kind::Dragon,
        Kind::Stone,
    ];

    /// The SFEN spelling for Black (`P`, `+P`, ...); the stone, which SFEN lacks, is `X`.
    pub fn sfen(self) -> &'static str {
        match self {
            Kind::Pawn => "P",
            Kind::Lance => "L",
            Kind::Knight => "N",
            Kind::Silver => "S",
            Kind::Gold => "G",
            Kind::King => "K",
            Kind::Bishop => "B",
            Kind::Rook => "R",
            Kind::ProPawn => "+P",
            Kind::ProLance => "+L",
            Kind::ProKnight => "+N",
            Kind::ProSilver => "+S",
            Kind::Horse => "+B",
            Kind::Dragon => "+R",
            Kind::Stone => "X",
        }
    }

    fn from_letter(upper: char, promoted: bool) -> Option<Kind> {
        Some(match (upper, promoted) {
            ('P', false) => Kind::Pawn,
            ('L', false) => Kind::Lance,
            ('N', false) => Kind::Knight,
            ('S', false) => Kind::Silver,
            ('G', false) => Kind::Gold,
            ('K', false) => Kind::King,
            ('B', false) => Kind::Bishop,
            ('R', false) => Kind::Rook,
            ('X', false) => Kind::Stone,
            ('P', true) => Kind::ProPawn,
            ('L', true) => Kind::ProLance,
            ('N', true) => Kind::ProKnight,
            ('S', true) => Kind::ProSilver,
            ('B', true) => Kind::Horse,
            ('R', true) => Kind::Dragon,
            _ => return None,
        })
    }

    /// True when the attacks do not depend on the facing (king, bishop, rook, horse, dragon,
    /// stone). Such pieces are never given a direction by the solver and are written uppercase.
    pub fn is_direction_free(self) -> bool {
        matches!(
            self,
            Kind::King | Kind::Bishop | Kind::Rook | Kind::Horse | Kind::Dragon | Kind::Stone
        )
    }

    /// True when the piece attacks the square straight ahead of it (for direction-free pieces:
    /// both the square ahead and behind), so that a pawn facing the same way is a degraded
    /// piece (劣化駒) of it. The other kinds (knight, bishop, stone) degrade to a stone.
    pub fn degrades_to_pawn(self) -> bool {
        !matches!(self, Kind::Knight | Kind::Bishop | Kind::Stone)
    }

    /// True when the piece attacks both the square ahead and the square behind, so that its
    /// facing does not matter for the vertical neighbours (gold and promoted minors, king, rook,
    /// horse, dragon): a *double* in [`crate::vertical_blocks_fit`].
    pub fn attacks_both_vertical(self) -> bool {
        matches!(
            self,
            Kind::Gold
                | Kind::ProPawn
                | Kind::ProLance
                | Kind::ProKnight
                | Kind::ProSilver
                | Kind::King
                | Kind::Rook
                | Kind::Horse
                | Kind::Dragon
        )
    }

    /// True for the gold and the promoted minors, which attack alike (金 と 成香 成桂 成銀): the
    /// search places them as one group and only then shares the squares out among the kinds.
    pub fn moves_like_gold(self) -> bool {
        matches!(
            self,
            Kind::Gold | Kind::ProPawn | Kind::ProLance | Kind::ProKnight | Kind::ProSilver
        )
    }

    /// Search order: strong pieces first, pawns and stones last (see DECISIONS.md for the
    /// measurements). Counting searches only the long-range pieces and counts the rest by a
    /// transfer over files, so the order matters for enumeration: one-directionally R B K N G L
    /// S P (knights right after the kings, lances before silvers), two-directionally R B K G S
    /// N L P (the file-by-file leaf tests lances and pawns).
    pub(crate) fn search_rank(self, both_ways: bool) -> u8 {
        match self {
            Kind::Dragon => 0,
            Kind::Horse => 1,
            Kind::Rook => 2,
            Kind::Bishop => 3,
            Kind::King => 4,
            Kind::Knight if both_ways => 12,
            Kind::Knight => 5,
            Kind::Gold => 6,
            Kind::ProPawn => 7,
            Kind::ProLance => 8,
            Kind::ProKnight => 9,
            Kind::ProSilver => 10,
            Kind::Silver if both_ways => 11,
            Kind::Lance if both_ways => 13,
            Kind::Lance => 11,
            Kind::Silver => 12,
            Kind::Pawn => 14,
            Kind::Stone => 15,
        }
    }
}

/// How a piece of a set may face in two-directional mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Facing {
    /// The solver chooses (uppercase letter in a piece set).
    Free,
    /// Fixed Black (`^P`).
    Black,
    /// Fixed White (lowercase letter, `p`).
    White,
}

/// A multiset of pieces to place, parsed from strings like `P18L4N4S4G4K2R2B2`.
///
/// Syntax: a sequence of `[^][+]LETTER[COUNT]`; the count defaults to 1 and repeated entries add
/// up. Letters `P L N S G K B R` are shogi pieces, `X` is a stone, `+` promotes (`+P +L +N +S +B
/// +R`). An uppercase letter faces Black's way in one-directional mode and is free to face either
/// way in two-directional mode; `^` fixes Black and a lowercase letter fixes White (two-directional
/// mode only). Colour marks on direction-free pieces (K B R +B +R X) are accepted and ignored.
///
/// ```
/// use koma_place::PieceSet;
/// let set: PieceSet = "P18L4N4S4G4K2R2B2".parse()?;
/// assert_eq!(set.len(), 40);
/// assert_eq!(set.to_string(), "P18L4N4S4G4K2B2R2");
/// # Ok::<(), koma_place::PlaceError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct PieceSet {
    /// counts[kind][facing as usize]
    counts: [[u32; 3]; 15],
}

fn facing_index(f: Facing) -> usize {
    match f {
        Facing::Free => 0,
        Facing::Black => 1,
        Facing::White => 2,
    }
}

impl PieceSet {
    /// Adds `n` pieces of `kind` with `facing`; a fixed facing of a direction-free kind is
    /// recorded as free.
    pub fn add(&mut self, kind: Kind, facing: Facing, n: u32) {
        let facing = if kind.is_direction_free() {
            Facing::Free
        } else {
            facing
        };
        let c = &mut self.counts[kind as usize][facing_index(facing)];
        *c = c.saturating_add(n);
    }

    /// Number of pieces of `kind` with exactly this `facing` (direction-free kinds: all `Free`).
    pub fn count(&self, kind: Kind, facing: Facing) -> u32 {
        self.counts[kind as usize][facing_index(facing)]
    }

    /// Number of pieces of `kind`, whatever their facing.
    pub fn count_kind(&self, kind: Kind) -> u32 {
        self.counts[kind as usize]
            .iter()
            .fold(0u32, |a, &b| a.saturating_add(b))
    }

    /// Total number of pieces (saturating).
    pub fn len(&self) -> u32 {
        Kind::ALL
            .iter()
            .fold(0u32, |a, &k| a.saturating_add(self.count_kind(k)))
    }

    /// True when the set holds no piece.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True when some piece has a fixed colour (`^P` or `p`).
    pub fn has_fixed_colours(&self) -> bool {
        Kind::ALL
            .iter()
            .any(|&k| self.count(k, Facing::Black) + self.count(k, Facing::White) > 0)
    }
}

impl std::str::FromStr for PieceSet {
    type Err = PlaceError;

    fn from_str(s: &str) -> Result<PieceSet, PlaceError> {
        let chars: Vec<char> = s.chars().collect();
        let mut set = PieceSet::default();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c.is_whitespace() || c == ',' {
                i += 1;
                continue;
            }
            let start = i;
            let mut facing = Facing::Free;
            if c == '^' {
                facing = Facing::Black;
                i += 1;
            }
            let mut promoted = false;
            if chars.get(i) == Some(&'+') {
                promoted = true;
                i += 1;
            }
            let Some(&letter) = chars.get(i) else {
                return Err(if promoted {
                    PlaceError::BadPromotion { position: i - 1 }
                } else {
                    PlaceError::BadColourMark { position: start }
                });
            };
            let upper = letter.to_ascii_uppercase();
            let kind = match Kind::from_letter(upper, promoted) {
                Some(k) => k,
                None if promoted && Kind::from_letter(upper, false).is_some() => {
                    return Err(PlaceError::BadPromotion { position: i - 1 });
                }
                None => {
                    return Err(PlaceError::UnknownLetter {
                        letter,
                        position: i,
                    });
                }
            };
            if letter.is_ascii_lowercase() {
                facing = Facing::White;
            }
            i += 1;
            let digits_start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let n = if i == digits_start {
                1
            } else {
                let text: String = chars[digits_start..i].iter().collect();
                text.parse::<u32>().unwrap_or(u32::MAX)
            };
            set.add(kind, facing, n);
        }
        if set.is_empty() {
            return Err(PlaceError::Empty);
        }
        Ok(set)
    }
}

impl fmt::Display for PieceSet {
    /// Canonical spelling: kinds in declaration order, free then `^` then lowercase.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for kind in Kind::ALL {
            for facing in [Facing::Free, Facing::Black, Facing::White] {
                let n = self.count(kind, facing);
                if n == 0 {
                    continue;
                }
                let name = kind.sfen();
                match facing {
                    Facing::Free => write!(f, "{name}")?,
                    Facing::Black => write!(f, "^{name}")?,
                    Facing::White => write!(f, "{}", name.to_ascii_lowercase())?,
                }
                if n != 1 {
                    write!(f, "{n}")?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_promoted_stones_and_colours() {
        let set: PieceSet = "+P8N1X2^Sg p".parse().unwrap();
        assert_eq!(set.count(Kind::ProPawn, Facing::Free), 8);
        assert_eq!(set.count(Kind::Knight, Facing::Free), 1);
        assert_eq!(set.count(Kind::Stone, Facing::Free), 2);
        assert_eq!(set.count(Kind::Silver, Facing::Black), 1);
        assert_eq!(set.count(Kind::Gold, Facing::White), 1);
        assert_eq!(set.count(Kind::Pawn, Facing::White), 1);
        assert_eq!(set.len(), 14);
        assert!(set.has_fixed_colours());
        assert_eq!(set.to_string(), "pN^Sg+P8X2");
    }

    #[test]
    fn rejects_bad_input() {
        assert_eq!("".parse::<PieceSet>(), Err(PlaceError::Empty));
        assert_eq!("P0".parse::<PieceSet>(), Err(PlaceError::Empty));
        assert!(matches!(
            "P2Q".parse::<PieceSet>(),
            Err(PlaceError::UnknownLetter {
                letter: 'Q',
                position: 2
            })
        ));
        assert!(matches!(
            "+G".parse::<PieceSet>(),
            Err(PlaceError::BadPromotion { position: 0 })
        ));
        assert!(matches!(
            "P+".parse::<PieceSet>(),
            Err(PlaceError::BadPromotion { position: 1 })
        ));
        assert!(matches!(
            "^".parse::<PieceSet>(),
            Err(PlaceError::BadColourMark { position: 0 })
        ));
        let huge: PieceSet = "P99999999999".parse().unwrap();
        assert_eq!(huge.len(), u32::MAX);
    }
}
