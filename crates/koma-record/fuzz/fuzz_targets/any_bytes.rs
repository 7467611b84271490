//! Fuzz what `koma convert` does with arbitrary bytes: decode (detecting the encoding), detect
//! the format, read, and write every format. Never panic.
#![no_main]

use koma_record::{Format, encoding};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok((text, _)) = encoding::decode(data, None) else {
        return;
    };
    let format = Format::detect(&text);
    let record = match format.read(&text) {
        Ok(read) => read.record,
        Err(e) => match e.partial {
            Some(r) => *r,
            None => return,
        },
    };
    for f in Format::ALL {
        let _ = encoding::encode(&f.write(&record), encoding::Encoding::ShiftJis);
    }
});
