//! The learned value model: an n-tuple network (a linear model over lookup tables), the classic
//! strongest-per-CPU-hour choice for small board games (see docs/DECISIONS.md, 2026-11-22).
//!
//! The board is read from the side to move's view (own pieces start at the bottom; White's view is
//! the board flipped top to bottom) with each square empty, own or opponent's. Every 3×3 window
//! (49 of them) indexes a table of 3⁹ weights; a window and its left-right mirror image share a table
//! (28 tables). Every row (9 tables, each row read both left to right and right to left, so the
//! model stays mirror-symmetric) and every column (file f and its mirror share a table, 5 tables)
//! index tables of 3⁹ weights too: they see sandwiches and the long rook moves. A 10×10 table
//! indexed by (own pieces, opponent's pieces) holds the material and lead-of-three knowledge. The
//! value is `tanh(sum of the 77 selected weights)`, the expected result for the side to move in
//! [−1, 1].
//!
//! # File format (`.ntw`)
//! Little-endian: the magic bytes `KHNT`, a `u32` format version (1), a `u32` weight count
//! (826 786 for version 1), then the weights as `f32`: the 28 window tables (row-major window
//! position, window columns 0–3), the 9 row tables (rank a first, in the side to move's view), the
//! 5 column tables (file 9/1, 8/2, 7/3, 6/4, 5), each of 3⁹ entries indexed by the cells as base-3
//! digits (0 empty, 1 own, 2 opponent's; the first cell read is the most significant), then the
//! material table `own · 10 + opponent's`.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::position::Position;
use crate::square::squares;
use koma_core::Color;

const WINDOW_TABLES: usize = 7 * 4;
const ROW_TABLES: usize = 9;
const COLUMN_TABLES: usize = 5;
const TABLE_SIZE: usize = 19_683; // 3^9
const ROW_OFFSET: usize = WINDOW_TABLES * TABLE_SIZE;
const COLUMN_OFFSET: usize = ROW_OFFSET + ROW_TABLES * TABLE_SIZE;
const MATERIAL_OFFSET: usize = COLUMN_OFFSET + COLUMN_TABLES * TABLE_SIZE;
/// Number of weights in a version-1 model.
pub const WEIGHT_COUNT: usize = MATERIAL_OFFSET + 100;
/// Number of weights read for one evaluation: 49 windows, 9 rows read both ways, 9 columns and
/// the material table.
pub const ACTIVE: usize = 49 + 18 + 9 + 1;
const MAGIC: &[u8; 4] = b"KHNT";
const VERSION: u32 = 1;

/// Why a model could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The file could not be read or written.
    #[error("model file {}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The bytes are not a koma-hasami n-tuple model.
    #[error("model {name}: {problem}")]
    Format {
        /// The path, or the name given to [`NTuple::from_bytes`].
        name: String,
        /// What is wrong.
        problem: FormatError,
    },
}

/// What is wrong with the bytes of a model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// The magic bytes `KHNT` are missing (or the input is shorter than a header).
    #[error("not a koma-hasami n-tuple model (magic KHNT missing)")]
    NotAModel,
    /// A format version this build cannot read.
    #[error("format version {0} is not supported (expected {VERSION})")]
    Version(u32),
    /// The header's weight count or the file size is not that of the format.
    #[error("expected {WEIGHT_COUNT} weights, header says {header}, file has {bytes} bytes")]
    WeightCount {
        /// The count in the header.
        header: usize,
        /// The size of the input.
        bytes: usize,
    },
}

/// The n-tuple value network.
#[derive(Clone, Debug, PartialEq)]
pub struct NTuple {
    weights: Vec<f32>,
}

impl Default for NTuple {
    fn default() -> NTuple {
        NTuple::zero()
    }
}

/// The 50 weight indices read for a position (its features).
pub type Features = [u32; ACTIVE];

impl NTuple {
    /// An untrained model: every weight 0, value 0 everywhere.
    pub fn zero() -> NTuple {
        NTuple {
            weights: vec![0.0; WEIGHT_COUNT],
        }
    }

