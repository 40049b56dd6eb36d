//! A reader for Java `.properties` text, the format of `passwd.properties` and
//! `access.properties`. It follows `java.util.Properties.load`: `#` and `!` start comment
//! lines; a key ends at the first unescaped `=`, `:` or whitespace; a backslash at the end of
//! a line joins the next line (whose leading whitespace is dropped); `\t`, `\n`, `\r`, `\f`
//! and `\uXXXX` are escapes and a backslash before any other character keeps that character.
//! A later line with the same key replaces the earlier one.
//!
//! Java reads these files as ISO-8859-1; [`parse_bytes`] reads UTF-8 when the bytes are valid
//! UTF-8 (so names typed in a modern editor work) and falls back to ISO-8859-1 otherwise.

use std::collections::BTreeMap;
use std::fmt;

/// A line that cannot be read: only a malformed `\uXXXX` escape is an error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PropertiesError {
    /// 1-based line where the entry holding the bad escape begins.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PropertiesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for PropertiesError {}

/// Parses properties text into its key → value map.
pub fn parse(text: &str) -> Result<BTreeMap<String, String>, PropertiesError> {
    let mut map = BTreeMap::new();
    // A byte-order mark is not part of the first key.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (line, entry) in logical_lines(text) {
        let (key, value) =
            split_entry(&entry).map_err(|message| PropertiesError { line, message })?;
        map.insert(key, value);
    }
    Ok(map)
}

/// Parses the raw bytes of a properties file: UTF-8 if valid, otherwise ISO-8859-1.
pub fn parse_bytes(bytes: &[u8]) -> Result<BTreeMap<String, String>, PropertiesError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(text),
        Err(_) => parse(&bytes.iter().map(|&b| char::from(b)).collect::<String>()),
    }
}

/// Java's whitespace for properties: space, tab and form feed.
fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\x0c')
}

/// Splits text at "\r\n", "\r" or "\n", as Java does.
fn natural_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        match rest.find(['\r', '\n']) {
            Some(i) => {
                lines.push(&rest[..i]);
                let terminator = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
                rest = &rest[i + terminator..];
            }
            None => {
                lines.push(rest);
                break;
            }
        }
    }
    lines
}

/// Joins continued lines and drops blank and comment lines; yields each entry with the
/// number of the line it starts on. Escapes are left in place for `split_entry`.
fn logical_lines(text: &str) -> Vec<(usize, String)> {
    let mut entries = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (index, line) in natural_lines(text).into_iter().enumerate() {
        let content = line.trim_start_matches(is_blank);
        let continued = ends_with_odd_backslashes(content);
        let content = if continued {
            &content[..content.len() - 1]
        } else {
            content
        };
        match current.as_mut() {
            Some((_, entry)) => entry.push_str(content),
            // Comments and blank lines only count as such where an entry could begin.
            None if content.is_empty() && !continued => continue,
            None if content.starts_with(['#', '!']) => continue,
            None => current = Some((index + 1, content.to_string())),
        }
        if !continued {
            entries.extend(current.take());
        }
    }
    // A backslash on the very last line continues into nothing; Java keeps the entry.
    entries.extend(current);
    entries
}

/// True when `s` ends in an odd number of backslashes, i.e. the last one is not escaped.
fn ends_with_odd_backslashes(s: &str) -> bool {
    s.chars().rev().take_while(|&c| c == '\\').count() % 2 == 1
}

/// Splits one entry into its unescaped key and value.
fn split_entry(entry: &str) -> Result<(String, String), String> {
    let mut chars = entry.chars().peekable();
    let mut key = String::new();
    let mut separator_seen = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => unescape_one(&mut chars, &mut key)?,
            '=' | ':' => {
                separator_seen = true;
                break;
            }
            c if is_blank(c) => break,
            c => key.push(c),
        }
    }
    // Blanks, then at most one '=' or ':' if the key ended at a blank, then blanks.
    while let Some(&c) = chars.peek() {
        if is_blank(c) {
            chars.next();
        } else if !separator_seen && (c == '=' || c == ':') {
            separator_seen = true;
            chars.next();
        } else {
            break;
        }
    }
    let mut value = String::new();
    while let Some(c) = chars.next() {
        match c {
            '\\' => unescape_one(&mut chars, &mut value)?,
            c => value.push(c),
        }
    }
    Ok((key, value))
}

