//! Versions and what hangs off them: names, served/storage, deprecation warnings,
//! schemas (through [`super::schema`]), the scale subresource's JSON paths, printer columns,
//! selectable fields, and the spec's conversion (strategy, webhook client, review
//! versions).

use kdv_runtime::{BadValue, ErrorList, FieldPath};

use super::model::{
    Column, Conversion, Props, SelectableField, Spec, Subresources, Version, strings,
    versions_go_json,
};
use super::names::{dns1035, dns1123_subdomain, enum_string};
use super::path::{duplicate, forbidden, invalid, required, too_many};
use super::{Opts, schema, structural};

/// `MaxSelectableFields`.
const MAX_SELECTABLE_FIELDS: i64 = 8;

/// `printerColumnDatatypes`, sorted.
const COLUMN_TYPES: [&str; 5] = ["boolean", "date", "integer", "number", "string"];
/// `customResourceColumnDefinitionFormats`, sorted.
const COLUMN_FORMATS: [&str; 8] = [
    "byte",
    "date",
    "date-time",
    "double",
    "float",
    "int32",
    "int64",
    "password",
];

/// The subresources that apply to a version (`getSubresourcesForVersion`).
fn subresources_for<'s>(spec: &'s Spec<'_>, name: &str) -> Option<&'s Subresources> {
    if !spec.versions.iter().any(|v| v.subresources.is_some()) {
        return spec.subresources.as_ref();
    }
    spec.versions
        .iter()
        .find(|v| v.name == name)
        .and_then(|v| v.subresources.as_ref())
}

fn has_status(s: Option<&Subresources>) -> bool {
    s.is_some_and(|s| s.status)
}

/// The versions loop of `validateCustomResourceDefinitionSpec` and the checks of the list
/// that follow it (unique names, one storage version, the top-level version).
pub(crate) fn versions(spec: &Spec<'_>, opts: &Opts, out: &mut ErrorList) {
    let path = FieldPath::new("spec").child("versions");
    let mut storage = 0;
    let mut unique = true;
    let mut seen: Vec<&str> = Vec::new();
    for (i, v) in spec.versions.iter().enumerate() {
        if v.storage {
            storage += 1;
        }
        if seen.contains(&v.name.as_str()) {
            unique = false;
        } else {
            seen.push(&v.name);
        }
        let vpath = path.index(i);
        let errs = dns1035(&v.name);
        if !errs.is_empty() {
            out.push(invalid(
                &vpath.child("name"),
                BadValue::string(&v.name),
                errs.join(","),
            ));
        }
        let status = has_status(subresources_for(spec, &v.name));
        version(v, &vpath, status, opts, out);
    }
    // The mutual exclusions of top-level and per-version fields, and the "identical per
    // version" checks, cannot fail for a v1 object: its conversion moves identical fields
    // to the top and leaves the others per version.
    if !unique {
        out.push(invalid(
            &path,
            BadValue::Encoded(versions_go_json(&spec.versions)),
            "must contain unique version names",
        ));
    }
    if storage != 1 {
        out.push(invalid(
            &path,
            BadValue::Encoded(versions_go_json(&spec.versions)),
            "must have exactly one version marked as storage version",
        ));
    }
    if !spec.version.is_empty() {
        let errs = dns1035(&spec.version);
        if !errs.is_empty() {
            out.push(invalid(
                &FieldPath::new("spec").child("version"),
                BadValue::string(&spec.version),
                errs.join(","),
            ));
        }
    }
}

