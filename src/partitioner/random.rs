//! RandomPartitioner tokens: |signed MD5(key)|, in 0..=2^127, with -1 as the minimum.
//! Parsed token strings may be any decimal integer, as 0.6 read them with `new BigInteger(s)`:
//! the type keeps a sign and a magnitude that is a `u128` when it fits (every key's token
//! does) and otherwise the normalised digits, which sort after every `u128`.

use md5::{Digest, Md5};
use std::cmp::Ordering;

/// The absolute value of a token.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Magnitude {
    Small(u128),
    /// Decimal digits without leading zeros, of a number above `u128::MAX`.
    Big(String),
}

impl Ord for Magnitude {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Magnitude::Small(a), Magnitude::Small(b)) => a.cmp(b),
            (Magnitude::Small(_), Magnitude::Big(_)) => Ordering::Less,
            (Magnitude::Big(_), Magnitude::Small(_)) => Ordering::Greater,
            (Magnitude::Big(a), Magnitude::Big(b)) => a.len().cmp(&b.len()).then_with(|| a.cmp(b)),
        }
    }
}

impl PartialOrd for Magnitude {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A RandomPartitioner token.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RandomToken {
    negative: bool,
    magnitude: Magnitude,
}

/// Where a token lies relative to the tokens real keys can have (0..=2^127).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RingPosition {
    /// Negative: before every key.
    BeforeAll,
    /// A value a key's token could have (or any other `u128`).
    At(u128),
    /// Beyond `u128::MAX`: after every key.
    AfterAll,
}

impl RandomToken {
    /// The token of the empty key, -1: the start and end of the ring.
    pub const MINIMUM: RandomToken = RandomToken {
        negative: true,
        magnitude: Magnitude::Small(1),
    };

    /// `abs(new BigInteger(md5(key)))`.
    pub fn of_key(key: &[u8]) -> RandomToken {
        if key.is_empty() {
            return Self::MINIMUM;
        }
        let digest: [u8; 16] = Md5::digest(key).into();
        Self::from_value(i128::from_be_bytes(digest).unsigned_abs())
    }

    /// A non-negative token.
    pub fn from_value(value: u128) -> RandomToken {
        RandomToken {
            negative: false,
            magnitude: Magnitude::Small(value),
        }
    }

    /// Where the token lies on the ring of key tokens.
    pub fn position(&self) -> RingPosition {
        match (&self.magnitude, self.negative) {
            (_, true) => RingPosition::BeforeAll,
            (Magnitude::Small(v), false) => RingPosition::At(*v),
            (Magnitude::Big(_), false) => RingPosition::AfterAll,
        }
    }

    /// Parses `BigInteger` decimal text: an optional sign and at least one digit.
    pub fn parse(s: &str) -> Option<RandomToken> {
        let (negative, digits) = match s.as_bytes().first()? {
            b'-' => (true, &s[1..]),
            b'+' => (false, &s[1..]),
            _ => (false, s),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let digits = digits.trim_start_matches('0');
        let magnitude = match digits.parse::<u128>() {
            Ok(v) => Magnitude::Small(v),
            Err(_) if digits.is_empty() => Magnitude::Small(0),
            Err(_) => Magnitude::Big(digits.to_string()),
        };
        let negative = negative && magnitude != Magnitude::Small(0);
        Some(RandomToken {
            negative,
            magnitude,
        })
    }
}

impl Ord for RandomToken {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.negative, other.negative) {
            (false, false) => self.magnitude.cmp(&other.magnitude),
            (true, true) => other.magnitude.cmp(&self.magnitude),
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
        }
    }
}

impl PartialOrd for RandomToken {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for RandomToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.negative {
            f.write_str("-")?;
        }
        match &self.magnitude {
            Magnitude::Small(v) => write!(f, "{v}"),
            Magnitude::Big(digits) => f.write_str(digits),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_order() {
        let min = RandomToken::parse("-1").unwrap();
        assert_eq!(min, RandomToken::MINIMUM);
        assert_eq!(
            RandomToken::parse("-0").unwrap(),
            RandomToken::from_value(0)
        );
        assert_eq!(RandomToken::parse("007").unwrap().to_string(), "7");
        assert!(RandomToken::parse("-5").unwrap() < min);
        assert!(min < RandomToken::from_value(0));
        let top = (1u128 << 127).to_string();
        assert_eq!(RandomToken::parse(&top).unwrap().to_string(), top);
        assert!(RandomToken::parse("").is_none());
        assert!(RandomToken::parse("-").is_none());
        assert!(RandomToken::parse("1e5").is_none());
    }

    #[test]
    fn numbers_beyond_u128_are_tokens_after_every_key() {
        let max = RandomToken::from_value(u128::MAX);
        let big = RandomToken::parse(&format!("{}0", u128::MAX)).unwrap();
        let bigger = RandomToken::parse(&"9".repeat(45)).unwrap();
        assert!(max < big && big < bigger);
        assert_eq!(bigger.to_string(), "9".repeat(45));
        assert_eq!(bigger.position(), RingPosition::AfterAll);
        let minus_big = RandomToken::parse(&format!("-{}", "9".repeat(45))).unwrap();
        assert!(minus_big < RandomToken::MINIMUM);
        assert_eq!(minus_big.position(), RingPosition::BeforeAll);
        assert_eq!(
            RandomToken::parse(&format!("000{}", "9".repeat(45))).unwrap(),
            bigger
        );
    }
}
