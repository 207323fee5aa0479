//! The Go type model as the interpreter needs it: underlying types, struct fields, zero
//! values and type names, over a `kdv-model` universe (the fixture package, the packages it
//! imports, and kdv-go's built-in declarations of well-known packages outside the module).

use kdv_model::{Builtin, Field, NamedRef, StructType, TypeRef, Universe};

/// Import path of apimachinery's `field` package, whose types the interpreter emulates.
pub const FIELD_PKG: &str = "k8s.io/apimachinery/pkg/util/validation/field";

/// Bound on typedef chains and nested type walks.
const MAX_TYPE_DEPTH: usize = 64;

/// A named type reference.
pub fn named(package: &str, name: &str) -> TypeRef {
    TypeRef::Named(NamedRef {
        package: package.to_string(),
        name: name.to_string(),
        type_args: Vec::new(),
    })
}

/// `TypeRef::Builtin`.
pub fn builtin(b: Builtin) -> TypeRef {
    TypeRef::Builtin(b)
}

/// Whether `ty` is the named type `package.name`.
pub fn is_named(ty: &TypeRef, package: &str, name: &str) -> bool {
    matches!(ty, TypeRef::Named(n) if n.package == package && n.name == name)
}

/// Type queries over a universe.
pub struct TypeEnv<'u> {
    pub universe: &'u Universe,
}

