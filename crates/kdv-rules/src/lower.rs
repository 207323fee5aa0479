//! The lowering context every tag family lowers into: the per-element context handed to each
//! tag ([`Ctx`]), the result type (functions, deferred callbacks, opacity), the scope and
//! signature checks, and the [`Lowerer`] holding one compilation's shared state, including
//! the state of the stateful families (each family's `state` module).
//!
//! Architecture invariant: this module imports no tag family's lowering and not the
//! registry. The families import it; the registry, which lists the families, hands the
//! lowerer its [`TagTable`] (the dispatch) when a compilation starts.

pub(crate) mod parts;

use std::rc::Rc;

use kdv_model::{Diagnostic, Package, Severity, SourceSpan, Tags, Universe};
use kdv_tags::{Span, Tag, go_quote};

pub(crate) use self::parts::{LowerError, Site, SitedTag};
use crate::gotypes::{Graph, Member, Ty};
pub(crate) use crate::ir::SelectorTerm;
use crate::ir::{Check, Level, ShapeId, SpanId, Validation};
use crate::shapes::Shapes;
use crate::tag_doc::{Scope, TagDoc, type_check};
use crate::tags::lists::state::ListState;
use crate::tags::modes::state::ModeState;
use crate::tags::native::state::NativeState;
use crate::tags::opaque::state::OpaqueState;
use crate::tags::subfield::state::SubfieldState;
use crate::tags::unions::state::UnionState;
use crate::tags::update::state::UpdateState;

/// A tag lowering function.
pub(crate) type LowerFn =
    for<'u> fn(&mut Lowerer<'u>, &Ctx<'u>, &Tag) -> Result<Lowered<'u>, LowerError>;

/// A registered tag: its documentation and its lowering.
pub(crate) struct TagDef {
    /// Scopes, signature, stability and documentation.
    pub doc: TagDoc,
    /// Turns one use of the tag into IR.
    pub lower: LowerFn,
}

/// What the lowerer asks of the registry (`crate::registry::TABLE`), handed in rather than
/// imported so that the families, which import this module, are not imported back.
pub(crate) struct TagTable {
    /// The registered tag called `name`.
    pub find: fn(&str) -> Option<&'static TagDef>,
    /// A lowering that replaces the tag's own, and its signature check, for this use.
    pub alternate: fn(&Tag) -> Option<LowerFn>,
    /// Whether no generator or tool knows the `+k8s:` tag called `name`.
    pub is_unknown: fn(&str) -> bool,
}

impl TagTable {
    /// The documentation of the registered tag called `name`.
    pub(crate) fn doc(&self, name: &str) -> Option<&'static TagDoc> {
        (self.find)(name).map(|d| &d.doc)
    }
}

/// The element a tag is evaluated for (upstream `validators.Context`).
#[derive(Debug, Clone)]
pub(crate) struct Ctx<'u> {
    pub scope: Scope,
    /// The type of the element (for fields, the field's type as written).
    pub ty: Ty,
    /// Generator path: identifies the element for cross-tag bookkeeping.
    pub path: String,
    /// The struct member, for field scope.
    pub member: Option<Member<'u>>,
    /// The enclosing type (struct for fields, list/map for values and keys).
    pub parent_ty: Option<Ty>,
    /// Generator path of the enclosing list/map, for values and keys.
    pub parent_path: Option<String>,
    /// Selector for list values (`Some(empty)` = all items).
    pub list_selector: Option<Vec<SelectorTerm>>,
    /// Constants of the type, for type scope.
    pub constants: Vec<usize>,
    /// Stability context from an enclosing `alpha`/`beta`.
    pub level: Option<Level>,
    /// Where the tag currently being lowered is written.
    pub site: Option<Site<'u>>,
}

impl<'u> Ctx<'u> {
    /// A context for `scope` on `ty` at `path`.
    pub(crate) fn new(scope: Scope, ty: Ty, path: String) -> Ctx<'u> {
        Ctx {
            scope,
            ty,
            path,
            member: None,
            parent_ty: None,
            parent_path: None,
            list_selector: None,
            constants: Vec::new(),
            level: None,
            site: None,
        }
    }

    /// An error pointing at `span` of the current tag.
    pub(crate) fn error(&self, span: Span, message: impl Into<String>) -> LowerError {
        LowerError {
            message: message.into(),
            span: self.site.map(|s| s.span(span)),
            severity: Severity::Error,
        }
    }

    /// An error pointing at the tag's value (or its name when there is no value).
    pub(crate) fn value_error(&self, tag: &Tag, message: impl Into<String>) -> LowerError {
        self.error(tag.value_span.unwrap_or(tag.name_span), message)
    }

    /// An error pointing at the tag's name.
    pub(crate) fn tag_error(&self, tag: &Tag, message: impl Into<String>) -> LowerError {
        self.error(tag.name_span, message)
    }
}

