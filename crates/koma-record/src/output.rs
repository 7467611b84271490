//! Writing records to a stream: each format's own form for many records (CSA games separated
//! by `/`, one SFEN or USI line each), a typed refusal where a format has none (KIF, KI2, BOD
//! hold one record a file), the text encoding, and what a format cannot hold.

use std::io::Write;

use crate::encoding::{self, EncodeError, Encoding};
use crate::{Format, Record};

/// Why records could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// A character the output encoding cannot hold (UTF-8 holds every one).
    #[error(transparent)]
    Unrepresentable(#[from] EncodeError),
    /// The format holds one record a file, and a second one came.
    #[error("{} holds one record a file, and this is record {index}", .format.name())]
    OneRecordOnly {
        /// The format.
        format: Format,
        /// The number of the record that did not fit (from 1).
        index: usize,
    },
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl Format {
    /// Whether the format has its own way to hold many records in one file: CSA (games
    /// separated by `/`), SFEN and USI (a line each).
    pub fn holds_many(self) -> bool {
        matches!(self, Format::Csa | Format::Sfen | Format::Usi)
    }

    /// What writing `record` in this format leaves out or writes in a nearer form, one remark
    /// each (empty when nothing is lost).
    ///
    /// ```
    /// use koma_record::{Format, usi};
    /// let rec = usi::read("startpos moves 7g7f 3c3d resign").unwrap().record;
    /// assert!(Format::Kif.losses(&rec).is_empty());
    /// assert!(Format::Usi.losses(&rec).is_empty());
    /// let mated = koma_record::kif::read("   1 ７六歩(77)\n   2 詰み\n").unwrap().record;
    /// assert_eq!(Format::Usi.losses(&mated), ["USI has no token for 詰み; the end is not written"]);
    /// ```
    pub fn losses(self, record: &Record) -> Vec<String> {
        let mut out = Vec::new();
        let main = record.main();
        let end = main.end().map(|e| e.kind);
        let has_times = main.moves().iter().any(|m| m.time().is_some());
        let has_comments =
            !record.comments().is_empty() || main.moves().iter().any(|m| !m.comments().is_empty());
        let name = self.name().to_uppercase();
        if record.has_variations() && matches!(self, Format::Csa | Format::Usi) {
            out.push(format!(
                "{name} has no variations; only the main line is written"
            ));
        }
        let side = record.position_after(usize::MAX).side_to_move();
        match (self, end) {
            (Format::Csa | Format::Jkf, Some(k)) if !k.has_csa_form() => out.push(format!(
                "{name} has no special move for {}; written as {}",
                k.kif(side),
                k.csa(side).trim_start_matches('%')
            )),
            (Format::Kif | Format::Ki2, Some(k)) if !k.has_kif_form() => out.push(format!(
                "{name} has no word for {}; written as {}",
                k.usi().unwrap_or("this end"),
                k.kif(side)
            )),
            (Format::Usi, Some(k)) if k.usi().is_none() => out.push(format!(
                "USI has no token for {}; the end is not written",
                k.kif(side)
            )),
            _ => {}
        }
        if matches!(self, Format::Csa | Format::Jkf) && record.initial().ply() != 1 {
            out.push(format!(
                "{name} has no move number; the record starts at move 1 (was {})",
                record.initial().ply()
            ));
        }
        if self == Format::Ki2 && has_times {
            out.push("KI2 has no times; they are not written".to_owned());
        }
        if self == Format::Usi && has_comments {
            out.push("USI has no comments; they are not written".to_owned());
        }
        if matches!(self, Format::Csa | Format::Usi | Format::Jkf) && record.has_bookmarks() {
            out.push(format!(
                "{name} has no bookmarks (しおり, KIF's `&` lines); they are not written"
            ));
        }
        out
    }
}

/// Writes records one after another in one format and encoding, as the format holds many.
///
/// ```
/// use koma_record::{Format, encoding::Encoding, output::{RecordWriter, WriteError}, usi};
/// let a = usi::read("startpos moves 7g7f").unwrap().record;
/// let b = usi::read("startpos moves 2g2f").unwrap().record;
/// let mut w = RecordWriter::new(Vec::new(), Format::Csa, Encoding::Utf8);
/// w.write(&a).unwrap();
/// w.write(&b).unwrap();
/// let text = String::from_utf8(w.finish().unwrap()).unwrap();
/// assert!(text.contains("+7776FU\n/\nV2.2\n"), "{text}");
///
/// let mut w = RecordWriter::new(Vec::new(), Format::Kif, Encoding::Utf8);
/// w.write(&a).unwrap();
/// assert!(matches!(w.write(&b), Err(WriteError::OneRecordOnly { index: 2, .. })));
/// ```
pub struct RecordWriter<W: Write> {
    out: W,
    format: Format,
    encoding: Encoding,
    written: usize,
}

impl<W: Write> RecordWriter<W> {
    /// A writer of `format` text in `encoding` to `out`.
    pub fn new(out: W, format: Format, encoding: Encoding) -> RecordWriter<W> {
        RecordWriter {
            out,
            format,
            encoding,
            written: 0,
        }
    }

    /// Writes one record (after a `/` line in CSA when it is not the first).
    pub fn write(&mut self, record: &Record) -> Result<(), WriteError> {
        self.write_text(&self.format.write(record))
    }

    /// Writes one record's text, already in this writer's format (for a caller that writes a
    /// position other than the initial one, say).
    pub fn write_text(&mut self, text: &str) -> Result<(), WriteError> {
        if self.written > 0 && !self.format.holds_many() {
            return Err(WriteError::OneRecordOnly {
                format: self.format,
                index: self.written + 1,
            });
        }
        let bytes = encoding::encode(text, self.encoding)?;
        if self.written > 0 && self.format == Format::Csa {
            self.out.write_all(b"/\n")?;
        }
        self.out.write_all(&bytes)?;
        self.written += 1;
        Ok(())
    }

    /// How many records were written.
    pub fn written(&self) -> usize {
        self.written
    }

    /// Flushes and gives back the output.
    pub fn finish(mut self) -> Result<W, WriteError> {
        self.out.flush()?;
        Ok(self.out)
    }
}
