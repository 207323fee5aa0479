//! The unit tests of apiextensions-apiserver's schema-value-validation ratcheting
//! (`pkg/apiserver/validation/ratcheting_test.go`), read in place. They are not tables but
//! short test functions of one shape:
//!
//! ```go
//! validator := validation.NewRatchetingSchemaValidator(schema, nil, "", strfmt.Default)
//! require.True(t, validator.ValidateUpdate(new, old, validation.WithRatcheting(nil)).IsValid())
//! ```
//!
//! with `schema` a global `*spec.Schema` literal. Each assertion becomes a case: the schema
//! (kube-openapi `spec.Schema` literals converted by their syntax: `SchemaProps` with
//! `Type`, `Format`, `Minimum`, `Maximum`, `Properties`, and `*global` references) compiled
//! by `Resource::from_crd_schema` (with the format handling of
//! [`super::UNSTRIPPED_FORMATS_MINOR`]: the tests strip no formats), the update validated by
//! `Resource::validate_values_update`, and its validity compared with the assertion. The
//! values are evaluated by the Go interpreter ([`GoTestFile::eval_data`]). A statement of
//! another shape becomes a skipped case naming it, so nothing is silently left out.

use std::collections::HashMap;

use serde_json::{Map, Number, Value as J};

use super::cases::{Call, Case, Expect, PER_CALL_LIMIT, RUNTIME_COST_BUDGET};
use super::gotable::GoTestFile;
use crate::parser::parse_file;
use crate::syntax::{Expr, ExprKind, Stmt, TypeExpr, UnOp};

/// The test file, inside the checkout.
pub const RATCHETING_FILE: &str = "pkg/apiserver/validation/ratcheting_test.go";

const VALIDATION_PKG: &str = "k8s.io/apiextensions-apiserver/pkg/apiserver/validation";
const SPEC_PKG: &str = "k8s.io/kube-openapi/pkg/validation/spec";
const PTR_PKG: &str = "k8s.io/utils/ptr";
const ASSERT_PKGS: [&str; 2] = [
    "github.com/stretchr/testify/assert",
    "github.com/stretchr/testify/require",
];

/// The cases of the file's test functions (`text` is the file), each function a table;
/// `values` evaluates the Go values. `filter` selects test functions by name.
pub fn cases(text: &str, values: &GoTestFile, filter: Option<&str>) -> Vec<Case> {
    let parsed = parse_file(text);
    let imports = parsed.file.imports.clone();
    let reader = Reader {
        imports: imports.iter().cloned().collect(),
        globals: parsed
            .file
            .values
            .iter()
            .filter(|v| v.names.len() == 1 && v.values.len() == 1)
            .map(|v| (v.names[0].clone(), v.values[0].clone()))
            .collect(),
    };
    let mut out = Vec::new();
    for f in &parsed.file.funcs {
        if !f.name.starts_with("Test") || filter.is_some_and(|x| !f.name.contains(x)) {
            continue;
        }
        if let Some((_, e)) = parsed.broken.iter().find(|(n, _)| *n == f.name) {
            out.push(Case {
                table: f.name.clone(),
                name: f.name.clone(),
                line: f.line,
                run: Err(("syntax error".into(), e.message.clone())),
            });
            continue;
        }
        let mut validators: HashMap<String, J> = HashMap::new();
        let mut n = 0;
        for stmt in &f.body {
            n += 1;
            let name = format!("#{n}");
            let line = stmt.line();
            let mut push = |run| {
                out.push(Case {
                    table: f.name.clone(),
                    name: name.clone(),
                    line,
                    run,
                })
            };
            match stmt {
                Stmt::Define(names, vals, _) if names.len() == 1 && vals.len() == 1 => {
                    match reader.new_validator(&vals[0]) {
                        Ok(schema) => {
                            validators.insert(names[0].clone(), schema);
                            n -= 1;
                        }
                        Err(e) => push(Err(("statement not understood".into(), e))),
                    }
                }
                Stmt::Expr(e) => {
                    let run =
                        reader
                            .assertion(e, &validators)
                            .and_then(|(schema, new, old, valid)| {
                                let object = values.eval_data(new, &imports)?;
                                let old = values.eval_data(old, &imports)?;
                                Ok((schema, object, old, valid))
                            });
                    push(match run {
                        Ok((schema, object, old, valid)) => Ok((
                            Call {
                                schema,
                                object,
                                old: Some(old),
                                resource_root: false,
                                cost_budget: RUNTIME_COST_BUDGET,
                                per_call_limit: PER_CALL_LIMIT,
                                ratcheting: true,
                            },
                            Expect::ValuesUpdateValid(valid),
                        )),
                        Err(e) => Err(("statement not understood".into(), e)),
                    });
                }
                other => push(Err((
                    "statement not understood".into(),
                    format!("{other:?}").chars().take(120).collect(),
                ))),
            }
        }
    }
    out
}

