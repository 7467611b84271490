//! Fuzz what `koma convert` does with arbitrary bytes: the one input call (detecting encoding
//! and format), every record read, and every format written. Never panic.
#![no_main]

use koma_record::input::{Options, Records};
use koma_record::{Format, encoding};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(records) = Records::new(data, None, Options::default()) else {
        return;
    };
    for item in records.take(50) {
        let record = match item {
            Ok(read) => read.record,
            Err(e) => match e.partial {
                Some(r) => *r,
                None => continue,
            },
        };
        for f in Format::ALL {
            let _ = encoding::encode(&f.write(&record), encoding::Encoding::ShiftJis);
        }
    }
});
