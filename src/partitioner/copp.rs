//! Collation keys for CollatingOrderPreservingPartitioner
//! (`docs/api.md#collating-partitioner`).
//!
//! A key is `primary weights ++ 0000 ++ secondary weights ++ 0000 ++ tertiary weights`, each
//! weight a 16-bit big-endian number. For characters U+0001–U+007F the weights come from
//! `copp-ascii-jdk17.tsv` (generated with the JDK 17 en_US collator), so ASCII keys match
//! Java byte for byte.
//!
//! **ilion rule for every other character** (U+0000 and U+0080 and above;
//! `docs/compatibility.md#s7`), which Java's full collation tables would be needed to
//! reproduce: the character contributes the two primary weights `0x8000 | (cp >> 15)` and
//! `0x8000 | (cp & 0x7FFF)`, the secondary weight `0001` and the tertiary weight `0001`. So
//! such characters sort after every ASCII primary, among themselves by code point, and the rule
//! never touches an ASCII-only key. It is fixed forever: tokens decide row order on disk.

use std::sync::OnceLock;

/// Per-level weights of one character: primary, secondary, tertiary.
type Weights = [Vec<u16>; 3];

const TABLE_TEXT: &str = include_str!("copp-ascii-jdk17.tsv");

/// The weights for U+0000..=U+007F, indexed by code point (index 0 unused: U+0000 is not in
/// the table and takes the fallback rule).
fn ascii_table() -> &'static [Weights; 128] {
    static TABLE: OnceLock<[Weights; 128]> = OnceLock::new();
    TABLE.get_or_init(|| parse_table(TABLE_TEXT).expect("bundled COPP table is well-formed"))
}

fn parse_table(text: &str) -> Result<[Weights; 128], String> {
    let mut table: [Weights; 128] = std::array::from_fn(|_| Default::default());
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split('\t').map(str::trim).collect();
        let [ch, levels @ ..] = cols.as_slice() else {
            return Err(format!("bad line {line:?}"));
        };
        if levels.len() != 3 {
            return Err(format!("bad line {line:?}"));
        }
        let ch = usize::from_str_radix(ch, 16).map_err(|e| format!("{line:?}: {e}"))?;
        let slot = table
            .get_mut(ch)
            .ok_or_else(|| format!("char out of range in {line:?}"))?;
        for (level, text) in levels.iter().enumerate() {
            slot[level] = parse_weights(text).ok_or_else(|| format!("bad weights in {line:?}"))?;
        }
    }
    Ok(table)
}

fn parse_weights(text: &str) -> Option<Vec<u16>> {
    if text == "-" {
        return Some(Vec::new());
    }
    if !text.len().is_multiple_of(4) {
        return None;
    }
    (0..text.len())
        .step_by(4)
        .map(|i| u16::from_str_radix(text.get(i..i + 4)?, 16).ok())
        .collect()
}

/// The collation key of `key`. The empty key maps to the empty (minimum) token.
pub fn collation_key(key: &str) -> Vec<u8> {
    if key.is_empty() {
        return Vec::new();
    }
    let table = ascii_table();
    let mut levels: [Vec<u16>; 3] = Default::default();
    for ch in key.chars() {
        let cp = ch as u32;
        match table.get(cp as usize).filter(|_| cp != 0) {
            Some(weights) => {
                for (level, w) in weights.iter().enumerate() {
                    levels[level].extend_from_slice(w);
                }
            }
            None => {
                levels[0].extend_from_slice(&[
                    0x8000 | (cp >> 15) as u16,
                    0x8000 | (cp & 0x7FFF) as u16,
                ]);
                levels[1].push(0x0001);
                levels[2].push(0x0001);
            }
        }
    }
    let mut out = Vec::with_capacity(2 * (levels.iter().map(Vec::len).sum::<usize>() + 2));
    for (i, level) in levels.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(&[0, 0]);
        }
        for w in level {
            out.extend_from_slice(&w.to_be_bytes());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::comparator::hex;

    #[test]
    fn table_covers_every_ascii_char() {
        let text_lines = TABLE_TEXT.lines().filter(|l| !l.starts_with('#')).count();
        assert_eq!(text_lines, 127);
        assert!(parse_table(TABLE_TEXT).is_ok());
    }

    #[test]
    fn reference_tokens_from_the_docs() {
        for (key, token) in [
            ("a", "00530000000100000001"),
            ("e", "00580000000100000001"),
            ("0", "00460000000100000001"),
            ("10", "00470046000000010001000000010001"),
            ("-a", "0053000000e30001000000030001"),
            ("A", "00530000000100000002"),
        ] {
            assert_eq!(hex(&collation_key(key)), token, "key {key:?}");
        }
        assert_eq!(collation_key(""), Vec::<u8>::new());
    }

    #[test]
    fn collated_order_from_the_docs() {
        let keys = ["0", "1", "10", "19", "2", "20", "99", "a", "-a", "b", "-b"];
        for pair in keys.windows(2) {
            assert!(collation_key(pair[0]) < collation_key(pair[1]), "{pair:?}");
        }
    }

    #[test]
    fn non_ascii_rule_is_fixed() {
        // U+00E9: primaries 8000, 80e9; secondary 0001; tertiary 0001.
        assert_eq!(
            hex(&collation_key("é")),
            "800080e9000000010000".to_string() + "0001"
        );
        assert!(collation_key("z") < collation_key("é"));
        assert!(collation_key("é") < collation_key("日"));
        assert_eq!(
            hex(&collation_key("\u{0}")),
            "80008000000000010000".to_string() + "0001"
        );
    }
}
