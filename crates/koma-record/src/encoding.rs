//! Text encodings of record files: UTF-8 (with or without a byte-order mark), Shift-JIS (as
//! Windows writes it, CP932) and EUC-JP (older tournament CSA files).
//!
//! `.kif` and `.ki2` files are traditionally Shift-JIS, `.kifu` and `.ki2u` UTF-8; reading never
//! trusts the extension, it looks at the bytes ([`detect`]).

use std::fmt;

use crate::{ErrorKind, ReadError};

/// A text encoding of a record file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// UTF-8.
    Utf8,
    /// Shift-JIS (CP932).
    ShiftJis,
    /// EUC-JP.
    EucJp,
}

impl Encoding {
    /// Every encoding.
    pub const ALL: [Encoding; 3] = [Encoding::Utf8, Encoding::ShiftJis, Encoding::EucJp];

    /// Reads an encoding name: `utf-8`, `utf8`, `shift-jis`, `shift_jis`, `sjis`, `cp932`,
    /// `windows-31j`, `euc-jp`, `eucjp` (any case).
    pub fn from_name(name: &str) -> Option<Encoding> {
        match name.to_ascii_lowercase().replace('_', "-").as_str() {
            "utf-8" | "utf8" => Some(Encoding::Utf8),
            "shift-jis" | "sjis" | "cp932" | "windows-31j" => Some(Encoding::ShiftJis),
            "euc-jp" | "eucjp" => Some(Encoding::EucJp),
            _ => None,
        }
    }

    /// The usual encoding for writing a file with this name: Shift-JIS for `.kif` and `.ki2`,
    /// UTF-8 otherwise.
    pub fn for_path(path: &str) -> Encoding {
        let lower = path.to_ascii_lowercase();
        if lower.ends_with(".kif") || lower.ends_with(".ki2") {
            Encoding::ShiftJis
        } else {
            Encoding::Utf8
        }
    }

    /// The encoding's usual name: `UTF-8`, `Shift-JIS`, `EUC-JP`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::ShiftJis => "Shift-JIS",
            Encoding::EucJp => "EUC-JP",
        }
    }

    fn coder(self) -> &'static encoding_rs::Encoding {
        match self {
            Encoding::Utf8 => encoding_rs::UTF_8,
            Encoding::ShiftJis => encoding_rs::SHIFT_JIS,
            Encoding::EucJp => encoding_rs::EUC_JP,
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

const BOM: &[u8] = &[0xef, 0xbb, 0xbf];

/// Whether `bytes` decode in `encoding` without an error, allowing a character cut at the end
/// (the bytes may be the head of a longer input).
fn decodes(bytes: &[u8], encoding: Encoding) -> Option<String> {
    let mut decoder = encoding.coder().new_decoder_without_bom_handling();
    let mut out = String::with_capacity(bytes.len() * 3 / 2 + 16);
    let (result, _) = decoder.decode_to_string_without_replacement(bytes, &mut out, false);
    matches!(result, encoding_rs::DecoderResult::InputEmpty).then_some(out)
}

/// How much a decoded text looks like a Japanese shogi record: kanji, kana and full-width
/// forms count for, half-width katakana (what EUC-JP bytes become when read as Shift-JIS) and
/// rare symbols against.
fn plausibility(text: &str) -> i64 {
    text.chars()
        .map(|c| match c as u32 {
            0x3040..=0x30ff | 0x4e00..=0x9fff | 0xff01..=0xff5e | 0x25b2 | 0x25b3 => 2,
            0xff61..=0xff9f => -3,
            0x80..=0x2fff => -1,
            _ => 0,
        })
        .sum()
}

/// Guesses the encoding of bytes (the whole input or its first part): UTF-8 if they start with
/// a UTF-8 byte-order mark or are valid UTF-8; otherwise Shift-JIS or EUC-JP, whichever decodes
/// without error and reads more like Japanese text (Shift-JIS when in doubt).
///
/// ```
/// use koma_record::encoding::{detect, Encoding};
/// assert_eq!(detect("７六歩".as_bytes()), Encoding::Utf8);
/// assert_eq!(detect(&[0x82, 0xa0]), Encoding::ShiftJis); // あ
/// assert_eq!(detect(&[0xc0, 0xe8, 0xbc, 0xea]), Encoding::EucJp); // 先手
/// ```
pub fn detect(bytes: &[u8]) -> Encoding {
    if bytes.starts_with(BOM) || decodes(bytes, Encoding::Utf8).is_some() {
        return Encoding::Utf8;
    }
    match (
        decodes(bytes, Encoding::ShiftJis),
        decodes(bytes, Encoding::EucJp),
    ) {
        (Some(sjis), Some(euc)) if plausibility(&euc) > plausibility(&sjis) => Encoding::EucJp,
        (None, Some(_)) => Encoding::EucJp,
        _ => Encoding::ShiftJis,
    }
}

/// Decoded text, and how much of it is good.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The text; a byte-order mark is dropped.
    pub text: String,
    /// The encoding read.
    pub encoding: Encoding,
    /// Where the bytes stop being valid in the encoding: the error (line and column of the first
    /// bad byte); `text` then holds the whole lines before it.
    pub error: Option<ReadError>,
}

