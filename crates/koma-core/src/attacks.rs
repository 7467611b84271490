//! Attack tables: step attacks, sliding attacks and the squares between two squares.
//!
//! Every table is computed at compile time by `const fn`s in this module, so there is no start-up
//! work and no lazy initialisation on the hot path. Sliding attacks go through the three functions
//! [`rook_attacks`], [`bishop_attacks`] and [`lance_attacks`]: the swap boundary behind which the
//! method can change (see docs/DECISIONS.md for the measured choice).

use crate::{Bitboard, Color, PieceKind, Square};

/// (file delta, rank delta) for Black; rank delta -1 is "forward" (toward rank a).
type Delta = (i8, i8);

const PAWN_D: &[Delta] = &[(0, -1)];
const KNIGHT_D: &[Delta] = &[(1, -2), (-1, -2)];
const SILVER_D: &[Delta] = &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
const GOLD_D: &[Delta] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const KING_D: &[Delta] = &[
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The eight slider directions: the first four increase the square index along the ray, the last
/// four decrease it. Order: down, left, down-left, up-left, up, right, up-right, down-right
/// (as Black sees the board).
const DIRS: [Delta; 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (1, -1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (-1, 1),
];
const DOWN: usize = 0;
const LEFT: usize = 1;
const DOWN_LEFT: usize = 2;
const UP_LEFT: usize = 3;
const UP: usize = 4;
const RIGHT: usize = 5;
const UP_RIGHT: usize = 6;
const DOWN_RIGHT: usize = 7;

const fn offset(sq: usize, d: Delta) -> Option<usize> {
    let f = (sq / 9) as i32 + d.0 as i32;
    let r = (sq % 9) as i32 + d.1 as i32;
    if f >= 0 && f < 9 && r >= 0 && r < 9 {
        Some((f * 9 + r) as usize)
    } else {
        None
    }
}

const fn steps(sq: usize, deltas: &[Delta], color: usize) -> u128 {
    let mut bits = 0u128;
    let mut i = 0;
    while i < deltas.len() {
        let (df, dr) = deltas[i];
        let d = if color == 0 { (df, dr) } else { (-df, -dr) };
        if let Some(to) = offset(sq, d) {
            bits |= 1u128 << to;
        }
        i += 1;
    }
    bits
}

const fn ray(sq: usize, d: Delta) -> u128 {
    let mut bits = 0u128;
    let mut cur = sq;
    while let Some(to) = offset(cur, d) {
        bits |= 1u128 << to;
        cur = to;
    }
    bits
}

/// Step attacks by colour, kind and square. Sliding kinds hold only their step part (nothing for
/// lance, bishop and rook; the king steps for horse and dragon).
static STEP: [[[Bitboard; 81]; 14]; 2] = {
    let mut t = [[[Bitboard::EMPTY; 81]; 14]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 14 {
            let deltas: &[Delta] = match k {
                0 => PAWN_D,
                2 => KNIGHT_D,
                3 => SILVER_D,
                6 | 8 | 9 | 10 | 11 => GOLD_D,
                7 | 12 | 13 => KING_D,
                _ => &[],
            };
            let mut sq = 0;
            while sq < 81 {
                t[c][k][sq] = Bitboard(steps(sq, deltas, c));
                sq += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
};

static RAYS: [[u128; 81]; 8] = {
    let mut t = [[0u128; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 81 {
            t[d][sq] = ray(sq, DIRS[d]);
            sq += 1;
        }
        d += 1;
    }
    t
};

/// `CHECK_FROM[c][k][sq]` for the step kinds (pawn, knight, silver, gold and the promoted minor
/// pieces): the squares from which a piece of colour `c` and kind `k` reaches in one step a square
/// from which it, promoted or not, attacks `sq`. A superset of the origins of direct checks on a
/// king on `sq` by that kind; empty for the other kinds.
static CHECK_FROM: [[[Bitboard; 81]; 14]; 2] = {
    let mut t = [[[Bitboard::EMPTY; 81]; 14]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 12 {
            // Step kinds only: pawn 0, knight 2, silver 3, gold 6, promoted minors 8..=11.
            let promoted = match k {
                0 | 2 | 3 => k + 8,
                6 | 8 | 9 | 10 | 11 => k,
                _ => {
                    k += 1;
                    continue;
                }
            };
            let mut sq = 0;
            while sq < 81 {
                // A `c` piece attacks `sq` from where the other colour's same piece on `sq` would.
                let mut targets = STEP[1 - c][k][sq].0 | STEP[1 - c][promoted][sq].0;
                let mut from = 0u128;
                while targets != 0 {
                    let to = targets.trailing_zeros() as usize;
                    targets &= targets - 1;
                    from |= STEP[1 - c][k][to].0;
                }
                t[c][k][sq] = Bitboard(from);
                sq += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
};

/// Squares from which a step piece (pawn, knight, silver, gold or promoted minor) of `color` and
/// `kind` can give direct check to a king on `king` in one move, promoting or not: a superset,
/// for pruning the origins a checks generator looks at. Empty for sliders and the king.
#[inline]
pub fn check_candidates(color: Color, kind: PieceKind, king: Square) -> Bitboard {
    CHECK_FROM[color.index()][kind.index()][king.index()]
}

/// Attacks of each colour, kind and square on an empty board.
static PSEUDO: [[[Bitboard; 81]; 14]; 2] = {
    let mut t = [[[Bitboard::EMPTY; 81]; 14]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 14 {
            let mut sq = 0;
            while sq < 81 {
                let slide = match k {
                    1 => RAYS[if c == 0 { UP } else { DOWN }][sq],
                    4 | 12 => {
                        RAYS[UP_LEFT][sq]
                            | RAYS[UP_RIGHT][sq]
                            | RAYS[DOWN_LEFT][sq]
                            | RAYS[DOWN_RIGHT][sq]
                    }
                    5 | 13 => RAYS[UP][sq] | RAYS[DOWN][sq] | RAYS[LEFT][sq] | RAYS[RIGHT][sq],
                    _ => 0,
                };
                t[c][k][sq] = Bitboard(STEP[c][k][sq].0 | slide);
                sq += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
};

/// `BETWEEN[a][b]`: squares strictly between two squares on one line, else empty.
/// `LINE[a][b]`: the whole board line through two aligned squares, else empty.
static BETWEEN_LINE: ([[Bitboard; 81]; 81], [[Bitboard; 81]; 81]) = {
    let mut between = [[Bitboard::EMPTY; 81]; 81];
    let mut line = [[Bitboard::EMPTY; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let opposite = (d + 4) % 8;
            let full = RAYS[d][a] | RAYS[opposite][a] | (1u128 << a);
            let mut cur = a;
            let mut acc = 0u128;
            while let Some(b) = offset(cur, DIRS[d]) {
                between[a][b] = Bitboard(acc);
                line[a][b] = Bitboard(full);
                acc |= 1u128 << b;
                cur = b;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
};

/// The step part of the attacks of a `color` `kind` on `sq` (see the module docs).
#[inline]
pub fn step_attacks(color: Color, kind: PieceKind, sq: Square) -> Bitboard {
    STEP[color.index()][kind.index()][sq.index()]
}

/// Squares a king on `sq` attacks.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    STEP[0][PieceKind::King.index()][sq.index()]
}

/// Squares a gold (or gold-like piece) of `color` on `sq` attacks.
#[inline]
pub fn gold_attacks(color: Color, sq: Square) -> Bitboard {
    STEP[color.index()][PieceKind::Gold.index()][sq.index()]
}

/// Squares strictly between `a` and `b` if they share a file, rank or diagonal; else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN_LINE.0[a.index()][b.index()]
}

/// The whole line (file, rank or diagonal, both ways to the edges) through `a` and `b` if they
/// are aligned; else empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    BETWEEN_LINE.1[a.index()][b.index()]
}

/// `DIRECTION[a][b]`: the index into [`DIRS`] of the ray from `a` that passes `b`, or 8 if the
/// squares are not aligned (or equal).
static DIRECTION: [[u8; 81]; 81] = {
    let mut t = [[8u8; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let mut cur = a;
            while let Some(b) = offset(cur, DIRS[d]) {
                t[a][b] = d as u8;
                cur = b;
            }
            d += 1;
        }
        a += 1;
    }
    t
};

/// The sliding pieces that attack along a line, as seen from the attacked square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A diagonal: bishops and horses.
    Diagonal,
    /// A rank: rooks and dragons.
    Rank,
    /// A file: rooks and dragons, and lances of this colour (those that face the square).
    File(Color),
}

/// Going from `target` through `through` (on one line with it) to the edge: the first square of
/// `occupied` met, and which sliders attack `target` from there. `None` if not aligned.
#[inline]
pub(crate) fn first_on_line(
    target: Square,
    through: Square,
    occupied: Bitboard,
) -> Option<(Bitboard, Line)> {
    let d = DIRECTION[target.index()][through.index()] as usize;
    let line = match d {
        DOWN => Line::File(Color::Black),
        UP => Line::File(Color::White),
        LEFT | RIGHT => Line::Rank,
        DOWN_LEFT | UP_LEFT | UP_RIGHT | DOWN_RIGHT => Line::Diagonal,
        _ => return None,
    };
    Some((
        Bitboard(ray_attacks(d, target, occupied) & occupied.0),
        line,
    ))
}

/// Squares of the ray from `sq` in direction `dir` up to and including the first occupied one.
///
/// Branch-free: along an increasing ray the first blocker is the lowest set bit `b`, and the
/// squares up to it are `b ^ (b - 1)`; along a decreasing ray it is the highest set bit `h`, and
/// the squares from it on are `!(h - 1)`. An empty blocker set falls out of both formulas as the
/// whole ray (for the decreasing case, `| 1` keeps `h` defined and square 0 ends every ray it is on).
#[inline(always)]
fn ray_attacks(dir: usize, sq: Square, occupied: Bitboard) -> u128 {
    let ray = RAYS[dir][sq.index()];
    let blockers = ray & occupied.0;
    if dir < 4 {
        ray & (blockers ^ blockers.wrapping_sub(1))
    } else {
        let highest = 1u128 << (127 - (blockers | 1).leading_zeros());
        ray & !(highest - 1)
    }
}

/// `FILE_TABLE[rank][inner]`: the squares of a file (bit 0 = rank a) that a rook on `rank`
/// reaches along the file when the file's seven inner squares (ranks b..h) hold `inner`.
static FILE_TABLE: [[u16; 128]; 9] = {
    let mut t = [[0u16; 128]; 9];
    let mut r = 0;
    while r < 9 {
        let mut inner = 0;
        while inner < 128 {
            let occ = (inner as u32) << 1;
            let mut bits = 0u16;
            let mut i = r as i32 - 1;
            while i >= 0 {
                bits |= 1 << i;
                if occ >> i & 1 != 0 {
                    break;
                }
                i -= 1;
            }
            let mut i = r + 1;
            while i < 9 {
                bits |= 1 << i;
                if occ >> i & 1 != 0 {
                    break;
                }
                i += 1;
            }
            t[r][inner] = bits;
            inner += 1;
        }
        r += 1;
    }
    t
};

/// Squares reached along the file of `sq`, both ways. By default two branch-free ray scans; with
/// the `slider-file-table` feature, a table indexed by the file's seven inner squares (a file is
/// nine consecutive bits). Both measured equal within noise; see docs/DECISIONS.md.
#[inline(always)]
fn file_attacks(sq: Square, occupied: Bitboard) -> u128 {
    if !cfg!(feature = "slider-file-table") {
        return ray_attacks(UP, sq, occupied) | ray_attacks(DOWN, sq, occupied);
    }
    let s = sq.index();
    let base = s - s % 9;
    let inner = (occupied.0 >> (base + 1)) as usize & 0x7F;
    (FILE_TABLE[s % 9][inner] as u128) << base
}

/// Squares a rook on `sq` attacks with `occupied` blocking (blockers themselves included).
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(
        file_attacks(sq, occupied)
            | ray_attacks(LEFT, sq, occupied)
            | ray_attacks(RIGHT, sq, occupied),
    )
}

/// Squares a bishop on `sq` attacks with `occupied` blocking (blockers themselves included).
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(
        ray_attacks(UP_LEFT, sq, occupied)
            | ray_attacks(UP_RIGHT, sq, occupied)
            | ray_attacks(DOWN_LEFT, sq, occupied)
            | ray_attacks(DOWN_RIGHT, sq, occupied),
    )
}

/// Squares a lance of `color` on `sq` attacks with `occupied` blocking.
#[inline]
pub fn lance_attacks(color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    let dir = match color {
        Color::Black => UP,
        Color::White => DOWN,
    };
    if !cfg!(feature = "slider-file-table") {
        return Bitboard(ray_attacks(dir, sq, occupied));
    }
    Bitboard(file_attacks(sq, occupied) & RAYS[dir][sq.index()])
}

/// Squares a rook on `sq` would attack on an empty board.
#[inline]
pub fn rook_pseudo_attacks(sq: Square) -> Bitboard {
    PSEUDO[0][PieceKind::Rook.index()][sq.index()]
}

/// Squares a bishop on `sq` would attack on an empty board.
#[inline]
pub fn bishop_pseudo_attacks(sq: Square) -> Bitboard {
    PSEUDO[0][PieceKind::Bishop.index()][sq.index()]
}

/// Squares a lance of `color` on `sq` would attack on an empty board.
#[inline]
pub fn lance_pseudo_attacks(color: Color, sq: Square) -> Bitboard {
    PSEUDO[color.index()][PieceKind::Lance.index()][sq.index()]
}

/// Squares a piece of `color` and `kind` on `sq` attacks, with `occupied` blocking sliders.
///
/// ```
/// use koma_core::{attacks, Bitboard, Color, PieceKind, Square};
/// let sq: Square = "5e".parse().unwrap();
/// assert_eq!(attacks::attacks(Color::Black, PieceKind::Dragon, sq, Bitboard::EMPTY).count(), 20);
/// assert_eq!(attacks::attacks(Color::White, PieceKind::Knight, sq, Bitboard::EMPTY).count(), 2);
/// ```
#[inline]
pub fn attacks(color: Color, kind: PieceKind, sq: Square, occupied: Bitboard) -> Bitboard {
    let step = step_attacks(color, kind, sq);
    match kind {
        PieceKind::Lance => lance_attacks(color, sq, occupied),
        PieceKind::Bishop | PieceKind::Horse => step | bishop_attacks(sq, occupied),
        PieceKind::Rook | PieceKind::Dragon => step | rook_attacks(sq, occupied),
        _ => step,
    }
}

/// Squares a piece of `color` and `kind` on `sq` attacks on an empty board.
#[inline]
pub fn pseudo_attacks(color: Color, kind: PieceKind, sq: Square) -> Bitboard {
    PSEUDO[color.index()][kind.index()][sq.index()]
}

/// Whether a piece of `color` and `kind` on `from` attacks `target` with `occupied` blocking:
/// one table lookup, and for a distant target one more to see that the line between is empty.
#[inline]
pub fn attacks_square(
    color: Color,
    kind: PieceKind,
    from: Square,
    target: Square,
    occupied: Bitboard,
) -> bool {
    pseudo_attacks(color, kind, from).contains(target)
        && (between(from, target) & occupied).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slow reference: walk each ray square by square.
    fn slow_slider(sq: Square, occ: Bitboard, dirs: &[Delta]) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for &d in dirs {
            let mut cur = sq.index();
            while let Some(to) = offset(cur, d) {
                let t = Square::new(to as u8).unwrap();
                out = out.with(t);
                if occ.contains(t) {
                    break;
                }
                cur = to;
            }
        }
        out
    }

    #[test]
    fn sliders_match_square_by_square_walk() {
        for (x, y) in crate::bitboard::random_pairs().take(3000) {
            let occ = Bitboard::from_bits(((x as u128) << 64 | y as u128) & ((y as u128) << 3));
            for sq in Square::all() {
                let rook = [(0, 1), (1, 0), (0, -1), (-1, 0)];
                let bishop = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
                assert_eq!(rook_attacks(sq, occ), slow_slider(sq, occ, &rook));
                assert_eq!(bishop_attacks(sq, occ), slow_slider(sq, occ, &bishop));
                assert_eq!(
                    lance_attacks(Color::Black, sq, occ),
                    slow_slider(sq, occ, &[(0, -1)])
                );
                assert_eq!(
                    lance_attacks(Color::White, sq, occ),
                    slow_slider(sq, occ, &[(0, 1)])
                );
            }
        }
    }

    #[test]
    fn check_candidates_are_the_origins_of_one_step_checks() {
        use PieceKind::*;
        for color in [Color::Black, Color::White] {
            for kind in [
                Pawn, Knight, Silver, Gold, ProPawn, ProLance, ProKnight, ProSilver,
            ] {
                let promoted = kind.promote().unwrap_or(kind);
                for king in Square::all() {
                    let mut want = Bitboard::EMPTY;
                    for from in Square::all() {
                        for to in step_attacks(color, kind, from) {
                            if step_attacks(color, kind, to).contains(king)
                                || step_attacks(color, promoted, to).contains(king)
                            {
                                want = want.with(from);
                            }
                        }
                    }
                    assert_eq!(
                        check_candidates(color, kind, king),
                        want,
                        "{color:?} {kind:?} {king}"
                    );
                }
            }
            assert!(check_candidates(color, Rook, Square::all().next().unwrap()).is_empty());
        }
    }

    #[test]
    fn step_counts_in_the_middle() {
        let sq: Square = "5e".parse().unwrap();
        let n = |c, k| step_attacks(c, k, sq).count();
        assert_eq!(n(Color::Black, PieceKind::Pawn), 1);
        assert_eq!(n(Color::Black, PieceKind::Silver), 5);
        assert_eq!(n(Color::White, PieceKind::ProPawn), 6);
        assert_eq!(n(Color::Black, PieceKind::King), 8);
        let up: Square = "5d".parse().unwrap();
        assert!(step_attacks(Color::Black, PieceKind::Pawn, sq).contains(up));
        let down: Square = "5f".parse().unwrap();
        assert!(step_attacks(Color::White, PieceKind::Pawn, sq).contains(down));
        let nb: Square = "4c".parse().unwrap();
        assert!(step_attacks(Color::Black, PieceKind::Knight, sq).contains(nb));
    }

    #[test]
    fn between_and_line() {
        let a: Square = "1a".parse().unwrap();
        let b: Square = "9i".parse().unwrap();
        assert_eq!(between(a, b).count(), 7);
        assert_eq!(line(a, b).count(), 9);
        let c: Square = "2c".parse().unwrap();
        assert!(between(a, c).is_empty());
        assert!(line(a, c).is_empty());
        assert_eq!(between(a, a), Bitboard::EMPTY);
    }
}
