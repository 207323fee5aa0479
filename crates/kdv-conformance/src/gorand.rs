//! Go's `math/rand` as `rand.New(rand.NewSource(seed))` behaves: the additive lagged
//! Fibonacci source (`rngSource`) and the derived `Rand` methods randfill uses. Reproducing
//! it exactly is what makes generated map keys (which appear in field paths of the
//! `validate-false.json` fixtures) match upstream's.

const LEN: usize = 607;
const TAP: usize = 273;
const MASK: u64 = (1 << 63) - 1;
const INT32_MAX: i64 = (1 << 31) - 1;

/// The 607 "cooked" state words of Go's generator (data from Go's `math/rand/rng.go`; only
/// their low 63 bits matter, see [`Rand::int63`]).
const COOKED_TEXT: &str = include_str!("rng_cooked.txt");

/// One step of the seeding generator: `48271·x mod (2³¹−1)` by Schrage's method.
fn seedrand(x: i32) -> i32 {
    const A: i32 = 48271;
    const Q: i32 = 44488;
    const R: i32 = 3399;
    let hi = x / Q;
    let lo = x % Q;
    let mut x = A.wrapping_mul(lo).wrapping_sub(R.wrapping_mul(hi));
    if x < 0 {
        x = x.wrapping_add(INT32_MAX as i32);
    }
    x
}

/// `rand.New(rand.NewSource(seed))`.
#[derive(Clone)]
pub struct Rand {
    tap: usize,
    feed: usize,
    vec: Box<[u64; LEN]>,
}

impl Rand {
    /// Seeds exactly like Go's `rngSource.Seed`.
    pub fn new(seed: i64) -> Rand {
        let cooked: Vec<u64> = COOKED_TEXT
            .split_ascii_whitespace()
            .filter_map(|w| w.parse::<u64>().ok())
            .collect();
        let mut vec = Box::new([0u64; LEN]);
        let mut seed = seed % INT32_MAX;
        if seed < 0 {
            seed += INT32_MAX;
        }
        if seed == 0 {
            seed = 89_482_311;
        }
        let mut x = seed as i32;
        for i in -20i32..LEN as i32 {
            x = seedrand(x);
            if i >= 0 {
                let mut u = (i64::from(x) << 40) as u64;
                x = seedrand(x);
                u ^= (i64::from(x) << 20) as u64;
                x = seedrand(x);
                u ^= i64::from(x) as u64;
                u ^= cooked.get(i as usize).copied().unwrap_or(0);
                vec[i as usize] = u;
            }
        }
        Rand {
            tap: 0,
            feed: LEN - TAP,
            vec,
        }
    }

    /// The next raw 64-bit word. Addition wraps; masking to 63 bits afterwards gives the same
    /// `Int63` stream whether the state words carry Go's old (masked) or new (full) cooked
    /// values.
    fn next_word(&mut self) -> u64 {
        self.tap = if self.tap == 0 { LEN - 1 } else { self.tap - 1 };
        self.feed = if self.feed == 0 {
            LEN - 1
        } else {
            self.feed - 1
        };
        let x = self.vec[self.feed].wrapping_add(self.vec[self.tap]);
        self.vec[self.feed] = x;
        x
    }

    /// `Int63()`.
    pub fn int63(&mut self) -> i64 {
        (self.next_word() & MASK) as i64
    }

    /// `Uint32()`.
    pub fn uint32(&mut self) -> u32 {
        (self.int63() >> 31) as u32
    }

    /// `Int31()`.
    pub fn int31(&mut self) -> i32 {
        (self.int63() >> 32) as i32
    }

    /// `Int63n(n)`, `n > 0`.
    pub fn int63n(&mut self, n: i64) -> i64 {
        if n <= 0 {
            return 0;
        }
        if n & (n - 1) == 0 {
            return self.int63() & (n - 1);
        }
        let max = ((1u64 << 63) - 1 - (1u64 << 63) % n as u64) as i64;
        let mut v = self.int63();
        while v > max {
            v = self.int63();
        }
        v % n
    }

    /// `Int31n(n)`, `n > 0`.
    pub fn int31n(&mut self, n: i32) -> i32 {
        if n <= 0 {
            return 0;
        }
        if n & (n - 1) == 0 {
            return self.int31() & (n - 1);
        }
        let max = ((1u32 << 31) - 1 - (1u32 << 31) % n as u32) as i32;
        let mut v = self.int31();
        while v > max {
            v = self.int31();
        }
        v % n
    }

    /// `Intn(n)`, `n > 0`.
    pub fn intn(&mut self, n: i64) -> i64 {
        if n <= i64::from(i32::MAX) {
            i64::from(self.int31n(n as i32))
        } else {
            self.int63n(n)
        }
    }

    /// `Float64()`.
    pub fn float64(&mut self) -> f64 {
        loop {
            let f = self.int63() as f64 / (1u64 << 63) as f64;
            if f != 1.0 {
                return f;
            }
        }
    }

    /// `Float32()`.
    pub fn float32(&mut self) -> f32 {
        loop {
            let f = self.float64() as f32;
            if f != 1.0 {
                return f;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cooked_table_is_complete() {
        assert_eq!(COOKED_TEXT.split_ascii_whitespace().count(), LEN);
        assert!(
            COOKED_TEXT
                .split_ascii_whitespace()
                .all(|w| w.parse::<u64>().is_ok_and(|v| v <= MASK))
        );
    }

    #[test]
    fn seed_one_matches_go() {
        // The well-known first outputs of Go's `rand.Int63()` with seed 1.
        let mut r = Rand::new(1);
        assert_eq!(r.int63(), 5577006791947779410);
        assert_eq!(r.int63(), 8674665223082153551);
        assert_eq!(r.int63(), 6129484611666145821);
        assert_eq!(r.int63(), 4037200794235010051);
    }

    #[test]
    fn bounded_draws_stay_in_range() {
        let mut r = Rand::new(0);
        for n in [1, 2, 3, 20, 95, 527, 20992] {
            for _ in 0..50 {
                let v = r.intn(n);
                assert!((0..n).contains(&v));
            }
        }
        for _ in 0..50 {
            let f = r.float64();
            assert!((0.0..1.0).contains(&f));
        }
    }
}
