//! The Go facts the OpenAPI conversion needs, read from Go module checkouts with kdv's Go
//! frontend (`kdv-go`): a type's kind as gengo classifies it, struct members with their
//! JSON tags and comment tags, constants, and the few methods kube-openapi's generator
//! looks for (kdv-go skips methods, so method declarations are found with its lexer).

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use kdv_go::lexer::{self, Kind};
use kdv_model::{Builtin, ConstValue, Field, NamedRef, Package, StructType, TypeDecl, TypeRef};

/// A method declaration kube-openapi's generator may look for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Method {
    /// Declared with a pointer receiver (`func (x *T) ...`).
    pub pointer_receiver: bool,
    /// The string literals of the body (for `OpenAPIV3OneOfTypes`: the returned types).
    pub body_strings: Vec<String>,
}

/// The methods whose declarations are recorded.
const METHODS: &[&str] = &[
    "UnmarshalJSON",
    "OpenAPIDefinition",
    "OpenAPIV3Definition",
    "OpenAPISchemaType",
    "OpenAPISchemaFormat",
    "OpenAPIV3OneOfTypes",
];

/// One loaded Go package and the recorded methods of its types.
#[derive(Debug)]
pub struct GoPackage {
    /// The package as kdv-go reads it.
    pub package: Package,
    /// Type name → method name → declaration.
    methods: HashMap<String, HashMap<String, Method>>,
}

impl GoPackage {
    /// The recorded method `method` of the type `type_name`.
    pub fn method(&self, type_name: &str, method: &str) -> Option<&Method> {
        self.methods.get(type_name)?.get(method)
    }

    /// A constant's value.
    pub fn constant(&self, name: &str) -> Option<&ConstValue> {
        self.package
            .consts
            .iter()
            .find(|c| c.name == name)
            .map(|c| &c.value)
    }
}

/// Go modules given by their checkout directories; packages are loaded on first use.
pub struct GoTypes {
    /// (module path, root directory), longest module path first.
    modules: Vec<(String, PathBuf)>,
    packages: RefCell<HashMap<String, Option<Rc<GoPackage>>>>,
}

/// How gengo classifies a type (`types.Kind`), with what the rules need of each kind.
#[derive(Debug, Clone)]
pub enum GoKind {
    /// A predeclared type.
    Builtin(Builtin),
    /// A named type whose underlying type is not a struct or interface (gengo's `Alias`):
    /// the underlying type.
    Alias(TypeRef),
    /// A struct: named (its package and name) or a literal.
    Struct(Option<(Rc<GoPackage>, String)>, StructType),
    /// `*T`.
    Pointer(TypeRef),
    /// `[]T`.
    Slice(TypeRef),
    /// `[N]T`.
    Array(TypeRef),
    /// `map[K]V`: the value type.
    Map(TypeRef),
    /// An interface.
    Interface,
}

