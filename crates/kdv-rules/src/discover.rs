//! Type discovery (spec §4.1): walks every named type of the universe, evaluates the tags of
//! types, fields and constants in upstream's order, resolves deferred validations, and builds
//! the [`RuleSet`] (field blocks, iterations, `has_validations`, roots).

use std::collections::HashMap;

use kdv_model::{Diagnostic, Package, Severity, SourceSpan, TypeDecl, Universe};
use kdv_tags::go_quote;

use crate::gotypes::{Kind, Member, NamedIdx, NamedKind, Ty};
use crate::ir::{
    Calls, Check, Equality, FieldAccess, FieldPathRule, FieldRules, RootInfo, RuleSet, TypeId,
    TypeKind, TypeRules, Validation, key_order,
};
use crate::lower::{Ctx, DeferScope, LowerError, Lowered, Lowerer, TagTable};
use crate::roots::{self, CompileOptions, PackageRoots, RootSelection, Roots, TypeFilter};
use crate::shapes::decode_access;
use crate::tag_doc::Scope;
use crate::tags::each::{for_each_key, for_each_val};
use crate::tags::{self, native};

/// Depth limit for nested type discovery (each level is a distinct named type).
const MAX_DISCOVERY_DEPTH: usize = 100;

/// Tag name recorded on the synthetic calls of element iterations and type functions.
const ITERATE: &str = "(iteration)";

/// Tag name recorded on the synthetic nil-element check.
const PTR_SLICE_NO_NILS: &str = "(PtrSliceNoNils)";

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    New,
    InProgress,
    Done,
}

/// The node a type reference leads to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Node {
    Named(NamedIdx),
    Other,
    NonIncluded,
}

/// A candidate iteration calling `target`'s function, kept only if `target` has validations.
struct Iteration {
    validation: Validation,
    target: NamedIdx,
}

struct Child<'u> {
    member: Member<'u>,
    node: Option<NamedIdx>,
    /// `+k8s:declarativeValidationNative`: the field's generator path and the tag's span.
    native: Option<(String, Option<SourceSpan>)>,
    validations: Vec<Validation>,
    comments: usize,
    key_iterations: Vec<Iteration>,
    val_iterations: Vec<Iteration>,
}

/// Which parts of a value tags declare opaque (upstream `OpaqueType`, `OpaqueKeyType`,
/// `OpaqueValType`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct Opacity {
    pub(crate) typ: bool,
    pub(crate) key: bool,
    pub(crate) val: bool,
}

#[derive(Default)]
pub(crate) struct TypeNode<'u> {
    pub(crate) validations: Vec<Validation>,
    pub(crate) comments: usize,
    /// Opacity from the type's own tags (`typ` is upstream's opaque type).
    pub(crate) opaque: bool,
    pub(crate) opaque_parts: Opacity,
    key_iterations: Vec<Iteration>,
    val_iterations: Vec<Iteration>,
    fields: Vec<Child<'u>>,
}

struct Discoverer<'u> {
    lw: Lowerer<'u>,
    states: Vec<State>,
    nodes: Vec<TypeNode<'u>>,
    consts_by_type: HashMap<Ty, Vec<usize>>,
    depth: usize,
    /// Discovering types no root reaches: unsupported shapes are not reported (upstream
    /// never looks at such types; they just cannot be validated).
    unreachable: bool,
}

/// What discovery found, before it becomes a rule set: the type graph, the lowering
/// results and the root selection (what the lint rules read).
pub(crate) struct Discovered<'a, 'u> {
    pub universe: &'u Universe,
    pub g: &'a crate::gotypes::Graph<'u>,
    pub nodes: &'a [TypeNode<'u>],
    pub roots: &'a [RootInfo],
    pub packages: &'a [PackageRoots],
}

/// Compiles a universe: the rule set, the compiler's diagnostics and what `inspect` finds
/// in the discovered types (the lint rules' findings, when asked for: discovery does not
/// know the lint rules, they read its output).
/// What the lowerer asks of the registry, handed to it here so that the lowering context
/// (which the families import) imports neither the registry nor the tag names.
static TAG_TABLE: TagTable = TagTable {
    find: crate::registry::registered,
    alternate: crate::registry::alternate,
    is_unknown: |name| crate::tag_names::unknown_tag(name).is_some(),
};

