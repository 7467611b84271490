//! Choosing a reader or writer: [`Format`] by name, by file extension or by looking at the text.

use crate::{Read, ReadError, Record, bod, csa, jkf, ki2, kif, usi};

/// A record format koma reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// CSA (`.csa`).
    Csa,
    /// KIF (`.kif`, `.kifu`).
    Kif,
    /// KI2 (`.ki2`, `.ki2u`).
    Ki2,
    /// A USI `position` string (`.usi`), one record per line.
    Usi,
    /// SFEN, one position per line (`.sfen`). Writing gives the initial position.
    Sfen,
    /// A BOD diagram (`.bod`). Writing gives the initial position; reading accepts a KIF
    /// header too.
    Bod,
    /// JKF, the JSON kifu format of Kifu for JS and ShogiHome (`.jkf`, `.json`).
    Jkf,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 7] = [
        Format::Csa,
        Format::Kif,
        Format::Ki2,
        Format::Usi,
        Format::Sfen,
        Format::Bod,
        Format::Jkf,
    ];

    /// The format's name: `csa`, `kif`, `ki2`, `usi`, `sfen`, `bod`, `jkf`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Csa => "csa",
            Format::Kif => "kif",
            Format::Ki2 => "ki2",
            Format::Usi => "usi",
            Format::Sfen => "sfen",
            Format::Bod => "bod",
            Format::Jkf => "jkf",
        }
    }

    /// The format with this name (`kifu`, `ki2u` and `json` are accepted as well, any case).
    pub fn from_name(name: &str) -> Option<Format> {
        match name.to_ascii_lowercase().as_str() {
            "kifu" => Some(Format::Kif),
            "ki2u" => Some(Format::Ki2),
            "json" => Some(Format::Jkf),
            n => Format::ALL.into_iter().find(|f| f.name() == n),
        }
    }

    /// The format a file name's extension says, if any.
    pub fn from_path(path: &str) -> Option<Format> {
        let ext = path.rsplit_once('.')?.1;
        Format::from_name(ext)
    }

    /// Whether two formats are read by the same reader (KIF and BOD, USI and SFEN), so that
    /// naming one for the other loses nothing in reading.
    pub fn reads_like(self, other: Format) -> bool {
        let family = |f| match f {
            Format::Bod => Format::Kif,
            Format::Sfen => Format::Usi,
            f => f,
        };
        family(self) == family(other)
    }

    /// The format a text's content shows, if it shows one: the first line that only one format
    /// writes decides (a CSA move or header, a KIF move line, a KI2 move, a USI position, an
    /// SFEN); board diagrams and `key：value` headers, which several formats share, only decide
    /// when nothing else does (BOD, then KIF).
    ///
    /// ```
    /// use koma_record::Format;
    /// assert_eq!(Format::sniff("V2.2\nPI\n+\n"), Some(Format::Csa));
    /// assert_eq!(Format::sniff("position startpos moves 7g7f"), Some(Format::Usi));
    /// assert_eq!(Format::sniff("8k/9/9/9/9/9/9/9/8K b - 1\n"), Some(Format::Sfen));
    /// // A bad SFEN is still SFEN, so that its reader names the fault.
    /// assert_eq!(Format::sniff("9/9/9 b - 1"), Some(Format::Sfen));
    /// assert_eq!(Format::sniff("9/9/9 x"), Some(Format::Sfen));
    /// assert_eq!(Format::sniff("4k4 b - 1"), Some(Format::Sfen));
    /// assert_eq!(Format::sniff("12 b"), Some(Format::Sfen));
    /// assert_eq!(Format::sniff("12 ７六歩(77)"), Some(Format::Kif));
    /// assert_eq!(Format::sniff("先手：A\n▲７六歩\n"), Some(Format::Ki2));
    /// assert_eq!(Format::sniff("先手：A\n   1 ７六歩(77)\n"), Some(Format::Kif));
    /// // A tsume diagram in KIF: the board's border is not a CSA line.
    /// let tsume = "後手の持駒：残り全部\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n";
    /// assert_eq!(Format::sniff(tsume), Some(Format::Bod));
    /// assert_eq!(Format::sniff("{\"header\": {}, \"moves\": [{}]}"), Some(Format::Jkf));
    /// assert_eq!(Format::sniff("\n# only a comment\n"), None);
    /// ```
    pub fn sniff(text: &str) -> Option<Format> {
        let mut saw_bod = false;
        let mut saw_header = false;
        for line in text.lines() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            if let Some(f) = decisive(t) {
                return Some(f);
            }
            if t.starts_with('|')
                || t.starts_with("+--")
                || crate::bod::split_key(t)
                    .is_some_and(|(k, _)| crate::bod::hand_owner(k).is_some())
                || t.starts_with("手数＝")
                || matches!(t, "先手番" | "後手番" | "上手番" | "下手番")
            {
                saw_bod = true;
            } else if t.contains('：') {
                saw_header = true;
            }
        }
        if saw_bod {
            Some(Format::Bod)
        } else if saw_header {
            Some(Format::Kif)
        } else {
            None
        }
    }

    /// Reads one record in this format. For [`Format::Usi`] and [`Format::Sfen`], the text must
    /// hold one position (read files of many with [`crate::input`]).
    pub fn read(self, text: &str) -> Result<Read, ReadError> {
        match self {
            Format::Csa => csa::read(text),
            Format::Kif | Format::Bod => kif::read(text),
            Format::Ki2 => ki2::read(text),
            Format::Usi | Format::Sfen => usi::read(text),
            Format::Jkf => jkf::read(text),
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
            Format::Jkf => jkf::write(record),
        }
    }
}