impl GoTypes {
    /// Modules from their checkout directories (each holding a `go.mod`).
    pub fn new(dirs: &[PathBuf]) -> Result<GoTypes, String> {
        let mut modules = Vec::new();
        for dir in dirs {
            let go_mod = dir.join("go.mod");
            let text = std::fs::read_to_string(&go_mod)
                .map_err(|e| format!("{}: {e}", go_mod.display()))?;
            let module = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("module "))
                .map(|m| m.trim().trim_matches('"').to_string())
                .ok_or_else(|| format!("{}: no module line", go_mod.display()))?;
            modules.push((module, dir.clone()));
        }
        modules.sort_by_key(|(m, _)| std::cmp::Reverse(m.len()));
        Ok(GoTypes {
            modules,
            packages: RefCell::new(HashMap::new()),
        })
    }

    fn dir_of(&self, import_path: &str) -> Option<PathBuf> {
        self.modules.iter().find_map(|(module, root)| {
            if import_path == module {
                Some(root.clone())
            } else {
                let rest = import_path
                    .strip_prefix(module.as_str())?
                    .strip_prefix('/')?;
                Some(root.join(rest))
            }
        })
    }

    /// The package `import_path`, loaded once; `None` when no given module holds it.
    pub fn package(&self, import_path: &str) -> Result<Option<Rc<GoPackage>>, String> {
        if let Some(p) = self.packages.borrow().get(import_path) {
            return Ok(p.clone());
        }
        let loaded = match self.dir_of(import_path) {
            Some(dir) if dir.is_dir() => Some(Rc::new(load(&dir)?)),
            _ => None,
        };
        self.packages
            .borrow_mut()
            .insert(import_path.to_string(), loaded.clone());
        Ok(loaded)
    }

    /// The declaration of a named type.
    pub fn decl(&self, named: &NamedRef) -> Result<(Rc<GoPackage>, usize), String> {
        let package = self.package(&named.package)?.ok_or_else(|| {
            format!(
                "{}.{}: package not in the given Go modules",
                named.package, named.name
            )
        })?;
        let index = package
            .package
            .types
            .iter()
            .position(|t| t.name == named.name)
            .ok_or_else(|| format!("{}.{}: no such type", named.package, named.name))?;
        Ok((package, index))
    }

    /// gengo's kind of `ty`.
    pub fn kind(&self, ty: &TypeRef) -> Result<GoKind, String> {
        Ok(match ty {
            TypeRef::Builtin(Builtin::Any | Builtin::Error) | TypeRef::Interface => {
                GoKind::Interface
            }
            TypeRef::Builtin(b) => GoKind::Builtin(*b),
            TypeRef::Pointer(elem) => GoKind::Pointer((**elem).clone()),
            TypeRef::Slice(elem) => GoKind::Slice((**elem).clone()),
            TypeRef::Array { elem, .. } => GoKind::Array((**elem).clone()),
            TypeRef::Map { value, .. } => GoKind::Map((**value).clone()),
            TypeRef::Struct(s) => GoKind::Struct(None, s.clone()),
            TypeRef::Unsupported(what) => return Err(format!("unsupported Go type {what}")),
            TypeRef::Named(named) => {
                let (package, index) = self.decl(named)?;
                let decl = &package.package.types[index];
                if decl.is_generic {
                    return Err(format!("{}.{}: generic type", named.package, named.name));
                }
                if decl.is_alias {
                    return self.kind(&decl.def);
                }
                match self.underlying(&decl.def)? {
                    TypeRef::Struct(s) => {
                        GoKind::Struct(Some((package.clone(), decl.name.clone())), s)
                    }
                    TypeRef::Interface | TypeRef::Builtin(Builtin::Any | Builtin::Error) => {
                        GoKind::Interface
                    }
                    underlying => GoKind::Alias(underlying),
                }
            }
        })
    }

    /// Go's underlying type: named types followed to their type literal.
    pub fn underlying(&self, ty: &TypeRef) -> Result<TypeRef, String> {
        let mut ty = ty.clone();
        for _ in 0..64 {
            let TypeRef::Named(named) = &ty else {
                return Ok(ty);
            };
            let (package, index) = self.decl(named)?;
            ty = package.package.types[index].def.clone();
        }
        Err("a cycle of named types".to_string())
    }

    /// The declaration a named reference points at (for its comment tags).
    pub fn type_decl(&self, ty: &TypeRef) -> Result<Option<(Rc<GoPackage>, TypeDecl)>, String> {
        match ty {
            TypeRef::Named(named) => {
                let (package, index) = self.decl(named)?;
                let decl = package.package.types[index].clone();
                Ok(Some((package, decl)))
            }
            _ => Ok(None),
        }
    }
}