/// Deferred results go to the element itself or to its parent (the struct of a field).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DeferScope {
    This,
    Parent,
}

/// The body of a deferred callback.
pub(crate) type DeferredFn<'u> =
    Box<dyn FnOnce(&mut Lowerer<'u>) -> Result<Lowered<'u>, LowerError> + 'u>;

/// A callback run after all tags of an element (and its siblings) are known.
pub(crate) struct Deferred<'u> {
    pub scope: DeferScope,
    pub callback: DeferredFn<'u>,
}

impl<'u> Deferred<'u> {
    /// A deferred callback for this context.
    pub(crate) fn this(
        f: impl FnOnce(&mut Lowerer<'u>) -> Result<Lowered<'u>, LowerError> + 'u,
    ) -> Deferred<'u> {
        Deferred {
            scope: DeferScope::This,
            callback: Box::new(f),
        }
    }

    /// A deferred callback whose results belong to the parent (the struct of a field).
    pub(crate) fn parent(
        f: impl FnOnce(&mut Lowerer<'u>) -> Result<Lowered<'u>, LowerError> + 'u,
    ) -> Deferred<'u> {
        Deferred {
            scope: DeferScope::Parent,
            callback: Box::new(f),
        }
    }
}

/// What lowering one or more tags produced (upstream `Validations`).
#[derive(Default)]
pub(crate) struct Lowered<'u> {
    pub functions: Vec<Validation>,
    pub deferred: Vec<Deferred<'u>>,
    /// Count of generator comments (they make an element "have validations" upstream).
    pub comments: usize,
    pub opaque_type: bool,
    pub opaque_key: bool,
    pub opaque_val: bool,
}

impl<'u> Lowered<'u> {
    /// A result with one function.
    pub(crate) fn function(v: Validation) -> Lowered<'u> {
        Lowered {
            functions: vec![v],
            ..Lowered::default()
        }
    }

    /// Appends `other`.
    pub(crate) fn add(&mut self, other: Lowered<'u>) {
        self.functions.extend(other.functions);
        self.deferred.extend(other.deferred);
        self.comments += other.comments;
        self.opaque_type |= other.opaque_type;
        self.opaque_key |= other.opaque_key;
        self.opaque_val |= other.opaque_val;
    }

    /// Upstream `HasEmitable`.
    pub(crate) fn has_emitable(&self) -> bool {
        !self.functions.is_empty() || self.comments > 0 || !self.deferred.is_empty()
    }

    /// Upstream `Empty`.
    pub(crate) fn is_empty(&self) -> bool {
        !self.has_emitable() && !self.opaque_type && !self.opaque_key && !self.opaque_val
    }
}

/// A function wrapping each produced validation (given the scope of the deferral it came
/// from).
pub(crate) type WrapFn<'u> = Rc<dyn Fn(Validation, DeferScope) -> Validation + 'u>;

/// Applies `wrap` to every function, including those deferred callbacks produce later.
pub(crate) fn wrap_functions<'u>(v: Lowered<'u>, wrap: WrapFn<'u>) -> Lowered<'u> {
    wrap_with_scope(v, wrap, DeferScope::This)
}

/// [`wrap_functions`], with the immediate functions of `v` seen as coming from a deferral of
/// `scope`.
pub(crate) fn wrap_with_scope<'u>(
    v: Lowered<'u>,
    wrap: WrapFn<'u>,
    scope: DeferScope,
) -> Lowered<'u> {
    let Lowered {
        functions,
        deferred,
        comments,
        opaque_type,
        opaque_key,
        opaque_val,
    } = v;
    let functions = functions.into_iter().map(|f| wrap(f, scope)).collect();
    let deferred = deferred
        .into_iter()
        .map(|d| {
            let wrap = wrap.clone();
            let scope = d.scope;
            let callback = d.callback;
            Deferred {
                scope,
                callback: Box::new(move |lw: &mut Lowerer<'u>| {
                    let inner = callback(lw)?;
                    Ok(wrap_with_scope(inner, wrap, scope))
                }),
            }
        })
        .collect();
    Lowered {
        functions,
        deferred,
        comments,
        opaque_type,
        opaque_key,
        opaque_val,
    }
}

