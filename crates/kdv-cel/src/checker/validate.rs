//! AST validators run after a successful check (cel-go `ASTValidators` as Kubernetes
//! enables them): homogeneous aggregate literals and literal argument checks.

use super::env::Env;
use super::unify::{format_type, same_type, type_name};
use crate::ast::{Expr, ExprKind, Literal};
use crate::parser::Issue;
use crate::types::Kind;
use crate::types::Type;

pub(crate) fn validate(env: &Env, root: &Expr, types: &[Option<Type>]) -> Vec<Issue> {
    let mut issues = Vec::new();
    let homogeneous = env.options.homogeneous_aggregate_literals;
    let formats = env.options.validate_format_strings;
    if !homogeneous && !formats && env.options.literal_validators.is_empty() {
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
    let mut stack: Vec<(&Expr, bool)> = Vec::with_capacity(16);
    stack.push((root, false));
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
                if formats && function == "format" {
                    check_format(e, types, &mut issues);
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

/// cel-go's strings extension format validator (versions 1 to 3): a literal format string
/// applied to a list literal has its clauses checked against the element types.
fn check_format(call: &Expr, types: &[Option<Type>], issues: &mut Vec<Issue>) {
    let ExprKind::Call {
        target: Some(target),
        args,
        ..
    } = &call.kind
    else {
        return;
    };
    let ExprKind::Literal(Literal::String(format)) = &target.kind else {
        return;
    };
    let [list] = args.as_slice() else {
        return;
    };
    let ExprKind::List { elements, .. } = &list.kind else {
        return;
    };
    let type_of = |e: &Expr| -> Type {
        types
            .get(e.id as usize)
            .and_then(|t| t.clone())
            .unwrap_or(Type::Dyn)
    };
    let report = |issues: &mut Vec<Issue>, at: &Expr, message: String| {
        issues.push(Issue {
            message,
            span: Some(at.span),
            expr_id: at.id,
        });
    };
    let s = format.as_bytes();
    let mut i = 0;
    let mut arg_index = 0usize;
    let mut requested = 0usize;
    while i < s.len() {
        if s[i] != b'%' {
            i += 1;
            continue;
        }
        if s.get(i + 1) == Some(&b'%') {
            i += 2;
            continue;
        }
        requested += 1;
        if i + 1 >= s.len() {
            return report(issues, call, "unexpected end of string".to_string());
        }
        if arg_index >= elements.len() {
            return report(issues, call, format!("index {arg_index} out of range"));
        }
        // Precision: `.` digits.
        let mut j = i + 1;
        if s[j] == b'.' {
            j += 1;
            let start = j;
            while j < s.len() && s[j].is_ascii_digit() {
                j += 1;
            }
            if j >= s.len() {
                return report(
                    issues,
                    call,
                    "could not parse formatting clause: error while parsing precision: could not find end of precision specifier"
                        .to_string(),
                );
            }
            if start == j {
                return report(
                    issues,
                    call,
                    "could not parse formatting clause: error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing \"\": invalid syntax"
                        .to_string(),
                );
            }
        }
        let clause = s[j] as char;
        let arg = &elements[arg_index];
        let kinds: &[Kind] = match clause {
            's' => &[],
            'd' | 'o' => &[Kind::Int, Kind::Uint],
            'f' | 'e' => &[Kind::Double, Kind::String],
            'b' => &[Kind::Int, Kind::Uint, Kind::Bool],
            'x' | 'X' => &[Kind::Int, Kind::Uint, Kind::String, Kind::Bytes],
            other => {
                return report(
                    issues,
                    call,
                    format!(
                        "could not parse formatting clause: unrecognized formatting clause \"{other}\""
                    ),
                );
            }
        };
        let failure = if clause == 's' {
            format_string_arg(arg, &type_of)
        } else {
            let t = type_of(arg);
            let ok = matches!(t, Type::Dyn) || kinds.contains(&t.kind());
            (!ok).then_some((arg, t))
        };
        if let Some((bad, t)) = failure {
            let what = match clause {
                's' => {
                    "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps"
                }
                'd' => "decimal clause can only be used on integers",
                'f' => "fixed-point clause can only be used on doubles",
                'e' => "scientific clause can only be used on doubles",
                'b' => "only integers and bools can be formatted as binary",
                'o' => "octal clause can only be used on integers",
                _ => "only integers, byte buffers, and strings can be formatted as hex",
            };
            let message = format!(
                "error during formatting: {what}, was given {}",
                type_name(&t)
            );
            return report(issues, bad, message);
        }
        i = j + 1;
        arg_index += 1;
    }
    if elements.len() > requested {
        report(
            issues,
            call,
            format!(
                "too many arguments supplied to string.format (expected {requested}, got {})",
                elements.len()
            ),
        );
    }
}

/// The `%s` check: allowed kinds, recursively through list and map literals; the offending
/// expression and its type on failure.
fn format_string_arg<'e>(e: &'e Expr, type_of: &dyn Fn(&Expr) -> Type) -> Option<(&'e Expr, Type)> {
    let t = type_of(e);
    let allowed = matches!(t, Type::Dyn)
        || matches!(
            t.kind(),
            Kind::List
                | Kind::Map
                | Kind::Int
                | Kind::Uint
                | Kind::Double
                | Kind::Bool
                | Kind::String
                | Kind::Timestamp
                | Kind::Bytes
                | Kind::Duration
                | Kind::Type
                | Kind::Null
        );
    if !allowed {
        return Some((e, t));
    }
    match &e.kind {
        ExprKind::List { elements, .. } => {
            elements.iter().find_map(|x| format_string_arg(x, type_of))
        }
        ExprKind::Map { entries } => entries.iter().find_map(|en| {
            format_string_arg(&en.key, type_of).or_else(|| format_string_arg(&en.value, type_of))
        }),
        _ => None,
    }
}
