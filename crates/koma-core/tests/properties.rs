//! Property tests of koma-core over random playouts (proptest) from a set of varied start
//! positions, including kingless attackers (mate problems), positions with many pieces in hand
//! and positions in check. At every position of a playout:
//!
//! - do/undo of every legal move restores the position, its SFEN, key, checkers and pins exactly;
//! - the incremental key equals the key of the position rebuilt from its SFEN (the key covers
//!   board, hands and side to move, not the move number);
//! - SFEN round-trips through `Setup` and `Position`;
//! - generators: `All` has no duplicates and every move is legal; `Evasions` ∪ `NonEvasions` =
//!   `All` with `Evasions` empty when not in check and `NonEvasions` empty when in check;
//!   `Captures` ∪ `Quiets` = `All`, disjoint, and captures are exactly the moves onto an enemy
//!   piece; `Checks` = {m ∈ `All` : `gives_check(m)`}; `SkipUseless` ⊆ `All`;
//! - `gives_check(m)` equals "the opponent is in check after `m`" for every legal move, and
//!   `has_evasion` after it equals "in check with a legal move" by the full generator;
//! - `is_legal` agrees with the legal list on arbitrary 16-bit move encodings, and `is_legal`
//!   implies `is_pseudo_legal`.

use std::collections::BTreeSet;

use koma_core::{Color, Move, MoveFilter, NonPromotions, Position, Setup};
use proptest::prelude::*;

const STARTS: &[&str] = &[
    koma_core::STARTPOS_SFEN,
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    // Many pieces in hand on both sides.
    "4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
    // Attacker without a king (mate problem) and a defender with pieces in hand.
    "7nk/9/7P1/9/9/9/9/9/9 b RBG2S 1",
    "3sks3/9/4+P4/9/9/9/9/9/9 b 2G2rb2g2s4n4l17p 1",
    // In check at the start, with interpositions by drop and by move.
    "4k4/9/9/9/4r4/9/9/4K4/9 b GSNLP 1",
    "k8/9/9/9/4b4/9/9/1r7/4K4 b 2P 1",
    // Entering-king material.
    "+R+B2K4/4+P4/1+P1+P1+P3/9/9/9/9/9/4k4 b RB3GSP 1",
];

fn set(moves: impl IntoIterator<Item = Move>) -> BTreeSet<u16> {
    moves.into_iter().map(|m| m.bits()).collect()
}

