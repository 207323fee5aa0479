//! Declared emissions (spec §10.7): which errors a type's validation can report, as rules
//! `(path pattern, error type, origin)`. Upstream's generator declares them per emitted
//! function and its coverage tests require every declared rule to be observed by some test;
//! kdv derives the same set from the IR.
//!
//! Paths are patterns: `[*]` stands for any list index or map key. The walk follows what a
//! type's validation function runs: a struct field adds `.json` (nothing for a field without
//! a JSON name), list and map values add `[*]`, map keys stay at the map's path, and a type
//! call continues in the called type (each type at most once per chain, so recursive types
//! end). Wrappers add their path fragment to what the wrapped function declares: `eachVal`
//! `[*]`, `subfield(name)` `.name`, mode rules `.json`; `eachKey`, `item` and `ifEnabled`/
//! `ifDisabled` add nothing. As upstream, fragments are appended to the path as written, so
//! a fragment on a root's own type-level validation starts with `.` (`.name`), unlike the
//! runtime path (`name`).
//!
//! What each validation declares is attached by the lowering of its tag
//! ([`Validation::emits`], upstream's `WithEmits`); this module only walks the IR.

use kdv_runtime::ErrorType;

use crate::ir::{Check, Emission, RuleSet, TypeId, Validation};

/// Longest chain of nested type calls the walk follows.
pub const MAX_TYPE_DEPTH: usize = 64;

/// Most rules one walk collects; past it the result is marked incomplete.
pub const MAX_RULES: usize = 100_000;

/// The emissions of one validation (by default what its lowering attached: see
/// [`declared_rules_with`]).
pub type EmissionTable = dyn Fn(&Validation) -> Vec<Emission>;

/// A declared rule: a path pattern with an error type and origin.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DeclaredRule {
    /// The path pattern (`spec.items[*].name`; `""` for the root).
    pub path: String,
    /// The error's type.
    pub error_type: ErrorType,
    /// The error's origin (empty for none).
    pub origin: String,
}

/// The rules declared by one root, in walk order (a rule may repeat when several functions
/// declare it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeclaredRules {
    /// The rules.
    pub rules: Vec<DeclaredRule>,
    /// False when the walk stopped at [`MAX_RULES`] or [`MAX_TYPE_DEPTH`].
    pub complete: bool,
}

/// The rules the validation of `root` declares.
pub fn declared_rules(rules: &RuleSet, root: TypeId) -> DeclaredRules {
    declared_rules_with(rules, root, &attached)
}

/// What a validation's lowering attached.
pub fn attached(v: &Validation) -> Vec<Emission> {
    v.emits.clone()
}

/// The rules the validation of `root` declares, with the emissions of each validation taken
/// from `table` (tests substitute a wrong one).
pub fn declared_rules_with(rules: &RuleSet, root: TypeId, table: &EmissionTable) -> DeclaredRules {
    let mut walk = Walk {
        rules,
        table,
        chain: Vec::new(),
        out: DeclaredRules {
            rules: Vec::new(),
            complete: true,
        },
    };
    walk.type_fn(root, "");
    walk.out
}

struct Walk<'a> {
    rules: &'a RuleSet,
    table: &'a EmissionTable,
    /// The types being walked, outermost first.
    chain: Vec<TypeId>,
    out: DeclaredRules,
}