pub(crate) fn run(
    universe: &Universe,
    options: &CompileOptions,
    inspect: impl FnOnce(&Discovered<'_, '_>) -> Vec<Diagnostic>,
) -> (RuleSet, Vec<Diagnostic>, Vec<Diagnostic>) {
    let lw = Lowerer::new(universe, &TAG_TABLE);
    let n = lw.g.named.len();
    let mut d = Discoverer {
        lw,
        states: vec![State::New; n],
        nodes: (0..n).map(|_| TypeNode::default()).collect(),
        consts_by_type: HashMap::new(),
        depth: 0,
        unreachable: false,
    };
    d.init_constants();
    let (roots, packages) = d.select_roots(universe, options);
    for r in &roots {
        d.discover_named(r.id.0 as usize);
    }
    d.unreachable = true;
    for idx in 0..n {
        d.discover_named(idx);
    }
    d.check_native_types();
    let lint = inspect(&Discovered {
        universe,
        g: &d.lw.g,
        nodes: &d.nodes,
        roots: &roots,
        packages: &packages,
    });
    let (rules, diagnostics) = d.finish(roots, packages);
    (rules, diagnostics, lint)
}

fn member_span(m: &Member<'_>) -> Option<SourceSpan> {
    let file = m.pkg.files.get(m.field.loc.file as usize)?;
    Some(SourceSpan::from_loc(
        file,
        m.field.loc,
        m.field.name.len().max(1) as u32,
    ))
}

fn decl_span(pkg: &Package, decl: &TypeDecl) -> Option<SourceSpan> {
    let file = pkg.files.get(decl.loc.file as usize)?;
    Some(SourceSpan::from_loc(
        file,
        decl.loc,
        decl.name.len().max(1) as u32,
    ))
}

fn error(message: String, span: Option<SourceSpan>) -> LowerError {
    LowerError {
        message,
        span,
        severity: Severity::Error,
    }
}

fn warning(message: String, span: Option<SourceSpan>) -> LowerError {
    LowerError {
        message,
        span,
        severity: Severity::Warning,
    }
}

/// The warning for a value of a type kdv has no declaration of (upstream's "non-included
/// package" warning, in kdv's terms: kdv has no `--readonly-pkg`, it reads what the Go module
/// holds plus its built-in apimachinery declarations).
fn non_included(
    g: &crate::gotypes::Graph<'_>,
    path: &str,
    what: &str,
    t: &Ty,
    tag: &str,
) -> String {
    let shown = g.type_string(t);
    let why = match g.non_pointer(t) {
        Ty::Foreign { package, name } if g.built_in.contains(package) => {
            format!("kdv's built-in declarations of {package} do not include {name}")
        }
        Ty::Foreign { package, .. } => format!(
            "it is declared in package {package}, which kdv did not load (kdv reads the Go module of the --types directory and its built-in declarations of well-known apimachinery packages)"
        ),
        _ => format!("kdv has no declaration of {shown}"),
    };
    format!(
        "{path}: {what} {shown} is not validated: {why}; add {tag} to the field to skip it knowingly"
    )
}

impl<'u> Discoverer<'u> {
    fn init_constants(&mut self) {
        for ci in 0..self.lw.g.consts.len() {
            let c = self.lw.g.consts[ci].clone();
            let tags = self.lw.extract_tags(c.pkg, &c.decl.tags);
            self.lw
                .const_tags
                .push(tags.iter().map(|t| t.tag.clone()).collect());
            if !tags.is_empty() {
                let ty = c.ty.clone().unwrap_or(Ty::Interface);
                let ctx = Ctx::new(Scope::Const, ty, String::new());
                let v = self.lw.lower_tags(&ctx, &tags);
                // Constants only carry metadata; nothing they produce is run.
                drop(v);
            }
            if let Some(ty) = c.ty {
                self.consts_by_type.entry(ty).or_default().push(ci);
            }
        }
    }

    /// A type from a package outside the universe: a warning where a root reaches it.
    fn non_included_warning(&mut self, w: LowerError) {
        if !self.unreachable {
            self.lw.report(w);
        }
    }

    /// An unsupported type shape: an error where a root reaches it, else silently skipped.
    fn shape_error(&mut self, message: String, span: Option<SourceSpan>) {
        if !self.unreachable {
            self.lw.report(error(message, span));
        }
    }

    fn node_of(&self, t: &Ty) -> Node {
        match self.lw.g.non_pointer(t) {
            Ty::Named(i) => Node::Named(*i),
            Ty::Foreign { .. } => Node::NonIncluded,
            _ => Node::Other,
        }
    }

