//! The lint rules: upstream validation-gen's (`cmd/validation-gen/lint_rules.go`) and kdv's
//! own checks of tag hygiene.
//!
//! Upstream's rules run where upstream's linter runs: on the root types of every package
//! that does not carry `+k8s:validation-gen-nolint`, and on every type they reach, skipping
//! types that carry `+k8s:validation-gen-nolint`. For each type and each struct field they
//! report the first offending tag (errors, as upstream fails generation on them):
//!
//! - `+k8s:alpha`/`+k8s:beta` only as the outermost tag, and with a validation tag as payload;
//! - a tag's stability is at least its context's: Stable in packages whose version is
//!   neither alpha nor beta, else that level; `+k8s:alpha=`/`+k8s:beta=` set the context of
//!   their payload; `+k8s:ifEnabled`/`+k8s:ifDisabled` relax Stable to Beta;
//! - a field that is not a (non-pointer) struct and has validation, on itself or reached
//!   through its type, declares `+k8s:optional`, `+k8s:required` or `+k8s:forbidden`.
//!
//! kdv's own rules look at every tag line of every loaded package: an unknown `+k8s:` tag
//! (validation-gen ignores it, so it validates nothing: a warning, with the closest known
//! name), a validation-gen tag repeated verbatim on one declaration (a warning: each copy
//! runs and reports its errors again), and contradicting requiredness (`+k8s:required` with `+k8s:optional`
//! or `+k8s:forbidden`: an error; `+k8s:default` with any of them, the tri-state rule; and
//! `+k8s:default` with upstream's `+default=`).

use std::collections::{HashMap, HashSet};

use kdv_model::{
    Diagnostic, Field, Loc, Package, Severity, SourceSpan, TagLine, Tags, TypeRef, Universe,
};
use kdv_tags::{Tag, ValueType, go_quote};

use crate::discover::{Discovered as Input, Opacity, TypeNode};
use crate::gotypes::{Graph, Member, NamedIdx, NamedKind, Ty};
use crate::registry::{self, Stability};
use crate::roots;
use crate::tag_names::{self, unknown_tag};

const ALPHA: &str = "k8s:alpha";
const BETA: &str = "k8s:beta";
const REQUIREDNESS: [&str; 4] = [
    "k8s:optional",
    "k8s:required",
    "k8s:forbidden",
    crate::tags::defaults::DEFAULT.name,
];

/// Runs every rule; findings are unsorted.
pub(crate) fn run(input: &Input<'_, '_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    upstream_rules(input, &mut out);
    hygiene(input.universe, &mut out);
    crate::lint_seeds::typedef_chains(input.universe, &mut out);
    out
}

/// A tag of one declaration with the line it came from.
struct Sited<'u> {
    tag: &'u Tag,
    line: &'u TagLine,
    pkg: &'u Package,
}

impl Sited<'_> {
    /// The span of `tag` (this line's tag or one chained in it).
    fn span_of(&self, tag: &Tag) -> Option<SourceSpan> {
        tag_span(self.pkg, self.line, tag.name_span.start, tag.name_span.end)
    }
}

fn tag_span(pkg: &Package, line: &TagLine, start: usize, end: usize) -> Option<SourceSpan> {
    let file = pkg.files.get(line.loc.file as usize)?;
    let loc = Loc {
        col: line.loc.col + start as u32,
        offset: line.loc.offset + start as u32,
        ..line.loc
    };
    Some(SourceSpan::from_loc(
        file,
        loc,
        end.saturating_sub(start).max(1) as u32,
    ))
}

/// Upstream `lintComments`' tag list: every line that parses, sorted by tag name.
fn parsed_tags<'u>(pkg: &'u Package, tags: &'u Tags) -> Vec<Sited<'u>> {
    let mut out: Vec<Sited<'u>> = tags
        .lines
        .iter()
        .filter_map(|line| {
            line.parsed
                .as_ref()
                .ok()
                .map(|tag| Sited { tag, line, pkg })
        })
        .collect();
    out.sort_by(|a, b| a.tag.name.cmp(&b.tag.name));
    out
}

/// A rule's finding on one element: its message and where.
type Finding = (String, Option<SourceSpan>);

