//! Compiles one rule many times (parse + check + cost estimate), for profilers:
//! `cargo run --release -p kdv-cel --example compile_profile -- 'RULE' [N]`.
//!
//! `regex:PATTERN` times the `matches` literal validator alone, without its per-environment
//! cache. `@FILE` instead of a rule compiles the file's text the way the `cel_parser` fuzz target
//! does (every macro, an object-typed `self`), where failing to compile is the expected
//! outcome: it prints the time and the number of issues.

use std::sync::Arc;

use kdv_cel::checker::{self, Env, TypeProvider};
use kdv_cel::cost::{CostOptions, NoSizeEstimates, estimate_cost};
use kdv_cel::k8s;
use kdv_cel::parser::{self, ParseOptions};
use kdv_cel::types::Type;

/// The object type of the fuzz target's `self`.
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

fn main() {
    let mut args = std::env::args().skip(1);
    let rule = args
        .next()
        .unwrap_or_else(|| "self.items.filter(e, e.name == 'x').size() == 1".to_string());
    let n: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    if let Some(path) = rule.strip_prefix('@') {
        fuzz_input(path, n);
        return;
    }
    if let Some(pattern) = rule.strip_prefix("regex:") {
        let start = std::time::Instant::now();
        for _ in 0..n {
            std::hint::black_box(kdv_cel::library::regex::validate(std::hint::black_box(
                pattern,
            )));
        }
        println!(
            "{:.2} µs per validation (uncached)",
            start.elapsed().as_secs_f64() * 1e6 / f64::from(n)
        );
        return;
    }
    let mut env = k8s::env();
    env.add_variable("self", Type::Dyn);
    let start = std::time::Instant::now();
    for _ in 0..n {
        match checker::compile(&rule, &env) {
            Ok(checked) => {
                let _ = std::hint::black_box(estimate_cost(
                    &checked,
                    &NoSizeEstimates,
                    &CostOptions::kubernetes(),
                ));
            }
            Err(issues) => {
                eprintln!("{issues}");
                std::process::exit(2);
            }
        }
    }
    println!(
        "{:.2} µs per compile",
        start.elapsed().as_secs_f64() * 1e6 / f64::from(n)
    );
}

/// Parses and checks the text of `path` `n` times as the `cel_parser` fuzz target does.
fn fuzz_input(path: &str, n: u32) {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let mut env = Env::kubernetes();
    env.set_provider(Arc::new(Objects));
    env.add_variable("self", Type::Object(Arc::from("Obj")));
    env.add_variable("x", Type::Dyn);
    let options = ParseOptions::conformance();
    let (mut parse_time, mut check_time, mut issues) = (0.0, 0.0, 0);
    for _ in 0..n {
        let start = std::time::Instant::now();
        let parsed = parser::parse_with(&text, &options);
        parse_time += start.elapsed().as_secs_f64();
        let start = std::time::Instant::now();
        issues = match parsed.map(|p| checker::check(p, &env)) {
            Ok(Ok(_)) => 0,
            Ok(Err(i)) | Err(i) => i.len(),
        };
        check_time += start.elapsed().as_secs_f64();
    }
    let n = f64::from(n);
    println!(
        "parse {:.2} ms, check {:.2} ms per compile; {issues} issues",
        parse_time * 1e3 / n,
        check_time * 1e3 / n
    );
}