struct Reader {
    imports: HashMap<String, String>,
    globals: HashMap<String, Expr>,
}

impl Reader {
    /// Whether `e` is `pkg.name` for the package imported from `path`.
    fn is_member(&self, e: &Expr, path: &str, name: &str) -> bool {
        matches!(&e.kind, ExprKind::Selector(x, n)
            if n == name
                && matches!(&x.kind, ExprKind::Ident(p) if self.imports.get(p).map(String::as_str) == Some(path)))
    }

    /// `validation.NewRatchetingSchemaValidator(schema, nil, "", strfmt.Default)` → the
    /// schema.
    fn new_validator(&self, e: &Expr) -> Result<J, String> {
        let ExprKind::Call { fun, args, .. } = &e.kind else {
            return Err(format!("line {}: not a call", e.line));
        };
        if !self.is_member(fun, VALIDATION_PKG, "NewRatchetingSchemaValidator") {
            return Err(format!("line {}: not NewRatchetingSchemaValidator", e.line));
        }
        if args.len() != 4
            || !matches!(&args[1].kind, ExprKind::Ident(n) if n == "nil")
            || !matches!(&args[2].kind, ExprKind::Str(s) if s.is_empty())
        {
            return Err(format!(
                "line {}: a validator with a root schema or path",
                e.line
            ));
        }
        self.schema(&args[0], 0)
    }

