//! Partitioners: row key → token, the order of tokens, and their string forms
//! (`docs/api.md#partitioners`). Rows are ordered by (token, key bytes), so distinct keys never
//! collide even when their tokens are equal (`docs/compatibility.md#s6`).

mod copp;
mod random;

pub use copp::collation_key;
pub use random::{RandomToken, RingPosition};

use crate::comparator::hex;
use crate::error::{Error, Result};
use std::cmp::Ordering;

const DHT_PACKAGE: &str = "org.apache.cassandra.dht.";

/// The three 0.6 partitioners.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Partitioner {
    /// `RandomPartitioner`: the token is the key's MD5, made absolute.
    Random,
    /// `OrderPreservingPartitioner`: the token is the key.
    OrderPreserving,
    /// `CollatingOrderPreservingPartitioner`: the token is the key's en_US collation key.
    CollatingOrderPreserving,
}

/// A position on the ring. Tokens of different partitioners never meet.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Token {
    /// |signed MD5| of the key; the empty key is the minimum, -1.
    Random(RandomToken),
    /// The key itself, ordered by UTF-16 code units (Java `String.compareTo`).
    Ordered(String),
    /// The en_US collation key bytes, ordered unsigned.
    Collated(Vec<u8>),
}

impl Partitioner {
    /// Every partitioner, for tests and tables.
    pub const ALL: [Partitioner; 3] = [
        Partitioner::Random,
        Partitioner::OrderPreserving,
        Partitioner::CollatingOrderPreserving,
    ];

    /// Resolves `<Partitioner>`: the full class name or the bare class name.
    pub fn from_class_name(name: &str) -> Option<Partitioner> {
        let short = name.strip_prefix(DHT_PACKAGE).unwrap_or(name);
        Self::ALL.into_iter().find(|p| p.short_name() == short)
    }

    /// The class name without its package.
    pub fn short_name(self) -> &'static str {
        match self {
            Partitioner::Random => "RandomPartitioner",
            Partitioner::OrderPreserving => "OrderPreservingPartitioner",
            Partitioner::CollatingOrderPreserving => "CollatingOrderPreservingPartitioner",
        }
    }

    /// The fully-qualified class name, as `describe_partitioner` reports it.
    pub fn class_name(self) -> String {
        format!("{DHT_PACKAGE}{}", self.short_name())
    }

    /// The token of a row key.
    pub fn token(self, key: &str) -> Token {
        match self {
            Partitioner::Random => Token::Random(RandomToken::of_key(key.as_bytes())),
            Partitioner::OrderPreserving => Token::Ordered(key.to_string()),
            Partitioner::CollatingOrderPreserving => Token::Collated(collation_key(key)),
        }
    }

    /// The minimum token: what the empty key maps to, and "end of ring" as a range end.
    pub fn min_token(self) -> Token {
        match self {
            Partitioner::Random => Token::Random(RandomToken::MINIMUM),
            Partitioner::OrderPreserving => Token::Ordered(String::new()),
            Partitioner::CollatingOrderPreserving => Token::Collated(Vec::new()),
        }
    }

    /// Parses a token in this partitioner's string form; the error is the text of
    /// `docs/compatibility.md#d4`.
    pub fn parse_token(self, s: &str) -> Result<Token> {
        match self {
            Partitioner::Random => RandomToken::parse(s).map(Token::Random).ok_or_else(|| {
                Error::invalid(format!(
                    "Invalid token '{s}': RandomPartitioner tokens are decimal integers"
                ))
            }),
            Partitioner::OrderPreserving => Ok(Token::Ordered(s.to_string())),
            Partitioner::CollatingOrderPreserving => parse_hex(s).map(Token::Collated).ok_or_else(|| {
                Error::invalid(format!(
                    "Invalid token '{s}': CollatingOrderPreservingPartitioner tokens are hex strings of even length"
                ))
            }),
        }
    }

    /// A fresh token for this node when `<InitialToken>` is absent, from the given entropy.
    pub fn random_token(self, entropy: u128) -> Token {
        match self {
            Partitioner::Random => Token::Random(RandomToken::from_value(entropy >> 1)),
            Partitioner::OrderPreserving => {
                let alphabet = b"abcdefghijklmnopqrstuvwxyz0123456789";
                let s = (0..16)
                    .map(|i| {
                        alphabet[((entropy >> (i * 6)) % alphabet.len() as u128) as usize] as char
                    })
                    .collect();
                Token::Ordered(s)
            }
            Partitioner::CollatingOrderPreserving => {
                Token::Collated(entropy.to_be_bytes().to_vec())
            }
        }
    }
}