impl Walk<'_> {
    /// A type's validation function at `path`.
    fn type_fn(&mut self, id: TypeId, path: &str) {
        let Some(t) = self.rules.types.get(id.0 as usize) else {
            return;
        };
        if !t.has_validations || self.chain.contains(&id) {
            return;
        }
        if self.chain.len() >= MAX_TYPE_DEPTH {
            self.out.complete = false;
            return;
        }
        self.chain.push(id);
        for v in t.validations.iter().chain(&t.iterations) {
            self.validation(v, path);
        }
        if !t.opaque {
            for f in &t.fields {
                let field_path = join(path, &f.json_name);
                for v in f.validations.iter() {
                    self.validation(v, &field_path);
                }
                if let Some(tid) = f.type_call {
                    self.type_fn(tid, &field_path);
                }
                for v in &f.iterations {
                    self.validation(v, &field_path);
                }
            }
        }
        self.chain.pop();
    }

    /// One validation at `path` (wrapper fragments already appended): what it wraps, then
    /// what it declares itself.
    fn validation(&mut self, v: &Validation, path: &str) {
        if self.out.rules.len() >= MAX_RULES {
            self.out.complete = false;
            return;
        }
        match &v.check {
            Check::EachListVal { inner, .. } | Check::EachMapVal { inner, .. } => {
                self.validation(inner, &format!("{path}[*]"));
            }
            Check::EachMapKey { inner }
            | Check::IfOption { inner, .. }
            | Check::IfSubresource { inner, .. }
            | Check::Item { inner, .. } => {
                self.validation(inner, path);
            }
            Check::Subfield { name, inner, .. } => {
                self.validation(inner, &format!("{path}.{name}"));
            }
            Check::CallType(id) => self.type_fn(*id, path),
            Check::Discriminated(d) => {
                let field_path = format!("{path}.{}", d.field);
                for rule in &d.rules {
                    for inner in &rule.validations {
                        self.validation(inner, &field_path);
                    }
                }
            }
            _ => {}
        }
        for e in (self.table)(v) {
            self.out.rules.push(DeclaredRule {
                path: format!("{path}{}", e.fragment),
                error_type: e.error_type,
                origin: e.origin.to_string(),
            });
        }
    }
}

