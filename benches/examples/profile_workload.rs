//! Runs one interpreter workload many times, for profilers and instruction counts:
//! `cargo run --release -p kdv-benches --example profile_workload -- NAME [ITERATIONS]`
//! (`valgrind --tool=callgrind` on the built binary gives repeatable counts). Without a
//! name, lists the workloads. A name followed by `/skip_decoding` runs the workload without
//! the decoding pass (`EvalOptions::skip_decoding`).

use std::hint::black_box;

use kdv_benches::{SKIP_DECODING, flat_workloads, list_map_workloads, union_workloads};

fn main() {
    let mut args = std::env::args().skip(1);
    let all: Vec<_> = flat_workloads()
        .into_iter()
        .chain(list_map_workloads())
        .chain(union_workloads())
        .collect();
    let Some(name) = args.next() else {
        for w in &all {
            println!("{}", w.name);
        }
        return;
    };
    let (name, skip_decoding) = match name.strip_suffix(SKIP_DECODING) {
        Some(base) => (base.to_string(), true),
        None => (name, false),
    };
    let iterations: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let Some(w) = all.iter().find(|w| w.name == name) else {
        eprintln!("unknown workload {name}; run without arguments for the list");
        std::process::exit(2);
    };
    w.check();
    for _ in 0..iterations {
        black_box(w.validate_with(skip_decoding));
    }
}