fn alpha_beta_usage(site: &Sited<'_>, tag: &Tag, is_root: bool) -> Option<Finding> {
    if tag.name == ALPHA || tag.name == BETA {
        if !is_root {
            return Some((
                format!("tag {} can't be used in between", go_quote(&tag.name)),
                site.span_of(tag),
            ));
        }
        if tag.value_tag().is_none() {
            return Some((
                format!(
                    "tag {} requires a validation tag as its value payload",
                    go_quote(&tag.name)
                ),
                site.span_of(tag),
            ));
        }
    }
    alpha_beta_usage(site, tag.value_tag()?, false)
}

/// upstream `alphaBetaPrefix`.
fn alpha_beta_prefix(tags: &[Sited<'_>]) -> Option<Finding> {
    tags.iter().find_map(|s| alpha_beta_usage(s, s.tag, true))
}

fn check_stability(site: &Sited<'_>, tag: &Tag, context: Stability) -> Option<Finding> {
    if let Some(doc) = registry::tag_doc(&tag.name)
        && doc.stability < context
    {
        return Some((
            format!(
                "tag {} with stability level {} cannot be used in {} validation",
                go_quote(&tag.name),
                go_quote(doc.stability.as_str()),
                context.as_str()
            ),
            site.span_of(tag),
        ));
    }
    check_stability(site, tag.value_tag()?, context)
}

/// upstream `validationStability`.
fn validation_stability(package: &str, tags: &[Sited<'_>]) -> Option<Finding> {
    let default = Stability::of_package(package);
    for site in tags {
        let mut context = default;
        let mut check = site.tag;
        if check.name == ALPHA || check.name == BETA {
            context = if check.name == ALPHA {
                Stability::Alpha
            } else {
                Stability::Beta
            };
            match check.value_tag() {
                Some(inner) => check = inner,
                None => continue,
            }
        }
        let name = registry::canonical_name(&check.name);
        if (name == "k8s:ifEnabled" || name == "k8s:ifDisabled") && context == Stability::Stable {
            context = Stability::Beta;
        }
        if let Some(f) = check_stability(site, check, context) {
            return Some(f);
        }
    }
    None
}

fn has_tag(tag: &Tag, names: &[&str]) -> bool {
    tag.chain().any(|t| names.contains(&t.name.as_str()))
}

/// upstream `hasNonOpaqueValidationTag`: a registered tag other than `optional` and
/// `opaqueType`; tags taking a tag as payload count by their payload.
fn has_non_opaque_validation_tag(tag: &Tag) -> bool {
    if tag.name == "k8s:optional" || tag.name == "k8s:opaqueType" {
        return false;
    }
    match registry::tag_doc(&tag.name) {
        Some(doc) if doc.payload == ValueType::Tag => {
            tag.value_tag().is_some_and(has_non_opaque_validation_tag)
        }
        Some(_) => true,
        None => false,
    }
}

const FIELD_NEEDS_REQUIREDNESS: &str =
    "field with validation must have +k8s:optional, +k8s:required or +k8s:forbidden";

/// Reachability of validation through types, for upstream's `requiredAndOptional`: a
/// state is a named type seen with the opacity of its keys and values (an opaque type has no
/// state); it has validation when its own tags emit something, a field of it carries a
/// validation tag, or a state it leads to has validation. Computed once for every state
/// reached, in time linear in the states and edges (a reverse breadth-first search).
struct Reach<'a, 'u> {
    g: &'a Graph<'u>,
    nodes: &'a [TypeNode<'u>],
    /// State → index; index 0 is the sink "has validation".
    index: HashMap<(NamedIdx, bool, bool), usize>,
    /// Reverse edges: for each state, the states leading to it.
    preds: Vec<Vec<usize>>,
    /// Whether a state (or the sink) has validation: known after [`Reach::solve`].
    has: Vec<bool>,
    todo: Vec<(usize, NamedIdx, Opacity)>,
}

const SINK: usize = 0;

impl<'a, 'u> Reach<'a, 'u> {
    fn new(g: &'a Graph<'u>, nodes: &'a [TypeNode<'u>]) -> Self {
        Reach {
            g,
            nodes,
            index: HashMap::new(),
            preds: vec![Vec::new()],
            has: Vec::new(),
            todo: Vec::new(),
        }
    }

    fn state(&mut self, idx: NamedIdx, op: Opacity) -> usize {
        let key = (idx, op.key, op.val);
        if let Some(&s) = self.index.get(&key) {
            return s;
        }
        let s = self.preds.len();
        self.preds.push(Vec::new());
        self.index.insert(key, s);
        self.todo.push((s, idx, op));
        s
    }

    /// The states a value of type `t` with opacity `op` leads to, as edges from `from`.
    fn expand(&mut self, from: usize, t: &Ty, op: Opacity) {
        if op.typ {
            return;
        }
        match t {
            Ty::Named(j) => {
                let s = self.state(*j, op);
                self.preds[s].push(from);
            }
            Ty::Pointer(e) => self.expand(from, e, op),
            Ty::Slice(e) | Ty::Array(e) => self.expand(
                from,
                e,
                Opacity {
                    typ: op.val,
                    ..Opacity::default()
                },
            ),
            Ty::Map(k, v) => {
                self.expand(
                    from,
                    k,
                    Opacity {
                        typ: op.key,
                        ..Opacity::default()
                    },
                );
                self.expand(
                    from,
                    v,
                    Opacity {
                        typ: op.val,
                        ..Opacity::default()
                    },
                );
            }
            Ty::Struct(anon) => {
                let members = &self.g.anon[*anon].members;
                self.members(from, members, op);
            }
            Ty::Builtin(_) | Ty::Foreign { .. } | Ty::Interface | Ty::Unsupported(_) => {}
        }
    }

    fn members(&mut self, from: usize, members: &[Member<'u>], op: Opacity) {
        for m in members {
            let field_op = field_opacity(&m.field.tags);
            if m.field
                .tags
                .lines
                .iter()
                .filter_map(|l| l.parsed.as_ref().ok())
                .any(has_non_opaque_validation_tag)
            {
                self.preds[SINK].push(from);
                return;
            }
            let op = Opacity {
                typ: op.typ || field_op.typ,
                key: op.key || field_op.key,
                val: op.val || field_op.val,
            };
            self.expand(from, &m.ty, op);
        }
    }

    /// Builds the edges of every state reached so far (and those they reach).
    fn explore(&mut self) {
        while let Some((s, idx, op)) = self.todo.pop() {
            let node = &self.nodes[idx];
            if node.opaque {
                continue;
            }
            let op = Opacity {
                typ: false,
                key: op.key || node.opaque_parts.key,
                val: op.val || node.opaque_parts.val,
            };
            if !node.validations.is_empty() || node.comments > 0 {
                self.preds[SINK].push(s);
                continue;
            }
            match &self.g.named[idx].kind {
                NamedKind::Alias(u) => {
                    let u = u.clone();
                    self.expand(s, &u, op);
                }
                NamedKind::Struct(members) => {
                    let members = members.clone();
                    self.members(s, &members, op);
                }
            }
        }
    }

    /// Marks every state from which the sink is reachable.
    fn solve(&mut self) {
        self.explore();
        self.has = vec![false; self.preds.len()];
        self.has[SINK] = true;
        let mut queue = vec![SINK];
        while let Some(s) = queue.pop() {
            for &p in &self.preds[s] {
                if !self.has[p] {
                    self.has[p] = true;
                    queue.push(p);
                }
            }
        }
    }
}

/// The opacity a field's own tags declare (`+k8s:opaqueType`, `eachKey`/`eachVal` of it,
/// also under a stability prefix), as upstream's extracted validations report it.
fn field_opacity(tags: &Tags) -> Opacity {
    let mut op = Opacity::default();
    for tag in tags.lines.iter().filter_map(|l| l.parsed.as_ref().ok()) {
        let mut t = tag;
        while (t.name == ALPHA || t.name == BETA)
            && let Some(inner) = t.value_tag()
        {
            t = inner;
        }
        let inner_opaque = t.value_tag().is_some_and(|v| v.name == "k8s:opaqueType");
        match t.name.as_str() {
            "k8s:opaqueType" => op.typ = true,
            "k8s:eachKey" if inner_opaque => op.key = true,
            "k8s:eachVal" if inner_opaque => op.val = true,
            _ => {}
        }
    }
    op
}

/// A struct field to check with `requiredAndOptional`: its tags, type and where it is.
struct FieldCheck<'u> {
    member: Member<'u>,
    /// The reachability query: a state, or `None` when nothing is reachable.
    query: Option<usize>,
}

