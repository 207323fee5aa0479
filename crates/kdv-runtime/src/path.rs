//! Field paths, rendered exactly like Go's `field.Path.String()`.
//!
//! [`PathRef`] is what validators receive while walking a value: a chain of borrowed links
//! on the stack that costs nothing to extend. It is turned into an owned [`FieldPath`] only
//! when an error is produced.

use std::borrow::Cow;
use std::fmt;

/// A borrowed, allocation-free field path; each link points at its parent.
///
/// `Nil` is Go's nil `*field.Path` (the root of a validated object), rendered `<nil>`.
#[derive(Clone, Copy, Debug, Default)]
pub enum PathRef<'a> {
    /// The nil path.
    #[default]
    Nil,
    /// `parent.name` (or just `name` when the parent is nil).
    Child(&'a PathRef<'a>, &'a str),
    /// `parent.name` for a name known at compile time (generated code's field names): its
    /// owned form borrows the name instead of copying it.
    Field(&'a PathRef<'a>, &'static str),
    /// `parent[i]`.
    Index(&'a PathRef<'a>, usize),
    /// `parent[k]`, the key inserted verbatim.
    Key(&'a PathRef<'a>, &'a str),
}

impl<'a> PathRef<'a> {
    /// The nil path.
    pub const ROOT: PathRef<'static> = PathRef::Nil;

    /// Returns the path of the member `name` below this path.
    #[inline]
    pub fn child(&'a self, name: &'a str) -> PathRef<'a> {
        PathRef::Child(self, name)
    }

    /// [`child`](PathRef::child) for a name known at compile time.
    #[inline]
    pub fn field(&'a self, name: &'static str) -> PathRef<'a> {
        PathRef::Field(self, name)
    }

    /// Returns the path of list element `i` below this path.
    #[inline]
    pub fn index(&'a self, i: usize) -> PathRef<'a> {
        PathRef::Index(self, i)
    }

    /// Returns the path of map entry `k` below this path.
    #[inline]
    pub fn key(&'a self, k: &'a str) -> PathRef<'a> {
        PathRef::Key(self, k)
    }

    /// Reports whether this is the nil path.
    #[inline]
    pub fn is_nil(&self) -> bool {
        matches!(self, PathRef::Nil)
    }

    /// Materialises the path as an owned [`FieldPath`].
    pub fn to_path(&self) -> FieldPath {
        let segments = match self.parent() {
            None => Segments::Nil,
            Some(PathRef::Nil) => Segments::One(self.last_segment()),
            Some(_) => {
                let mut all = Vec::new();
                let mut cur = self;
                // Iterative: path depth is bounded by the caller's traversal, but a loop
                // costs nothing.
                while let Some(up) = cur.parent() {
                    all.push(cur.last_segment());
                    cur = up;
                }
                all.reverse();
                Segments::Many(all)
            }
        };
        FieldPath { segments }
    }

    /// The path this one is below; `None` for the nil path.
    fn parent(&self) -> Option<&PathRef<'a>> {
        match self {
            PathRef::Nil => None,
            PathRef::Child(up, _)
            | PathRef::Field(up, _)
            | PathRef::Index(up, _)
            | PathRef::Key(up, _) => Some(up),
        }
    }

    /// The last segment, owned (the nil path has none: callers ask only below the root).
    fn last_segment(&self) -> Segment {
        match self {
            PathRef::Nil => Segment::Field(Cow::Borrowed("")),
            PathRef::Child(_, name) => Segment::Field(Cow::Owned((*name).to_owned())),
            PathRef::Field(_, name) => Segment::Field(Cow::Borrowed(name)),
            PathRef::Index(_, i) => Segment::Index(*i),
            PathRef::Key(_, k) => Segment::Key(Cow::Owned((*k).to_owned())),
        }
    }
}

impl fmt::Display for PathRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_path(), f)
    }
}