/// `validateCustomResourceDefinitionVersion`.
fn version(v: &Version<'_>, path: &FieldPath, status: bool, opts: &Opts, out: &mut ErrorList) {
    for e in deprecation_warning(v.deprecated, v.deprecation_warning.as_deref()) {
        let value = match &v.deprecation_warning {
            Some(w) => BadValue::named_string(w.as_str()),
            None => BadValue::Null,
        };
        out.push(invalid(&path.child("deprecationWarning"), value, e));
    }
    schema::validate_validation(v.schema.as_ref(), status, opts, &path.child("schema"), out);
    subresources(v.subresources.as_ref(), &path.child("subresources"), out);
    for (i, c) in v.additional_printer_columns.iter().enumerate() {
        column(c, &path.child("additionalPrinterColumns").index(i), out);
    }
    if !v.selectable_fields.is_empty() {
        match v
            .schema
            .as_ref()
            .and_then(|s| s.open_api_v3_schema.as_deref())
        {
            None => out.push(invalid(
                &path.child("selectableFields"),
                BadValue::string(""),
                "may only be set when `version.schema.openAPIV3Schema` is not included",
            )),
            Some(s) => selectable_fields(
                &v.selectable_fields,
                s,
                path,
                &path.child("selectableFields"),
                out,
            ),
        }
    }
}

/// `validateDeprecationWarning`.
fn deprecation_warning(deprecated: bool, warning: Option<&str>) -> Vec<String> {
    if !deprecated && warning.is_some() {
        return vec!["can only be set for deprecated versions".to_owned()];
    }
    let Some(w) = warning else {
        return Vec::new();
    };
    let mut errs = Vec::new();
    if w.len() > 256 {
        errs.push("must be <= 256 characters long".to_owned());
    }
    if w.is_empty() {
        errs.push("must not be an empty string".to_owned());
    }
    for (i, c) in w.char_indices() {
        // Invalid UTF-8 cannot reach here (the input is a Rust string); Go would see
        // U+FFFD, which is printable.
        if !kdv_runtime::gofmt::is_go_printable(c) {
            errs.push(format!(
                "must only contain printable UTF-8 characters; non-printable character found at index {i}"
            ));
            break;
        }
        if c.is_control() {
            errs.push(format!(
                "must only contain printable UTF-8 characters; control character found at index {i}"
            ));
            break;
        }
    }
    errs
}

/// `ValidateCustomResourceDefinitionSubresources`.
pub(crate) fn subresources(s: Option<&Subresources>, path: &FieldPath, out: &mut ErrorList) {
    let Some(scale) = s.and_then(|s| s.scale.as_ref()) else {
        return;
    };
    let spec_path = path.child("scale.specReplicasPath");
    if scale.spec_replicas_path.is_empty() {
        out.push(required(&spec_path, ""));
    } else if !simple_json_path(&scale.spec_replicas_path, &spec_path, out)
        && !scale.spec_replicas_path.starts_with(".spec.")
    {
        out.push(invalid(
            &spec_path,
            BadValue::string(&scale.spec_replicas_path),
            "should be a json path under .spec",
        ));
    }
    let status_path = path.child("scale.statusReplicasPath");
    if scale.status_replicas_path.is_empty() {
        out.push(required(&status_path, ""));
    } else if !simple_json_path(&scale.status_replicas_path, &status_path, out)
        && !scale.status_replicas_path.starts_with(".status.")
    {
        out.push(invalid(
            &status_path,
            BadValue::string(&scale.status_replicas_path),
            "should be a json path under .status",
        ));
    }
    if let Some(selector) = scale.label_selector_path.as_deref()
        && !selector.is_empty()
    {
        let selector_path = path.child("scale.labelSelectorPath");
        if !simple_json_path(selector, &selector_path, out)
            && !selector.starts_with(".spec.")
            && !selector.starts_with(".status.")
        {
            out.push(invalid(
                &selector_path,
                BadValue::named_string(selector),
                "should be a json path under either .spec or .status",
            ));
        }
    }
}

/// `validateSimpleJSONPath`; whether it reported an error.
fn simple_json_path(s: &str, path: &FieldPath, out: &mut ErrorList) -> bool {
    let detail = if s.is_empty() {
        "must not be empty"
    } else if !s.starts_with('.') {
        "must be a simple json path starting with ."
    } else {
        // `strings.Split` never returns an empty list: "must be a json path in the dot
        // notation" cannot happen.
        return false;
    };
    out.push(invalid(path, BadValue::string(s), detail));
    true
}