    /// The model shipped with koma (crates/koma-hasami/models/default.ntw).
    pub fn shipped() -> NTuple {
        static BYTES: &[u8] = include_bytes!("../models/default.ntw");
        NTuple::from_bytes(BYTES, "<shipped model>")
            .unwrap_or_else(|e| unreachable!("shipped model is valid: {e}"))
    }

    /// The feature indices of `pos`, from the side to move's view.
    pub fn features(pos: &Position) -> Features {
        let us = pos.side_to_move();
        let mut cells = [0u8; 81];
        for (color, value) in [(us, 1u8), (us.flip(), 2u8)] {
            for sq in squares(pos.pieces(color)) {
                let row = if us == Color::Black {
                    sq.row()
                } else {
                    8 - sq.row()
                } as usize;
                cells[row * 9 + sq.col() as usize] = value;
            }
        }
        let mut out = [0u32; ACTIVE];
        let mut k = 0;
        for r in 0..7 {
            for c in 0..7 {
                let (table, mirrored) = if c <= 3 {
                    (r * 4 + c, false)
                } else {
                    (r * 4 + 6 - c, true)
                };
                let mut index = 0u32;
                for dr in (0..3).rev() {
                    for dc in (0..3).rev() {
                        let col = if mirrored { c + 2 - dc } else { c + dc };
                        index = index * 3 + cells[(r + dr) * 9 + col] as u32;
                    }
                }
                out[k] = (table * TABLE_SIZE) as u32 + index;
                k += 1;
            }
        }
        for r in 0..9 {
            let (mut forward, mut backward) = (0u32, 0u32);
            for c in 0..9 {
                forward = forward * 3 + cells[r * 9 + 8 - c] as u32;
                backward = backward * 3 + cells[r * 9 + c] as u32;
            }
            let base = (ROW_OFFSET + r * TABLE_SIZE) as u32;
            out[k] = base + forward;
            out[k + 1] = base + backward;
            k += 2;
        }
        for c in 0..9 {
            let mut index = 0u32;
            for r in (0..9).rev() {
                index = index * 3 + cells[r * 9 + c] as u32;
            }
            out[k] = (COLUMN_OFFSET + c.min(8 - c) * TABLE_SIZE) as u32 + index;
            k += 1;
        }
        let material = pos.count(us) as usize * 10 + pos.count(us.flip()) as usize;
        out[k] = (MATERIAL_OFFSET + material) as u32;
        out
    }

    /// The sum of the weights of `features` (the value before `tanh`).
    pub fn logit_of(&self, features: &Features) -> f32 {
        features.iter().map(|&i| self.weights[i as usize]).sum()
    }

    /// The value of `pos` for the side to move, in (−1, 1).
    pub fn value(&self, pos: &Position) -> f32 {
        self.logit_of(&NTuple::features(pos)).tanh()
    }

    /// Adds `delta` to every weight of `features` (one gradient step on the logit).
    pub fn add(&mut self, features: &Features, delta: f32) {
        for &i in features {
            self.weights[i as usize] += delta;
        }
    }