fn member_span(m: &Member<'_>) -> Option<SourceSpan> {
    let file = m.pkg.files.get(m.field.loc.file as usize)?;
    Some(SourceSpan::from_loc(
        file,
        m.field.loc,
        m.field.name.len().max(1) as u32,
    ))
}

/// Whether a field of type `t` is exempt from the requiredness rule: (typedefs of) non-pointer
/// structs cannot carry requiredness tags. Types from outside the universe are exempt too
/// (their kind is unknown; the loaded well-known ones are structs).
fn is_struct_like(g: &Graph<'_>, t: &Ty) -> bool {
    match t {
        Ty::Named(i) => match &g.named[*i].kind {
            NamedKind::Struct(_) => true,
            NamedKind::Alias(u) => is_struct_like(g, u),
        },
        Ty::Struct(_) | Ty::Foreign { .. } => true,
        _ => false,
    }
}

/// Upstream's three rules, from the roots.
fn upstream_rules(input: &Input<'_, '_>, out: &mut Vec<Diagnostic>) {
    let g = input.g;
    // Roots of packages that do not opt out of linting, in order.
    let nolint: HashSet<&str> = input
        .packages
        .iter()
        .filter(|p| p.nolint)
        .map(|p| p.types_package.as_str())
        .collect();
    let mut stack: Vec<NamedIdx> = input
        .roots
        .iter()
        .filter(|r| !nolint.contains(r.package.as_str()))
        .map(|r| r.id.0 as usize)
        .rev()
        .collect();
    let mut linted = vec![false; g.named.len()];
    let mut reach = Reach::new(g, input.nodes);
    let mut checks: Vec<FieldCheck<'_>> = Vec::new();

    while let Some(idx) = stack.pop() {
        if std::mem::replace(&mut linted[idx], true) {
            continue;
        }
        let named = &g.named[idx];
        if roots::type_nolint(named.decl) {
            continue;
        }
        let pkg = named.pkg;
        let tags = parsed_tags(pkg, &named.decl.tags);
        for f in [
            alpha_beta_prefix(&tags),
            validation_stability(&pkg.path, &tags),
        ]
        .into_iter()
        .flatten()
        {
            out.push(Diagnostic {
                severity: Severity::Error,
                message: format!("type {}: {}", named.qualified(), f.0),
                span: f.1,
            });
        }
        let mut next = Vec::new();
        match &named.kind {
            NamedKind::Alias(u) => push_named(g, u, &mut next),
            NamedKind::Struct(members) => {
                for m in members {
                    let tags = parsed_tags(m.pkg, &m.field.tags);
                    for f in [
                        alpha_beta_prefix(&tags),
                        validation_stability(&pkg.path, &tags),
                    ]
                    .into_iter()
                    .flatten()
                    {
                        out.push(Diagnostic {
                            severity: Severity::Error,
                            message: format!("field {}: {}", m.name(), f.0),
                            span: f.1,
                        });
                    }
                    if !is_struct_like(g, &m.ty)
                        && !tags.iter().any(|s| has_tag(s.tag, &REQUIREDNESS))
                    {
                        if tags.iter().any(|s| has_non_opaque_validation_tag(s.tag)) {
                            checks.push(FieldCheck {
                                member: m.clone(),
                                query: Some(SINK),
                            });
                        } else {
                            // A pseudo state for the field: the edges its type leads to.
                            let s = reach.preds.len();
                            reach.preds.push(Vec::new());
                            reach.expand(s, &m.ty, field_opacity(&m.field.tags));
                            checks.push(FieldCheck {
                                member: m.clone(),
                                query: Some(s),
                            });
                        }
                    }
                    push_named(g, &m.ty, &mut next);
                }
            }
        }
        stack.extend(next.into_iter().rev());
    }

    reach.solve();
    for c in checks {
        if c.query.is_some_and(|s| reach.has[s]) {
            out.push(Diagnostic {
                severity: Severity::Error,
                message: format!("field {}: {FIELD_NEEDS_REQUIREDNESS}", c.member.name()),
                span: member_span(&c.member),
            });
        }
    }
}

