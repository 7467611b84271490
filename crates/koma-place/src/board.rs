//! Board geometry, attack masks and placements.
//!
//! Squares are numbered column-major: `index = col * ranks + rank`, where `col` 0 is the
//! leftmost file seen from Black (file 9 on the 9×9 board) and `rank` 0 is rank a. A file is
//! then a run of consecutive bits, which is what the pawn-and-stone test walks along.
//! Sets of squares are [`Mask`]s. Sliding attacks are unblocked rays: in a valid placement no piece
//! stands on another's ray (it would be attacked), so blocking never changes the answer.

use std::fmt::Write as _;

use crate::{Color, Kind, PlaceError};

/// A set of squares of a [`Geometry`]: bit `i` is the square with index `i` (column-major, see
/// the module doc). Not koma-core's `Bitboard`: boards here are 1×1 to 9×9, numbered file by file
/// from the left, so that a file is a run of consecutive bits (docs/ARCHITECTURE.md).
pub(crate) type Mask = u128;

/// Each file's (occupied, free) ranks, file by file, of a board `files` wide and `ranks`
/// high (column-major squares): bit r of a mask is rank r of that file.
#[inline]
pub(crate) fn file_patterns(
    files: usize,
    ranks: usize,
    occupied: Mask,
    free: Mask,
) -> impl Iterator<Item = (u16, u16)> {
    let mask: Mask = (1 << ranks) - 1;
    (0..files).map(move |c| {
        let shift = c * ranks;
        (
            ((occupied >> shift) & mask) as u16,
            ((free >> shift) & mask) as u16,
        )
    })
}

/// A rectangular board of `files × ranks` squares (both 1..=9) with its attack tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Geometry {
    files: u8,
    ranks: u8,
    /// attacks[(shape * 2 + colour) * n + square]
    attacks: Vec<Mask>,
    not_first: Mask,
}

const SHAPES: usize = 11;

fn shape(kind: Kind) -> usize {
    match kind {
        Kind::Pawn => 0,
        Kind::Lance => 1,
        Kind::Knight => 2,
        Kind::Silver => 3,
        Kind::Gold | Kind::ProPawn | Kind::ProLance | Kind::ProKnight | Kind::ProSilver => 4,
        Kind::King => 5,
        Kind::Bishop => 6,
        Kind::Rook => 7,
        Kind::Horse => 8,
        Kind::Dragon => 9,
        Kind::Stone => 10,
    }
}

/// Offsets (d_col, d_rank); d_rank < 0 is toward rank a.
type Offsets = &'static [(i8, i8)];

/// (steps, rays) for Black.
fn black_moves(shape: usize) -> (Offsets, Offsets) {
    const ORTH: &[(i8, i8)] = &[(0, -1), (0, 1), (-1, 0), (1, 0)];
    const DIAG: &[(i8, i8)] = &[(-1, -1), (1, -1), (-1, 1), (1, 1)];
    const KING: &[(i8, i8)] = &[
        (0, -1),
        (0, 1),
        (-1, 0),
        (1, 0),
        (-1, -1),
        (1, -1),
        (-1, 1),
        (1, 1),
    ];
    match shape {
        0 => (&[(0, -1)], &[]),
        1 => (&[], &[(0, -1)]),
        2 => (&[(-1, -2), (1, -2)], &[]),
        3 => (&[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)], &[]),
        4 => (&[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)], &[]),
        5 => (KING, &[]),
        6 => (&[], DIAG),
        7 => (&[], ORTH),
        8 => (ORTH, DIAG),
        9 => (DIAG, ORTH),
        _ => (&[], &[]),
    }
}

