//! The warnings the API server returns when a CRD is created (`WarningsOnCreate`):
//! `unrecognized format "<format>"` for each node whose format the server does not know
//! (spec §7.1), and from Kubernetes 1.37 one warning per item type of
//! `x-kubernetes-list-type: set` lists with object or array items.
//!
//! Nodes are visited as `SchemaHas` visits them (the node, `items`, `allOf`, `anyOf`,
//! `oneOf`, `not`, `properties` by name, `additionalProperties`, `patternProperties`,
//! `additionalItems`, `definitions`, `dependencies`); the spec's schema first, then each
//! version's.

use kdv_runtime::{FieldPath, Segment};

use super::CrdWarning;
use super::model::{Props, Spec};
use crate::schema::FormatKind;

/// The warnings of a CRD's schemas under the rules of Kubernetes 1.`minor`.
pub(crate) fn warnings(spec: &Spec<'_>, minor: u32) -> Vec<CrdWarning> {
    let mut out = Vec::new();
    let mut sets: Vec<String> = Vec::new();
    let mut visit = |s: &Props<'_>, path: &[Segment]| {
        if let Some(w) = unrecognized(s, minor) {
            let mut segments = path.to_vec();
            segments.push(Segment::Field("format".to_owned().into()));
            out.push(CrdWarning {
                message: format!("unrecognized format {}", kdv_runtime::gofmt::quote(w)),
                field: FieldPath::from_segments(segments),
            });
        }
        if s.x_list_type.as_deref() == Some("set")
            && let Some(items) = s.items_schema()
            && matches!(items.type_.as_str(), "object" | "array")
        {
            sets.push(format!(
                "x-kubernetes-list-type: set for items of type {} is not supported by server-side apply or CEL validation rules",
                kdv_runtime::gofmt::quote(&items.type_)
            ));
        }
    };
    let field = |s: &str| Segment::Field(s.to_owned().into());
    if let Some(s) = spec
        .validation
        .as_ref()
        .and_then(|v| v.open_api_v3_schema.as_deref())
    {
        let mut path = vec![field("spec"), field("validation"), field("openAPIV3Schema")];
        walk(s, &mut path, &mut visit);
    }
    for (i, v) in spec.versions.iter().enumerate() {
        if let Some(s) = v
            .schema
            .as_ref()
            .and_then(|v| v.open_api_v3_schema.as_deref())
        {
            let mut path = vec![
                field("spec"),
                field("versions"),
                Segment::Index(i),
                field("schema"),
                field("openAPIV3Schema"),
            ];
            walk(s, &mut path, &mut visit);
        }
    }
    if minor >= 37 {
        sets.sort();
        sets.dedup();
        out.extend(sets.into_iter().map(|message| CrdWarning {
            message,
            field: FieldPath::root(),
        }));
    }
    out
}

/// `GetUnrecognizedFormats` of one node (its `type` as the only type).
fn unrecognized<'s>(s: &'s Props<'_>, minor: u32) -> Option<&'s str> {
    if s.format.is_empty() {
        return None;
    }
    let string_format = match FormatKind::of(&s.format) {
        FormatKind::Other => false,
        FormatKind::K8sShortName | FormatKind::K8sLongName => minor >= 34,
        _ => true,
    };
    let known = if minor <= 35 {
        // Only string nodes were looked at.
        s.type_ != "string" || string_format
    } else {
        match s.type_.as_str() {
            "" | "string" => string_format,
            "integer" => s.format == "int32" || s.format == "int64",
            "number" => s.format == "float" || s.format == "double",
            _ => false,
        }
    };
    (!known).then_some(s.format.as_str())
}

/// `SchemaHas` order; `path` is extended and restored on the way (no path is built unless
/// a warning is).
fn walk(s: &Props<'_>, path: &mut Vec<Segment>, visit: &mut dyn FnMut(&Props<'_>, &[Segment])) {
    fn below(
        s: &Props<'_>,
        path: &mut Vec<Segment>,
        steps: &[Segment],
        visit: &mut dyn FnMut(&Props<'_>, &[Segment]),
    ) {
        path.extend_from_slice(steps);
        walk(s, path, visit);
        path.truncate(path.len() - steps.len());
    }
    let field = |s: &str| Segment::Field(s.to_owned().into());
    visit(s, path);
    if let Some(items) = &s.items {
        if let Some(schema) = &items.schema {
            below(schema, path, &[field("items")], visit);
        }
        for (i, x) in items.schemas.iter().enumerate() {
            below(x, path, &[field("items"), Segment::Index(i)], visit);
        }
    }
    for (name, list) in [
        ("allOf", &s.all_of),
        ("anyOf", &s.any_of),
        ("oneOf", &s.one_of),
    ] {
        for (i, x) in list.iter().enumerate() {
            below(x, path, &[field(name), Segment::Index(i)], visit);
        }
    }
    if let Some(not) = &s.not {
        below(not, path, &[field("not")], visit);
    }
    for (k, p) in &s.properties {
        below(
            p,
            path,
            &[field("properties"), Segment::Key(k.clone().into())],
            visit,
        );
    }
    if let Some(schema) = s
        .additional_properties
        .as_ref()
        .and_then(|a| a.schema.as_deref())
    {
        below(schema, path, &[field("additionalProperties")], visit);
    }
    for (k, p) in &s.pattern_properties {
        below(
            p,
            path,
            &[field("patternProperties"), Segment::Key(k.clone().into())],
            visit,
        );
    }
    if let Some(schema) = s
        .additional_items
        .as_ref()
        .and_then(|a| a.schema.as_deref())
    {
        below(schema, path, &[field("additionalItems")], visit);
    }
    for (k, p) in &s.definitions {
        below(
            p,
            path,
            &[field("definitions"), Segment::Key(k.clone().into())],
            visit,
        );
    }
    for (k, d) in &s.dependencies {
        if let Some(schema) = &d.schema {
            below(
                schema,
                path,
                &[field("dependencies"), Segment::Key(k.clone().into())],
                visit,
            );
        }
    }
}