/// Prepares a validation for use inside a wrapper: upstream passes argument-less functions
/// by reference, which drops their stability mark.
pub(crate) fn inner(mut v: Validation) -> Box<Validation> {
    if v.bare {
        v.level = None;
    }
    Box::new(v)
}

/// Lowers the payload of a conditional tag (`+k8s:ifEnabled(X)=<tag>`,
/// `+k8s:ifSubresource("/status")=<tag>`) and wraps each of its validations, as tag `name`,
/// in the check `condition` builds around it.
pub(crate) fn lower_conditional<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
    name: &'static str,
    condition: impl Fn(Box<Validation>) -> Check + 'u,
) -> Result<Lowered<'u>, LowerError> {
    let Some(payload) = tag.value_tag() else {
        return Err(ctx.value_error(tag, "missing validation tag"));
    };
    let v = lw.lower_tag(ctx, payload)?;
    Ok(wrap_functions(
        v,
        Rc::new(move |f: Validation, _| wrap_one(name, f, &condition)),
    ))
}

/// A wrapper validation around `f`, inheriting its flags; `make` builds the wrapper's check
/// from the prepared inner validation.
pub(crate) fn wrap_one(
    tag: &'static str,
    f: Validation,
    make: impl FnOnce(Box<Validation>) -> Check,
) -> Validation {
    let (short_circuit, non_error) = (f.short_circuit, f.non_error);
    Validation {
        short_circuit,
        non_error,
        ..Validation::new(tag, make(inner(f)))
    }
}

/// Shared state of one compilation. The state of stateful tag families is defined in each
/// family's module; the lowerer only holds it.
pub(crate) struct Lowerer<'u> {
    /// The registry's answers.
    pub tags: &'static TagTable,
    pub g: Graph<'u>,
    pub shapes: Shapes,
    /// Parsed tags of each constant of [`Graph::consts`].
    pub const_tags: Vec<Vec<Tag>>,
    /// List metadata (`listType`, `listMapKey`, `unique`, `customUnique`).
    pub lists: ListState<'u>,
    /// `+k8s:unionMember`, `unionDiscriminator`, `zeroOrOneOfMember`.
    pub unions: UnionState<'u>,
    /// `+k8s:modeDiscriminator`, `ifMode`.
    pub modes: ModeState<'u>,
    /// `+k8s:update` constraints collected per field.
    pub update: UpdateState,
    /// `+k8s:opaqueType` types and members.
    pub opaque: OpaqueState,
    /// `+k8s:declarativeValidationNative` fields and list items.
    pub native: NativeState,
    /// Subfields whose member short-circuits were already copied.
    pub subfield: SubfieldState,
    /// Source spans of lowered tags, indexed by [`SpanId`] (validations point here).
    pub spans: Vec<SourceSpan>,
    pub diagnostics: Vec<Diagnostic>,
}

impl<'u> Lowerer<'u> {
    /// A lowerer for `universe`, dispatching through `tags`.
    pub(crate) fn new(universe: &'u Universe, tags: &'static TagTable) -> Lowerer<'u> {
        Lowerer {
            tags,
            g: Graph::build(universe),
            shapes: Shapes::new(),
            const_tags: Vec::new(),
            lists: ListState::default(),
            unions: UnionState::default(),
            modes: ModeState::default(),
            update: UpdateState::default(),
            opaque: OpaqueState::default(),
            native: NativeState::default(),
            subfield: SubfieldState::default(),
            spans: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    /// Identifies the member of a field-scope context: its struct type and Go name.
    pub(crate) fn member_key(&self, ctx: &Ctx<'u>) -> Option<String> {
        let member = ctx.member.as_ref()?;
        let parent = ctx.parent_ty.as_ref()?;
        Some(format!(
            "{}#{}",
            self.g.type_string(&self.g.base(parent)),
            member.name()
        ))
    }

    /// Records a diagnostic.
    pub(crate) fn report(&mut self, e: LowerError) {
        self.diagnostics.push(e.into_diagnostic());
    }

    /// The shape of a type.
    pub(crate) fn shape(&mut self, t: &Ty) -> ShapeId {
        self.shapes.of(&self.g, t)
    }

    /// Upstream `ExtractTags`: the registered tags of a declaration, sorted by name
    /// (stable). Parse failures of registered tags are reported and skipped.
    pub(crate) fn extract_tags(&mut self, pkg: &'u Package, tags: &'u Tags) -> Vec<SitedTag<'u>> {
        let mut out = Vec::new();
        for line in &tags.lines {
            if (self.tags.find)(&line.name).is_none() {
                continue;
            }
            let site = pkg.files.get(line.loc.file as usize).map(|file| Site {
                file,
                loc: line.loc,
            });
            match &line.parsed {
                Ok(tag) => out.push(SitedTag {
                    tag: tag.clone(),
                    site,
                }),
                Err(e) => self.report(LowerError {
                    message: format!("failed to parse tags: {}", e.message),
                    span: site.map(|s| s.span(e.span)),
                    severity: Severity::Error,
                }),
            }
        }
        out.sort_by(|a, b| a.tag.name.cmp(&b.tag.name));
        out
    }