/// Checks every property at one position; `probes` are arbitrary 16-bit move encodings.
fn check_position(pos: &Position, probes: &[u16]) {
    let sfen = pos.to_sfen();
    // SFEN round trip and key from scratch.
    let setup = Setup::from_sfen(&sfen).unwrap();
    assert_eq!(setup.to_sfen(), sfen);
    let rebuilt = Position::from_sfen(&sfen).unwrap();
    assert_eq!(&rebuilt, pos, "{sfen}");
    assert_eq!(
        rebuilt.key(),
        pos.key(),
        "incremental key differs from the key from scratch: {sfen}"
    );
    assert_eq!(rebuilt.checkers(), pos.checkers(), "{sfen}");
    assert_eq!(rebuilt.pinned(), pos.pinned(), "{sfen}");

    // Both colours' attackers of each square at once, with the full occupancy and with the
    // square's neighbours lifted (other blockers).
    for sq in koma_core::Square::all() {
        for occ in [
            pos.occupied(),
            pos.occupied() & !koma_core::attacks::king_attacks(sq),
        ] {
            assert_eq!(
                pos.attackers_to_both(sq, occ),
                pos.attackers_to(Color::Black, sq, occ) | pos.attackers_to(Color::White, sq, occ),
                "{sq} in {sfen}"
            );
        }
    }

    let all = pos.legal_moves();
    let all_set = set(all.iter().copied());
    assert_eq!(all_set.len(), all.len(), "duplicate moves in {sfen}");
    assert_eq!(pos.count_legal_moves(), all.len() as u64);
    assert_eq!(pos.has_legal_move(), !all.is_empty());
    assert_eq!(pos.has_evasion(), pos.in_check() && !all.is_empty());

    let ev = set(pos.moves(MoveFilter::Evasions).iter().copied());
    let nev = set(pos.moves(MoveFilter::NonEvasions).iter().copied());
    if pos.in_check() {
        assert!(nev.is_empty(), "NonEvasions in check: {sfen}");
        assert_eq!(ev, all_set, "Evasions != All in check: {sfen}");
    } else {
        assert!(ev.is_empty(), "Evasions when not in check: {sfen}");
        assert_eq!(nev, all_set, "NonEvasions != All: {sfen}");
    }

    let caps = set(pos.moves(MoveFilter::Captures).iter().copied());
    let quiets = set(pos.moves(MoveFilter::Quiets).iter().copied());
    assert!(caps.is_disjoint(&quiets), "{sfen}");
    assert_eq!(
        caps.union(&quiets).copied().collect::<BTreeSet<_>>(),
        all_set,
        "Captures ∪ Quiets != All: {sfen}"
    );
    for &m in all.iter() {
        let is_capture = m.from().is_some() && pos.piece_at(m.to()).is_some();
        assert_eq!(caps.contains(&m.bits()), is_capture, "{m} in {sfen}");
    }

    let checks = set(pos.moves(MoveFilter::Checks).iter().copied());
    let by_filter = set(all.iter().copied().filter(|&m| pos.gives_check(m)));
    assert_eq!(checks, by_filter, "Checks != filter(gives_check): {sfen}");

    let mut skip = Vec::new();
    pos.generate(MoveFilter::All, NonPromotions::SkipUseless, |m| {
        skip.push(m)
    });
    assert!(set(skip).is_subset(&all_set), "{sfen}");

    // Every legal move: legal, pseudo-legal, gives_check right, do/undo exact.
    let mut p = pos.clone();
    for &m in all.iter() {
        assert!(pos.is_pseudo_legal(m) && pos.is_legal(m), "{m} in {sfen}");
        let gives = pos.gives_check(m);
        p.do_move(m);
        assert_eq!(p.in_check(), gives, "gives_check({m}) wrong in {sfen}");
        // Early-exit answer test against the full generator, on every position one move on
        // (checks among them, and mates).
        assert_eq!(
            p.has_evasion(),
            gives && p.count_legal_moves() > 0,
            "has_evasion after {m} in {sfen}"
        );
        assert_eq!(p.last_move(), Some(m));
        assert_eq!(p.undo_move(), Some(m));
        assert_eq!(&p, pos, "do/undo {m} in {sfen}");
        assert_eq!(p.to_sfen(), sfen);
        assert_eq!(p.key(), pos.key(), "key after do/undo {m} in {sfen}");
        assert_eq!(
            (p.checkers(), p.pinned(), p.discoverers()),
            (pos.checkers(), pos.pinned(), pos.discoverers())
        );
    }

    // Arbitrary encodings: is_legal agrees with the generator.
    for &bits in probes {
        if let Some(m) = Move::from_bits(bits) {
            assert_eq!(
                pos.is_legal(m),
                all_set.contains(&m.bits()),
                "is_legal({m}) in {sfen}"
            );
            if pos.is_legal(m) {
                assert!(pos.is_pseudo_legal(m));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn playout_properties(
        start in 0..STARTS.len(),
        picks in prop::collection::vec(any::<u16>(), 0..80),
        probes in prop::collection::vec(any::<u16>(), 64),
    ) {
        let mut pos = Position::from_sfen(STARTS[start]).unwrap();
        let start_key = pos.key();
        let start_sfen = pos.to_sfen();
        let mut played = 0;
        for pick in picks {
            check_position(&pos, &probes);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.do_move(moves[pick as usize % moves.len()]);
            played += 1;
        }
        check_position(&pos, &probes);
        // Undoing the whole playout returns to the start exactly.
        for _ in 0..played {
            prop_assert!(pos.undo_move().is_some());
        }
        prop_assert!(pos.undo_move().is_none());
        prop_assert_eq!(pos.key(), start_key);
        prop_assert_eq!(pos.to_sfen(), start_sfen);
    }

    #[test]
    fn sfen_text_round_trips(sfen_pick in 0..STARTS.len(), side in any::<bool>(), ply in 1u32..100_000) {
        // The same board with the other side to move and another move number, when legal.
        let base = Setup::from_sfen(STARTS[sfen_pick]).unwrap();
        let mut s = base.clone();
        s.side_to_move = if side { koma_core::Color::Black } else { koma_core::Color::White };
        s.ply = ply;
        let text = s.to_sfen();
        prop_assert_eq!(Setup::from_sfen(&text).unwrap(), s.clone());
        if let Ok(pos) = Position::from_setup(&s) {
            prop_assert_eq!(pos.to_sfen(), text);
            prop_assert_eq!(pos.ply(), ply);
        }
    }
}

#[test]
fn key_ignores_move_number_but_not_side() {
    let a = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
    let b = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 77").unwrap();
    let c = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w P 1").unwrap();
    let d = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b p 1").unwrap();
    assert_eq!(a.key(), b.key());
    assert_ne!(a.key(), c.key());
    assert_ne!(a.key(), d.key());
}

#[test]
fn transposition_reaches_the_same_key() {
    let mut a = Position::startpos();
    let mut b = Position::startpos();
    for m in ["7g7f", "3c3d", "2g2f", "8c8d"] {
        assert!(a.play(m.parse().unwrap()));
    }
    for m in ["2g2f", "8c8d", "7g7f", "3c3d"] {
        assert!(b.play(m.parse().unwrap()));
    }
    assert_eq!(a.key(), b.key());
    assert_eq!(a, b);
}

#[test]
fn kingless_attacker_round_trips_after_its_move() {
    // A mate problem: Black (the attacker) has no king. After Black's move White is to move and
    // the side not to move has no king; that position must still read back from its own SFEN.
    let mut pos = Position::from_sfen("7nk/9/7P1/9/9/9/9/9/9 b RBG2S 1").unwrap();
    assert!(pos.play("G*2b".parse().unwrap()));
    let sfen = pos.to_sfen();
    let back = Position::from_sfen(&sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    assert_eq!(back, pos);
    assert_eq!(back.key(), pos.key());
    // A board with no king at all is still rejected.
    assert!(Position::from_sfen("9/9/9/9/4p4/9/9/9/9 b - 1").is_err());
    assert!(Position::from_sfen("9/9/9/9/4p4/9/9/9/9 w - 1").is_err());
}
