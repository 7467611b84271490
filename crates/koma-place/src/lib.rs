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
//!
//! Bitboards and attack masks are this crate's own (see [`Geometry`]): sliding attacks are
//! unblocked rays, which give the same answer as blocked ones for valid placements.
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
mod error;
mod leaf;
mod piece;
mod relax;
mod search;
mod transfer;

pub use board::{Geometry, PlacedPiece, Placement};
pub use error::PlaceError;
pub use koma_core::Color;
pub use piece::{Facing, Kind, PieceSet};
pub use relax::{pawns_and_stones_fit, vertical_blocks_fit};
pub use search::{Mode, Options, Outcome, Problem, Progress, TaskCount, solve};