impl Token {
    /// True for the partitioner's minimum token.
    pub fn is_minimum(&self) -> bool {
        match self {
            Token::Random(t) => *t == RandomToken::MINIMUM,
            Token::Ordered(s) => s.is_empty(),
            Token::Collated(b) => b.is_empty(),
        }
    }

    /// Java `Token.toString()`, the form used as keys of the "token map" property.
    pub fn java_to_string(&self) -> String {
        match self {
            Token::Collated(b) => format!("Token(bytes[{}])", hex(b)),
            other => other.to_string(),
        }
    }
}

/// The token string form the partitioner's TokenFactory parses and prints.
impl std::fmt::Display for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Token::Random(t) => write!(f, "{t}"),
            Token::Ordered(s) => f.write_str(s),
            Token::Collated(b) => f.write_str(&hex(b)),
        }
    }
}

impl Ord for Token {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Token::Random(a), Token::Random(b)) => a.cmp(b),
            (Token::Ordered(a), Token::Ordered(b)) => a.encode_utf16().cmp(b.encode_utf16()),
            (Token::Collated(a), Token::Collated(b)) => a.cmp(b),
            // Tokens of different partitioners are never compared; any fixed order will do.
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl PartialOrd for Token {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Token {
    fn rank(&self) -> u8 {
        match self {
            Token::Random(_) => 0,
            Token::Ordered(_) => 1,
            Token::Collated(_) => 2,
        }
    }
}

/// Even-length hex in either case.
fn parse_hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || !s.is_ascii() {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_reference_tokens() {
        let p = Partitioner::Random;
        for (key, token) in [
            ("a", "16955237001963240173058271559858726497"),
            ("b", "144992942750327304334463589818972416113"),
            ("key1", "81509516161424251288255223397843705139"),
            ("key2", "160795813082586690235759048260910463706"),
        ] {
            assert_eq!(p.token(key).to_string(), token, "key {key}");
            assert_eq!(p.parse_token(token).unwrap(), p.token(key));
        }
        assert!(p.token("key2") > p.token("b"));
        assert!(p.token("key1") < p.token("b"));
        assert_eq!(p.token("").to_string(), "-1");
        assert!(p.token("").is_minimum());
    }

    #[test]
    fn opp_orders_by_utf16_units() {
        let p = Partitioner::OrderPreserving;
        // U+FF01 is one unit 0xFF01; U+1F600 is the surrogate pair D83D DE00: it sorts first
        // in Java even though its UTF-8 bytes sort last.
        assert!(p.token("\u{1F600}") < p.token("\u{FF01}"));
        assert!(p.token("a") < p.token("b"));
        assert!(p.token("") < p.token("\u{1}"));
    }

    #[test]
    fn token_strings_and_d4_messages() {
        let copp = Partitioner::CollatingOrderPreserving;
        assert_eq!(
            copp.parse_token("0053ABcd").unwrap(),
            Token::Collated(vec![0, 0x53, 0xAB, 0xCD])
        );
        assert_eq!(
            copp.parse_token("abc").unwrap_err(),
            Error::invalid(
                "Invalid token 'abc': CollatingOrderPreservingPartitioner tokens are hex strings of even length"
            )
        );
        assert!(copp.parse_token("zz").is_err());
        assert_eq!(
            Partitioner::Random.parse_token("12a").unwrap_err(),
            Error::invalid("Invalid token '12a': RandomPartitioner tokens are decimal integers")
        );
        assert_eq!(
            Partitioner::OrderPreserving
                .parse_token("any thing")
                .unwrap()
                .to_string(),
            "any thing"
        );
        assert_eq!(
            copp.token("a").java_to_string(),
            "Token(bytes[00530000000100000001])"
        );
    }

    #[test]
    fn class_names_resolve() {
        for p in Partitioner::ALL {
            assert_eq!(Partitioner::from_class_name(&p.class_name()), Some(p));
            assert_eq!(Partitioner::from_class_name(p.short_name()), Some(p));
        }
        assert_eq!(Partitioner::from_class_name("org.example.Other"), None);
    }
}
