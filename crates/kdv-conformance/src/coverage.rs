//! Coverage tests (spec §10.7): in packages with `+k8s:validation-gen-test-targets`, every
//! rule the generator declares for a root type must be observed by some validation the
//! package's tests run.
//!
//! Declared rules come from `kdv_rules::emissions` (per root of the package, with the GVK
//! `(package path, package name, type name)` the tests observe under). Observed rules are
//! the errors of every scheme validation the tests and the fixture run, keyed by the GVK of
//! the validated value's type, with every `[...]` subscript written `[*]` and the nil path
//! `<nil>` written `""`. The case also compares the declared rules with those upstream's
//! generated `zz_generated.validations_coverage_test.go` registers, so that a rule kdv fails
//! to declare is noticed too.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::LazyLock;

use kdv_rules::emissions::{EmissionTable, declared_rules_with};
use kdv_rules::{RuleSet, TypeId};
use kdv_runtime::FieldError;
use regex::Regex;

use crate::parser::parse_file;
use crate::syntax::{Element, Expr, ExprKind, Stmt};

/// Group, version and kind of a validated type, as upstream's test scheme records them.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Gvk {
    /// The Go package path of the type.
    pub group: String,
    /// The Go package name.
    pub version: String,
    /// The type name.
    pub kind: String,
}

impl std::fmt::Display for Gvk {
    /// `group/version, Kind=kind` (Go's `GroupVersionKind.String()`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.group.is_empty() {
            write!(f, "{}, Kind={}", self.version, self.kind)
        } else {
            write!(f, "{}/{}, Kind={}", self.group, self.version, self.kind)
        }
    }
}

/// A declared or observed rule: path pattern, error type and origin.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rule {
    /// Path pattern (`items[*].name`; `""` for the root).
    pub path: String,
    /// `FieldValueInvalid`, ...
    pub error_type: String,
    /// Origin, empty for none.
    pub origin: String,
}

/// Rules by GVK.
pub type RulesByGvk = BTreeMap<Gvk, BTreeSet<Rule>>;

/// Runtime subscripts (`[0]`, `[my-key]`) as upstream's coverage package matches them.
static SUBSCRIPT: LazyLock<Regex> = LazyLock::new(|| {
    // A constant pattern: compiling it cannot fail.
    Regex::new(r"\[[^\]]+\]").expect("valid regex")
});

/// The path pattern of an observed error path: every `[...]` becomes `[*]`, `<nil>` is `""`.
pub fn observed_path(field: &str) -> String {
    if field == "<nil>" {
        return String::new();
    }
    SUBSCRIPT.replace_all(field, "[*]").into_owned()
}

/// The rules observed by a package's validations.
#[derive(Debug, Clone, Default)]
pub struct Observed {
    rules: RulesByGvk,
}

impl Observed {
    /// Records the errors of one validation of a value of type `gvk`.
    pub fn record(&mut self, gvk: &Gvk, errs: &[FieldError]) {
        if errs.is_empty() {
            return;
        }
        let set = self.rules.entry(gvk.clone()).or_default();
        for e in errs {
            set.insert(Rule {
                path: observed_path(&e.field.to_string()),
                error_type: e.error_type.as_str().to_string(),
                origin: e.origin.to_string(),
            });
        }
    }

    /// Adds everything `other` observed.
    pub fn merge(&mut self, other: Observed) {
        for (gvk, rules) in other.rules {
            self.rules.entry(gvk).or_default().extend(rules);
        }
    }

    /// Whether `rule` was observed for `gvk`.
    pub fn contains(&self, gvk: &Gvk, rule: &Rule) -> bool {
        self.rules.get(gvk).is_some_and(|s| s.contains(rule))
    }
}

/// The rules declared for `roots` (each with its GVK), with the emissions of `table`.
/// Roots that declare nothing are left out, as upstream registers no rules for them.
/// Returns an error when a walk was cut short by kdv-rules' limits.
pub fn declared(
    rules: &RuleSet,
    roots: &[(Gvk, TypeId)],
    table: &EmissionTable,
) -> Result<RulesByGvk, String> {
    let mut out = RulesByGvk::new();
    for (gvk, id) in roots {
        let d = declared_rules_with(rules, *id, table);
        if !d.complete {
            return Err(format!(
                "declared rules of {gvk} exceed kdv-rules' walk limits"
            ));
        }
        let set: BTreeSet<Rule> = d
            .rules
            .into_iter()
            .map(|r| Rule {
                path: r.path,
                error_type: r.error_type.as_str().to_string(),
                origin: r.origin,
            })
            .collect();
        if !set.is_empty() {
            out.entry(gvk.clone()).or_default().extend(set);
        }
    }
    Ok(out)
}

