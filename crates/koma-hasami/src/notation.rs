//! Text forms: positions (SFEN-like `ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b 1`), moves (`9i9e`) and
//! board diagrams. Parsing goes through [`Setup`] (any text that has the right shape) and then
//! [`Position::from_setup`], which names everything that makes a setup impossible.

use std::fmt;

use crate::position::{Move, Position};
use crate::square::Square;
use koma_core::Color;

/// Why a text could not be read as a position or move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The position text does not have three fields `board side ply`.
    #[error("position must be `<board> <b|w> <ply>`, got {0:?}")]
    Fields(String),
    /// The board field does not have nine ranks.
    #[error("board must have 9 ranks separated by '/', found {0}")]
    RankCount(usize),
    /// A rank does not describe exactly nine squares.
    #[error("rank {rank} describes {squares} squares, not 9")]
    RankWidth {
        /// Rank letter.
        rank: char,
        /// Squares described.
        squares: usize,
    },
    /// A character that is neither `P`, `p` nor a digit 1–9.
    #[error("unexpected character {0:?} in board (use P, p and digits 1-9)")]
    BoardChar(char),
    /// Side to move is not `b` or `w`.
    #[error("side to move must be 'b' or 'w', got {0:?}")]
    Side(String),
    /// The ply number is not a positive integer.
    #[error("ply must be a positive integer, got {0:?}")]
    Ply(String),
    /// A move is not of the form `9i9e`.
    #[error("move must look like 9i9e (file 1-9, rank a-i, twice), got {0:?}")]
    MoveSyntax(String),
}

/// Why a well-formed setup is not a position that can occur.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// More than nine pieces of one colour (the set has nine each).
    #[error("{color} has {count} pieces; a side has at most 9")]
    TooManyPieces {
        /// The side.
        color: Color,
        /// How many it has.
        count: u32,
    },
    /// Both sides are already down to four pieces or fewer: no game reaches that.
    #[error("both sides have 4 pieces or fewer; the game would have ended earlier")]
    BothLost,
}

/// Any error met while reading a position or game text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The text is malformed.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// The setup is impossible.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// A move of the list is not legal where it is played.
    #[error("illegal move {mv} at ply {ply}")]
    IllegalMove {
        /// The move.
        mv: Move,
        /// Ply number of the position it was played in.
        ply: u32,
    },
    /// A move is played after the game ended.
    #[error("move {mv} at ply {ply} comes after the end of the game")]
    AfterEnd {
        /// The move.
        mv: Move,
        /// Ply number.
        ply: u32,
    },
}

/// A board and side to move as parsed, not yet checked (may have 12 pieces of one colour).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Black's pieces.
    pub black: u128,
    /// White's pieces.
    pub white: u128,
    /// Side to move.
    pub side: Color,
    /// Ply number (1 at the start).
    pub ply: u32,
}

impl std::str::FromStr for Setup {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Setup, NotationError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [board, side, ply] = fields.as_slice() else {
            return Err(NotationError::Fields(text.to_string()));
        };
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 9 {
            return Err(NotationError::RankCount(ranks.len()));
        }
        let (mut black, mut white) = (0u128, 0u128);
        for (row, rank) in ranks.iter().enumerate() {
            let mut col = 0usize;
            for ch in rank.chars() {
                match ch {
                    '1'..='9' => col += ch as usize - '0' as usize,
                    'P' | 'p' => {
                        if col < 9 {
                            let bit = 1u128 << (row * 9 + col);
                            if ch == 'P' {
                                black |= bit;
                            } else {
                                white |= bit;
                            }
                        }
                        col += 1;
                    }
                    other => return Err(NotationError::BoardChar(other)),
                }
            }
            if col != 9 {
                return Err(NotationError::RankWidth {
                    rank: (b'a' + row as u8) as char,
                    squares: col,
                });
            }
        }
        let side = match *side {
            "b" => Color::Black,
            "w" => Color::White,
            other => return Err(NotationError::Side(other.to_string())),
        };
        let ply = match ply.parse::<u32>() {
            Ok(n) if n > 0 => n,
            _ => return Err(NotationError::Ply(ply.to_string())),
        };
        Ok(Setup {
            black,
            white,
            side,
            ply,
        })
    }
}

