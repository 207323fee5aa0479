//! Unions written as Rust enums: validated by generated code as the interpreter validates
//! their JSON, published as a schema with exactly one member.

#[path = "support/differential.rs"]
mod differential;
#[path = "union_enum/types.rs"]
mod types;

use kdv::{Operation, Validate};
use types::*;

#[test]
fn members_are_validated_at_their_variant_path() {
    let probe = Probe {
        handler: Handler::HttpGet(HttpGet {
            port: 0,
            path: "/a-very-long-path/x".into(),
        }),
        fallbacks: vec![Handler::TcpSocket(70000), Handler::Exec(vec![])],
        initial: None,
    };
    let errs: Vec<String> = probe
        .validate(&Operation::create())
        .iter()
        .map(|e| e.to_string())
        .collect();
    assert_eq!(
        errs,
        [
            "handler.httpGet.port: Required value",
            "handler.httpGet.path: Too long: may not be more than 16 characters",
            "fallbacks[0].tcpSocket: Invalid value: 70000: must be less than or equal to 65535",
            // `{"exec": []}`: an empty list is an unset member, as for Go's slices.
            "fallbacks[1]: Invalid value: \"\": must specify one of: `httpGet`, `tcpSocket`, `exec`",
        ]
    );
    let old = Probe {
        initial: Some(Handler::TcpSocket(80)),
        ..probe.clone()
    };
    let new = Probe {
        initial: Some(Handler::TcpSocket(81)),
        ..probe
    };
    assert!(
        new.validate_update(&old, &Operation::update())
            .iter()
            .any(|e| e.to_string() == "initial: Invalid value: null: field is immutable")
    );
}

#[test]
fn schema_publishes_exactly_one_member() {
    let s = kdv::schema::<Handler>();
    assert_eq!(s["type"], "object");
    assert!(s["properties"]["httpGet"].is_object());
    assert!(s["x-kubernetes-validations"].is_array(), "{s}");
}

#[test]
fn enum_unions_agree_with_the_interpreter() {
    let source = include_str!("union_enum/types.rs");
    let stats = differential::check::<Probe>("types.rs", source, "Probe", 10_000);
    eprintln!("{stats:?}");
    stats.assert_mixed();
}