/// The declared rules that were never observed, sorted by GVK, path, type and origin.
pub fn uncovered(declared: &RulesByGvk, observed: &Observed) -> Vec<(Gvk, Rule)> {
    declared
        .iter()
        .flat_map(|(gvk, rules)| rules.iter().map(move |r| (gvk, r)))
        .filter(|(gvk, r)| !observed.contains(gvk, r))
        .map(|(gvk, r)| (gvk.clone(), r.clone()))
        .collect()
}

/// Upstream's failure message: `<n> uncovered declarative-validation rules:` and, per GVK,
/// one line per rule.
pub fn render_uncovered(list: &[(Gvk, Rule)]) -> String {
    let mut out = format!("{} uncovered declarative-validation rules:\n", list.len());
    let mut last: Option<&Gvk> = None;
    for (gvk, rule) in list {
        if last != Some(gvk) {
            let _ = writeln!(out, "{gvk}:");
            last = Some(gvk);
        }
        let _ = writeln!(out, "  {}", render_rule(rule));
    }
    out
}

/// `path  ErrorType origin="..."`.
pub fn render_rule(rule: &Rule) -> String {
    if rule.origin.is_empty() {
        format!("{}  {}", rule.path, rule.error_type)
    } else {
        format!(
            "{}  {} origin={:?}",
            rule.path, rule.error_type, rule.origin
        )
    }
}

/// Renders rules by GVK, one rule per line under its GVK.
pub fn render_rules(rules: &RulesByGvk) -> String {
    let mut out = String::new();
    for (gvk, set) in rules {
        let _ = writeln!(out, "{gvk}:");
        for r in set {
            let _ = writeln!(out, "  {}", render_rule(r));
        }
    }
    out
}

/// The rules a generated coverage test file registers (`coverage.RegisterDeclaredRules(gvk,
/// coverage.FieldRules{...})` in `init` functions).
pub fn parse_generated(text: &str) -> Result<RulesByGvk, String> {
    let parsed = parse_file(text);
    if let Some(e) = parsed.errors.first() {
        return Err(format!("line {}: {}", e.line, e.message));
    }
    if let Some((name, e)) = parsed.broken.first() {
        return Err(format!("{name}: line {}: {}", e.line, e.message));
    }
    let mut out = RulesByGvk::new();
    for f in parsed.file.funcs.iter().filter(|f| f.name == "init") {
        for stmt in &f.body {
            let Stmt::Expr(Expr {
                kind: ExprKind::Call { fun, args, .. },
                line,
            }) = stmt
            else {
                continue;
            };
            if !matches!(&fun.kind, ExprKind::Selector(_, n) if n == "RegisterDeclaredRules") {
                continue;
            }
            let [gvk, rules] = args.as_slice() else {
                return Err(format!(
                    "line {line}: RegisterDeclaredRules needs 2 arguments"
                ));
            };
            let fields = string_fields(gvk)?;
            let get = |k: &str| fields.get(k).cloned().unwrap_or_default();
            let gvk = Gvk {
                group: get("Group"),
                version: get("Version"),
                kind: get("Kind"),
            };
            let set = out.entry(gvk).or_default();
            for (path, list) in keyed_elements(rules)? {
                let ExprKind::Composite { elems, .. } = &list.kind else {
                    return Err(format!("line {}: rule list is not a literal", list.line));
                };
                for e in elems {
                    let r = string_fields(&e.value)?;
                    set.insert(Rule {
                        path: path.clone(),
                        error_type: r.get("ErrorType").cloned().unwrap_or_default(),
                        origin: r.get("Origin").cloned().unwrap_or_default(),
                    });
                }
            }
        }
    }
    Ok(out)
}

/// `{Name: "value", ...}` → name → value.
fn string_fields(e: &Expr) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    for (k, v) in keyed_elements(e)? {
        let ExprKind::Str(s) = &v.kind else {
            return Err(format!("line {}: {k} is not a string literal", v.line));
        };
        out.insert(k, s.clone());
    }
    Ok(out)
}

