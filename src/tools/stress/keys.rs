//! Which keys the load touches and what they look like. Keys are decimal numbers zero-padded
//! to the width of `n` (so `-n 200000` gives `000000` … `199999`), as stress.py wrote them;
//! random keys are uniform over `[0, n)` or Gaussian around `n/2` with a standard deviation
//! of a fraction of `n`, redrawn until they fall inside the range. The generator is a small
//! seeded SplitMix64: fast, allocation-free and reproducible, which is all a load generator
//! needs (no cryptographic quality).

use std::fmt::Write;

/// A seeded pseudo-random generator (SplitMix64).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator whose sequence is fixed by `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, n)` (`n` > 0), by the multiply-and-shift reduction.
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Standard normal, by the Box–Muller transform.
    pub fn normal(&mut self) -> f64 {
        // 1 - unit() is in (0, 1], so the logarithm is finite.
        let r = (-2.0 * (1.0 - self.unit()).ln()).sqrt();
        r * (std::f64::consts::TAU * self.unit()).cos()
    }
}

/// How random keys are drawn from `[0, n)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum KeyDist {
    /// Every key equally likely.
    Uniform {
        /// Number of keys.
        n: u64,
    },
    /// Normal around `mean`, redrawn when outside `[0, n)`.
    Gaussian {
        /// Number of keys.
        n: u64,
        /// Centre, n/2.
        mean: f64,
        /// Standard deviation in keys.
        stdev: f64,
    },
}

impl KeyDist {
    /// Gaussian over `n` keys with a standard deviation of `fraction × n` (stress.py: 0.1).
    pub fn gaussian(n: u64, fraction: f64) -> KeyDist {
        KeyDist::Gaussian {
            n,
            mean: n as f64 / 2.0,
            stdev: fraction * n as f64,
        }
    }

    /// One key number.
    pub fn sample(&self, rng: &mut Rng) -> u64 {
        match *self {
            KeyDist::Uniform { n } => rng.below(n),
            KeyDist::Gaussian { n, mean, stdev } => loop {
                let x = (mean + stdev * rng.normal()).floor();
                if x >= 0.0 && x < n as f64 {
                    return x as u64;
                }
            },
        }
    }
}

/// Writes key numbers as zero-padded decimal strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyFormat {
    width: usize,
}

impl KeyFormat {
    /// Keys padded to the number of digits of `n`.
    pub fn for_count(n: u64) -> KeyFormat {
        KeyFormat {
            width: n.to_string().len(),
        }
    }

    /// Keys padded to `width` digits.
    pub fn with_width(width: usize) -> KeyFormat {
        KeyFormat { width }
    }

    /// Replaces `buf` with key number `i`.
    pub fn write(&self, i: u64, buf: &mut String) {
        buf.clear();
        // Writing to a String cannot fail.
        let _ = write!(buf, "{i:0width$}", width = self.width);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_padded_to_the_width_of_n() {
        let mut s = String::new();
        let f = KeyFormat::for_count(200_000);
        f.write(0, &mut s);
        assert_eq!(s, "000000");
        f.write(199_999, &mut s);
        assert_eq!(s, "199999");
        KeyFormat::for_count(1_000_000).write(42, &mut s);
        assert_eq!(s, "0000042");
        KeyFormat::for_count(1).write(0, &mut s);
        assert_eq!(s, "0");
    }

    #[test]
    fn the_generator_is_reproducible() {
        let a: Vec<u64> = (0..5)
            .scan(Rng::new(7), |r, _| Some(r.next_u64()))
            .collect();
        let b: Vec<u64> = (0..5)
            .scan(Rng::new(7), |r, _| Some(r.next_u64()))
            .collect();
        assert_eq!(a, b);
        assert_ne!(a[0], Rng::new(8).next_u64());
    }

    #[test]
    fn uniform_keys_cover_the_range_evenly() {
        let dist = KeyDist::Uniform { n: 10 };
        let mut rng = Rng::new(1);
        let mut counts = [0u32; 10];
        for _ in 0..100_000 {
            counts[dist.sample(&mut rng) as usize] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn gaussian_keys_stay_in_range_around_the_middle() {
        let n = 1_000;
        let dist = KeyDist::gaussian(n, 0.1);
        let mut rng = Rng::new(3);
        let samples: Vec<f64> = (0..200_000)
            .map(|_| dist.sample(&mut rng))
            .inspect(|&k| assert!(k < n))
            .map(|k| k as f64)
            .collect();
        let mean = samples.iter().sum::<f64>() / samples.len() as f64;
        let var = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / samples.len() as f64;
        // floor() shifts the mean down by half a key.
        assert!((mean - 499.5).abs() < 1.0, "mean {mean}");
        assert!((var.sqrt() - 100.0).abs() < 2.0, "stdev {}", var.sqrt());
        // About 68% within one standard deviation.
        let within = samples
            .iter()
            .filter(|&&x| (x - 500.0).abs() < 100.0)
            .count();
        let share = within as f64 / samples.len() as f64;
        assert!((0.66..0.70).contains(&share), "{share}");
    }

    #[test]
    fn a_wide_gaussian_is_redrawn_into_the_range() {
        let dist = KeyDist::gaussian(10, 5.0);
        let mut rng = Rng::new(5);
        assert!((0..10_000).all(|_| dist.sample(&mut rng) < 10));
    }
}
