//! `kdv docs`: the committed tag catalog (`docs/tags.md`) is what the registry generates
//! (`KDV_BLESS=1` rewrites it), the JSON form has validation-gen's `--docs` shape, and
//! `--types` documents a package's rules.

mod common;
use common::{kdv, root};

#[test]
fn committed_catalog_is_fresh() {
    let run = kdv(&["docs"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let path = root().join("docs/tags.md");
    if std::env::var_os("KDV_BLESS").is_some() {
        std::fs::write(&path, &run.stdout).expect("writes docs/tags.md");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == run.stdout,
        "docs/tags.md is stale (the tag registry changed): rerun with KDV_BLESS=1 cargo test -p kdv-cli --test docs"
    );
}

#[test]
fn catalog_lists_every_registered_tag() {
    let run = kdv(&["docs"]);
    for doc in kdv_rules::catalog() {
        let heading = format!("\n### +{}\n", doc.name);
        assert!(run.stdout.contains(&heading), "{heading}");
        let row = format!("| [`+{}`]", doc.name);
        assert!(run.stdout.contains(&row), "{row}");
    }
    assert!(run.stdout.contains(
        "| `+k8s:alpha(since: \"1.N\")=<validator>` | Always shadowed. Handwritten validation wins. Mismatches are reported through metrics. |"
    ));
    assert!(run.stdout.contains(
        "| `+k8s:beta(since: \"1.N\")=<validator>` | DV authoritative when DeclarativeValidationBeta=true, shadowed when the gate is disabled. |"
    ));
    assert!(
        run.stdout
            .contains("| `<validator>` | Stable/unwrapped. DV always authoritative. |")
    );
    let max_length = "\n### +k8s:maxLength\n\nLimits a string to the given number of characters (Unicode code points).\n\n- Stability: Stable\n- Scopes: type definitions, struct fields, list values, map keys, map values\n- Payload: int, required. <non-negative integer>: the maximum number of characters\n\n```go\n// +k8s:maxLength=63\n```\n";
    assert!(run.stdout.contains(max_length), "{}", run.stdout);
}

#[test]
fn json_has_validation_gens_docs_shape() {
    let run = kdv(&["docs", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Go's encoder with a 4-space indent, printed with fmt.Println.
    assert!(
        run.stdout
            .starts_with("[\n    {\n        \"Tag\": \"k8s:alpha\",\n")
    );
    assert!(run.stdout.ends_with("    }\n]\n\n"));
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let docs = v.as_array().expect("an array");
    // The catalog, then kdv's extensions outside `+k8s:` (`+validationRule`).
    assert_eq!(
        docs.len(),
        kdv_rules::catalog().len() + kdv_rules::EXTENSION_TAGS.len()
    );
    let min_items = docs
        .iter()
        .find(|d| d["Tag"] == "k8s:minItems")
        .expect("minItems");
    assert_eq!(min_items["StabilityLevel"], "Stable");
    assert_eq!(min_items["Usage"], "k8s:minItems=<non-negative integer>");
    assert_eq!(
        min_items["Payloads"],
        serde_json::json!([{"Description": "<non-negative integer>", "Docs": "the minimum number of items"}])
    );
    assert!(min_items.get("Args").is_none());
    // Field order as validation-gen's TagDoc.
    let text = &run.stdout;
    let at = text.find("\"Tag\": \"k8s:subfield\"").expect("subfield");
    let start = at - "\n        ".len();
    let block = &text[start..at + text[at..].find("\n    }").expect("end")];
    let order = [
        "\"Tag\"",
        "\"StabilityLevel\"",
        "\"Args\"",
        "\"Usage\"",
        "\"Description\"",
        "\"Docs\"",
        "\"Scopes\"",
        "\"Payloads\"",
        "\"PayloadsType\"",
        "\"PayloadsRequired\"",
    ];
    let positions: Vec<usize> = order
        .iter()
        .map(|k| {
            // Top-level members only (8 spaces), not those of Args or Payloads.
            let member = format!("\n        {k}");
            block
                .find(&member)
                .unwrap_or_else(|| panic!("{k} in {block}"))
        })
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{block}");
    assert!(
        block.contains("\"Usage\": \"k8s:subfield(<json name>)=<tag>\""),
        "{block}"
    );
}

#[test]
fn types_docs_of_the_example_api() {
    let run = kdv(&["docs", "--types", "examples/api"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn types_docs_json() {
    let run = kdv(&["docs", "--types", "examples/api", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let subjects: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["subject"].as_str().unwrap())
        .collect();
    assert_eq!(
        subjects,
        [
            "HTTPGetAction",
            "ObjectMeta",
            "Probe",
            "Protocol",
            "RolloutStrategy",
            "TCPSocketAction",
            "Tier",
            "Widget",
            "WidgetPort",
            "WidgetSpec"
        ]
    );
}
