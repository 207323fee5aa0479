//! A version's (or the spec's) `schema` (`validateCustomResourceDefinitionValidation`) and
//! the checks of every schema node (`ValidateCustomResourceDefinitionOpenAPISchema` with
//! its `specStandardValidatorV3`): the root's shape with a status subresource, structural
//! schema and default validation (reported before the node checks), the keywords a CRD
//! may not use, `uniqueItems`, `properties` beside `additionalProperties`, defaults where
//! they are forbidden, the map and list extensions, and the static checks of
//! `x-kubernetes-validations`.
//!
//! Properties are visited sorted by name (Go iterates the map in random order).

use kdv_runtime::{BadValue, ErrorList, FieldPath};

use super::model::{Props, Validation};
use super::path::{forbidden, invalid, not_supported};
use super::{Opts, cel, defaults, listtype, rules, structural};

/// `openapiV3Types`, sorted as `sets.String.List()` returns them.
const OPENAPI_V3_TYPES: [&str; 6] = ["array", "boolean", "integer", "number", "object", "string"];

/// The fields a root schema may set when the status subresource is enabled
/// (`allowedFieldsAtRootSchema`).
const ALLOWED_AT_ROOT: [&str; 22] = [
    "Description",
    "Type",
    "Format",
    "Title",
    "Maximum",
    "ExclusiveMaximum",
    "Minimum",
    "ExclusiveMinimum",
    "MaxLength",
    "MinLength",
    "Pattern",
    "MaxItems",
    "MinItems",
    "UniqueItems",
    "MultipleOf",
    "Required",
    "Items",
    "Properties",
    "ExternalDocs",
    "Example",
    "XPreserveUnknownFields",
    "XValidations",
];

/// `specStandardValidatorV3`: what the keyword checks know about where they are.
#[derive(Clone, Debug)]
struct Ssv {
    allow_defaults: bool,
    disallow_defaults_reason: String,
    inside_resource_meta: bool,
    require_valid_property_type: bool,
}

impl Ssv {
    fn with_forbidden_defaults(&self, reason: &str) -> Ssv {
        Ssv {
            allow_defaults: false,
            disallow_defaults_reason: reason.to_owned(),
            ..self.clone()
        }
    }

    fn with_inside_resource_meta(&self) -> Ssv {
        Ssv {
            inside_resource_meta: true,
            ..self.clone()
        }
    }

    /// `specStandardValidatorV3.validate`.
    fn validate(&self, s: &Props<'_>, path: &FieldPath, out: &mut ErrorList) {
        if self.require_valid_property_type
            && !s.type_.is_empty()
            && !OPENAPI_V3_TYPES.contains(&s.type_.as_str())
        {
            out.push(not_supported(
                &path.child("type"),
                BadValue::string(&s.type_),
                &OPENAPI_V3_TYPES,
            ));
        }
        if s.default.is_some() && !self.allow_defaults {
            let mut detail = "must not be set".to_owned();
            if !self.disallow_defaults_reason.is_empty() {
                detail.push(' ');
                detail.push_str(&self.disallow_defaults_reason);
            }
            out.push(forbidden(&path.child("default"), detail));
        }
        if !s.id.is_empty() {
            out.push(forbidden(&path.child("id"), "id is not supported"));
        }
        if s.additional_items.is_some() {
            out.push(forbidden(
                &path.child("additionalItems"),
                "additionalItems is not supported",
            ));
        }
        if !s.pattern_properties.is_empty() {
            out.push(forbidden(
                &path.child("patternProperties"),
                "patternProperties is not supported",
            ));
        }
        if !s.definitions.is_empty() {
            out.push(forbidden(
                &path.child("definitions"),
                "definitions is not supported",
            ));
        }
        if !s.dependencies.is_empty() {
            out.push(forbidden(
                &path.child("dependencies"),
                "dependencies is not supported",
            ));
        }
        if s.ref_.is_some() {
            out.push(forbidden(&path.child("$ref"), "$ref is not supported"));
        }
        if s.type_ == "null" {
            out.push(forbidden(
                &path.child("type"),
                "type cannot be set to null, use nullable as an alternative",
            ));
        }
        if s.items.as_ref().is_some_and(|i| !i.schemas.is_empty()) {
            out.push(forbidden(
                &path.child("items"),
                "items must be a schema object and not an array",
            ));
        }
        if self.inside_resource_meta && s.x_embedded_resource {
            out.push(forbidden(
                &path.child("x-kubernetes-embedded-resource"),
                "must not be used inside of resource meta",
            ));
        }
    }
}

