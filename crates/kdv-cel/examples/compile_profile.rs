//! Compiles one rule many times (parse + check + cost estimate), for profilers:
//! `cargo run --release -p kdv-cel --example compile_profile -- 'RULE' [N]`.

use kdv_cel::checker;
use kdv_cel::cost::{CostOptions, NoSizeEstimates, estimate_cost};
use kdv_cel::stdlib::k8s;
use kdv_cel::types::Type;

fn main() {
    let mut args = std::env::args().skip(1);
    let rule = args
        .next()
        .unwrap_or_else(|| "self.items.filter(e, e.name == 'x').size() == 1".to_string());
    let n: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10_000);
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