/// Loads one package directory and records its methods.
fn load(dir: &Path) -> Result<GoPackage, String> {
    let (package, diagnostics) =
        kdv_go::load_package(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    if let Some(d) = diagnostics
        .iter()
        .find(|d| d.severity == kdv_model::Severity::Error)
    {
        return Err(format!("{}: {}", dir.display(), d.message));
    }
    let mut methods: HashMap<String, HashMap<String, Method>> = HashMap::new();
    for file in &package.files {
        for (type_name, name, method) in method_declarations(&file.text) {
            methods.entry(type_name).or_default().insert(name, method);
        }
    }
    Ok(GoPackage { package, methods })
}

/// The declarations `func (r *T) Name(...) ... { body }` of the recorded method names:
/// (type, method, declaration).
pub fn method_declarations(src: &str) -> Vec<(String, String, Method)> {
    let lexed = lexer::lex(src);
    let tokens = &lexed.tokens;
    let text = |i: usize| &src[tokens[i].start as usize..tokens[i].end as usize];
    let kind = |i: usize| tokens.get(i).map_or(Kind::Eof, |t| t.kind);
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        // Only top-level `func (`: the previous token ends a declaration.
        let at_top = i == 0 || matches!(kind(i - 1), Kind::Semi | Kind::AutoSemi);
        if !(at_top && kind(i) == Kind::Func && text_is(src, tokens, i + 1, "(")) {
            i += 1;
            continue;
        }
        // Receiver: `(` [name] [`*`] Type `)`.
        let mut j = i + 2;
        if kind(j) == Kind::Ident && !text_is(src, tokens, j + 1, ")") {
            j += 1;
        }
        let pointer = text_is(src, tokens, j, "*");
        if pointer {
            j += 1;
        }
        if kind(j) != Kind::Ident || !text_is(src, tokens, j + 1, ")") {
            i += 1;
            continue;
        }
        let type_name = text(j).to_string();
        let name_at = j + 2;
        if kind(name_at) != Kind::Ident || !METHODS.contains(&text(name_at)) {
            i += 1;
            continue;
        }
        // The body: from the first `{` at depth 0 after the signature to its match.
        let mut k = name_at + 1;
        let mut depth = 0i32;
        while k < tokens.len() && kind(k) != Kind::Eof {
            match text(k) {
                "(" | "[" => depth += 1,
                ")" | "]" => depth -= 1,
                "{" if depth == 0 => break,
                _ => {}
            }
            k += 1;
        }
        let mut body_strings = Vec::new();
        let mut braces = 0i32;
        while k < tokens.len() && kind(k) != Kind::Eof {
            match text(k) {
                "{" => braces += 1,
                "}" => {
                    braces -= 1;
                    if braces == 0 {
                        break;
                    }
                }
                _ => {}
            }
            if matches!(kind(k), Kind::Str | Kind::RawStr) {
                let raw = text(k);
                let value = raw.get(1..raw.len().saturating_sub(1)).unwrap_or("");
                body_strings.push(value.to_string());
            }
            k += 1;
        }
        out.push((
            type_name,
            text(name_at).to_string(),
            Method {
                pointer_receiver: pointer,
                body_strings,
            },
        ));
        i = k.max(i + 1);
    }
    out
}

fn text_is(src: &str, tokens: &[lexer::Token], i: usize, expected: &str) -> bool {
    tokens
        .get(i)
        .is_some_and(|t| &src[t.start as usize..t.end as usize] == expected)
}

/// The JSON tag of a member split as gengo's `getJsonTags` splits it (`[]` without one).
pub fn json_tags(field: &Field) -> Vec<String> {
    match &field.json {
        None => Vec::new(),
        Some(tag) => std::iter::once(tag.name.clone())
            .chain(tag.options.iter().cloned())
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_method_declarations_and_their_strings() {
        let src = r#"package x

func (IntOrString) OpenAPIV3OneOfTypes() []string { return []string{"integer", "string"} }

func (intstr *IntOrString) UnmarshalJSON(value []byte) error {
	if value[0] == '"' {
		return nil
	}
	return nil
}

func (t Time) String() string { return "x" }

func helper() {}
"#;
        let found = method_declarations(src);
        assert_eq!(
            found,
            vec![
                (
                    "IntOrString".to_string(),
                    "OpenAPIV3OneOfTypes".to_string(),
                    Method {
                        pointer_receiver: false,
                        body_strings: vec!["integer".into(), "string".into()],
                    }
                ),
                (
                    "IntOrString".to_string(),
                    "UnmarshalJSON".to_string(),
                    Method {
                        pointer_receiver: true,
                        body_strings: vec![],
                    }
                ),
            ]
        );
    }
}
