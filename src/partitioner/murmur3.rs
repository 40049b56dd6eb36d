//! Murmur3Partitioner tokens (`docs/api.md#murmur3-partitioner`): the first 64-bit half of
//! Cassandra's variant of MurmurHash3_x64_128 with seed 0, as a signed `i64`.
//!
//! The variant differs from the reference hash only in the tail (the last `len mod 16`
//! bytes): each tail byte is sign-extended from `i8` before it is shifted into its lane, so a
//! tail byte ≥ 0x80 also flips every higher bit of that lane. Written from the description in
//! the later-API spec §3.2 and checked against its reference values; tokens decide row order
//! on disk, so this must never change.

const C1: u64 = 0x87c3_7b91_1142_53d5;
const C2: u64 = 0x4cf5_ad43_2745_937f;

/// The token of the empty key: the minimum, and "end of ring" as a range end.
pub const MINIMUM: i64 = i64::MIN;

/// The Murmur3Partitioner token of a key. `i64::MIN` is the minimum token, which only the
/// empty key has: a non-empty key hashing to it gets `i64::MAX` instead.
pub fn token_of(key: &[u8]) -> i64 {
    if key.is_empty() {
        return MINIMUM;
    }
    match hash_h1(key) as i64 {
        i64::MIN => i64::MAX,
        t => t,
    }
}

fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}

fn mix_k1(k1: u64) -> u64 {
    k1.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2)
}

fn mix_k2(k2: u64) -> u64 {
    k2.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1)
}

/// One lane of the tail: bytes (at most 8) placed little-endian, each sign-extended.
fn tail_lane(bytes: &[u8]) -> u64 {
    bytes.iter().enumerate().fold(0u64, |k, (i, &b)| {
        k ^ ((i64::from(b as i8) as u64) << (i * 8))
    })
}

/// h1 of the 128-bit hash with seed 0.
fn hash_h1(key: &[u8]) -> u64 {
    let (mut h1, mut h2) = (0u64, 0u64);
    let mut blocks = key.chunks_exact(16);
    for block in &mut blocks {
        let lane = |i: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&block[i..i + 8]);
            u64::from_le_bytes(b)
        };
        h1 ^= mix_k1(lane(0));
        h1 = h1
            .rotate_left(27)
            .wrapping_add(h2)
            .wrapping_mul(5)
            .wrapping_add(0x52dc_e729);
        h2 ^= mix_k2(lane(8));
        h2 = h2
            .rotate_left(31)
            .wrapping_add(h1)
            .wrapping_mul(5)
            .wrapping_add(0x3849_5ab5);
    }
    let tail = blocks.remainder();
    if tail.len() > 8 {
        h2 ^= mix_k2(tail_lane(&tail[8..]));
    }
    if !tail.is_empty() {
        h1 ^= mix_k1(tail_lane(&tail[..tail.len().min(8)]));
    }
    let len = key.len() as u64;
    h1 ^= len;
    h2 ^= len;
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1.wrapping_add(h2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every Murmur3 reference value of the later-API spec §3.2.
    #[test]
    fn spec_reference_values() {
        let one_to_sixteen: Vec<u8> = (1..=16).collect();
        let cases: [(Vec<u8>, i64); 10] = [
            (b"123".to_vec(), -7468325962851647638),
            (b"a".to_vec(), -8839064797231613815),
            (b"b".to_vec(), 8833996863197925870),
            (b"key1".to_vec(), 1573573083296714675),
            (b"key2".to_vec(), 8482869187405483569),
            (vec![0xFE; 8], -8927430733708461935),
            (vec![0x10; 8], 1446172840243228796),
            (b"9223372036854775807".to_vec(), 7162290910810015547),
            (
                [0x00, 0xFF, 0x10, 0xFA, 0x99].repeat(10),
                5837342703291459765,
            ),
            (one_to_sixteen, -5563837382979743776),
        ];
        for (key, token) in cases {
            assert_eq!(token_of(&key), token, "key {key:02x?}");
        }
        assert_eq!(token_of(b""), i64::MIN);
    }

    #[test]
    fn tail_bytes_are_sign_extended() {
        // Below 0x80 a tail byte is the same either way; 0xFE sets every higher bit of its
        // lane, so the lane differs from the unsigned reading.
        assert_eq!(tail_lane(&[0x10, 0x20]), 0x2010);
        assert_eq!(tail_lane(&[0xFE]), u64::MAX - 1);
        assert_eq!(tail_lane(&[0x01, 0xFE]), 0xFFFF_FFFF_FFFF_FE01);
    }
}
