//! Where `+k8s:customValidation` calls sit in the IR. kdv cannot run the hand-written Go
//! functions they name, so tools use these queries to tell users which checks a validation
//! skips unless the functions are registered (see [`Check::CustomValidation`]).

use std::collections::BTreeSet;

use crate::ir::{Check, RuleSet, SpanId, TypeId, Validation};

/// Deepest wrapper nesting (`eachVal`, `ifEnabled`, ...) looked into.
const MAX_WRAPPER_DEPTH: usize = 64;

/// One `+k8s:customValidation` call.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CustomValidationUse {
    /// The type whose validation function makes the call.
    pub owner: TypeId,
    /// The Go name of the field the tag is on; `None` for a type-level tag.
    pub field: Option<String>,
    /// The function upstream would call (`ValidateCustom_<Type>[_<Field>]`).
    pub function_name: String,
    /// Import path of the package that would declare the function.
    pub package: String,
    /// Where the tag is written.
    pub origin: Option<SpanId>,
}

/// The custom validation calls in the validation function of `ty` itself (its type-level
/// validations and its fields' validations), not those of the types it calls.
pub fn custom_validations_of(rules: &RuleSet, ty: TypeId) -> Vec<CustomValidationUse> {
    let mut out = Vec::new();
    let Some(t) = rules.types.get(ty.0 as usize) else {
        return out;
    };
    for v in t.validations.iter().chain(&t.iterations) {
        collect(v, ty, None, &mut out, 0);
    }
    for f in &t.fields {
        for v in f.validations.iter().chain(&f.iterations) {
            collect(v, ty, Some(&f.go_name), &mut out, 0);
        }
    }
    out
}

/// The custom validation calls validating a value of type `root` can reach: those of `root`
/// and of every type its validation calls, each type once, in order of discovery.
pub fn reachable_custom_validations(rules: &RuleSet, root: TypeId) -> Vec<CustomValidationUse> {
    reachable_types(rules, root)
        .into_iter()
        .flat_map(|id| custom_validations_of(rules, id))
        .collect()
}

/// The types with validations that validating a value of type `root` runs: `root` and every
/// type its validation calls, each once, in order of discovery.
pub(crate) fn reachable_types(rules: &RuleSet, root: TypeId) -> Vec<TypeId> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    let mut queue = vec![root];
    while let Some(id) = queue.pop() {
        if !seen.insert(id) {
            continue;
        }
        let Some(t) = rules.types.get(id.0 as usize) else {
            continue;
        };
        if !t.has_validations {
            continue;
        }
        out.push(id);
        let mut called = Vec::new();
        for v in t.validations.iter().chain(&t.iterations) {
            calls(v, &mut called, 0);
        }
        for f in &t.fields {
            for v in f.validations.iter().chain(&f.iterations) {
                calls(v, &mut called, 0);
            }
            called.extend(f.type_call);
        }
        // Reversed so the stack pops them in the order they are called.
        queue.extend(called.into_iter().rev());
    }
    out
}

/// Every validation of `ty`'s own function (type-level and fields'), wrapped ones included,
/// in order, each given to `f`.
pub(crate) fn each_validation(rules: &RuleSet, ty: TypeId, f: &mut dyn FnMut(&Validation)) {
    fn walk(v: &Validation, f: &mut dyn FnMut(&Validation), depth: usize) {
        if depth > MAX_WRAPPER_DEPTH {
            return;
        }
        f(v);
        for inner in nested(&v.check) {
            walk(inner, f, depth + 1);
        }
    }
    let Some(t) = rules.types.get(ty.0 as usize) else {
        return;
    };
    let fields = t
        .fields
        .iter()
        .flat_map(|x| x.validations.iter().chain(&x.iterations));
    for v in t.validations.iter().chain(&t.iterations).chain(fields) {
        walk(v, f, 0);
    }
}

/// The validations nested in a wrapper check (none for other checks).
fn nested(check: &Check) -> Vec<&Validation> {
    match check {
        Check::Discriminated(d) => d.rules.iter().flat_map(|r| &r.validations).collect(),
        other => other.inner().into_iter().collect(),
    }
}

fn collect(
    v: &Validation,
    owner: TypeId,
    field: Option<&str>,
    out: &mut Vec<CustomValidationUse>,
    depth: usize,
) {
    if depth > MAX_WRAPPER_DEPTH {
        return;
    }
    if let Check::CustomValidation {
        function_name,
        package,
    } = &v.check
    {
        out.push(CustomValidationUse {
            owner,
            field: field.map(str::to_string),
            function_name: function_name.clone(),
            package: package.clone(),
            origin: v.origin,
        });
    }
    for inner in nested(&v.check) {
        collect(inner, owner, field, out, depth + 1);
    }
}

fn calls(v: &Validation, out: &mut Vec<TypeId>, depth: usize) {
    if depth > MAX_WRAPPER_DEPTH {
        return;
    }
    if let Check::CallType(id) = v.check {
        out.push(id);
    }
    for inner in nested(&v.check) {
        calls(inner, out, depth + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::compile_go;

    const SRC: &str = r#"
// +k8s:validation-gen=TypesWithField=Kind
package p

type Root struct {
	Kind string `json:"kind"`
	// +k8s:customValidation
	Name string `json:"name"`
	// +k8s:ifEnabled(Gate)=+k8s:customValidation
	Gated string `json:"gated"`
	Child Child `json:"child"`
	Items []Child `json:"items"`
	Plain Plain `json:"plain"`
}

// +k8s:customValidation
type Child struct {
	// +k8s:customValidation
	Value string `json:"value"`
}

type Plain struct {
	// +k8s:maxLength=3
	S string `json:"s"`
}

// +k8s:customValidation
type Unused string
"#;

    fn names(uses: &[CustomValidationUse]) -> Vec<&str> {
        uses.iter().map(|u| u.function_name.as_str()).collect()
    }

    #[test]
    fn own_calls_of_a_type() {
        let c = compile_go(SRC);
        assert!(!c.has_errors(), "{:?}", c.diagnostics);
        let root = c.rules.find_type("Root").unwrap();
        let own = custom_validations_of(&c.rules, root);
        assert_eq!(
            names(&own),
            ["ValidateCustom_Root_Name", "ValidateCustom_Root_Gated"]
        );
        assert_eq!(own[0].field.as_deref(), Some("Name"));
        assert_eq!(own[0].owner, root);
        assert_eq!(own[0].package, "example.com/p");
        let child = c.rules.find_type("Child").unwrap();
        let own = custom_validations_of(&c.rules, child);
        assert_eq!(
            names(&own),
            ["ValidateCustom_Child", "ValidateCustom_Child_Value"]
        );
        assert_eq!(own[0].field, None);
    }

    #[test]
    fn reachable_calls_visit_each_type_once() {
        let c = compile_go(SRC);
        let root = c.rules.find_type("Root").unwrap();
        assert_eq!(
            names(&reachable_custom_validations(&c.rules, root)),
            [
                "ValidateCustom_Root_Name",
                "ValidateCustom_Root_Gated",
                "ValidateCustom_Child",
                "ValidateCustom_Child_Value"
            ]
        );
        let plain = c.rules.find_type("Plain").unwrap();
        assert!(reachable_custom_validations(&c.rules, plain).is_empty());
    }
}
