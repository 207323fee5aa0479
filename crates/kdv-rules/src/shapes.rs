//! Builds the [`Shape`] arena: how Go's `encoding/json` would decode each type.

use std::collections::{HashMap, HashSet};

use kdv_model::Builtin;

use crate::gotypes::{Graph, Kind, Member, NamedKind, Ty};
use crate::ir::{FieldAccess, IntKind, Shape, ShapeId, StructField, StructShape};

/// Shape arena under construction, memoised by resolved type.
pub(crate) struct Shapes {
    pub shapes: Vec<Shape>,
    memo: HashMap<Ty, ShapeId>,
    /// Named structs whose id is reserved and whose fields are still to be shaped: a
    /// worklist, so a chain of 100,000 struct types does not recurse 100,000 deep.
    pending: Vec<(ShapeId, usize)>,
}

impl Shapes {
    pub(crate) fn new() -> Shapes {
        Shapes {
            shapes: Vec::new(),
            memo: HashMap::new(),
            pending: Vec::new(),
        }
    }

    fn push(&mut self, s: Shape) -> ShapeId {
        self.shapes.push(s);
        ShapeId((self.shapes.len() - 1) as u32)
    }

    /// The shape of `t` (and of every type it contains).
    pub(crate) fn of(&mut self, g: &Graph<'_>, t: &Ty) -> ShapeId {
        let id = self.reserve(g, t);
        while let Some((id, i)) = self.pending.pop() {
            if let NamedKind::Struct(members) = &g.named[i].kind {
                let shape = Shape::Struct(self.struct_shape(g, members));
                self.shapes[id.0 as usize] = shape;
            }
        }
        id
    }

    /// The id of `t`'s shape; named structs are only reserved here (see `pending`).
    fn reserve(&mut self, g: &Graph<'_>, t: &Ty) -> ShapeId {
        if let Some(&id) = self.memo.get(t) {
            return id;
        }
        match t {
            Ty::Named(i) => {
                // Reserve first: named types may be recursive.
                let id = self.push(Shape::Any);
                self.memo.insert(t.clone(), id);
                match &g.named[*i].kind {
                    NamedKind::Struct(_) => self.pending.push((id, *i)),
                    NamedKind::Alias(u) => {
                        // A typedef's underlying type is a type literal (never a named
                        // type), so this recursion is as deep as the literal is nested.
                        let uid = self.reserve(g, u);
                        let shape = match &self.shapes[uid.0 as usize] {
                            Shape::String { .. } => Shape::String { named: true },
                            other => other.clone(),
                        };
                        self.shapes[id.0 as usize] = shape;
                    }
                }
                id
            }
            _ => {
                let shape = match t {
                    Ty::Builtin(b) => builtin_shape(*b),
                    Ty::Pointer(e) => Shape::Pointer(self.reserve(g, e)),
                    Ty::Slice(e) | Ty::Array(e) => {
                        if is_byte(g, e) {
                            Shape::Bytes
                        } else {
                            Shape::Slice(self.reserve(g, e))
                        }
                    }
                    Ty::Map(k, v) => Shape::Map {
                        key: self.reserve(g, k),
                        value: self.reserve(g, v),
                    },
                    Ty::Struct(a) => {
                        let members = g.anon[*a].members.clone();
                        Shape::Struct(self.struct_shape(g, &members))
                    }
                    _ => Shape::Any,
                };
                let id = self.push(shape);
                self.memo.insert(t.clone(), id);
                id
            }
        }
    }

    fn struct_shape(&mut self, g: &Graph<'_>, members: &[Member<'_>]) -> StructShape {
        let mut fields = Vec::new();
        for m in members {
            let Some(access) = decode_access(g, m) else {
                continue;
            };
            let shape = self.reserve(g, &m.ty);
            fields.push(StructField {
                go_name: m.name().to_string(),
                access,
                shape,
            });
        }
        StructShape::new(fields)
    }
}

