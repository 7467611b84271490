//! A not necessarily legal position, and SFEN reading and writing.

use std::fmt::{self, Write};

use crate::text::{EXCERPT_CHARS, excerpt, excerpt_char};
use crate::{Color, Hand, Piece, PieceKind, Square};

/// The SFEN of the standard starting position.
pub const STARTPOS_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// A position as a parser reads it, not necessarily legal: pieces on squares, two hands, the side
/// to move and the move number.
///
/// Nothing is checked beyond what the notation itself forces (hand counts fit in a set). Turn a
/// setup into a [`Position`](crate::Position) with
/// [`Position::from_setup`](crate::Position::from_setup), which lists every reason it is not legal.
///
/// ```
/// use koma_core::Setup;
/// let s = Setup::from_sfen("8k/9/9/9/9/9/9/9/8K b r2P 1").unwrap();
/// assert_eq!(s.to_sfen(), "8k/9/9/9/9/9/9/9/8K b 2Pr 1");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Setup {
    /// The piece on each square, indexed by [`Square::index`].
    pub board: [Option<Piece>; 81],
    /// Black's and White's hands, indexed by [`Color::index`].
    pub hands: [Hand; 2],
    /// The side to move.
    pub side_to_move: Color,
    /// The move number (the fourth SFEN field), counted from 1.
    pub ply: u32,
}

/// Why a text is not SFEN. Columns count characters from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SfenError {
    /// Fewer than four space-separated fields.
    #[error("SFEN has no {field} field (expected `board side hand ply`)")]
    MissingField {
        /// Which field is missing: `board`, `side to move`, `hand` or `move number`.
        field: &'static str,
    },
    /// More than four fields.
    #[error(
        "unexpected text `{}` at column {column} after the move number",
        excerpt(text, EXCERPT_CHARS)
    )]
    ExtraField {
        /// Where the extra text starts.
        column: usize,
        /// The extra text.
        text: String,
    },
    /// The board does not have nine ranks.
    #[error("the board has {}, expected 9", count(*ranks, "rank", "ranks"))]
    RankCount {
        /// How many `/`-separated ranks were found.
        ranks: usize,
    },
    /// A rank does not describe nine squares.
    #[error(
        "rank {rank} of the board describes {}, expected 9 (column {column})",
        count(*squares, "square", "squares")
    )]
    RankLength {
        /// The rank, 1..=9 (1 is `a`).
        rank: usize,
        /// How many squares it describes.
        squares: usize,
        /// Where the rank starts.
        column: usize,
    },
    /// A character that is no piece letter, digit, `+` or `/`.
    #[error("unexpected `{}` at column {column} in the {field}", excerpt_char(*found))]
    UnexpectedChar {
        /// The field being read.
        field: &'static str,
        /// The character.
        found: char,
        /// Where it is.
        column: usize,
    },
    /// `+` not followed by a piece that can promote.
    #[error("`+` at column {column} must be followed by one of P L N S B R (either case)")]
    BadPromotion {
        /// Where the `+` is.
        column: usize,
    },
    /// The side to move is not `b` or `w`.
    #[error(
        "side to move must be `b` or `w`, found `{}` at column {column}",
        excerpt(found, EXCERPT_CHARS)
    )]
    BadSide {
        /// The text found.
        found: String,
        /// Where it is.
        column: usize,
    },
    /// A count in the hand is zero, too large for the set, or given twice for one kind.
    #[error("hand at column {column}: {reason}")]
    BadHand {
        /// Where the offending entry starts.
        column: usize,
        /// What is wrong.
        reason: String,
    },
    /// The move number is not a positive integer.
    #[error(
        "move number must be a positive integer, found `{}` at column {column}",
        excerpt(found, EXCERPT_CHARS)
    )]
    BadPly {
        /// The text found.
        found: String,
        /// Where it is.
        column: usize,
    },
}