    /// `assert.True(t, v.ValidateUpdate(new, old, validation.WithRatcheting(nil)).IsValid())`
    /// (or `False`, or `require.`) → (schema, new, old, expected validity).
    fn assertion<'e>(
        &self,
        e: &'e Expr,
        validators: &HashMap<String, J>,
    ) -> Result<(J, &'e Expr, &'e Expr, bool), String> {
        let line = e.line;
        let ExprKind::Call { fun, args, .. } = &e.kind else {
            return Err(format!("line {line}: not a call"));
        };
        let valid = if ASSERT_PKGS.iter().any(|p| self.is_member(fun, p, "True")) {
            true
        } else if ASSERT_PKGS.iter().any(|p| self.is_member(fun, p, "False")) {
            false
        } else {
            return Err(format!("line {line}: not an assert/require True or False"));
        };
        let Some(ExprKind::Call {
            fun: is_valid,
            args: none,
            ..
        }) = args.get(1).map(|a| &a.kind)
        else {
            return Err(format!("line {line}: the assertion is not on a call"));
        };
        let ExprKind::Selector(update, m) = &is_valid.kind else {
            return Err(format!("line {line}: not .IsValid()"));
        };
        if m != "IsValid" || !none.is_empty() {
            return Err(format!("line {line}: not .IsValid()"));
        }
        let ExprKind::Call {
            fun: update_fn,
            args: update_args,
            spread: false,
        } = &update.kind
        else {
            return Err(format!("line {line}: not a ValidateUpdate call"));
        };
        let ExprKind::Selector(recv, m) = &update_fn.kind else {
            return Err(format!("line {line}: not a ValidateUpdate call"));
        };
        let ExprKind::Ident(v) = &recv.kind else {
            return Err(format!("line {line}: not a validator variable"));
        };
        let Some(schema) = validators.get(v) else {
            return Err(format!("line {line}: unknown validator {v}"));
        };
        if m != "ValidateUpdate" {
            return Err(format!("line {line}: {m} is not ValidateUpdate"));
        }
        let ratcheting = update_args.len() == 3
            && matches!(&update_args[2].kind, ExprKind::Call { fun, args, .. }
                if self.is_member(fun, VALIDATION_PKG, "WithRatcheting")
                    && matches!(args.as_slice(), [a] if matches!(&a.kind, ExprKind::Ident(n) if n == "nil")));
        if !ratcheting {
            return Err(format!(
                "line {line}: ValidateUpdate without exactly WithRatcheting(nil)"
            ));
        }
        Ok((schema.clone(), &update_args[0], &update_args[1], valid))
    }

    /// A `spec.Schema` literal (or `&` of one, or `*global`) → its OpenAPI JSON.
    fn schema(&self, e: &Expr, depth: usize) -> Result<J, String> {
        if depth > 50 {
            return Err("schema nested too deeply".into());
        }
        let d = depth + 1;
        match &e.kind {
            ExprKind::Ident(name) => {
                let g = self
                    .globals
                    .get(name)
                    .ok_or_else(|| format!("line {}: unknown schema {name}", e.line))?;
                self.schema(g, d)
            }
            ExprKind::Unary(UnOp::Addr | UnOp::Deref, inner) | ExprKind::Paren(inner) => {
                self.schema(inner, d)
            }
            ExprKind::Composite { ty, elems } => {
                let spec_type = |t: &TypeExpr, want: &str| {
                    matches!(t, TypeExpr::Name { pkg: Some(p), name, .. }
                        if name == want && self.imports.get(p).map(String::as_str) == Some(SPEC_PKG))
                };
                if let Some(t) = ty
                    && !spec_type(t, "Schema")
                {
                    return Err(format!("line {}: not a spec.Schema literal", e.line));
                }
                let mut out = Map::new();
                for el in elems {
                    let key = match el.key.as_ref().map(|k| &k.kind) {
                        Some(ExprKind::Ident(k)) => k.as_str(),
                        _ => return Err(format!("line {}: unkeyed spec.Schema field", e.line)),
                    };
                    if key != "SchemaProps" {
                        return Err(format!("line {}: spec.Schema field {key}", e.line));
                    }
                    let ExprKind::Composite { ty, elems: props } = &el.value.kind else {
                        return Err(format!("line {}: SchemaProps is not a literal", e.line));
                    };
                    if let Some(t) = ty
                        && !spec_type(t, "SchemaProps")
                    {
                        return Err(format!("line {}: not a spec.SchemaProps literal", e.line));
                    }
                    for p in props {
                        self.prop(p, &mut out, d)?;
                    }
                }
                Ok(J::Object(out))
            }
            _ => Err(format!("line {}: not a spec.Schema", e.line)),
        }
    }

    /// One `SchemaProps` field into the schema's JSON.
    fn prop(
        &self,
        el: &crate::syntax::Element,
        out: &mut Map<String, J>,
        d: usize,
    ) -> Result<(), String> {
        let line = el.value.line;
        let key = match el.key.as_ref().map(|k| &k.kind) {
            Some(ExprKind::Ident(k)) => k.as_str(),
            _ => return Err(format!("line {line}: unkeyed SchemaProps field")),
        };
        match key {
            "Type" => {
                let ExprKind::Composite { elems, .. } = &el.value.kind else {
                    return Err(format!(
                        "line {line}: Type is not a spec.StringOrArray literal"
                    ));
                };
                let types: Vec<&str> = elems
                    .iter()
                    .filter_map(|t| match &t.value.kind {
                        ExprKind::Str(s) => Some(s.as_str()),
                        _ => None,
                    })
                    .collect();
                match types.as_slice() {
                    [t] => {
                        out.insert("type".into(), J::String((*t).to_string()));
                    }
                    _ => return Err(format!("line {line}: a Type of {} names", elems.len())),
                }
            }
            "Format" => match &el.value.kind {
                ExprKind::Str(s) => {
                    out.insert("format".into(), J::String(s.clone()));
                }
                _ => return Err(format!("line {line}: Format is not a string literal")),
            },
            "Minimum" | "Maximum" => {
                let n = self.float_ptr(&el.value)?;
                out.insert(key.to_ascii_lowercase(), n);
            }
            "Properties" => {
                let ExprKind::Composite { elems, .. } = &el.value.kind else {
                    return Err(format!("line {line}: Properties is not a map literal"));
                };
                let mut props = Map::new();
                for p in elems {
                    let Some(ExprKind::Str(name)) = p.key.as_ref().map(|k| &k.kind) else {
                        return Err(format!(
                            "line {line}: a property name is not a string literal"
                        ));
                    };
                    props.insert(name.clone(), self.schema(&p.value, d)?);
                }
                out.insert("properties".into(), J::Object(props));
            }
            other => return Err(format!("line {line}: SchemaProps field {other}")),
        }
        Ok(())
    }

    /// `ptr.To[float64](n)` / `ptr.To(n)` with a numeric literal → the number.
    fn float_ptr(&self, e: &Expr) -> Result<J, String> {
        let line = e.line;
        let ExprKind::Call { fun, args, .. } = &e.kind else {
            return Err(format!("line {line}: not ptr.To(number)"));
        };
        let fun = match &fun.kind {
            ExprKind::Index(f, _) => f,
            _ => fun,
        };
        if !self.is_member(fun, PTR_PKG, "To") || args.len() != 1 {
            return Err(format!("line {line}: not ptr.To(number)"));
        }
        number(&args[0]).ok_or_else(|| format!("line {line}: not a numeric literal"))
    }
}

/// A numeric literal (possibly negated) as JSON.
fn number(e: &Expr) -> Option<J> {
    match &e.kind {
        ExprKind::Int(i) => i64::try_from(*i).ok().map(|i| J::Number(i.into())),
        ExprKind::Float(f) => Number::from_f64(*f).map(J::Number),
        ExprKind::Unary(UnOp::Neg, inner) => match number(inner)? {
            J::Number(n) => n
                .as_i64()
                .map(|i| J::Number((-i).into()))
                .or_else(|| n.as_f64().and_then(|f| Number::from_f64(-f)).map(J::Number)),
            _ => None,
        },
        ExprKind::Paren(inner) => number(inner),
        _ => None,
    }
}