/// The Go names of the fields a schema sets, in declaration order (what the status-root
/// check walks with reflection, skipping zero values).
fn set_fields(s: &Props<'_>) -> Vec<&'static str> {
    let checks: [(&'static str, bool); 44] = [
        ("ID", !s.id.is_empty()),
        ("Schema", !s.schema.is_empty()),
        ("Ref", s.ref_.is_some()),
        ("Description", !s.description.is_empty()),
        ("Type", !s.type_.is_empty()),
        ("Nullable", s.nullable),
        ("Format", !s.format.is_empty()),
        ("Title", !s.title.is_empty()),
        ("Default", s.default.is_some()),
        ("Maximum", s.maximum.is_some()),
        ("ExclusiveMaximum", s.exclusive_maximum),
        ("Minimum", s.minimum.is_some()),
        ("ExclusiveMinimum", s.exclusive_minimum),
        ("MaxLength", s.max_length.is_some()),
        ("MinLength", s.min_length.is_some()),
        ("Pattern", !s.pattern.is_empty()),
        ("MaxItems", s.max_items.is_some()),
        ("MinItems", s.min_items.is_some()),
        ("UniqueItems", s.unique_items),
        ("MultipleOf", s.multiple_of.is_some()),
        ("Enum", !s.enumeration.is_empty()),
        ("MaxProperties", s.max_properties.is_some()),
        ("MinProperties", s.min_properties.is_some()),
        ("Required", !s.required.is_empty()),
        ("Items", s.items.is_some()),
        ("AllOf", !s.all_of.is_empty()),
        ("OneOf", !s.one_of.is_empty()),
        ("AnyOf", !s.any_of.is_empty()),
        ("Not", s.not.is_some()),
        ("Properties", !s.properties.is_empty()),
        ("AdditionalProperties", s.additional_properties.is_some()),
        ("PatternProperties", !s.pattern_properties.is_empty()),
        ("Dependencies", !s.dependencies.is_empty()),
        ("AdditionalItems", s.additional_items.is_some()),
        ("Definitions", !s.definitions.is_empty()),
        ("ExternalDocs", s.external_docs.is_some()),
        ("Example", s.example.is_some()),
        (
            "XPreserveUnknownFields",
            s.x_preserve_unknown_fields.is_some(),
        ),
        ("XEmbeddedResource", s.x_embedded_resource),
        ("XIntOrString", s.x_int_or_string),
        ("XListMapKeys", !s.x_list_map_keys.is_empty()),
        ("XListType", s.x_list_type.is_some()),
        ("XMapType", s.x_map_type.is_some()),
        ("XValidations", !s.x_validations.is_empty()),
    ];
    checks
        .into_iter()
        .filter(|(_, set)| *set)
        .map(|(name, _)| name)
        .collect()
}

/// `validateCustomResourceDefinitionValidation` of a `schema` at `path` (`spec.validation`
/// or `spec.versions[i].schema`).
pub(crate) fn validate_validation(
    validation: Option<&Validation<'_>>,
    status_enabled: bool,
    opts: &Opts,
    path: &FieldPath,
    out: &mut ErrorList,
) {
    let Some(validation) = validation else { return };
    let Some(schema) = validation.open_api_v3_schema.as_deref() else {
        return;
    };
    let start = out.len();
    let root = path.child("openAPIV3Schema");
    if status_enabled {
        for field in set_fields(schema) {
            if field == "Type" {
                if schema.type_ != "object" {
                    out.push(invalid(
                        &path.child("openAPIV3Schema.type"),
                        BadValue::string(&schema.type_),
                        r#"only "object" is allowed as the type at the root of the schema if the status subresource is enabled"#,
                    ));
                    break;
                }
                continue;
            }
            if !ALLOWED_AT_ROOT.contains(&field) {
                out.push(invalid(
                    &root,
                    BadValue::Encoded(schema.to_go_json()),
                    format!(
                        "only [{}] fields are allowed at the root of the schema if the status subresource is enabled",
                        ALLOWED_AT_ROOT.join(" ")
                    ),
                ));
                break;
            }
        }
    }
    if schema.nullable {
        out.push(forbidden(
            &path.child("openAPIV3Schema.nullable"),
            "nullable cannot be true at the root",
        ));
    }
    let ssv = Ssv {
        allow_defaults: opts.allow_defaults,
        disallow_defaults_reason: String::new(),
        inside_resource_meta: false,
        require_valid_property_type: opts.require_valid_property_type,
    };
    let mut init_errors = ErrorList::new();
    // Whether the rules are compiled (upstream's CEL context): the schema is structural and
    // its defaults are valid.
    let mut cel_context = false;
    if opts.require_structural_schema {
        if let Some(e) = structural::new_structural_error(schema) {
            // Reported only when nothing else is: the node checks below say the same.
            init_errors.push(invalid(&root, BadValue::string(""), e));
        } else {
            let errs = structural::validate_structural(schema, &root, opts.kubernetes_minor);
            if !errs.is_empty() {
                out.extend(errs);
            } else {
                let errs = defaults::validate_defaults(
                    schema,
                    &root,
                    opts.require_pruned_defaults,
                    opts.kubernetes_minor,
                );
                cel_context = errs.is_empty();
                out.extend(errs);
            }
        }
    }
    let schema_start = out.len();
    open_api_schema(schema, &root, &ssv, true, opts, out);
    if cel_context {
        let schema_errors = out[schema_start..].to_vec();
        cel::check(schema, &root, opts, &schema_errors, out);
    }
    if out.len() == start {
        out.extend(init_errors);
    }
}

/// `ValidateCustomResourceDefinitionOpenAPISchema` of one node and everything below it.
fn open_api_schema(
    s: &Props<'_>,
    path: &FieldPath,
    ssv: &Ssv,
    is_root: bool,
    opts: &Opts,
    out: &mut ErrorList,
) {
    ssv.validate(s, path, out);
    if s.unique_items {
        out.push(forbidden(
            &path.child("uniqueItems"),
            "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
        ));
    }
    if let Some(ap) = &s.additional_properties {
        if !s.properties.is_empty() && (!ap.allows || ap.schema.is_some()) {
            out.push(forbidden(
                &path.child("additionalProperties"),
                "additionalProperties and properties are mutual exclusive",
            ));
        }
        let sub = if ssv.inside_resource_meta {
            ssv.with_forbidden_defaults("inside additionalProperties applying to object metadata")
        } else {
            ssv.clone()
        };
        if let Some(schema) = &ap.schema {
            open_api_schema(
                schema,
                &path.child("additionalProperties"),
                &sub,
                false,
                opts,
                out,
            );
        }
    }
    for (name, p) in &s.properties {
        let mut sub = ssv.clone();
        if (is_root || s.x_embedded_resource)
            && matches!(name.as_str(), "metadata" | "kind" | "apiVersion")
        {
            sub = sub.with_inside_resource_meta();
            if is_root {
                sub = sub.with_forbidden_defaults(&format!("in top-level {name}"));
            }
        }
        open_api_schema(
            p,
            &path.child("properties").key(name),
            &sub,
            false,
            opts,
            out,
        );
    }
    if let Some(not) = &s.not {
        open_api_schema(not, &path.child("not"), ssv, false, opts, out);
    }
    for (name, list) in [
        ("allOf", &s.all_of),
        ("oneOf", &s.one_of),
        ("anyOf", &s.any_of),
    ] {
        for (i, p) in list.iter().enumerate() {
            open_api_schema(p, &path.child(name).index(i), ssv, false, opts, out);
        }
    }
    for (name, p) in &s.definitions {
        open_api_schema(
            p,
            &path.child("definitions").key(name),
            ssv,
            false,
            opts,
            out,
        );
    }
    if let Some(items) = &s.items {
        if let Some(schema) = &items.schema {
            open_api_schema(schema, &path.child("items"), ssv, false, opts, out);
        }
        for (i, p) in items.schemas.iter().enumerate() {
            open_api_schema(p, &path.child("items").index(i), ssv, false, opts, out);
        }
    }
    for (name, d) in &s.dependencies {
        if let Some(schema) = &d.schema {
            open_api_schema(
                schema,
                &path.child("dependencies").key(name),
                ssv,
                false,
                opts,
                out,
            );
        }
    }
    if s.x_preserve_unknown_fields == Some(false) {
        out.push(invalid(
            &path.child("x-kubernetes-preserve-unknown-fields"),
            BadValue::Bool(false),
            "must be true or undefined",
        ));
    }
    listtype::check(s, path, opts, out);
    rules::check(s, path, out);
}