/// The `key: value` elements of a composite literal whose keys are identifiers or strings.
fn keyed_elements(e: &Expr) -> Result<Vec<(String, &Expr)>, String> {
    let ExprKind::Composite { elems, .. } = &e.kind else {
        return Err(format!("line {}: not a composite literal", e.line));
    };
    elems
        .iter()
        .map(
            |Element { key, value }| match key.as_ref().map(|k| &k.kind) {
                Some(ExprKind::Ident(k) | ExprKind::Str(k)) => Ok((k.clone(), value)),
                _ => Err(format!("line {}: element without a name key", value.line)),
            },
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kdv_runtime::{BadValue, PathRef};

    fn gvk(kind: &str) -> Gvk {
        Gvk {
            group: "example.com/p".into(),
            version: "p".into(),
            kind: kind.into(),
        }
    }

    fn rule(path: &str, ty: &str, origin: &str) -> Rule {
        Rule {
            path: path.into(),
            error_type: ty.into(),
            origin: origin.into(),
        }
    }

    #[test]
    fn observed_paths_are_patterns() {
        assert_eq!(observed_path("<nil>"), "");
        assert_eq!(observed_path("a[0].b[x y][1]"), "a[*].b[*][*]");
        assert_eq!(observed_path("m[]"), "m[]");
        assert_eq!(observed_path("a.b"), "a.b");
    }

    #[test]
    fn observation_and_uncovered_rendering() {
        let root = PathRef::Nil;
        let items = root.child("items");
        let item = items.index(3);
        let mut e1 = FieldError::invalid(&item, BadValue::Null, "forced failure: x");
        e1.origin = "validateFalse".into();
        let e2 = FieldError::required(&root, "");
        let mut observed = Observed::default();
        observed.record(&gvk("T"), &[e1, e2]);
        assert!(observed.contains(
            &gvk("T"),
            &rule("items[*]", "FieldValueInvalid", "validateFalse")
        ));
        assert!(observed.contains(&gvk("T"), &rule("", "FieldValueRequired", "")));
        assert!(!observed.contains(&gvk("U"), &rule("", "FieldValueRequired", "")));

        let mut declared = RulesByGvk::new();
        declared.entry(gvk("T")).or_default().extend([
            rule("items[*]", "FieldValueInvalid", "validateFalse"),
            rule("name", "FieldValueInvalid", "format=k8s-short-name"),
            rule("", "FieldValueRequired", ""),
        ]);
        declared
            .entry(gvk("U"))
            .or_default()
            .insert(rule("", "FieldValueRequired", ""));
        let missing = uncovered(&declared, &observed);
        assert_eq!(
            render_uncovered(&missing),
            "2 uncovered declarative-validation rules:\n\
             example.com/p/p, Kind=T:\n  name  FieldValueInvalid origin=\"format=k8s-short-name\"\n\
             example.com/p/p, Kind=U:\n    FieldValueRequired\n"
        );
    }

    #[test]
    fn generated_files_parse() {
        let text = r#"package p

import coverage "k8s.io/apimachinery/pkg/test/coverage"

func init() {
	coverage.RegisterDeclaredRules(
		schema.GroupVersionKind{Group: "example.com/p", Version: "p", Kind: "T"},
		coverage.FieldRules{
			"": {
				{ErrorType: "FieldValueRequired"},
			},
			"a[*]": {
				{ErrorType: "FieldValueInvalid", Origin: "validateFalse"},
				{ErrorType: "FieldValueInvalid", Origin: "validateFalse"},
			},
		},
	)
}

func TestMain(m *testing.M) {}
"#;
        let got = parse_generated(text).unwrap();
        let mut want = RulesByGvk::new();
        want.entry(gvk("T")).or_default().extend([
            rule("", "FieldValueRequired", ""),
            rule("a[*]", "FieldValueInvalid", "validateFalse"),
        ]);
        assert_eq!(got, want);
        assert!(
            parse_generated("package p\nfunc init() { coverage.RegisterDeclaredRules(1) }\n")
                .is_err()
        );
    }

    /// A package of a fake code-generator checkout with a coverage test, run through the
    /// harness with `table`; returns the outcome of its `#coverage` case.
    fn run_fake_package(
        name: &str,
        test_body: &str,
        table: Option<fn(&kdv_rules::Validation) -> Vec<kdv_rules::Emission>>,
    ) -> crate::Outcome {
        let scratch = kdv_test_support::Scratch::new(&format!("coverage-{name}"));
        let root = scratch.path();
        let dir = root.join("cmd/validation-gen/output_tests/covered");
        std::fs::create_dir_all(&dir).unwrap();
        let files = [
            (root.join("go.mod"), "module k8s.io/code-generator\n\ngo 1.24\n".to_string()),
            (
                dir.join("doc.go"),
                r#"// +k8s:validation-gen=*
// +k8s:validation-gen-scheme-registry=k8s.io/code-generator/cmd/validation-gen/testscheme.Scheme
// +k8s:validation-gen-test-targets
package covered

import "k8s.io/code-generator/cmd/validation-gen/testscheme"

var localSchemeBuilder = testscheme.New()

type Box struct {
	// +k8s:validateFalse="name"
	Name string `json:"name"`
	// +k8s:eachVal=+k8s:validateFalse="item"
	Items []string `json:"items"`
}
"#
                .to_string(),
            ),
            (
                dir.join("doc_test.go"),
                format!(
                    "package covered\n\nimport \"testing\"\n\nfunc TestBox(t *testing.T) {{\n\tst := localSchemeBuilder.Test(t)\n{test_body}\n}}\n"
                ),
            ),
            (
                dir.join("zz_generated.validations_coverage_test.go"),
                r#"package covered

func init() {
	coverage.RegisterDeclaredRules(
		schema.GroupVersionKind{Group: "k8s.io/code-generator/cmd/validation-gen/output_tests/covered", Version: "covered", Kind: "Box"},
		coverage.FieldRules{
			"items[*]": {
				{ErrorType: "FieldValueInvalid", Origin: "validateFalse"},
			},
			"name": {
				{ErrorType: "FieldValueInvalid", Origin: "validateFalse"},
			},
		},
	)
}
"#
                .to_string(),
            ),
        ];
        for (path, text) in files {
            std::fs::write(path, text).unwrap();
        }
        let options = crate::RunOptions {
            package_filter: None,
            emission_table: table,
        };
        let report = crate::run_validation_gen(root, &options);
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        let case = report
            .packages
            .iter()
            .flat_map(|p| &p.cases)
            .find(|c| c.id == "covered#coverage")
            .unwrap_or_else(|| panic!("no coverage case: {report:?}"));
        case.outcome.clone()
    }

    const FULL_TEST: &str = r#"	st.Value(&Box{Items: []string{"a", "b"}}).ExpectValidateFalseByPath(map[string][]string{
		"name":     {"name"},
		"items[0]": {"item"},
		"items[1]": {"item"},
	})"#;

    fn failure(outcome: crate::Outcome) -> crate::CaseFailure {
        match outcome {
            crate::Outcome::Failed(f) => f,
            other => panic!("expected a failure, got {other:?}"),
        }
    }

    #[test]
    fn coverage_case_passes_when_every_rule_is_observed() {
        assert_eq!(
            run_fake_package("pass", FULL_TEST, None),
            crate::Outcome::Passed
        );
    }

    #[test]
    fn coverage_case_reports_uncovered_rules() {
        let test = r#"	st.Value(&Box{}).ExpectValidateFalseByPath(map[string][]string{
		"name": {"name"},
	})"#;
        let f = failure(run_fake_package("uncovered", test, None));
        assert_eq!(
            f.reason,
            "1 uncovered declarative-validation rules:\n\
             k8s.io/code-generator/cmd/validation-gen/output_tests/covered/covered, Kind=Box:\n  \
             items[*]  FieldValueInvalid origin=\"validateFalse\""
        );
    }

    #[test]
    fn a_wrong_emission_table_fails_the_coverage_case() {
        use kdv_rules::Emission;
        use kdv_rules::emissions::attached;
        // validateFalse declared with the wrong error type.
        fn wrong_type(v: &kdv_rules::Validation) -> Vec<Emission> {
            match v.check {
                kdv_rules::Check::Fixed { pass: false, .. } => vec![Emission::at_path(
                    kdv_runtime::ErrorType::Forbidden,
                    "validateFalse",
                )],
                _ => attached(v),
            }
        }
        // Nothing declared at all: coverage alone would pass vacuously.
        fn nothing(_: &kdv_rules::Validation) -> Vec<Emission> {
            Vec::new()
        }
        for (name, table) in [
            (
                "wrong-type",
                wrong_type as fn(&kdv_rules::Validation) -> Vec<Emission>,
            ),
            ("nothing", nothing),
        ] {
            let f = failure(run_fake_package(name, FULL_TEST, Some(table)));
            assert_eq!(
                f.cause, "coverage: declared rules differ from upstream's",
                "{name}"
            );
        }
    }
}
