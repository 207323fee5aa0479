//! The generated items of one type: how checks read its values (`AsView`, and `View` for a
//! struct), and its validation function (`TypeValidation`), written from its `TypeRules`.
//!
//! Conventions inside generated functions: `cx` is the call's context, `op` the operation,
//! paths are `&PathRef` variables, values are views in nilable form (`Copy`), and `out` is
//! the error sink; nested closures get fresh names.

use std::collections::HashMap;

use kdv_rules::{
    Bound, Calls, CelRule, Check, CrossFieldEach, Discriminated, FieldAccess, FieldPathRule,
    ItemCriterion, ItemMatch, Level, MemberSet, RuleSet, Shape, ShapeId, TypeId, TypeKind,
    UnionKind, Validation,
};
use kdv_runtime::view::Literal;
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use crate::rust_types::{RustField, RustKind, RustTypes};

type Out = Result<TokenStream, String>;

struct Gen<'r> {
    rules: &'r RuleSet,
    rust: &'r RustTypes,
    /// Struct shapes → the Rust type name.
    structs: HashMap<u32, &'r str>,
    n: usize,
}

fn ident(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// The items for type `id`.
pub(crate) fn type_items(rules: &RuleSet, rust: &RustTypes, id: TypeId) -> Out {
    // Struct shapes → the Rust struct holding the fields (a newtype of a struct, Go's
    // `type W Inner`, has the struct's shape and reaches its fields through `.0`; its
    // values are viewed as the struct's).
    let mut structs = HashMap::new();
    for t in &rules.types {
        if t.kind == TypeKind::Struct
            && let Some(name) = rust.struct_behind(&t.name)
        {
            structs.insert(t.shape.0, name);
        }
    }
    let mut g = Gen {
        rules,
        rust,
        structs,
        n: 0,
    };
    let t = rules.type_rules(id);
    let name = ident(&t.name);
    let kind = rust
        .kind(&t.name)
        .ok_or_else(|| format!("type {}: not found in the file", t.name))?;
    let views = g.views(&name, kind, t.kind == TypeKind::Struct)?;
    // Only a file with `+validationRule`s reads its values in place: `ToCel` needs the
    // types to be `Sync`, which nothing else asks of them.
    let cel_native = if kdv_schema::validation_rules::rules_of(rules).is_empty() {
        TokenStream::new()
    } else {
        crate::cel_native::items(&name, kind)
    };
    let defaults = crate::defaults::items(rules, id, &name, kind);
    let body = if t.has_validations {
        g.type_body(id)?
    } else {
        quote!()
    };
    let has = t.has_validations;
    let native = t.declarative_native;
    let subresources = &t.subresources;
    let prefix = if rules.shape(t.shape).is_nilable() && t.kind == TypeKind::Typedef {
        ""
    } else {
        "*"
    };
    let root_name = format!("{prefix}{}.{}", t.package_name, t.name);
    let published = kdv_schema::emit(rules, id, &kdv_schema::EmitOptions::default());
    let schema = published.schema.to_string();
    let notes: Vec<String> = published
        .notes
        .iter()
        .map(|n| {
            let at = n.path.as_str();
            let at = if at.is_empty() { "<root>" } else { at };
            format!("{at}: {}: {}", n.tag, n.reason)
        })
        .collect();
    Ok(quote! {
        #[allow(
            non_snake_case,
            unreachable_patterns,
            unused_variables,
            unused_mut,
            unused_labels,
            unreachable_code,
            clippy::all
        )]
        const _: () = {
            use ::kdv::__private as __kdv;
            use __kdv::{ErrorListExt as _, ErrorSink as _, ListView as _, MapView as _, View as _};
            use __kdv::{
                EqByIdentity as _, EqByPartialEq as _, JsonByNothing as _, JsonBySerialize as _,
                ViewByDerive as _, ViewOpaque as _,
            };
            use __kdv::{CelByJson as _, CelByView as _, CelFieldByNative as _, CelFieldByNothing as _};
            use __kdv::{
                DefaultByDeserialize as _, DefaultByNothing as _, DefaultsByDerive as _,
                DefaultsByNothing as _, NullByKind as _, NullByNothing as _,
            };
            #views
            #cel_native
            #defaults
            impl __kdv::TypeValidation for #name {
                const HAS_VALIDATIONS: bool = #has;
                const DECLARATIVE_NATIVE: bool = #native;
                const SUBRESOURCES: &'static [&'static str] = &[#(#subresources),*];
                const ROOT_NAME: &'static str = #root_name;
                const SCHEMA: &'static str = #schema;
                const SCHEMA_NOTES: &'static [&'static str] = &[#(#notes),*];
                fn validate_type<'a, S: __kdv::ErrorSink>(
                    cx: &__kdv::Cx<'_>,
                    path: &__kdv::PathRef<'_>,
                    v: <Self as __kdv::AsView>::Nilable<'a>,
                    old: <Self as __kdv::AsView>::Nilable<'a>,
                    out: &mut S,
                ) where
                    Self: 'a,
                {
                    #body
                }
            }
        };
    })
}

/// Items that let the rest of the crate compile when the type's tags have errors (so the
/// compiler reports the tags, not every use of the type): its views and a validation
/// function that reports nothing.
pub(crate) fn fallback_items(rust: &RustTypes, name: &str) -> TokenStream {
    let rules = RuleSet::default();
    let mut g = Gen {
        rules: &rules,
        rust,
        structs: HashMap::new(),
        n: 0,
    };
    let ty = ident(name);
    // Without rules, a newtype wraps a struct when the file says so.
    let is_struct = rust.struct_behind(name).is_some();
    let Some(views) = rust
        .kind(name)
        .and_then(|k| g.views(&ty, k, is_struct).ok())
    else {
        return TokenStream::new();
    };
    quote! {
        #[allow(non_snake_case, unreachable_patterns, unused_variables, clippy::all)]
        const _: () = {
            use ::kdv::__private as __kdv;
            use __kdv::{
                EqByIdentity as _, EqByPartialEq as _, JsonByNothing as _, JsonBySerialize as _,
                ViewByDerive as _, ViewOpaque as _,
            };
            #views
            impl __kdv::TypeValidation for #ty {
                const HAS_VALIDATIONS: bool = false;
                const DECLARATIVE_NATIVE: bool = false;
                const SUBRESOURCES: &'static [&'static str] = &["/"];
                const ROOT_NAME: &'static str = "";
                const SCHEMA: &'static str = "null";
                const SCHEMA_NOTES: &'static [&'static str] = &[];
                fn validate_type<'a, S: __kdv::ErrorSink>(
                    _: &__kdv::Cx<'_>,
                    _: &__kdv::PathRef<'_>,
                    _: <Self as __kdv::AsView>::Nilable<'a>,
                    _: <Self as __kdv::AsView>::Nilable<'a>,
                    _: &mut S,
                ) where
                    Self: 'a,
                {
                }
            }
        };
    }
}

