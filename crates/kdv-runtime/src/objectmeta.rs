//! `metadata` validation as the API server applies it to custom resources (and as
//! kubectl-validate applies it to every object): apimachinery's `ValidateObjectMetaAccessor`
//! and `ValidateObjectMetaAccessorUpdate` (name, generateName, namespace, generation,
//! labels, annotations, owner references, finalizers, managed fields; immutable fields on
//! update), the name rules of `ValidateNameFunc`, and apiextensions-apiserver's checks of an
//! `x-kubernetes-embedded-resource` object (`objectmeta.Validate`).
//!
//! The `metadata` value is first decoded into `ObjectMeta` as the server decodes it
//! ([`decode_object_meta`]: Go's `encoding/json` rules and error texts); the checks then
//! read the decoded fields. Validating valid metadata allocates nothing.
//!
//! Which rules apply is described by [`ObjectMetaRules`]: the scope, the name rule, and
//! whether to treat the object as the server treats a write request before validating it
//! ([`ObjectMetaRules::request`]). Map-valued fields are checked in key order (Go iterates
//! maps in random order, so upstream's order among errors of one map is unspecified).
//!
//! ```
//! use kdv_runtime::objectmeta::{ObjectMetaRules, validate_object_meta};
//! use kdv_runtime::{ErrorList, PathRef};
//! use serde_json::json;
//!
//! let root = PathRef::Nil;
//! let path = root.child("metadata");
//! let meta = json!({"name": "Foo", "labels": {"app": "-x"}});
//! let mut errs = ErrorList::new();
//! validate_object_meta(Some(&meta), &ObjectMetaRules::custom_resource(false), &path, &mut errs);
//! assert!(errs[0].to_string().starts_with(
//!     "metadata.name: Invalid value: \"Foo\": a lowercase RFC 1123 subdomain must consist of"));
//! assert!(errs[1].to_string().starts_with(
//!     "metadata.labels: Invalid value: \"-x\": a valid label must be an empty string"));
//! ```

mod decode;
mod gotime;

use serde_json::{Map, Value};

pub use decode::{
    ManagedFieldsEntry, MetaDecodeError, ObjectMeta, OwnerReference, decode_object_meta,
    unknown_fields,
};
pub use gotime::{GoTime, parse_rfc3339};

use crate::error::{BadValue, ErrorList, ErrorListExt, FieldError};
use crate::format::{
    DNS1035_LABEL_FMT, DNS1035_LABEL_MSG, DNS1123_LABEL_FMT, DNS1123_LABEL_MSG,
    DNS1123_SUBDOMAIN_FMT, DNS1123_SUBDOMAIN_MSG, label_key_messages, label_value_messages,
    path_segment_name_messages, path_segment_prefix_messages, regex_error,
};
use crate::gofmt;
use crate::path::PathRef;

/// Upstream's `TotalAnnotationSizeLimitB`: keys and values together, in bytes.
pub const TOTAL_ANNOTATION_SIZE_LIMIT: usize = 256 * (1 << 10);
/// `FieldManagerMaxLength`.
const FIELD_MANAGER_MAX_LENGTH: usize = 128;
/// `MaxSubresourceNameLength`.
const MAX_SUBRESOURCE_NAME_LENGTH: usize = 256;
/// `names.MaxGeneratedNameLength`: the part of `generateName` a generated name keeps.
const MAX_GENERATED_NAME_LENGTH: usize = 58;
/// What kdv appends to `generateName` where the server appends five random characters of
/// its alphabet (`bcdfghjklmnpqrstvwxz2456789`); any of them gives the same verdict.
const GENERATED_SUFFIX: &str = "xxxxx";
/// The name apiextensions-apiserver gives an embedded resource without one.
const FAKE_NAME: &str = "fakename";

const FINALIZER_ORPHAN_DEPENDENTS: &str = "orphan";
const FINALIZER_DELETE_DEPENDENTS: &str = "foregroundDeletion";
const FIELD_IMMUTABLE: &str = "field is immutable";

/// Which `ValidateNameFunc` checks `metadata.name` (and, as a prefix, `generateName`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum NameRule {
    /// `NameIsDNSSubdomain`: custom resources and most built-in kinds.
    #[default]
    DnsSubdomain,
    /// `NameIsDNSLabel` (namespaces, services' ports, ...).
    DnsLabel,
    /// `NameIsDNS1035Label` (services).
    Dns1035Label,
    /// `validatePathSegment` (`IsPathSegmentName`; `IsPathSegmentPrefix` for generateName):
    /// embedded resources and the generic registry's common checks.
    PathSegment,
}

