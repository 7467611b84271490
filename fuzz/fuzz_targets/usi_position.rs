//! Fuzz target: `usi::parse_position` on arbitrary text (`position startpos|sfen ... moves ...`).
//! It must return a position or a typed error, never panic; a position it returns must write an
//! SFEN that reads back with the same key.
#![no_main]

use koma_core::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match koma_core::usi::parse_position(text) {
        Ok(pos) => {
            let s = pos.to_sfen();
            let back = Position::from_sfen(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!(back.key(), pos.key(), "{s}");
            let _ = pos.status();
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
