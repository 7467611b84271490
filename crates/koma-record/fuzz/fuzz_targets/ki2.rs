//! Fuzz the KI2 reader: never panic, and a record it reads writes back to the same record.
#![no_main]

use koma_record::ki2;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(read) = ki2::read(text) {
        let written = ki2::write(&read.record);
        let again =
            ki2::read(&written).unwrap_or_else(|e| panic!("re-reading failed: {e}\n{written}"));
        assert_eq!(again.record, read.record, "{written}");
    }
});
