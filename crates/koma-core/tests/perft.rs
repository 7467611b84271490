//! Perft against published counts. The deep cases are `#[ignore]`d and run in release by `.ci/run`.

use koma_core::Position;
use koma_core::perft::{Counting, divide, divide_threaded, perft};

const STARTPOS_COUNTS: [u64; 6] = [30, 900, 25_470, 719_731, 19_861_490, 547_581_517];
const MIDGAME: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1";
const MIDGAME_COUNTS: [u64; 4] = [207, 28_684, 4_809_015, 516_925_165];
const MAX_MOVES: &str = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1";
const MAX_MOVES_COUNTS: [u64; 3] = [593, 105_677, 53_393_368];

fn check(sfen: &str, counts: &[u64], depths: std::ops::RangeInclusive<usize>) {
    let pos = Position::from_sfen(sfen).unwrap();
    for d in depths {
        assert_eq!(perft(&pos, d as u32), counts[d - 1], "{sfen} depth {d}");
    }
}

#[test]
fn startpos_shallow() {
    check(koma_core::STARTPOS_SFEN, &STARTPOS_COUNTS, 1..=3);
}

#[test]
fn midgame_shallow() {
    check(MIDGAME, &MIDGAME_COUNTS, 1..=2);
}

#[test]
fn max_moves_shallow() {
    check(MAX_MOVES, &MAX_MOVES_COUNTS, 1..=2);
}

/// The split by root move adds up to the published count, is the same on any number of threads
/// and with either way of counting, and names each legal move once.
#[test]
fn divide_adds_up_on_any_thread_count() {
    for (sfen, counts) in [
        (MIDGAME, &MIDGAME_COUNTS[..]),
        (MAX_MOVES, &MAX_MOVES_COUNTS),
    ] {
        let pos = Position::from_sfen(sfen).unwrap();
        let split = divide(&pos, 2);
        assert_eq!(
            split.iter().map(|&(_, n)| n).sum::<u64>(),
            counts[1],
            "{sfen}"
        );
        assert_eq!(split.len() as u64, counts[0]);
        assert!(
            split
                .iter()
                .map(|&(m, _)| m)
                .eq(pos.legal_moves().iter().copied())
        );
        for threads in [0, 1, 2, 7, 1000] {
            for counting in [Counting::Bulk, Counting::Materialized] {
                assert_eq!(
                    divide_threaded(&pos, 2, counting, threads),
                    split,
                    "{threads}"
                );
            }
        }
        assert!(divide(&pos, 0).is_empty());
        assert!(divide(&pos, 1).iter().all(|&(_, n)| n == 1));
    }
}

#[test]
fn pawn_drop_mate_is_not_generated() {
    // A generator that allows the pawn-drop mate counts 86.
    check("7lk/9/8S/9/9/9/9/7L1/8K b P 1", &[85], 1..=1);
}

#[test]
#[ignore = "heavy: run in release"]
fn startpos_deep() {
    check(koma_core::STARTPOS_SFEN, &STARTPOS_COUNTS, 4..=5);
}

#[test]
#[ignore = "heavy: run in release"]
fn midgame_deep() {
    check(MIDGAME, &MIDGAME_COUNTS, 3..=3);
}

#[test]
#[ignore = "heavy: run in release"]
fn max_moves_deep() {
    check(MAX_MOVES, &MAX_MOVES_COUNTS, 3..=3);
}

#[test]
#[ignore = "very heavy: minutes in release"]
fn startpos_depth6_and_midgame_depth4() {
    check(koma_core::STARTPOS_SFEN, &STARTPOS_COUNTS, 6..=6);
    check(MIDGAME, &MIDGAME_COUNTS, 4..=4);
}
