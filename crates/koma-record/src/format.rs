//! Choosing a reader or writer: [`Format`] by name, by file extension or by looking at the text.

use crate::{Read, ReadError, Record, bod, csa, ki2, kif, usi};

/// A record format koma reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// CSA (`.csa`).
    Csa,
    /// KIF (`.kif`, `.kifu`).
    Kif,
    /// KI2 (`.ki2`, `.ki2u`).
    Ki2,
    /// A USI `position` string (`.usi`).
    Usi,
    /// SFEN, one position per line (`.sfen`). Writing gives the initial position.
    Sfen,
    /// A BOD diagram (`.bod`). Writing gives the initial position; reading accepts a KIF
    /// header too.
    Bod,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 6] = [
        Format::Csa,
        Format::Kif,
        Format::Ki2,
        Format::Usi,
        Format::Sfen,
        Format::Bod,
    ];

    /// The format's name as the command line takes it: `csa`, `kif`, `ki2`, `usi`, `sfen`, `bod`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Csa => "csa",
            Format::Kif => "kif",
            Format::Ki2 => "ki2",
            Format::Usi => "usi",
            Format::Sfen => "sfen",
            Format::Bod => "bod",
        }
    }

    /// The format with this name (`kifu` and `ki2u` are accepted as well, any case).
    pub fn from_name(name: &str) -> Option<Format> {
        match name.to_ascii_lowercase().as_str() {
            "kifu" => Some(Format::Kif),
            "ki2u" => Some(Format::Ki2),
            n => Format::ALL.into_iter().find(|f| f.name() == n),
        }
    }

    /// The format a file name's extension says, if any.
    pub fn from_path(path: &str) -> Option<Format> {
        let ext = path.rsplit_once('.')?.1;
        Format::from_name(ext)
    }

    /// Guesses the format of a text by its first meaningful line.
    ///
    /// ```
    /// use koma_record::Format;
    /// assert_eq!(Format::detect("V2.2\nPI\n+\n"), Format::Csa);
    /// assert_eq!(Format::detect("position startpos moves 7g7f"), Format::Usi);
    /// assert_eq!(Format::detect("8k/9/9/9/9/9/9/9/8K b - 1\n"), Format::Sfen);
    /// assert_eq!(Format::detect("先手：A\n▲７六歩\n"), Format::Ki2);
    /// assert_eq!(Format::detect("先手：A\n   1 ７六歩(77)\n"), Format::Kif);
    /// ```
    pub fn detect(text: &str) -> Format {
        let mut saw_bod = false;
        for line in text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let first = line.split_whitespace().next().unwrap_or("");
            if ["position", "startpos", "sfen"].contains(&first) {
                return Format::Usi;
            }
            if first.matches('/').count() == 8 {
                return Format::Sfen;
            }
            if line.starts_with(['▲', '△', '☗', '☖', '▽']) {
                return Format::Ki2;
            }
            if line.starts_with("手数----") || line.starts_with(|c: char| c.is_ascii_digit()) {
                return Format::Kif;
            }
            if line.starts_with('|') || line.contains("の持駒") {
                saw_bod = true;
                continue;
            }
            if line.starts_with(['V', 'N', '$', 'P', '\'', '+', '-', '%']) && line.is_ascii()
                || line.starts_with(['\'', 'N'])
            {
                return Format::Csa;
            }
        }
        if saw_bod { Format::Bod } else { Format::Kif }
    }

    /// Reads a record in this format. For [`Format::Sfen`], the text must hold one position (use
    /// [`usi::read_lines`] for many).
    pub fn read(self, text: &str) -> Result<Read, ReadError> {
        match self {
            Format::Csa => csa::read(text),
            Format::Kif | Format::Bod => kif::read(text),
            Format::Ki2 => ki2::read(text),
            Format::Usi | Format::Sfen => usi::read(text),
        }
    }

    /// Writes a record in this format. SFEN and BOD give the initial position.
    pub fn write(self, record: &Record) -> String {
        match self {
            Format::Csa => csa::write(record),
            Format::Kif => kif::write(record),
            Format::Ki2 => ki2::write(record),
            Format::Usi => usi::write(record),
            Format::Sfen => format!("{}\n", record.initial.to_sfen()),
            Format::Bod => bod::write(&record.initial),
        }
    }
}
