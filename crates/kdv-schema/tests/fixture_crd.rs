//! The CRD of an upstream-like fixture (list maps, unions, immutable and update-constrained
//! fields, items, dependencies, enums): accepted by kdv's CRD write-time checks,
//! snapshotted.

mod common;

use std::path::Path;

use common::*;
use kdv_schema::{CrdOptions, crd};

#[test]
fn fixture_crd_is_accepted_and_snapshotted() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fixture");
    let rules = rules_of_dir(&dir);
    let cluster = ty(&rules, "Cluster");
    let emitted = crd(&rules, cluster, &CrdOptions::default()).expect("crd");
    assert_crd_accepted(&emitted.schema);
    insta::assert_snapshot!(
        "cluster_crd",
        serde_json::to_string_pretty(&emitted.schema).unwrap()
    );
    let notes: Vec<String> = emitted.notes.iter().map(|n| n.to_string()).collect();
    insta::assert_snapshot!(
        "cluster_notes",
        notes
            .join("\n")
            .replace(&dir.display().to_string(), "fixture")
    );
}
