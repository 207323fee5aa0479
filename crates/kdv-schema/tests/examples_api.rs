//! The CRD of the repository's example API: accepted by kdv's CRD write-time checks
//! (structural schema, CEL compilation and cost), snapshotted.

mod common;

use common::*;
use kdv_schema::{CrdOptions, crd};

#[test]
fn widget_crd_is_accepted_and_snapshotted() {
    let rules = rules_of_dir(&examples_api());
    let widget = ty(&rules, "Widget");
    let emitted = crd(&rules, widget, &CrdOptions::default()).expect("crd");
    assert_crd_accepted(&emitted.schema);
    insta::assert_snapshot!(
        "widget_crd",
        serde_json::to_string_pretty(&emitted.schema).unwrap()
    );
    let notes: Vec<String> = emitted.notes.iter().map(|n| n.to_string()).collect();
    insta::assert_snapshot!("widget_notes", notes.join("\n"));
}