impl<'u> TypeEnv<'u> {
    /// Creates an environment over `universe`.
    pub fn new(universe: &'u Universe) -> TypeEnv<'u> {
        TypeEnv { universe }
    }

    /// Go's underlying type: named types resolved through their definitions (true aliases
    /// are transparent), `byte`/`rune` kept as written, `any`/`error` as interfaces.
    pub fn underlying(&self, ty: &TypeRef) -> TypeRef {
        let mut cur = ty.clone();
        for _ in 0..MAX_TYPE_DEPTH {
            match &cur {
                TypeRef::Named(n) => {
                    if n.package == FIELD_PKG && n.name == "ErrorList" {
                        return TypeRef::Slice(Box::new(TypeRef::Pointer(Box::new(named(
                            FIELD_PKG, "Error",
                        )))));
                    }
                    match self.universe.resolve(n) {
                        Some(decl) => cur = decl.def.clone(),
                        None => return cur,
                    }
                }
                TypeRef::Builtin(Builtin::Any) | TypeRef::Builtin(Builtin::Error) => {
                    return TypeRef::Interface;
                }
                _ => return cur,
            }
        }
        cur
    }

    /// Strips true aliases (`type X = Y`) only, keeping defined named types.
    pub fn unalias(&self, ty: &TypeRef) -> TypeRef {
        let mut cur = ty.clone();
        for _ in 0..MAX_TYPE_DEPTH {
            match &cur {
                TypeRef::Named(n) => match self.universe.resolve(n) {
                    Some(decl) if decl.is_alias => cur = decl.def.clone(),
                    _ => return cur,
                },
                _ => return cur,
            }
        }
        cur
    }

    /// Whether the type is declared in the universe (or is one of the emulated types).
    pub fn is_known(&self, ty: &TypeRef) -> bool {
        match ty {
            TypeRef::Named(n) => n.package == FIELD_PKG || self.universe.resolve(n).is_some(),
            _ => true,
        }
    }

    /// The fields of a struct type (after resolving to the underlying type).
    pub fn struct_fields(&self, ty: &TypeRef) -> Option<Vec<Field>> {
        match self.underlying(ty) {
            TypeRef::Struct(StructType { fields }) => Some(fields),
            _ => None,
        }
    }

    /// Whether values of the type are interfaces.
    pub fn is_interface(&self, ty: &TypeRef) -> bool {
        matches!(self.underlying(ty), TypeRef::Interface)
    }

    /// Go's `%T`-style name of a type, with package *names* as reflect prints them
    /// (`*primitives.T`, `[]string`, `map[string]int`).
    pub fn type_string(&self, ty: &TypeRef) -> String {
        self.type_string_depth(ty, 0)
    }

    fn type_string_depth(&self, ty: &TypeRef, depth: usize) -> String {
        if depth > MAX_TYPE_DEPTH {
            return "...".into();
        }
        let d = depth + 1;
        match ty {
            TypeRef::Builtin(Builtin::Byte) => "uint8".into(),
            TypeRef::Builtin(Builtin::Rune) => "int32".into(),
            TypeRef::Builtin(b) => b.name().into(),
            TypeRef::Named(n) => {
                let pkg_name = self
                    .universe
                    .packages
                    .get(&n.package)
                    .map(|p| p.name.clone())
                    .filter(|s| !s.is_empty())
                    .unwrap_or_else(|| n.package.rsplit('/').next().unwrap_or("").to_string());
                if pkg_name.is_empty() {
                    n.name.clone()
                } else {
                    format!("{pkg_name}.{}", n.name)
                }
            }
            TypeRef::Pointer(t) => format!("*{}", self.type_string_depth(t, d)),
            TypeRef::Slice(t) => format!("[]{}", self.type_string_depth(t, d)),
            TypeRef::Array { len, elem } => format!("[{len}]{}", self.type_string_depth(elem, d)),
            TypeRef::Map { key, value } => format!(
                "map[{}]{}",
                self.type_string_depth(key, d),
                self.type_string_depth(value, d)
            ),
            TypeRef::Struct(s) => {
                let parts: Vec<String> = s
                    .fields
                    .iter()
                    .map(|f| format!("{} {}", f.name, self.type_string_depth(&f.ty, d)))
                    .collect();
                format!("struct {{ {} }}", parts.join("; "))
            }
            TypeRef::Interface => "interface {}".into(),
            TypeRef::Unsupported(s) => s.clone(),
        }
    }
}

/// Integer width and signedness of a builtin integer type.
pub fn int_kind(b: Builtin) -> Option<(u32, bool)> {
    Some(match b {
        Builtin::Int | Builtin::Int64 => (64, true),
        Builtin::Int8 => (8, true),
        Builtin::Int16 => (16, true),
        Builtin::Int32 | Builtin::Rune => (32, true),
        Builtin::Uint | Builtin::Uint64 | Builtin::Uintptr => (64, false),
        Builtin::Uint8 | Builtin::Byte => (8, false),
        Builtin::Uint16 => (16, false),
        Builtin::Uint32 => (32, false),
        _ => return None,
    })
}

/// Wraps `v` to the range of an integer type, as Go's conversions do.
pub fn wrap_int(v: i128, bits: u32, signed: bool) -> i128 {
    let modulus = 1i128 << bits;
    let mut x = v.rem_euclid(modulus);
    if signed && x >= modulus / 2 {
        x -= modulus;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping() {
        assert_eq!(wrap_int(256, 8, false), 0);
        assert_eq!(wrap_int(-1, 8, false), 255);
        assert_eq!(wrap_int(128, 8, true), -128);
        assert_eq!(wrap_int(-1, 64, false), u64::MAX as i128);
    }

    #[test]
    fn underlying_follows_definitions() {
        let (pkg, _) = kdv_go::load_sources(
            "example.com/p",
            &[(
                "a.go".into(),
                "package p\ntype A string\ntype B A\ntype C = B\ntype S struct{ X int }\ntype L []S\n"
                    .into(),
            )],
        );
        let mut u = Universe::default();
        u.packages.insert(pkg.path.clone(), pkg);
        let env = TypeEnv::new(&u);
        assert_eq!(
            env.underlying(&named("example.com/p", "C")),
            TypeRef::Builtin(Builtin::String)
        );
        assert_eq!(
            env.unalias(&named("example.com/p", "C")),
            named("example.com/p", "B")
        );
        assert_eq!(
            env.struct_fields(&named("example.com/p", "S"))
                .map(|f| f.len()),
            Some(1)
        );
        assert_eq!(
            env.type_string(&TypeRef::Pointer(Box::new(named("example.com/p", "L")))),
            "*p.L"
        );
    }
}
