//! The type-checking walk (cel-go `checker.Check`): assigns a type to every node, resolves
//! identifiers and functions (rewriting them to their fully qualified names as cel-go does),
//! and records the overloads each call may dispatch to.

use std::sync::Arc;

use super::Reference;
use super::env::{Env, Resolution, Resolutions};
use super::unify::{
    Mapping, assignable, assignable_list, exact, format_type, has_params, is_dyn, is_dyn_or_error,
    most_general, substitute,
};
use crate::ast::{Expr, ExprId, ExprKind, Literal, Span};
use crate::library::VariableDecl;
use crate::library::standard::is_cross_type_comparison;
use crate::parser::{Issue, MAX_REPORTED};
use crate::types::{Kind, Type};

pub(crate) struct Checker<'e> {
    env: &'e Env,
    mapping: Mapping,
    pub(crate) types: Vec<Option<Type>>,
    pub(crate) refs: Vec<Option<Reference>>,
    /// Comprehension variables, innermost last, as ranges of `local_names`; `None`
    /// separates scopes.
    locals: Vec<Option<(u32, u32, Type)>>,
    /// The names of `locals`, concatenated (one buffer instead of a string per variable).
    local_names: String,
    pub(crate) issues: Vec<Issue>,
    /// Errors beyond the [`MAX_REPORTED`] kept in `issues`.
    pub(crate) truncated: usize,
    fresh: u32,
    /// Names of the type variables beyond the shared ones (see [`type_var_name`]).
    var_names: Vec<Arc<str>>,
    /// Reused buffer for dotted names.
    scratch: Vec<u8>,
}

/// A resolved identifier.
struct Resolved {
    name: String,
    ty: Type,
    value: Option<Literal>,
}

