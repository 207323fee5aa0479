//! `kdv lint` as users meet it: exit status by severity (`--deny warnings`), upstream's
//! lint rules and kdv's tag hygiene end to end, identical findings folded, long lines
//! clipped in snippets, and the Go frontend's wording.
//!
//! Packages that would be unwieldy as fixtures (20,000 tag lines, a 1 MB line) are
//! written to a temporary directory by the test.

use std::time::{Duration, Instant};

mod common;
use common::kdv;
use kdv_test_support::Scratch;

const CUSTOM_API: &str = "crates/kdv-cli/tests/fixtures/tags/custom";

const DOC: &[u8] = b"// +k8s:validation-gen=*\npackage p\n";

#[test]
fn item_12_warnings_do_not_fail_lint_unless_denied() {
    // The fixture's only findings are the two +k8s:customValidation warnings, as in every
    // kubernetes/api package that uses the tag.
    let run = kdv(&["lint", "--types", CUSTOM_API]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout.contains(
            "`kdv validate` skips this check and warns that it did, once per validated type"
        ),
        "{}",
        run.transcript()
    );
    assert_eq!(
        run.stderr,
        format!("{CUSTOM_API}: 2 findings (0 errors, 2 warnings)\n")
    );
    let run = kdv(&["lint", "--types", CUSTOM_API, "--deny", "warnings"]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    let run = kdv(&["lint", "--types", CUSTOM_API, "--deny", "everything"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
}

#[test]
fn item_07_upstream_lint_rules_and_hygiene_are_reported() {
    let types = br#"package p

type T struct {
	// +k8s:optional
	// +k8s:alpha=+k8s:beta=+k8s:required
	A *string `json:"a"`
	// +k8s:required
	// +k8s:required
	B *string `json:"b"`
	// +k8s:required
	// +k8s:optional
	C *string `json:"c"`
	// +k8s:maxLength=3
	D *string `json:"d"`
	// +k8s:optional
	// +k8s:maxlength=3
	E *string `json:"e"`
}
"#;
    let pkg = Scratch::with_files("rules", &[("doc.go", DOC), ("types.go", types)]);
    let run = kdv(&["lint", "--types", pkg.dir()]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    let headlines: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains(": error: ") || l.contains(": warning: "))
        .map(|l| l.split_once("types.go:").map_or(l, |(_, rest)| rest))
        .collect();
    assert_eq!(
        headlines,
        [
            "5:17: error: field A: tag \"k8s:beta\" can't be used in between",
            "8:6: warning: repeated tag +k8s:required (first at line 7): each copy runs and reports its errors again; remove the copy",
            "11:6: error: tag \"k8s:optional\" contradicts \"k8s:required\" (line 10): a field is either optional, required or forbidden",
            "14:2: error: field D: field with validation must have +k8s:optional, +k8s:required or +k8s:forbidden",
            "16:6: warning: unknown tag \"k8s:maxlength\" (did you mean \"k8s:maxLength\"?): validation-gen ignores it, so it validates nothing",
        ],
        "{}",
        run.transcript()
    );
    assert!(
        run.stderr
            .ends_with(": 5 findings (3 errors, 2 warnings)\n")
    );
}

#[test]
fn item_07_identical_findings_print_once_with_a_count() {
    let mut types = String::from("package p\n\ntype T struct {\n\t// +k8s:optional\n");
    for _ in 0..20_000 {
        types.push_str("\t// +k8s:maxLength=10\n");
    }
    types.push_str("\tN int32 `json:\"n\"`\n}\n");
    let pkg = Scratch::with_files(
        "repeats",
        &[("doc.go", DOC), ("types.go", types.as_bytes())],
    );
    let start = Instant::now();
    let run = kdv(&["lint", "--types", pkg.dir()]);
    let elapsed = start.elapsed();
    assert_eq!(run.code, 1, "{}", run.transcript());
    // One error (maxLength on an int32) and one warning (the repeats), each with its count.
    assert_eq!(run.stdout.matches(": error: ").count(), 1, "{}", run.stdout);
    assert_eq!(
        run.stdout.matches(": warning: ").count(),
        1,
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("  = note: reported 20000 times; also at "),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains(" and 19994 more\n"), "{}", run.stdout);
    assert!(run.stdout.contains("  = note: reported 19999 times; "));
    assert!(run.stdout.lines().count() < 20, "{}", run.stdout);
    assert!(
        run.stderr
            .ends_with(": 39999 findings (20000 errors, 19999 warnings)\n"),
        "{}",
        run.stderr
    );
    // Linear: well under the bound even in a debug build (it took 40 s when every span
    // searched its file for its line).
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
}

#[test]
fn item_14_go_problems_are_said_in_kdv_terms() {
    let types = br#"package p

import other "example.com/elsewhere"

type Box[T any] struct {
	Value T `json:"value"`
}

type Root struct {
	// +k8s:optional
	B *Box[string] `json:"b,omitempty"`
	// +k8s:optional
	C *A `json:"c,omitempty"`
	// +k8s:optional
	U *Undef `json:"u,omitempty"`
	// +k8s:optional
	Q *nowhere.Thing `json:"q,omitempty"`
	// +k8s:optional
	O *other.Thing `json:"o,omitempty"`
}

type A = B

type B = A
"#;
    let bad = b"package p\n\n// caf\xe9\ntype X struct{}\n";
    let pkg = Scratch::with_files(
        "go-wording",
        &[
            ("go.mod", b"module p\n\ngo 1.22\n"),
            ("doc.go", DOC),
            ("types.go", types),
            ("z.go", bad),
        ],
    );
    let run = kdv(&["lint", "--types", pkg.dir()]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    let dir = pkg.dir();
    let headlines: Vec<String> = run
        .stdout
        .lines()
        .filter(|l| l.contains(": error: ") || l.contains(": warning: "))
        .map(|l| l.replace(dir, "DIR"))
        .collect();
    let p = "example.com/elsewhere";
    assert_eq!(
        headlines,
        [
            "DIR/types.go:11:2: error: field p.Root.b (p.Box[...]): generic type p.Box is not supported by kdv: declarative validation types must be concrete".to_string(),
            "DIR/types.go:13:2: error: field p.Root.c (p.A): type alias cycle: p.A -> p.B -> p.A".to_string(),
            "DIR/types.go:15:2: error: field p.Root.u (p.Undef): undefined type Undef: package p declares no type Undef (is it declared in a file kdv skips, such as a _test.go file or one excluded by build constraints?)".to_string(),
            "DIR/types.go:17:2: warning: p.Root.q: type *nowhere.Thing is not validated: it is declared in package nowhere, which kdv did not load (kdv reads the Go module of the --types directory and its built-in declarations of well-known apimachinery packages); add +k8s:opaqueType to the field to skip it knowingly".to_string(),
            "DIR/types.go:17:5: error: undefined: nowhere (no import of this file is named nowhere)".to_string(),
            format!("DIR/types.go:19:2: warning: p.Root.o: type *{p}.Thing is not validated: it is declared in package {p}, which kdv did not load (kdv reads the Go module of the --types directory and its built-in declarations of well-known apimachinery packages); add +k8s:opaqueType to the field to skip it knowingly"),
            "DIR/z.go:3:7: error: invalid UTF-8 encoding".to_string(),
        ],
        "{}",
        run.transcript()
    );
    assert!(!run.stdout.contains("--readonly-pkg"));
    assert!(!run.stdout.contains("is not supported\n"));
}

#[test]
fn item_18_long_tag_lines_are_clipped_in_the_snippet() {
    // A 1.3 MB tag line whose bad value starts after multi-byte characters, with control
    // characters in it.
    let value = format!("{}\u{1b}[2J{}", "é".repeat(100), "x".repeat(1_300_000));
    let types = format!(
        "package p\n\ntype T struct {{\n\t// +k8s:optional\n\t// +k8s:format={value}\n\tS *string `json:\"s\"`\n}}\n"
    );
    let pkg = Scratch::with_files(
        "long-line",
        &[("doc.go", DOC), ("types.go", types.as_bytes())],
    );
    let run = kdv(&["lint", "--types", pkg.dir()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.len() < 4_000, "{} bytes", run.stdout.len());
    assert!(
        !run.stdout.contains('\u{1b}'),
        "control characters are escaped"
    );
    let lines: Vec<&str> = run.stdout.lines().collect();
    // The finding: the control character does not parse. Then the blank gutter line, the
    // clipped source line and the caret line.
    assert!(
        lines[0].ends_with("types.go:5:217: error: failed to parse tags: unexpected character '\\x1b' at position 112"),
        "{}",
        lines[0]
    );
    let source = lines[2];
    let caret = lines[3];
    assert!(source.starts_with("5 | …éé"), "{source}");
    assert!(source.ends_with("xx…"), "{source}");
    assert!(source.chars().count() <= 130, "{}", source.chars().count());
    // The caret sits under the escaped character, counted in characters, not bytes.
    let escape_at = source.find("\\u{1b}").expect("escaped");
    let escape_col = source[..escape_at].chars().count();
    let caret_col = caret.chars().position(|c| c == '^').expect("caret");
    assert_eq!(caret_col, escape_col, "\n{source}\n{caret}");
    assert_eq!(caret.matches('^').count(), "\\u{1b}".len());
}

#[test]
fn declarative_native_fields_must_use_stable_tags() {
    let types = br#"package p

type T struct {
	// +k8s:declarativeValidationNative
	// +k8s:optional
	// +k8s:neq="x"
	A string `json:"a"`
	// +k8s:declarativeValidationNative
	// +k8s:optional
	B *Inner `json:"b"`
	// +k8s:declarativeValidationNative
	// +k8s:optional
	// +k8s:maxLenght=3
	C string `json:"c"`
}

type Inner struct {
	// +k8s:optional
	// +k8s:beta=+k8s:maxLength=3
	Name string `json:"name"`
}
"#;
    let pkg = Scratch::with_files("native", &[("doc.go", DOC), ("types.go", types)]);
    let run = kdv(&["lint", "--types", pkg.dir()]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    let headlines: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains(": error: "))
        .map(|l| l.split_once("types.go:").map_or(l, |(_, rest)| rest))
        .collect();
    // Without a go.mod the package is named by its directory (a temporary one).
    let dir = pkg
        .path()
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("");
    let shown: Vec<String> = headlines.iter().map(|l| l.replace(dir, "<pkg>")).collect();
    assert_eq!(
        shown,
        [
            "6:6: error: field <pkg>.T.a: +k8s:declarativeValidationNative can only be used with stable validation tags, but found \"k8s:neq\" which is Alpha",
            // Upstream's stability lint says it too (an alpha tag in a stable version).
            "6:6: error: field A: tag \"k8s:neq\" with stability level \"Alpha\" cannot be used in Stable validation",
            "8:6: error: field <pkg>.T.b: is marked with +k8s:declarativeValidationNative but its type \"<pkg>.Inner\" contains non-stable validation tags",
            "13:6: error: field <pkg>.T.c: unknown validation tag \"k8s:maxLenght\" used with +k8s:declarativeValidationNative",
        ],
        "{}",
        run.transcript()
    );

    // In an alpha or beta API version, declarative-only rules may use non-stable tags.
    let beta = Scratch::with_files("v1beta1", &[("doc.go", DOC), ("types.go", types)]);
    let run = kdv(&["lint", "--types", beta.dir()]);
    assert!(
        !run.stdout
            .contains("can only be used with stable validation tags")
            && !run.stdout.contains("contains non-stable validation tags"),
        "{}",
        run.transcript()
    );
}

const EXTENSIONS_API: &str = "crates/kdv-cli/tests/fixtures/tags/extensions";

/// `kdv lint --upstream`: every kdv extension tag is an error (chained ones too), with the
/// seed section it comes from; without the flag the package lints clean but for the
/// older spellings' warnings.
#[test]
fn upstream_flags_every_kdv_extension() {
    let plain = kdv(&["lint", "--types", EXTENSIONS_API]);
    assert_eq!(plain.code, 0, "{}{}", plain.stdout, plain.stderr);
    assert!(
        plain
            .stderr
            .ends_with("extensions: 2 findings (0 errors, 2 warnings)\n"),
        "{}",
        plain.stderr
    );
    assert!(plain.stdout.contains(
        "types.go:77:6: warning: tag \"k8s:ifOptionEnabled\" is the design documents' older spelling of \"k8s:ifEnabled\""
    ));
    let run = kdv(&["lint", "--upstream", "--types", EXTENSIONS_API]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    for (at, tag) in [
        ("types.go:13:6", "k8s:pattern"),
        ("types.go:28:6", "k8s:exclusiveMinimum"),
        ("types.go:41:6", "k8s:exclusiveMaximum"),
        ("types.go:57:6", "k8s:ifSubresource"),
        ("types.go:68:6", "k8s:ifNotSubresource"),
        ("types.go:77:6", "k8s:ifOptionEnabled"),
        ("types.go:85:6", "k8s:ifOptionDisabled"),
    ] {
        let line = format!("{at}: error: tag \"{tag}\" is a kdv extension (");
        assert!(run.stdout.contains(&line), "{line}\n{}", run.stdout);
    }
    // The pattern chained under eachVal (folded with the other patterns).
    assert!(run.stdout.contains("types.go:19:19"), "{}", run.stdout);
    assert!(
        run.stderr
            .ends_with("extensions: 12 findings (10 errors, 2 warnings)\n"),
        "{}",
        run.stderr
    );
}

/// `kdv lint --upstream` reports each `constraint` argument of a limit (a kdv extension), at
/// the argument.
#[test]
fn upstream_flags_cross_field_constraints() {
    let run = kdv(&[
        "lint",
        "--upstream",
        "--types",
        "crates/kdv-cli/tests/fixtures/tags/crossfield",
    ]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    for (at, tag) in [
        ("types.go:16:18", "k8s:minimum"),
        ("types.go:17:18", "k8s:maximum"),
        ("types.go:36:20", "k8s:minLength"),
        ("types.go:37:20", "k8s:maxLength"),
        ("types.go:41:19", "k8s:minItems"),
        ("types.go:42:19", "k8s:maxItems"),
    ] {
        let line = format!(
            "{at}: error: tag \"{tag}\" with a constraint argument is a kdv extension (KEP-5073 \"Referencing Fields in Validation-Gen For Cross-Field Validation Rules\""
        );
        assert!(run.stdout.contains(&line), "{line}\n{}", run.stdout);
    }
    // The `eachVal` forms, at their payload's argument (grouped with the same message).
    for at in ["types.go:69:31", "types.go:73:33"] {
        assert!(run.stdout.contains(at), "{at}\n{}", run.stdout);
    }
}

/// `kdv lint --upstream` reports each item-level update constraint and comma list (a kdv
/// extension), at the `+k8s:update` tag.
#[test]
fn upstream_flags_item_update_constraints() {
    let run = kdv(&[
        "lint",
        "--upstream",
        "--types",
        "crates/kdv-cli/tests/fixtures/tags/itemupdates",
    ]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    for (at, form) in [
        ("types.go:23:34", "NoSet"),
        ("types.go:25:34", "NoClear"),
        ("types.go:26:32", "NoUnset,NoModify"),
    ] {
        let line = format!(
            "{at}: error: tag \"k8s:update={form}\" below +k8s:item is a kdv extension (KEP-5073 \"Item-Level Constraints\""
        );
        assert!(run.stdout.contains(&line), "{line}\n{}", run.stdout);
    }
    // Upstream's own form below +k8s:item is not reported.
    assert!(!run.stdout.contains("types.go:24:"), "{}", run.stdout);
}

/// Misuse of the item-level forms, at the tag's value, with upstream's texts where upstream
/// has the case.
#[test]
fn item_update_misuse_is_reported_at_the_tag() {
    let types = r#"package p

type T struct {
	// +k8s:listType=map
	// +k8s:listMapKey=type
	// +k8s:item(type: "A")=+k8s:update=NoAddItem
	// +k8s:eachVal=+k8s:update=NoSet
	// +k8s:item(type: "B")=+k8s:update="NoSet,NoBogus"
	L []C `json:"l"`
	// +k8s:update=NoClear
	S string `json:"s"`
}

type C struct {
	Type string `json:"type"`
}
"#;
    let pkg = Scratch::with_files(
        "itemupdate",
        &[("doc.go", DOC), ("types.go", types.as_bytes())],
    );
    let run = kdv(&["lint", "--types", pkg.dir()]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    for line in [
        "types.go:6:38: error: tag \"k8s:item\": tag \"k8s:update\": +k8s:update=NoAddItem does not apply to list values, attach it to the enclosing field",
        "types.go:7:30: error: tag \"k8s:eachVal\": tag \"k8s:update\": +k8s:update=NoSet does not apply to list values, attach it to the enclosing field",
        "types.go:8:38: error: tag \"k8s:item\": tag \"k8s:update\": unknown +k8s:update constraint: NoBogus",
        "types.go:10:17: error: tag \"k8s:update\": unknown +k8s:update constraint: NoClear",
    ] {
        assert!(run.stdout.contains(line), "{line}\n{}", run.stdout);
    }
}

#[test]
fn validation_rules_are_checked_as_the_api_server_checks_crd_rules() {
    // The seed's (KEP-4153) examples as written, and misuse of the tag's syntax: each an
    // error at the rule (or at the offending part of the line).
    let types = br#"package p

// +validationRule="!self.widgetType == 'Component' || !['badname2', 'badname2'].exists(notAllowed, self.componentName.contains(notAllowed))",reason=Forbidden
type FizzBuzzSpec struct {
	Type          string `json:"widgetType"`
	ComponentName string `json:"componentName"`
}

type ExampleSpec struct {
	// +validationRule="!has(self.name) || self.name.isFormat('dns1123subdomain')",field="name"
	Meta Meta `json:"metadata"`
	// +k8s:optional
	// +validationRule="!has(self.RestartPolicy)"
	Containers []Meta `json:"containers"`
	// +validationRule="self >= oldSelf",messageExpression="'may not decrease from ' + string(oldSelf)"
	Replicas int32 `json:"replicas"`
	// +validationRule="self > 0",reason=RequestEntityTooLarge
	A int32 `json:"a"`
	// +validationRule="self > 0",field="nosuch"
	B int32 `json:"b"`
	// +validationRule="self > 0" message="m"
	C int32 `json:"c"`
}

type Meta struct {
	// +k8s:optional
	// +k8s:maxLength=253
	Name string `json:"name"`
}
"#;
    let pkg = Scratch::with_files("cel", &[("doc.go", DOC), ("types.go", types)]);
    let run = kdv(&["lint", "--types", pkg.dir()]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    let headlines: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains(": error: ") || l.contains(": warning: "))
        .map(|l| l.split_once("types.go:").map_or(l, |(_, rest)| rest))
        .collect();
    assert_eq!(
        headlines,
        [
            "3:21: error: +validationRule: the API server would refuse this rule: rule: compilation failed: ERROR: <input>:1:1: found no matching overload for '!_' applied to '(string)'",
            "10:59: error: +validationRule: the API server would refuse this rule: rule: compilation failed: ERROR: <input>:1:38: undeclared reference to 'isFormat' (in container '')",
            "13:26: error: +validationRule: the API server would refuse this rule: rule: compilation failed: ERROR: <input>:1:5: type 'list(selfType0.@idx)' does not support field selection",
            "15:21: error: +validationRule: the API server would refuse this rule: messageExpression: estimated messageExpression cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
            "17:39: error: +validationRule: reason RequestEntityTooLarge cannot be published: x-kubernetes-validations reasons are FieldValueInvalid, FieldValueForbidden, FieldValueRequired and FieldValueDuplicate (write reason=Invalid, Forbidden or Required)",
            "19:21: error: +validationRule: the API server would refuse this rule: fieldPath: must be a valid path",
            "21:32: error: +validationRule: unexpected \"m\" after the rule: options follow as ,name=value",
        ],
        "{}",
        run.transcript()
    );
    // Valid rules are kdv extensions: `--upstream` reports each.
    let valid = br#"package p

// +validationRule="self.a > 0"
type T struct {
	A int32 `json:"a"`
}
"#;
    let pkg = Scratch::with_files("cel-upstream", &[("doc.go", DOC), ("types.go", valid)]);
    let run = kdv(&["lint", "--types", pkg.dir()]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let run = kdv(&["lint", "--upstream", "--types", pkg.dir()]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert!(
        run.stdout.contains("types.go:3:5: error: tag \"validationRule\" is a kdv extension (KEP-4153 \"CEL Validation\", \"Unions\", \"IDL tags\"): upstream validation-gen does not have it"),
        "{}",
        run.transcript()
    );
}

const DRIFT_V1: &str = "crates/kdv-cli/tests/fixtures/drift/v1";
const DRIFT_V1BETA1: &str = "crates/kdv-cli/tests/fixtures/drift/v1beta1";

/// Issue 22 item 7: two versions of one group in one run report each field whose tags
/// differ, at each version's field; `+kdv:allow-drift` silences `mode`; the one-deep
/// typedef chain `type Alias Short` is reported at Alias. Exact output.
#[test]
fn version_drift_and_typedef_chains_are_reported() {
    let run = kdv(&["lint", "--types", DRIFT_V1, "--types", DRIFT_V1BETA1]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let expected = r#"crates/kdv-cli/tests/fixtures/drift/v1/types.go:19:2: warning: field WidgetSpec.replicas: validation tags differ between versions of group drift.kdv.test: v1 has +k8s:minimum=1, v1beta1 has +k8s:minimum=0; make them agree, or mark the intended difference with +kdv:allow-drift on the field or its type
   |
19 | 	Replicas *int32 `json:"replicas,omitempty"`
   | 	^^^^^^^^

crates/kdv-cli/tests/fixtures/drift/v1/types.go:22:2: warning: field WidgetSpec.size: validation tags differ between versions of group drift.kdv.test: v1 has +k8s:maxLength=10, v1beta1 has nothing; make them agree, or mark the intended difference with +kdv:allow-drift on the field or its type
   |
22 | 	Size string `json:"size,omitempty"`
   | 	^^^^

crates/kdv-cli/tests/fixtures/drift/v1/types.go:49:6: warning: type Alias is defined as Short, whose rules +k8s:maxLength=8 do not apply to Alias: Go records Alias -> Short's underlying type, not the chain through Short (KEP-5073 "one-deep typedef"); repeat the tags on Alias, or use Short itself
   |
49 | type Alias Short
   |      ^^^^^

crates/kdv-cli/tests/fixtures/drift/v1beta1/types.go:19:2: warning: field WidgetSpec.replicas: validation tags differ between versions of group drift.kdv.test: v1beta1 has +k8s:minimum=0, v1 has +k8s:minimum=1; make them agree, or mark the intended difference with +kdv:allow-drift on the field or its type
   |
19 | 	Replicas *int32 `json:"replicas,omitempty"`
   | 	^^^^^^^^

crates/kdv-cli/tests/fixtures/drift/v1beta1/types.go:21:2: warning: field WidgetSpec.size: validation tags differ between versions of group drift.kdv.test: v1beta1 has nothing, v1 has +k8s:maxLength=10; make them agree, or mark the intended difference with +kdv:allow-drift on the field or its type
   |
21 | 	Size string `json:"size,omitempty"`
   | 	^^^^

"#;
    assert_eq!(run.stdout, expected);
    assert_eq!(
        run.stderr,
        format!("{DRIFT_V1}, {DRIFT_V1BETA1}: 5 findings (0 errors, 5 warnings)\n")
    );
    // Warnings fail under --deny warnings; one version alone has no drift.
    let denied = kdv(&[
        "lint",
        "--deny",
        "warnings",
        "--types",
        DRIFT_V1,
        "--types",
        DRIFT_V1BETA1,
    ]);
    assert_eq!(denied.code, 1);
    let alone = kdv(&["lint", "--types", DRIFT_V1BETA1]);
    assert_eq!(alone.code, 0);
    assert_eq!(alone.stdout, "");
}

/// Issue 22 item 5: the tri-state rule and defaults checked against their fields' rules
/// (both spellings), each an error at the tag.
#[test]
fn defaults_misuse_is_reported_at_the_tag() {
    let src = b"package p

// +k8s:enum
type Policy string

const (
	PolicyAlways Policy = \"Always\"
)

type T struct {
	// +k8s:optional
	// +default=0
	// +k8s:minimum=1
	A int32 `json:\"a,omitempty\"`
	// +k8s:default=0
	// +k8s:minimum=1
	B int32 `json:\"b,omitempty\"`
	// +k8s:default=\"Sometimes\"
	C Policy `json:\"c,omitempty\"`
	// +k8s:default=\"abc\"
	D *int32 `json:\"d,omitempty\"`
	// +k8s:default=3000000000
	E *int32 `json:\"e,omitempty\"`
	// +k8s:optional
	// +k8s:default=1
	G *int32 `json:\"g,omitempty\"`
	// +k8s:default=1
	// +default=2
	H *int32 `json:\"h,omitempty\"`
	// +k8s:default=nope
	J *int32 `json:\"j,omitempty\"`
	// +k8s:required
	// +k8s:default=1
	K *int32 `json:\"k,omitempty\"`
	// +k8s:default={\"a\": 1}
	// +k8s:eachVal=+k8s:minimum=2
	L map[string]int32 `json:\"l,omitempty\"`
}
";
    let pkg = Scratch::with_files("defaults", &[("doc.go", DOC), ("types.go", src)]);
    let run = kdv(&["lint", "--types", pkg.dir()]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    let lines: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains(": error: ") || l.contains(": warning: "))
        .map(|l| l.split_once("types.go:").map_or(l, |(_, rest)| rest))
        .collect();
    assert_eq!(
        lines,
        [
            "12:6: error: field T.A: the default 0 fails the field's own rules: a: Invalid value: 0: must be greater than or equal to 1",
            "15:6: error: field T.B: the default 0 fails the field's own rules: b: Invalid value: 0: must be greater than or equal to 1",
            "18:6: error: field T.C: the default \"Sometimes\" fails the field's own rules: c: Unsupported value: \"Sometimes\": supported values: \"Always\"",
            "20:6: error: field T.D: the default \"abc\" fails the field's own rules: d: Invalid value: \"abc\": expected integer, got string",
            "22:6: error: field T.E: the default 3000000000 fails the field's own rules: e: Invalid value: 3000000000: expected integer in range [-2147483648, 2147483647], got 3000000000",
            "25:6: error: tag \"k8s:default\" contradicts \"k8s:optional\" (line 24): +k8s:optional, +k8s:default and +k8s:required are mutually exclusive (a defaulted field is set once defaulted), and a forbidden field has no default",
            "28:6: error: tag \"default\" and \"k8s:default\" (line 27) both give the field a default: keep one",
            "30:18: error: tag \"k8s:default\": failed to parse default value \"nope\": expected ident at line 1 column 2",
            "33:6: error: tag \"k8s:default\" contradicts \"k8s:required\" (line 32): +k8s:optional, +k8s:default and +k8s:required are mutually exclusive (a defaulted field is set once defaulted), and a forbidden field has no default",
            "35:6: error: field T.L: the default {\"a\":1} fails the field's own rules: l[a]: Invalid value: 1: must be greater than or equal to 2",
        ],
        "{}",
        run.transcript()
    );
}

#[test]
fn kdv_cel_libraries_are_for_type_rules_only() {
    // KEP-4153's UTF-8 and selector functions (kdv extensions) compile in a `+validationRule`
    // on a type; the CRD kdv emits for it publishes the rule verbatim, and the API server's
    // CRD checks (`kdv lint --crd`) refuse it as they refuse any undeclared function.
    let types = br#"package p

type Widget struct {
	Spec WidgetSpec `json:"spec"`
}

// +validationRule="self.title.isPrint() && !self.title.containsControl()",message="title must be printable"
// +validationRule="!has(self.selector) || isLabelSelector(self.selector)",message="selector must be a label selector"
// +validationRule="!has(self.version) || isSemver(self.version)",message="version must be a semantic version"
type WidgetSpec struct {
	// +k8s:required
	// +k8s:maxLength=64
	Title string `json:"title"`
	// +k8s:optional
	// +k8s:maxLength=128
	Selector string `json:"selector,omitempty"`
	// +k8s:optional
	// +k8s:maxLength=32
	Version string `json:"version,omitempty"`
}
"#;
    let pkg = Scratch::with_files(
        "cel-kdv-libs",
        &[
            ("doc.go", b"// +groupName=example.com\npackage p\n" as &[u8]),
            ("types.go", types),
        ],
    );
    let run = kdv(&["lint", "--types", pkg.dir()]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let bad = pkg.path().join("bad.yaml");
    std::fs::write(
        &bad,
        "apiVersion: example.com/v1\nkind: Widget\nspec:\n  title: \"a\\tb\"\n  selector: \"a in b\"\n  version: \"1.2.3\"\n",
    )
    .unwrap();
    let bad = bad.to_str().unwrap();
    let run = kdv(&["validate", "--types", pkg.dir(), "--type", "Widget", bad]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    let errors: Vec<&str> = run
        .stdout
        .lines()
        .filter_map(|l| l.split_once("bad.yaml:").map(|(_, rest)| rest))
        .filter(|l| l.contains("spec"))
        .collect();
    assert_eq!(
        errors,
        [
            "4:3: spec: Invalid value: title must be printable",
            "4:3: spec: Invalid value: selector must be a label selector",
        ],
        "{}",
        run.transcript()
    );
    // The release selected: `isSemver` is in the stored environment from 1.33.
    let run = kdv(&[
        "validate",
        "--types",
        pkg.dir(),
        "--type",
        "Widget",
        "--k8s-version",
        "1.32",
        bad,
    ]);
    assert!(
        run.stdout.contains("undeclared reference to 'isSemver'"),
        "{}",
        run.transcript()
    );
    // The emitted CRD leaves the rules using kdv's functions out (the API server would
    // refuse them), each with a note at its tag; what it publishes passes the CRD checks.
    let crd = kdv(&[
        "schema",
        "--types",
        pkg.dir(),
        "Widget",
        "--crd",
        "--group",
        "example.com",
        "-o",
        "yaml",
    ]);
    assert_eq!(crd.code, 0, "{}", crd.transcript());
    assert!(
        crd.stdout
            .contains("rule: \"!has(self.version) || isSemver(self.version)\"")
    );
    assert!(!crd.stdout.contains("isPrint"), "{}", crd.transcript());
    assert!(
        crd.stderr.contains("types.go:7:5: spec: +validationRule: the CEL rule `self.title.isPrint() && !self.title.containsControl()` is not published: the API server would refuse it (compilation failed: ERROR: <input>:1:19: undeclared reference to 'isPrint' (in container '')"),
        "{}",
        crd.transcript()
    );
    assert!(
        crd.stderr
            .contains("undeclared reference to 'isLabelSelector'"),
        "{}",
        crd.transcript()
    );
    let crd_path = pkg.path().join("crd.yaml");
    std::fs::write(&crd_path, &crd.stdout).unwrap();
    let lint = kdv(&["lint", "--crd", crd_path.to_str().unwrap()]);
    assert_eq!(lint.code, 0, "{}", lint.transcript());
}

#[test]
fn virtual_field_groups_are_checked_at_their_tags() {
    // Undeclared, empty and cross-type groups, members and group tags where they cannot be:
    // each an error at the tag.
    let types = br#"package p

type A struct {
	// +k8s:optional
	// +k8s:memberOf(group: g)
	X *string `json:"x,omitempty"`
	// +k8s:optional
	// +k8s:memberOf(group: elsewhere)
	Y *string `json:"y,omitempty"`
	// +k8s:optional
	// +k8s:eachVal=+k8s:memberOf(group: g)
	Z []string `json:"z,omitempty"`
	// +k8s:optional
	// +k8s:union(union: g)
	W *string `json:"w,omitempty"`
	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=type
	// +k8s:zeroOrOneOf(union: empty)
	// +k8s:listMapItem(type: "a")=+k8s:memberOf(group: other)
	L []C `json:"l,omitempty"`
}

// +k8s:union(union: elsewhere)
type B struct {
	// +k8s:optional
	// +k8s:memberOf(group: elsewhere)
	V *string `json:"v,omitempty"`
}

type C struct {
	Type string `json:"type"`
}
"#;
    let pkg = Scratch::with_files("virtual", &[("doc.go", DOC), ("types.go", types)]);
    let run = kdv(&["lint", "--types", pkg.dir()]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    let headlines: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains(": error: ") || l.contains(": warning: "))
        .map(|l| l.split_once("types.go:").map_or(l, |(_, rest)| rest))
        .collect();
    assert_eq!(
        headlines,
        [
            "5:6: error: group \"g\" is not declared at A: write +k8s:union(union: g) or +k8s:zeroOrOneOf(union: g) on the struct type declaring this field",
            "8:6: error: group \"elsewhere\" is not declared at A: write +k8s:union(union: elsewhere) or +k8s:zeroOrOneOf(union: elsewhere) on the struct type declaring this field (a group of that name is declared at B: virtual groups are not shared across types or kinds)",
            "11:19: error: tag \"k8s:eachVal\": tag \"k8s:memberOf\": can only be used on struct fields and on list-map items (after +k8s:listMapItem or +k8s:item)",
            "14:6: error: tag \"k8s:union\": can only be used on struct types (members: their fields) and list fields (members: their items)",
            "19:6: error: group \"empty\" has no members: put fields or list-map items into it with +k8s:memberOf(group: empty)",
            "20:34: error: group \"other\" is not declared at A.l: write +k8s:union(union: other) or +k8s:zeroOrOneOf(union: other) on the list field",
        ],
        "{}",
        run.transcript()
    );
    // Each virtual-field tag is a kdv extension: `--upstream` reports every use.
    let run = kdv(&[
        "lint",
        "--upstream",
        "--types",
        "crates/kdv-cli/tests/fixtures/tags/virtual",
    ]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert!(
        run.stderr
            .ends_with("virtual: 21 findings (21 errors, 0 warnings)\n"),
        "{}",
        run.transcript()
    );
    for tag in ["union", "zeroOrOneOf", "listMapItem", "memberOf"] {
        assert!(
            run.stdout.contains(&format!(
                "error: tag \"k8s:{tag}\" is a kdv extension (KEP-5073 \"Virtual Field Strategy\"): upstream validation-gen does not have it"
            )),
            "{}",
            run.transcript()
        );
    }
}
