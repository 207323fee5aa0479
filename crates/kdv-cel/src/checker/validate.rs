//! AST validators run after a successful check (cel-go `ASTValidators` as Kubernetes
//! enables them): homogeneous aggregate literals and literal argument checks.

use super::env::Env;
use super::unify::{format_type, same_type};
use crate::ast::{Expr, ExprKind};
use crate::parser::Issue;
use crate::types::Type;

pub(crate) fn validate(env: &Env, root: &Expr, types: &[Option<Type>]) -> Vec<Issue> {
    let mut issues = Vec::new();
    let homogeneous = env.options.homogeneous_aggregate_literals;
    if !homogeneous && env.options.literal_validators.is_empty() {
        return issues;
    }
    let type_of = |e: &Expr| -> Type {
        types
            .get(e.id as usize)
            .and_then(|t| t.clone())
            .unwrap_or(Type::Dyn)
    };
    let mismatch = |issues: &mut Vec<Issue>, e: &Expr, expected: &Type, actual: &Type| {
        issues.push(Issue {
            message: format!(
                "expected type '{}' but found '{}'",
                format_type(expected),
                format_type(actual)
            ),
            span: Some(e.span),
            expr_id: e.id,
        });
    };
    // Depth-first, carrying whether an exempt call encloses the node.
    let mut stack: Vec<(&Expr, bool)> = vec![(root, false)];
    while let Some((e, in_exempt)) = stack.pop() {
        match &e.kind {
            ExprKind::List {
                elements,
                optional_indices,
            } => {
                if homogeneous && !in_exempt {
                    let mut first: Option<Type> = None;
                    for (i, el) in elements.iter().enumerate() {
                        let mut t = type_of(el);
                        if optional_indices.contains(&(i as u32)) {
                            t = unwrap_optional(t);
                        }
                        match &first {
                            None => first = Some(t),
                            Some(f) if !same_type(f, &t, false) => {
                                mismatch(&mut issues, el, f, &t);
                                break;
                            }
                            Some(_) => {}
                        }
                    }
                }
                stack.extend(elements.iter().rev().map(|x| (x, in_exempt)));
            }
            ExprKind::Map { entries } => {
                if homogeneous && !in_exempt {
                    let mut first: Option<(Type, Type)> = None;
                    for en in entries {
                        let kt = type_of(&en.key);
                        let mut vt = type_of(&en.value);
                        if en.optional {
                            vt = unwrap_optional(vt);
                        }
                        match &first {
                            None => first = Some((kt, vt)),
                            Some((fk, fv)) => {
                                if !same_type(fk, &kt, false) {
                                    mismatch(&mut issues, &en.key, fk, &kt);
                                }
                                if !same_type(fv, &vt, false) {
                                    mismatch(&mut issues, &en.value, fv, &vt);
                                }
                            }
                        }
                    }
                }
                for en in entries.iter().rev() {
                    stack.push((&en.value, in_exempt));
                    stack.push((&en.key, in_exempt));
                }
            }
            ExprKind::Call {
                target,
                function,
                args,
            } => {
                for v in &env.options.literal_validators {
                    if v.function == *function
                        && let Some(arg) = args.get(v.arg_index)
                        && let ExprKind::Literal(l) = &arg.kind
                        && !(v.check)(l)
                    {
                        issues.push(Issue {
                            message: format!("invalid {} argument", v.function),
                            span: Some(arg.span),
                            expr_id: arg.id,
                        });
                    }
                }
                let inner = in_exempt || (homogeneous && env.is_homogeneity_exempt(function));
                stack.extend(args.iter().rev().map(|x| (x, inner)));
                if let Some(t) = target {
                    stack.push((t, inner));
                }
            }
            ExprKind::Select { operand, .. } => stack.push((operand, in_exempt)),
            ExprKind::Struct { fields, .. } => {
                stack.extend(fields.iter().rev().map(|f| (&f.value, in_exempt)))
            }
            ExprKind::Comprehension(c) => {
                for x in [
                    &c.result,
                    &c.loop_step,
                    &c.loop_condition,
                    &c.accu_init,
                    &c.iter_range,
                ] {
                    stack.push((x, in_exempt));
                }
            }
            ExprKind::Literal(_) | ExprKind::Ident(_) => {}
        }
    }
    issues
}

fn unwrap_optional(t: Type) -> Type {
    match t {
        Type::Optional(inner) => *inner,
        t => t,
    }
}