impl Geometry {
    /// A board of `files × ranks` squares; the standard board is `Geometry::new(9, 9)`.
    pub fn new(files: u8, ranks: u8) -> Result<Geometry, PlaceError> {
        if !(1..=9).contains(&files) || !(1..=9).contains(&ranks) {
            return Err(PlaceError::BadBoard { files, ranks });
        }
        let mut g = Geometry {
            files,
            ranks,
            attacks: Vec::new(),
            not_first: 0,
        };
        let n = g.len();
        let first = (0..files as usize).fold(0u128, |b, c| b | 1 << (c * ranks as usize));
        g.not_first = g.all() & !first;
        g.attacks = vec![0; SHAPES * 2 * n];
        for sh in 0..SHAPES {
            let (steps, rays) = black_moves(sh);
            for sq in 0..n {
                let (c, r) = ((sq / ranks as usize) as i8, (sq % ranks as usize) as i8);
                for (ci, sign) in [(0, 1i8), (1, -1i8)] {
                    let mut bb = 0;
                    for &(dc, dr) in steps {
                        if let Some(t) = g.offset(c, r, dc * sign, dr * sign) {
                            bb |= 1 << t;
                        }
                    }
                    for &(dc, dr) in rays {
                        let (mut cc, mut rr) = (c, r);
                        while let Some(t) = g.offset(cc, rr, dc * sign, dr * sign) {
                            bb |= 1 << t;
                            cc += dc * sign;
                            rr += dr * sign;
                        }
                    }
                    g.attacks[(sh * 2 + ci) * n + sq] = bb;
                }
            }
        }
        Ok(g)
    }

    /// The 9×9 shogi board.
    pub fn standard() -> Geometry {
        Geometry::new(9, 9).unwrap_or_else(|_| unreachable!("9x9 is a valid size"))
    }

    fn offset(&self, c: i8, r: i8, dc: i8, dr: i8) -> Option<usize> {
        let (c, r) = (c + dc, r + dr);
        (c >= 0 && r >= 0 && c < self.files as i8 && r < self.ranks as i8)
            .then(|| c as usize * self.ranks as usize + r as usize)
    }

    /// Number of files (columns).
    pub fn files(&self) -> u8 {
        self.files
    }

    /// Number of ranks (rows).
    pub fn ranks(&self) -> u8 {
        self.ranks
    }

    /// Number of squares.
    pub fn len(&self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// Always false: a geometry has at least one square.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The bitboard of all squares.
    pub(crate) fn all(&self) -> Mask {
        let n = self.len();
        if n == 128 { !0 } else { (1u128 << n) - 1 }
    }

    /// All squares except those on rank a.
    #[inline]
    pub(crate) fn not_first_rank(&self) -> Mask {
        self.not_first
    }

    /// All squares except those on the last rank.
    #[inline]
    pub(crate) fn not_last_rank(&self) -> Mask {
        self.not_first_rank() >> 1
    }

    /// Squares attacked by `kind` of `color` standing on `sq` (unblocked rays).
    #[inline]
    pub(crate) fn attacks(&self, kind: Kind, color: Color, sq: usize) -> Mask {
        self.attacks[(shape(kind) * 2 + color.index()) * self.len() + sq]
    }

    /// The left-right mirror image of `sq`.
    #[inline]
    pub fn mirror(&self, sq: usize) -> usize {
        let r = self.ranks as usize;
        (self.files as usize - 1 - sq / r) * r + sq % r
    }

    /// The image of `sq` under the 180° turn.
    #[inline]
    pub fn rotate(&self, sq: usize) -> usize {
        self.len() - 1 - sq
    }

    /// USI name of a square (`"5e"`): file number counted from the right, rank letter from the top.
    pub fn square_name(&self, sq: usize) -> String {
        let r = self.ranks as usize;
        let file = self.files as usize - sq / r;
        format!("{file}{}", (b'a' + (sq % r) as u8) as char)
    }
}

/// One piece of a placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PlacedPiece {
    /// Square index (column-major, see the module doc).
    pub square: u8,
    /// Kind of the piece.
    pub kind: Kind,
    /// Facing; direction-free kinds are always `Black`.
    pub color: Color,
}

/// A complete placement: every piece of the set on its square, sorted by square.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Placement {
    files: u8,
    ranks: u8,
    pieces: Vec<PlacedPiece>,
}

impl Placement {
    /// A placement on `geometry` of `pieces` (sorted here by square).
    pub fn new(geometry: &Geometry, mut pieces: Vec<PlacedPiece>) -> Placement {
        pieces.sort_unstable();
        Placement {
            files: geometry.files,
            ranks: geometry.ranks,
            pieces,
        }
    }

