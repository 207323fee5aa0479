//! Constants evaluated across files and packages, in dependency order as Go's type checker
//! does: a constant whose expression names constants of later files or of imported packages
//! (`AddressType(v1.IPv4Protocol)`, `pkg.A + "-suffix"`) is left unevaluated by the
//! per-file parse; here its expression is read again from the package's source and
//! evaluated once every constant it names is known.
//!
//! Work is linear in the size of the unevaluated expressions: dependencies are found by one
//! scan of each expression, constants are visited depth-first with an explicit stack (no
//! recursion across constants), and each is evaluated once. A constant on a cycle (an
//! error in Go) is evaluated without the value it waits for, so it stays unevaluated.

use std::collections::{BTreeMap, HashMap};

use kdv_model::{Builtin, ConstValue, Package, TypeRef};

use crate::Import;
use crate::consteval::{KnownConst, Scope, declare, evaluate, represent};
use crate::lexer::{Kind, Token, lex};
use crate::parser::{ConstSpec, conversion_type, parse_with_specs};

/// How many type definitions [`Scope::underlying`] follows (`type A B; type B C; ...`).
const MAX_TYPE_CHAIN: usize = 64;

/// Evaluates every constant of `packages` (keyed by import path) that the per-file parse
/// left as [`ConstValue::Expr`] and whose expression Go can evaluate from the constants
/// of its package and of the packages its file imports. Values and types are written
/// back; what stays unresolvable stays `Expr`.
pub(crate) fn resolve_packages(packages: &mut BTreeMap<String, Package>) {
    let pending = packages
        .values()
        .flat_map(|p| &p.consts)
        .any(|c| matches!(c.value, ConstValue::Expr(_)));
    if pending {
        let resolved = {
            let universe = Names::new(packages);
            evaluate_all(&universe, &universe.pending())
        };
        write_back(packages, resolved);
    }
    // A number of a named type is an integer or a float as its underlying type says,
    // which the per-file parse could not know (`const R Ratio = 1`, `type Ratio float64`).
    let numeric_named = packages.values().flat_map(|p| &p.consts).any(|c| {
        matches!(c.ty, Some(TypeRef::Named(_)))
            && matches!(c.value, ConstValue::Int(_) | ConstValue::Float(_))
    });
    if numeric_named {
        let represented = {
            let universe = Names::new(packages);
            let mut out = Vec::new();
            for (pi, p) in universe.packages.iter().enumerate() {
                for (index, c) in p.consts.iter().enumerate() {
                    let Some(ty @ TypeRef::Named(_)) = &c.ty else {
                        continue;
                    };
                    let value = represent(c.value.clone(), universe.underlying(ty));
                    if value != c.value {
                        let known = KnownConst {
                            value,
                            ty: c.ty.clone(),
                        };
                        out.push((Node { package: pi, index }, known));
                    }
                }
            }
            out
        };
        write_back(packages, represented);
    }
}

fn write_back(packages: &mut BTreeMap<String, Package>, values: Vec<(Node, KnownConst)>) {
    if values.is_empty() {
        return;
    }
    let mut list: Vec<&mut Package> = packages.values_mut().collect();
    for (node, known) in values {
        if let Some(c) = list
            .get_mut(node.package)
            .and_then(|p| p.consts.get_mut(node.index))
        {
            c.value = known.value;
            c.ty = known.ty;
        }
    }
}

/// The universe's packages and their constants by name.
struct Names<'u> {
    packages: Vec<&'u Package>,
    by_path: HashMap<&'u str, usize>,
    /// Per package: constant name → index in `Package::consts` (the first declaration).
    consts: Vec<HashMap<&'u str, usize>>,
    /// Per package: type name → definition (the first declaration).
    types: Vec<HashMap<&'u str, &'u TypeRef>>,
}

/// One unevaluated constant with what its expression needs.
struct Pending<'u> {
    /// Index into [`Names::packages`].
    package: usize,
    /// Index into the package's constants.
    index: usize,
    /// The text of the file that declares it.
    text: &'u str,
    spec: ConstSpec,
    /// The declaring file's imports (shared by the file's constants).
    imports: std::rc::Rc<Vec<Import>>,
}

/// Where a constant of the universe is written back.
#[derive(Clone, Copy)]
struct Node {
    package: usize,
    index: usize,
}