    /// Upstream `ExtractTagValidations` for top-level tags: each tag is checked and lowered
    /// in order; a failing tag is reported and contributes nothing.
    pub(crate) fn lower_tags(&mut self, ctx: &Ctx<'u>, tags: &[SitedTag<'u>]) -> Lowered<'u> {
        let mut acc = Lowered::default();
        for t in tags {
            let mut c = ctx.clone();
            c.site = t.site;
            match self.lower_tag(&c, &t.tag) {
                Ok(v) => acc.add(v),
                Err(e) => self.report(e),
            }
        }
        acc
    }

    /// Checks and lowers one tag (top-level or chained).
    pub(crate) fn lower_tag(
        &mut self,
        ctx: &Ctx<'u>,
        tag: &Tag,
    ) -> Result<Lowered<'u>, LowerError> {
        let Some(TagDef { doc, lower }) = (self.tags.find)(&tag.name) else {
            return Err(ctx.tag_error(tag, format!("unknown tag {}", go_quote(&tag.name))));
        };
        let quoted = go_quote(doc.name);
        if !doc.scopes.contains(&ctx.scope) {
            return Err(ctx.tag_error(
                tag,
                format!(
                    "tag {quoted} cannot be specified on {}",
                    ctx.scope.description()
                ),
            ));
        }
        // A limit with a `constraint` argument is kdv's cross-field form; every other use
        // keeps upstream's signature check.
        let lowered = if let Some(alternate) = (self.tags.alternate)(tag) {
            alternate(self, ctx, tag)
        } else {
            if let Err((msg, span)) = type_check(tag, doc) {
                return Err(ctx.error(span, format!("tag {quoted}: {msg}")));
            }
            lower(self, ctx, tag)
        }
        .map_err(|e| e.prefixed(&format!("tag {quoted}: ")))?;
        // Everything this tag produced, and did not take from a tag it chains, comes from it.
        let Some(span) = ctx.site.map(|s| s.span(tag.name_span)) else {
            return Ok(lowered);
        };
        let origin = SpanId(self.spans.len() as u32);
        self.spans.push(span);
        Ok(wrap_functions(
            lowered,
            Rc::new(move |mut f: Validation, _| {
                f.origin.get_or_insert(origin);
                f
            }),
        ))
    }

    /// Runs deferred callbacks until none are left (at most 10 rounds, as upstream), passing
    /// each result to `sink` with its scope.
    pub(crate) fn resolve_deferred(
        &mut self,
        deferred: Vec<Deferred<'u>>,
        what: &dyn Fn() -> String,
        sink: &mut dyn FnMut(DeferScope, Lowered<'u>),
    ) {
        let mut pending = deferred;
        let mut depth = 0;
        while !pending.is_empty() {
            depth += 1;
            if depth > 10 {
                self.report(LowerError {
                    message: format!(
                        "deferred validation recursion depth exceeded 10 for {}",
                        what()
                    ),
                    span: None,
                    severity: Severity::Error,
                });
                return;
            }
            let mut next = Vec::new();
            for d in pending {
                match (d.callback)(self) {
                    Ok(mut res) => {
                        next.append(&mut res.deferred);
                        sink(d.scope, res);
                    }
                    Err(e) => self.report(e),
                }
            }
            pending = next;
        }
    }
}
