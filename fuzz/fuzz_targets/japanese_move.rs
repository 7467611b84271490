//! Fuzz Japanese and Western move reading in a few positions: never panic, and a move read
//! names itself back.
#![no_main]

use koma_core::Position;
use koma_record::{japanese, western};
use libfuzzer_sys::fuzz_target;

const POSITIONS: [&str; 4] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "4k4/9/9/9/9/9/3S1S3/9/3S1S2K b G 1",
    "3g1g3/9/9/9/9/9/9/9/K3k4 w - 1",
    "k8/9/9/9/9/9/9/8+R/4+R3K b B 1",
];

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(pos) = Position::from_sfen(POSITIONS[which as usize % POSITIONS.len()]) else {
        return;
    };
    if let Ok(m) = japanese::parse_move(&pos, text) {
        assert!(pos.is_legal(m));
        assert_eq!(
            japanese::parse_move(&pos, &japanese::move_name(&pos, m)),
            Ok(m)
        );
    }
    if let Ok(m) = western::parse_move(&pos, text) {
        assert!(pos.is_legal(m));
        assert_eq!(
            western::parse_move(&pos, &western::move_name(&pos, m)),
            Ok(m)
        );
    }
});
