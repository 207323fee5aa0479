//! `sigs.k8s.io/randfill` as testscheme configures it for fixture tests (`NilChance(0)`,
//! `NumElements(2, 2)`, `MaxDepth(8)`, `RandSource(rand.NewSource(0))`), over the type model:
//! the same random draws in the same order as Go's reflection-driven filler, so generated
//! strings (map keys in error paths) come out identical.

use kdv_model::{Builtin, TypeRef};

use crate::gorand::Rand;
use crate::interp::Interp;
use crate::types::{int_kind, wrap_int};
use crate::value::{Value, cell};

/// Values below this depth are filled; deeper ones keep their zero value.
const MAX_DEPTH: u32 = 8;
/// Elements per slice and entries attempted per map.
const NUM_ELEMENTS: usize = 2;

/// The three rune ranges randfill draws string characters from.
const UNICODE_RANGES: [(u32, u32); 3] = [(0x20, 0x7e), (0xa0, 0x2af), (0x4e00, 0x9fff)];

/// A filler with its own random stream.
pub struct Filler {
    rng: Rand,
}

impl Default for Filler {
    fn default() -> Self {
        Filler::new()
    }
}

impl Filler {
    /// A fresh filler seeded like testscheme's (`rand.NewSource(0)`).
    pub fn new() -> Filler {
        Filler { rng: Rand::new(0) }
    }

    fn rand_u64(&mut self) -> u64 {
        (u64::from(self.rng.uint32()) << 32) | u64::from(self.rng.uint32())
    }

    fn rand_string(&mut self) -> String {
        let n = self.rng.intn(20);
        let mut s = String::new();
        for _ in 0..n {
            let (first, last) = UNICODE_RANGES[self.rng.intn(3) as usize];
            let c = first + self.rng.int63n(i64::from(last - first + 1)) as u32;
            s.push(char::from_u32(c).unwrap_or('\u{fffd}'));
        }
        s
    }

    /// Fills a value of type `ty` at `depth` (the root struct is at depth 0). Interfaces
    /// cannot be filled (randfill panics on them).
    pub fn fill(&mut self, it: &Interp<'_, '_>, ty: &TypeRef, depth: u32) -> Result<Value, String> {
        if depth >= MAX_DEPTH {
            return Ok(it.zero(ty));
        }
        let d = depth + 1;
        let under = it.env().underlying(ty);
        Ok(match under {
            TypeRef::Builtin(b) => match b {
                Builtin::Bool => Value::Bool(ty.clone(), self.rng.int31() & (1 << 30) == 0),
                Builtin::String => Value::Str(ty.clone(), self.rand_string()),
                Builtin::Float64 => Value::Float(ty.clone(), self.rng.float64()),
                Builtin::Float32 => Value::Float(ty.clone(), f64::from(self.rng.float32())),
                b if b.is_integer() => {
                    let (bits, signed) = int_kind(b).unwrap_or((64, true));
                    let raw = self.rand_u64();
                    // SetInt(int64(x)) / SetUint(x) truncate to the field's width.
                    let v = if signed {
                        wrap_int(i128::from(raw as i64), bits, true)
                    } else {
                        wrap_int(i128::from(raw), bits, false)
                    };
                    Value::Int(ty.clone(), v)
                }
                other => return Err(format!("randfill cannot fill {}", other.name())),
            },
            TypeRef::Pointer(elem) => {
                self.rng.float64();
                let v = self.fill(it, &elem, d)?;
                Value::Ptr(*elem, Some(cell(v)))
            }
            TypeRef::Slice(elem) => {
                self.rng.float64();
                let mut items = Vec::with_capacity(NUM_ELEMENTS);
                for _ in 0..NUM_ELEMENTS {
                    items.push(self.fill(it, &elem, d)?);
                }
                Value::Slice(
                    ty.clone(),
                    Some(std::rc::Rc::new(std::cell::RefCell::new(items))),
                )
            }
            TypeRef::Array { elem, len } => {
                self.rng.float64();
                let n: usize = len.parse().unwrap_or(0).min(4096);
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    items.push(self.fill(it, &elem, d)?);
                }
                Value::Array(ty.clone(), items)
            }
            TypeRef::Map { key, value } => {
                self.rng.float64();
                let mut entries: Vec<(Value, Value)> = Vec::new();
                for _ in 0..NUM_ELEMENTS {
                    let k = self.fill(it, &key, d)?;
                    let v = self.fill(it, &value, d)?;
                    // Equal keys (e.g. two zero keys at the depth limit) collapse.
                    match entries.iter().position(|(ek, _)| same_key(ek, &k)) {
                        Some(i) => entries[i].1 = v,
                        None => entries.push((k, v)),
                    }
                }
                Value::Map(
                    ty.clone(),
                    Some(std::rc::Rc::new(std::cell::RefCell::new(entries))),
                )
            }
            TypeRef::Struct(st) => {
                let mut fields = Vec::with_capacity(st.fields.len());
                for f in &st.fields {
                    if f.is_exported() {
                        fields.push(self.fill(it, &f.ty, d)?);
                    } else {
                        // Not settable: randfill leaves it alone without drawing.
                        fields.push(it.zero(&f.ty));
                    }
                }
                Value::Struct(ty.clone(), fields)
            }
            TypeRef::Interface => return Err("randfill cannot fill an interface".into()),
            TypeRef::Named(n) => {
                return Err(format!("randfill: unknown type {}.{}", n.package, n.name));
            }
            TypeRef::Unsupported(s) => return Err(format!("randfill cannot fill {s}")),
        })
    }
}

fn same_key(a: &Value, b: &Value) -> bool {
    match (a.as_str(), b.as_str()) {
        (Some(x), Some(y)) => x == y,
        _ => match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) => x == y,
            _ => match (a.as_bool(), b.as_bool()) {
                (Some(x), Some(y)) => x == y,
                _ => false,
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_use_the_three_ranges() {
        let mut f = Filler::new();
        for _ in 0..50 {
            let s = f.rand_string();
            assert!(s.chars().count() < 20);
            assert!(s.chars().all(|c| {
                UNICODE_RANGES
                    .iter()
                    .any(|(a, b)| (*a..=*b).contains(&(c as u32)))
            }));
        }
    }
}
