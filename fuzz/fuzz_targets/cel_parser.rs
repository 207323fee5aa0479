//! Fuzzes the CEL front end: `parse` (cel-go conformance options, so every macro is live) and
//! the type checker in Kubernetes' environment with an object-typed `self` must never panic
//! on any UTF-8 text; issues must render, and every node span must lie inside the source.
#![no_main]

use std::sync::Arc;

use kdv_cel::ast::{Expr, ExprKind};
use kdv_cel::checker::{self, Env, TypeProvider};
use kdv_cel::parser::{self, ParseOptions};
use kdv_cel::types::Type;
use libfuzzer_sys::fuzz_target;

struct Objects;

impl TypeProvider for Objects {
    fn has_type(&self, name: &str) -> bool {
        name == "Obj"
    }

    fn field_type(&self, type_name: &str, field: &str) -> Option<Type> {
        if type_name != "Obj" {
            return None;
        }
        Some(match field {
            "n" => Type::Int,
            "s" => Type::String,
            "l" => Type::List(Box::new(Type::Int)),
            "m" => Type::Map(Box::new(Type::String), Box::new(Type::Dyn)),
            "o" => Type::Object(Arc::from("Obj")),
            _ => return None,
        })
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = match parser::parse_with(text, &ParseOptions::conformance()) {
        Ok(p) => p,
        Err(issues) => {
            let _ = issues.to_string();
            return;
        }
    };
    check_spans(&parsed.expr, text.len() as u32);
    let mut env = Env::kubernetes();
    env.set_provider(Arc::new(Objects));
    env.add_variable("self", Type::Object(Arc::from("Obj")));
    env.add_variable("x", Type::Dyn);
    match checker::check(parsed, &env) {
        Ok(checked) => {
            check_spans(&checked.expr, text.len() as u32);
            let _ = checked.result_type.to_string();
        }
        Err(issues) => {
            let _ = issues.to_string();
        }
    }
});

/// Every span lies within the source (iteratively: trees may be deep).
fn check_spans(root: &Expr, len: u32) {
    let mut stack = vec![root];
    while let Some(e) = stack.pop() {
        assert!(
            e.span.start <= e.span.end && e.span.end <= len,
            "span {:?} of {len}",
            e.span
        );
        match &e.kind {
            ExprKind::Literal(_) | ExprKind::Ident(_) => {}
            ExprKind::Select { operand, .. } => stack.push(operand),
            ExprKind::Call { target, args, .. } => {
                stack.extend(target.as_deref());
                stack.extend(args);
            }
            ExprKind::List { elements, .. } => stack.extend(elements),
            ExprKind::Map { entries } => {
                for en in entries {
                    stack.push(&en.key);
                    stack.push(&en.value);
                }
            }
            ExprKind::Struct { fields, .. } => stack.extend(fields.iter().map(|f| &f.value)),
            ExprKind::Comprehension(c) => {
                stack.extend([
                    &c.iter_range,
                    &c.accu_init,
                    &c.loop_condition,
                    &c.loop_step,
                    &c.result,
                ]);
            }
        }
    }
}
