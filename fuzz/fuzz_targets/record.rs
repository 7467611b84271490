//! Fuzz the record readers: the text goes to each of the CSA, KIF, KI2 and USI readers; none may
//! panic, and a record one of them reads writes back in that format and reads again to the same
//! record (USI writes no header: there, the same initial position, moves and end).
//! The text is also read as a file of SFEN/USI lines, which never panics.
#![no_main]

use koma_record::Format;
use koma_record::input::{Options, Records};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for format in [Format::Csa, Format::Kif, Format::Ki2, Format::Usi] {
        let Ok(read) = format.read(text) else {
            continue;
        };
        let written = format.write(&read.record);
        let again = format
            .read(&written)
            .unwrap_or_else(|e| panic!("{}: re-reading failed: {e}\n{written}", format.name()));
        if format == Format::Usi {
            assert_eq!(again.record.initial(), read.record.initial(), "{written}");
            assert_eq!(
                again.record.main().moves(),
                read.record.main().moves(),
                "{written}"
            );
            assert_eq!(
                again.record.main().end(),
                read.record.main().end(),
                "{written}"
            );
        } else {
            assert_eq!(again.record, read.record, "{}: {written}", format.name());
        }
    }
    let options = Options {
        format: Some(Format::Sfen),
        encoding: None,
    };
    if let Ok(records) = Records::new(data, None, options) {
        records.for_each(drop);
    }
});
