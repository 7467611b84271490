//! Fuzz the KIF reader: never panic, and a record it reads writes back to the same record.
#![no_main]

use koma_record::kif;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(read) = kif::read(text) {
        let written = kif::write(&read.record);
        let again =
            kif::read(&written).unwrap_or_else(|e| panic!("re-reading failed: {e}\n{written}"));
        assert_eq!(again.record, read.record, "{written}");
    }
});