/// The named types `t` leads to (the linter's recursion through pointers, lists and maps).
fn push_named(g: &Graph<'_>, t: &Ty, out: &mut Vec<NamedIdx>) {
    match t {
        Ty::Named(i) => out.push(*i),
        Ty::Pointer(e) | Ty::Slice(e) | Ty::Array(e) => push_named(g, e, out),
        Ty::Map(k, v) => {
            push_named(g, k, out);
            push_named(g, v, out);
        }
        Ty::Struct(anon) => {
            for m in &g.anon[*anon].members {
                push_named(g, &m.ty, out);
            }
        }
        Ty::Builtin(_) | Ty::Foreign { .. } | Ty::Interface | Ty::Unsupported(_) => {}
    }
}

/// kdv's hygiene rules over every tag line of every package.
fn hygiene(universe: &Universe, out: &mut Vec<Diagnostic>) {
    for_each_declaration(universe, &mut |pkg, blocks| declaration(pkg, blocks, out));
}

/// Calls `f` with the comment blocks of every declaration of every package (the package
/// clause, types, fields, constants).
fn for_each_declaration<'u>(universe: &'u Universe, f: &mut dyn FnMut(&'u Package, &[&'u Tags])) {
    for pkg in universe.packages.values() {
        f(pkg, &[&pkg.tags]);
        for decl in &pkg.types {
            f(pkg, &[&decl.detached_tags, &decl.tags]);
            if let TypeRef::Struct(st) = &decl.def {
                fields(pkg, &st.fields, f);
            }
        }
        for c in &pkg.consts {
            f(pkg, &[&c.tags]);
        }
    }
}