/// The format a line (trimmed, not blank) can only belong to, if any.
fn decisive(t: &str) -> Option<Format> {
    if t.starts_with('{') {
        return Some(Format::Jkf);
    }
    let mut words = t.split_whitespace();
    let first = words.next().unwrap_or("");
    if ["position", "startpos", "sfen"].contains(&first) {
        return Some(Format::Usi);
    }
    // A board of ranks split by '/': SFEN, even with a wrong number of ranks or a bad field
    // after it (the SFEN reader then says what is wrong, instead of another format's reader
    // refusing it). Without eight '/' or a side to move, only SFEN's board letters count (no
    // `0`, so a date such as 2024/01/05 is not a board). A board of one rank (no '/') counts
    // when SFEN's board letters are followed by a side to move.
    let board_letters = koma_core::is_sfen_board_text;
    let side = matches!(words.next(), Some("b" | "w"));
    if first.is_ascii()
        && ((first.contains('/')
            && (first.matches('/').count() == 8 || side || board_letters(first)))
            || (side && board_letters(first)))
    {
        return Some(Format::Sfen);
    }
    if t.starts_with(['▲', '△', '☗', '☖', '▽', '▼']) {
        return Some(Format::Ki2);
    }
    if t.starts_with("手数----") || t.starts_with("変化：") || is_kif_move_line(t) {
        return Some(Format::Kif);
    }
    if is_csa_line(t) {
        return Some(Format::Csa);
    }
    None
}

/// `12 ７六歩(77)`, `3 投了`: a move number, then Japanese.
fn is_kif_move_line(t: &str) -> bool {
    let rest = t.trim_start_matches(|c: char| c.is_ascii_digit());
    rest.len() < t.len()
        && rest.starts_with(char::is_whitespace)
        && rest.trim_start().starts_with(|c: char| !c.is_ascii())
}

/// A line only CSA writes: `V2.2`, `N+name`, `$KEY:value`, `PI`, `P1 * -KE`, `P+00FU`, `+`,
/// `-`, `+7776FU`, `%TORYO`, `T12`.
fn is_csa_line(t: &str) -> bool {
    let b = t.as_bytes();
    let first_statement = t.split(',').next().unwrap_or("").trim_end();
    let s = first_statement.as_bytes();
    match b[0] {
        b'V' => b.get(1).is_some_and(u8::is_ascii_digit),
        b'N' => matches!(b.get(1), Some(b'+' | b'-')),
        b'$' => t[1..]
            .split_once(':')
            .is_some_and(|(k, _)| crate::csa::is_header_key(k)),
        b'P' => match b.get(1) {
            Some(b'I') => t.is_ascii(),
            Some(b'1'..=b'9') => b.get(2).is_some_and(|c| matches!(c, b' ' | b'+' | b'-')),
            Some(b'+' | b'-') => b.get(2..4) == Some(b"00") || b.len() == 2,
            _ => false,
        },
        b'+' | b'-' => {
            s.len() == 1
                || (s.len() == 7
                    && s[1..5].iter().all(u8::is_ascii_digit)
                    && s[5..].iter().all(u8::is_ascii_uppercase))
        }
        b'%' => b
            .get(1)
            .is_some_and(|c| c.is_ascii_uppercase() || *c == b'+' || *c == b'-'),
        b'T' => b.len() > 1 && b[1..].iter().all(|c| c.is_ascii_digit() || *c == b'.'),
        _ => false,
    }
}