impl<'r> Gen<'r> {
    fn fresh(&mut self, base: &str) -> Ident {
        self.n += 1;
        format_ident!("__{}{}", base, self.n)
    }

    /// `AsView` for the type, and `View` for a struct reference. `is_struct`: the model's
    /// type is a struct (a newtype of a struct is then viewed as the struct it wraps).
    fn views(&mut self, name: &Ident, kind: &RustKind, is_struct: bool) -> Out {
        Ok(match kind {
            RustKind::Struct(fields) => {
                let used: Vec<_> = fields.iter().filter(|f| !f.skip).collect();
                let mut zero = Vec::new();
                let mut equal = Vec::new();
                for f in &used {
                    let id = &f.ident;
                    let this = self.view_expr(&f.ty, quote!(Some(&self.#id)))?;
                    let that = self.view_expr(&f.ty, quote!(Some(&other.#id)))?;
                    zero.push(quote!(__kdv::View::is_zero(#this)));
                    equal.push(quote!(__kdv::View::equal(#this, #that)));
                }
                let mut json = Vec::new();
                for f in &used {
                    json.push({
                        let id = &f.ident;
                        let view = self.view_expr(&f.ty, quote!(Some(&self.#id)))?;
                        if f.flatten {
                            quote! {
                                if let __kdv::BadValue::Json(__kdv::serde_json::Value::Object(inner)) =
                                    __kdv::View::nilable_bad_value(#view)
                                {
                                    m.extend(inner);
                                }
                            }
                        } else if let Some(j) = &f.json {
                            let omit = f.omitempty;
                            quote! {
                                if !(#omit && __kdv::View::is_zero(#view)) {
                                    m.insert(#j.to_string(), __kdv::json_of(#view));
                                }
                            }
                        } else {
                            quote!()
                        }
                    });
                }
                by_reference(
                    name,
                    quote!(true #(&& #zero)*),
                    quote!(#(#json)*),
                    quote!(true #(&& #equal)*),
                )
            }
            RustKind::Union(members) => {
                let mut json = Vec::new();
                let mut equal = Vec::new();
                for m in members.iter().filter(|m| !m.skip) {
                    let (id, ty) = (&m.ident, &m.ty);
                    let key = m.json.clone().unwrap_or_else(|| id.to_string());
                    let this = self.view_expr(ty, quote!(Some(__a)))?;
                    let that = self.view_expr(ty, quote!(Some(__b)))?;
                    json.push(quote!(#name::#id(__a) => {
                        m.insert(#key.to_string(), __kdv::json_of(#this));
                    }));
                    equal.push(quote!((#name::#id(__a), #name::#id(__b)) => __kdv::View::equal(#this, #that)));
                }
                // A union always holds one member: never its zero value.
                by_reference(
                    name,
                    quote!(false),
                    quote!(match self {
                        #(#json)*
                        _ => {}
                    }),
                    quote!(match (self, other) {
                        #(#equal,)*
                        _ => false,
                    }),
                )
            }
            RustKind::Newtype(inner) if is_struct => quote! {
                impl __kdv::AsView for #name {
                    type View<'a> = <#inner as __kdv::AsView>::View<'a> where Self: 'a;
                    type Nilable<'a> = <#inner as __kdv::AsView>::Nilable<'a> where Self: 'a;
                    #[inline]
                    fn nilable(v: Option<&Self>) -> Self::Nilable<'_> {
                        <#inner as __kdv::AsView>::nilable(v.map(|x| &x.0))
                    }
                }
            },
            RustKind::Newtype(inner) => quote! {
                impl __kdv::AsView for #name {
                    type View<'a> = __kdv::Named<<#inner as __kdv::AsView>::Nilable<'a>> where Self: 'a;
                    type Nilable<'a> = __kdv::Named<<#inner as __kdv::AsView>::Nilable<'a>> where Self: 'a;
                    #[inline]
                    fn nilable(v: Option<&Self>) -> Self::Nilable<'_> {
                        __kdv::Named(<#inner as __kdv::AsView>::nilable(v.map(|x| &x.0)))
                    }
                }
            },
            RustKind::Enum(variants) => {
                let arms = variants.iter().map(|(v, json)| quote!(#name::#v => #json));
                quote! {
                    impl __kdv::AsView for #name {
                        type View<'a> = __kdv::Named<Option<&'a str>> where Self: 'a;
                        type Nilable<'a> = __kdv::Named<Option<&'a str>> where Self: 'a;
                        #[inline]
                        fn nilable(v: Option<&Self>) -> Self::Nilable<'_> {
                            __kdv::Named(v.map(|e| match *e { #(#arms,)* }))
                        }
                    }
                }
            }
        })
    }

    /// The body of a type's function (upstream's `Validate_T`).
    fn type_body(&mut self, id: TypeId) -> Out {
        let rules = self.rules;
        let t = rules.type_rules(id);
        let path = ident("path");
        let (v, old, out) = (ident("v"), ident("old"), ident("out"));
        let calls = self.run_calls(&t.validations, &path, t.shape, &v, &old, &out)?;
        let mut iterations = TokenStream::new();
        for it in &t.iterations {
            iterations.extend(self.call_marked(it, &path, t.shape, &v, &old, &out)?);
        }
        let mut blocks = TokenStream::new();
        if !t.opaque {
            for f in &t.fields {
                blocks.extend(self.field_block(&t.name, f)?);
            }
        }
        let is_struct = t.kind == TypeKind::Struct;
        let descend = if t.fields.is_empty() || t.opaque {
            quote!()
        } else {
            quote! {
                if !((#is_struct && __kdv::View::is_nil(v))
                    || (op.is_update() && __kdv::View::identical(v, old)))
                {
                    let correlated = !__kdv::View::is_nil(old);
                    #blocks
                }
            }
        };
        Ok(quote! {
            let op = cx.op;
            if !cx.enter(path, out) {
                return;
            }
            'body: {
                if !(#calls) {
                    break 'body;
                }
                #iterations
                #descend
            }
            cx.leave();
        })
    }

    /// One struct field's block (§4.3), inside the struct's function (`v`, `old`).
    fn field_block(&mut self, struct_name: &str, f: &kdv_rules::FieldRules) -> Out {
        let rf = self
            .rust
            .field(struct_name, &f.go_name)
            .ok_or_else(|| format!("type {struct_name}: no Rust field for {}", f.go_name))?;
        let fty = &rf.ty;
        let (nv, ov, p) = (self.fresh("nv"), self.fresh("ov"), self.fresh("p"));
        let p_owned = self.fresh("po");
        let path = match &f.path {
            FieldPathRule::Child(name) => quote! {
                let #p_owned = path.field(#name);
                let #p = &#p_owned;
            },
            FieldPathRule::Parent { root_segment } => quote! {
                let __nil = __kdv::PathRef::Nil;
                let #p_owned = if path.is_nil() { __nil.field(#root_segment) } else { *path };
                let #p = &#p_owned;
            },
        };
        let new_view = self.view_expr(fty, self.access(struct_name, rf, &quote!(v)))?;
        let old_view = self.view_expr(fty, self.access(struct_name, rf, &quote!(old)))?;
        let out = ident("out");
        let calls = self.run_calls(&f.validations, &p, f.shape, &nv, &ov, &out)?;
        let mut after = TokenStream::new();
        if f.type_call.is_none() {
            after.extend(self.external_call(fty, &p, &nv, &ov)?);
        }
        if let Some(tid) = f.type_call {
            let u = ident(&self.rules.type_rules(tid).name);
            after.extend(quote! {
                <#u as __kdv::TypeValidation>::validate_type(cx, #p, #nv, #ov, out);
            });
        }
        for it in &f.iterations {
            after.extend(self.call_marked(it, &p, f.shape, &nv, &ov, &out)?);
        }
        let block = quote! {
            if !(correlated && op.is_update() && __kdv::View::equal(#nv, #ov)) {
                #path
                if #calls {
                    #after
                }
            }
        };
        // `+k8s:declarativeValidationNative`: everything the block reported is marked.
        let block = if f.declarative_native {
            let start = self.fresh("start");
            quote! {
                let #start = out.count();
                #block
                out.since(#start).mark_declarative_native();
            }
        } else {
            block
        };
        Ok(quote! {
            {
                let #nv = #new_view;
                let #ov = #old_view;
                #block
            }
        })
    }

    /// `run_calls` as an expression: false when a default-cohort short-circuit failed.
    fn run_calls(
        &mut self,
        calls: &Calls,
        path: &Ident,
        shape: ShapeId,
        v: &Ident,
        old: &Ident,
        out: &Ident,
    ) -> Out {
        if calls.cohorts.is_empty() {
            return Ok(quote!(true));
        }
        let label = syn::Lifetime::new(&format!("'calls{}", self.n + 1), Span::call_site());
        self.n += 1;
        let mut cohorts = TokenStream::new();
        for cohort in &calls.cohorts {
            let early = self.fresh("early");
            let mut sc = TokenStream::new();
            for val in &cohort.short_circuit {
                if val.non_error {
                    let fails = self.fails(val, path, shape, v, old)?;
                    sc.extend(quote!(#early |= #fails;));
                } else {
                    let start = self.fresh("start");
                    let call = self.call_marked(val, path, shape, v, old, out)?;
                    sc.extend(quote! {
                        let #start = #out.count();
                        #call
                        if #out.count() > #start {
                            #early = true;
                            #out.since(#start).mark_short_circuit();
                        }
                    });
                }
            }
            let mut regular = TokenStream::new();
            let vals: Vec<&Validation> = cohort.regular.iter().filter(|x| !x.non_error).collect();
            let mut k = 0;
            while k < vals.len() {
                // Consecutive rules of one node run as one program: one reading of the
                // value, as the API server runs a schema node's rules.
                let group = cel_group(&vals[k..]);
                if group.len() > 1 {
                    regular.extend(self.cel_rules(&group, path, v, old, out)?);
                    k += group.len();
                } else {
                    regular.extend(self.call_marked(vals[k], path, shape, v, old, out)?);
                    k += 1;
                }
            }
            let on_early = if cohort.name.is_none() {
                quote!(break #label false;)
            } else {
                quote!()
            };
            cohorts.extend(quote! {
                {
                    let mut #early = false;
                    #sc
                    if #early {
                        #on_early
                    } else {
                        #regular
                    }
                }
            });
        }
        Ok(quote!(#label: {
            #cohorts
            true
        }))
    }

    /// Whether `val` reports anything (its `Verdict` form).
    fn fails(
        &mut self,
        val: &Validation,
        path: &Ident,
        shape: ShapeId,
        v: &Ident,
        old: &Ident,
    ) -> Out {
        let verdict = self.fresh("verdict");
        let call = self.call(val, path, shape, v, old, &verdict)?;
        Ok(quote!({
            let mut #verdict = __kdv::Verdict::default();
            {
                let #verdict = &mut #verdict;
                #call
            }
            #verdict.failed()
        }))
    }

    fn call_marked(
        &mut self,
        val: &Validation,
        path: &Ident,
        shape: ShapeId,
        v: &Ident,
        old: &Ident,
        out: &Ident,
    ) -> Out {
        let call = self.call(val, path, shape, v, old, out)?;
        let level: u8 = match val.level {
            None if !val.declarative_native => return Ok(call),
            None => 0,
            Some(Level::Alpha) => 1,
            Some(Level::Beta) => 2,
        };
        let start = self.fresh("start");
        let mark = if level == 0 {
            quote!()
        } else {
            quote!(__kdv::mark(#out, #start, #level);)
        };
        let native = if val.declarative_native {
            quote!(#out.since(#start).mark_declarative_native();)
        } else {
            quote!()
        };
        Ok(quote!({
            let #start = #out.count();
            #call
            #mark
            #native
        }))
    }

    /// The `+validationRule`s `group` of one node, as one program.
    fn cel_rules(
        &mut self,
        group: &[&CelRule],
        path: &Ident,
        v: &Ident,
        old: &Ident,
        out: &Ident,
    ) -> Out {
        // The node's schema is built now, the program on first use (once per process), as
        // the interpreter builds both.
        let Some(schema) = kdv_schema::validation_rules::rules_schema(self.rules, group) else {
            return Err("internal: the +validationRule's schema node was not found".into());
        };
        let schema = schema.to_string();
        Ok(quote! {{
            static PROGRAM: __kdv::CelProgram = __kdv::CelProgram::new(#schema);
            let native = (&&__kdv::CelProbe(#v)).cel_input();
            __kdv::cel_rule(cx, &PROGRAM, #path, #v, #old, native, #out);
        }})
    }

    /// The Rust struct whose values have shape `shape` (under pointers).
    fn struct_of(&self, shape: ShapeId) -> Result<&'r str, String> {
        let mut s = shape;
        while let Shape::Pointer(inner) = self.rules.shape(s) {
            s = *inner;
        }
        self.structs
            .get(&s.0)
            .copied()
            .ok_or_else(|| "internal: a member access on a value that is not a struct".into())
    }

    /// The nilable view of the member at `access` of the struct value `s` (shape `shape`).
    fn member(&self, s: &TokenStream, shape: ShapeId, access: &FieldAccess) -> Out {
        let mut expr = s.clone();
        let mut cur = self.struct_of(shape)?;
        let mut st_shape = shape;
        loop {
            let mut sid = st_shape;
            while let Shape::Pointer(inner) = self.rules.shape(sid) {
                sid = *inner;
            }
            let Shape::Struct(st) = self.rules.shape(sid) else {
                return Err(format!("internal: {cur} is not a struct shape"));
            };
            if let Some(f) = st.fields.iter().find(|f| &f.access == access) {
                let rf = self
                    .rust
                    .field(cur, &f.go_name)
                    .ok_or_else(|| format!("type {cur}: no Rust field for {}", f.go_name))?;
                let reached = self.access(cur, rf, &expr);
                return self.view_expr(&rf.ty, reached);
            }
            let FieldAccess::Key(k) = access else {
                return Err(format!("internal: no member {access:?} in {cur}"));
            };
            let Some(inline) = st
                .fields
                .iter()
                .find(|f| matches!(&f.access, FieldAccess::Inline { keys } if keys.contains(k)))
            else {
                return Err(format!("internal: no member {k} in {cur}"));
            };
            let rf = self
                .rust
                .field(cur, &inline.go_name)
                .ok_or_else(|| format!("type {cur}: no Rust field for {}", inline.go_name))?;
            expr = self.access(cur, rf, &expr);
            cur = self.struct_of(inline.shape)?;
            st_shape = inline.shape;
        }
    }

    /// `Option<&F>` of member `rf` (of type `F`) of the value `s: Option<&Container>`: a
    /// struct's field, or a union enum's variant value (none when another variant is set).
    fn access(&self, container: &str, rf: &RustField, s: &TokenStream) -> TokenStream {
        let id = &rf.ident;
        if matches!(self.rust.kind(container), Some(RustKind::Union(_))) {
            let c = ident(container);
            quote!(#s.and_then(|__m| match __m { #c::#id(__x) => Some(__x), _ => None }))
        } else {
            quote!(#s.map(|__m| &__m.#id))
        }
    }

    /// The nilable view of a value of Rust type `ty` given as `expr: Option<&ty>`: its
    /// `AsView` view, or, for a type declared outside the file (and `Option`, `Box` and
    /// `Vec` of one), the view the probes pick (the type's own when it derives `Validate`,
    /// else an opaque one).
    fn view_expr(&self, ty: &syn::Type, expr: TokenStream) -> Out {
        if !self.contains_external(ty) {
            return Ok(quote!(<#ty as __kdv::AsView>::nilable(#expr)));
        }
        if let Some(inner) = wrapped(ty, "Option") {
            return self.view_expr(
                inner,
                quote!(#expr.and_then(::core::option::Option::as_ref)),
            );
        }
        if let Some(inner) = wrapped(ty, "Box") {
            return self.view_expr(inner, quote!(#expr.map(|__b| &**__b)));
        }
        if let Some(elem) = wrapped(ty, "Vec")
            && self.is_external(elem)
        {
            let ops = ops(elem);
            return Ok(quote!((&&__kdv::Probe::<#elem>::new()).list_view(#expr, #ops)));
        }
        if self.is_external(ty) {
            let ops = ops(ty);
            return Ok(quote!((&&__kdv::Probe::<#ty>::new()).nilable_view(#expr, #ops)));
        }
        Err(format!(
            "type `{}`: only a type declared elsewhere, or an Option, Box or Vec of one, can be a field type here",
            quote!(#ty)
        ))
    }

    /// The validation of a field whose type is declared outside the file (`T`, `Option<T>`,
    /// `Box<T>`, `Vec<T>`): the type's own function when it derives `Validate`.
    fn external_call(&mut self, ty: &syn::Type, p: &Ident, nv: &Ident, ov: &Ident) -> Out {
        let mut base = ty;
        while let Some(inner) = wrapped(base, "Option").or_else(|| wrapped(base, "Box")) {
            base = inner;
        }
        if self.is_external(base) {
            return Ok(
                quote!((&&__kdv::Probe::<#base>::new()).validate_ext(cx, #p, #nv, #ov, out);),
            );
        }
        if let Some(elem) = wrapped(base, "Vec")
            && self.is_external(elem)
        {
            let (o, ip, x, ox) = (
                self.fresh("out"),
                self.fresh("p"),
                self.fresh("x"),
                self.fresh("ox"),
            );
            return Ok(quote! {
                __kdv::each::each_list_val(op, #p, #nv, #ov, None::<&__kdv::WholeItem>, false, out, |#o, #ip, #x, #ox| {
                    let #ox = #ox.unwrap_or_else(|| __kdv::nil_of(#x));
                    (&&__kdv::Probe::<#elem>::new()).validate_ext(cx, #ip, #x, #ox, #o);
                });
            });
        }
        Ok(quote!())
    }

    /// Whether `ty` mentions a type declared outside the file.
    fn contains_external(&self, ty: &syn::Type) -> bool {
        if self.is_external(ty) {
            return true;
        }
        let syn::Type::Path(p) = ty else {
            return false;
        };
        p.path.segments.iter().any(|s| match &s.arguments {
            syn::PathArguments::AngleBracketed(a) => a
                .args
                .iter()
                .any(|g| matches!(g, syn::GenericArgument::Type(t) if self.contains_external(t))),
            _ => false,
        })
    }

    /// Whether `ty` is a named type declared outside the file (as `kdv-rust-model` reads
    /// it with external types on).
    fn is_external(&self, ty: &syn::Type) -> bool {
        let syn::Type::Path(p) = ty else {
            return false;
        };
        if p.qself.is_some() {
            return false;
        }
        let segs: Vec<String> = p
            .path
            .segments
            .iter()
            .map(|s| syn::ext::IdentExt::unraw(&s.ident).to_string())
            .collect();
        let Some((name, prefix)) = segs.split_last() else {
            return false;
        };
        let bare = prefix.is_empty() && p.path.leading_colon.is_none();
        if bare && self.rust.kind(name).is_some() {
            return false;
        }
        if (prefix.is_empty() || prefix == ["serde_json"]) && name == "Value" {
            return false;
        }
        let std_prefix = bare
            || matches!(
                prefix.first().map(String::as_str),
                Some("std" | "alloc" | "core")
            );
        if !std_prefix {
            return true;
        }
        !matches!(
            name.as_str(),
            "String"
                | "bool"
                | "i8"
                | "i16"
                | "i32"
                | "i64"
                | "isize"
                | "u8"
                | "u16"
                | "u32"
                | "u64"
                | "usize"
                | "f32"
                | "f64"
                | "Option"
                | "Box"
                | "Vec"
                | "BTreeMap"
                | "HashMap"
                | "i128"
                | "u128"
                | "char"
        )
    }

    fn literal(lit: &Literal) -> TokenStream {
        match lit {
            Literal::String(s) => quote!(__kdv::Literal::String(::std::string::String::from(#s))),
            Literal::Int(i) => quote!(__kdv::Literal::Int(#i)),
            Literal::Bool(b) => quote!(__kdv::Literal::Bool(#b)),
        }
    }

    /// A `static` holding a literal, and its name.
    fn literal_static(&mut self, lit: &Literal) -> (Ident, TokenStream) {
        let name = self.fresh("LIT");
        let value = Self::literal(lit);
        (
            name.clone(),
            quote!(static #name: ::std::sync::LazyLock<__kdv::Literal> = ::std::sync::LazyLock::new(|| #value);),
        )
    }

    /// Whether item `x` (a struct view of shape `elem`) matches every criterion.
    fn criteria(&mut self, criteria: &[ItemCriterion], x: &Ident, elem: ShapeId) -> Out {
        let mut statics = TokenStream::new();
        let mut tests = Vec::new();
        for c in criteria {
            let (name, st) = self.literal_static(&c.value);
            statics.extend(st);
            let m = self.member(&quote!(#x), elem, &c.field.access)?;
            tests.push(quote!(__kdv::item::selects(#m, &#name)));
        }
        Ok(quote!({ #statics true #(&& #tests)* }))
    }

    /// An item identity (`&impl Identity`) for a list value `list` of shape `shape`.
    fn identity(&mut self, matching: &ItemMatch, list: &Ident, shape: ShapeId) -> Out {
        let Shape::Slice(elem) = self.rules.shape(shape) else {
            return Err("internal: an item identity on a value that is not a list".into());
        };
        Ok(match matching {
            ItemMatch::Direct | ItemMatch::Semantic => quote!(&__kdv::WholeItem),
            ItemMatch::Keys(keys) => {
                let it = self.fresh("it");
                let mut views = Vec::new();
                for k in keys {
                    views.push(self.member(&quote!(#it), *elem, &k.access)?);
                }
                quote!(&__kdv::keys_for(#list, |#it| (#(#views,)*)))
            }
        })
    }

    fn elem_of(&self, shape: ShapeId) -> Option<ShapeId> {
        match self.rules.shape(shape) {
            Shape::Slice(e) => Some(*e),
            _ => None,
        }
    }

    /// One check on `v` (of type `shape`), with `old`.
    #[allow(clippy::too_many_arguments)]
    fn call(
        &mut self,
        val: &Validation,
        path: &Ident,
        shape: ShapeId,
        v: &Ident,
        old: &Ident,
        out: &Ident,
    ) -> Out {
        let rt = quote!(__kdv);
        Ok(match &val.check {
            Check::Required(p) => {
                let p = presence(*p);
                quote!(#rt::required::required(#path, #p, #v, #out);)
            }
            Check::Optional(p) => {
                let p = presence(*p);
                quote!(#rt::required::optional(#path, #p, #v, #out);)
            }
            Check::Forbidden(p) => {
                let p = presence(*p);
                quote!(#rt::required::forbidden(#path, #p, #v, #out);)
            }
            Check::Minimum(b) => quote!(#rt::limits::minimum(#path, #v, #b, #out);),
            Check::Maximum(b) => quote!(#rt::limits::maximum(#path, #v, #b, #out);),
            Check::MinLength(n) => quote!(#rt::limits::min_length(#path, #v, #n, #out);),
            Check::MaxLength(n) => quote!(#rt::limits::max_length(#path, #v, #n, #out);),
            Check::MaxBytes(n) => quote!(#rt::limits::max_bytes(#path, #v, #n, #out);),
            Check::MinItems(n) => quote!(#rt::limits::min_items(#path, #v, #n, #out);),
            Check::MaxItems(n) => quote!(#rt::limits::max_items(#path, #v, #n, #out);),
            Check::MinProperties(n) => quote!(#rt::limits::min_properties(#path, #v, #n, #out);),
            Check::MaxProperties(n) => quote!(#rt::limits::max_properties(#path, #v, #n, #out);),
            Check::ExclusiveMinimum(b) => {
                quote!(#rt::limits::exclusive_minimum(#path, #v, #b, #out);)
            }
            Check::ExclusiveMaximum(b) => {
                quote!(#rt::limits::exclusive_maximum(#path, #v, #b, #out);)
            }
            Check::Pattern(spec) => {
                // Compiled once per use site, on first use.
                let name = self.fresh("PATTERN");
                let source = spec.pattern.source();
                let build = match spec.pattern.as_literal() {
                    Some(lit) => {
                        let (start, text, end) = (lit.start, &lit.text, lit.end);
                        quote!(#rt::pattern::Pattern::literal(#source, #rt::pattern::LiteralPattern {
                            start: #start,
                            text: ::std::string::String::from(#text),
                            end: #end,
                        }))
                    }
                    None => {
                        let translated = &spec.translated;
                        quote!(#rt::pattern::Pattern::compile(#source, #translated))
                    }
                };
                quote! {{
                    static #name: ::std::sync::LazyLock<#rt::pattern::Pattern> =
                        ::std::sync::LazyLock::new(|| #build);
                    #rt::pattern::pattern(#path, #v, &#name, #out);
                }}
            }
            Check::Format(f) => {
                let f = ident(&format!("{f:?}"));
                quote!(#rt::format::format(#path, #v, #rt::Format::#f, #out);)
            }
            Check::Enum(spec) => {
                let members = &spec.members;
                let excl = spec.exclusions.iter().map(|x| {
                    let (value, option, when) = (&x.value, &x.option, x.exclude_when);
                    quote!(#rt::enums::EnumExclusion { value: #value, option: #option, exclude_when: #when })
                });
                quote! {{
                    const MEMBERS: &[&str] = &[#(#members),*];
                    const EXCLUSIONS: &[#rt::enums::EnumExclusion<&str>] = &[#(#excl),*];
                    #rt::enums::enum_value(#path, #v, MEMBERS, EXCLUSIONS, op, #out);
                }}
            }
            Check::Neq(lit) => {
                let (name, st) = self.literal_static(lit);
                quote!({ #st #rt::equality::neq(#path, #v, &#name, #out); })
            }
            Check::Immutable => quote!(#rt::immutable::immutable(#path, op, #out);),
            Check::Fixed { pass, message } => {
                quote!(#rt::testing::fixed_result(#path, #v, #pass, #message, #out);)
            }
            Check::Unique(matching) => {
                if self.elem_of(shape).is_none() {
                    return Ok(quote!());
                }
                let id = self.identity(matching, v, shape)?;
                quote!(#rt::lists::unique(#path, #v, #id, #out);)
            }
            Check::NoNilElements => {
                if self.elem_of(shape).is_none() {
                    return Ok(quote!());
                }
                quote!(#rt::lists::no_nil_items(#path, #v, #out);)
            }
            Check::EachListVal {
                matching,
                equiv,
                inner,
            } => {
                let Some(elem) = self.elem_of(shape) else {
                    return Ok(quote!());
                };
                let id = match matching {
                    Some(m) => {
                        let id = self.identity(m, v, shape)?;
                        quote!(Some(#id))
                    }
                    None => quote!(None::<&__kdv::WholeItem>),
                };
                let equiv = equiv.is_some();
                let (o, p, nv, ov) = (
                    self.fresh("out"),
                    self.fresh("p"),
                    self.fresh("nv"),
                    self.fresh("ov"),
                );
                let body = self.call_marked(inner, &p, elem, &nv, &ov, &o)?;
                let call = quote! {
                    #rt::each::each_list_val(op, #path, #v, #old, #id, #equiv, #out, |#o, #p, #nv, #ov| {
                        let #ov = #ov.unwrap_or_else(|| #rt::nil_of(#nv));
                        #body
                    });
                };
                if matches!(inner.check, Check::Immutable) {
                    quote!(if op.is_update() { #call })
                } else {
                    call
                }
            }
            Check::EachMapVal { inner, .. } => {
                let Shape::Map { value, .. } = self.rules.shape(shape) else {
                    return Ok(quote!());
                };
                let value = *value;
                let (o, p, nv, ov) = (
                    self.fresh("out"),
                    self.fresh("p"),
                    self.fresh("nv"),
                    self.fresh("ov"),
                );
                let body = self.call_marked(inner, &p, value, &nv, &ov, &o)?;
                quote! {
                    #rt::each::each_map_val(op, #path, #v, #old, #out, |#o, #p, #nv, #ov| {
                        let #ov = #ov.unwrap_or_else(|| #rt::nil_of(#nv));
                        #body
                    });
                }
            }
            Check::EachMapKey { inner } => {
                let Shape::Map { key, .. } = self.rules.shape(shape) else {
                    return Ok(quote!());
                };
                let key = *key;
                let (o, p, k, nv, ov) = (
                    self.fresh("out"),
                    self.fresh("p"),
                    self.fresh("k"),
                    self.fresh("nv"),
                    self.fresh("ov"),
                );
                let body = self.call_marked(inner, &p, key, &nv, &ov, &o)?;
                quote! {
                    #rt::each::each_map_key(op, #path, #v, #old, #out, |#o, #p, #k| {
                        let #nv: Option<&str> = Some(#k);
                        let #ov: Option<&str> = None;
                        #body
                    });
                }
            }
            Check::Subfield {
                name,
                access,
                shape: sub,
                inner,
                ..
            } => {
                let s = self.fresh("s");
                let get = self.member(&quote!(#s), shape, access)?;
                let (o, p, nv, ov) = (
                    self.fresh("out"),
                    self.fresh("p"),
                    self.fresh("nv"),
                    self.fresh("ov"),
                );
                let body = self.call_marked(inner, &p, *sub, &nv, &ov, &o)?;
                quote! {
                    #rt::subfield::subfield(op, #path, #name, #v, #old, |#s| #get, #out, |#o, #p, #nv, #ov| {
                        let #ov = #ov.unwrap_or_else(|| #rt::nil_of(#nv));
                        #body
                    });
                }
            }
            Check::IfOption {
                option,
                enabled,
                inner,
            } => {
                let body = self.call_marked(inner, path, shape, v, old, out)?;
                quote! {
                    if #rt::options::if_option(#path, op, #option, #enabled, #out) {
                        #body
                    }
                }
            }
            Check::IfSubresource {
                subresource,
                addressed,
                inner,
            } => {
                let body = self.call_marked(inner, path, shape, v, old, out)?;
                quote! {
                    if #rt::subresources::if_subresource(op, #subresource, #addressed) {
                        #body
                    }
                }
            }
            Check::CallType(id) => {
                let u = ident(&self.rules.type_rules(*id).name);
                quote!(<#u as #rt::TypeValidation>::validate_type(cx, #path, #v, #old, #out);)
            }
            Check::Monotonic => quote!(#rt::immutable::monotonic(#path, op, #v, #old, #out);),
            Check::Update {
                kind,
                constraints,
                matching,
            } => {
                let cs = constraints.iter().map(|c| {
                    let c = ident(&format!("{c:?}"));
                    quote!(#rt::update::UpdateConstraint::#c)
                });
                let cs = quote!(&[#(#cs),*]);
                let shape_kind = self.rules.shape(shape);
                match (kind, shape_kind) {
                    (kdv_rules::UpdateKind::Slice, Shape::Slice(_)) => {
                        let id = match matching {
                            Some(m) => {
                                let id = self.identity(m, v, shape)?;
                                quote!(Some(#id))
                            }
                            None => quote!(None::<&__kdv::WholeItem>),
                        };
                        quote!(#rt::update::update_list(op, #path, #cs, #v, #old, #id, #out);)
                    }
                    (kdv_rules::UpdateKind::Map, Shape::Map { .. }) => {
                        quote!(#rt::update::update_map(op, #path, #cs, #v, #old, #out);)
                    }
                    _ => {
                        let k = ident(&format!("{kind:?}"));
                        quote!(#rt::update::update(op, #path, #rt::update::UpdateKind::#k, #cs, #v, #old, #out);)
                    }
                }
            }
            Check::Item {
                criteria, inner, ..
            } => {
                let Some(elem) = self.elem_of(shape) else {
                    return Ok(quote!());
                };
                let x = self.fresh("x");
                let selects = self.criteria(criteria, &x, elem)?;
                let (o, p, nv, ov) = (
                    self.fresh("out"),
                    self.fresh("p"),
                    self.fresh("nv"),
                    self.fresh("ov"),
                );
                let body = self.call_marked(inner, &p, elem, &nv, &ov, &o)?;
                quote! {
                    #rt::item::item(op, #path, #v, #old, |#x| #selects, #out, |#o, #p, #nv, #ov| {
                        let #ov = #ov.unwrap_or_else(|| #rt::nil_of(#nv));
                        #body
                    });
                }
            }
            Check::Union(u) => {
                let members = u.members.iter().map(|m| {
                    let (n, d) = (&m.name, &m.discriminator_value);
                    quote!(#rt::unions::UnionMember {
                        name: ::std::string::String::from(#n),
                        discriminator_value: ::std::string::String::from(#d),
                    })
                });
                let (i, s) = (self.fresh("i"), self.fresh("s"));
                let mut arms = Vec::new();
                for (k, ex) in u.extractors.iter().enumerate() {
                    let test = match ex {
                        MemberSet::Field(fp) => {
                            let m = self.member(&quote!(#s), shape, &fp.access)?;
                            let p = presence(fp.presence);
                            quote!(#rt::required::is_set(#p, #m))
                        }
                        MemberSet::Item(criteria) => {
                            let elem = self.elem_of(shape).ok_or(
                                "internal: an item union member on a value that is not a list",
                            )?;
                            let (j, e) = (self.fresh("j"), self.fresh("e"));
                            let sel = self.criteria(criteria, &e, elem)?;
                            quote! {
                                (0..#rt::View::len(#s)).any(|#j| {
                                    #rt::ListView::item(#s, #j).is_some_and(|#e| #sel)
                                })
                            }
                        }
                    };
                    arms.push(quote!(#k => #test));
                }
                let n = u.extractors.len();
                let ext = quote!(#rt::extractors_for(#v, #n, |#i: usize, #s| match #i { #(#arms,)* _ => false }));
                let call = match &u.kind {
                    UnionKind::ExactlyOne => {
                        quote!(#rt::unions::union(op, #path, #v, #old, &MEMBERS, &ext, #out);)
                    }
                    UnionKind::ZeroOrOne => {
                        quote!(#rt::unions::zero_or_one_of(op, #path, #v, #old, &MEMBERS, &ext, #out);)
                    }
                    UnionKind::Discriminated {
                        name,
                        access,
                        shape: _,
                    } => {
                        let d = self.fresh("d");
                        let get = self.member(&quote!(#d), shape, access)?;
                        quote! {
                            #rt::unions::discriminated_union(
                                op, #path, #v, #old, #name,
                                |#d| #rt::View::as_str(#get).unwrap_or(""),
                                &MEMBERS, &ext, #out,
                            );
                        }
                    }
                };
                quote! {{
                    static MEMBERS: ::std::sync::LazyLock<::std::vec::Vec<#rt::unions::UnionMember>> =
                        ::std::sync::LazyLock::new(|| ::std::vec![#(#members),*]);
                    let ext = #ext;
                    #call
                }}
            }
            Check::Discriminated(d) => self.discriminated(d, path, shape, v, old, out)?,
            Check::Dependency(d) => {
                let s = self.fresh("s");
                let trig = self.member(&quote!(#s), shape, &d.trigger_set.access)?;
                let dep = self.member(&quote!(#s), shape, &d.dependent_set.access)?;
                let (tp, dp) = (
                    presence(d.trigger_set.presence),
                    presence(d.dependent_set.presence),
                );
                let (forbidden, trigger, dependent) = (d.forbidden, &d.trigger, &d.dependent);
                quote! {
                    #rt::dependencies::dependency(
                        op, #path, #v, #old,
                        #rt::dependencies::Dependency { forbidden: #forbidden, trigger: #trigger, dependent: #dependent },
                        |#s| #rt::required::is_set(#tp, #trig),
                        |#s| #rt::required::is_set(#dp, #dep),
                        #out,
                    );
                }
            }
            Check::CustomValidation { function_name, .. } => {
                let f = ident(function_name);
                quote!(#out.fail_all(#f(op, #path, #v, #old));)
            }
            Check::CelRule(r) => self.cel_rules(&[&**r], path, v, old, out)?,
            Check::CrossFieldLimit(c) => {
                let s = self.fresh("s");
                let target = self.member(&quote!(#s), shape, &c.access)?;
                // The reference: member of member; a nil struct on the way stays nil.
                let mut reference = quote!(#s);
                let mut at = shape;
                for step in &c.steps {
                    reference = self.member(&reference, at, &step.access)?;
                    at = step.shape;
                }
                let bound = match c.bound {
                    Bound::Minimum => quote!(Minimum),
                    Bound::Maximum => quote!(Maximum),
                    Bound::MinLength => quote!(MinLength),
                    Bound::MaxLength => quote!(MaxLength),
                    Bound::MinItems => quote!(MinItems),
                    Bound::MaxItems => quote!(MaxItems),
                };
                let field = &c.field;
                let optional = match c.optional {
                    Some(p) => {
                        let p = presence(p);
                        quote!(::core::option::Option::Some(#p))
                    }
                    None => quote!(::core::option::Option::None),
                };
                let function = match c.each {
                    None => quote!(cross_field_limit),
                    Some(CrossFieldEach::Items) => quote!(cross_field_each_item),
                    Some(CrossFieldEach::Values) => quote!(cross_field_each_value),
                };
                quote! {
                    #rt::crossfield::#function(
                        op, #path, #v, #old,
                        #rt::crossfield::CrossField { bound: #rt::crossfield::Bound::#bound, field: #field, optional: #optional },
                        |#s| #target,
                        |#s| #reference,
                        #out,
                    );
                }
            }
            Check::ItemUpdate(u) => {
                let Some(elem) = self.elem_of(shape) else {
                    return Ok(quote!());
                };
                let x = self.fresh("x");
                let selects = self.criteria(&u.criteria, &x, elem)?;
                let cs = u.constraints.iter().map(|c| {
                    let c = ident(&format!("{c:?}"));
                    quote!(#rt::update::UpdateConstraint::#c)
                });
                quote! {
                    #rt::item_update::item_update(op, #path, &[#(#cs),*], #v, #old, |#x| #selects, #out);
                }
            }
        })
    }

    /// `ifMode` rules of one member field (see the interpreter's `discriminated`).
    #[allow(clippy::too_many_arguments)]
    fn discriminated(
        &mut self,
        d: &Discriminated,
        path: &Ident,
        shape: ShapeId,
        v: &Ident,
        old: &Ident,
        out: &Ident,
    ) -> Out {
        let s = self.fresh("s");
        let field = self.member(&quote!(#s), shape, &d.access)?;
        let disc = self.member(&quote!(#s), shape, &d.discriminator_access)?;
        let rules = d.rules.iter().enumerate().map(|(i, r)| {
            let lit = Self::literal(&r.value);
            quote!((#lit, #i))
        });
        let (p, po, start) = (self.fresh("p"), self.fresh("po"), self.fresh("start"));
        let (value, ov) = (self.fresh("nv"), self.fresh("ov"));
        let mut arms = Vec::new();
        for (i, rule) in d.rules.iter().enumerate() {
            let label = syn::Lifetime::new(&format!("'rule{}", self.n + 1), Span::call_site());
            self.n += 1;
            let last_sc = rule.validations.iter().rposition(|x| x.short_circuit);
            let early = self.fresh("early");
            let mut body = TokenStream::new();
            for (k, val) in rule.validations.iter().enumerate() {
                if val.short_circuit {
                    if val.non_error {
                        let f = self.fails(val, &p, d.shape, &value, &ov)?;
                        body.extend(quote!(#early |= #f;));
                    } else {
                        let st = self.fresh("start");
                        let call = self.call_marked(val, &p, d.shape, &value, &ov, out)?;
                        body.extend(quote! {
                            let #st = #out.count();
                            #call
                            #early |= #out.count() > #st;
                        });
                    }
                    if Some(k) == last_sc {
                        body.extend(quote!(if #early { break #label; }));
                    }
                } else if !val.non_error {
                    body.extend(self.call_marked(val, &p, d.shape, &value, &ov, out)?);
                }
            }
            arms.push(quote!(#i => #label: { let mut #early = false; #body }));
        }
        let level: u8 = match d.default_level {
            None => 0,
            Some(Level::Alpha) => 1,
            Some(Level::Beta) => 2,
        };
        let name = &d.field;
        let pres = presence(d.default_forbidden);
        Ok(quote! {{
            static RULES: ::std::sync::LazyLock<::std::vec::Vec<(__kdv::Literal, usize)>> =
                ::std::sync::LazyLock::new(|| ::std::vec![#(#rules),*]);
            let #po = #path.field(#name);
            let #p = &#po;
            let #start = #out.count();
            match __kdv::modes::discriminated(
                op, #p, #v, #old,
                |#s| #field,
                |#s| #disc,
                &RULES,
                |r: &(__kdv::Literal, usize)| &r.0,
                #pres,
                #out,
            ) {
                __kdv::modes::ModeChoice::Run { rule, value: #value, old: #ov } => {
                    let #ov = #ov.unwrap_or_else(|| __kdv::nil_of(#value));
                    match rule.1 {
                        #(#arms,)*
                        _ => {}
                    }
                }
                __kdv::modes::ModeChoice::Done => __kdv::mark(#out, #start, #level),
            }
        }})
    }
}

/// The views of a struct or union type, read by reference (`Option<&T>`, nil when absent):
/// `is_zero`, the JSON object's entries (written into `m`) and member-wise equality (of
/// `self` and `other`) are the type's own.
/// The `+validationRule`s at the start of `vals` that one program can run: consecutive,
/// on one node, without stability or declarative-native marks of their own.
fn cel_group<'v>(vals: &[&'v Validation]) -> Vec<&'v CelRule> {
    let mut group: Vec<&CelRule> = Vec::new();
    for val in vals {
        let Check::CelRule(r) = &val.check else { break };
        if val.level.is_some()
            || val.declarative_native
            || group.first().is_some_and(|g| g.site != r.site)
        {
            break;
        }
        group.push(r);
    }
    group
}

fn by_reference(
    name: &Ident,
    is_zero: TokenStream,
    json_entries: TokenStream,
    equal: TokenStream,
) -> TokenStream {
    quote! {
        impl __kdv::AsView for #name {
            type View<'a> = Option<&'a #name> where Self: 'a;
            type Nilable<'a> = Option<&'a #name> where Self: 'a;
            #[inline]
            fn nilable(v: Option<&Self>) -> Option<&Self> {
                v
            }
        }
        impl<'a> __kdv::View<'a> for &'a #name {
            #[inline]
            fn is_nil(self) -> bool {
                false
            }
            #[inline]
            fn len(self) -> usize {
                0
            }
            fn is_zero(self) -> bool {
                #is_zero
            }
            fn bad_value(self) -> __kdv::BadValue {
                __kdv::View::nilable_bad_value(self)
            }
            fn nilable_bad_value(self) -> __kdv::BadValue {
                let mut m = __kdv::serde_json::Map::new();
                #json_entries
                __kdv::BadValue::Json(__kdv::serde_json::Value::Object(m))
            }
            fn equal(self, other: Self) -> bool {
                ::core::ptr::eq(self, other) || (#equal)
            }
            #[inline]
            fn identical(self, other: Self) -> bool {
                ::core::ptr::eq(self, other)
            }
        }
    }
}

/// `T` when `ty` is `Name<T>` (the last path segment named `name`).
fn wrapped<'t>(ty: &'t syn::Type, name: &str) -> Option<&'t syn::Type> {
    let syn::Type::Path(p) = ty else {
        return None;
    };
    let last = p.path.segments.last()?;
    if last.ident != name {
        return None;
    }
    let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
        return None;
    };
    match a.args.first()? {
        syn::GenericArgument::Type(t) if a.args.len() == 1 => Some(t),
        _ => None,
    }
}

/// How an opaque value of type `ty` compares and prints (chosen by the probes).
fn ops(ty: &syn::Type) -> TokenStream {
    quote!(__kdv::OpaqueOps {
        eq: (&&__kdv::Probe::<#ty>::new()).eq_fn(),
        json: (&&__kdv::Probe::<#ty>::new()).json_fn(),
    })
}

fn presence(p: kdv_rules::Presence) -> TokenStream {
    let p = ident(&format!("{p:?}"));
    quote!(__kdv::required::Presence::#p)
}
