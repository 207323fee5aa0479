//! Cross-field references (a kdv extension, KEP-5073 "Referencing Fields in Validation-Gen
//! For Cross-Field Validation Rules" > "Field Path Strategy", "Handling Ratcheting In
//! Cross-Field Validation Tags"): `+k8s:minimum(constraint: minValue)`,
//! `+k8s:maximum(constraint: limits.max)` and the same `constraint` argument of
//! `minLength`, `maxLength`, `minItems` and `maxItems`. The bound is the value of another
//! field, named by a path of JSON names relative to the struct that holds the tagged field.
//! The check is hoisted to that struct (the common ancestor); semantics and error texts:
//! `kdv_runtime::crossfield`.
//!
//! Upstream's tags are untouched: only a tag that names a `constraint` argument takes this
//! path (`lower::Lowerer::lower_tag` asks [`constraint_form`]), so every other use keeps
//! upstream's checks and texts ("unrecognized named argument" included).

use kdv_model::Builtin;
use kdv_runtime::ErrorType;
use kdv_runtime::crossfield::Bound;
use kdv_runtime::limits::origin;
use kdv_tags::{Tag, ValueType, go_quote};

use super::limits::{require_list, require_string};
use super::root_type_string;
use crate::gotypes::{Kind, Member, Ty};
use crate::ir::{
    Check, CrossFieldEach, CrossFieldLimit, Emission, FieldAccess, RefStep, Validation,
};
use crate::lower::{Ctx, Deferred, LowerError, Lowered, Lowerer};
use crate::shapes::decode_access;
use crate::tag_doc::{ExtensionDoc, Scope};

/// The argument that names the referenced field.
pub const CONSTRAINT: &str = "constraint";

/// The seed sections that specify the form.
pub const SEED: &str = "KEP-5073 \"Referencing Fields in Validation-Gen For Cross-Field Validation Rules\" > \"Field Path Strategy\", \"Handling Ratcheting In Cross-Field Validation Tags\"";

/// `+k8s:<limit>(constraint: <path>)`.
pub const CROSS_FIELD: ExtensionDoc = ExtensionDoc {
    name: "k8s:minimum(constraint: <path>)",
    syntax: "+k8s:minimum|maximum|minLength|maxLength|minItems|maxItems(constraint: <path>)",
    scopes: &[Scope::Field],
    description: "Bounds a struct field by the value of another integer field instead of a literal: `minimum`/`maximum` compare an integer field with it, `minLength`/`maxLength` the characters of a string field, `minItems`/`maxItems` the items of a list field. `<path>` is JSON names joined by `.`, relative to the struct that holds the tagged field (a sibling `minValue`, a child `limits.max`); it may pass through struct and pointer-to-struct fields, never a list or map, and cannot leave the struct. The check is hoisted to that struct (the common ancestor). Under `+k8s:eachVal` on a list or map field (`+k8s:eachVal=+k8s:maximum(constraint: maxThreshold)`, KEP-5073's \"Comprehensive Example\") the limit bounds each item or value, with the path still relative to the struct holding the field; errors are at `field[i]` or `field[key]`, and once the list or the bound changed every item is re-checked (an atomic list has no item correlation); the published rule is `self.<field>.all(...)`, whose cost the API server can only estimate when the list has `+k8s:maxItems` (and strings a `+k8s:maxLength`). It does not apply while the referenced field is absent (a nil pointer on the way or at the end); the referenced value stands in for the literal, so the error is the literal tag's (`must be greater than or equal to 5`, origin `minimum`). On update it is re-checked only when the tagged field or the referenced field changed (KEP-5073 \"Ratcheting and Cross-Field Validation\"). Published as a CEL rule in `x-kubernetes-validations` at the struct, with `fieldPath` at the tagged field; the API server re-checks that rule whenever anything in the struct changed (a difference by design). No tag value may follow. Decision: docs/decisions/0120-cross-field-references.md.",
    seed: SEED,
    example: "+k8s:minimum(constraint: minValue)",
};

/// The limit a tag bounds by a referenced field, when it names a `constraint` argument.
pub(crate) fn constraint_form(tag: &Tag) -> Option<Bound> {
    let bound = Bound::of_tag(&tag.name)?;
    tag.args
        .iter()
        .any(|a| a.name.as_deref() == Some(CONSTRAINT))
        .then_some(bound)
}