impl Setup {
    /// An empty board, empty hands, Black to move, move 1.
    pub fn empty() -> Setup {
        Setup {
            board: [None; 81],
            hands: [Hand::EMPTY; 2],
            side_to_move: Color::Black,
            ply: 1,
        }
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Reads SFEN (`board side hand ply`). The hand may list kinds in any order; a count may
    /// precede a letter (`2P`, `10p`). All four fields are required. The fields are checked
    /// from the left: the error is the first fault in the text.
    pub fn from_sfen(sfen: &str) -> Result<Setup, SfenError> {
        let fields = split_fields(sfen);
        let field = |i: usize, name| {
            fields
                .get(i)
                .copied()
                .ok_or(SfenError::MissingField { field: name })
        };
        let mut setup = Setup::empty();
        let (board_col, board) = field(0, "board")?;
        parse_board(board, board_col, &mut setup.board)?;
        let (side_col, side) = field(1, "side to move")?;
        setup.side_to_move = match side {
            "b" => Color::Black,
            "w" => Color::White,
            _ => {
                return Err(SfenError::BadSide {
                    found: side.to_owned(),
                    column: side_col,
                });
            }
        };
        let (hand_col, hand) = field(2, "hand")?;
        setup.hands = parse_hands(hand, hand_col)?;
        let (ply_col, ply) = field(3, "move number")?;
        setup.ply = match ply.parse::<u32>() {
            Ok(n) if n >= 1 => n,
            _ => {
                return Err(SfenError::BadPly {
                    found: ply.to_owned(),
                    column: ply_col,
                });
            }
        };
        if let Some(&(column, _)) = fields.get(4) {
            let text = sfen
                .chars()
                .skip(column - 1)
                .collect::<String>()
                .trim()
                .to_owned();
            return Err(SfenError::ExtraField { column, text });
        }
        Ok(setup)
    }

    /// Writes canonical SFEN: hands in the order R B G S N L P, Black's first, `-` when empty.
    pub fn to_sfen(&self) -> String {
        let mut out = String::with_capacity(96);
        for rank in 1..=9u8 {
            let mut empty = 0;
            for file in (1..=9u8).rev() {
                let sq = Square::new_unchecked((file - 1) * 9 + rank - 1);
                match self.board[sq.index()] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            let _ = write!(out, "{empty}");
                            empty = 0;
                        }
                        out.push_str(&p.sfen());
                    }
                }
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
            }
            if rank < 9 {
                out.push('/');
            }
        }
        let _ = write!(
            out,
            " {} {} {}",
            self.side_to_move.sfen_char(),
            hands_sfen(&self.hands),
            self.ply
        );
        out
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_sfen())
    }
}

/// The SFEN hand field of two hands (R B G S N L P, Black then White; `-` when both are empty).
pub fn hands_sfen(hands: &[Hand; 2]) -> String {
    let mut out = String::new();
    for color in Color::ALL {
        for kind in PieceKind::HAND_WRITING_ORDER {
            let n = hands[color.index()].count(kind);
            if n == 0 {
                continue;
            }
            if n > 1 {
                let _ = write!(out, "{n}");
            }
            let c = kind.sfen_letter();
            out.push(if color == Color::Black {
                c
            } else {
                c.to_ascii_lowercase()
            });
        }
    }
    if out.is_empty() {
        out.push('-');
    }
    out
}

/// Whether `word` holds only the characters an SFEN board is written with (the digits 1–9,
/// piece letters, `+` and `/`): what a format's sniffing may take for a board, whose reader
/// then names any fault. Not a check that it is a board.
///
/// ```
/// assert!(koma_core::is_sfen_board_text("4k4/9/+P8"));
/// assert!(!koma_core::is_sfen_board_text("2024/01/05"));
/// ```
pub fn is_sfen_board_text(word: &str) -> bool {
    word.bytes()
        .all(|b| b"123456789/+PLNSGBRKplnsgbrk".contains(&b))
}

/// `n` with the noun that agrees with it: "1 rank", "3 ranks".
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Splits on spaces, keeping each field's 1-based starting column (in characters).
fn split_fields(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte, column)
    for (col, (byte, c)) in s.char_indices().enumerate() {
        if c.is_whitespace() {
            if let Some((b, column)) = start.take() {
                out.push((column, &s[b..byte]));
            }
        } else if start.is_none() {
            start = Some((byte, col + 1));
        }
    }
    if let Some((b, column)) = start {
        out.push((column, &s[b..]));
    }
    out
}

