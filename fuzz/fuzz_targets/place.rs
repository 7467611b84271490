//! Fuzz koma-place's text inputs: the piece set syntax (a set read writes back to itself, an error
//! points inside the text) and, on a tiny board, the problem built from it and a bounded search;
//! then the same bytes as a checkpoint file of a fixed problem (an error names a line of it).
#![no_main]

use koma_place::checkpoint::{self, CheckpointHeader};
use koma_place::{Geometry, Mode, Options, PieceSet, PlaceError, Problem, solve};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        piece_set(text);
    }
    let problem = Problem::new(
        "R2B2G2".parse().expect("a valid set"),
        Geometry::new(5, 5).expect("a valid board"),
        true,
    )
    .expect("a valid problem");
    let expected = CheckpointHeader::new(&problem, 64);
    match checkpoint::read(data, &expected) {
        Ok((header, tasks)) => {
            assert!(header.is_some_and(|h| h.same_problem(&expected)) || tasks.is_empty());
            assert!(tasks.iter().all(|t| t.task < t.of));
        }
        Err(e) => {
            assert!(e.line >= 1 && e.line <= data.split(|&b| b == b'\n').count());
            let _ = e.to_string();
        }
    }
});

fn piece_set(text: &str) {
    let set = match text.parse::<PieceSet>() {
        Ok(set) => set,
        Err(PlaceError::UnknownLetter { letter, position }) => {
            assert_eq!(text.chars().nth(position), Some(letter));
            return;
        }
        Err(PlaceError::BadPromotion { position }) => {
            assert_eq!(text.chars().nth(position), Some('+'));
            return;
        }
        Err(PlaceError::BadColourMark { position }) => {
            assert_eq!(text.chars().nth(position), Some('^'));
            return;
        }
        Err(e) => {
            assert_eq!(e, PlaceError::Empty);
            return;
        }
    };
    assert_eq!(set.to_string().parse::<PieceSet>(), Ok(set.clone()));
    let both_ways = text.len().is_multiple_of(2);
    let Ok(problem) = Problem::new(set, Geometry::new(3, 3).expect("a valid board"), both_ways)
    else {
        return;
    };
    let opts = Options {
        mode: Mode::Enumerate { limit: Some(4) },
        threads: 1,
        ..Options::default()
    };
    let out = solve(&problem, &opts, &|p| {
        assert!(p.pieces().iter().all(|q| q.square < 9))
    });
    assert!(out.count <= 4);
}