/// The registry's lowering of a limit tag written in the cross-field form (see
/// [`constraint_form`]).
pub(crate) fn lower_constraint_form<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    let Some(bound) = constraint_form(tag) else {
        return Err(ctx.tag_error(tag, "not a cross-field limit"));
    };
    lower_constraint(lw, ctx, tag, bound, None)
}

/// Lowers a limit tag with a `constraint` argument into a check deferred to the struct;
/// `each` when it is the payload of `+k8s:eachVal` on the field (`ctx`): the values it
/// bounds and their type.
pub(crate) fn lower_constraint<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
    bound: Bound,
    each: Option<(CrossFieldEach, Ty)>,
) -> Result<Lowered<'u>, LowerError> {
    // The signature: `constraint` alone, a string, and no tag value.
    let mut path_arg = None;
    for arg in &tag.args {
        if arg.name.as_deref() != Some(CONSTRAINT) {
            return Err(ctx.error(
                arg.span,
                format!("unrecognized named argument {}", arg.to_go_string()),
            ));
        }
        if arg.value.value_type() != ValueType::String {
            return Err(ctx.error(
                arg.span,
                format!(
                    "argument {} has wrong type: got {}, want string",
                    arg.to_go_string(),
                    arg.value.value_type().as_str()
                ),
            ));
        }
        path_arg = Some(arg);
    }
    let Some(arg) = path_arg else {
        return Err(ctx.tag_error(tag, "missing named argument \"constraint\""));
    };
    if tag.value_type() != ValueType::None {
        return Err(ctx.value_error(
            tag,
            "a tag value cannot be given with a constraint: the referenced field's value is the bound",
        ));
    }
    let (Scope::Field, Some(member)) = (ctx.scope, ctx.member.clone()) else {
        return Err(ctx.tag_error(
            tag,
            format!(
                "constraint: can only be used on struct fields, not on {} (the path is relative to the struct that holds the field)",
                ctx.scope.description()
            ),
        ));
    };
    let parent = ctx
        .parent_ty
        .as_ref()
        .map(|p| lw.g.base(p))
        .unwrap_or(Ty::Interface);
    if lw.g.kind(&parent) != Kind::Struct {
        return Err(ctx.tag_error(tag, "constraint: the parent type must be a struct"));
    }
    // The tagged field (or each of its values): the literal tag's type rules.
    let mut checked = ctx.clone();
    if let Some((_, elem)) = &each {
        checked.ty = elem.clone();
        checked.scope = match each {
            Some((CrossFieldEach::Values, _)) => Scope::MapVal,
            _ => Scope::ListVal,
        };
    }
    match bound {
        Bound::Minimum | Bound::Maximum => require_int(lw, &checked, tag)?,
        Bound::MinLength | Bound::MaxLength => require_string(lw, &checked, tag)?,
        Bound::MinItems | Bound::MaxItems => require_list(lw, &checked, tag)?,
    }
    let Some(FieldAccess::Key(field)) = decode_access(&lw.g, &member) else {
        return Err(ctx.tag_error(
            tag,
            format!(
                "constraint: field {} has no JSON name",
                go_quote(member.name())
            ),
        ));
    };
    let text = arg.value.as_str().to_string();
    let steps = resolve_path(lw, ctx, arg.span, &parent, &text, &field)?;
    let access = FieldAccess::Key(field.clone());
    let shape = lw.shape(&member.ty);
    // `+k8s:optional` short-circuits the literal tag on an unset field; so here.
    let optional = member
        .field
        .tags
        .lines
        .iter()
        .any(|l| l.name == "k8s:optional")
        .then(|| super::unions::field_presence(lw, &member).presence);
    let (error_type, origin) = match bound {
        Bound::Minimum => (ErrorType::Invalid, origin::MINIMUM),
        Bound::Maximum => (ErrorType::Invalid, origin::MAXIMUM),
        Bound::MinLength => (ErrorType::TooShort, origin::MIN_LENGTH),
        Bound::MaxLength => (ErrorType::TooLong, origin::MAX_LENGTH),
        Bound::MinItems => (ErrorType::TooFew, origin::MIN_ITEMS),
        Bound::MaxItems => (ErrorType::TooMany, origin::MAX_ITEMS),
    };
    let check = CrossFieldLimit {
        bound,
        field: field.clone(),
        access,
        shape,
        optional,
        reference: text,
        steps,
        each: each.map(|(e, _)| e),
    };
    let name = bound.tag();
    Ok(Lowered {
        deferred: vec![Deferred::parent(move |_| {
            Ok(Lowered::function(
                Validation::new(name, Check::CrossFieldLimit(Box::new(check)))
                    .emits([Emission::at_member(error_type, origin, &field)]),
            ))
        })],
        ..Lowered::default()
    })
}

