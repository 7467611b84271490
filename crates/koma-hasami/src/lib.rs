//! Hasami shogi (挟み将棋): the custodian-capture game on the shogi board, with agents from random
//! play to a self-play trained player. The rules are those of docs/hasami-rules.md in the
//! repository, implemented exactly.
//!
//! Main types: [`Position`] (bitboards, move generation, captures, do/undo, Zobrist key),
//! [`Game`] (history, repetition and ply-limit draws), [`Move`], the [`agents`] (`random`,
//! `study:D`, `search`, `learned`), the n-tuple value model in [`ntuple`], self-play [`train`]ing
//! with its [`curve`], the [`arena`] for strength measurement and the line protocol in [`engine`].
//! Long runs report progress through callbacks; the `plot` feature draws the training curve as
//! an SVG. Squares are numbered in SFEN reading order, not as in koma-core ([`square`]).
//!
//! ```
//! use koma_hasami::{Game, Move, Outcome, Position};
//!
//! let mut pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 9 * 7); // each piece slides up to 7 squares
//! let mv: Move = "9i9b".parse().unwrap();
//! let undo = pos.do_move(mv);
//! // 9b lands under White's 9a in the corner, next to 8a: nothing is shut in yet.
//! assert_eq!(undo.captured, 0);
//! pos.undo_move(undo);
//! assert_eq!(pos, Position::startpos());
//!
//! let game = Game::parse("startpos moves 9i9e", 300).unwrap();
//! assert_eq!(game.outcome(), Outcome::Ongoing);
//! assert_eq!(game.position().to_string(), "ppppppppp/9/9/9/P8/9/9/9/1PPPPPPPP w 2");
//! ```

pub mod agents;
pub mod arena;
pub mod curve;
pub mod engine;
pub mod game;
pub mod notation;
pub mod ntuple;
pub mod play;
#[cfg(feature = "plot")]
pub mod plot;
pub mod position;
pub mod search;
pub mod square;
pub mod study;
pub mod train;
pub mod zobrist;

pub use game::{DEFAULT_PLY_LIMIT, Game, Outcome};
pub use koma_core::Color;
pub use notation::{NotationError, ParseError, Setup, SetupError};
pub use position::{Move, MoveList, Position, Status, Undo};
pub use square::{Dir, Square};