/// `util/validation`'s length message (names and namespaces say characters; label keys and
/// values, checked by the newer `content` package, say bytes).
fn max_len_chars(n: usize) -> String {
    format!("must be no more than {n} characters")
}

#[inline]
fn lower_alnum(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit()
}

/// Whether the bytes match `[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*`
/// (`dots`) or the same without dots.
fn dns1123_bytes(bytes: impl Iterator<Item = u8>, dots: bool) -> bool {
    let mut label_start = true;
    let mut prev = 0u8;
    for b in bytes {
        if b == b'.' && dots {
            if label_start || prev == b'-' {
                return false;
            }
            label_start = true;
        } else if lower_alnum(b) || (b == b'-' && !label_start) {
            label_start = false;
        } else {
            return false;
        }
        prev = b;
    }
    !label_start && prev != b'-'
}

/// Whether the bytes match `[a-z]([-a-z0-9]*[a-z0-9])?`.
fn dns1035_bytes(mut bytes: impl Iterator<Item = u8>) -> bool {
    match bytes.next() {
        Some(first) if first.is_ascii_lowercase() => {
            dns1123_bytes(std::iter::once(first).chain(bytes), false)
        }
        _ => false,
    }
}

fn subdomain_messages(len: usize, ok: bool, msgs: &mut Vec<String>) {
    if len > 253 {
        msgs.push(max_len_chars(253));
    }
    if !ok {
        msgs.push(regex_error(
            DNS1123_SUBDOMAIN_MSG,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
}

fn label_messages(len: usize, ok: bool, ok_as_subdomain: bool, msgs: &mut Vec<String>) {
    if len > 63 {
        msgs.push(max_len_chars(63));
    }
    if !ok {
        if ok_as_subdomain {
            msgs.push("must not contain dots".to_owned());
        } else {
            msgs.push(regex_error(
                DNS1123_LABEL_MSG,
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
}

fn dns1035_messages(len: usize, ok: bool, msgs: &mut Vec<String>) {
    if len > 63 {
        msgs.push(max_len_chars(63));
    }
    if !ok {
        msgs.push(regex_error(
            DNS1035_LABEL_MSG,
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
}

/// `util/validation.IsDNS1035Label` of a value (messages appended to `msgs`).
fn dns1035_label_messages(v: &str, msgs: &mut Vec<String>) {
    dns1035_messages(v.len(), dns1035_bytes(v.bytes()), msgs);
}

impl NameRule {
    /// The messages of upstream's `ValidateNameFunc(name, prefix)`, appended to `msgs`
    /// (nothing is allocated for a valid name). With `prefix` (a `generateName`), the DNS
    /// rules first mask a trailing dash as upstream's `maskTrailingDash` does: the last two
    /// bytes become `a`.
    pub fn messages(self, name: &str, prefix: bool, msgs: &mut Vec<String>) {
        let b = name.as_bytes();
        let masked = prefix && b.len() > 1 && b.ends_with(b"-");
        // The masked name is `name[..len-2] + "a"`, walked without building it.
        let (head, tail): (&[u8], &[u8]) = if masked {
            (&b[..b.len() - 2], b"a")
        } else {
            (b, b"")
        };
        let len = head.len() + tail.len();
        let bytes = || head.iter().chain(tail).copied();
        match self {
            NameRule::DnsSubdomain => subdomain_messages(len, dns1123_bytes(bytes(), true), msgs),
            NameRule::DnsLabel => {
                let ok = dns1123_bytes(bytes(), false);
                let sub = !ok && dns1123_bytes(bytes(), true);
                label_messages(len, ok, sub, msgs);
            }
            NameRule::Dns1035Label => dns1035_messages(len, dns1035_bytes(bytes()), msgs),
            NameRule::PathSegment if prefix => path_segment_prefix_messages(name, msgs),
            NameRule::PathSegment => path_segment_name_messages(name, msgs),
        }
    }
}

/// How a resource's metadata is checked: its scope, its name rule, and whether it is
/// checked as the API server checks a write request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ObjectMetaRules {
    /// `Some(true)`: namespaced (`namespace: Required value` when empty, else a DNS label);
    /// `Some(false)`: cluster-scoped (`namespace: Forbidden: not allowed on this type` when
    /// set); `None`: scope unknown, the namespace is not checked.
    pub namespaced: Option<bool>,
    /// The rule for `name` (and `generateName` as a prefix).
    pub name: NameRule,
    /// Check the object as the server sees a create or update request once its handlers
    /// and the registry have prepared it (`rest.BeforeCreate`/`BeforeUpdate`), instead of
    /// the bare `ValidateObjectMetaAccessor[Update]`:
    ///
    /// - create: a name is generated from `generateName` when `name` is empty (kdv appends
    ///   `xxxxx` to the first 58 bytes where the server appends five random characters);
    ///   an empty namespace of a namespaced object is the request's namespace (not
    ///   checked); a cluster-scoped object's namespace is cleared; `generation` is set
    ///   (to 1) by the strategy, so it is not checked.
    /// - update: `generation`, an empty `uid`, and the timestamps and grace period the
    ///   old object has are taken from the old object; an empty `resourceVersion` is the
    ///   live object's (as a patch or `kubectl apply` sends none); namespaces as on
    ///   create, an empty one being the old object's. The errors are those of the
    ///   registry's common checks (`ValidateObjectMetaAccessor` with path-segment names,
    ///   then `ValidateObjectMetaAccessorUpdate`), each text once as the server's message
    ///   lists them: both passes, and the strategy's repetition of the update checks,
    ///   report the same label, annotation, owner-reference and managed-field errors.
    pub request: bool,
}

impl ObjectMetaRules {
    /// The custom-resource strategy's rules: DNS-subdomain names and the CRD's scope.
    pub fn custom_resource(namespaced: bool) -> ObjectMetaRules {
        ObjectMetaRules {
            namespaced: Some(namespaced),
            name: NameRule::DnsSubdomain,
            request: false,
        }
    }

    /// These rules, applied as to a write request (see [`ObjectMetaRules::request`]).
    pub fn as_request(self) -> ObjectMetaRules {
        ObjectMetaRules {
            request: true,
            ..self
        }
    }
}

/// Validates `metadata` (a JSON object; `None` when absent, which is the zero ObjectMeta)
/// as `ValidateObjectMetaAccessor` does for CREATE, with the errors marked as
/// hand-written, as the custom-resource strategy returns them. `path` is the path of
/// `metadata` itself (`metadata` at the root).
///
/// Metadata that does not decode into `ObjectMeta` gives one error,
/// `metadata: Invalid value: <value>: <Go's decoding error>` (the server rejects such a
/// request while decoding it, with the same text).
pub fn validate_object_meta(
    metadata: Option<&Value>,
    rules: &ObjectMetaRules,
    path: &PathRef<'_>,
    out: &mut ErrorList,
) {
    let Some(meta) = decoded(metadata, path, out) else {
        return;
    };
    let start = out.len();
    create(&meta, None, rules, path, out);
    out[start..].mark_from_imperative();
}

/// The UPDATE form: `ValidateObjectMetaAccessorUpdate` (immutable `name`, `namespace`,
/// `uid`, `creationTimestamp`, `deletionTimestamp`, `deletionGracePeriodSeconds`;
/// `generation` not decremented; `resourceVersion` specified; no new finalizers while
/// deleting; labels, annotations, owner references, managed fields), or with
/// [`ObjectMetaRules::request`] the registry's checks of an update request.
pub fn validate_object_meta_update(
    new: Option<&Value>,
    old: Option<&Value>,
    rules: &ObjectMetaRules,
    path: &PathRef<'_>,
    out: &mut ErrorList,
) {
    let Some(mut new) = decoded(new, path, out) else {
        return;
    };
    let Some(mut old) = decoded(old, path, out) else {
        return;
    };
    if !rules.request {
        let start = out.len();
        update(&new, &old, path, out);
        out[start..].mark_from_imperative();
        return;
    }
    let namespaced = match rules.namespaced {
        Some(true) => {
            if new.namespace.is_empty() {
                new.namespace = old.namespace;
            }
            // Both empty: the request's namespace, unknown here.
            (!new.namespace.is_empty()).then_some(true)
        }
        Some(false) => {
            new.namespace = "";
            old.namespace = "";
            None
        }
        None => None,
    };
    new.generation = old.generation;
    if new.uid.is_empty() {
        new.uid = old.uid;
    }
    if !old.creation_timestamp.is_zero() {
        new.creation_timestamp = old.creation_timestamp;
    }
    if old.deletion_timestamp.is_some_and(|t| !t.is_zero()) {
        new.deletion_timestamp = old.deletion_timestamp;
    }
    if old.deletion_grace_period_seconds.is_some() && new.deletion_grace_period_seconds.is_none() {
        new.deletion_grace_period_seconds = old.deletion_grace_period_seconds;
    }
    if new.resource_version.is_empty() {
        // The live object always has one.
        new.resource_version = if old.resource_version.is_empty() {
            "0"
        } else {
            old.resource_version
        };
    }
    let common = ObjectMetaRules {
        namespaced,
        name: NameRule::PathSegment,
        request: false,
    };
    let start = out.len();
    create(&new, None, &common, path, out);
    update(&new, &old, path, out);
    // Both passes check labels, annotations, owner references and managed fields; the
    // server's message lists each text once.
    let mut seen = std::collections::HashSet::new();
    let mut i = start;
    while i < out.len() {
        if seen.insert(out[i].to_string()) {
            i += 1;
        } else {
            out.remove(i);
        }
    }
}

/// Validates an object at an `x-kubernetes-embedded-resource: true` node (spec §7.7,
/// apiextensions-apiserver's `validateEmbeddedResource`): `apiVersion` and `kind` are
/// required and must be well-formed strings, and `metadata`, when present, must decode
/// into ObjectMeta and pass its validation with path-segment name rules (an empty name
/// stands for `fakename`; the namespace is checked when set). Values other than JSON
/// objects are not checked. `path` is the object's path.
///
/// The errors come in the order `apiVersion`, `kind` (missing), then `apiVersion`, `kind`,
/// `metadata` (Go visits the object's keys in random order).
pub fn validate_embedded_resource(object: &Value, path: &PathRef<'_>, out: &mut ErrorList) {
    let Value::Object(m) = object else { return };
    let api_version_path = path.child("apiVersion");
    let kind_path = path.child("kind");
    if !m.contains_key("apiVersion") {
        out.push(FieldError::required(&api_version_path, ""));
    }
    if !m.contains_key("kind") {
        out.push(FieldError::required(&kind_path, ""));
    }
    if let Some(v) = m.get("apiVersion") {
        match v.as_str() {
            None => out.push(FieldError::invalid(
                &api_version_path,
                BadValue::unstructured(v),
                "must be a string",
            )),
            Some("") => out.push(FieldError::invalid(
                &api_version_path,
                BadValue::string(""),
                "must not be empty",
            )),
            Some(av) => {
                if parse_group_version(av).is_none() {
                    out.push(FieldError::invalid(
                        &api_version_path,
                        BadValue::string(av),
                        format!("unexpected GroupVersion string: {av}"),
                    ));
                }
            }
        }
    }
    if let Some(v) = m.get("kind") {
        match v.as_str() {
            None => out.push(FieldError::invalid(
                &kind_path,
                BadValue::unstructured(v),
                "must be a string",
            )),
            Some("") => out.push(FieldError::invalid(
                &kind_path,
                BadValue::string(""),
                "must not be empty",
            )),
            Some(kind) => {
                let mut msgs = Vec::new();
                if kind.is_ascii() {
                    let ok = dns1035_bytes(kind.bytes().map(|b| b.to_ascii_lowercase()));
                    dns1035_messages(kind.len(), ok, &mut msgs);
                } else {
                    dns1035_label_messages(&go_to_lower(kind), &mut msgs);
                }
                if !msgs.is_empty() {
                    out.push(FieldError::invalid(
                        &kind_path,
                        BadValue::string(kind),
                        format!(
                            "may have mixed case, but should otherwise match: {}",
                            msgs.join(",")
                        ),
                    ));
                }
            }
        }
    }
    if let Some(v) = m.get("metadata") {
        let meta_path = path.child("metadata");
        match decode_object_meta(v) {
            Err(e) => out.push(FieldError::invalid(
                &meta_path,
                BadValue::unstructured(v),
                e.to_string(),
            )),
            Ok(meta) => {
                let rules = ObjectMetaRules {
                    namespaced: Some(!meta.namespace.is_empty()),
                    name: NameRule::PathSegment,
                    request: false,
                };
                let name = meta.name.is_empty().then_some(FAKE_NAME);
                let start = out.len();
                create(&meta, name, &rules, &meta_path, out);
                out[start..].mark_from_imperative();
            }
        }
    }
}

/// The warnings the custom-resource strategy returns on create (`old` is `None`) and
/// update for finalizers the new object adds: names that are not qualified names, and
/// names without a domain and path (`metadata.finalizers: "x": prefer a domain-qualified
/// finalizer name ...`). Metadata that does not decode gives none.
pub fn finalizer_warnings(new: Option<&Value>, old: Option<&Value>) -> Vec<String> {
    let null = Value::Null;
    let Ok(new) = decode_object_meta(new.unwrap_or(&null)) else {
        return Vec::new();
    };
    let old = match old.map(decode_object_meta) {
        Some(Ok(old)) => Some(old),
        Some(Err(_)) => return Vec::new(),
        None => None,
    };
    let mut added: Vec<&str> = new.finalizers.iter().map(string_or_empty).collect();
    added.sort_unstable();
    added.dedup();
    if let Some(old) = old {
        added.retain(|f| !old.finalizers.iter().any(|o| string_or_empty(o) == *f));
    }
    let mut warnings = Vec::new();
    for f in added {
        let quoted = gofmt::quote(f);
        let mut msgs = Vec::new();
        label_key_messages(f, &mut msgs);
        for msg in msgs {
            warnings.push(format!("metadata.finalizers: {quoted}: {msg}"));
        }
        if !f.contains('/') && !matches!(f, "orphan" | "foregroundDeletion" | "kubernetes") {
            let advice = if f.contains('.') {
                "prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers"
            } else {
                "prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers"
            };
            warnings.push(format!("metadata.finalizers: {quoted}: {advice}"));
        }
    }
    warnings
}

/// Upstream's `schema.ParseGroupVersion`: `(group, version)`, or `None` for more than one
/// slash. The empty string and `/` parse as the empty group version.
pub fn parse_group_version(gv: &str) -> Option<(&str, &str)> {
    if gv.is_empty() || gv == "/" {
        return Some(("", ""));
    }
    match gv.split_once('/') {
        None => Some(("", gv)),
        Some((group, version)) if !version.contains('/') => Some((group, version)),
        Some(_) => None,
    }
}

/// Go's `strings.ToLower` (simple case mapping per character).
fn go_to_lower(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c == '\u{130}' {
                // The one character whose full lowercase mapping has two characters.
                return 'i';
            }
            let mut lower = c.to_lowercase();
            match (lower.next(), lower.next()) {
                (Some(l), None) => l,
                _ => c,
            }
        })
        .collect()
}

fn string_or_empty(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

/// Decodes `metadata`, or reports why it does not decode.
fn decoded<'a>(
    metadata: Option<&'a Value>,
    path: &PathRef<'_>,
    out: &mut ErrorList,
) -> Option<ObjectMeta<'a>> {
    let Some(v) = metadata else {
        return Some(ObjectMeta::default());
    };
    match decode_object_meta(v) {
        Ok(meta) => Some(meta),
        Err(e) => {
            out.push(
                FieldError::invalid(path, BadValue::unstructured(v), e.to_string())
                    .mark_from_imperative(),
            );
            None
        }
    }
}

/// `ValidateObjectMetaAccessor` (with a name stand-in for embedded resources), or its
/// request form.
fn create(
    meta: &ObjectMeta<'_>,
    name_override: Option<&str>,
    rules: &ObjectMetaRules,
    path: &PathRef<'_>,
    out: &mut ErrorList,
) {
    let mut generated = None;
    let mut name = name_override.unwrap_or(meta.name);
    let mut namespaced = rules.namespaced;
    let mut generation = meta.generation;
    if rules.request {
        if name.is_empty() && !meta.generate_name.is_empty() {
            let base = meta.generate_name;
            let mut end = base.len().min(MAX_GENERATED_NAME_LENGTH);
            while !base.is_char_boundary(end) {
                end -= 1;
            }
            name = generated
                .insert(format!("{}{GENERATED_SUFFIX}", &base[..end]))
                .as_str();
        }
        match namespaced {
            // Defaulted to the request's namespace, or cleared.
            Some(true) if meta.namespace.is_empty() => namespaced = None,
            Some(false) => namespaced = None,
            _ => {}
        }
        generation = 1;
    }
    let mut msgs = Vec::new();
    if !meta.generate_name.is_empty() {
        let p = path.child("generateName");
        rules.name.messages(meta.generate_name, true, &mut msgs);
        for msg in msgs.drain(..) {
            out.push(FieldError::invalid(
                &p,
                BadValue::string(meta.generate_name),
                msg,
            ));
        }
    }
    let p = path.child("name");
    if name.is_empty() {
        out.push(FieldError::required(&p, "name or generateName is required"));
    } else {
        rules.name.messages(name, false, &mut msgs);
        for msg in msgs.drain(..) {
            out.push(FieldError::invalid(&p, BadValue::string(name), msg));
        }
    }
    common(meta, namespaced, generation, path, out);
}

/// `validateObjectMetaAccessorWithOptsCommon`.
fn common(
    meta: &ObjectMeta<'_>,
    namespaced: Option<bool>,
    generation: i64,
    path: &PathRef<'_>,
    out: &mut ErrorList,
) {
    let p = path.child("namespace");
    match namespaced {
        Some(true) if meta.namespace.is_empty() => out.push(FieldError::required(&p, "")),
        Some(true) => {
            let mut msgs = Vec::new();
            NameRule::DnsLabel.messages(meta.namespace, false, &mut msgs);
            for msg in msgs {
                out.push(FieldError::invalid(
                    &p,
                    BadValue::string(meta.namespace),
                    msg,
                ));
            }
        }
        Some(false) if !meta.namespace.is_empty() => {
            out.push(FieldError::forbidden(&p, "not allowed on this type"));
        }
        _ => {}
    }
    nonnegative_generation(generation, path, out);
    validate_labels(meta.labels, &path.child("labels"), out);
    validate_annotations(meta.annotations, &path.child("annotations"), out);
    validate_owner_references(meta.owner_references, &path.child("ownerReferences"), out);
    validate_finalizers(meta.finalizers, &path.child("finalizers"), out);
    validate_managed_fields(meta.managed_fields, &path.child("managedFields"), out);
}

/// `ValidateObjectMetaAccessorUpdate`.
fn update(new: &ObjectMeta<'_>, old: &ObjectMeta<'_>, path: &PathRef<'_>, out: &mut ErrorList) {
    if old.deletion_timestamp.is_some() {
        no_new_finalizers(new.finalizers, old.finalizers, path, out);
    }
    if new.resource_version.is_empty() {
        out.push(FieldError::invalid(
            &path.child("resourceVersion"),
            BadValue::string(""),
            "must be specified for an update",
        ));
    }
    nonnegative_generation(new.generation, path, out);
    if new.generation < old.generation {
        out.push(FieldError::invalid(
            &path.child("generation"),
            BadValue::Int(new.generation),
            "must not be decremented",
        ));
    }
    // Values are built only for a changed field: validating valid metadata allocates
    // nothing.
    let immutable =
        |out: &mut ErrorList, field: &str, changed: bool, value: &dyn Fn() -> BadValue| {
            if changed {
                out.push(FieldError::invalid(
                    &path.child(field),
                    value(),
                    FIELD_IMMUTABLE,
                ));
            }
        };
    immutable(out, "name", new.name != old.name, &|| {
        BadValue::string(new.name)
    });
    immutable(out, "namespace", new.namespace != old.namespace, &|| {
        BadValue::string(new.namespace)
    });
    let declarative =
        |out: &mut ErrorList, field: &str, changed: bool, value: &dyn Fn() -> BadValue| {
            if changed {
                out.push(
                    FieldError::invalid(&path.child(field), value(), FIELD_IMMUTABLE)
                        .with_origin("immutable")
                        .mark_covered_by_declarative(),
                );
            }
        };
    declarative(out, "uid", new.uid != old.uid, &|| {
        BadValue::named_string(new.uid)
    });
    declarative(
        out,
        "creationTimestamp",
        new.creation_timestamp != old.creation_timestamp,
        &|| BadValue::Json(new.creation_timestamp.to_json()),
    );
    declarative(
        out,
        "deletionTimestamp",
        new.deletion_timestamp != old.deletion_timestamp,
        &|| BadValue::Json(new.deletion_timestamp.map_or(Value::Null, GoTime::to_json)),
    );
    declarative(
        out,
        "deletionGracePeriodSeconds",
        new.deletion_grace_period_seconds != old.deletion_grace_period_seconds,
        &|| {
            BadValue::Json(
                new.deletion_grace_period_seconds
                    .map_or(Value::Null, Value::from),
            )
        },
    );
    validate_labels(new.labels, &path.child("labels"), out);
    validate_annotations(new.annotations, &path.child("annotations"), out);
    validate_owner_references(new.owner_references, &path.child("ownerReferences"), out);
    validate_managed_fields(new.managed_fields, &path.child("managedFields"), out);
}

/// `ValidateNoNewFinalizers`.
fn no_new_finalizers(new: &[Value], old: &[Value], path: &PathRef<'_>, out: &mut ErrorList) {
    let mut extra: Vec<&str> = new
        .iter()
        .map(string_or_empty)
        .filter(|f| !old.iter().any(|o| string_or_empty(o) == *f))
        .collect();
    if extra.is_empty() {
        return;
    }
    extra.sort_unstable();
    extra.dedup();
    // `%#v` of a []string.
    let list: Vec<String> = extra.iter().map(|f| gofmt::quote(f)).collect();
    out.push(FieldError::forbidden(
        &path.child("finalizers"),
        format!(
            "no new finalizers can be added if the object is being deleted, found new finalizers []string{{{}}}",
            list.join(", ")
        ),
    ));
}

/// `ValidateNonnegativeField` of `generation`.
fn nonnegative_generation(generation: i64, path: &PathRef<'_>, out: &mut ErrorList) {
    if generation < 0 {
        out.push(
            FieldError::invalid(
                &path.child("generation"),
                BadValue::Int(generation),
                "must be greater than or equal to 0",
            )
            .with_origin("minimum")
            .mark_covered_by_declarative(),
        );
    }
}

/// `v1validation.ValidateLabels`: every key a qualified name, every value a label value.
pub fn validate_labels(
    labels: Option<&Map<String, Value>>,
    path: &PathRef<'_>,
    out: &mut ErrorList,
) {
    let Some(labels) = labels else { return };
    let mut msgs = Vec::new();
    for (k, v) in labels {
        label_key_messages(k, &mut msgs);
        for msg in msgs.drain(..) {
            out.push(
                FieldError::invalid(path, BadValue::string(k.as_str()), msg)
                    .with_origin("format=k8s-label-key"),
            );
        }
        let v = string_or_empty(v);
        label_value_messages(v, &mut msgs);
        for msg in msgs.drain(..) {
            out.push(
                FieldError::invalid(path, BadValue::string(v), msg)
                    .with_origin("format=k8s-label-value"),
            );
        }
    }
}

/// Whether the lowercased key is a qualified name, for a key of ASCII characters, without
/// building the lowercased key: lowercasing matters only to the prefix, a DNS subdomain.
fn ascii_key_lowercased_ok(k: &str) -> bool {
    let (prefix, name) = match k.split_once('/') {
        None => (None, k),
        Some((p, n)) if !n.contains('/') => (Some(p), n),
        Some(_) => return false,
    };
    let prefix_ok = prefix.is_none_or(|p| {
        !p.is_empty()
            && p.len() <= 253
            && dns1123_bytes(p.bytes().map(|b| b.to_ascii_lowercase()), true)
    });
    prefix_ok && name.len() <= 63 && crate::format::is_label_key_name(name)
}

/// `ValidateAnnotations`: keys are qualified names once lowercased; keys and values
/// together at most [`TOTAL_ANNOTATION_SIZE_LIMIT`] bytes.
pub fn validate_annotations(
    annotations: Option<&Map<String, Value>>,
    path: &PathRef<'_>,
    out: &mut ErrorList,
) {
    let Some(annotations) = annotations else {
        return;
    };
    let mut msgs = Vec::new();
    let mut total = 0usize;
    for (k, v) in annotations {
        total += k.len() + string_or_empty(v).len();
        if k.is_ascii() && ascii_key_lowercased_ok(k) {
            continue;
        }
        label_key_messages(&go_to_lower(k), &mut msgs);
        for msg in msgs.drain(..) {
            out.push(
                FieldError::invalid(path, BadValue::string(k.as_str()), msg)
                    .with_origin("format=k8s-label-key"),
            );
        }
    }
    if total > TOTAL_ANNOTATION_SIZE_LIMIT {
        out.push(FieldError::too_long(
            path,
            TOTAL_ANNOTATION_SIZE_LIMIT as i64,
        ));
    }
}

/// `ValidateOwnerReferences`.
fn validate_owner_references(refs: &[Value], path: &PathRef<'_>, out: &mut ErrorList) {
    let mut first_controller: Option<(&str, &str)> = None;
    for (i, v) in refs.iter().enumerate() {
        let r = OwnerReference::of(v);
        let at = path.index(i);
        let gv = parse_group_version(r.api_version);
        let required = |out: &mut ErrorList, field: &str| {
            out.push(
                FieldError::required(&at.child(field), "must not be empty")
                    .mark_covered_by_declarative(),
            );
        };
        if r.api_version.is_empty() {
            required(out, "apiVersion");
        } else if gv.is_none_or(|(_, version)| version.is_empty()) {
            out.push(FieldError::invalid(
                &at.child("apiVersion"),
                BadValue::string(r.api_version),
                "must be <group>/<version> or <version>",
            ));
        }
        if r.kind.is_empty() {
            required(out, "kind");
        }
        if r.name.is_empty() {
            required(out, "name");
        }
        if r.uid.is_empty() {
            required(out, "uid");
        }
        let (group, version) = gv.unwrap_or(("", ""));
        if group.is_empty() && version == "v1" && r.kind == "Event" {
            out.push(FieldError::invalid(
                &at,
                BadValue::Json(r.to_json()),
                "/v1, Kind=Event is disallowed from being an owner",
            ));
        }
        if r.controller == Some(true) {
            match first_controller {
                Some((kind, name)) => {
                    let all = refs.iter().map(|v| OwnerReference::of(v).to_json());
                    out.push(FieldError::invalid(
                        path,
                        BadValue::Json(Value::Array(all.collect())),
                        format!(
                            "Only one reference can have Controller set to true. Found \"true\" in references for {kind}/{name} and {}/{}",
                            r.kind, r.name
                        ),
                    ));
                }
                None => first_controller = Some((r.kind, r.name)),
            }
        }
    }
}

/// `ValidateFinalizers`: names are qualified names; `orphan` and `foregroundDeletion`
/// exclude each other.
fn validate_finalizers(finalizers: &[Value], path: &PathRef<'_>, out: &mut ErrorList) {
    let mut msgs = Vec::new();
    let (mut orphan, mut delete) = (false, false);
    for v in finalizers {
        let f = string_or_empty(v);
        label_key_messages(f, &mut msgs);
        for msg in msgs.drain(..) {
            out.push(FieldError::invalid(path, BadValue::string(f), msg));
        }
        orphan |= f == FINALIZER_ORPHAN_DEPENDENTS;
        delete |= f == FINALIZER_DELETE_DEPENDENTS;
    }
    if orphan && delete {
        let all: Vec<Value> = finalizers
            .iter()
            .map(|v| Value::from(string_or_empty(v)))
            .collect();
        out.push(FieldError::invalid(
            path,
            BadValue::Json(Value::Array(all)),
            format!(
                "finalizer {FINALIZER_ORPHAN_DEPENDENTS} and {FINALIZER_DELETE_DEPENDENTS} cannot be both set"
            ),
        ));
    }
}

/// `v1validation.ValidateManagedFields` (with `CoveredByDeclarative`).
fn validate_managed_fields(entries: &[Value], path: &PathRef<'_>, out: &mut ErrorList) {
    for (i, v) in entries.iter().enumerate() {
        let e = ManagedFieldsEntry::of(v);
        let at = path.index(i);
        match e.operation {
            "" => out.push(
                FieldError::required(&at.child("operation"), "must not be empty")
                    .mark_covered_by_declarative(),
            ),
            "Apply" | "Update" => {}
            op => out.push(
                FieldError::not_supported(
                    &at.child("operation"),
                    BadValue::named_string(op),
                    &["Apply", "Update"],
                )
                .mark_covered_by_declarative(),
            ),
        }
        if !e.fields_type.is_empty() && e.fields_type != "FieldsV1" {
            out.push(FieldError::invalid(
                &at.child("fieldsType"),
                BadValue::string(e.fields_type),
                "must be `FieldsV1`",
            ));
        }
        let manager = at.child("manager");
        if e.manager.len() > FIELD_MANAGER_MAX_LENGTH {
            out.push(FieldError::too_long(
                &manager,
                FIELD_MANAGER_MAX_LENGTH as i64,
            ));
        }
        for (pos, c) in e.manager.char_indices() {
            if !gofmt::is_go_printable(c) {
                out.push(FieldError::invalid(
                    &manager,
                    BadValue::string(e.manager),
                    format!(
                        "invalid character U+{:04X} (at position {pos})",
                        u32::from(c)
                    ),
                ));
            }
        }
        if e.subresource.len() > MAX_SUBRESOURCE_NAME_LENGTH {
            out.push(FieldError::too_long(
                &at.child("subresource"),
                MAX_SUBRESOURCE_NAME_LENGTH as i64,
            ));
        }
    }
}

#[cfg(test)]
mod tests;
