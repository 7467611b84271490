//! Bad input never panics: arbitrary text and valid piece sets mutated character by character,
//! fed to the piece set syntax, to problems on every board size, and arbitrary bytes and mutated
//! checkpoints fed to the checkpoint reader. Every rejection is a typed error that points inside
//! the input; every acceptance is a value that writes back to itself. Runs on the stable toolchain
//! in `cargo test` (the cargo-fuzz target `place` in fuzz/ goes further on nightly).

use koma_place::checkpoint::{self, CheckpointHeader, LineError};
use koma_place::{Geometry, Mode, Options, PieceSet, PlaceError, Problem, solve};
use koma_test_support::mutated_text as mutated;
use proptest::prelude::*;

/// Valid sets the mutations start from.
const SETS: &[&str] = &[
    "P18L4N4S4G4K2R2B2",
    "^P9p9L2l2N2n2S2s2G4K2R2B2",
    "+P8P10+L4+N4+S4G4K2+R2+B2",
    "X30",
    "R2B2G2, ^s k",
];

/// A checkpoint of `R2B2G2` on 5×5, both ways, as written by a count split into 64.
const CHECKPOINT: &str = concat!(
    r#"{"koma_place_checkpoint":1,"koma":"0.1.0","pieces":"G2B2R2","both_ways":true,"split":64,"files":5,"ranks":5}"#,
    "\n",
    r#"{"task":0,"of":10,"count":12,"mirror_fixed":0,"nodes":39}"#,
    "\n",
    r#"{"task":3,"of":10,"count":340282366920938463463374607431768211455,"mirror_fixed":2,"nodes":7}"#,
    "\n",
);

/// Text from the syntax's own alphabet, so that it gets past the first character often.
fn set_soup() -> impl Strategy<Value = String> {
    "[PLNSGKBRXplnsgkbrx+^0-9, ]{0,40}"
}

/// A few pieces (counts of one, now and then a digit), for boards small enough to solve on.
fn small_set_soup() -> impl Strategy<Value = String> {
    "[PLNSGKBRXplnsgkbrx+^]{1,5}[1-3]?"
}

/// A set read from `text` writes a canonical spelling that reads back to the same set; a rejected
/// text names a position inside it.
fn check_set(text: &str) -> Result<(), TestCaseError> {
    let chars = text.chars().count();
    match text.parse::<PieceSet>() {
        Ok(set) => {
            prop_assert!(!set.is_empty());
            let written = set.to_string();
            prop_assert_eq!(written.parse::<PieceSet>(), Ok(set));
        }
        Err(PlaceError::UnknownLetter { letter, position }) => {
            prop_assert!(position < chars);
            prop_assert_eq!(text.chars().nth(position), Some(letter));
        }
        Err(PlaceError::BadPromotion { position }) => {
            prop_assert_eq!(text.chars().nth(position), Some('+'));
        }
        Err(PlaceError::BadColourMark { position }) => {
            prop_assert_eq!(text.chars().nth(position), Some('^'));
        }
        Err(PlaceError::Empty) => {}
        Err(e) => prop_assert!(false, "a piece set alone cannot fail with {e:?}"),
    }
    Ok(())
}

