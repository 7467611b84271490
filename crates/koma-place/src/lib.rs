//! Non-attacking piece placement (利かずの駒並べ): put a multiset of shogi pieces on the board
//! so that no piece stands on a square attacked by another.
//!
//! * [`PieceSet`] parses sets such as `P18L4N4S4G4K2R2B2` (`+` promotes, `X` is a stone,
//!   `^`/lowercase fix a colour in two-directional mode).
//! * [`Problem`] is a checked question: set, board ([`Geometry`]) and whether pieces may face
//!   both ways.
//! * [`solve`] counts or enumerates placements ([`Mode`]), in parallel, using the left-right
//!   mirror (and two-directionally the 180° turn) and the degraded-piece test
//!   search. Counting, only the long-range pieces (rook, bishop, dragon, horse) are searched:
//!   the short-range rest is counted by a transfer over files. Enumerating, the last pawns,
//!   lances and stones are tested exactly file by file, and the gold-like kinds are placed as
//!   one group. It returns an [`Outcome`].
//! * A long count records each finished task in a [`checkpoint`] file and resumes from it.
//!
//! Sets of squares and attack masks are this crate's own (boards of any size up to 9×9, squares
//! numbered file by file: see [`Geometry`] and docs/ARCHITECTURE.md); pieces face the way of
//! koma-core's [`Color`]. Sliding attacks are unblocked rays, which give the same answer as
//! blocked ones for valid placements.
//!
//! Modules, one notion each: `piece` (kinds, facings, sets), `board` (geometry, attacks,
//! placements), `problem`, `options`, `solve` (tasks in parallel), `search` (the depth-first
//! search), `symmetry`, `relax` (the degraded-piece tests), `leaf` (the file-by-file leaf),
//! `transfer` (the transfer over files), `combinatorics`, `checkpoint`, `error`.
//!
//! ```
//! use koma_place::{solve, Geometry, Mode, Options, PieceSet, Problem};
//! // Two rooks on a 2×2 board: the two diagonals, which are each other's mirror image.
//! let problem = Problem::new("R2".parse()?, Geometry::new(2, 2)?, false)?;
//! let outcome = solve(&problem, &Options::default(), &|_| {});
//! assert_eq!((outcome.count, outcome.count_mirror_identified), (2, 1));
//! // A rook and two stones on 3×3, enumerated.
//! let problem = Problem::new("RX2".parse()?, Geometry::new(3, 3)?, false)?;
//! let found = std::sync::Mutex::new(Vec::new());
//! let opts = Options { mode: Mode::Enumerate { limit: None }, ..Options::default() };
//! let outcome = solve(&problem, &opts, &|p| found.lock().unwrap().push(p.to_sfen()));
//! assert!(outcome.complete);
//! assert_eq!(outcome.count, 9 * 6); // a rook anywhere, two stones on the 2×2 it misses
//! assert_eq!(found.lock().unwrap().len(), 54);
//! # Ok::<(), koma_place::PlaceError>(())
//! ```

mod board;
pub mod checkpoint;
mod combinatorics;
mod error;
mod leaf;
mod options;
mod piece;
mod problem;
mod relax;
mod search;
mod solve;
mod symmetry;
mod transfer;

pub use board::{Geometry, PlacedPiece, Placement};
pub use error::PlaceError;
pub use koma_core::Color;
pub use options::{Mode, Options, Progress, TaskCount};
pub use piece::{Facing, Kind, PieceSet};
pub use problem::Problem;
pub use relax::{pawns_and_stones_fit, vertical_blocks_fit};
pub use solve::{Outcome, solve};