fn parse_board(text: &str, col0: usize, board: &mut [Option<Piece>; 81]) -> Result<(), SfenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 9 {
        return Err(SfenError::RankCount { ranks: ranks.len() });
    }
    let mut column = col0;
    for (r, rank_text) in ranks.iter().enumerate() {
        let rank_col = column;
        let mut squares = 0usize;
        let mut promoted = None;
        for (i, c) in rank_text.chars().enumerate() {
            let here = rank_col + i;
            if let Some(d) = c.to_digit(10).filter(|&d| d >= 1) {
                if promoted.is_some() {
                    return Err(SfenError::BadPromotion { column: here - 1 });
                }
                squares += d as usize;
                continue;
            }
            if c == '+' {
                if promoted.is_some() {
                    return Err(SfenError::BadPromotion { column: here - 1 });
                }
                promoted = Some(here);
                continue;
            }
            let kind = PieceKind::from_sfen_letter(c).ok_or(SfenError::UnexpectedChar {
                field: "board",
                found: c,
                column: here,
            })?;
            let kind = match promoted.take() {
                None => kind,
                Some(pc) => kind
                    .promote()
                    .ok_or(SfenError::BadPromotion { column: pc })?,
            };
            let color = if c.is_ascii_uppercase() {
                Color::Black
            } else {
                Color::White
            };
            if squares < 9 {
                let file = 9 - squares;
                board[(file - 1) * 9 + r] = Some(Piece::new(color, kind));
            }
            squares += 1;
        }
        if let Some(pc) = promoted {
            return Err(SfenError::BadPromotion { column: pc });
        }
        if squares != 9 {
            return Err(SfenError::RankLength {
                rank: r + 1,
                squares,
                column: rank_col,
            });
        }
        column += rank_text.chars().count() + 1;
    }
    Ok(())
}