/// A set on a board of any size, one way or both: a problem, or a typed refusal; on boards of at
/// most 3×3 the problem is also solved (a few hundred nodes at most) and its placements are on
/// the board and hold every piece.
fn check_problem(text: &str, files: u8, ranks: u8, both_ways: bool) -> Result<(), TestCaseError> {
    let Ok(set) = text.parse::<PieceSet>() else {
        return Ok(());
    };
    let geometry = match Geometry::new(files, ranks) {
        Ok(g) => g,
        Err(e) => {
            prop_assert_eq!(e, PlaceError::BadBoard { files, ranks });
            return Ok(());
        }
    };
    let squares = geometry.len();
    let problem = match Problem::new(set.clone(), geometry, both_ways) {
        Ok(p) => p,
        Err(PlaceError::TooMany { pieces, .. }) => {
            prop_assert!(pieces as usize > squares);
            return Ok(());
        }
        Err(PlaceError::WhiteInOneWay { .. }) => {
            prop_assert!(!both_ways);
            return Ok(());
        }
        Err(e) => return Err(TestCaseError::fail(format!("{e:?}"))),
    };
    if files <= 3 && ranks <= 3 {
        let opts = Options {
            mode: Mode::Enumerate { limit: Some(4) },
            ..Options::default()
        };
        let found = std::sync::Mutex::new(Vec::new());
        let out = solve(&problem, &opts, &|p| found.lock().unwrap().push(p.clone()));
        let found = found.into_inner().unwrap();
        prop_assert_eq!(found.len() as u128, out.count);
        for placement in &found {
            prop_assert_eq!(placement.pieces().len() as u32, set.len());
            prop_assert!(
                placement
                    .pieces()
                    .iter()
                    .all(|p| usize::from(p.square) < squares)
            );
        }
    }
    Ok(())
}

/// Whatever the bytes, the checkpoint reader answers: lines of the expected problem, or an error
/// naming a line of the input.
fn check_checkpoint(bytes: &[u8]) -> Result<(), TestCaseError> {
    let problem = Problem::new(
        "R2B2G2".parse().unwrap(),
        Geometry::new(5, 5).unwrap(),
        true,
    )
    .unwrap();
    let expected = CheckpointHeader::new(&problem, 64);
    let lines = bytes.split(|&b| b == b'\n').count();
    match checkpoint::read(bytes, &expected) {
        Ok((header, tasks)) => {
            if let Some(header) = header {
                prop_assert!(header.same_problem(&expected));
            } else {
                prop_assert!(tasks.is_empty());
            }
            prop_assert!(tasks.iter().all(|t| t.task < t.of));
        }
        Err(e) => {
            prop_assert!(e.line >= 1 && e.line <= lines, "line {} of {lines}", e.line);
            let _ = e.to_string();
            if let LineError::OtherProblem { found, .. } = &e.error {
                prop_assert!(!found.same_problem(&expected));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_text_as_a_set(text in any::<String>()) {
        check_set(&text)?;
    }

    #[test]
    fn set_soup_as_a_set(text in set_soup()) {
        check_set(&text)?;
    }

    #[test]
    fn mutated_sets(text in mutated(SETS)) {
        check_set(&text)?;
    }

    #[test]
    fn sets_on_every_board(
        text in set_soup(),
        files in 0u8..12,
        ranks in 0u8..12,
        both_ways in any::<bool>(),
    ) {
        check_problem(&text, files, ranks, both_ways)?;
    }

    #[test]
    fn small_sets_on_small_boards(
        text in small_set_soup(),
        files in 1u8..=3,
        ranks in 1u8..=3,
        both_ways in any::<bool>(),
    ) {
        check_problem(&text, files, ranks, both_ways)?;
    }

    #[test]
    fn arbitrary_bytes_as_a_checkpoint(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        check_checkpoint(&bytes)?;
    }

    #[test]
    fn mutated_checkpoints(text in mutated(&[CHECKPOINT])) {
        check_checkpoint(text.as_bytes())?;
    }
}

/// The unmutated checkpoint reads (the mutations above start from a valid file).
#[test]
fn the_seed_checkpoint_reads() {
    let problem = Problem::new(
        "R2B2G2".parse().unwrap(),
        Geometry::new(5, 5).unwrap(),
        true,
    )
    .unwrap();
    let (header, tasks) =
        checkpoint::read(CHECKPOINT.as_bytes(), &CheckpointHeader::new(&problem, 64)).unwrap();
    assert_eq!(header.unwrap().split, 64);
    assert_eq!(tasks.len(), 2);
    assert_eq!(tasks[1].count, u128::MAX);
}
