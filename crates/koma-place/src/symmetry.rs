//! The symmetries of a placement the search uses: the left-right mirror and, two-directionally
//! with free colours, the 180° turn with colours swapped (and both). The search keeps one
//! placement of each class and weighs it by the size of its class.

use crate::{Color, Geometry, PlacedPiece};

/// Symmetry elements as bits: identity, mirror, 180° turn with colours swapped, both.
pub(crate) const ID: u8 = 1;
pub(crate) const MIRROR: u8 = 2;
pub(crate) const TURN: u8 = 4;
pub(crate) const BOTH: u8 = 8;

/// How many placements a canonical one stands for: the elements used to cut the search (`sym`)
/// over those of them that fix it (`stab`).
pub(crate) fn weight(sym: u8, stab: u8) -> u128 {
    (sym.count_ones() / (stab & sym).count_ones()) as u128
}

/// The image of `p` under `element` (one of [`MIRROR`], [`TURN`], [`BOTH`]) on `geo`.
pub(crate) fn image(geo: &Geometry, element: u8, p: PlacedPiece) -> PlacedPiece {
    let mut sq = p.square as usize;
    let mut color = p.color;
    if element & (MIRROR | BOTH) != 0 {
        sq = geo.mirror(sq);
    }
    if element & (TURN | BOTH) != 0 {
        sq = geo.rotate(sq);
        if !p.kind.is_direction_free() {
            color = color.flip();
        }
    }
    PlacedPiece {
        square: sq as u8,
        color,
        ..p
    }
}

/// At the end of a group: is it the least of its images under the stabiliser, and which
/// elements still fix the placement? `None` when another image comes first. `sym` holds the
/// elements that cut the search, `stab` those that fixed the placement before this group.
pub(crate) fn canonical(geo: &Geometry, sym: u8, group: &[PlacedPiece], stab: u8) -> Option<u8> {
    let key = |p: &PlacedPiece| (p.square as u16) * 2 + (p.color == Color::White) as u16;
    let mut new_stab = ID;
    let mut own = [0u16; 81];
    let mut img = [0u16; 81];
    let n = group.len();
    for (o, p) in own.iter_mut().zip(group) {
        *o = key(p);
    }
    for element in [MIRROR, TURN, BOTH] {
        if stab & element == 0 {
            continue;
        }
        for (o, p) in img.iter_mut().zip(group) {
            *o = key(&image(geo, element, *p));
        }
        img[..n].sort_unstable();
        match img[..n].cmp(&own[..n]) {
            std::cmp::Ordering::Less if sym & element != 0 => return None,
            std::cmp::Ordering::Equal => new_stab |= element,
            _ => {}
        }
    }
    Some(new_stab)
}