impl<'e> Checker<'e> {
    pub(crate) fn new(env: &'e Env, next_id: ExprId) -> Checker<'e> {
        Checker {
            env,
            mapping: Mapping::default(),
            types: nones(next_id as usize + 1),
            refs: nones(next_id as usize + 1),
            locals: Vec::new(),
            local_names: String::new(),
            issues: Vec::new(),
            truncated: 0,
            fresh: 0,
            var_names: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// Replaces remaining type parameters by their bindings or `dyn`.
    pub(crate) fn finish_types(&mut self) {
        let mapping = std::mem::take(&mut self.mapping);
        for t in self.types.iter_mut().flatten() {
            if has_params(t) {
                *t = substitute(&mapping, t, true);
            }
        }
    }

    // ---- bookkeeping --------------------------------------------------------------------

    /// Records an error; the message is only built for issues that will be shown (the
    /// rest are counted: broken input can cause tens of thousands).
    fn error(&mut self, id: ExprId, span: Span, message: impl FnOnce(&Self) -> String) {
        if self.issues.len() >= MAX_REPORTED {
            self.truncated += 1;
            return;
        }
        let message = message(self);
        self.issues.push(Issue {
            message,
            span: Some(span),
            expr_id: id,
        });
    }

    fn set_type(&mut self, id: ExprId, t: Type) {
        let i = id as usize;
        if i >= self.types.len() {
            self.types.resize(i + 1, None);
            self.refs.resize(i + 1, None);
        }
        self.types[i] = Some(t);
    }

    fn type_of(&self, id: ExprId) -> Type {
        self.type_ref(id).clone()
    }

    fn type_ref(&self, id: ExprId) -> &Type {
        type_at(&self.types, id)
    }

    fn set_ref(&mut self, id: ExprId, r: Reference) {
        let i = id as usize;
        if i >= self.refs.len() {
            self.types.resize(i + 1, None);
            self.refs.resize(i + 1, None);
        }
        self.refs[i] = Some(r);
    }

    fn is_assignable(&mut self, t1: &Type, t2: &Type) -> bool {
        try_assign(&mut self.mapping, t1, t2)
    }

    fn new_type_var(&mut self) -> Type {
        let t = Type::Param(type_var_name(&mut self.var_names, self.fresh));
        self.fresh += 1;
        t
    }

    fn subst(&self, t: &Type) -> Type {
        if has_params(t) {
            substitute(&self.mapping, t, false)
        } else {
            t.clone()
        }
    }

    // ---- name resolution ----------------------------------------------------------------

    fn local(&self, name: &str) -> Option<&Type> {
        let name = name.strip_prefix('.').unwrap_or(name);
        self.locals
            .iter()
            .rev()
            .flatten()
            .find(|(start, end, _)| {
                self.local_names.get(*start as usize..*end as usize) == Some(name)
            })
            .map(|(_, _, t)| t)
    }

    fn push_local(&mut self, name: &str, t: Type) {
        let start = self.local_names.len() as u32;
        self.local_names.push_str(name);
        self.locals
            .push(Some((start, self.local_names.len() as u32, t)));
    }

    /// A global identifier by its fully qualified name: declared variables and constants,
    /// type names, enum values.
    fn global(&self, name: &str) -> Option<Resolved> {
        if let Some(VariableDecl { ty, value, .. }) = self.env.find_variable(name) {
            return Some(Resolved {
                name: name.to_string(),
                ty: ty.clone(),
                value: value.clone(),
            });
        }
        let provider = self.env.provider.as_ref()?;
        if let Some(t) = provider.find_type(name) {
            return Some(Resolved {
                name: name.to_string(),
                ty: Type::Type(Box::new(t)),
                value: None,
            });
        }
        provider.enum_value(name).map(|v| Resolved {
            name: name.to_string(),
            ty: Type::Int,
            value: Some(Literal::Int(v)),
        })
    }

    /// cel-go `resolveSimpleIdent`; the bool is "a local of that name exists" (the
    /// reference then keeps a leading dot).
    fn resolve_simple(&self, name: &str) -> Option<(Resolved, bool)> {
        let local = self.local(name);
        if let Some(ty) = local
            && !name.starts_with('.')
        {
            return Some((
                Resolved {
                    name: name.to_string(),
                    ty: ty.clone(),
                    value: None,
                },
                false,
            ));
        }
        let has_local = local.is_some();
        self.env
            .find_candidate(name, |c| self.global(c))
            .map(|r| (r, has_local))
    }

    /// cel-go `resolveQualifiedIdent` for the dotted `name` whose first segment is `root`.
    fn resolve_qualified(&self, root: &str, name: &str) -> Option<(Resolved, bool)> {
        let local = self.local(root).is_some();
        if local && !root.starts_with('.') {
            return None;
        }
        self.env
            .find_candidate(name, |c| self.global(c))
            .map(|r| (r, local))
    }

    /// The type a fully qualified type name denotes: declared type identifiers (`int`,
    /// `optional_type`, library types) or the provider's types.
    fn type_named(&self, name: &str) -> Option<Type> {
        if let Some(VariableDecl {
            ty: Type::Type(t), ..
        }) = self.env.find_variable(name)
        {
            return Some(Type::clone(t));
        }
        self.env.provider.as_ref()?.find_type(name)
    }

    /// The declared function `name` resolves to in the container (cel-go
    /// `lookupFunction`): `None` when there is none, `Some(None)` when it is `name` itself.
    fn lookup_function(&self, name: &str) -> Option<Option<String>> {
        self.env.find_candidate(name, |c| {
            self.env
                .has_function(c)
                .then(|| (c != name).then(|| c.to_string()))
        })
    }

    // ---- the walk -----------------------------------------------------------------------

    pub(crate) fn check(&mut self, e: &mut Expr) {
        match &e.kind {
            ExprKind::Literal(l) => {
                let t = match l {
                    Literal::Null => Type::Null,
                    Literal::Bool(_) => Type::Bool,
                    Literal::Int(_) => Type::Int,
                    Literal::Uint(_) => Type::Uint,
                    Literal::Double(_) => Type::Double,
                    Literal::String(_) => Type::String,
                    Literal::Bytes(_) => Type::Bytes,
                };
                self.set_type(e.id, t);
            }
            ExprKind::Ident(_) => self.check_ident(e),
            ExprKind::Select { .. } => self.check_select(e),
            ExprKind::Call { .. } => self.check_call(e),
            ExprKind::List { .. } => self.check_list(e),
            ExprKind::Map { .. } => self.check_map(e),
            ExprKind::Struct { .. } => self.check_struct(e),
            ExprKind::Comprehension(_) => self.check_comprehension(e),
        }
    }

    fn check_ident(&mut self, e: &mut Expr) {
        let ExprKind::Ident(name) = &mut e.kind else {
            return;
        };
        match self.resolve_simple(name) {
            Some((r, disambiguate)) => {
                let full = if disambiguate {
                    format!(".{}", r.name)
                } else {
                    r.name
                };
                self.set_type(e.id, r.ty);
                if *name != full {
                    name.clone_from(&full);
                }
                self.set_ref(
                    e.id,
                    Reference {
                        name: Some(full),
                        overload_ids: Vec::new(),
                        value: r.value,
                    },
                );
            }
            None => {
                self.set_type(e.id, Type::Error);
                self.error(e.id, e.span, |c| {
                    format!(
                        "undeclared reference to '{}' (in container '{}')",
                        name, c.env.container
                    )
                });
            }
        }
    }

    fn check_select(&mut self, e: &mut Expr) {
        let mut buf = std::mem::take(&mut self.scratch);
        let resolved = dotted_name(e, None, &mut buf)
            .and_then(|(root_len, name)| self.resolve_qualified(&name[..root_len], name));
        self.scratch = buf;
        if let Some((r, disambiguate)) = resolved {
            let full = if disambiguate {
                format!(".{}", r.name)
            } else {
                r.name
            };
            self.set_type(e.id, r.ty);
            self.set_ref(
                e.id,
                Reference {
                    name: Some(full.clone()),
                    overload_ids: Vec::new(),
                    value: r.value,
                },
            );
            let old = std::mem::replace(&mut e.kind, ExprKind::Ident(full));
            crate::parser::drop_tree(Expr {
                id: e.id,
                kind: old,
                span: e.span,
            });
            return;
        }
        let (id, span) = (e.id, e.span);
        let ExprKind::Select {
            operand,
            field,
            test_only,
        } = &mut e.kind
        else {
            return;
        };
        let test_only = *test_only;
        let result = self.select_field(id, span, operand, field, false);
        let result = if test_only { Type::Bool } else { result };
        let t = self.subst(&result);
        self.set_type(id, t);
    }

    /// The type of `operand.field` (cel-go `checkSelectField`).
    fn select_field(
        &mut self,
        id: ExprId,
        span: Span,
        operand: &mut Expr,
        field: &str,
        optional: bool,
    ) -> Type {
        self.check(operand);
        let operand_type = self.subst(self.type_ref(operand.id));
        let (target, was_optional) = match operand_type {
            Type::Optional(inner) => (*inner, true),
            t => (t, false),
        };
        let result = match target.kind() {
            Kind::Map => match &target {
                Type::Map(_, v) => (**v).clone(),
                _ => Type::Dyn,
            },
            Kind::Struct => match &target {
                Type::Object(name) => self
                    .field_type(id, span, name, field)
                    .unwrap_or(Type::Error),
                _ => Type::Error,
            },
            Kind::Param => {
                self.is_assignable(&Type::Dyn, &target);
                Type::Dyn
            }
            _ => {
                if !is_dyn_or_error(&target) {
                    self.error(id, span, |_| {
                        format!(
                            "type '{}' does not support field selection",
                            format_type(&target)
                        )
                    });
                }
                Type::Dyn
            }
        };
        if was_optional || optional {
            Type::Optional(Box::new(result))
        } else {
            result
        }
    }

    fn field_type(&mut self, id: ExprId, span: Span, type_name: &str, field: &str) -> Option<Type> {
        let provider = self.env.provider.clone();
        let known = provider
            .as_ref()
            .is_some_and(|p| p.find_type(type_name).is_some());
        if !known {
            self.error(id, span, |_| {
                format!("unexpected failed resolution of '{type_name}'")
            });
            return None;
        }
        match provider.and_then(|p| p.field_type(type_name, field)) {
            Some(t) => Some(t),
            None => {
                self.error(id, span, |_| format!("undefined field '{field}'"));
                None
            }
        }
    }

    fn check_opt_select(&mut self, e: &mut Expr) {
        let (id, span) = (e.id, e.span);
        let ExprKind::Call { target, args, .. } = &mut e.kind else {
            return;
        };
        if args.len() != 2 || target.is_some() {
            let member = if target.is_some() {
                " member call with"
            } else {
                ""
            };
            self.error(id, span, |_| format!(
                "unsupported optional field selection: incorrect signature.{member} argument count: {}",
                args.len()
            ));
            return;
        }
        let field = match &args[1].kind {
            ExprKind::Literal(Literal::String(s)) => String::from(&**s),
            _ => {
                let (fid, fspan) = (args[1].id, args[1].span);
                self.error(fid, fspan, |_| {
                    "unsupported optional field selection: field is not a string literal"
                        .to_string()
                });
                return;
            }
        };
        let result = self.select_field(id, span, &mut args[0], &field, true);
        let t = self.subst(&result);
        self.set_type(id, t);
        self.set_ref(
            id,
            Reference {
                name: None,
                overload_ids: vec!["select_optional_field".to_string()],
                value: None,
            },
        );
    }

    fn check_call(&mut self, e: &mut Expr) {
        let is_opt_select =
            matches!(&e.kind, ExprKind::Call { function, .. } if function == "_?._");
        if is_opt_select {
            self.check_opt_select(e);
            return;
        }
        let (id, span) = (e.id, e.span);
        let ExprKind::Call {
            target,
            function,
            args,
        } = &mut e.kind
        else {
            return;
        };
        for a in args.iter_mut() {
            self.check(a);
        }
        match target {
            None => match self.lookup_function(function) {
                Some(name) => {
                    if let Some(name) = name {
                        *function = name;
                    }
                    self.resolve_or_error(id, span, function, None, args);
                }
                None => {
                    self.error(id, span, |c| {
                        format!(
                            "undeclared reference to '{}' (in container '{}')",
                            function, c.env.container
                        )
                    });
                    self.set_type(id, Type::Error);
                }
            },
            Some(t) => {
                // `a.b.f(x)`: either the namespaced function `a.b.f` or member `f` of `a.b`.
                let mut buf = std::mem::take(&mut self.scratch);
                let namespaced = dotted_name(t, Some(function), &mut buf)
                    .and_then(|(_, maybe)| Some((self.lookup_function(maybe)?, maybe)))
                    .map(|(name, maybe)| name.unwrap_or_else(|| maybe.to_string()));
                self.scratch = buf;
                if let Some(name) = namespaced {
                    if let Some(old) = target.take() {
                        crate::parser::drop_tree(*old);
                    }
                    *function = name;
                    self.resolve_or_error(id, span, function, None, args);
                    return;
                }
                self.check(t);
                let target_type = self.type_of(t.id);
                // cel-go resolves member functions through the container too, keeping the
                // call's name as written.
                if let Some(name) = self.lookup_function(function) {
                    let name = name.as_deref().unwrap_or(function);
                    self.resolve_or_error(id, span, name, Some(target_type), args);
                } else {
                    self.set_type(id, Type::Error);
                    self.error(id, span, |c| {
                        format!(
                            "undeclared reference to '{}' (in container '{}')",
                            function, c.env.container
                        )
                    });
                }
            }
        }
    }

    fn resolve_or_error(
        &mut self,
        id: ExprId,
        span: Span,
        function: &str,
        target: Option<Type>,
        args: &[Expr],
    ) {
        let member = target.is_some();
        let mut arg_types: Vec<Type> = Vec::with_capacity(args.len() + 1);
        if let Some(t) = target {
            arg_types.push(t);
        }
        arg_types.extend(args.iter().map(|a| self.type_of(a.id)));
        let env = self.env;
        let logical = function == "_&&_" || function == "_||_";
        let cross_type = env.options.cross_type_numeric_comparisons;
        // Concrete argument types resolve the same way in every check of this environment.
        let key = (!logical && !arg_types.iter().any(has_params))
            .then(|| Resolutions::key(function, member, cross_type, &arg_types));
        if let Some(key) = key
            && let Some(r) = env
                .resolutions
                .find(key, function, member, cross_type, &arg_types)
        {
            self.fresh += r.fresh_vars;
            self.resolved(
                id,
                span,
                function,
                member,
                &arg_types,
                r.result.clone(),
                r.overload_ids.clone(),
            );
            return;
        }
        let first_fresh = self.fresh;
        let mut result: Option<Type> = None;
        let mut ids: Vec<String> = Vec::new();
        let mut params: Vec<Type> = Vec::new();
        for decl in env.functions_named(function) {
            for o in &decl.overloads {
                if !cross_type && is_cross_type_comparison(&o.id) {
                    continue;
                }
                if o.member != member {
                    continue;
                }
                if logical {
                    let mut ok = true;
                    for (i, t) in arg_types.iter().enumerate() {
                        if !self.is_assignable(t, &Type::Bool) {
                            let a = &args[i];
                            self.error(a.id, a.span, |_| {
                                format!("expected type 'bool' but found '{}'", format_type(t))
                            });
                            ok = false;
                        }
                    }
                    if ok {
                        self.set_type(id, Type::Bool);
                        self.set_ref(
                            id,
                            Reference {
                                name: None,
                                overload_ids: vec![String::from(&*o.id)],
                                value: None,
                            },
                        );
                    } else {
                        self.set_type(id, Type::Error);
                    }
                    return;
                }
                // cel-go instantiates every candidate with fresh type variables before
                // matching; the numbering is kept, the instantiation only happens for
                // candidates of the right shape.
                let first_var = self.fresh;
                self.fresh += o.type_params.len() as u32;
                if o.params.len() != arg_types.len()
                    || arg_types
                        .iter()
                        .zip(&o.params)
                        .any(|(a, p)| kinds_clash(a, p))
                {
                    continue;
                }
                let cp = self.mapping.checkpoint();
                let (candidate, ret) =
                    if o.type_params.is_empty() {
                        (o.params.as_slice(), None)
                    } else {
                        params.clear();
                        params.extend(o.params.iter().map(|p| {
                            instantiate(p, &o.type_params, first_var, &mut self.var_names)
                        }));
                        (
                            params.as_slice(),
                            Some(instantiate(
                                &o.result,
                                &o.type_params,
                                first_var,
                                &mut self.var_names,
                            )),
                        )
                    };
                if !assignable_list(&mut self.mapping, &arg_types, candidate) {
                    self.mapping.rollback(cp);
                    continue;
                }
                self.mapping.commit(cp);
                if ids.is_empty() {
                    ids.reserve(decl.overloads.len());
                }
                ids.push(String::from(&*o.id));
                let r = self.subst(ret.as_ref().unwrap_or(&o.result));
                match &result {
                    None => result = Some(r),
                    Some(prev) if !is_dyn(prev) && r != *prev && !exact(&r, prev) => {
                        result = Some(Type::Dyn)
                    }
                    Some(_) => {}
                }
            }
        }
        if let Some(key) = key
            && !result.as_ref().is_some_and(has_params)
        {
            env.resolutions.insert(
                key,
                Resolution {
                    function: function.into(),
                    member,
                    cross_type,
                    args: arg_types.as_slice().into(),
                    result: result.clone(),
                    overload_ids: ids.clone(),
                    fresh_vars: self.fresh - first_fresh,
                },
            );
        }
        self.resolved(id, span, function, member, &arg_types, result, ids);
    }

    /// Records the outcome of resolving call `id`.
    #[allow(clippy::too_many_arguments)]
    fn resolved(
        &mut self,
        id: ExprId,
        span: Span,
        function: &str,
        member: bool,
        arg_types: &[Type],
        result: Option<Type>,
        ids: Vec<String>,
    ) {
        match result {
            Some(t) => {
                self.set_type(id, t);
                self.set_ref(
                    id,
                    Reference {
                        name: None,
                        overload_ids: ids,
                        value: None,
                    },
                );
            }
            None => {
                self.error(id, span, |c| {
                    let shown: Vec<String> = arg_types
                        .iter()
                        .map(|t| format_type(&substitute(&c.mapping, t, true)))
                        .collect();
                    let signature = if member {
                        format!("{}.({})", shown[0], shown[1..].join(", "))
                    } else {
                        format!("({})", shown.join(", "))
                    };
                    format!("found no matching overload for '{function}' applied to '{signature}'")
                });
                self.set_type(id, Type::Error);
            }
        }
    }

    fn check_list(&mut self, e: &mut Expr) {
        let id = e.id;
        let ExprKind::List {
            elements,
            optional_indices,
        } = &mut e.kind
        else {
            return;
        };
        let mut elem_type: Option<Type> = None;
        for (i, el) in elements.iter_mut().enumerate() {
            self.check(el);
            let mut t = self.type_of(el.id);
            if optional_indices.contains(&(i as u32)) {
                t = self.unwrap_optional_entry(el, t);
            }
            elem_type = Some(self.join_types(elem_type, t));
        }
        let elem = match elem_type {
            Some(t) => t,
            None => self.new_type_var(),
        };
        self.set_type(id, Type::List(Box::new(elem)));
    }

    /// The wrapped type of an optional element or entry value (`[?x]`, `{?k: v}`).
    fn unwrap_optional_entry(&mut self, value: &Expr, t: Type) -> Type {
        match t {
            Type::Optional(inner) => *inner,
            t => {
                if !is_dyn(&t) {
                    self.error(value.id, value.span, |_| {
                        format!(
                            "expected type '{}' but found '{}'",
                            format_type(&Type::Optional(Box::new(t.clone()))),
                            format_type(&t)
                        )
                    });
                }
                t
            }
        }
    }

    /// cel-go `joinTypes` with dynamic aggregate element types: mixed types give `dyn`.
    fn join_types(&mut self, previous: Option<Type>, current: Type) -> Type {
        match previous {
            None => current,
            Some(prev) => {
                if self.is_assignable(&prev, &current) {
                    most_general(&prev, &current).clone()
                } else {
                    Type::Dyn
                }
            }
        }
    }

    fn check_map(&mut self, e: &mut Expr) {
        let id = e.id;
        let ExprKind::Map { entries } = &mut e.kind else {
            return;
        };
        let mut key_type: Option<Type> = None;
        let mut value_type: Option<Type> = None;
        for en in entries.iter_mut() {
            self.check(&mut en.key);
            let kt = self.type_of(en.key.id);
            key_type = Some(self.join_types(key_type, kt));
            self.check(&mut en.value);
            let mut vt = self.type_of(en.value.id);
            if en.optional {
                vt = self.unwrap_optional_entry(&en.value, vt);
            }
            value_type = Some(self.join_types(value_type, vt));
        }
        let (k, v) = match (key_type, value_type) {
            (Some(k), Some(v)) => (k, v),
            _ => (self.new_type_var(), self.new_type_var()),
        };
        self.set_type(id, Type::Map(Box::new(k), Box::new(v)));
    }

    fn check_struct(&mut self, e: &mut Expr) {
        let (id, span) = (e.id, e.span);
        let ExprKind::Struct { type_name, fields } = &mut e.kind else {
            return;
        };
        let found = self.env.find_candidate(type_name, |c| {
            self.type_named(c).map(|t| (c.to_string(), t))
        });
        let Some((resolved, ty)) = found else {
            self.error(id, span, |c| {
                format!(
                    "undeclared reference to '{}' (in container '{}')",
                    type_name, c.env.container
                )
            });
            self.set_type(id, Type::Error);
            return;
        };
        *type_name = resolved.clone();
        self.set_ref(
            id,
            Reference {
                name: Some(resolved.clone()),
                overload_ids: Vec::new(),
                value: None,
            },
        );
        let message_name = resolved;
        let result = if ty.kind() == Kind::Struct || well_known_kind(&ty) {
            ty
        } else {
            self.error(id, span, |_| {
                format!("'{}' is not a message type", format_type(&ty))
            });
            Type::Error
        };
        self.set_type(id, result);
        for f in fields.iter_mut() {
            self.check(&mut f.value);
            let field_type = self
                .field_type(f.id, f.span, &message_name, &f.field)
                .unwrap_or(Type::Error);
            let mut vt = self.type_of(f.value.id);
            if f.optional {
                vt = self.unwrap_optional_entry(&f.value, vt);
            }
            if !self.is_assignable(&field_type, &vt) {
                self.error(f.id, f.span, |_| {
                    format!(
                        "expected type of field '{}' is '{}' but provided type is '{}'",
                        f.field,
                        format_type(&field_type),
                        format_type(&vt)
                    )
                });
            }
        }
    }

    fn check_comprehension(&mut self, e: &mut Expr) {
        let id = e.id;
        let ExprKind::Comprehension(c) = &mut e.kind else {
            return;
        };
        self.check(&mut c.iter_range);
        self.check(&mut c.accu_init);
        let range_type = self.subst(self.type_ref(c.iter_range.id));
        let accu_type = self.type_of(c.accu_init.id);
        self.locals.push(None);
        let accu_slot = self.locals.len();
        self.push_local(&c.accu_var, accu_type);
        let two = c.iter_var2.is_some();
        let (var, var2) = match range_type {
            Type::List(elem) => {
                if two {
                    (Type::Int, *elem)
                } else {
                    (*elem, Type::Dyn)
                }
            }
            Type::Map(k, v) => (*k, *v),
            t if matches!(t.kind(), Kind::Dyn | Kind::Any | Kind::Error | Kind::Param) => {
                self.is_assignable(&Type::Dyn, &t);
                (Type::Dyn, Type::Dyn)
            }
            t => {
                let (rid, rspan) = (c.iter_range.id, c.iter_range.span);
                self.error(rid, rspan, |_| format!(
                    "expression of type '{}' cannot be range of a comprehension (must be list, map, or dynamic)",
                    format_type(&t)
                ));
                (Type::Error, Type::Error)
            }
        };
        self.locals.push(None);
        self.push_local(&c.iter_var, var);
        if let Some(v2) = &c.iter_var2 {
            self.push_local(v2, var2);
        }
        self.check(&mut c.loop_condition);
        self.assert_type(&c.loop_condition, &Type::Bool);
        self.check(&mut c.loop_step);
        // The step must produce the accumulator's type (read in place).
        let accu_type = match &self.locals[accu_slot] {
            Some((_, _, t)) => t,
            None => &Type::Dyn,
        };
        let step_type = type_at(&self.types, c.loop_step.id);
        if !try_assign(&mut self.mapping, accu_type, step_type) {
            let message =
                (self.issues.len() < MAX_REPORTED).then(|| mismatch_message(accu_type, step_type));
            let step = &c.loop_step;
            self.error(step.id, step.span, |_| message.unwrap_or_default());
        }
        self.pop_scope();
        self.check(&mut c.result);
        self.pop_scope();
        let t = self.subst(self.type_ref(c.result.id));
        self.set_type(id, t);
    }

    fn pop_scope(&mut self) {
        while let Some(Some((start, _, _))) = self.locals.pop() {
            self.local_names.truncate(start as usize);
        }
    }

    fn assert_type(&mut self, e: &Expr, t: &Type) {
        let actual = type_at(&self.types, e.id);
        if !try_assign(&mut self.mapping, t, actual) {
            let message = (self.issues.len() < MAX_REPORTED).then(|| mismatch_message(t, actual));
            self.error(e.id, e.span, |_| message.unwrap_or_default());
        }
    }
}

/// `n` times `None` (written in place: `vec![None; n]` clones an element per slot).
fn nones<T>(n: usize) -> Vec<Option<T>> {
    let mut v = Vec::with_capacity(n);
    v.resize_with(n, || None);
    v
}

/// The type of node `id` in `types` (error when unknown).
fn type_at(types: &[Option<Type>], id: ExprId) -> &Type {
    static ERROR: Type = Type::Error;
    types
        .get(id as usize)
        .and_then(Option::as_ref)
        .unwrap_or(&ERROR)
}

/// [`assignable`]`(t1, t2)`, keeping the substitutions that requires only when it holds.
fn try_assign(mapping: &mut Mapping, t1: &Type, t2: &Type) -> bool {
    let cp = mapping.checkpoint();
    if assignable(mapping, t1, t2) {
        mapping.commit(cp);
        true
    } else {
        mapping.rollback(cp);
        false
    }
}

/// cel-go's message for a node whose type is not the expected one.
fn mismatch_message(expected: &Type, actual: &Type) -> String {
    format!(
        "expected type '{}' but found '{}'",
        format_type(expected),
        format_type(actual)
    )
}

/// An argument type that can never be assigned to a parameter type, whatever type variables
/// stand for: both are concrete (no type parameter, `dyn`, error, `any` or `null`, which
/// assign across kinds) and of different kinds. A cheap early reject before instantiating
/// and unifying.
fn kinds_clash(arg: &Type, param: &Type) -> bool {
    fn concrete(t: &Type) -> Option<Kind> {
        match t.kind() {
            Kind::Param | Kind::Dyn | Kind::Error | Kind::Any | Kind::Null => None,
            k => Some(k),
        }
    }
    matches!((concrete(arg), concrete(param)), (Some(a), Some(p)) if a != p)
}

/// Writes the dotted name of a select chain (no presence tests) ending in an identifier into
/// `buf`, followed by `.suffix` when given; returns the length of its first segment and the
/// name. Without a suffix a lone identifier is no dotted name.
fn dotted_name<'b>(
    e: &Expr,
    suffix: Option<&str>,
    buf: &'b mut Vec<u8>,
) -> Option<(usize, &'b str)> {
    if suffix.is_none() && !matches!(e.kind, ExprKind::Select { .. }) {
        return None;
    }
    let mut len = suffix.map_or(0, |s| s.len() + 1);
    let mut cur = e;
    let root = loop {
        match &cur.kind {
            ExprKind::Select {
                operand,
                field,
                test_only: false,
            } => {
                len += field.len() + 1;
                cur = operand;
            }
            ExprKind::Ident(n) => break n,
            _ => return None,
        }
    };
    len += root.len();
    buf.clear();
    buf.resize(len, b'.');
    buf[..root.len()].copy_from_slice(root.as_bytes());
    let mut end = len;
    if let Some(s) = suffix {
        buf[end - s.len()..].copy_from_slice(s.as_bytes());
        end -= s.len() + 1;
    }
    let mut cur = e;
    while let ExprKind::Select { operand, field, .. } = &cur.kind {
        buf[end - field.len()..end].copy_from_slice(field.as_bytes());
        end -= field.len() + 1;
        cur = operand;
    }
    let name = std::str::from_utf8(buf).ok()?;
    Some((root.len(), name))
}

/// Type variables shared by every check (their names are made once per process).
const SHARED_TYPE_VARS: u32 = 256;

/// The name of fresh type variable `n`: shared for the first [`SHARED_TYPE_VARS`], else made
/// once per check in `more`.
fn type_var_name(more: &mut Vec<Arc<str>>, n: u32) -> Arc<str> {
    static NAMES: std::sync::LazyLock<Vec<Arc<str>>> =
        std::sync::LazyLock::new(|| (0..SHARED_TYPE_VARS as usize).map(var_name).collect());
    if let Some(name) = NAMES.get(n as usize) {
        return Arc::clone(name);
    }
    let i = (n - SHARED_TYPE_VARS) as usize;
    while more.len() <= i {
        let next = SHARED_TYPE_VARS as usize + more.len();
        more.push(var_name(next));
    }
    Arc::clone(&more[i])
}

/// `_var<n>`, made without the formatting machinery or an intermediate string (checks of
/// broken input make many).
fn var_name(n: usize) -> Arc<str> {
    let mut text = [0u8; 24];
    text[..4].copy_from_slice(b"_var");
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let len = 4 + digits.len() - at;
    text[4..len].copy_from_slice(&digits[at..]);
    // Only ASCII was written.
    Arc::from(std::str::from_utf8(&text[..len]).unwrap_or("_var"))
}

/// `t` with the type parameters named in `names` replaced by fresh type variables numbered
/// from `first`.
fn instantiate(t: &Type, names: &[Arc<str>], first: u32, more: &mut Vec<Arc<str>>) -> Type {
    match t {
        Type::Param(n) => match names.iter().position(|x| x == n) {
            Some(i) => Type::Param(type_var_name(more, first + i as u32)),
            None => t.clone(),
        },
        Type::List(e) => Type::List(Box::new(instantiate(e, names, first, more))),
        Type::Map(k, v) => Type::Map(
            Box::new(instantiate(k, names, first, more)),
            Box::new(instantiate(v, names, first, more)),
        ),
        Type::Optional(e) => Type::Optional(Box::new(instantiate(e, names, first, more))),
        Type::Type(e) => Type::Type(Box::new(instantiate(e, names, first, more))),
        Type::Opaque(n, ps) if !ps.is_empty() => Type::Opaque(
            n.clone(),
            ps.iter()
                .map(|p| instantiate(p, names, first, more))
                .collect(),
        ),
        _ => t.clone(),
    }
}

/// Whether a type is acceptable as the result of a literal instantiating a well-known
/// protobuf type (`google.protobuf.Int64Value{value: 1}`).
pub(crate) fn well_known_kind(t: &Type) -> bool {
    match t.kind() {
        Kind::Any | Kind::Timestamp | Kind::Duration | Kind::Dyn | Kind::Null => true,
        Kind::Bool | Kind::Bytes | Kind::Double | Kind::Int | Kind::String | Kind::Uint => {
            t.as_wrapper().is_some()
        }
        Kind::List => matches!(t, Type::List(e) if matches!(**e, Type::Dyn)),
        Kind::Map => {
            matches!(t, Type::Map(k, v) if matches!(**k, Type::String) && matches!(**v, Type::Dyn))
        }
        _ => false,
    }
}
