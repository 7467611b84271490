//! An independent validity check shared by the integration tests: attacks written out here,
//! with real blocking of sliding pieces.

use koma_place::{Color, Kind};

/// A board as (square index, kind, colour), squares column-major as in the crate.
pub type Board = Vec<(usize, Kind, Color)>;

type Offsets = Vec<(i32, i32)>;

/// (steps, rays) for Black as (d_col, d_rank), written out independently of the crate.
fn moves(kind: Kind) -> (Offsets, Offsets) {
    let gold = vec![(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
    let diag = vec![(-1, -1), (1, -1), (-1, 1), (1, 1)];
    let orth = vec![(0, -1), (0, 1), (-1, 0), (1, 0)];
    match kind {
        Kind::Pawn => (vec![(0, -1)], vec![]),
        Kind::Lance => (vec![], vec![(0, -1)]),
        Kind::Knight => (vec![(-1, -2), (1, -2)], vec![]),
        Kind::Silver => (vec![(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)], vec![]),
        Kind::Gold | Kind::ProPawn | Kind::ProLance | Kind::ProKnight | Kind::ProSilver => {
            (gold, vec![])
        }
        Kind::King => ([diag.clone(), orth.clone()].concat(), vec![]),
        Kind::Bishop => (vec![], diag),
        Kind::Rook => (vec![], orth),
        Kind::Horse => (orth, diag),
        Kind::Dragon => (diag, orth),
        Kind::Stone => (vec![], vec![]),
    }
}

/// True when no piece of `board` attacks another on a `files × ranks` board.
pub fn valid(files: i32, ranks: i32, board: &Board) -> bool {
    let at = |c: i32, r: i32| board.iter().any(|&(s, _, _)| s as i32 == c * ranks + r);
    for &(s, kind, color) in board {
        let (c, r) = (s as i32 / ranks, s as i32 % ranks);
        let sign = if color == Color::Black { 1 } else { -1 };
        let (steps, rays) = moves(kind);
        let inside = |c: i32, r: i32| c >= 0 && r >= 0 && c < files && r < ranks;
        for (dc, dr) in steps {
            let (c2, r2) = (c + dc * sign, r + dr * sign);
            if inside(c2, r2) && at(c2, r2) {
                return false;
            }
        }
        for (dc, dr) in rays {
            let (mut c2, mut r2) = (c + dc * sign, r + dr * sign);
            while inside(c2, r2) {
                if at(c2, r2) {
                    return false;
                }
                c2 += dc * sign;
                r2 += dr * sign;
            }
        }
    }
    true
}