impl<'u> Names<'u> {
    fn new(packages: &'u BTreeMap<String, Package>) -> Names<'u> {
        let list: Vec<&Package> = packages.values().collect();
        let by_path = packages
            .keys()
            .enumerate()
            .map(|(i, k)| (k.as_str(), i))
            .collect();
        let consts = list
            .iter()
            .map(|p| {
                let mut names = HashMap::with_capacity(p.consts.len());
                for (i, c) in p.consts.iter().enumerate() {
                    names.entry(c.name.as_str()).or_insert(i);
                }
                names
            })
            .collect();
        let types = list
            .iter()
            .map(|p| {
                let mut names = HashMap::with_capacity(p.types.len());
                for t in &p.types {
                    names.entry(t.name.as_str()).or_insert(&t.def);
                }
                names
            })
            .collect();
        Names {
            packages: list,
            by_path,
            consts,
            types,
        }
    }

    /// The unevaluated constants, with their specs from a second parse of their files (only
    /// the files that declare one are parsed again).
    fn pending(&self) -> Vec<Pending<'u>> {
        let mut out = Vec::new();
        for (pi, package) in self.packages.iter().enumerate() {
            let mut files: Vec<u32> = package
                .consts
                .iter()
                .filter(|c| matches!(c.value, ConstValue::Expr(_)))
                .map(|c| c.loc.file)
                .collect();
            files.sort_unstable();
            files.dedup();
            for file in files {
                let Some(source) = package.files.get(file as usize) else {
                    continue;
                };
                let (parsed, _, specs) =
                    parse_with_specs(&source.path, &source.text, file, &package.path);
                let imports = std::rc::Rc::new(parsed.imports);
                let specs: HashMap<u32, ConstSpec> =
                    specs.into_iter().map(|s| (s.offset, s)).collect();
                for (index, c) in package.consts.iter().enumerate() {
                    if c.loc.file != file || !matches!(c.value, ConstValue::Expr(_)) {
                        continue;
                    }
                    if let Some(spec) = specs.get(&c.loc.offset) {
                        out.push(Pending {
                            package: pi,
                            index,
                            text: &source.text,
                            spec: spec.clone(),
                            imports: imports.clone(),
                        });
                    }
                }
            }
        }
        out
    }

    /// The import path a file with `imports` means by qualifier `q`: an import named `q`,
    /// or an unnamed import whose package is called `q` (its package clause when loaded,
    /// else the likely names of its path).
    fn imported<'i>(&self, imports: &'i [Import], q: &str) -> Option<&'i str> {
        for import in imports {
            let matches = match import.name.as_deref() {
                Some("_" | ".") => false,
                Some(alias) => alias == q,
                None => match self.by_path.get(import.path.as_str()) {
                    Some(&pi) => self.packages[pi].name == q,
                    None => crate::guess_package_names(&import.path)
                        .iter()
                        .any(|n| n == q),
                },
            };
            if matches {
                return Some(&import.path);
            }
        }
        None
    }

    /// The constant `qualifier.name` (or `name` of package `pi`) as seen from a file with
    /// `imports`. Only exported names are visible through a qualifier.
    fn constant(
        &self,
        pi: usize,
        imports: &[Import],
        qualifier: Option<&str>,
        name: &str,
    ) -> Option<Node> {
        let package = match qualifier {
            None => pi,
            Some(q) => {
                if !name.starts_with(|c: char| c.is_uppercase()) {
                    return None;
                }
                *self.by_path.get(self.imported(imports, q)?)?
            }
        };
        let index = *self.consts[package].get(name)?;
        Some(Node { package, index })
    }

    /// The predeclared type underneath a named type of the universe.
    fn underlying(&self, ty: &TypeRef) -> Option<Builtin> {
        let mut ty = ty;
        for _ in 0..MAX_TYPE_CHAIN {
            match ty {
                TypeRef::Builtin(b) => return Some(*b),
                TypeRef::Named(n) if n.type_args.is_empty() => {
                    let pi = *self.by_path.get(n.package.as_str())?;
                    ty = self.types[pi].get(n.name.as_str())?;
                }
                _ => return None,
            }
        }
        None
    }
}

/// The tokens of an expression read again from its file (without the lexer's closing
/// semicolon and end marker).
fn expr_tokens(text: &str) -> Vec<Token> {
    let mut tokens = lex(text).tokens;
    while tokens.last().is_some_and(|t| {
        matches!(t.kind, Kind::Eof) || (t.kind == Kind::AutoSemi && t.start as usize == text.len())
    }) {
        tokens.pop();
    }
    tokens
}