    /// `verifySupportedType`.
    fn verify(&self, t: &Ty) -> Result<(), String> {
        let g = &self.lw.g;
        match t {
            Ty::Builtin(_) | Ty::Struct(_) | Ty::Interface | Ty::Foreign { .. } => Ok(()),
            Ty::Named(i) => match &g.named[*i].kind {
                NamedKind::Alias(Ty::Pointer(_)) => {
                    Err("typedefs to pointers are not supported".into())
                }
                _ => Ok(()),
            },
            Ty::Pointer(e) => match g.kind(&g.native(e)) {
                Kind::Pointer => Err("pointers to pointers are not supported".into()),
                Kind::Slice | Kind::Array => Err("pointers to lists are not supported".into()),
                Kind::Map => Err("pointers to maps are not supported".into()),
                _ => Ok(()),
            },
            Ty::Array(_) => Err("fixed-size arrays are not supported".into()),
            Ty::Slice(e) => match g.native(e) {
                Ty::Slice(inner) => match g.native(&inner) {
                    Ty::Builtin(
                        kdv_model::Builtin::Byte
                        | kdv_model::Builtin::Uint8
                        | kdv_model::Builtin::Int8,
                    ) => Ok(()),
                    _ => Err("lists of lists are not supported".into()),
                },
                Ty::Map(..) => Err("lists of maps are not supported".into()),
                _ => Ok(()),
            },
            Ty::Map(k, v) => {
                if !matches!(g.native(k), Ty::Builtin(kdv_model::Builtin::String)) {
                    return Err("maps with non-string keys are not supported".into());
                }
                match g.kind(&g.native(v)) {
                    Kind::Pointer => Err("maps of pointers are not supported".into()),
                    Kind::Map => Err("maps of maps are not supported".into()),
                    _ => Ok(()),
                }
            }
            Ty::Unsupported(why) => Err(why.message()),
        }
    }

    /// `discoverType` for a child type: verifies the shape and discovers named types.
    fn discover_child(&mut self, t: &Ty, path: &str) -> Result<(), String> {
        if let Err(msg) = self.verify(t) {
            return Err(format!(
                "field {path} ({}): {msg}",
                self.lw.g.type_string(t)
            ));
        }
        match t {
            Ty::Pointer(e) => self.discover_child(e, path),
            Ty::Named(i) => {
                self.discover_named(*i);
                Ok(())
            }
            Ty::Slice(e) | Ty::Array(e) => self.discover_child(e, &format!("{path}[vals]")),
            Ty::Map(k, v) => {
                self.discover_child(k, &format!("{path}[keys]"))?;
                self.discover_child(v, &format!("{path}[vals]"))
            }
            _ => Ok(()),
        }
    }

    fn is_map_of_slices(&self, t: &Ty) -> bool {
        matches!(self.lw.g.base(t), Ty::Map(_, v) if matches!(*v, Ty::Slice(_)))
    }

    fn discover_named(&mut self, idx: NamedIdx) {
        if self.states[idx] != State::New {
            return;
        }
        if self.depth >= MAX_DISCOVERY_DEPTH {
            // Left New: a shallower walk (the top-level loop) discovers it later.
            return;
        }
        self.depth += 1;
        self.states[idx] = State::InProgress;
        self.discover_named_inner(idx);
        self.states[idx] = State::Done;
        self.depth -= 1;
    }

    fn discover_named_inner(&mut self, idx: NamedIdx) {
        let named = &self.lw.g.named[idx];
        let (pkg, decl, kind) = (named.pkg, named.decl, named.kind.clone());
        let path = named.qualified();
        let this = Ty::Named(idx);
        if let Err(msg) = self.verify(&this) {
            self.shape_error(
                format!("field {path} ({path}): {msg}"),
                decl_span(pkg, decl),
            );
            return;
        }
        match &kind {
            NamedKind::Alias(u) => {
                if let Err(msg) = self.discover_child(u, &path) {
                    self.shape_error(msg, decl_span(pkg, decl));
                    return;
                }
            }
            NamedKind::Struct(members) => self.discover_struct(idx, members, &path),
        }

        // Type-level tags, after the fields (so field-level state is known).
        let mut ctx = Ctx::new(Scope::Type, this.clone(), path.clone());
        ctx.constants = self.consts_by_type.get(&this).cloned().unwrap_or_default();
        let tags = self.lw.extract_tags(pkg, &decl.tags);
        let mut v = self.lw.lower_tags(&ctx, &tags);
        v.add(tags::cel_rules::lower(&mut self.lw, &ctx, pkg, &decl.tags));
        if !v.is_empty() && self.is_map_of_slices(&this) {
            self.lw.report(error(
                format!("field {path}: validation for map of slices is not supported"),
                decl_span(pkg, decl),
            ));
            v = Lowered::default();
        }
        let deferred = std::mem::take(&mut v.deferred);
        {
            let node = &mut self.nodes[idx];
            node.validations.extend(v.functions);
            node.comments += v.comments;
            node.opaque |= v.opaque_type;
            node.opaque_parts.key |= v.opaque_key;
            node.opaque_parts.val |= v.opaque_val;
        }

        if let NamedKind::Alias(_) = &kind {
            self.type_iterations(idx, &path, v.opaque_key, v.opaque_val, pkg, decl);
        }

        let mut results = Vec::new();
        self.lw.resolve_deferred(
            deferred,
            &|| format!("type {path} at path {path}"),
            &mut |_, res| results.push(res),
        );
        let node = &mut self.nodes[idx];
        for res in results {
            node.validations.extend(res.functions);
            node.comments += res.comments;
            node.opaque |= res.opaque_type;
        }
    }