/// `ValidateCustomResourceColumnDefinition`.
pub(crate) fn column(c: &Column, path: &FieldPath, out: &mut ErrorList) {
    if c.name.is_empty() {
        out.push(required(&path.child("name"), ""));
    }
    let types = format!("must be one of {}", COLUMN_TYPES.join(","));
    if c.type_.is_empty() {
        out.push(required(&path.child("type"), types));
    } else if !COLUMN_TYPES.contains(&c.type_.as_str()) {
        out.push(invalid(
            &path.child("type"),
            BadValue::string(&c.type_),
            types,
        ));
    }
    if !c.format.is_empty() && !COLUMN_FORMATS.contains(&c.format.as_str()) {
        out.push(invalid(
            &path.child("format"),
            BadValue::string(&c.format),
            format!("must be one of {}", COLUMN_FORMATS.join(",")),
        ));
    }
    if c.json_path.is_empty() {
        out.push(required(&path.child("JSONPath"), ""));
    } else {
        simple_json_path(&c.json_path, &path.child("JSONPath"), out);
    }
}

/// `ValidateCustomResourceSelectableFields` (after `NewStructural` of the schema, whose
/// error is reported at `<owner>.schema.openAPIV3Schema`).
pub(crate) fn selectable_fields(
    fields: &[SelectableField],
    schema: &Props<'_>,
    owner: &FieldPath,
    path: &FieldPath,
    out: &mut ErrorList,
) {
    if let Some(e) = structural::new_structural_error(schema) {
        out.push(invalid(
            &owner.child("schema.openAPIV3Schema"),
            BadValue::string(""),
            e,
        ));
        // Upstream goes on with a nil schema and panics; there is nothing to check against.
        return;
    }
    let mut unique: Vec<String> = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        let p = path.index(i).child("jsonPath");
        if f.json_path.is_empty() {
            out.push(required(&p, ""));
            continue;
        }
        let (found_path, found) = match crate::cel::field_path::walk(&f.json_path, schema, false) {
            Ok(x) => x,
            Err(e) => {
                out.push(invalid(
                    &p,
                    BadValue::string(&f.json_path),
                    format!("is an invalid path: {e}"),
                ));
                continue;
            }
        };
        if matches!(found_path.segments().first(), Some(kdv_runtime::Segment::Field(f)) if f == "metadata")
        {
            out.push(invalid(
                &p,
                BadValue::string(&f.json_path),
                "must not point to fields in metadata",
            ));
        }
        if !found.is_some_and(|s| matches!(s.type_.as_str(), "string" | "boolean" | "integer")) {
            out.push(invalid(
                &p,
                BadValue::string(&f.json_path),
                "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.",
            ));
        }
        let key = found_path.to_string();
        if unique.contains(&key) {
            out.push(duplicate(&p, BadValue::string(&f.json_path)));
        } else {
            unique.push(key);
        }
    }
    let count = unique.len() as i64;
    if count > MAX_SELECTABLE_FIELDS {
        out.push(too_many(path, count, MAX_SELECTABLE_FIELDS));
    }
}

/// The spec's `selectableFields` (moved to the spec when every version has the same).
pub(crate) fn spec_selectable_fields(spec: &Spec<'_>, out: &mut ErrorList) {
    if spec.selectable_fields.is_empty() {
        return;
    }
    let spec_path = FieldPath::new("spec");
    match spec.validation.as_ref() {
        None => out.push(invalid(
            &spec_path.child("selectableFields"),
            BadValue::string(""),
            "may only be set when validations.schema is included",
        )),
        Some(v) => match v.open_api_v3_schema.as_deref() {
            Some(s) => selectable_fields(
                &spec.selectable_fields,
                s,
                &spec_path,
                &spec_path.child("selectableFields"),
                out,
            ),
            // `NewStructural(nil)` is nil without error; upstream then dereferences it.
            None => out.push(invalid(
                &spec_path.child("selectableFields"),
                BadValue::string(""),
                "may only be set when validations.schema is included",
            )),
        },
    }
}