/// The constants an expression names (`C`, `pkg.C`) among those Go could mean, whether or
/// not they are evaluated.
fn references(names: &Names, p: &Pending, src: &str, toks: &[Token]) -> Vec<Node> {
    let text = |t: &Token| &src[t.start as usize..t.end as usize];
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        let after_dot = i > 0 && toks[i - 1].kind == Kind::Dot;
        if t.kind != Kind::Ident || after_dot {
            i += 1;
            continue;
        }
        let selected = match (toks.get(i + 1), toks.get(i + 2)) {
            (Some(dot), Some(sel)) if dot.kind == Kind::Dot && sel.kind == Kind::Ident => Some(sel),
            _ => None,
        };
        let node = match selected {
            Some(sel) => names.constant(p.package, &p.imports, Some(text(t)), text(sel)),
            None => names.constant(p.package, &p.imports, None, text(t)),
        };
        out.extend(node);
        i += if selected.is_some() { 3 } else { 1 };
    }
    out
}

/// The names one pending constant's expression sees, over the results so far.
struct UniverseScope<'a, 'u> {
    names: &'a Names<'u>,
    pending: &'a Pending<'u>,
    /// Per pending constant (by node), its evaluated value once known.
    results: &'a HashMap<(usize, usize), Option<KnownConst>>,
}

impl Scope for UniverseScope<'_, '_> {
    fn conversion_type(&self, qualifier: Option<&str>, name: &str) -> Option<TypeRef> {
        let package = self.names.packages[self.pending.package];
        conversion_type(
            &package.path,
            |q| {
                self.names
                    .imported(&self.pending.imports, q)
                    .unwrap_or(q)
                    .to_string()
            },
            qualifier,
            name,
        )
    }

    fn constant(&self, qualifier: Option<&str>, name: &str) -> Option<KnownConst> {
        let node =
            self.names
                .constant(self.pending.package, &self.pending.imports, qualifier, name)?;
        if let Some(result) = self.results.get(&(node.package, node.index)) {
            return result.clone();
        }
        let c = &self.names.packages[node.package].consts[node.index];
        Some(KnownConst {
            value: c.value.clone(),
            ty: c.ty.clone(),
        })
    }

    fn underlying(&self, ty: &TypeRef) -> Option<Builtin> {
        self.names.underlying(ty)
    }
}