/// Reads the escape after a backslash and appends what it stands for. A `\u` escape of a
/// UTF-16 high surrogate takes the following `\uXXXX` low surrogate with it; an unpaired
/// surrogate becomes U+FFFD.
fn unescape_one(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    out: &mut String,
) -> Result<(), String> {
    match chars.next() {
        None => {}
        Some('t') => out.push('\t'),
        Some('n') => out.push('\n'),
        Some('r') => out.push('\r'),
        Some('f') => out.push('\x0c'),
        Some('u') => {
            let first = hex4(chars)?;
            let mut units = vec![first];
            if (0xD800..0xDC00).contains(&first) {
                let mut ahead = chars.clone();
                if ahead.next() == Some('\\') && ahead.next() == Some('u') {
                    if let Ok(second) = hex4(&mut ahead) {
                        if (0xDC00..0xE000).contains(&second) {
                            units.push(second);
                            *chars = ahead;
                        }
                    }
                }
            }
            out.extend(char::decode_utf16(units).map(|r| r.unwrap_or('\u{FFFD}')));
        }
        Some(other) => out.push(other),
    }
    Ok(())
}

/// The four hex digits of a `\u` escape.
fn hex4(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Result<u16, String> {
    let digits: String = chars.take(4).collect();
    if digits.len() == 4 && digits.chars().all(|c| c.is_ascii_hexdigit()) {
        u16::from_str_radix(&digits, 16).map_err(|e| e.to_string())
    } else {
        Err(format!("malformed \\uXXXX escape: \\u{digits}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn props(text: &str) -> Vec<(String, String)> {
        match parse(text) {
            Ok(map) => map.into_iter().collect(),
            Err(e) => panic!("{e}"),
        }
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        let mut v: Vec<_> = list
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn separators_and_surrounding_blanks() {
        let text = "a=1\nb:2\nc 3\nd\t = \t4\ne  :5\nf==6\ng = =7\nh\ni=\n  j = 8  \n";
        assert_eq!(
            props(text),
            pairs(&[
                ("a", "1"),
                ("b", "2"),
                ("c", "3"),
                ("d", "4"),
                ("e", "5"),
                ("f", "=6"),
                ("g", "=7"),
                ("h", ""),
                ("i", ""),
                ("j", "8  "),
            ])
        );
    }

    #[test]
    fn comments_and_blank_lines_are_skipped() {
        let text = "# hash\n! bang\n   # indented\n\n \t \nk=v # not a comment\n";
        assert_eq!(props(text), pairs(&[("k", "v # not a comment")]));
    }

    #[test]
    fn escapes_in_keys_and_values() {
        let text = "Elvis\\ Presley=graceland4evar\n\
                    a\\=b\\:c=d\\=e\n\
                    tab=x\\ty\\nz\\r\\f\n\
                    uni=\\u0041\\u00e9\\uD83D\\uDE00\n\
                    lone=\\uD800x\n\
                    other=\\q\\\\\n";
        assert_eq!(
            props(text),
            pairs(&[
                ("Elvis Presley", "graceland4evar"),
                ("a=b:c", "d=e"),
                ("tab", "x\ty\nz\r\x0c"),
                ("uni", "Aé😀"),
                ("lone", "\u{FFFD}x"),
                ("other", "q\\"),
            ])
        );
    }

    #[test]
    fn continuation_lines_join_without_leading_blanks() {
        let text = "list=a,\\\n    b,\\\n\tc\nnext=1\n# comment \\\nafter=2\nend=z\\";
        assert_eq!(
            props(text),
            pairs(&[
                ("list", "a,b,c"),
                ("next", "1"),
                ("after", "2"),
                ("end", "z")
            ])
        );
        // An even number of trailing backslashes is an escaped backslash, not a join.
        assert_eq!(props("k=v\\\\\nx=y"), pairs(&[("k", "v\\"), ("x", "y")]));
        // A blank continuation line ends the entry.
        assert_eq!(props("k=v\\\n   \nx=y"), pairs(&[("k", "v"), ("x", "y")]));
    }

    #[test]
    fn every_line_terminator_counts() {
        assert_eq!(
            props("a=1\r\nb=2\rc=3\nd=\\\r\n  4"),
            pairs(&[("a", "1"), ("b", "2"), ("c", "3"), ("d", "4")])
        );
    }

    #[test]
    fn later_entries_replace_earlier_ones_and_a_bom_is_ignored() {
        assert_eq!(props("\u{feff}k=1\nk=2"), pairs(&[("k", "2")]));
    }

    #[test]
    fn bytes_are_utf8_when_valid_and_latin1_otherwise() {
        let utf8 = parse_bytes("José=1".as_bytes());
        assert_eq!(utf8.map(|m| m.contains_key("José")), Ok(true));
        let latin1 = parse_bytes(b"Jos\xe9=1");
        assert_eq!(latin1.map(|m| m.contains_key("José")), Ok(true));
    }

    #[test]
    fn a_malformed_unicode_escape_is_an_error_with_its_line() {
        let err = parse("ok=1\n\nbad=\\u12G4\n");
        assert_eq!(
            err,
            Err(PropertiesError {
                line: 3,
                message: "malformed \\uXXXX escape: \\u12G4".to_string()
            })
        );
        assert!(parse("short=\\u12").is_err());
    }
}
