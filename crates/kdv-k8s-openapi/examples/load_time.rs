//! Times decompressing and parsing (as JSON) embedded documents, best of N runs each:
//!
//! ```text
//! cargo run --release -p kdv-k8s-openapi --example load_time -- [GROUP_VERSION...] [-n RUNS]
//! ```
//!
//! Without group-versions: `v1` and `apps/v1`.

use std::time::{Duration, Instant};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut runs = 20;
    if let Some(i) = args.iter().position(|a| a == "-n") {
        runs = args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(runs);
        args.drain(i..(i + 2).min(args.len()));
    }
    if args.is_empty() {
        args = vec!["v1".into(), "apps/v1".into()];
    }
    let version = kdv_k8s_openapi::latest_version();
    println!("group-version  compressed  json        decompress  parse (serde_json::Value)");
    for gv in &args {
        let Some(doc) = kdv_k8s_openapi::document(version, gv) else {
            eprintln!("no embedded {gv} in {version}");
            std::process::exit(2);
        };
        let (mut inflate, mut parse) = (Duration::MAX, Duration::MAX);
        for _ in 0..runs {
            let start = Instant::now();
            let Ok(text) = doc.load() else {
                eprintln!("{gv}: does not decompress");
                std::process::exit(1);
            };
            let mid = Instant::now();
            let value: Result<serde_json::Value, _> = serde_json::from_slice(&text);
            let end = Instant::now();
            assert!(value.is_ok(), "{gv} parses");
            inflate = inflate.min(mid - start);
            parse = parse.min(end - mid);
        }
        println!(
            "{gv:<14} {:>10}  {:>10}  {:>8.2} ms  {:>8.2} ms",
            doc.compressed_len(),
            doc.len(),
            inflate.as_secs_f64() * 1e3,
            parse.as_secs_f64() * 1e3
        );
    }
}
