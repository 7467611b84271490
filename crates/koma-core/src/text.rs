//! Input text as error messages quote it: [`excerpt`] bounds it and escapes its control
//! characters, so that a message stays on its line and a terminal shows it as written (a raw
//! `\r` would send the cursor back over the message, an escape character start a terminal
//! command). The one place koma's crates make such quotes.
//!
//! ```
//! use koma_core::text::excerpt;
//! assert_eq!(excerpt("b\r", 10), "b\\r");
//! assert_eq!(excerpt("\u{1b}[31m７六歩", 10), "\\u{1b}[31m７六歩");
//! assert_eq!(excerpt("abcdef", 3), "abc…");
//! ```

/// The most characters of the input koma-core's error messages quote.
pub const EXCERPT_CHARS: usize = 60;

/// The first `max_chars` characters of `text`, each control character escaped (`\r`, `\n`,
/// `\t`, `\u{1b}`, `\u{7f}`…; other characters, Japanese included, as they are), with `…` where
/// it was cut.
pub fn excerpt(text: &str, max_chars: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max_chars {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// One character as error messages quote it: [`excerpt`] of it alone.
pub fn excerpt_char(c: char) -> String {
    excerpt(c.encode_utf8(&mut [0; 4]), 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(excerpt("a\0b\tc\r\nd", 20), "a\\u{0}b\\tc\\r\\nd");
        assert_eq!(
            excerpt("\u{1b}[2J\u{7f}\u{85}", 20),
            "\\u{1b}[2J\\u{7f}\\u{85}"
        );
        assert_eq!(excerpt("▲７六歩 \"x\" \\", 20), "▲７六歩 \"x\" \\");
        assert_eq!(excerpt_char('\r'), "\\r");
        assert_eq!(excerpt_char('歩'), "歩");
    }

    #[test]
    fn excerpts_are_cut_after_max_chars() {
        assert_eq!(excerpt("", 3), "");
        assert_eq!(excerpt("abc", 3), "abc");
        assert_eq!(excerpt("歩歩歩歩", 3), "歩歩歩…");
        // The bound counts characters of the input, not of the escapes.
        assert_eq!(excerpt("\r\r\r\r", 3), "\\r\\r\\r…");
        let long = "x".repeat(10_000);
        assert_eq!(
            excerpt(&long, EXCERPT_CHARS).chars().count(),
            EXCERPT_CHARS + 1
        );
    }
}
