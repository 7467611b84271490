//! Fuzz the USI/SFEN reader: never panic, and a record it reads writes back to the same record.
#![no_main]

use koma_record::usi;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(read) = usi::read(text) {
        let written = usi::write(&read.record);
        let again =
            usi::read(&written).unwrap_or_else(|e| panic!("re-reading failed: {e}\n{written}"));
        assert_eq!(again.record, read.record, "{written}");
    }
    let _ = usi::read_lines(text);
});
