//! A placement question, checked: which pieces, on which board, facing one or both ways.

use crate::{Facing, Geometry, Kind, PieceSet, PlaceError};

/// A placement question: which pieces, on which board, facing one or both ways.
#[derive(Debug, Clone)]
pub struct Problem {
    pub(crate) set: PieceSet,
    pub(crate) geometry: Geometry,
    pub(crate) both_ways: bool,
}

impl Problem {
    /// Checks that the set fits on the board and that no piece is fixed White in
    /// one-directional mode.
    pub fn new(set: PieceSet, geometry: Geometry, both_ways: bool) -> Result<Problem, PlaceError> {
        if set.is_empty() {
            return Err(PlaceError::Empty);
        }
        let squares = geometry.len() as u32;
        if set.len() > squares {
            return Err(PlaceError::TooMany {
                pieces: set.len(),
                squares,
            });
        }
        if !both_ways
            && let Some(k) = Kind::ALL
                .into_iter()
                .find(|&k| set.count(k, Facing::White) > 0)
        {
            return Err(PlaceError::WhiteInOneWay {
                piece: k.sfen().to_ascii_lowercase(),
            });
        }
        Ok(Problem {
            set,
            geometry,
            both_ways,
        })
    }

    /// The piece set.
    pub fn set(&self) -> &PieceSet {
        &self.set
    }

    /// The board.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// True for two-directional placement.
    pub fn both_ways(&self) -> bool {
        self.both_ways
    }
}
