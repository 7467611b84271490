//! Opening any record a user has: one call that finds the encoding and the format by looking at
//! the bytes, the same way for a file, standard input or bytes a web page sent, and reads the
//! records in it one after another.
//!
//! [`detect`] looks at the first bytes: a UTF-8 byte-order mark or valid UTF-8, else Shift-JIS
//! or EUC-JP ([`encoding::detect`]); then the content ([`Format::sniff`]). The content wins over
//! a file name's extension that says otherwise, with a warning. [`Records`] reads on from there:
//! files that hold many records (SFEN or USI lines, CSA games separated by `/`) are read one
//! record at a time, in memory bounded by the largest record, not the file.
//!
//! ```
//! use koma_record::input::{Options, Records};
//!
//! // A KIF tsume problem without an extension to go by: its diagram says it is KIF.
//! let text = "後手の持駒：残り全部\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n\
//! | ・ ・ ・ ・ ・ ・ ・v桂v香|一\n| ・ ・ ・ ・ ・ ・ ・v玉 ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n\
//! | ・ ・ ・ ・ ・ ・ ・v歩v歩|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n\
//! | ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|九\n\
//! +---------------------------+\n先手の持駒：金　銀\n手数----指手---------消費時間--\n   1 ２三銀打\n";
//! let bytes = koma_record::encoding::encode(text, koma_record::encoding::Encoding::ShiftJis).unwrap();
//! let mut records = Records::new(&bytes[..], Some("problem.txt"), Options::default()).unwrap();
//! assert_eq!(records.detected().format, koma_record::Format::Kif);
//! let read = records.next().unwrap().unwrap();
//! assert_eq!(read.record.main().moves().len(), 1);
//! assert!(records.next().is_none());
//!
//! // Many positions, one per line, read one at a time.
//! let sfen = "8k/9/9/9/9/9/9/9/8K b - 1\n\n4k4/9/9/9/9/9/9/9/4K4 b G 1\n";
//! let n = Records::new(sfen.as_bytes(), None, Options::default()).unwrap().count();
//! assert_eq!(n, 2);
//! ```

use std::io::{BufRead, Chain, Cursor, Read as _};
use std::path::Path;

use crate::encoding::{self, Encoding};
use crate::{Format, Read, ReadError, Warning, WarningKind, csa, usi};

/// How many bytes [`Records::new`] looks at to detect the encoding and format.
pub const HEAD_BYTES: usize = 64 * 1024;

/// What the first bytes of an input say it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detected {
    /// The text encoding.
    pub encoding: Encoding,
    /// The record format.
    pub format: Format,
    /// Remarks: a file name's extension the content disagrees with, a format guessed for want
    /// of evidence.
    pub warnings: Vec<Warning>,
}

/// Choices that override detection (a user who knows better).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Read in this format, whatever the content looks like.
    pub format: Option<Format>,
    /// Decode in this encoding, whatever the bytes look like.
    pub encoding: Option<Encoding>,
}

/// Finds the encoding and format of an input from its first bytes (`head`: the whole input or
/// its first part, cut anywhere) and, optionally, its file name.
///
/// The content decides; the name's extension is only used when the content shows no format
/// (then KIF if the name has no known extension either), and a disagreeing extension gives a
/// warning.
///
/// ```
/// use koma_record::{Format, input::detect, encoding::Encoding};
/// let d = detect(b"V2.2\nPI\n+\n+7776FU\n", Some("game.kif"));
/// assert_eq!((d.encoding, d.format), (Encoding::Utf8, Format::Csa));
/// assert!(d.warnings[0].to_string().contains("not kif as the file name says"), "{}", d.warnings[0]);
/// assert_eq!(detect(b"", Some("x.csa")).format, Format::Csa);
/// ```
pub fn detect(head: &[u8], name: Option<&str>) -> Detected {
    detect_with(head, name, Options::default())
}

fn detect_with(head: &[u8], name: Option<&str>, options: Options) -> Detected {
    let encoding = options.encoding.unwrap_or_else(|| encoding::detect(head));
    let text = head_text(head, encoding);
    let mut warnings = Vec::new();
    let by_name = name.and_then(Format::from_path);
    let format = match (options.format, Format::sniff(&text), by_name) {
        (Some(f), _, _) => f,
        (None, Some(content), Some(ext)) => {
            if !content.reads_like(ext) {
                warnings.push(Warning::new(
                    0,
                    WarningKind::FormatMismatch {
                        content,
                        named: ext,
                    },
                ));
            }
            if content.reads_like(ext) {
                ext
            } else {
                content
            }
        }
        (None, Some(content), None) => content,
        (None, None, Some(ext)) => ext,
        (None, None, None) => Format::Kif,
    };
    Detected {
        encoding,
        format,
        warnings,
    }
}

