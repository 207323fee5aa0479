//! Field paths of nodes, kept the way cel-go keeps them: as Go slices that share backing
//! arrays.
//!
//! cel-go builds a node's path with `append(parentPath, segment)`. When the parent's slice
//! has spare capacity, the new path writes into the parent's backing array, so two children
//! of one path (`x.a` and `x.b` of a comprehension variable `x`) share a slot and the later
//! append overwrites what the earlier path reads. Sizes that upstream looks up after such an
//! overwrite use the overwritten path; estimates only match upstream's if the same happens
//! here, so paths live in one arena of slots with Go's capacity growth.

/// A path: `len` segments starting at `start` in the arena, in a backing array of `cap`
/// slots. `cap == 0` is Go's nil slice (no path).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Path {
    start: u32,
    len: u32,
    cap: u32,
}

impl Path {
    /// No path (nil).
    pub(super) const NIL: Path = Path {
        start: 0,
        len: 0,
        cap: 0,
    };

    /// Whether the path has no segments.
    pub(super) fn is_empty(self) -> bool {
        self.len == 0
    }
}

/// The slots of every backing array made during one estimate.
#[derive(Debug, Default)]
pub(super) struct PathArena<'a> {
    slots: Vec<&'a str>,
}

impl<'a> PathArena<'a> {
    /// An arena with room for `n` slots.
    pub(super) fn with_capacity(n: usize) -> PathArena<'a> {
        PathArena {
            slots: Vec::with_capacity(n),
        }
    }

    /// Go `[]string{segment}` (capacity 1).
    pub(super) fn single(&mut self, segment: &'a str) -> Path {
        let start = self.slots.len() as u32;
        self.slots.push(segment);
        Path {
            start,
            len: 1,
            cap: 1,
        }
    }

    /// Go `append(path, segment)`: in place when the backing array has room (overwriting
    /// whatever another path stored in that slot), else into a new, larger backing array.
    pub(super) fn append(&mut self, path: Path, segment: &'a str) -> Path {
        if path.len < path.cap {
            self.slots[(path.start + path.len) as usize] = segment;
            return Path {
                len: path.len + 1,
                ..path
            };
        }
        let cap = grown_capacity(path.cap, path.len + 1);
        let start = self.slots.len();
        let old = path.start as usize..(path.start + path.len) as usize;
        self.slots.extend_from_within(old);
        self.slots.push(segment);
        self.slots.resize(start + cap as usize, "");
        Path {
            start: start as u32,
            len: path.len + 1,
            cap,
        }
    }

    /// The segments of `path` as they read now.
    pub(super) fn segments(&self, path: Path) -> &[&'a str] {
        &self.slots[path.start as usize..(path.start + path.len) as usize]
    }
}

/// Size in bytes of a Go string header, the element of `[]string`.
const STRING_HEADER: u64 = 16;

/// Go's malloc size classes up to 32 KiB (`class_to_size`).
const SIZE_CLASSES: [u64; 67] = [
    8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256, 288, 320, 352,
    384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792, 2048,
    2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728,
    10240, 10880, 12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264, 28672,
    32768,
];

/// Capacity Go's `growslice` gives a `[]string` of capacity `old_cap` that must hold
/// `new_len` elements (Go ≥ 1.22: doubling below 256, then ×1.25 + 192, rounded up to the
/// allocation size class, with an 8-byte malloc header for pointerful objects over 512 bytes).
fn grown_capacity(old_cap: u32, new_len: u32) -> u32 {
    let old = u64::from(old_cap);
    let needed = u64::from(new_len);
    let double = old * 2;
    let mut cap = if needed > double {
        needed
    } else if old < 256 {
        double
    } else {
        let mut c = old;
        while c < needed {
            c += (c + 3 * 256) >> 2;
        }
        c
    };
    cap = cap.max(needed);
    let bytes = cap * STRING_HEADER;
    // Every multiple of 16 up to 256 bytes is a size class.
    if bytes <= 256 {
        return cap as u32;
    }
    let allocated = if bytes <= 32768 - 8 {
        let header = if bytes > 512 { 8 } else { 0 };
        let request = bytes + header;
        SIZE_CLASSES
            .iter()
            .copied()
            .find(|&c| c >= request)
            .unwrap_or(request)
            - header
    } else {
        // Large objects are rounded up to whole 8 KiB pages.
        bytes.div_ceil(8192) * 8192
    };
    u32::try_from(allocated / STRING_HEADER).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacities_grow_like_go() {
        assert_eq!(grown_capacity(0, 1), 1);
        assert_eq!(grown_capacity(1, 2), 2);
        assert_eq!(grown_capacity(2, 3), 4);
        assert_eq!(grown_capacity(4, 5), 8);
        assert_eq!(grown_capacity(16, 17), 32);
        // 64 strings = 1024 bytes, plus the malloc header: the 1152-byte class.
        assert_eq!(grown_capacity(32, 33), 71);
    }

    #[test]
    fn appends_share_backing_arrays_like_go() {
        let mut a = PathArena::default();
        let root = a.single("self");
        let l = a.append(root, "l");
        let items = a.append(l, "@items");
        // ["self", "l", "@items"] has capacity 4: both children write slot 3.
        let x_a = a.append(items, "a");
        assert_eq!(a.segments(x_a), ["self", "l", "@items", "a"]);
        let x_b = a.append(items, "b");
        assert_eq!(a.segments(x_b), ["self", "l", "@items", "b"]);
        assert_eq!(a.segments(x_a), ["self", "l", "@items", "b"]);
        // A full slice moves to a new array: the parent is untouched.
        let deeper = a.append(x_a, "c");
        assert_eq!(a.segments(deeper), ["self", "l", "@items", "b", "c"]);
        assert_eq!(a.segments(items), ["self", "l", "@items"]);
        assert!(Path::NIL.is_empty());
        let synthetic = a.append(Path::NIL, "@items");
        assert_eq!(a.segments(synthetic), ["@items"]);
    }
}
