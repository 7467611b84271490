//! koma-record: game records, problem files and Japanese move notation.
//!
//! Reads and writes CSA (2.2 and 3.0, in UTF-8, Shift-JIS or EUC-JP), KIF (Shift-JIS `.kif` and
//! UTF-8 `.kifu`, with handicaps, BOD diagrams, times, comments and variations), KI2, JKF (the
//! JSON kifu format of Kifu for JS and ShogiHome), USI `position` strings and SFEN lines, and BOD
//! diagrams of any position. Moves are named in Japanese (`▲７六歩`, `△同　銀`,
//! `▲５八金左`) with the JSA disambiguation rules, or in Western style (`P-7f`, `Bx2b+`).
//!
//! The main types: a [`Record`] is an initial position, a main [`Line`] of [`RecordMove`]s
//! (each with optional time, comments and variations), headers and a [`GameEnd`]. Its moves are
//! legal by construction: they enter only through checked calls ([`Record::push`], a
//! [`LineEditor`]) or a reader. Readers return a [`Read`] (the record and any [`Warning`]s) or a
//! [`ReadError`] with the line, column, a bounded excerpt and a typed [`ErrorKind`]; when moves
//! were read before the problem, the error keeps the good part in [`ReadError::partial`].
//!
//! Front ends open what a user gives them with [`input`]: one call that detects the encoding
//! and the format from the content (for a path, standard input or bytes alike) and reads the
//! records one at a time; [`output::RecordWriter`] writes many records in a format's own form.
//! [`Format`] picks a reader or writer by name.
//!
//! ```
//! use koma_record::{Format, csa, kif};
//!
//! let text = "V2.2\nN+Sente\nN-Gote\nPI\n+\n+7776FU\nT3\n-3334FU\n+8822UM\n-3122GI\n%TORYO\n";
//! let read = csa::read(text).unwrap();
//! assert_eq!(read.record.main().moves().len(), 4);
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
mod builder;
pub mod csa;
pub mod encoding;
mod ending;
mod error;
pub mod format;
pub mod handicap;
pub mod input;
pub mod japanese;
pub mod jkf;
pub mod ki2;
pub mod kif;
pub mod listing;
pub mod output;
mod record;
pub mod usi;
pub mod western;

pub use ending::{EndKind, GameEnd};
pub use error::{BookmarkSkip, EXCERPT_CHARS, ErrorKind, Read, ReadError, Warning, WarningKind};
pub use format::Format;
pub use record::{
    EditError, IllegalMoveError, Line, LineEditor, LinePath, MoveTime, Record, RecordMove,
};