fn is_byte(g: &Graph<'_>, t: &Ty) -> bool {
    matches!(g.native(t), Ty::Builtin(Builtin::Byte | Builtin::Uint8))
}

fn builtin_shape(b: Builtin) -> Shape {
    let int = |bits, signed| Shape::Int(IntKind { bits, signed });
    match b {
        Builtin::String => Shape::String { named: false },
        Builtin::Bool => Shape::Bool,
        Builtin::Int | Builtin::Int64 => int(64, true),
        Builtin::Int8 => int(8, true),
        Builtin::Int16 => int(16, true),
        Builtin::Int32 | Builtin::Rune => int(32, true),
        Builtin::Uint | Builtin::Uint64 | Builtin::Uintptr => int(64, false),
        Builtin::Uint8 | Builtin::Byte => int(8, false),
        Builtin::Uint16 => int(16, false),
        Builtin::Uint32 => int(32, false),
        Builtin::Float32 => Shape::Float(32),
        Builtin::Float64 => Shape::Float(64),
        Builtin::Complex64 | Builtin::Complex128 | Builtin::Any | Builtin::Error => Shape::Any,
    }
}

/// `json:"-"`: the member is never decoded (`json:"-,"` names it `-` instead).
fn never_decoded(f: &kdv_model::Field) -> bool {
    f.json
        .as_ref()
        .is_some_and(|j| j.name == "-" && j.options.is_empty())
}

/// How `encoding/json` reads a struct member, or `None` when it never does.
pub(crate) fn decode_access(g: &Graph<'_>, m: &Member<'_>) -> Option<FieldAccess> {
    if never_decoded(m.field) {
        return None;
    }
    let name = m.field.json.as_ref().map_or("", |j| j.name.as_str());
    if m.field.embedded && name.is_empty() {
        let base = g.non_pointer(&m.ty).clone();
        return match g.kind(&g.native(&base)) {
            Kind::Struct => Some(FieldAccess::Inline {
                keys: inline_keys(g, &base),
            }),
            // An embedded struct from outside the universe: its keys are unknown, so it is
            // left out of decoding and comparison.
            Kind::Foreign => None,
            _ if m.is_exported() => Some(FieldAccess::Key(m.name().to_string())),
            _ => None,
        };
    }
    if !m.is_exported() {
        return None;
    }
    if name.is_empty() {
        Some(FieldAccess::Key(m.name().to_string()))
    } else {
        Some(FieldAccess::Key(name.to_string()))
    }
}

/// The JSON keys an inline embedded struct owns (transitively through further inline
/// members).
fn inline_keys(g: &Graph<'_>, t: &Ty) -> Vec<String> {
    let mut out = Keys::default();
    let mut seen = HashSet::new();
    collect_keys(g, t, &mut out, &mut seen);
    out.list
}

/// Keys in first-seen order, each once.
#[derive(Default)]
struct Keys {
    list: Vec<String>,
    set: HashSet<String>,
}

fn collect_keys(g: &Graph<'_>, t: &Ty, out: &mut Keys, seen: &mut HashSet<Ty>) {
    let native = g.native(t);
    if !seen.insert(native.clone()) {
        return;
    }
    let Some(members) = g.members(&native) else {
        return;
    };
    for m in members {
        if never_decoded(m.field) {
            continue;
        }
        let name = m.field.json.as_ref().map_or("", |j| j.name.as_str());
        if m.field.embedded && name.is_empty() {
            let base = g.non_pointer(&m.ty).clone();
            if g.kind(&g.native(&base)) == Kind::Struct {
                collect_keys(g, &base, out, seen);
                continue;
            }
        }
        if !m.is_exported() {
            continue;
        }
        let key = if name.is_empty() { m.name() } else { name };
        if out.set.insert(key.to_string()) {
            out.list.push(key.to_string());
        }
    }
}