/// Evaluates the pending constants, each after the pending constants it names (depth
/// first, iteratively); returns those that got a value.
fn evaluate_all(names: &Names, pending: &[Pending]) -> Vec<(Node, KnownConst)> {
    let ids: HashMap<(usize, usize), usize> = pending
        .iter()
        .enumerate()
        .map(|(i, p)| ((p.package, p.index), i))
        .collect();
    let exprs: Vec<(&str, Vec<Token>)> = pending
        .iter()
        .map(|p| {
            let (from, to) = p.spec.expr;
            let src = p.text.get(from as usize..to as usize).unwrap_or("");
            (src, expr_tokens(src))
        })
        .collect();
    let deps: Vec<Vec<usize>> = pending
        .iter()
        .zip(&exprs)
        .map(|(p, (src, toks))| {
            references(names, p, src, toks)
                .into_iter()
                .filter_map(|n| ids.get(&(n.package, n.index)).copied())
                .collect()
        })
        .collect();
    // Pending constants stand for themselves in lookups: unevaluated (`None`) until done.
    let mut results: HashMap<(usize, usize), Option<KnownConst>> =
        ids.keys().map(|&k| (k, None)).collect();
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        Open,
        Done,
    }
    let mut state = vec![State::New; pending.len()];
    let mut out = Vec::new();
    for start in 0..pending.len() {
        if state[start] != State::New {
            continue;
        }
        state[start] = State::Open;
        let mut stack = vec![(start, 0usize)];
        while let Some((node, next)) = stack.last_mut() {
            let node = *node;
            if let Some(&dep) = deps[node].get(*next) {
                *next += 1;
                // An open dependency is a cycle: it is evaluated without that value.
                if state[dep] == State::New {
                    state[dep] = State::Open;
                    stack.push((dep, 0));
                }
                continue;
            }
            stack.pop();
            state[node] = State::Done;
            let p = &pending[node];
            let scope = UniverseScope {
                names,
                pending: p,
                results: &results,
            };
            let (src, toks) = &exprs[node];
            let (value, inferred) = evaluate(src, toks, p.spec.iota, &scope);
            if matches!(value, ConstValue::Expr(_)) {
                continue;
            }
            let known = declare(value, p.spec.declared.clone(), inferred, &scope);
            results.insert((p.package, p.index), Some(known.clone()));
            out.push((
                Node {
                    package: p.package,
                    index: p.index,
                },
                known,
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use kdv_model::{NamedRef, Universe};

    use crate::{load_sources, resolve_constants};

    use super::*;

    const CORE: &str = "example.com/m/core/v1";
    const DISCOVERY: &str = "example.com/m/discovery/v1";

    /// A universe of packages given as (import path, [(file name, text)]), resolved.
    fn universe(packages: &[(&str, &[(&str, &str)])]) -> Universe {
        let mut u = Universe::default();
        for (path, files) in packages {
            let files: Vec<(PathBuf, String)> = files
                .iter()
                .map(|(n, t)| (PathBuf::from(n), t.to_string()))
                .collect();
            let (p, d) = load_sources(path, &files);
            assert!(d.is_empty(), "{path}: {d:?}");
            u.packages.insert(path.to_string(), p);
        }
        resolve_constants(&mut u);
        u
    }

    fn constant(u: &Universe, package: &str, name: &str) -> (ConstValue, Option<TypeRef>) {
        let c = u.packages[package]
            .consts
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("{package}.{name} missing"));
        (c.value.clone(), c.ty.clone())
    }

    fn named(package: &str, name: &str) -> Option<TypeRef> {
        Some(TypeRef::Named(NamedRef {
            package: package.into(),
            name: name.into(),
            type_args: vec![],
        }))
    }

    fn string(s: &str) -> ConstValue {
        ConstValue::String(s.into())
    }

    const CORE_TYPES: &str = r#"package v1

type IPFamily string

const (
	IPv4Protocol IPFamily = "IPv4"
	IPv6Protocol IPFamily = "IPv6"
)

const Prefix = "pre"
const Base = 10

type Ratio float64
type Half Ratio

const lower = "hidden"
"#;

    fn core_and(files: &[(&str, &str)]) -> Universe {
        universe(&[(CORE, &[("types.go", CORE_TYPES)]), (DISCOVERY, files)])
    }

    #[test]
    fn conversions_of_imported_constants_take_the_converted_type() {
        let u = core_and(&[(
            "types.go",
            r#"package v1

import v1 "example.com/m/core/v1"

// +k8s:enum
type AddressType string

const (
	AddressTypeIPv4 = AddressType(v1.IPv4Protocol)
	AddressTypeIPv6 = AddressType(v1.IPv6Protocol)
	AddressTypeFQDN = AddressType("FQDN")
)

const Family = v1.IPFamily("IPv4")
"#,
        )]);
        for (name, value) in [
            ("AddressTypeIPv4", "IPv4"),
            ("AddressTypeIPv6", "IPv6"),
            ("AddressTypeFQDN", "FQDN"),
        ] {
            assert_eq!(
                constant(&u, DISCOVERY, name),
                (string(value), named(DISCOVERY, "AddressType")),
                "{name}"
            );
        }
        assert_eq!(
            constant(&u, DISCOVERY, "Family"),
            (string("IPv4"), named(CORE, "IPFamily"))
        );
    }

    #[test]
    fn imported_constants_keep_their_type_or_stay_untyped() {
        let u = core_and(&[(
            "types.go",
            r#"package v1

import corev1 "example.com/m/core/v1"

const Same = corev1.IPv4Protocol
const Declared string = corev1.Prefix
const Untyped = corev1.Prefix
"#,
        )]);
        assert_eq!(
            constant(&u, DISCOVERY, "Same"),
            (string("IPv4"), named(CORE, "IPFamily"))
        );
        assert_eq!(
            constant(&u, DISCOVERY, "Declared"),
            (string("pre"), Some(TypeRef::Builtin(Builtin::String)))
        );
        assert_eq!(constant(&u, DISCOVERY, "Untyped"), (string("pre"), None));
    }

    #[test]
    fn expressions_over_imported_constants() {
        let u = core_and(&[(
            "types.go",
            r#"package v1

import "example.com/m/core/v1"

const (
	Suffixed = v1.Prefix + "-suffix"
	TypedSuffix = v1.IPv4Protocol + "-x"
	Both = v1.Prefix + Local
	Local = "L"
	Arith = v1.Base*2 + 1
	Paren = ((v1.Base + 1) * 2)
	Shift = 1 << v1.Base
	Cmp = v1.Base > 5 && v1.Prefix == "pre"
)

const (
	K0 = v1.Base + iota
	K1
	K2
)
"#,
        )]);
        let c = |n| constant(&u, DISCOVERY, n);
        assert_eq!(c("Suffixed"), (string("pre-suffix"), None));
        assert_eq!(
            c("TypedSuffix"),
            (string("IPv4-x"), named(CORE, "IPFamily"))
        );
        assert_eq!(c("Both"), (string("preL"), None));
        assert_eq!(c("Arith"), (ConstValue::Int(21), None));
        assert_eq!(c("Paren"), (ConstValue::Int(22), None));
        assert_eq!(c("Shift"), (ConstValue::Int(1024), None));
        assert_eq!(c("Cmp"), (ConstValue::Bool(true), None));
        assert_eq!(
            [c("K0").0, c("K1").0, c("K2").0],
            [10, 11, 12].map(ConstValue::Int)
        );
    }

    #[test]
    fn named_types_of_the_universe_give_their_underlying_kind() {
        let u = core_and(&[(
            "types.go",
            r#"package v1

import v1 "example.com/m/core/v1"

const Declared v1.Half = 1
const Converted = v1.Ratio(v1.Base)
const Truncated int = 2.0
const Rune = v1.IPFamily(65)
"#,
        )]);
        let c = |n| constant(&u, DISCOVERY, n);
        assert_eq!(c("Declared"), (ConstValue::Float(1.0), named(CORE, "Half")));
        assert_eq!(
            c("Converted"),
            (ConstValue::Float(10.0), named(CORE, "Ratio"))
        );
        assert_eq!(c("Truncated").0, ConstValue::Int(2));
        // `string(65)`-like conversions are not modelled (they make "A").
        assert_eq!(c("Rune").0, ConstValue::Expr("v1.IPFamily(65)".into()));
    }

    #[test]
    fn chains_across_files_and_packages() {
        let u = universe(&[
            (CORE, &[("types.go", CORE_TYPES)]),
            (
                DISCOVERY,
                &[
                    (
                        "a.go",
                        "package v1\n\nimport v1 \"example.com/m/core/v1\"\n\nconst A = B + \"a\"\nconst C = v1.IPv6Protocol\n",
                    ),
                    ("b.go", "package v1\n\nconst B = C + \"b\"\n"),
                ],
            ),
            (
                "example.com/m/top",
                &[(
                    "top.go",
                    "package top\n\nimport d \"example.com/m/discovery/v1\"\n\nconst Deep = d.A + \"!\"\n",
                )],
            ),
        ]);
        assert_eq!(
            constant(&u, DISCOVERY, "A"),
            (string("IPv6ba"), named(CORE, "IPFamily"))
        );
        assert_eq!(
            constant(&u, "example.com/m/top", "Deep"),
            (string("IPv6ba!"), named(CORE, "IPFamily"))
        );
    }

    #[test]
    fn conversions_to_types_of_unloaded_packages_name_their_import_path() {
        let u = core_and(&[(
            "types.go",
            r#"package v1

import (
	v1 "example.com/m/core/v1"
	ext "example.com/elsewhere/api"
)

const Ext = ext.Family(v1.IPv4Protocol)
"#,
        )]);
        assert_eq!(
            constant(&u, DISCOVERY, "Ext"),
            (string("IPv4"), named("example.com/elsewhere/api", "Family"))
        );
    }

    #[test]
    fn what_go_cannot_see_stays_unevaluated() {
        let u = core_and(&[(
            "types.go",
            r#"package v1

import (
	v1 "example.com/m/core/v1"
	other "example.com/elsewhere"
)

const (
	Unexported = v1.lower
	Missing = v1.Nope
	Unloaded = other.X
	Call = len(v1.Prefix)
	NotImported = core.Base
)
"#,
        )]);
        for (name, text) in [
            ("Unexported", "v1.lower"),
            ("Missing", "v1.Nope"),
            ("Unloaded", "other.X"),
            ("Call", "len(v1.Prefix)"),
            ("NotImported", "core.Base"),
        ] {
            assert_eq!(
                constant(&u, DISCOVERY, name).0,
                ConstValue::Expr(text.into()),
                "{name}"
            );
        }
    }

    #[test]
    fn cycles_stay_unevaluated() {
        // An import cycle and a constant cycle: both are Go errors; nothing loops.
        let u = universe(&[
            (
                "example.com/m/a",
                &[(
                    "a.go",
                    "package a\n\nimport \"example.com/m/b\"\n\nconst X = b.Y + 1\nconst Self = Self\nconst Ok = 1\n",
                )],
            ),
            (
                "example.com/m/b",
                &[(
                    "b.go",
                    "package b\n\nimport \"example.com/m/a\"\n\nconst Y = a.X\nconst Z = a.Ok + 1\n",
                )],
            ),
        ]);
        assert_eq!(
            constant(&u, "example.com/m/a", "X").0,
            ConstValue::Expr("b.Y + 1".into())
        );
        assert_eq!(
            constant(&u, "example.com/m/b", "Y").0,
            ConstValue::Expr("a.X".into())
        );
        assert_eq!(
            constant(&u, "example.com/m/a", "Self").0,
            ConstValue::Expr("Self".into())
        );
        assert_eq!(constant(&u, "example.com/m/b", "Z").0, ConstValue::Int(2));
    }

    #[test]
    fn long_chains_are_linear_and_iterative() {
        // Each constant names the next, declared later: 20,000 deep, no recursion.
        let n = 20_000;
        let mut src = String::from("package p\n\nconst (\n");
        for i in 0..n {
            src.push_str(&format!("\tC{i} = C{} + 1\n", i + 1));
        }
        src.push_str(&format!("\tC{n} = 0\n)\n"));
        let start = std::time::Instant::now();
        let u = universe(&[("example.com/m/p", &[("p.go", &src)])]);
        assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
        assert_eq!(
            constant(&u, "example.com/m/p", "C0").0,
            ConstValue::Int(n as i128)
        );
    }

    #[test]
    fn many_named_numbers_and_long_type_chains_are_bounded() {
        let n = 20_000;
        let mut src = String::from("package p\n\ntype F float64\n");
        for i in 0..n {
            src.push_str(&format!("type T{i} F\nconst C{i} T{i} = {i}\n"));
        }
        // A definition chain longer than the bound is not followed to its end.
        for i in 0..100 {
            src.push_str(&format!("type L{i} L{}\n", i + 1));
        }
        src.push_str("type L100 float64\nconst Far L0 = 1\nconst Near L40 = 1\n");
        let start = std::time::Instant::now();
        let u = universe(&[("example.com/m/p", &[("p.go", &src)])]);
        assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
        let c = |n| constant(&u, "example.com/m/p", n).0;
        assert_eq!(c("C19999"), ConstValue::Float(19_999.0));
        assert_eq!(c("Far"), ConstValue::Int(1));
        assert_eq!(c("Near"), ConstValue::Float(1.0));
    }

    #[test]
    fn packages_without_sources_keep_their_constants() {
        let mut u = core_and(&[(
            "types.go",
            "package v1\n\nimport v1 \"example.com/m/core/v1\"\n\nconst A = v1.IPv4Protocol\nconst B = A\n",
        )]);
        // Re-resolving is a no-op; a package without its files cannot be read again.
        let values = |u: &Universe| -> Vec<(ConstValue, Option<TypeRef>)> {
            let p = &u.packages[DISCOVERY];
            p.consts
                .iter()
                .map(|c| (c.value.clone(), c.ty.clone()))
                .collect()
        };
        let before = values(&u);
        assert_eq!(before[1], (string("IPv4"), named(CORE, "IPFamily")));
        resolve_constants(&mut u);
        assert_eq!(values(&u), before);
        let mut bare = u.packages[DISCOVERY].clone();
        bare.files.clear();
        bare.consts[0].value = ConstValue::Expr("v1.IPv4Protocol".into());
        bare.consts[1].value = ConstValue::Expr("A".into());
        u.packages.insert(DISCOVERY.into(), bare);
        resolve_constants(&mut u);
        assert!(matches!(
            u.packages[DISCOVERY].consts[1].value,
            ConstValue::Expr(_)
        ));
    }
}