    fn call(target: NamedIdx) -> Validation {
        Validation::new(ITERATE, Check::CallType(TypeId(target as u32))).bare()
    }

    fn type_iterations(
        &mut self,
        idx: NamedIdx,
        path: &str,
        opaque_key: bool,
        opaque_val: bool,
        pkg: &'u Package,
        decl: &'u TypeDecl,
    ) {
        let this = Ty::Named(idx);
        let native = self.lw.g.native(&this);
        let (key, val) = match &native {
            Ty::Slice(e) | Ty::Array(e) => (None, Some((**e).clone())),
            Ty::Map(k, v) => (Some((**k).clone()), Some((**v).clone())),
            _ => return,
        };
        if let Some(k) = key {
            match self.node_of(&k) {
                Node::NonIncluded if !opaque_key => self.non_included_warning(warning(
                    non_included(
                        &self.lw.g,
                        path,
                        "key type",
                        &k,
                        "+k8s:eachKey=+k8s:opaqueType",
                    ),
                    decl_span(pkg, decl),
                )),
                Node::Named(j) if !opaque_key => {
                    let v = for_each_key(Self::call(j));
                    self.nodes[idx].key_iterations.push(Iteration {
                        validation: v,
                        target: j,
                    });
                }
                _ => {}
            }
        }
        if let Some(e) = val {
            match self.node_of(&e) {
                Node::NonIncluded if !opaque_val => self.non_included_warning(warning(
                    non_included(
                        &self.lw.g,
                        path,
                        "value type",
                        &e,
                        "+k8s:eachVal=+k8s:opaqueType",
                    ),
                    decl_span(pkg, decl),
                )),
                Node::Named(j) if !opaque_val => {
                    let v = for_each_val(&mut self.lw, path, &this, Self::call(j));
                    self.nodes[idx].val_iterations.push(Iteration {
                        validation: v,
                        target: j,
                    });
                }
                _ => {}
            }
        }
    }