/// One element of a [`FieldPath`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Segment {
    /// A member name (`.name`). Go renders an empty name as `[]`. Borrowed for names known
    /// at compile time.
    Field(Cow<'static, str>),
    /// A list index (`[3]`).
    Index(usize),
    /// A map key (`[key]`, verbatim).
    Key(Cow<'static, str>),
}

/// An owned field path. The empty path is Go's nil path and renders `<nil>`.
#[derive(Clone, Default)]
pub struct FieldPath {
    segments: Segments,
}

/// A path's segments, a single one held inline: most errors sit one field below the
/// validated root, and building an error should not cost an allocation for its path.
#[derive(Clone, Default)]
enum Segments {
    #[default]
    Nil,
    One(Segment),
    Many(Vec<Segment>),
}

impl Segments {
    fn from_vec(mut segments: Vec<Segment>) -> Segments {
        match segments.len() {
            0 => Segments::Nil,
            1 => match segments.pop() {
                Some(only) => Segments::One(only),
                None => Segments::Nil,
            },
            _ => Segments::Many(segments),
        }
    }

    fn as_slice(&self) -> &[Segment] {
        match self {
            Segments::Nil => &[],
            Segments::One(only) => std::slice::from_ref(only),
            Segments::Many(all) => all,
        }
    }
}

// Equality, hashing and debug output are those of the segment sequence, whatever the
// representation holds.
impl PartialEq for FieldPath {
    fn eq(&self, other: &Self) -> bool {
        self.segments() == other.segments()
    }
}

impl Eq for FieldPath {}

impl std::hash::Hash for FieldPath {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.segments().hash(state);
    }
}

impl fmt::Debug for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FieldPath")
            .field("segments", &self.segments())
            .finish()
    }
}

impl FieldPath {
    /// The nil path (Go's nil `*field.Path`).
    pub fn root() -> FieldPath {
        FieldPath::default()
    }

    /// A path with a single member name (Go's `field.NewPath(name)`).
    pub fn new(name: &str) -> FieldPath {
        FieldPath {
            segments: Segments::One(Segment::Field(Cow::Owned(name.to_owned()))),
        }
    }

    /// Returns the path of the member `name` below this one.
    pub fn child(&self, name: &str) -> FieldPath {
        self.with(Segment::Field(Cow::Owned(name.to_owned())))
    }

    /// Returns the path of list element `i` below this one.
    pub fn index(&self, i: usize) -> FieldPath {
        self.with(Segment::Index(i))
    }

    /// Returns the path of map entry `k` below this one.
    pub fn key(&self, k: &str) -> FieldPath {
        self.with(Segment::Key(Cow::Owned(k.to_owned())))
    }

