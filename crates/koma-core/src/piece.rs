//! Piece kinds and coloured pieces.

use std::num::NonZeroU8;

use crate::Color;

/// The 8 base kinds and the 6 promoted kinds of shogi.
///
/// The numbering puts the seven kinds a player can hold in hand first (`Pawn` .. `Gold`, in the
/// order a hand is written), and each promoted kind at its base kind plus 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    /// 歩 `P`
    Pawn = 0,
    /// 香 `L`
    Lance = 1,
    /// 桂 `N`
    Knight = 2,
    /// 銀 `S`
    Silver = 3,
    /// 角 `B`
    Bishop = 4,
    /// 飛 `R`
    Rook = 5,
    /// 金 `G`
    Gold = 6,
    /// 玉 `K`
    King = 7,
    /// と `+P`
    ProPawn = 8,
    /// 成香 `+L`
    ProLance = 9,
    /// 成桂 `+N`
    ProKnight = 10,
    /// 成銀 `+S`
    ProSilver = 11,
    /// 馬 `+B`
    Horse = 12,
    /// 龍 `+R`
    Dragon = 13,
}

impl PieceKind {
    /// Number of kinds.
    pub const COUNT: usize = 14;

    /// All kinds in numbering order.
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Gold,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];

    /// The seven kinds that can be held in hand, in the usual order of a hand (歩香桂銀角飛金).
    pub const HAND: [PieceKind; 7] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Gold,
    ];

    /// The hand kinds in the order hands are written, in SFEN and in Japanese diagrams alike:
    /// rook, bishop, gold, silver, knight, lance, pawn (飛角金銀桂香歩).
    pub const HAND_WRITING_ORDER: [PieceKind; 7] = [
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Gold,
        PieceKind::Silver,
        PieceKind::Knight,
        PieceKind::Lance,
        PieceKind::Pawn,
    ];

    /// The kind with this number, if it is below 14.
    #[inline]
    pub const fn from_index(i: usize) -> Option<PieceKind> {
        if i < 14 {
            Some(PieceKind::ALL[i])
        } else {
            None
        }
    }

    /// The number 0..14 used to index per-kind tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether this kind can promote (pawn, lance, knight, silver, bishop, rook).
    #[inline]
    pub const fn can_promote(self) -> bool {
        (self as u8) < 6
    }

    /// Whether this is a promoted kind.
    #[inline]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= 8
    }

    /// The promoted kind, or `None` for gold, king and promoted kinds.
    #[inline]
    pub const fn promote(self) -> Option<PieceKind> {
        if self.can_promote() {
            PieceKind::from_index(self as usize + 8)
        } else {
            None
        }
    }

    /// The base kind: a promoted kind demoted, any other kind unchanged. A captured piece goes to
    /// hand as its base kind.
    #[inline]
    pub const fn unpromote(self) -> PieceKind {
        if self.is_promoted() {
            PieceKind::ALL[self as usize - 8]
        } else {
            self
        }
    }

    /// Whether this kind moves like a gold (gold and the four small promoted kinds).
    #[inline]
    pub const fn is_gold_like(self) -> bool {
        matches!(
            self,
            PieceKind::Gold
                | PieceKind::ProPawn
                | PieceKind::ProLance
                | PieceKind::ProKnight
                | PieceKind::ProSilver
        )
    }

    /// Whether this kind may be held in hand (pawn .. gold).
    #[inline]
    pub const fn is_hand_kind(self) -> bool {
        (self as u8) < 7
    }

    /// The SFEN letter of Black's piece (`P`, `L`, ..., `K`); promoted kinds give their base letter
    /// (the `+` is written separately).
    pub const fn sfen_letter(self) -> char {
        match self.unpromote() {
            PieceKind::Pawn => 'P',
            PieceKind::Lance => 'L',
            PieceKind::Knight => 'N',
            PieceKind::Silver => 'S',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            PieceKind::Gold => 'G',
            _ => 'K',
        }
    }

    /// The base kind for an SFEN/USI letter of either case (`P`, `l`, ...).
    pub const fn from_sfen_letter(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'P' => Some(PieceKind::Pawn),
            'L' => Some(PieceKind::Lance),
            'N' => Some(PieceKind::Knight),
            'S' => Some(PieceKind::Silver),
            'B' => Some(PieceKind::Bishop),
            'R' => Some(PieceKind::Rook),
            'G' => Some(PieceKind::Gold),
            'K' => Some(PieceKind::King),
            _ => None,
        }
    }

    /// The one-character Japanese name used in board diagrams (歩 香 桂 銀 角 飛 金 玉 と 杏 圭 全 馬 龍).
    pub const fn kanji_short(self) -> char {
        match self {
            PieceKind::Pawn => '歩',
            PieceKind::Lance => '香',
            PieceKind::Knight => '桂',
            PieceKind::Silver => '銀',
            PieceKind::Bishop => '角',
            PieceKind::Rook => '飛',
            PieceKind::Gold => '金',
            PieceKind::King => '玉',
            PieceKind::ProPawn => 'と',
            PieceKind::ProLance => '杏',
            PieceKind::ProKnight => '圭',
            PieceKind::ProSilver => '全',
            PieceKind::Horse => '馬',
            PieceKind::Dragon => '龍',
        }
    }

    /// The Japanese name used in move notation (歩, 成香, 龍, ...).
    pub const fn kanji(self) -> &'static str {
        match self {
            PieceKind::Pawn => "歩",
            PieceKind::Lance => "香",
            PieceKind::Knight => "桂",
            PieceKind::Silver => "銀",
            PieceKind::Bishop => "角",
            PieceKind::Rook => "飛",
            PieceKind::Gold => "金",
            PieceKind::King => "玉",
            PieceKind::ProPawn => "と",
            PieceKind::ProLance => "成香",
            PieceKind::ProKnight => "成桂",
            PieceKind::ProSilver => "成銀",
            PieceKind::Horse => "馬",
            PieceKind::Dragon => "龍",
        }
    }

    /// How many pieces of this base kind a set holds (promoted kinds count as their base kind):
    /// 18 pawns, 4 lances, knights, silvers and golds, 2 bishops, rooks and kings.
    pub const fn set_count(self) -> u8 {
        match self.unpromote() {
            PieceKind::Pawn => 18,
            PieceKind::Bishop | PieceKind::Rook | PieceKind::King => 2,
            _ => 4,
        }
    }
}

