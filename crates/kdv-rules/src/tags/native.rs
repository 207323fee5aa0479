//! Declarative-only validation (upstream `validators/native.go`, added in January 2026 and
//! reverted in February 2026; kdv keeps it, see ARCHITECTURE.md):
//! `+k8s:declarativeValidationNative` on a struct field marks every error of that field's
//! validations — its own tags, its type's, nested fields, elements — as declarative-native
//! ([`crate::ir::FieldRules::declarative_native`]); a union or zero-or-one-of union with such
//! a member marks its errors too ([`crate::ir::Validation::declarative_native`]). Only
//! stable validations may be declarative-only, except in alpha and beta API versions
//! ([`check_field`]).

pub(crate) mod state;

use kdv_model::{Package, Severity, SourceSpan, Tags};
use kdv_tags::{Tag, ValueType, go_quote};

use crate::lower::{Ctx, LowerError, Lowered, Lowerer, SitedTag, TagDef, TagTable};
use crate::tag_doc::{Scope, Stability, TagDoc};

/// The tag's name.
pub(crate) const NAME: &str = "k8s:declarativeValidationNative";

/// `+k8s:declarativeValidationNative`.
pub(crate) const DECLARATIVE_VALIDATION_NATIVE: TagDoc = TagDoc {
    name: NAME,
    stability: Stability::Stable,
    scopes: &[Scope::Field, Scope::ListVal],
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::None,
    payload_required: false,
    payload_description: "",
    description: "Indicates that all validations for the field, including any on the field's type, are declarative and do not have a corresponding handwritten equivalent. This is only allowed for validations that are 'Stable'. When used, validation errors will be marked to show they originated from a declarative-only validation.",
    example: "+k8s:declarativeValidationNative",
    extension: None,
};

/// Lowers `+k8s:declarativeValidationNative`: records the element; it emits no validation
/// (the marks are applied by the field block and by the unions that read the record).
pub(crate) fn lower_native<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    _tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let Some(parent) = ctx.parent_path.clone() else {
        return Ok(Lowered::default());
    };
    let name = match ctx.scope {
        Scope::Field => ctx.member.as_ref().map(|m| m.name().to_string()),
        // An item of `+k8s:item(...)`: the last segment of its generator path, as union
        // members of list items are named.
        Scope::ListVal if ctx.list_selector.as_ref().is_some_and(|s| !s.is_empty()) => {
            ctx.path.rsplit('.').next().map(str::to_string)
        }
        _ => None,
    };
    if let Some(name) = name {
        lw.native.members.insert((parent, name));
    }
    Ok(Lowered::default())
}

/// The first tag of a chain (outermost first) whose registered stability is below Stable:
/// `+k8s:alpha`/`+k8s:beta` are themselves Beta, so a validation written under them is
/// caught at the prefix, as upstream's `GetStability` of the field's tags does.
fn first_non_stable<'t>(table: &TagTable, tag: &'t Tag) -> Option<(&'t Tag, Stability)> {
    let mut t = Some(tag);
    while let Some(tag) = t {
        if let Some(doc) = table.doc(&tag.name)
            && doc.stability < Stability::Stable
        {
            return Some((tag, doc.stability));
        }
        t = tag.value_tag();
    }
    None
}

/// Whether declarative-only validations of the package `package` may use non-stable tags:
/// alpha and beta API versions may (KEP-5073 "Exception for Alpha and Beta APIs"), judged by
/// the package's version as the stability lint judges it.
pub(crate) fn allows_non_stable(package: &str) -> bool {
    Stability::of_package(package) != Stability::Stable
}