    fn discover_struct(&mut self, idx: NamedIdx, members: &[Member<'u>], path: &str) {
        let this = Ty::Named(idx);
        let mut children = Vec::new();
        let mut pending = Vec::new();
        for m in members {
            if !m.is_exported() {
                continue;
            }
            let json = m.json_name();
            let child_path = format!("{path}.{}", if json.is_empty() { m.name() } else { json });
            if let Err(msg) = self.discover_child(&m.ty, &child_path) {
                self.shape_error(msg, member_span(m));
                continue;
            }
            let mut ctx = Ctx::new(Scope::Field, m.ty.clone(), child_path.clone());
            ctx.member = Some(m.clone());
            ctx.parent_ty = Some(this.clone());
            ctx.parent_path = Some(path.to_string());
            let tags = self.lw.extract_tags(m.pkg, &m.field.tags);
            let mut v = self.lw.lower_tags(&ctx, &tags);
            v.add(tags::cel_rules::lower(
                &mut self.lw,
                &ctx,
                m.pkg,
                &m.field.tags,
            ));
            let native = self.lw.native.is_native(path, m.name()).then(|| {
                let span = tags
                    .iter()
                    .find(|t| t.tag.name == native::NAME)
                    .and_then(|t| t.site.map(|s| s.span(t.tag.name_span)));
                (child_path.clone(), span)
            });
            if native.is_some()
                && let Some(e) =
                    native::check_field(self.lw.tags, &child_path, m.pkg, &tags, &m.field.tags)
            {
                self.lw.report(e);
            }
            if !v.is_empty() && self.is_map_of_slices(&m.ty) {
                self.lw.report(error(
                    format!("field {child_path}: validation for map of slices is not supported"),
                    member_span(m),
                ));
                v = Lowered::default();
            }
            let mut node = match self.node_of(&m.ty) {
                Node::Named(j) => Some(j),
                _ => None,
            };
            let field_kind = self.lw.g.kind(self.lw.g.non_pointer(&m.ty));
            if matches!(field_kind, Kind::Struct | Kind::Alias | Kind::Foreign) {
                if self.node_of(&m.ty) == Node::NonIncluded && !v.opaque_type {
                    self.non_included_warning(warning(
                        non_included(&self.lw.g, &child_path, "type", &m.ty, "+k8s:opaqueType"),
                        member_span(m),
                    ));
                } else if v.opaque_type {
                    node = None;
                }
            }
            let mut child = Child {
                member: m.clone(),
                node,
                native,
                validations: std::mem::take(&mut v.functions),
                comments: v.comments,
                key_iterations: Vec::new(),
                val_iterations: Vec::new(),
            };
            self.field_iterations(&mut child, &child_path, v.opaque_key, v.opaque_val);
            pending.push(std::mem::take(&mut v.deferred));
            children.push(child);
        }

        // Deferred validations of each field, in field order.
        let type_name = self.lw.g.type_string(&this);
        for (child, deferred) in children.iter_mut().zip(pending) {
            let mut results = Vec::new();
            let field_name = child.member.name().to_string();
            self.lw.resolve_deferred(
                deferred,
                &|| format!("field {field_name} of type {type_name}"),
                &mut |scope, res| results.push((scope, res)),
            );
            for (scope, res) in results {
                match scope {
                    DeferScope::This => {
                        child.validations.extend(res.functions);
                        child.comments += res.comments;
                    }
                    DeferScope::Parent => {
                        let node = &mut self.nodes[idx];
                        node.validations.extend(res.functions);
                        node.comments += res.comments;
                    }
                }
            }
        }
        self.nodes[idx].fields = children;
    }

    fn field_iterations(
        &mut self,
        child: &mut Child<'u>,
        path: &str,
        opaque_key: bool,
        opaque_val: bool,
    ) {
        let m = child.member.clone();
        let (key, val) = match &m.ty {
            Ty::Slice(e) => (None, Some((**e).clone())),
            Ty::Map(k, v) => (Some((**k).clone()), Some((**v).clone())),
            _ => return,
        };
        if let Some(k) = key {
            match self.node_of(&k) {
                Node::NonIncluded if !opaque_key => self.non_included_warning(warning(
                    non_included(
                        &self.lw.g,
                        path,
                        "key type",
                        &k,
                        "+k8s:eachKey=+k8s:opaqueType",
                    ),
                    member_span(&m),
                )),
                Node::Named(j) if !opaque_key => child.key_iterations.push(Iteration {
                    validation: for_each_key(Self::call(j)),
                    target: j,
                }),
                _ => {}
            }
        }
        if let Some(e) = val {
            match self.node_of(&e) {
                Node::NonIncluded if !opaque_val => self.non_included_warning(warning(
                    non_included(
                        &self.lw.g,
                        path,
                        "value type",
                        &e,
                        "+k8s:eachVal=+k8s:opaqueType",
                    ),
                    member_span(&m),
                )),
                Node::Named(j) if !opaque_val => {
                    let v = for_each_val(&mut self.lw, path, &m.ty, Self::call(j));
                    child.val_iterations.push(Iteration {
                        validation: v,
                        target: j,
                    });
                }
                _ => {}
            }
        }
    }

    /// The named types each type's function reaches (calls of field types and element
    /// iterations; an opaque type reaches nothing).
    fn dependencies(&self) -> Vec<Vec<usize>> {
        self.nodes
            .iter()
            .map(|node| {
                if node.opaque {
                    return Vec::new();
                }
                node.key_iterations
                    .iter()
                    .chain(&node.val_iterations)
                    .map(|it| it.target)
                    .chain(node.fields.iter().flat_map(|c| {
                        c.key_iterations
                            .iter()
                            .chain(&c.val_iterations)
                            .map(|it| it.target)
                            .chain(c.node)
                    }))
                    .collect()
            })
            .collect()
    }

    /// Upstream's check of `+k8s:declarativeValidationNative` fields against their types
    /// (`hasNonStableValidations`): a type reached from such a field must hold only stable
    /// validations, unless the field's package is an alpha or beta version.
    fn check_native_types(&mut self) {
        if !self
            .nodes
            .iter()
            .any(|node| node.fields.iter().any(|c| c.native.is_some()))
        {
            return;
        }
        let n = self.nodes.len();
        let non_stable_validation = |v: &Validation| {
            let mut found = false;
            crate::ir::visit_validation(v, &mut |x| {
                found |= x.level.is_some()
                    || crate::registry::tag_doc(x.tag)
                        .is_some_and(|d| d.stability < crate::registry::Stability::Stable);
            });
            found
        };
        let mut non_stable: Vec<bool> = self
            .nodes
            .iter()
            .map(|node| {
                node.validations.iter().any(non_stable_validation)
                    || (!node.opaque
                        && node
                            .fields
                            .iter()
                            .any(|c| c.validations.iter().any(non_stable_validation)))
            })
            .collect();
        let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, targets) in self.dependencies().into_iter().enumerate() {
            for j in targets {
                dependents[j].push(i);
            }
        }
        let mut queue: Vec<usize> = (0..n).filter(|&i| non_stable[i]).collect();
        while let Some(j) = queue.pop() {
            for &i in &dependents[j] {
                if !non_stable[i] {
                    non_stable[i] = true;
                    queue.push(i);
                }
            }
        }
        let mut errors = Vec::new();
        for node in &self.nodes {
            for c in &node.fields {
                let Some((path, span)) = &c.native else {
                    continue;
                };
                if native::allows_non_stable(&c.member.pkg.path) {
                    continue;
                }
                let reached = c
                    .node
                    .into_iter()
                    .chain(c.key_iterations.iter().map(|it| it.target))
                    .chain(c.val_iterations.iter().map(|it| it.target));
                if let Some(j) = reached.into_iter().find(|&j| non_stable[j]) {
                    let name = self.lw.g.type_string(&Ty::Named(j));
                    errors.push(native::type_error(path, &name, span.clone()));
                }
            }
        }
        for e in errors {
            self.lw.report(e);
        }
    }