/// `minimum`/`maximum`'s rule for the tagged field: an integer type.
fn require_int(lw: &Lowerer<'_>, ctx: &Ctx<'_>, tag: &Tag) -> Result<(), LowerError> {
    let t = lw.g.base(&ctx.ty);
    match t {
        Ty::Builtin(b) if b.is_integer() => Ok(()),
        _ => Err(ctx.tag_error(
            tag,
            format!(
                "can only be used on integer types ({})",
                root_type_string(&lw.g, &ctx.ty, &t)
            ),
        )),
    }
}

/// The member of struct `st` that `encoding/json` reads from the key `key` (promoted
/// through embedded structs as `encoding/json` promotes them).
fn member_by_key<'u>(lw: &Lowerer<'u>, st: &Ty, key: &str, depth: usize) -> Option<Member<'u>> {
    let members = lw.g.members(st)?;
    for m in members {
        if decode_access(&lw.g, m).is_some_and(|a| a == FieldAccess::Key(key.to_string())) {
            return Some(m.clone());
        }
    }
    if depth > 8 {
        return None;
    }
    for m in members {
        if let Some(FieldAccess::Inline { keys }) = decode_access(&lw.g, m)
            && keys.iter().any(|k| k == key)
        {
            let inner = lw.g.base(&m.ty);
            return member_by_key(lw, &inner, key, depth + 1);
        }
    }
    None
}