/// The head decoded as far as it decodes (a cut or bad character ends it).
fn head_text(head: &[u8], encoding: Encoding) -> String {
    let d = encoding::decode(head, Some(encoding));
    d.text
}

/// The records of one input, read one after another (an iterator of `Result<Read, ReadError>`).
///
/// Formats with one record per input (KIF, KI2, BOD) yield one item; SFEN and USI files yield a
/// record per non-blank line, CSA files one per game (games are separated by `/` lines). An error
/// in one record is an item of its own (with the good part of that record in
/// [`ReadError::partial`]); the next item is the next record.
pub struct Records<R> {
    src: Chain<Cursor<Vec<u8>>, R>,
    detected: Detected,
    /// Whether the encoding is only a guess: it was not given, and the head held nothing but
    /// ASCII (which every encoding reads alike). The first bytes that are not ASCII decide.
    encoding_open: bool,
    /// Lines consumed so far.
    line: usize,
    /// Records yielded so far.
    yielded: usize,
    done: bool,
}

impl<R: BufRead> Records<R> {
    /// Looks at the first [`HEAD_BYTES`] of `src`, detects (see [`detect`]) and gets ready to
    /// read. Fails only if `src` cannot be read.
    pub fn new(mut src: R, name: Option<&str>, options: Options) -> Result<Records<R>, ReadError> {
        let mut head = Vec::with_capacity(HEAD_BYTES.min(8192));
        (&mut src)
            .take(HEAD_BYTES as u64)
            .read_to_end(&mut head)
            .map_err(|e| ReadError::io(1, e))?;
        let detected = detect_with(&head, name, options);
        let encoding_open = options.encoding.is_none() && head.is_ascii();
        Ok(Records {
            src: Cursor::new(head).chain(src),
            detected,
            encoding_open,
            line: 0,
            yielded: 0,
            done: false,
        })
    }

    /// What was detected (warnings included).
    pub fn detected(&self) -> &Detected {
        &self.detected
    }

    /// The next line's bytes (without the line end), or `None` at the end of the input.
    fn next_line(&mut self, buf: &mut Vec<u8>) -> Result<bool, ReadError> {
        buf.clear();
        let n = self
            .src
            .read_until(b'\n', buf)
            .map_err(|e| ReadError::io(self.line + 1, e))?;
        if n == 0 {
            return Ok(false);
        }
        self.line += 1;
        while buf.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
            buf.pop();
        }
        Ok(true)
    }

    /// The encoding to read `bytes` (whose first line is line `first`) in: the detected one,
    /// unless the head held only ASCII and these are the first bytes to say which encoding the
    /// input is in (a large file whose Japanese text starts late). Then the encoding is settled
    /// here, with a remark naming the line where the text stops being ASCII.
    fn settle_encoding(&mut self, bytes: &[u8], first: usize) -> Option<Warning> {
        if !self.encoding_open {
            return None;
        }
        let at = bytes.iter().position(|b| !b.is_ascii())?;
        let line = first + bytes[..at].iter().filter(|&&b| b == b'\n').count();
        self.encoding_open = false;
        let found = encoding::detect(bytes);
        if found == self.detected.encoding {
            return None;
        }
        self.detected.encoding = found;
        Some(Warning::new(
            line,
            WarningKind::EncodingFound { encoding: found },
        ))
    }

    /// A line decoded; the first line loses a byte-order mark.
    fn decode_line(&self, bytes: &[u8]) -> Result<String, ReadError> {
        let d = encoding::decode(bytes, Some(self.detected.encoding));
        match d.error {
            Some(e) => Err(e.shifted(self.line - 1)),
            None => Ok(d.text),
        }
    }

    /// The next non-blank USI or SFEN line as a record.
    fn next_usi(&mut self) -> Option<Result<Read, ReadError>> {
        let mut buf = Vec::new();
        let mut remarks = Vec::new();
        loop {
            match self.next_line(&mut buf) {
                Err(e) => return Some(Err(e)),
                Ok(false) => return None,
                Ok(true) => {}
            }
            remarks.extend(self.settle_encoding(&buf, self.line));
            let text = match self.decode_line(&buf) {
                Ok(t) => t,
                Err(e) => return Some(Err(e)),
            };
            let t = text.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            return Some(usi::read_line(self.line, &text).map(|mut read| {
                remarks.append(&mut read.warnings);
                read.warnings = remarks;
                read
            }));
        }
    }

    /// The next CSA game: lines up to a `/` line or the end.
    fn next_csa(&mut self) -> Option<Result<Read, ReadError>> {
        let first = self.line;
        let mut game = Vec::new();
        let mut buf = Vec::new();
        loop {
            match self.next_line(&mut buf) {
                Err(e) => return Some(Err(e)),
                Ok(false) => {
                    self.done = true;
                    break;
                }
                Ok(true) if buf.trim_ascii() == b"/" => break,
                Ok(true) => {
                    game.extend_from_slice(&buf);
                    game.push(b'\n');
                }
            }
        }
        if self.done && game.iter().all(u8::is_ascii_whitespace) && self.yielded > 0 {
            return None;
        }
        let remark = self.settle_encoding(&game, first + 1);
        let read =
            read_text(&game, self.detected.encoding, Format::Csa).map_err(|e| e.shifted(first));
        Some(read.map(|mut r| {
            r.warnings.extend(remark);
            r
        }))
    }

    /// The whole rest of the input as one record.
    fn next_whole(&mut self) -> Option<Result<Read, ReadError>> {
        self.done = true;
        let mut bytes = Vec::new();
        if let Err(e) = self.src.read_to_end(&mut bytes) {
            return Some(Err(ReadError::io(1, e)));
        }
        let remark = self.settle_encoding(&bytes, self.line + 1);
        let read = read_text(&bytes, self.detected.encoding, self.detected.format);
        Some(read.map(|mut r| {
            r.warnings.extend(remark);
            r
        }))
    }
}

