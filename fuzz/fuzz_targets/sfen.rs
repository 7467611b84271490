//! Fuzz target: `Setup::from_sfen` on arbitrary text, then, for every text that parses, the
//! invariants a reader of SFEN relies on: canonical SFEN reads back to the same setup; a legal
//! setup becomes a `Position` that writes the same SFEN and whose key matches a rebuilt one;
//! every generator's moves are legal, checks and evasions agree with `gives_check` and `All`;
//! then a few moves (chosen by the input's last bytes) are
//! played, checking `gives_check`, the SFEN round trip after each, and the game status.
#![no_main]

use koma_core::{MoveFilter, NonPromotions, Position, Setup};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let setup = match Setup::from_sfen(text) {
        Ok(s) => s,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    let canon = setup.to_sfen();
    let again = Setup::from_sfen(&canon).expect("canonical SFEN reads back");
    assert_eq!(again, setup, "{canon}");
    let mut pos = match Position::from_setup(&setup) {
        Ok(p) => p,
        Err(e) => {
            assert!(!e.problems.is_empty());
            let _ = e.to_string();
            return;
        }
    };
    assert_eq!(pos.to_sfen(), canon);
    let all = pos.legal_moves();
    for filter in [
        MoveFilter::All,
        MoveFilter::Evasions,
        MoveFilter::NonEvasions,
        MoveFilter::Captures,
        MoveFilter::Quiets,
        MoveFilter::Checks,
    ] {
        pos.generate(filter, NonPromotions::SkipUseless, |m| {
            assert!(all.contains(&m), "{m} in {canon}")
        });
        for &m in pos.moves(filter).iter() {
            assert!(pos.is_legal(m), "{filter:?} {m} in {canon}");
        }
    }
    // The set-wise generators against the move-by-move definitions.
    let checks: Vec<_> = all
        .iter()
        .copied()
        .filter(|&m| pos.gives_check(m))
        .collect();
    let generated = pos.moves(MoveFilter::Checks);
    assert_eq!(generated.len(), checks.len(), "checks in {canon}");
    assert!(
        generated.iter().all(|&m| pos.gives_check(m)),
        "checks in {canon}"
    );
    let split = pos.moves(MoveFilter::Evasions).len() + pos.moves(MoveFilter::NonEvasions).len();
    assert_eq!(split, all.len(), "evasions + non-evasions in {canon}");
    assert_eq!(
        pos.count_legal_moves(),
        all.len() as u64,
        "count in {canon}"
    );
    for &b in data.iter().rev().take(6) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            assert!(pos.status() != koma_core::Status::Ongoing);
            break;
        }
        let m = moves[b as usize % moves.len()];
        let gives = pos.gives_check(m);
        pos.do_move(m);
        assert_eq!(pos.in_check(), gives, "{m} in {canon}");
        let s = pos.to_sfen();
        let back =
            Position::from_sfen(&s).unwrap_or_else(|e| panic!("{s} after {m} from {canon}: {e}"));
        assert_eq!(back.key(), pos.key(), "{s}");
        assert_eq!(
            back.checkers(),
            pos.checkers(),
            "checkers after {m} from {canon}"
        );
        let _ = pos.status();
        let _ = pos.can_declare_win();
    }
    while pos.undo_move().is_some() {}
    assert_eq!(pos.to_sfen(), canon);
});
