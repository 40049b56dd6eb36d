//! RandomPartitioner tokens: |signed MD5(key)|, in 0..=2^127, with -1 as the minimum.
//! Parsed token strings may be any decimal integer of magnitude below 2^128, so the type
//! keeps a sign and a magnitude rather than squeezing 2^127 into an i128.

use md5::{Digest, Md5};
use std::cmp::Ordering;

/// A RandomPartitioner token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RandomToken {
    negative: bool,
    magnitude: u128,
}

impl RandomToken {
    /// The token of the empty key, -1: the start and end of the ring.
    pub const MINIMUM: RandomToken = RandomToken {
        negative: true,
        magnitude: 1,
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
            magnitude: value,
        }
    }

    /// The token's value when it is not negative (every token of a real key).
    pub fn value(self) -> Option<u128> {
        (!self.negative).then_some(self.magnitude)
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
        let magnitude = digits.bytes().try_fold(0u128, |acc, d| {
            acc.checked_mul(10)?.checked_add(u128::from(d - b'0'))
        })?;
        Some(RandomToken {
            negative: negative && magnitude != 0,
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
        write!(f, "{}", self.magnitude)
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
        assert!(RandomToken::parse("-5").unwrap() < min);
        assert!(min < RandomToken::from_value(0));
        let top = (1u128 << 127).to_string();
        assert_eq!(RandomToken::parse(&top).unwrap().to_string(), top);
        assert!(RandomToken::parse("").is_none());
        assert!(RandomToken::parse("-").is_none());
        assert!(RandomToken::parse("1e5").is_none());
        assert!(RandomToken::parse(&format!("{}0", u128::MAX)).is_none());
    }
}
