//! Text encodings of record files: UTF-8 and Shift-JIS (as Windows writes it, CP932).
//!
//! `.kif` and `.ki2` files are traditionally Shift-JIS, `.kifu` and `.ki2u` UTF-8. Reading
//! detects: a UTF-8 byte-order mark or valid UTF-8 is UTF-8, anything else is Shift-JIS.

use crate::{ErrorKind, ReadError};

/// A text encoding of a record file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// UTF-8.
    Utf8,
    /// Shift-JIS (CP932).
    ShiftJis,
}

impl Encoding {
    /// Reads an encoding name: `utf-8`, `utf8`, `shift-jis`, `shift_jis`, `sjis`, `cp932`
    /// (any case).
    pub fn from_name(name: &str) -> Option<Encoding> {
        match name.to_ascii_lowercase().replace('_', "-").as_str() {
            "utf-8" | "utf8" => Some(Encoding::Utf8),
            "shift-jis" | "sjis" | "cp932" | "windows-31j" => Some(Encoding::ShiftJis),
            _ => None,
        }
    }

    /// The usual encoding for a file name by its extension: Shift-JIS for `.kif` and `.ki2`,
    /// UTF-8 otherwise.
    pub fn for_path(path: &str) -> Encoding {
        let lower = path.to_ascii_lowercase();
        if lower.ends_with(".kif") || lower.ends_with(".ki2") {
            Encoding::ShiftJis
        } else {
            Encoding::Utf8
        }
    }

    fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::ShiftJis => "Shift-JIS",
        }
    }
}

/// Guesses the encoding of bytes: UTF-8 if they start with a UTF-8 byte-order mark or are valid
/// UTF-8, otherwise Shift-JIS.
///
/// ```
/// use koma_record::encoding::{detect, Encoding};
/// assert_eq!(detect("７六歩".as_bytes()), Encoding::Utf8);
/// assert_eq!(detect(&[0x82, 0xa0]), Encoding::ShiftJis); // あ
/// ```
pub fn detect(bytes: &[u8]) -> Encoding {
    if bytes.starts_with(&[0xef, 0xbb, 0xbf]) || std::str::from_utf8(bytes).is_ok() {
        Encoding::Utf8
    } else {
        Encoding::ShiftJis
    }
}

/// Decodes bytes (detecting the encoding when `encoding` is `None`); a byte-order mark is
/// dropped. Bytes that are not valid in the encoding are an error naming their line and column.
pub fn decode(bytes: &[u8], encoding: Option<Encoding>) -> Result<(String, Encoding), ReadError> {
    let enc = encoding.unwrap_or_else(|| detect(bytes));
    let bytes = bytes.strip_prefix(&[0xef, 0xbb, 0xbf][..]).unwrap_or(bytes);
    let coder = match enc {
        Encoding::Utf8 => encoding_rs::UTF_8,
        Encoding::ShiftJis => encoding_rs::SHIFT_JIS,
    };
    let (text, had_errors) = coder.decode_without_bom_handling(bytes);
    if had_errors {
        let (line, column, text) = locate(&text, '\u{fffd}');
        let kind = ErrorKind::Encoding {
            encoding: enc.name(),
        };
        return Err(ReadError {
            line,
            column,
            text,
            kind,
            partial: None,
        });
    }
    Ok((text.into_owned(), enc))
}

/// Line, column and line text of the first `c` in `text`.
fn locate(text: &str, c: char) -> (usize, usize, String) {
    for (i, line) in text.lines().enumerate() {
        if let Some(col) = line.chars().position(|x| x == c) {
            return (i + 1, col + 1, line.to_owned());
        }
    }
    (1, 1, String::new())
}

/// A character that the chosen encoding cannot write.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "line {line}, column {column}: `{ch}` cannot be written in {encoding} (expected a character of that encoding; try --encoding utf-8)"
)]
pub struct EncodeError {
    /// The character.
    pub ch: char,
    /// Where it is, from 1.
    pub line: usize,
    /// Where it is, from 1.
    pub column: usize,
    /// The encoding.
    pub encoding: &'static str,
}

/// Encodes text.
///
/// ```
/// use koma_record::encoding::{decode, encode, Encoding};
/// let bytes = encode("▲７六歩\n", Encoding::ShiftJis).unwrap();
/// assert_eq!(decode(&bytes, None).unwrap(), ("▲７六歩\n".to_owned(), Encoding::ShiftJis));
/// ```
pub fn encode(text: &str, encoding: Encoding) -> Result<Vec<u8>, EncodeError> {
    match encoding {
        Encoding::Utf8 => Ok(text.as_bytes().to_vec()),
        Encoding::ShiftJis => {
            let (bytes, _, had_errors) = encoding_rs::SHIFT_JIS.encode(text);
            if !had_errors {
                return Ok(bytes.into_owned());
            }
            for (i, line) in text.lines().enumerate() {
                for (j, ch) in line.chars().enumerate() {
                    if encoding_rs::SHIFT_JIS.encode(ch.encode_utf8(&mut [0; 4])).2 {
                        return Err(EncodeError {
                            ch,
                            line: i + 1,
                            column: j + 1,
                            encoding: encoding.name(),
                        });
                    }
                }
            }
            Err(EncodeError {
                ch: '?',
                line: 1,
                column: 1,
                encoding: encoding.name(),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_locate_the_byte() {
        let e = decode(b"abc\n\x82\xa0\xff", Some(Encoding::ShiftJis)).unwrap_err();
        assert_eq!((e.line, e.column), (2, 2));
        let e = decode(b"ok\n\xff", Some(Encoding::Utf8)).unwrap_err();
        assert_eq!(e.line, 2);
        let e = encode("ok\nab☗", Encoding::ShiftJis).unwrap_err();
        assert_eq!((e.line, e.column, e.ch), (2, 3, '☗'));
        assert_eq!(decode(b"\xef\xbb\xbfx", None).unwrap().0, "x");
    }
}