    /// Writes the model in the `.ntw` format.
    pub fn write_to(&self, mut w: impl Write) -> std::io::Result<()> {
        let mut bytes = Vec::with_capacity(12 + 4 * self.weights.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&(self.weights.len() as u32).to_le_bytes());
        for w in &self.weights {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        w.write_all(&bytes)
    }

    /// Saves to `path` (written to a temporary file and renamed, so a crash never leaves half a model).
    pub fn save(&self, path: &Path) -> Result<(), ModelError> {
        let io = |source| ModelError::Io {
            path: path.to_owned(),
            source,
        };
        let tmp = path.with_extension("ntw.tmp");
        let file = std::fs::File::create(&tmp).map_err(io)?;
        self.write_to(std::io::BufWriter::new(file)).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }

    /// Loads a model file.
    pub fn load(path: &Path) -> Result<NTuple, ModelError> {
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map_err(|source| ModelError::Io {
                path: path.to_owned(),
                source,
            })?;
        NTuple::from_bytes(&bytes, &path.display().to_string())
    }

    /// Reads the `.ntw` format from memory; `name` is used in errors.
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<NTuple, ModelError> {
        let bad = |problem| ModelError::Format {
            name: name.to_string(),
            problem,
        };
        if bytes.len() < 12 || &bytes[..4] != MAGIC {
            return Err(bad(FormatError::NotAModel));
        }
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        if word(4) != VERSION {
            return Err(bad(FormatError::Version(word(4))));
        }
        let n = word(8) as usize;
        if n != WEIGHT_COUNT || bytes.len() != 12 + 4 * n {
            return Err(bad(FormatError::WeightCount {
                header: n,
                bytes: bytes.len(),
            }));
        }
        let weights = bytes[12..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(NTuple { weights })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_colour_symmetric_and_in_range() {
        let start = Position::startpos();
        let f_black = NTuple::features(&start);
        assert!(f_black.iter().all(|&i| (i as usize) < WEIGHT_COUNT));
        let mut white_start: Position = "ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP w 1".parse().unwrap();
        assert_eq!(NTuple::features(&white_start), f_black);
        // ▽ 5a5e seen by White equals ▲ 5i5e seen by Black.
        white_start.do_move("5a5e".parse().unwrap());
        let mut black_view: Position = "ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b 1".parse().unwrap();
        black_view.do_move("9i9h".parse().unwrap());
        let mirrored: Position = "ppppppppp/9/9/9/4P4/9/9/9/PPPP1PPPP w 2".parse().unwrap();
        let white_seen: Position = "pppp1pppp/9/9/9/4p4/9/9/9/PPPPPPPPP b 2".parse().unwrap();
        assert_eq!(NTuple::features(&mirrored), NTuple::features(&white_seen));
        assert_ne!(NTuple::features(&white_start), f_black);
        assert_ne!(NTuple::features(&black_view), f_black);
    }

    #[test]
    fn mirror_windows_share_tables() {
        let left: Position = "ppppppppp/9/9/9/P8/9/9/9/1PPPPPPPP b 1".parse().unwrap();
        let right: Position = "ppppppppp/9/9/9/8P/9/9/9/PPPPPPPP1 b 1".parse().unwrap();
        let mut a = NTuple::features(&left).to_vec();
        let mut b = NTuple::features(&right).to_vec();
        a.sort();
        b.sort();
        assert_eq!(a, b);
    }

    #[test]
    fn save_load_round_trip_and_bad_files() {
        let mut m = NTuple::zero();
        let f = NTuple::features(&Position::startpos());
        m.add(&f, 0.25);
        assert!((m.value(&Position::startpos()) - (0.25f32 * ACTIVE as f32).tanh()).abs() < 1e-6);
        let mut bytes = Vec::new();
        m.write_to(&mut bytes).unwrap();
        assert_eq!(NTuple::from_bytes(&bytes, "t").unwrap(), m);
        assert!(NTuple::from_bytes(&bytes[..100], "t").is_err());
        assert!(NTuple::from_bytes(b"nope", "t").is_err());
        let mut wrong_version = bytes.clone();
        wrong_version[4] = 9;
        assert!(NTuple::from_bytes(&wrong_version, "t").is_err());
        let problem = |b: &[u8]| match NTuple::from_bytes(b, "t") {
            Err(ModelError::Format { problem, .. }) => Some(problem),
            _ => None,
        };
        assert_eq!(problem(b"nope"), Some(FormatError::NotAModel));
        assert_eq!(problem(&wrong_version), Some(FormatError::Version(9)));
        assert_eq!(
            problem(&bytes[..100]),
            Some(FormatError::WeightCount {
                header: WEIGHT_COUNT,
                bytes: 100
            })
        );
        assert!(NTuple::load(Path::new("/nonexistent/model.ntw")).is_err());
    }

    #[test]
    fn shipped_model_loads() {
        assert_eq!(NTuple::shipped().weights.len(), WEIGHT_COUNT);
    }
}
