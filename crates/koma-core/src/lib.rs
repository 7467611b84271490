//! koma-core: the rules of shogi.
//!
//! Bitboards and attack tables, a validated [`Position`] with make/unmake and Zobrist keys, fully
//! legal move generation (evasions, pins, drops, 二歩, 打ち歩詰め, checks), the move checks of
//! Bonanza-style engines ([`Position::is_pseudo_legal`], [`Position::is_legal`],
//! [`Position::gives_check`]), SFEN and USI, game status (mate, 千日手, 入玉宣言) and perft.
//!
//! The main types: [`Setup`] is a position as read from text, not necessarily legal;
//! [`Position`] is only built from a `Setup` by a validation that names every problem, so code that
//! holds a `Position` never re-checks it. [`Move`] is a 16-bit move; generators call back with
//! each legal move ([`Position::generate`]) or fill a [`MoveList`].
//!
//! ```
//! use koma_core::{perft, Position};
//!
//! let pos = Position::startpos();
//! assert_eq!(perft::perft(&pos, 3), 25_470);
//!
//! let mut pos = Position::from_sfen("7lk/9/8S/9/9/9/9/7L1/8K b P 1").unwrap();
//! // The pawn drop on 1b would mate: 打ち歩詰め, so it is not a legal move.
//! assert_eq!(pos.legal_moves().len(), 85);
//! assert!(!pos.is_legal("P*1b".parse().unwrap()));
//! pos.do_move("1c2b".parse().unwrap());
//! assert!(pos.in_check());
//! ```

pub mod attacks;
mod bitboard;
mod color;
mod hand;
mod movegen;
mod moves;
pub mod perft;
mod piece;
mod position;
pub mod rng;
mod setup;
mod square;
mod status;
pub mod text;
pub mod usi;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use color::Color;
pub use hand::Hand;
pub use movegen::{MoveFilter, MoveSet, NonPromotions};
pub use moves::{MAX_MOVES, Move, MoveList, ParseMoveError};
pub use piece::{Piece, PieceKind};
pub use position::{AttackSets, FromSfenError, Position, PositionError, SetupProblem};
pub use setup::{STARTPOS_SFEN, Setup, SfenError, hands_sfen, is_sfen_board_text};
pub use square::{ParseSquareError, Square};
pub use status::{Repetition, Status};