    /// `hasValidations` for every named type: reachability of anything emitable.
    fn has_validations(&self) -> Vec<bool> {
        let n = self.nodes.len();
        let mut hv: Vec<bool> = self
            .nodes
            .iter()
            .map(|node| {
                !node.validations.is_empty()
                    || node.comments > 0
                    || (!node.opaque
                        && node
                            .fields
                            .iter()
                            .any(|c| !c.validations.is_empty() || c.comments > 0))
            })
            .collect();
        // Propagate backwards along the dependency edges (an opaque type depends on
        // nothing): linear, where a fixpoint over all types is quadratic on long chains.
        let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, targets) in self.dependencies().into_iter().enumerate() {
            for j in targets {
                dependents[j].push(i);
            }
        }
        let mut queue: Vec<usize> = (0..n).filter(|&i| hv[i]).collect();
        while let Some(j) = queue.pop() {
            for &i in &dependents[j] {
                if !hv[i] {
                    hv[i] = true;
                    queue.push(i);
                }
            }
        }
        hv
    }

    fn finish(
        mut self,
        roots: Vec<RootInfo>,
        packages: Vec<PackageRoots>,
    ) -> (RuleSet, Vec<Diagnostic>) {
        let hv = self.has_validations();
        let nodes = std::mem::take(&mut self.nodes);
        let mut types = Vec::with_capacity(nodes.len());
        let mut defaults = HashMap::new();
        for (idx, node) in nodes.into_iter().enumerate() {
            let named = self.lw.g.named[idx].clone();
            let this = Ty::Named(idx);
            let shape = self.lw.shape(&this);
            let iterations = node
                .key_iterations
                .into_iter()
                .chain(node.val_iterations)
                .filter(|it| hv[it.target])
                .map(|it| it.validation)
                .collect();
            let mut fields = Vec::new();
            if !node.opaque {
                for child in node.fields {
                    if let Some(d) =
                        crate::tags::defaults::member_default(&mut self.lw, &child.member)
                    {
                        defaults.insert((TypeId(idx as u32), child.member.name().to_owned()), d);
                    }
                    if let Some(f) = self.field_rules(&named.pkg.path, child, &hv) {
                        fields.push(f);
                    }
                }
            }
            types.push(TypeRules {
                name: named.decl.name.clone(),
                package: named.pkg.path.clone(),
                package_name: named.pkg.name.clone(),
                kind: match named.kind {
                    NamedKind::Struct(_) => TypeKind::Struct,
                    NamedKind::Alias(_) => TypeKind::Typedef,
                },
                shape,
                has_validations: hv[idx],
                validations: Calls::from_ordered(node.validations),
                iterations,
                opaque: node.opaque,
                field_key_order: key_order(fields.iter().map(|f| &f.access)),
                fields,
                subresources: Vec::new(),
                declarative_native: false,
            });
        }
        crate::tags::virtual_fields::finish(&mut self.lw);
        let mut rules = RuleSet {
            types,
            shapes: Vec::new(),
            roots: Vec::new(),
            spans: std::mem::take(&mut self.lw.spans),
            packages,
            by_name: HashMap::new(),
            by_kind: HashMap::new(),
            defaults,
        };
        for r in &roots {
            let decl = self.lw.g.named[r.id.0 as usize].decl;
            rules.types[r.id.0 as usize].subresources = subresources(decl);
        }
        index_names(&mut rules, roots);
        rules.shapes = std::mem::take(&mut self.lw.shapes.shapes);
        crate::ir::fill_common_kinds(&mut rules.shapes);
        crate::ir::fill_declarative_native(&mut rules.types);
        (rules, self.lw.diagnostics)
    }

    fn field_rules(&mut self, pkg_path: &str, child: Child<'u>, hv: &[bool]) -> Option<FieldRules> {
        let g = &self.lw.g;
        let m = &child.member;
        let type_call = child.node.filter(|&j| hv[j]).map(|j| TypeId(j as u32));
        let mut validations = child.validations;
        if let Ty::Slice(e) = g.native(&m.ty)
            && matches!(*e, Ty::Pointer(_))
        {
            let propagates = child.node.is_some_and(|j| hv[j]);
            if !validations.is_empty() || propagates {
                validations.insert(
                    0,
                    Validation::new(PTR_SLICE_NO_NILS, Check::NoNilElements)
                        .short_circuit()
                        .bare(),
                );
            }
        }
        let iterations: Vec<Validation> = child
            .key_iterations
            .into_iter()
            .chain(child.val_iterations)
            .filter(|it| hv[it.target])
            .map(|it| it.validation)
            .collect();
        if validations.is_empty() && type_call.is_none() && iterations.is_empty() {
            return None;
        }
        let json = m.json_name().to_string();
        let path = if json.is_empty() {
            FieldPathRule::Parent {
                root_segment: g.local_type_string(&m.ty, pkg_path),
            }
        } else {
            FieldPathRule::Child(json.clone())
        };
        let access = decode_access(g, m).unwrap_or(FieldAccess::Skip);
        let equality = if g.is_direct_comparable(&g.base(&m.ty)) {
            Equality::Direct
        } else {
            Equality::Semantic
        };
        let ty = m.ty.clone();
        let go_name = m.name().to_string();
        let shape = self.lw.shape(&ty);
        Some(FieldRules {
            go_name,
            json_name: json,
            access,
            path,
            shape,
            equality,
            validations: Calls::from_ordered(validations),
            type_call,
            iterations,
            declarative_native: child.native.is_some(),
        })
    }

    /// The root types selected by each package's `+k8s:validation-gen` tags (or by
    /// `options.roots` for `options.package`), sorted by qualified name, and how each
    /// package's selection was made.
    fn select_roots(
        &mut self,
        universe: &'u Universe,
        options: &CompileOptions,
    ) -> (Vec<RootInfo>, Vec<PackageRoots>) {
        let mut roots = Vec::new();
        let mut packages = Vec::new();
        let mut is_root = vec![false; self.lw.g.named.len()];
        for pkg in universe.packages.values() {
            let mut problems = Vec::new();
            let (mut selection, input) = roots::package_selection(pkg, &mut |e| problems.push(e));
            for p in problems {
                self.lw.report(p);
            }
            let overridden = options.roots != Roots::Package
                && options
                    .package
                    .as_ref()
                    .is_none_or(|home| *home == pkg.path);
            if overridden {
                selection = RootSelection::Override(options.roots);
            } else if selection == RootSelection::Untagged
                && options.package.as_deref() == Some(pkg.path.as_str())
            {
                selection = RootSelection::UntaggedKinds;
            }
            let group = roots::group_of(pkg);
            // `+k8s:validation-gen-input=<path>`: the types live in another package.
            let (types_pkg, loaded) = match &input {
                Some(input) => match universe.packages.get(input) {
                    Some(p) => (p, true),
                    None => {
                        if selection.filters().is_some() {
                            let span = pkg
                                .tags
                                .named(roots::INPUT_TAG)
                                .next()
                                .and_then(|l| roots::tag_value_span(pkg, l));
                            self.lw.report(warning(
                                format!(
                                    "package {} (named by +{}) is not loaded",
                                    go_quote(input),
                                    roots::INPUT_TAG
                                ),
                                span,
                            ));
                        }
                        (pkg, false)
                    }
                },
                None => (pkg, true),
            };
            let tag = pkg
                .tags
                .named(roots::MAIN_TAG)
                .next()
                .and_then(|l| roots::tag_value_span(pkg, l));
            let mut record = PackageRoots {
                package: pkg.path.clone(),
                types_package: input.clone().unwrap_or_else(|| pkg.path.clone()),
                group: group.clone(),
                version: types_pkg.name.clone(),
                selection,
                tag,
                nolint: pkg.tags.named(roots::NOLINT_TAG).next().is_some(),
                roots: 0,
            };
            let filters = match record.selection.filters() {
                Some(f) if loaded => f,
                _ => {
                    packages.push(record);
                    continue;
                }
            };
            for decl in &types_pkg.types {
                if decl.is_alias || decl.is_generic {
                    continue;
                }
                let Some(idx) = self.lw.g.lookup(&types_pkg.path, &decl.name) else {
                    continue;
                };
                if !self.is_root(types_pkg, idx, &filters) {
                    continue;
                }
                record.roots += 1;
                if std::mem::replace(&mut is_root[idx], true) {
                    continue;
                }
                roots.push(RootInfo {
                    id: TypeId(idx as u32),
                    name: decl.name.clone(),
                    package: types_pkg.path.clone(),
                    group: group.clone(),
                    version: types_pkg.name.clone(),
                    kind: decl.name.clone(),
                });
            }
            packages.push(record);
        }
        roots.sort_by(|a, b| {
            (a.package.as_str(), a.name.as_str()).cmp(&(b.package.as_str(), b.name.as_str()))
        });
        (roots, packages)
    }

    /// Whether `t` is `metav1.ListMeta` (loaded from the universe or not).
    fn is_list_meta(&self, t: &Ty) -> bool {
        const METAV1: &str = "k8s.io/apimachinery/pkg/apis/meta/v1";
        match t {
            Ty::Foreign { package, name } => package == METAV1 && name == "ListMeta",
            Ty::Named(i) => {
                let n = &self.lw.g.named[*i];
                n.pkg.path == METAV1 && n.decl.name == "ListMeta"
            }
            _ => false,
        }
    }

    /// upstream `shouldCreateObjectValidationFn`: exported, not opted out, opted in, not a
    /// list type, or selected by a filter.
    fn is_root(&mut self, pkg: &Package, idx: NamedIdx, filters: &[TypeFilter]) -> bool {
        let named = &self.lw.g.named[idx];
        let decl = named.decl;
        if !decl.name.chars().next().is_some_and(char::is_uppercase) {
            return false;
        }
        let mut problems = Vec::new();
        let forced = roots::type_override(pkg, decl, &mut |e| problems.push(e));
        for p in problems {
            self.lw.report(p);
        }
        if let Some(forced) = forced {
            return forced;
        }
        let named = &self.lw.g.named[idx];
        if let NamedKind::Struct(members) = &named.kind
            && members
                .iter()
                .any(|m| m.field.embedded && self.is_list_meta(&m.ty))
        {
            return false;
        }
        let has_field = |field: &str| match &named.kind {
            NamedKind::Struct(members) => members.iter().any(|m| m.name() == field),
            NamedKind::Alias(_) => false,
        };
        roots::filters_select(filters, &decl.name, &has_field)
    }
}