    /// The pieces, sorted by square.
    pub fn pieces(&self) -> &[PlacedPiece] {
        &self.pieces
    }

    fn cells(&self) -> Vec<Option<PlacedPiece>> {
        let mut cells = vec![None; self.files as usize * self.ranks as usize];
        for p in &self.pieces {
            cells[p.square as usize] = Some(*p);
        }
        cells
    }

    fn name(p: &PlacedPiece) -> String {
        let s = p.kind.sfen();
        match p.color {
            Color::Black => s.to_string(),
            Color::White => s.to_ascii_lowercase(),
        }
    }

    /// The board part of an SFEN, ranks a.. from the left file; stones are written `X` (not
    /// standard SFEN, which has no stone).
    pub fn sfen_board(&self) -> String {
        let cells = self.cells();
        let r = self.ranks as usize;
        let mut out = String::new();
        for rank in 0..r {
            if rank > 0 {
                out.push('/');
            }
            let mut empty = 0;
            for col in 0..self.files as usize {
                match cells[col * r + rank] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            let _ = write!(out, "{empty}");
                            empty = 0;
                        }
                        out.push_str(&Self::name(&p));
                    }
                }
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
            }
        }
        out
    }

    /// A full SFEN line: the board, Black to move, no pieces in hand, move 1.
    pub fn to_sfen(&self) -> String {
        format!("{} b - 1", self.sfen_board())
    }

    /// A board diagram: file numbers on top, rank letters on the right, `.` for empty squares,
    /// White's pieces in lowercase and stones as `X`.
    pub fn diagram(&self) -> String {
        let cells = self.cells();
        let r = self.ranks as usize;
        let mut out = String::new();
        for col in 0..self.files as usize {
            let _ = write!(out, "{:>3}", self.files as usize - col);
        }
        out.push('\n');
        for rank in 0..r {
            for col in 0..self.files as usize {
                let cell = cells[col * r + rank].map_or(".".to_string(), |p| Self::name(&p));
                let _ = write!(out, "{cell:>3}");
            }
            let _ = writeln!(out, "  {}", (b'a' + rank as u8) as char);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attack_counts_on_the_standard_board() {
        let g = Geometry::standard();
        let e5 = 4 * 9 + 4;
        let count = |k, c| g.attacks(k, c, e5).count_ones();
        assert_eq!(count(Kind::Pawn, Color::Black), 1);
        assert_eq!(count(Kind::Lance, Color::Black), 4);
        assert_eq!(count(Kind::Knight, Color::White), 2);
        assert_eq!(count(Kind::Silver, Color::Black), 5);
        assert_eq!(count(Kind::ProPawn, Color::White), 6);
        assert_eq!(count(Kind::King, Color::Black), 8);
        assert_eq!(count(Kind::Bishop, Color::Black), 16);
        assert_eq!(count(Kind::Rook, Color::Black), 16);
        assert_eq!(count(Kind::Horse, Color::Black), 20);
        assert_eq!(count(Kind::Dragon, Color::Black), 20);
        assert_eq!(count(Kind::Stone, Color::Black), 0);
        // Black's pawn on 5e attacks 5d; White's attacks 5f.
        assert_eq!(g.attacks(Kind::Pawn, Color::Black, e5), 1 << (e5 - 1));
        assert_eq!(g.attacks(Kind::Pawn, Color::White, e5), 1 << (e5 + 1));
        assert_eq!(g.square_name(e5), "5e");
        assert_eq!(g.square_name(0), "9a");
        assert_eq!(g.mirror(0), 72);
        assert_eq!(g.rotate(0), 80);
    }

    #[test]
    fn sfen_and_diagram() {
        let g = Geometry::new(3, 2).unwrap();
        let p = Placement::new(
            &g,
            vec![
                PlacedPiece {
                    square: 0,
                    kind: Kind::ProPawn,
                    color: Color::White,
                },
                PlacedPiece {
                    square: 5,
                    kind: Kind::Stone,
                    color: Color::Black,
                },
            ],
        );
        assert_eq!(p.to_sfen(), "+p2/2X b - 1");
        assert_eq!(p.diagram(), "  3  2  1\n +p  .  .  a\n  .  .  X  b\n");
    }
}
