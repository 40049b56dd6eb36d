//! Partitioners: row key bytes → token, the order of tokens, and their string forms
//! (`docs/api.md#partitioners`). Row keys are bytes; the 0.6 API's string keys are their UTF-8
//! bytes. Rows are ordered by (token, key bytes), so distinct keys never collide even when
//! their tokens are equal (`docs/compatibility.md#s6`).

mod copp;
mod murmur3;
mod random;

pub use copp::collation_key;
pub use random::{RandomToken, RingPosition};

use crate::comparator::hex;
use crate::error::{Error, Result};
use std::cmp::Ordering;

const DHT_PACKAGE: &str = "org.apache.cassandra.dht.";

/// The three 0.6 partitioners and the two of the later API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Partitioner {
    /// `RandomPartitioner`: the token is the key's MD5, made absolute.
    Random,
    /// `OrderPreservingPartitioner`: the token is the key.
    OrderPreserving,
    /// `CollatingOrderPreservingPartitioner`: the token is the key's en_US collation key.
    CollatingOrderPreserving,
    /// `Murmur3Partitioner`: the token is a 64-bit hash of the key.
    Murmur3,
    /// `ByteOrderedPartitioner`: the token is the key bytes.
    ByteOrdered,
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
    /// Murmur3Partitioner's signed 64-bit token; `i64::MIN` is the minimum.
    Murmur3(i64),
    /// ByteOrderedPartitioner's token, the key bytes, ordered unsigned.
    Bytes(Vec<u8>),
}

impl Partitioner {
    /// Every partitioner, for tests and tables.
    pub const ALL: [Partitioner; 5] = [
        Partitioner::Random,
        Partitioner::OrderPreserving,
        Partitioner::CollatingOrderPreserving,
        Partitioner::Murmur3,
        Partitioner::ByteOrdered,
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
            Partitioner::Murmur3 => "Murmur3Partitioner",
            Partitioner::ByteOrdered => "ByteOrderedPartitioner",
        }
    }

    /// The fully-qualified class name, as `describe_partitioner` reports it.
    pub fn class_name(self) -> String {
        format!("{DHT_PACKAGE}{}", self.short_name())
    }

    /// The token of a row key (`docs/api.md#partitioners`). Total for any bytes: OPP's token
    /// of a key that is not UTF-8 is its lowercase hex; COPP collates such a key with each
    /// invalid sequence read as U+FFFD, which only scan bounds can meet, since
    /// [`Partitioner::check_key`] keeps such keys out of a COPP store.
    pub fn token(self, key: &[u8]) -> Token {
        match self {
            Partitioner::Random => Token::Random(RandomToken::of_key(key)),
            Partitioner::OrderPreserving => Token::Ordered(match std::str::from_utf8(key) {
                Ok(s) => s.to_string(),
                Err(_) => hex(key),
            }),
            Partitioner::CollatingOrderPreserving => {
                Token::Collated(collation_key(&String::from_utf8_lossy(key)))
            }
            Partitioner::Murmur3 => Token::Murmur3(murmur3::token_of(key)),
            Partitioner::ByteOrdered => Token::Bytes(key.to_vec()),
        }
    }

    /// Refuses a key this partitioner cannot store: under COPP a key that is not UTF-8
    /// (decision F5 of the later-API spec). Every other partitioner takes any bytes.
    pub fn check_key(self, key: &[u8]) -> Result<()> {
        if self == Partitioner::CollatingOrderPreserving && std::str::from_utf8(key).is_err() {
            return Err(Error::invalid("The provided key was not UTF8 encoded."));
        }
        Ok(())
    }

    /// The minimum token: what the empty key maps to, and "end of ring" as a range end.
    pub fn min_token(self) -> Token {
        match self {
            Partitioner::Random => Token::Random(RandomToken::MINIMUM),
            Partitioner::OrderPreserving => Token::Ordered(String::new()),
            Partitioner::CollatingOrderPreserving => Token::Collated(Vec::new()),
            Partitioner::Murmur3 => Token::Murmur3(murmur3::MINIMUM),
            Partitioner::ByteOrdered => Token::Bytes(Vec::new()),
        }
    }

    /// Parses a token in this partitioner's string form; the error is the text of
    /// `docs/compatibility.md#d4` for the 0.6 partitioners and of the later-API spec §3.2 (F1)
    /// for Murmur3 and ByteOrdered.
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
            // Java's Long.parseLong: an optional sign, then decimal digits within i64.
            Partitioner::Murmur3 => s.parse::<i64>().map(Token::Murmur3).map_err(|_| {
                Error::invalid(format!(
                    "Invalid token for Murmur3Partitioner. Got {s} but expected a long value (unsigned 8 bytes integer)."
                ))
            }),
            Partitioner::ByteOrdered => {
                let padded = if s.len() % 2 == 1 { format!("0{s}") } else { s.to_string() };
                parse_hex(&padded).map(Token::Bytes).ok_or_else(|| {
                    Error::invalid(format!("Token {s} contains non-hex digits"))
                })
            }
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
            // Never the minimum: that one means "end of ring" as a range end.
            Partitioner::Murmur3 => Token::Murmur3(match entropy as u64 as i64 {
                i64::MIN => i64::MAX,
                t => t,
            }),
            Partitioner::ByteOrdered => Token::Bytes(entropy.to_be_bytes().to_vec()),
        }
    }
}

impl Token {
    /// True for the partitioner's minimum token.
    pub fn is_minimum(&self) -> bool {
        match self {
            Token::Random(t) => *t == RandomToken::MINIMUM,
            Token::Ordered(s) => s.is_empty(),
            Token::Collated(b) | Token::Bytes(b) => b.is_empty(),
            Token::Murmur3(t) => *t == murmur3::MINIMUM,
        }
    }

    /// Java `Token.toString()`, the form used as keys of the "token map" property.
    pub fn java_to_string(&self) -> String {
        match self {
            Token::Collated(b) | Token::Bytes(b) => format!("Token(bytes[{}])", hex(b)),
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
            Token::Collated(b) | Token::Bytes(b) => f.write_str(&hex(b)),
            Token::Murmur3(t) => write!(f, "{t}"),
        }
    }
}

impl Ord for Token {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Token::Random(a), Token::Random(b)) => a.cmp(b),
            (Token::Ordered(a), Token::Ordered(b)) => a.encode_utf16().cmp(b.encode_utf16()),
            (Token::Collated(a), Token::Collated(b)) => a.cmp(b),
            (Token::Murmur3(a), Token::Murmur3(b)) => a.cmp(b),
            (Token::Bytes(a), Token::Bytes(b)) => a.cmp(b),
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
            Token::Murmur3(_) => 3,
            Token::Bytes(_) => 4,
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
mod tests;