/// A piece of one colour and one kind, as it stands on the board. One byte, never zero, so
/// `Option<Piece>` is one byte too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece(NonZeroU8);

impl Piece {
    /// The piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        match NonZeroU8::new(kind as u8 + 1 + 16 * color as u8) {
            Some(n) => Piece(n),
            None => unreachable!(),
        }
    }

    /// The colour.
    #[inline]
    pub const fn color(self) -> Color {
        if self.0.get() >= 16 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The kind.
    #[inline]
    // A transmute, not a 14-arm match: `kind` is on the hot path of every generator.
    #[allow(unsafe_code)]
    pub const fn kind(self) -> PieceKind {
        let k = (self.0.get() & 15) - 1;
        debug_assert!(k < 14);
        // SAFETY: `Piece::new` stores `kind + 1` (1..=14) in the low four bits, and `PieceKind`
        // is `repr(u8)` with discriminants 0..14.
        unsafe { std::mem::transmute::<u8, PieceKind>(k) }
    }

    /// The piece's byte, `kind + 1 + 16 * colour` (1..=30), for indexing tables.
    #[inline]
    pub(crate) const fn raw(self) -> usize {
        self.0.get() as usize
    }

    /// The SFEN text of the piece: `P`, `+p`, `K`, ...
    pub fn sfen(self) -> String {
        let letter = self.kind().sfen_letter();
        let letter = match self.color() {
            Color::Black => letter,
            Color::White => letter.to_ascii_lowercase(),
        };
        if self.kind().is_promoted() {
            format!("+{letter}")
        } else {
            letter.to_string()
        }
    }
}