impl Position {
    /// Checks a setup and builds the position.
    ///
    /// ```
    /// use koma_hasami::{Position, Setup, SetupError};
    /// let setup: Setup = "PPPPPPPPP/PPP6/9/9/9/9/9/9/ppppp4 b 1".parse().unwrap();
    /// assert!(matches!(Position::from_setup(&setup), Err(SetupError::TooManyPieces { .. })));
    /// ```
    pub fn from_setup(setup: &Setup) -> Result<Position, SetupError> {
        for (color, bb) in [(Color::Black, setup.black), (Color::White, setup.white)] {
            let count = bb.count_ones();
            if count > 9 {
                return Err(SetupError::TooManyPieces { color, count });
            }
        }
        if setup.black.count_ones() <= 4 && setup.white.count_ones() <= 4 {
            return Err(SetupError::BothLost);
        }
        Ok(Position::from_parts(
            setup.black,
            setup.white,
            setup.side,
            setup.ply,
        ))
    }

    /// Reads a position text (`<board> <b|w> <ply>`).
    ///
    /// ```
    /// use koma_hasami::Position;
    /// let pos: Position = "ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b 1".parse().unwrap();
    /// assert_eq!(pos, Position::startpos());
    /// ```
    pub fn parse(text: &str) -> Result<Position, ParseError> {
        let setup: Setup = text.parse()?;
        Ok(Position::from_setup(&setup)?)
    }

    /// A board diagram for people: `▲` Black, `▽` White, `・` empty, files 9..1 on top, ranks a..i
    /// (with 一..九) on the right, followed by piece counts and the side to move.
    pub fn diagram(&self) -> String {
        const KANJI: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
        let mut out = String::from("  9  8  7  6  5  4  3  2  1\n");
        for row in 0..9u8 {
            out.push(' ');
            for col in 0..9u8 {
                let sq = Square::from_row_col(row, col).unwrap_or(Square::SQ_9A);
                out.push_str(match self.at(sq) {
                    Some(Color::Black) => "▲ ",
                    Some(Color::White) => "▽ ",
                    None => "・ ",
                });
                out.push(' ');
            }
            out.push_str(&format!(
                "{} {}\n",
                KANJI[row as usize],
                (b'a' + row) as char
            ));
        }
        out.push_str(&format!(
            "▲ black {}  ▽ white {}  ply {}, {} to move\n",
            self.count(Color::Black),
            self.count(Color::White),
            self.ply(),
            self.side_to_move()
        ));
        out
    }
}

impl std::str::FromStr for Position {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Position, ParseError> {
        Position::parse(text)
    }
}

impl fmt::Display for Position {
    /// The position text, e.g. `ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..9u8 {
            if row > 0 {
                f.write_str("/")?;
            }
            let mut run = 0;
            for col in 0..9u8 {
                let sq = Square::from_row_col(row, col).unwrap_or(Square::SQ_9A);
                match self.at(sq) {
                    None => run += 1,
                    Some(c) => {
                        if run > 0 {
                            write!(f, "{run}")?;
                            run = 0;
                        }
                        f.write_str(if c == Color::Black { "P" } else { "p" })?;
                    }
                }
            }
            if run > 0 {
                write!(f, "{run}")?;
            }
        }
        let side = if self.side_to_move() == Color::Black {
            "b"
        } else {
            "w"
        };
        write!(f, " {side} {}", self.ply())
    }
}

fn parse_square(file: u8, rank: u8) -> Option<Square> {
    if !(b'1'..=b'9').contains(&file) || !(b'a'..=b'i').contains(&rank) {
        return None;
    }
    Square::from_row_col(rank - b'a', 9 - (file - b'0'))
}

impl std::str::FromStr for Move {
    type Err = NotationError;

    /// Reads `9i9e`. Only the shape is checked; legality is the position's business.
    fn from_str(text: &str) -> Result<Move, NotationError> {
        let err = || NotationError::MoveSyntax(text.to_string());
        let b = text.as_bytes();
        if b.len() != 4 {
            return Err(err());
        }
        let from = parse_square(b[0], b[1]).ok_or_else(err)?;
        let to = parse_square(b[2], b[3]).ok_or_else(err)?;
        Ok(Move { from, to })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}