/// `ValidateWebhookURL(path, url, forceHttps=true)`.
fn webhook_url(path: &FieldPath, url: &str, out: &mut ErrorList) {
    const FORM: &str = "; desired format: https://host[/path]";
    match kdv_cel::library::k8s::urls::parse(url) {
        Err(e) => out.push(required(
            path,
            format!("url must be a valid URL: {e}{FORM}"),
        )),
        Ok(u) => {
            if u.scheme != "https" {
                out.push(invalid(
                    path,
                    BadValue::string(&u.scheme),
                    format!("'https' is the only allowed URL scheme{FORM}"),
                ));
            }
            if u.host.is_empty() {
                out.push(invalid(
                    path,
                    BadValue::string(&u.host),
                    format!("host must be specified{FORM}"),
                ));
            }
            if let Some(user) = &u.user {
                out.push(invalid(
                    path,
                    BadValue::string(user),
                    "user information is not permitted in the URL",
                ));
            }
            if !u.fragment.is_empty() {
                out.push(invalid(
                    path,
                    BadValue::string(&u.fragment),
                    "fragments are not permitted in the URL",
                ));
            }
            if !u.raw_query.is_empty() {
                out.push(invalid(
                    path,
                    BadValue::string(&u.raw_query),
                    "query parameters are not permitted in the URL",
                ));
            }
        }
    }
}

/// `ValidateWebhookService`.
fn webhook_service(
    path: &FieldPath,
    namespace: &str,
    name: &str,
    url_path: Option<&str>,
    port: i32,
    out: &mut ErrorList,
) {
    if name.is_empty() {
        out.push(required(&path.child("name"), ""));
    }
    if namespace.is_empty() {
        out.push(required(&path.child("namespace"), ""));
    }
    if !(1..=65535).contains(&port) {
        out.push(invalid(
            &path.child("port"),
            BadValue::Int(i64::from(port)),
            "port is not valid: must be between 1 and 65535, inclusive",
        ));
    }
    let Some(p) = url_path else { return };
    if p == "/" || p.is_empty() {
        return;
    }
    let at = path.child("path");
    if p == "//" {
        out.push(invalid(
            &at,
            BadValue::string(p),
            "segment[0] may not be empty",
        ));
        return;
    }
    if !p.starts_with('/') {
        out.push(invalid(&at, BadValue::string(p), "must start with a '/'"));
    }
    // `urlPath[1:]` drops the first byte whatever it is.
    let mut check = p.get(1..).unwrap_or("");
    if let Some(stripped) = check.strip_suffix('/') {
        check = stripped;
    }
    for (i, step) in check.split('/').enumerate() {
        if step.is_empty() {
            out.push(invalid(
                &at,
                BadValue::string(p),
                format!("segment[{i}] may not be empty"),
            ));
            continue;
        }
        for failure in dns1123_subdomain(step) {
            out.push(invalid(
                &at,
                BadValue::string(p),
                format!("segment[{i}]: {failure}"),
            ));
        }
    }
}

/// `validateConversionReviewVersions` with a recognized version required.
fn review_versions(versions: &[String], path: &FieldPath, out: &mut ErrorList) {
    if versions.is_empty() {
        out.push(required(path, ""));
        return;
    }
    let mut seen: Vec<&str> = Vec::new();
    let mut accepted = false;
    for (i, v) in versions.iter().enumerate() {
        if seen.contains(&v.as_str()) {
            out.push(invalid(
                &path.index(i),
                BadValue::string(v),
                "duplicate version",
            ));
            continue;
        }
        seen.push(v);
        for e in dns1035(v) {
            out.push(invalid(&path.index(i), BadValue::string(v), e));
        }
        if v == "v1" || v == "v1beta1" {
            accepted = true;
        }
    }
    if !accepted {
        let mut s = String::new();
        strings(&mut s, versions);
        out.push(invalid(
            path,
            BadValue::Encoded(s),
            "must include at least one of v1, v1beta1",
        ));
    }
}