fn parse_hands(text: &str, col0: usize) -> Result<[Hand; 2], SfenError> {
    let mut hands = [Hand::EMPTY; 2];
    if text == "-" {
        return Ok(hands);
    }
    let mut seen = [[false; 7]; 2];
    let mut count: Option<(u32, usize)> = None;
    for (i, c) in text.chars().enumerate() {
        let here = col0 + i;
        if let Some(d) = c.to_digit(10) {
            let (n, start) = count.unwrap_or((0, here));
            let n = n.saturating_mul(10).saturating_add(d);
            count = Some((n, start));
            continue;
        }
        let kind = PieceKind::from_sfen_letter(c)
            .filter(|k| k.is_hand_kind())
            .ok_or(SfenError::UnexpectedChar {
                field: "hand",
                found: c,
                column: here,
            })?;
        let color = if c.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        let (n, start) = count.take().unwrap_or((1, here));
        let bad = |reason: String| SfenError::BadHand {
            column: start,
            reason,
        };
        if seen[color.index()][kind.index()] {
            return Err(bad(format!("`{c}` is listed twice")));
        }
        seen[color.index()][kind.index()] = true;
        if n == 0 || n > kind.set_count() as u32 {
            return Err(bad(format!(
                "{n} × `{c}`: a set has 1 to {} of that piece",
                kind.set_count()
            )));
        }
        hands[color.index()] = hands[color.index()]
            .with_count(kind, n as u8)
            .ok_or_else(|| bad(format!("{n} × `{c}` does not fit in a hand")))?;
    }
    if let Some((_, start)) = count {
        return Err(SfenError::BadHand {
            column: start,
            reason: "a count must be followed by a piece letter".into(),
        });
    }
    Ok(hands)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_quote_the_input_escaped_and_bounded() {
        let e = Setup::from_sfen("4k4/9/9/9/9/9/9/9/4K\u{1b}3 b - 1").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unexpected `\\u{1b}` at column 21 in the board"
        );
        let side = format!("{}\u{7f}", "x".repeat(100));
        let e = Setup::from_sfen(&format!("4k4/9/9/9/9/9/9/9/4K4 {side} - 1")).unwrap_err();
        let message = e.to_string();
        assert!(
            message.contains(&format!("found `{}…`", "x".repeat(60))),
            "{message}"
        );
        // The error keeps the text itself; only its message is bounded and escaped.
        assert!(matches!(e, SfenError::BadSide { found, .. } if found == side));
        let e = Setup::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1 \u{1b}[2J").unwrap_err();
        assert!(e.to_string().contains("`\\u{1b}[2J`"), "{e}");
        let e: crate::ParseSquareError = "\r9".parse::<Square>().unwrap_err();
        assert!(e.to_string().starts_with("`\\r9` is not a square"), "{e}");
    }

    #[test]
    fn counts_in_messages_agree_with_their_nouns() {
        let e = |s: &str| Setup::from_sfen(s).unwrap_err().to_string();
        assert_eq!(e("4k4 b - 1"), "the board has 1 rank, expected 9");
        assert_eq!(e("9/9/9 b - 1"), "the board has 3 ranks, expected 9");
        assert_eq!(
            e("1/9/9/9/9/9/9/9/9 b - 1"),
            "rank 1 of the board describes 1 square, expected 9 (column 1)"
        );
        assert_eq!(
            e("8/9/9/9/9/9/9/9/9 b - 1"),
            "rank 1 of the board describes 8 squares, expected 9 (column 1)"
        );
    }

    #[test]
    fn startpos_round_trips() {
        let s = Setup::from_sfen(STARTPOS_SFEN).unwrap();
        assert_eq!(s.to_sfen(), STARTPOS_SFEN);
        let sq: Square = "5i".parse().unwrap();
        assert_eq!(
            s.piece_at(sq),
            Some(Piece::new(Color::Black, PieceKind::King))
        );
    }

    #[test]
    fn hand_in_any_order_is_canonical_on_output() {
        let s = Setup::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b p2PGr10p 1");
        // `p` twice is an error; a clean reordering is canonicalised.
        assert!(matches!(s, Err(SfenError::BadHand { .. })));
        let s = Setup::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w 10pr2PG 3").unwrap();
        assert_eq!(s.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 w G2Pr10p 3");
    }

    #[test]
    fn errors_name_the_problem_and_column() {
        use SfenError::*;
        let e = |s: &str| Setup::from_sfen(s).unwrap_err();
        assert_eq!(e(""), MissingField { field: "board" });
        assert_eq!(
            e("9/9/9/9/9/9/9/9/9 b -"),
            MissingField {
                field: "move number"
            }
        );
        assert!(matches!(
            e("9/9/9/9/9/9/9/9/9 b - 1 x"),
            ExtraField { column: 25, .. }
        ));
        assert_eq!(e("9/9/9/9/9/9/9/9 b - 1"), RankCount { ranks: 8 });
        // The first fault from the left, whatever follows it.
        assert_eq!(e("9/9/9 x"), RankCount { ranks: 3 });
        assert!(matches!(
            e("9/9/9/9/9/9/9/9/9 x"),
            BadSide { column: 19, .. }
        ));
        assert!(matches!(
            e("9/9/9/9/9/9/9/9/9 b 2 1 x"),
            BadHand { column: 21, .. }
        ));
        assert_eq!(
            e("9/9/46/9/9/9/9/9/9 b - 1"),
            RankLength {
                rank: 3,
                squares: 10,
                column: 5
            }
        );
        assert!(matches!(
            e("9/9/8/9/9/9/9/9/9 b - 1"),
            RankLength {
                rank: 3,
                squares: 8,
                column: 5
            }
        ));
        assert!(matches!(
            e("9/9/9X/9/9/9/9/9/9 b - 1"),
            UnexpectedChar {
                found: 'X',
                column: 6,
                ..
            }
        ));
        assert!(matches!(
            e("9/9/+G8/9/9/9/9/9/9 b - 1"),
            BadPromotion { column: 5 }
        ));
        assert!(matches!(
            e("9/9/9/9/9/9/9/9/9 x - 1"),
            BadSide { column: 19, .. }
        ));
        assert!(matches!(
            e("9/9/9/9/9/9/9/9/9 b 19P 1"),
            BadHand { column: 21, .. }
        ));
        assert!(matches!(e("9/9/9/9/9/9/9/9/9 b 0P 1"), BadHand { .. }));
        assert!(matches!(
            e("9/9/9/9/9/9/9/9/9 b 3K 1"),
            UnexpectedChar { found: 'K', .. }
        ));
        assert!(matches!(e("9/9/9/9/9/9/9/9/9 b 3 1"), BadHand { .. }));
        assert!(matches!(e("9/9/9/9/9/9/9/9/9 b - 0"), BadPly { .. }));
        assert!(matches!(e("9/9/9/9/9/9/9/9/9 b - -3"), BadPly { .. }));
    }
}
