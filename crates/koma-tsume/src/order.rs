//! The canonical move order: how the answer chooses among moves that are equal by the rules.

use koma_core::{Move, MoveFilter, MoveList, NonPromotions, Position};

/// Rank of a move in the canonical order, lower first. Board moves come before drops; board
/// moves by origin square, then destination, in USI square order (`1a`, `1b`, ..., `9i`), a
/// promotion before the same move unpromoted; drops by kind from the weakest (pawn, lance,
/// knight, silver, gold, bishop, rook), then by square.
pub(crate) fn rank(m: Move) -> u32 {
    const DROP_RANK: [u32; 7] = [0, 1, 2, 3, 5, 6, 4];
    match (m.from(), m.drop_kind()) {
        (Some(from), _) => {
            (from.index() as u32 * 81 + m.to().index() as u32) * 2 + !m.is_promotion() as u32
        }
        (None, Some(k)) => 1 << 16 | (DROP_RANK[k.index().min(6)] * 81 + m.to().index() as u32),
        (None, None) => u32::MAX,
    }
}

/// The checks (attacker to move) or evasions (defender to move) of `pos` in canonical order.
pub(crate) fn moves(pos: &Position, attacker_to_move: bool) -> Vec<Move> {
    let mut list = MoveList::new();
    let filter = if attacker_to_move {
        MoveFilter::Checks
    } else {
        MoveFilter::Evasions
    };
    pos.generate(filter, NonPromotions::All, |m| list.push(m));
    let mut v: Vec<Move> = list.to_vec();
    v.sort_by_key(|&m| rank(m));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_moves_first_promotions_first_weak_drops_first() {
        let m = |s: &str| s.parse::<Move>().unwrap();
        let mut v = [
            m("R*5b"),
            m("P*5b"),
            m("2c2b"),
            m("2c2b+"),
            m("1c1b"),
            m("G*5b"),
        ];
        v.sort_by_key(|&x| rank(x));
        let s: Vec<String> = v.iter().map(|x| x.to_string()).collect();
        assert_eq!(s, ["1c1b", "2c2b+", "2c2b", "P*5b", "G*5b", "R*5b"]);
    }
}