/// Indexes types by qualified and bare name (roots win bare names, then import-path order).
fn index_names(rules: &mut RuleSet, roots: Vec<RootInfo>) {
    for (idx, t) in rules.types.iter().enumerate() {
        rules
            .by_name
            .insert(format!("{}.{}", t.package, t.name), TypeId(idx as u32));
    }
    for r in &roots {
        rules.by_name.entry(r.name.clone()).or_insert(r.id);
    }
    // Bare names of non-roots: first package in import-path order.
    let mut order: Vec<usize> = (0..rules.types.len()).collect();
    order.sort_by(|&a, &b| rules.types[a].package.cmp(&rules.types[b].package));
    for idx in order {
        rules
            .by_name
            .entry(rules.types[idx].name.clone())
            .or_insert(TypeId(idx as u32));
    }
    for r in &roots {
        let key = (
            r.group.clone().unwrap_or_default(),
            r.version.clone(),
            r.kind.clone(),
        );
        rules.by_kind.entry(key).or_insert(r.id);
    }
    rules.roots = roots;
}

/// The subresource paths a root accepts (§2.8).
fn subresources(decl: &TypeDecl) -> Vec<String> {
    // Kubernetes 1.33-1.35 wrote the path unquoted (`+k8s:isSubresource=/scale`), which the
    // generator of those releases read as a raw value.
    let values = |name: &str| -> Vec<String> {
        decl.detached_tags
            .named(name)
            .chain(decl.tags.named(name))
            .filter_map(|l| match &l.parsed {
                Ok(t) => t.value.as_str().map(str::to_string),
                Err(_) => Some(l.raw_value()).filter(|v| v.starts_with('/')),
            })
            .collect()
    };
    let mut out = values("k8s:supportsSubresource");
    match values("k8s:isSubresource").into_iter().next() {
        Some(s) => out.push(s),
        None => out.push("/".to_string()),
    }
    out.sort();
    out.dedup();
    out
}