/// `base.seg` (upstream's `joinPath` for struct fields): an empty segment (a field without
/// a JSON name) leaves the path as is, and a root field has no leading dot.
fn join(base: &str, seg: &str) -> String {
    if seg.is_empty() {
        base.to_string()
    } else if base.is_empty() {
        seg.to_string()
    } else {
        format!("{base}.{seg}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::compile_go;

    fn rules_of(src: &str, ty: &str) -> Vec<(String, &'static str, String)> {
        let c = compile_go(src);
        assert!(!c.has_errors(), "{:?}", c.diagnostics);
        let id = c.rules.find_type(ty).expect("type");
        let d = declared_rules(&c.rules, id);
        assert!(d.complete);
        d.rules
            .into_iter()
            .map(|r| (r.path, r.error_type.as_str(), r.origin))
            .collect()
    }

    fn r(path: &str, ty: &'static str, origin: &str) -> (String, &'static str, String) {
        (path.to_string(), ty, origin.to_string())
    }

    #[test]
    fn fields_elements_keys_and_types() {
        let got = rules_of(
            r#"
// +k8s:validation-gen=*
package p

type T struct {
	// +k8s:required
	// +k8s:minimum=1
	A *int `json:"a"`
	// +k8s:eachVal=+k8s:maxLength=3
	// +k8s:eachKey=+k8s:format=k8s-short-name
	M map[string]string `json:"m"`
	L []S `json:"l"`
	// +k8s:optional
	P *S `json:"p"`
	S `json:",inline"`
}

type S struct {
	E E `json:"e"`
	// +k8s:validateTrue="never fails"
	// +k8s:validateFalse="always fails"
	F string `json:"f"`
}

// +k8s:enum
type E string

const EA E = "a"
"#,
            "T",
        );
        assert_eq!(
            got,
            vec![
                r("a", "FieldValueRequired", ""),
                r("a", "FieldValueInvalid", "minimum"),
                r("m", "FieldValueInvalid", "format=k8s-short-name"),
                r("m[*]", "FieldValueTooLong", "maxLength"),
                r("l[*].e", "FieldValueNotSupported", ""),
                r("l[*].f", "FieldValueInvalid", "validateFalse"),
                r("p.e", "FieldValueNotSupported", ""),
                r("p.f", "FieldValueInvalid", "validateFalse"),
                r("e", "FieldValueNotSupported", ""),
                r("f", "FieldValueInvalid", "validateFalse"),
            ]
        );
    }

    #[test]
    fn wrappers_lists_updates_unions_modes_dependencies() {
        let got = rules_of(
            r#"
// +k8s:validation-gen=*
package p

type T struct {
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:update=NoAddItem
	// +k8s:update=NoRemoveItem
	// +k8s:item(name: "x")=+k8s:immutable
	Items []Item `json:"items"`
	// +k8s:update=NoRemoveItem
	Labels map[string]string `json:"labels"`
	// +k8s:update=NoModify
	// +k8s:monotonic
	N int `json:"n"`
	// +k8s:ifEnabled(Gate)=+k8s:maxItems=2
	// +k8s:customValidation
	Tags []string `json:"tags"`
	// +k8s:subfield(name)=+k8s:neq="bad"
	Sub Item `json:"sub"`
	// +k8s:unionMember
	// +k8s:optional
	U1 *int `json:"u1"`
	// +k8s:unionMember
	// +k8s:optional
	U2 *int `json:"u2"`
	// +k8s:zeroOrOneOfMember
	// +k8s:optional
	Z1 *int `json:"z1"`
	// +k8s:zeroOrOneOfMember
	// +k8s:optional
	Z2 *int `json:"z2"`
	// +k8s:modeDiscriminator
	Mode string `json:"mode"`
	// +k8s:ifMode("a")=+k8s:minimum=3
	// +k8s:dependentRequired("n")
	Moded *int `json:"moded"`
}

type Item struct {
	Name string `json:"name"`
}
"#,
            "T",
        );
        let mut got = got;
        got.sort();
        let mut want = vec![
            r("items[*]", "FieldValueDuplicate", ""),
            r("items[*]", "FieldValueForbidden", "update"),
            r("items", "FieldValueForbidden", "update"),
            r("items", "FieldValueInvalid", "immutable"),
            r("labels[*]", "FieldValueForbidden", "update"),
            r("n", "FieldValueInvalid", "update"),
            r("tags", "FieldValueTooMany", "maxItems"),
            r("sub.name", "FieldValueInvalid", "neq"),
            r("", "FieldValueInvalid", "union"),
            r("", "FieldValueInvalid", "zeroOrOneOf"),
            r(".moded", "FieldValueInvalid", "minimum"),
            r(".moded", "FieldValueForbidden", ""),
            r(".n", "FieldValueRequired", "dependentRequired"),
        ];
        want.sort();
        assert_eq!(got, want);
    }

    #[test]
    fn opaque_and_recursive_types_end_the_walk() {
        let got = rules_of(
            r#"
// +k8s:validation-gen=*
package p

type T struct {
	// +k8s:opaqueType
	// +k8s:validateFalse="field"
	O S `json:"o"`
	// +k8s:eachVal=+k8s:opaqueType
	L []S `json:"l"`
	Next *T `json:"next"`
	// +k8s:maxLength=1
	Name string `json:"name"`
}

// +k8s:validateFalse="type"
type S struct {
	// +k8s:validateFalse="member"
	X string `json:"x"`
}
"#,
            "T",
        );
        assert_eq!(
            got,
            vec![
                r("o", "FieldValueInvalid", "validateFalse"),
                r("name", "FieldValueTooLong", "maxLength"),
            ]
        );
    }

    #[test]
    fn a_different_table_changes_the_rules() {
        let c = compile_go(
            r#"
// +k8s:validation-gen=*
package p

type T struct {
	// +k8s:validateFalse="x"
	A string `json:"a"`
}
"#,
        );
        let id = c.rules.find_type("T").expect("type");
        let wrong = |_: &Validation| vec![Emission::at_element(ErrorType::Forbidden, "wrong")];
        let d = declared_rules_with(&c.rules, id, &wrong);
        assert_eq!(
            d.rules,
            vec![DeclaredRule {
                path: "a[*]".into(),
                error_type: ErrorType::Forbidden,
                origin: "wrong".into()
            }]
        );
    }
}