/// `kdv lint --upstream`: an error at every use of a kdv extension (a tag upstream
/// validation-gen lacks, chained ones included), so that no such tag reaches a Kubernetes
/// API by mistake.
pub(crate) fn extension_uses(universe: &Universe) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for_each_declaration(universe, &mut |pkg, blocks| {
        for line in blocks.iter().flat_map(|b| b.lines.iter()) {
            let Ok(tag) = &line.parsed else { continue };
            let mut cur = Some(tag);
            let mut parent = None;
            while let Some(t) = cur {
                if crate::tags::update::extension_form(parent, t) {
                    out.push(Diagnostic {
                        severity: Severity::Error,
                        message: format!(
                            "tag \"k8s:update={}\"{} is a kdv extension ({}): upstream validation-gen allows one constraint per tag, and only NoModify below +k8s:item",
                            t.value.as_str().unwrap_or(""),
                            if parent.is_some_and(|p| p.name == "k8s:item") {
                                " below +k8s:item"
                            } else {
                                ""
                            },
                            crate::tags::item_update::SEED
                        ),
                        span: tag_span(pkg, line, t.name_span.start, t.name_span.end),
                    });
                }
                if let Some(seed) = registry::tag_doc(&t.name).and_then(|d| d.extension) {
                    let instead = registry::current_name_of(&t.name)
                        .map(|n| format!("; write {} instead", go_quote(n)))
                        .unwrap_or_default();
                    out.push(Diagnostic {
                        severity: Severity::Error,
                        message: format!(
                            "tag {} is a kdv extension ({seed}): upstream validation-gen does not have it{instead}",
                            go_quote(&t.name)
                        ),
                        span: tag_span(pkg, line, t.name_span.start, t.name_span.end),
                    });
                }
                if crate::tags::crossfield::constraint_form(t).is_some()
                    && let Some(arg) = t
                        .args
                        .iter()
                        .find(|a| a.name.as_deref() == Some(crate::tags::crossfield::CONSTRAINT))
                {
                    out.push(Diagnostic {
                        severity: Severity::Error,
                        message: format!(
                            "tag {} with a constraint argument is a kdv extension ({}): upstream validation-gen does not have it",
                            go_quote(&t.name),
                            crate::tags::crossfield::SEED
                        ),
                        span: tag_span(pkg, line, arg.span.start, arg.span.end),
                    });
                }
                parent = Some(t);
                cur = t.value_tag();
            }
        }
    });
    out
}

fn fields<'u>(
    pkg: &'u Package,
    fields_of: &'u [Field],
    f: &mut dyn FnMut(&'u Package, &[&'u Tags]),
) {
    // Anonymous struct types nest; walk them without recursion.
    let mut stack: Vec<&[Field]> = vec![fields_of];
    while let Some(list) = stack.pop() {
        for fl in list {
            f(pkg, &[&fl.tags]);
            let mut t = &fl.ty;
            loop {
                match t {
                    TypeRef::Pointer(e) | TypeRef::Slice(e) => t = e,
                    TypeRef::Array { elem, .. } => t = elem,
                    TypeRef::Map { value, .. } => t = value,
                    TypeRef::Struct(st) => {
                        stack.push(&st.fields);
                        break;
                    }
                    _ => break,
                }
            }
        }
    }
}