/// The generation errors of a native field's own tags (upstream `discoverStruct`): an
/// unknown `+k8s:` tag, or a non-stable tag outside an alpha/beta package. `path` is the
/// field's generator path (`pkg.Type.field`); the first offending tag is reported.
pub(crate) fn check_field(
    table: &TagTable,
    path: &str,
    pkg: &Package,
    tags: &[SitedTag<'_>],
    lines: &Tags,
) -> Option<LowerError> {
    for line in &lines.lines {
        if (table.is_unknown)(&line.name) {
            let span = pkg
                .files
                .get(line.loc.file as usize)
                .map(|file| SourceSpan::from_loc(file, line.loc, line.name.len().max(1) as u32));
            return Some(LowerError {
                message: format!(
                    "field {path}: unknown validation tag {} used with +{NAME}",
                    go_quote(&line.name)
                ),
                span,
                severity: Severity::Error,
            });
        }
    }
    if allows_non_stable(&pkg.path) {
        return None;
    }
    tags.iter().find_map(|t| {
        let (tag, stability) = first_non_stable(table, &t.tag)?;
        Some(LowerError {
            message: format!(
                "field {path}: +{NAME} can only be used with stable validation tags, but found {} which is {}",
                go_quote(&tag.name),
                stability.as_str()
            ),
            span: t.site.map(|s| s.span(tag.name_span)),
            severity: Severity::Error,
        })
    })
}

/// The generation error of a native field whose type (`type_name`, as `%q` prints a Go
/// type name) reaches non-stable validations.
pub(crate) fn type_error(path: &str, type_name: &str, span: Option<SourceSpan>) -> LowerError {
    LowerError {
        message: format!(
            "field {path}: is marked with +{NAME} but its type {} contains non-stable validation tags",
            go_quote(type_name)
        ),
        span,
        severity: Severity::Error,
    }
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[TagDef {
    doc: DECLARATIVE_VALIDATION_NATIVE,
    lower: lower_native,
}];

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use kdv_model::Universe;

    use crate::ir::Check;
    use crate::{Compiled, compile};

    /// Compiles one Go file as the package `path`.
    fn compile_in(path: &str, src: &str) -> Compiled {
        let (pkg, diags) =
            kdv_go::load_sources(path, &[(PathBuf::from("types.go"), src.to_string())]);
        assert!(diags.is_empty(), "Go parse diagnostics: {diags:?}");
        let mut universe = Universe::default();
        universe.packages.insert(pkg.path.clone(), pkg);
        compile(&universe)
    }

    fn messages(c: &Compiled) -> Vec<String> {
        c.diagnostics.iter().map(|d| d.message.clone()).collect()
    }

    const HYBRID: &str = r#"
// +k8s:validation-gen=*
package v1

type T struct {
	// +k8s:declarativeValidationNative
	// +k8s:optional
	// +k8s:format=k8s-uuid
	UUID string `json:"uuid"`
	// +k8s:optional
	// +k8s:maxLength=3
	Name string `json:"name"`
	// +k8s:optional
	// +k8s:declarativeValidationNative
	Inner *Inner `json:"inner"`
}

type Inner struct {
	// +k8s:minimum=1
	Count int `json:"count"`
}

type Outer struct {
	// +k8s:optional
	T *T `json:"t"`
}

type Plain struct {
	// +k8s:optional
	Inner *Inner `json:"inner"`
}
"#;

    #[test]
    fn native_fields_are_marked_and_reachable_types_report_it() {
        let c = compile_in("example.com/api/v1", HYBRID);
        assert!(c.diagnostics.is_empty(), "{:?}", messages(&c));
        let rules = &c.rules;
        let t = rules.type_rules(rules.find_type("T").expect("T"));
        let marks: Vec<(&str, bool)> = t
            .fields
            .iter()
            .map(|f| (f.json_name.as_str(), f.declarative_native))
            .collect();
        assert_eq!(
            marks,
            vec![("uuid", true), ("name", false), ("inner", true)]
        );
        let has = |name: &str| rules.has_declarative_native(rules.find_type(name).expect(name));
        assert!(has("T"));
        assert!(has("Outer"), "reaches T");
        assert!(!has("Inner"), "the mark is the field's, not the type's");
        assert!(!has("Plain"));
    }

    #[test]
    fn a_native_member_marks_its_union() {
        let c = compile_in(
            "example.com/api/v1",
            r#"
// +k8s:validation-gen=*
package v1

type S struct {
	// +k8s:optional
	// +k8s:unionMember
	// +k8s:declarativeValidationNative
	A *int `json:"a,omitempty"`
	// +k8s:optional
	// +k8s:unionMember
	B *int `json:"b,omitempty"`
	// +k8s:optional
	// +k8s:zeroOrOneOfMember
	C *int `json:"c,omitempty"`
	// +k8s:optional
	// +k8s:zeroOrOneOfMember
	D *int `json:"d,omitempty"`
}

type L struct {
	// +k8s:listType=map
	// +k8s:listMapKey=type
	// +k8s:item(type: "a")=+k8s:unionMember
	// +k8s:item(type: "b")=+k8s:unionMember
	// +k8s:item(type: "b")=+k8s:declarativeValidationNative
	Items []Item `json:"items"`
}

type Item struct {
	Type string `json:"type"`
}
"#,
        );
        assert!(c.diagnostics.is_empty(), "{:?}", messages(&c));
        let rules = &c.rules;
        let unions = |name: &str| -> Vec<(&str, bool)> {
            let t = rules.type_rules(rules.find_type(name).expect(name));
            t.validations
                .iter()
                .chain(t.fields.iter().flat_map(|f| f.validations.iter()))
                .filter(|v| matches!(v.check, Check::Union(_)))
                .map(|v| (v.tag, v.declarative_native))
                .collect()
        };
        assert_eq!(
            unions("S"),
            vec![("k8s:unionMember", true), ("k8s:zeroOrOneOfMember", false)]
        );
        assert_eq!(unions("L"), vec![("k8s:unionMember", true)]);
        assert!(rules.has_declarative_native(rules.find_type("L").expect("L")));
    }

    const NON_STABLE: &str = r#"
// +k8s:validation-gen=*
package PKG

type MyStruct struct {
	// +k8s:declarativeValidationNative
	// +k8s:validateFalse
	// +k8s:required
	DeclarativeField string `json:"declarativeField"`
	// +k8s:declarativeValidationNative
	// +k8s:alpha(since: "1.35")=+k8s:minimum=1
	Prefixed int `json:"prefixed"`
	// +k8s:declarativeValidationNative
	// +k8s:optional
	Other *Other `json:"other"`
	// +k8s:declarativeValidationNative
	// +k8s:optional
	// +k8s:eachVal=+k8s:validateFalse
	Each []string `json:"each"`
}

type Other struct {
	// +k8s:beta=+k8s:maxLength=3
	Name string `json:"name"`
}
"#;

    #[test]
    fn non_stable_tags_under_native_are_generation_errors() {
        let c = compile_in("example.com/api/v1", &NON_STABLE.replace("PKG", "v1"));
        assert_eq!(
            messages(&c),
            vec![
                "field example.com/api/v1.MyStruct.declarativeField: +k8s:declarativeValidationNative can only be used with stable validation tags, but found \"k8s:validateFalse\" which is Alpha",
                "field example.com/api/v1.MyStruct.prefixed: +k8s:declarativeValidationNative can only be used with stable validation tags, but found \"k8s:alpha\" which is Beta",
                "field example.com/api/v1.MyStruct.each: +k8s:declarativeValidationNative can only be used with stable validation tags, but found \"k8s:validateFalse\" which is Alpha",
                "field example.com/api/v1.MyStruct.other: is marked with +k8s:declarativeValidationNative but its type \"example.com/api/v1.Other\" contains non-stable validation tags",
            ]
        );
        // Each points at the offending tag (the type's error at the native tag).
        let at: Vec<(u32, u32)> = c
            .diagnostics
            .iter()
            .map(|d| {
                let s = d.span.as_ref().expect("span");
                (s.line, s.col)
            })
            .collect();
        assert_eq!(at, vec![(7, 6), (11, 6), (18, 19), (13, 6)]);
    }

    #[test]
    fn alpha_and_beta_versions_may_use_non_stable_tags() {
        for version in ["v1alpha1", "v2beta3"] {
            let c = compile_in(
                &format!("example.com/api/{version}"),
                &NON_STABLE.replace("PKG", version),
            );
            assert!(c.diagnostics.is_empty(), "{version}: {:?}", messages(&c));
        }
    }

    #[test]
    fn an_unknown_tag_under_native_is_an_error() {
        let c = compile_in(
            "example.com/api/v1",
            r#"
// +k8s:validation-gen=*
package v1

type T struct {
	// +k8s:declarativeValidationNative
	// +k8s:optional
	// +k8s:maxLenght=3
	// +k8s:deepcopy-gen=false
	Name string `json:"name"`
}
"#,
        );
        assert_eq!(
            messages(&c),
            vec![
                "field example.com/api/v1.T.name: unknown validation tag \"k8s:maxLenght\" used with +k8s:declarativeValidationNative"
            ]
        );
    }

    #[test]
    fn scopes_and_signature() {
        let c = compile_in(
            "example.com/api/v1",
            r#"
// +k8s:validation-gen=*
package v1

// +k8s:declarativeValidationNative
type T struct {
	// +k8s:declarativeValidationNative=true
	A string `json:"a"`
}
"#,
        );
        assert_eq!(
            messages(&c),
            vec![
                // A tag without a payload wants the empty type name, as upstream prints it.
                "tag \"k8s:declarativeValidationNative\": tag value has wrong type: got bool, want ",
                "tag \"k8s:declarativeValidationNative\" cannot be specified on type definitions",
            ]
        );
    }
}
