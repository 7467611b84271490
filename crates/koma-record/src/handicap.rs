//! Handicap starts (駒落ち) by their KIF names (手合割).
//!
//! In a handicap game the stronger player (上手) takes White's side and moves first.

use koma_core::Position;

/// (name, SFEN) of the starts KIF names in its 手合割 header. The removed pieces are counted
/// from 上手's side: 香落ち takes away the lance on 1一 (上手's left).
pub const HANDICAPS: [(&str, &str); 15] = [
    (
        "平手",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    ),
    (
        "香落ち",
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "右香落ち",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "角落ち",
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛車落ち",
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛香落ち",
        "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "二枚落ち",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "三枚落ち",
        "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "四枚落ち",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "五枚落ち",
        "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左五枚落ち",
        "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "六枚落ち",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左七枚落ち",
        "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "右七枚落ち",
        "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "八枚落ち",
        "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
];

/// The ten-piece handicap (十枚落ち): only 上手's king is left.
const TEN: (&str, &str) = (
    "十枚落ち",
    "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
);

fn all() -> impl Iterator<Item = (&'static str, &'static str)> {
    HANDICAPS.into_iter().chain([TEN])
}

/// The start position a 手合割 name stands for (`平手`, `香落ち`, ... `十枚落ち`).
///
/// ```
/// let pos = koma_record::handicap::position("二枚落ち").unwrap();
/// assert_eq!(pos.side_to_move(), koma_core::Color::White);
/// assert_eq!(koma_record::handicap::name(&pos), Some("二枚落ち"));
/// ```
pub fn position(name: &str) -> Option<Position> {
    let name = if name == "平手" || name == "平手（先手）" {
        "平手"
    } else {
        name
    };
    all()
        .find(|(n, _)| *n == name)
        .and_then(|(_, sfen)| Position::from_sfen(sfen).ok())
}

/// The 手合割 name of a start position, if it is one of the standard starts.
pub fn name(pos: &Position) -> Option<&'static str> {
    let sfen = pos.to_sfen();
    all().find(|(_, s)| *s == sfen).map(|(n, _)| n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_start_is_legal_and_named() {
        for (n, _) in all() {
            let pos = position(n).unwrap();
            assert_eq!(name(&pos), Some(n));
            assert!(!pos.legal_moves().is_empty());
        }
    }
}
