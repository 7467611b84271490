//! koma-record: game records, problem files and Japanese move notation.
//!
//! Reads and writes CSA (2.2 and 3.0), KIF (Shift-JIS `.kif` and UTF-8 `.kifu`, with handicaps,
//! BOD diagrams, times, comments and variations), KI2, USI `position` strings and SFEN lines, and
//! BOD diagrams of any position. Moves are named in Japanese (`▲７六歩`, `△同　銀`,
//! `▲５八金左`) with the JSA disambiguation rules, or in Western style (`P-7f`, `Bx2b+`).
//!
//! The main types: a [`Record`] is an initial position, a main [`Line`] of [`RecordMove`]s
//! (each with optional time, comments and variations), headers and a [`GameEnd`]. Readers return
//! a [`Read`] (the record and any [`Warning`]s) or a [`ReadError`] with the line, column,
//! offending text and what was expected; when moves were read before an illegal one, the error
//! keeps the good part in [`ReadError::partial`]. [`Format`] picks a reader or writer by name.
//!
//! ```
//! use koma_record::{Format, csa, kif};
//!
//! let text = "V2.2\nN+Sente\nN-Gote\nPI\n+\n+7776FU\nT3\n-3334FU\n+8822UM\n-3122GI\n%TORYO\n";
//! let read = csa::read(text).unwrap();
//! assert_eq!(read.record.main.moves.len(), 4);
//!
//! let kif_text = kif::write(&read.record);
//! assert!(kif_text.contains("先手：Sente"));
//! assert!(kif_text.contains("   4 同　銀(31)"));
//!
//! // Back to CSA through KIF: the moves are kept.
//! let again = Format::Kif.read(&kif_text).unwrap().record;
//! assert_eq!(csa::write(&again), csa::write(&read.record));
//! ```

#![warn(missing_docs)]

pub mod bod;
pub mod csa;
pub mod encoding;
mod error;
pub mod format;
pub mod handicap;
pub mod japanese;
pub mod ki2;
pub mod kif;
mod record;
pub mod usi;
pub mod western;

pub use error::{ErrorKind, Read, ReadError, Warning};
pub use format::Format;
pub use record::{EndKind, GameEnd, IllegalMoveError, Line, MoveTime, Record, RecordMove};