/// The spec's conversion: strategy against `preserveUnknownFields`, then
/// `validateCustomResourceConversion` (the CA bundle is not checked on create).
pub(crate) fn conversion(spec: &Spec<'_>, out: &mut ErrorList) {
    let path = FieldPath::new("spec").child("conversion");
    let Some(c) = spec.conversion.as_ref() else {
        return;
    };
    if c.strategy != "None" && spec.preserve_unknown_fields != Some(false) {
        out.push(invalid(
            &path.child("strategy"),
            BadValue::named_string(c.strategy.as_str()),
            "must be None if spec.preserveUnknownFields is true",
        ));
    }
    webhook(c, &path, out);
}

fn webhook(c: &Conversion, path: &FieldPath, out: &mut ErrorList) {
    enum_string(
        &path.child("strategy"),
        &c.strategy,
        &["None", "Webhook"],
        out,
    );
    let config_path = path.child("webhookClientConfig");
    if c.strategy == "Webhook" {
        match &c.webhook_client_config {
            None => out.push(required(
                &config_path,
                "required when strategy is set to Webhook",
            )),
            Some(cc) => match (&cc.url, &cc.service) {
                (None, None) | (Some(_), Some(_)) => out.push(required(
                    &config_path,
                    "exactly one of url or service is required",
                )),
                (Some(url), None) => webhook_url(&config_path.child("url"), url, out),
                (None, Some(s)) => webhook_service(
                    &config_path.child("service"),
                    &s.namespace,
                    &s.name,
                    s.path.as_deref(),
                    s.port,
                    out,
                ),
            },
        }
        review_versions(
            &c.conversion_review_versions,
            &path.child("conversionReviewVersions"),
            out,
        );
    } else {
        if c.webhook_client_config.is_some() {
            out.push(forbidden(
                &config_path,
                "should not be set when strategy is not set to Webhook",
            ));
        }
        if !c.conversion_review_versions.is_empty() {
            out.push(forbidden(
                &path.child("conversionReviewVersions"),
                "should not be set when strategy is not set to Webhook",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Test_validateDeprecationWarning` (its non-UTF-8 case cannot occur: documents are
    /// read as UTF-8).
    #[test]
    fn upstream_deprecation_warning_table() {
        let long = "x".repeat(256);
        let too_long = "x".repeat(257);
        let non_printable = |i: usize| {
            vec![format!(
                "must only contain printable UTF-8 characters; non-printable character found at index {i}"
            )]
        };
        let cases: [(bool, Option<&str>, Vec<String>); 9] = [
            (false, None, vec![]),
            (
                false,
                Some(""),
                vec!["can only be set for deprecated versions".into()],
            ),
            (
                false,
                Some("foo"),
                vec!["can only be set for deprecated versions".into()],
            ),
            (true, Some("Iñtërnâtiônàlizætiøn,💝🐹🌇⛔"), vec![]),
            (true, Some(&long), vec![]),
            (
                true,
                Some(&too_long),
                vec!["must be <= 256 characters long".into()],
            ),
            (true, Some("Test message\nfoo"), non_printable(12)),
            (true, Some("Test message\u{8}"), non_printable(12)),
            (true, Some("Test message\u{0}"), non_printable(12)),
        ];
        for (deprecated, warning, want) in cases {
            assert_eq!(
                deprecation_warning(deprecated, warning),
                want,
                "{warning:?}"
            );
        }
    }

    #[test]
    fn simple_json_paths() {
        let mut out = ErrorList::new();
        let p = FieldPath::new("x");
        assert!(!simple_json_path(".spec.x", &p, &mut out));
        assert!(!simple_json_path(".", &p, &mut out));
        assert!(simple_json_path("spec", &p, &mut out));
        assert!(simple_json_path("", &p, &mut out));
        let texts: Vec<String> = out.iter().map(ToString::to_string).collect();
        assert_eq!(
            texts,
            [
                "x: Invalid value: \"spec\": must be a simple json path starting with .",
                "x: Invalid value: \"\": must not be empty"
            ]
        );
    }
}
