//! A fast hasher for tables keyed by names the program itself chose (declaration names,
//! patterns of one environment): lookups happen on every name the checker resolves.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Declaration tables are looked up on every name the checker resolves: a multiplicative hash
/// (FxHash) is several times faster than SipHash on short names and the keys are not
/// attacker-chosen (they are the declarations' own names).
pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// FxHash: one rotate, xor and multiply per 8 bytes.
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0xf135_7aea_2e62_a9c5;
        let mut h = self.0;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
        self.0 = h;
    }

    fn write_u8(&mut self, i: u8) {
        self.write(&[i]);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