/// Decodes bytes (detecting the encoding when `encoding` is `None`); a byte-order mark is
/// dropped. Bytes that are not valid in the encoding are an error naming their line and column;
/// the whole lines before them are kept in [`Decoded::text`] so a reader can still read them.
///
/// ```
/// use koma_record::encoding::{decode, Encoding};
/// let cut = [b"ok\n".as_slice(), &[0x82]].concat(); // a Shift-JIS character cut in two
/// let d = decode(&cut, Some(Encoding::ShiftJis));
/// assert_eq!(d.text, "ok\n");
/// assert_eq!(d.error.unwrap().line, 2);
/// ```
pub fn decode(bytes: &[u8], encoding: Option<Encoding>) -> Decoded {
    let encoding = encoding.unwrap_or_else(|| detect(bytes));
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    let mut decoder = encoding.coder().new_decoder_without_bom_handling();
    let mut text = String::with_capacity(
        decoder
            .max_utf8_buffer_length_without_replacement(bytes.len())
            .unwrap_or(bytes.len()),
    );
    let (result, read) = decoder.decode_to_string_without_replacement(bytes, &mut text, true);
    if let encoding_rs::DecoderResult::Malformed(bad, after) = result {
        // `text` holds what decoded before the bad bytes, which end `after` bytes before `read`.
        let end = read.saturating_sub(after as usize);
        let bad_bytes = &bytes[end.saturating_sub(bad as usize)..end];
        let line_start = text.rfind('\n').map_or(0, |i| i + 1);
        let line = text.matches('\n').count() + 1;
        let column = text[line_start..].chars().count() + 1;
        let rest: String = bad_bytes.iter().map(|b| format!("\\x{b:02x}")).collect();
        text.truncate(line_start);
        let kind = ErrorKind::Encoding { encoding };
        return Decoded {
            text,
            encoding,
            error: Some(ReadError::new(line, column, &rest, kind)),
        };
    }
    Decoded {
        text,
        encoding,
        error: None,
    }
}

/// A character that the chosen encoding cannot write. The caller words the remedy (another
/// output encoding) in its own terms.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: `{ch}` cannot be written in {encoding}")]
pub struct EncodeError {
    /// The character.
    pub ch: char,
    /// Where it is, from 1.
    pub line: usize,
    /// Where it is, from 1.
    pub column: usize,
    /// The encoding.
    pub encoding: Encoding,
}

/// Encodes text.
///
/// ```
/// use koma_record::encoding::{decode, encode, Encoding};
/// let bytes = encode("▲７六歩\n", Encoding::ShiftJis).unwrap();
/// assert_eq!(decode(&bytes, None).text, "▲７六歩\n");
/// assert_eq!(encode("☗", Encoding::ShiftJis).unwrap_err().ch, '☗');
/// ```
pub fn encode(text: &str, encoding: Encoding) -> Result<Vec<u8>, EncodeError> {
    if encoding == Encoding::Utf8 {
        return Ok(text.as_bytes().to_vec());
    }
    let (bytes, _, had_errors) = encoding.coder().encode(text);
    if !had_errors {
        return Ok(bytes.into_owned());
    }
    let mut buf = [0; 4];
    for (i, line) in text.lines().enumerate() {
        for (j, ch) in line.chars().enumerate() {
            if encoding.coder().encode(ch.encode_utf8(&mut buf)).2 {
                return Err(EncodeError {
                    ch,
                    line: i + 1,
                    column: j + 1,
                    encoding,
                });
            }
        }
    }
    unreachable!("an unencodable text has an unencodable character")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_locate_the_byte() {
        let e = decode(b"abc\n\x82\xa0\xff", Some(Encoding::ShiftJis))
            .error
            .unwrap();
        assert_eq!((e.line, e.column), (2, 2));
        let e = decode(b"ok\n\xff", Some(Encoding::Utf8)).error.unwrap();
        assert_eq!(e.line, 2);
        let e = encode("ok\nab☗", Encoding::ShiftJis).unwrap_err();
        assert_eq!((e.line, e.column, e.ch), (2, 3, '☗'));
        assert_eq!(decode(b"\xef\xbb\xbfx", None).text, "x");
    }

    #[test]
    fn every_encoding_detected() {
        let text = "先手：羽生善治\n後手：佐藤康光\n▲７六歩　△３四歩\n";
        for enc in Encoding::ALL {
            let bytes = encode(text, enc).unwrap();
            assert_eq!(detect(&bytes), enc);
            let d = decode(&bytes, None);
            assert_eq!((d.text.as_str(), d.encoding), (text, enc));
            assert_eq!(d.error, None);
        }
        // A head cut inside a character is still recognised.
        let sjis = encode(text, Encoding::ShiftJis).unwrap();
        assert_eq!(detect(&sjis[..7]), Encoding::ShiftJis);
        let euc = encode(text, Encoding::EucJp).unwrap();
        assert_eq!(detect(&euc[..7]), Encoding::EucJp);
    }
}
