//! koma-batch: the rules of shogi for B positions at once, in the shapes reinforcement learning
//! and self-play pipelines consume.
//!
//! - [`Batch`]: B games stepped together with one action each ([`Batch::step`]): next
//!   positions, terminal detection (checkmate, no legal move, 千日手 with the perpetual-check
//!   rule, a ply limit, optionally the 27-point 入玉宣言), zero-sum rewards per colour, Gymnasium's
//!   autoreset modes ([`AutoReset`]), seeded uniform random actions.
//! - [`label`]: dlshogi's 2187 action labels, as cshogi's `make_move_label`, and the mask of
//!   legal labels ([`Batch::legal_action_mask`]).
//! - [`tensor`]: the `[21, 81, 81, 2]` legal-move tensor of the published constant-tensor design,
//!   dense ([`Batch::legal_moves_mat`]) or sparse ([`Batch::legal_moves_sparse`]).
//! - [`features`]: dlshogi's 119 input planes, as cshogi's `make_input_features`
//!   ([`Batch::features`]).
//! - [`hasami`]: hasami shogi games of koma-hasami stepped together, in self-play or against one
//!   of its agents playing the other side inside the step ([`hasami::HasamiBatch`]).
//!
//! The rules are koma-core's: each game is a [`koma_core::Position`], and the legal moves of
//! every current position are generated once per step by koma-core's generator and shared by the
//! mask, the random actions and the next step. Work is spread over the cores with rayon.
//!
//! ```
//! use koma_batch::{ActionKind, Batch, Config, label::NUM_LABELS};
//!
//! let mut batch = Batch::new(2, Config::default()).unwrap();
//! let mut mask = vec![false; 2 * NUM_LABELS];
//! batch.legal_action_mask(&mut mask).unwrap();
//! assert_eq!(mask.iter().filter(|&&b| b).count(), 2 * 30);
//!
//! let (mut rewards, mut term, mut trunc) = (vec![0.0f32; 4], vec![false; 2], vec![false; 2]);
//! let actions = [59, 59]; // 7g7f in both games
//! batch.step(&actions, ActionKind::Label, &mut rewards, &mut term, &mut trunc).unwrap();
//! assert_eq!(batch.position(0).unwrap().to_sfen(),
//!            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
//! // An illegal action changes nothing and says why.
//! let err = batch.step(&[0, 0], ActionKind::Label, &mut rewards, &mut term, &mut trunc);
//! assert!(err.unwrap_err().to_string().contains("not a legal move"));
//! ```

mod batch;
pub mod features;
pub mod hasami;
pub mod label;
mod lanes;
pub mod tensor;

pub use batch::{ActionKind, AutoReset, Batch, BatchError, Config, Game, parse_sfens};