    /// Calls `f` with this path as a borrowed [`PathRef`] (for code that takes the
    /// allocation-free form, such as validators writing errors below a given root).
    pub fn with_path_ref<R>(&self, f: impl FnOnce(&PathRef<'_>) -> R) -> R {
        fn below<R>(
            segments: &[Segment],
            parent: &PathRef<'_>,
            f: impl FnOnce(&PathRef<'_>) -> R,
        ) -> R {
            let Some((first, rest)) = segments.split_first() else {
                return f(parent);
            };
            let next = match first {
                Segment::Field(name) => parent.child(name),
                Segment::Index(i) => parent.index(*i),
                Segment::Key(k) => parent.key(k),
            };
            below(rest, &next, f)
        }
        below(self.segments(), &PathRef::ROOT, f)
    }

    /// Reports whether this is the nil path.
    pub fn is_nil(&self) -> bool {
        matches!(self.segments, Segments::Nil)
    }

    /// The segments from the root down.
    pub fn segments(&self) -> &[Segment] {
        self.segments.as_slice()
    }

    /// The path as upstream's strict decoder writes it ([`strict_text`]).
    pub fn strict_text(&self) -> String {
        strict_text(self.segments())
    }

    /// Builds a path from segments (root first); no segments gives the nil path.
    pub fn from_segments(segments: Vec<Segment>) -> FieldPath {
        FieldPath {
            segments: Segments::from_vec(segments),
        }
    }

    fn with(&self, segment: Segment) -> FieldPath {
        let above = self.segments();
        if above.is_empty() {
            return FieldPath {
                segments: Segments::One(segment),
            };
        }
        let mut segments = Vec::with_capacity(above.len() + 1);
        segments.extend(above.iter().cloned());
        segments.push(segment);
        FieldPath {
            segments: Segments::Many(segments),
        }
    }
}

/// A path as upstream's strict decoder writes it in `unknown field "..."`: members and map
/// keys after a `.`, indices in brackets (`spec.labels.a/b`, `spec.items[0].x`).
pub fn strict_text(segments: &[Segment]) -> String {
    let mut out = String::new();
    for segment in segments {
        match segment {
            Segment::Field(name) | Segment::Key(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
            }
            Segment::Index(i) => {
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
        }
    }
    out
}

impl From<&PathRef<'_>> for FieldPath {
    fn from(p: &PathRef<'_>) -> Self {
        p.to_path()
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_nil() {
            return f.write_str("<nil>");
        }
        for (i, seg) in self.segments().iter().enumerate() {
            match seg {
                Segment::Field(name) if name.is_empty() => f.write_str("[]")?,
                Segment::Field(name) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(name)?;
                }
                Segment::Index(n) => write!(f, "[{n}]")?,
                Segment::Key(k) => write!(f, "[{k}]")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_like_go() {
        assert_eq!(FieldPath::root().to_string(), "<nil>");
        assert_eq!(FieldPath::new("a").to_string(), "a");
        assert_eq!(
            FieldPath::new("a").child("b").index(0).key("k").to_string(),
            "a.b[0][k]"
        );
        assert_eq!(FieldPath::root().child("a").to_string(), "a");
        assert_eq!(FieldPath::root().index(0).to_string(), "[0]");
        assert_eq!(FieldPath::root().key("k").to_string(), "[k]");
        assert_eq!(FieldPath::root().index(0).child("x").to_string(), "[0].x");
        assert_eq!(FieldPath::new("m").key("a.b]c").to_string(), "m[a.b]c]");
        assert_eq!(FieldPath::new("m").key("").to_string(), "m[]");
        // Go quirk: an empty member name renders as an empty subscript.
        assert_eq!(FieldPath::new("").to_string(), "[]");
        assert_eq!(
            FieldPath::new("a").child("").child("b").to_string(),
            "a[].b"
        );
        assert!(FieldPath::root().is_nil());
        assert!(!FieldPath::root().index(1).is_nil());
    }

    #[test]
    fn path_ref_matches_field_path() {
        let root = PathRef::Nil;
        assert_eq!(root.to_string(), "<nil>");
        let spec = root.child("spec");
        let items = spec.child("items");
        let first = items.index(0);
        let labels = first.child("labels");
        let app = labels.key("app");
        assert_eq!(app.to_string(), "spec.items[0].labels[app]");
        assert_eq!(
            app.to_path(),
            FieldPath::new("spec")
                .child("items")
                .index(0)
                .child("labels")
                .key("app")
        );
        let idx = root.index(3);
        assert_eq!(idx.to_string(), "[3]");
        let k = root.key("x");
        assert_eq!(k.to_string(), "[x]");
        assert!(PathRef::ROOT.is_nil());
        assert!(!spec.is_nil());
    }

    #[test]
    fn owned_paths_lend_a_borrowed_form() {
        let owned = FieldPath::new("spec").index(2).key("app");
        let rendered = owned.with_path_ref(|p| (FieldPath::from(p), p.child("x").to_string()));
        assert_eq!(rendered.0, owned);
        assert_eq!(rendered.1, "spec[2][app].x");
        assert!(FieldPath::root().with_path_ref(|p| p.is_nil()));
    }
}
