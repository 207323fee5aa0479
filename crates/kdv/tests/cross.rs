//! Field types declared outside the deriving type's file: a type of another module that
//! derives `Validate` is validated by its own generated function; a type of another crate
//! is opaque (type-independent tags apply; it compares with `PartialEq` and prints with
//! `Serialize` when it has them).

#[path = "cross/api.rs"]
mod api;
#[path = "cross/common.rs"]
mod common;

use api::Status;
use common::Condition;
use kdv::{Operation, Validate};

/// A type of "another crate": no `Validate`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Quantity(pub String);

fn condition(t: &str) -> Condition {
    Condition {
        r#type: t.into(),
        reason: None,
    }
}

fn status() -> Status {
    Status {
        conditions: vec![condition("ready")],
        primary: Some(Box::new(condition("ready"))),
        size: Some(Quantity("1Gi".into())),
        limit: Quantity("2Gi".into()),
        quantities: None,
    }
}

fn texts(errs: kdv::ErrorList) -> Vec<String> {
    errs.iter().map(|e| e.to_string()).collect()
}

#[test]
fn types_of_other_modules_are_validated_by_their_own_function() {
    assert!(status().validate(&Operation::create()).is_empty());
    let mut s = status();
    s.conditions = vec![condition("Ready!"), condition("ok")];
    s.primary = Some(Box::new(Condition {
        r#type: String::new(),
        reason: Some("much-too-long".into()),
    }));
    assert_eq!(
        texts(s.validate(&Operation::create())),
        [
            "conditions[0].type: Invalid value: \"Ready!\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
            "primary.type: Required value",
            "primary.reason: Too long: may not be more than 10 characters",
        ]
    );
}

#[test]
fn types_of_other_crates_are_opaque() {
    let old = status();
    let mut s = status();
    assert!(s.validate_update(&old, &Operation::update()).is_empty());
    s.size = Some(Quantity("2Gi".into()));
    s.quantities = Some(vec![Quantity("1".into()), Quantity("2".into())]);
    assert_eq!(
        texts(s.validate_update(&old, &Operation::update())),
        [
            "size: Invalid value: null: field is immutable",
            "quantities: Too many: 2: must have at most 1 item",
        ]
    );
}

#[test]
fn schema_of_a_type_using_other_types() {
    let schema = kdv::schema::<Status>();
    assert_eq!(schema["properties"]["conditions"]["maxItems"], 2);
}

#[test]
fn max_items_short_circuits_the_items() {
    let mut s = status();
    s.conditions = vec![condition("Ready!"), condition("ok"), condition("x")];
    assert_eq!(
        texts(s.validate(&Operation::create())),
        ["conditions: Too many: 3: must have at most 2 items"]
    );
}