/// Unknown tags, verbatim repeats and contradicting requiredness among one declaration's
/// tag lines (`blocks`: its comment blocks).
fn declaration(pkg: &Package, blocks: &[&Tags], out: &mut Vec<Diagnostic>) {
    let lines = blocks.iter().flat_map(|b| b.lines.iter());
    let mut seen: HashMap<&str, &TagLine> = HashMap::new();
    let mut requiredness: Option<&TagLine> = None;
    let mut defaults: Option<&TagLine> = None;
    for line in lines {
        if line.name == crate::tags::defaults::UPSTREAM_DEFAULT
            || line.name == crate::tags::defaults::DEFAULT.name
        {
            match defaults {
                Some(first) if first.name != line.name => out.push(Diagnostic {
                    severity: Severity::Error,
                    message: format!(
                        "tag {} and {} (line {}) both give the field a default: keep one",
                        go_quote(&line.name),
                        go_quote(&first.name),
                        first.loc.line
                    ),
                    span: tag_span(pkg, line, 0, line.name.len()),
                }),
                Some(_) => {}
                None => defaults = Some(line),
            }
        }
        if !line.name.starts_with("k8s:") {
            continue;
        }
        let span = || tag_span(pkg, line, 0, line.name.len());
        if let Some(message) = unknown_tag(&line.name) {
            out.push(Diagnostic {
                severity: Severity::Warning,
                message,
                span: span(),
            });
            continue;
        }
        if let Ok(tag) = &line.parsed {
            older_spellings(pkg, line, tag, out);
        }
        let text = match &line.parsed {
            Ok(tag) => line.text.get(..tag.span.end).unwrap_or(&line.text),
            Err(_) => line.text.trim_end(),
        };
        let ours = registry::is_known_tag(&line.name)
            || roots::VALIDATION_GEN_TAGS.contains(&line.name.as_str())
            || tag_names::OTHER_TOOLS_TAGS[..2].contains(&line.name.as_str());
        if !ours {
            continue;
        }
        if let Some(first) = seen.get(text) {
            let effect = if registry::is_known_tag(&line.name) {
                "each copy runs and reports its errors again"
            } else {
                "the copy changes nothing"
            };
            out.push(Diagnostic {
                severity: Severity::Warning,
                message: format!(
                    "repeated tag +{text} (first at line {}): {effect}; remove the copy",
                    first.loc.line
                ),
                span: span(),
            });
            continue;
        }
        seen.insert(text, line);
        if REQUIREDNESS.contains(&line.name.as_str()) {
            match requiredness {
                Some(first) if first.name != line.name => out.push(Diagnostic {
                    severity: Severity::Error,
                    message: format!(
                        "tag {} contradicts {} (line {}): {}",
                        go_quote(&line.name),
                        go_quote(&first.name),
                        first.loc.line,
                        if line.name == crate::tags::defaults::DEFAULT.name
                            || first.name == crate::tags::defaults::DEFAULT.name
                        {
                            "+k8s:optional, +k8s:default and +k8s:required are mutually exclusive (a defaulted field is set once defaulted), and a forbidden field has no default"
                        } else {
                            "a field is either optional, required or forbidden"
                        }
                    ),
                    span: span(),
                }),
                Some(_) => {}
                None => requiredness = Some(line),
            }
        }
    }
}

/// A warning at each older spelling in `tag`'s chain (`+k8s:ifOptionEnabled`), naming the
/// current one.
fn older_spellings(pkg: &Package, line: &TagLine, tag: &Tag, out: &mut Vec<Diagnostic>) {
    let mut cur = Some(tag);
    while let Some(t) = cur {
        if let Some(current) = registry::current_name_of(&t.name) {
            out.push(Diagnostic {
                severity: Severity::Warning,
                message: format!(
                    "tag {} is the design documents' older spelling of {}: it means the same here, but upstream validation-gen knows only {}; write +{current}",
                    go_quote(&t.name),
                    go_quote(current),
                    go_quote(current)
                ),
                span: tag_span(pkg, line, t.name_span.start, t.name_span.end),
            });
        }
        cur = t.value_tag();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stability_contexts_follow_the_package_version() {
        assert_eq!(
            Stability::of_package("k8s.io/api/apps/v1"),
            Stability::Stable
        );
        assert_eq!(
            Stability::of_package("k8s.io/api/apps/v1beta2"),
            Stability::Beta
        );
        assert_eq!(
            Stability::of_package("k8s.io/api/x/v1alpha1"),
            Stability::Alpha
        );
    }
}
