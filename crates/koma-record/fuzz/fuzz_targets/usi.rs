//! Fuzz the USI/SFEN reader: never panic, and a record it reads writes back to the same
//! position and moves (USI writes no end token), and reading many lines never panics.
#![no_main]

use koma_record::input::{Options, Records};
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
        assert_eq!(again.record.initial(), read.record.initial(), "{written}");
        assert_eq!(again.record.main().moves(), read.record.main().moves(), "{written}");
    }
    let options = Options {
        format: Some(koma_record::Format::Sfen),
        encoding: None,
    };
    if let Ok(records) = Records::new(data, None, options) {
        records.for_each(drop);
    }
});