impl<R: BufRead> Iterator for Records<R> {
    type Item = Result<Read, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let item = match self.detected.format {
            Format::Usi | Format::Sfen => self.next_usi(),
            Format::Csa => self.next_csa(),
            Format::Kif | Format::Ki2 | Format::Bod | Format::Jkf => self.next_whole(),
        };
        match item {
            None if self.yielded == 0 => {
                self.done = true;
                self.yielded = 1;
                Some(Err(ReadError::empty()))
            }
            None => {
                self.done = true;
                None
            }
            Some(item) => {
                self.yielded += 1;
                Some(item)
            }
        }
    }
}

/// Decodes and reads one record; bytes that do not decode end the text, and the record read
/// from the lines before them goes with the encoding error as its partial record.
fn read_text(bytes: &[u8], encoding: Encoding, format: Format) -> Result<Read, ReadError> {
    let decoded = encoding::decode(bytes, Some(encoding));
    if decoded.text.trim().is_empty() && decoded.error.is_none() {
        return Err(ReadError::empty());
    }
    let read = match format {
        Format::Csa => csa::read(&decoded.text),
        f => f.read(&decoded.text),
    };
    match (decoded.error, read) {
        (None, read) => read,
        // Nothing before the bad bytes: nothing to keep.
        (Some(e), _) if decoded.text.trim().is_empty() => Err(e),
        (Some(e), Ok(read)) => Err(e.with_partial(read.record)),
        (Some(e), Err(inner)) => match inner.partial {
            Some(p) => Err(e.with_partial(*p)),
            None => Err(e),
        },
    }
}

/// Reads exactly one record from bytes (a pasted record, an uploaded file): detection as in
/// [`detect`], then the first record. More records than one is an error naming the line where
/// the second starts.
///
/// ```
/// let read = koma_record::input::read_one(b"position startpos moves 7g7f", None).unwrap();
/// assert_eq!(read.record.main().moves().len(), 1);
/// ```
pub fn read_one(bytes: &[u8], name: Option<&str>) -> Result<Read, ReadError> {
    let mut records = Records::new(bytes, name, Options::default())?;
    let mut warnings = records.detected().warnings.clone();
    let Some(first) = records.next() else {
        return Err(ReadError::empty());
    };
    let mut first = first?;
    if records.next().is_some() {
        return Err(ReadError::syntax(
            records.line,
            1,
            "",
            "one record (this input holds several)",
        ));
    }
    warnings.append(&mut first.warnings);
    first.warnings = warnings;
    Ok(first)
}

/// Opens a file and gets ready to read its records ([`Records::new`] with the file's name).
pub fn open(
    path: &Path,
    options: Options,
) -> Result<Records<std::io::BufReader<std::fs::File>>, ReadError> {
    let file = std::fs::File::open(path).map_err(|e| ReadError::io(0, e))?;
    Records::new(std::io::BufReader::new(file), path.to_str(), options)
}