/// Resolves `text` (JSON names joined by `.`) from the struct `parent`: each step a struct
/// member, the last an integer; errors point at the argument.
fn resolve_path<'u>(
    lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    span: kdv_tags::Span,
    parent: &Ty,
    text: &str,
    field: &str,
) -> Result<Vec<RefStep>, LowerError> {
    let segments: Vec<&str> = text.split('.').collect();
    if segments.iter().any(|s| s.is_empty()) {
        return Err(ctx.error(
            span,
            format!(
                "constraint: field path {} cannot leave the struct that holds the field: write JSON names of its fields joined by '.' (a sibling \"minValue\", a child \"limits.max\")",
                go_quote(text)
            ),
        ));
    }
    if segments.len() == 1 && segments[0] == field {
        return Err(ctx.error(
            span,
            format!(
                "constraint: field path {} names the tagged field itself",
                go_quote(text)
            ),
        ));
    }
    let mut steps = Vec::with_capacity(segments.len());
    let mut cur = parent.clone();
    let mut walked = String::new();
    for (i, seg) in segments.iter().enumerate() {
        let Some(m) = member_by_key(lw, &cur, seg, 0) else {
            let go_named = lw.g.members(&cur).and_then(|ms| {
                ms.iter()
                    .find(|m| m.name() == *seg && !m.json_name().is_empty())
                    .map(|m| m.json_name().to_string())
            });
            let hint = go_named
                .map(|j| {
                    format!(
                        " (Go field {seg} is {} in JSON: paths use JSON names)",
                        go_quote(&j)
                    )
                })
                .unwrap_or_default();
            return Err(ctx.error(
                span,
                format!(
                    "constraint: field path {}: {} has no field with JSON name {}{hint}",
                    go_quote(text),
                    if walked.is_empty() {
                        format!("struct {}", lw.g.type_string(&cur))
                    } else {
                        go_quote(&walked)
                    },
                    go_quote(seg)
                ),
            ));
        };
        if !walked.is_empty() {
            walked.push('.');
        }
        walked.push_str(seg);
        let native = lw.g.native(&m.ty);
        let base = lw.g.base(&m.ty);
        let last = i + 1 == segments.len();
        let base_kind = lw.g.kind(&base);
        if matches!(base_kind, Kind::Slice | Kind::Array | Kind::Map) {
            return Err(ctx.error(
                span,
                format!(
                    "constraint: field path {} goes through {} ({}): a path cannot select an item of a list or map",
                    go_quote(text),
                    go_quote(&walked),
                    lw.g.type_string(&native)
                ),
            ));
        }
        if last {
            if !matches!(base, Ty::Builtin(b) if b.is_integer() && b != Builtin::Uintptr) {
                return Err(ctx.error(
                    span,
                    format!(
                        "constraint: field path {} names a field of type {}: the bound must be an integer",
                        go_quote(text),
                        lw.g.type_string(&m.ty)
                    ),
                ));
            }
        } else if base_kind != Kind::Struct {
            return Err(ctx.error(
                span,
                format!(
                    "constraint: field path {}: {} is not a struct (type {})",
                    go_quote(text),
                    go_quote(&walked),
                    lw.g.type_string(&m.ty)
                ),
            ));
        }
        steps.push(RefStep {
            name: seg.to_string(),
            access: FieldAccess::Key(seg.to_string()),
            shape: lw.shape(&m.ty),
        });
        cur = base;
    }
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use crate::tests::compile_go;
    use crate::*;

    const CONFIG: &str = r#"package p

type Config struct {
	MinValue int32 `json:"minValue"`
	MaxValue int32 `json:"maxValue"`

	// +k8s:minimum(constraint: minValue)
	// +k8s:maximum(constraint: maxValue)
	Current int32 `json:"current"`

	// +k8s:maxLength(constraint: limits.max)
	Name string `json:"name"`

	// +k8s:optional
	Limits *Limits `json:"limits,omitempty"`

	MaxThreshold int32 `json:"maxThreshold"`
	// +k8s:eachVal=+k8s:maximum(constraint: maxThreshold)
	Thresholds []int32 `json:"thresholds"`
	// +k8s:eachVal=+k8s:minLength(constraint: maxValue)
	Labels map[string]string `json:"labels"`
}

type Limits struct {
	Max *int64 `json:"max,omitempty"`
}
"#;

    fn located(c: &Compiled) -> Vec<(u32, u32, String)> {
        c.diagnostics
            .iter()
            .map(|d| {
                let s = d.span.as_ref().expect("span");
                (s.line, s.col, d.message.clone())
            })
            .collect()
    }

    #[test]
    fn the_seeds_config_lowers_to_checks_on_the_struct() {
        let c = compile_go(CONFIG);
        assert!(c.diagnostics.is_empty(), "{:?}", located(&c));
        let id = c.rules.find_type("Config").expect("type");
        let checks: Vec<(Bound, &str, String, Option<CrossFieldEach>)> = c
            .rules
            .type_rules(id)
            .validations
            .cohorts
            .iter()
            .flat_map(|co| co.short_circuit.iter().chain(&co.regular))
            .filter_map(|v| match &v.check {
                Check::CrossFieldLimit(x) => Some((
                    x.bound,
                    x.field.as_str(),
                    x.steps
                        .iter()
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join("."),
                    x.each,
                )),
                _ => None,
            })
            .collect();
        assert_eq!(
            checks,
            [
                (Bound::Maximum, "current", "maxValue".to_string(), None),
                (Bound::Minimum, "current", "minValue".to_string(), None),
                (Bound::MaxLength, "name", "limits.max".to_string(), None),
                (
                    Bound::Maximum,
                    "thresholds",
                    "maxThreshold".to_string(),
                    Some(CrossFieldEach::Items)
                ),
                (
                    Bound::MinLength,
                    "labels",
                    "maxValue".to_string(),
                    Some(CrossFieldEach::Values)
                ),
            ]
        );
    }

    #[test]
    fn misuse_is_reported_at_the_argument() {
        let c = compile_go(
            r#"package p

type T struct {
	Min int32 `json:"min"`
	Items []int32 `json:"items"`
	Tags map[string]int32 `json:"tags"`
	Word string `json:"word"`
	Sub Sub `json:"sub"`

	// +k8s:minimum(constraint: nope)
	A int32 `json:"a"`
	// +k8s:minimum(constraint: Min)
	B int32 `json:"b"`
	// +k8s:minimum(constraint: items.x)
	C int32 `json:"c"`
	// +k8s:minimum(constraint: word)
	D int32 `json:"d"`
	// +k8s:minimum(constraint: "..min")
	E int32 `json:"e"`
	// +k8s:minimum(constraint: min)
	F string `json:"f"`
	// +k8s:minimum(constraint: min)=3
	G int32 `json:"g"`
	// +k8s:minimum(constraint: min, other: 1)
	H int32 `json:"h"`
	// +k8s:eachKey=+k8s:minLength(constraint: min)
	I map[string]int32 `json:"i"`
	// +k8s:minimum(constraint: sub.n)
	J int32 `json:"j"`
	// +k8s:minimum(constraint: tags.x)
	K int32 `json:"k"`
	// +k8s:minimum(constraint: k)
	L int32 `json:"l"`
	// +k8s:minimum(x)=1
	M int32 `json:"m"`
}

type Sub struct {
	N string `json:"n"`
}
"#,
        );
        let got = located(&c);
        let want: Vec<(u32, u32, &str)> = vec![
            (
                10,
                18,
                "tag \"k8s:minimum\": constraint: field path \"nope\": struct example.com/p.T has no field with JSON name \"nope\"",
            ),
            (
                12,
                18,
                "tag \"k8s:minimum\": constraint: field path \"Min\": struct example.com/p.T has no field with JSON name \"Min\" (Go field Min is \"min\" in JSON: paths use JSON names)",
            ),
            (
                14,
                18,
                "tag \"k8s:minimum\": constraint: field path \"items.x\" goes through \"items\" ([]int32): a path cannot select an item of a list or map",
            ),
            (
                16,
                18,
                "tag \"k8s:minimum\": constraint: field path \"word\" names a field of type string: the bound must be an integer",
            ),
            (
                18,
                18,
                "tag \"k8s:minimum\": constraint: field path \"..min\" cannot leave the struct that holds the field: write JSON names of its fields joined by '.' (a sibling \"minValue\", a child \"limits.max\")",
            ),
            (
                20,
                6,
                "tag \"k8s:minimum\": can only be used on integer types (string)",
            ),
            (
                22,
                35,
                "tag \"k8s:minimum\": a tag value cannot be given with a constraint: the referenced field's value is the bound",
            ),
            (
                24,
                35,
                "tag \"k8s:minimum\": unrecognized named argument other: 1",
            ),
            (
                26,
                19,
                "tag \"k8s:eachKey\": tag \"k8s:minLength\": constraint: can only be used on struct fields, not on map keys (the path is relative to the struct that holds the field)",
            ),
            (
                28,
                18,
                "tag \"k8s:minimum\": constraint: field path \"sub.n\" names a field of type string: the bound must be an integer",
            ),
            (
                30,
                18,
                "tag \"k8s:minimum\": constraint: field path \"tags.x\" goes through \"tags\" (map[string]int32): a path cannot select an item of a list or map",
            ),
            (
                34,
                18,
                "tag \"k8s:minimum\": unrecognized named argument \"x\"",
            ),
        ];
        let got: Vec<(u32, u32, &str)> = got.iter().map(|(l, c, m)| (*l, *c, m.as_str())).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn upstream_findings_flag_the_constraint_argument() {
        let (pkg, diags) = kdv_go::load_sources(
            "example.com/p",
            &[(PathBuf::from("types.go"), CONFIG.to_string())],
        );
        assert!(diags.is_empty(), "{diags:?}");
        let mut universe = Universe::default();
        universe.packages.insert(pkg.path.clone(), pkg);
        let found: Vec<(u32, u32)> = crate::lint::upstream_findings(&universe)
            .into_iter()
            .map(|d| {
                assert!(d.message.starts_with("tag \"k8s:minimum\" with a constraint argument is a kdv extension (KEP-5073 \"Referencing Fields") || d.message.contains("with a constraint argument"), "{}", d.message);
                let s = d.span.expect("span");
                (s.line, s.col)
            })
            .collect();
        // The eachVal forms are flagged at their payload's argument too.
        assert_eq!(found, [(7, 18), (8, 18), (11, 20), (18, 31), (20, 33)]);
    }
}
