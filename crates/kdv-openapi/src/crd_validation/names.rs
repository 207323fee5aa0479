//! The CRD's identity: `metadata` (ObjectMeta as for any cluster-scoped create, the name
//! `<plural>.<group>`), `spec.group`, `spec.scope`, `spec.names`
//! (`ValidateCustomResourceDefinitionNames`), the API approval annotation of protected
//! groups, `status.storedVersions` and `spec.preserveUnknownFields`.

use kdv_runtime::objectmeta::{
    NameRule, ObjectMetaRules, decode_object_meta, validate_object_meta,
};
use kdv_runtime::{BadValue, ErrorList, FieldPath, PathRef};

use super::model::{Crd, Names, Spec, Version, strings};
use super::path::{invalid, not_supported, required};

/// `validateEnumStrings`: required, one of `accepted`.
pub(crate) fn enum_string(path: &FieldPath, value: &str, accepted: &[&str], out: &mut ErrorList) {
    if value.is_empty() {
        out.push(required(path, ""));
    } else if !accepted.contains(&value) {
        out.push(not_supported(path, BadValue::string(value), accepted));
    }
}

/// `utilvalidation.IsDNS1035Label` messages.
pub(crate) fn dns1035(value: &str) -> Vec<String> {
    let mut msgs = Vec::new();
    NameRule::Dns1035Label.messages(value, false, &mut msgs);
    msgs
}

/// `utilvalidation.IsDNS1123Subdomain` messages.
pub(crate) fn dns1123_subdomain(value: &str) -> Vec<String> {
    let mut msgs = Vec::new();
    NameRule::DnsSubdomain.messages(value, false, &mut msgs);
    msgs
}

/// `metadata`: `ValidateObjectMetaAccessor` of a cluster-scoped object with the CRD's name
/// function (`NameIsDNSSubdomain` plus `must be spec.names.plural+"."+spec.group`), as the
/// registry prepares a create request.
pub(crate) fn metadata(crd: &Crd<'_>, out: &mut ErrorList) {
    let root = PathRef::Nil;
    let path = root.child("metadata");
    let rules = ObjectMetaRules {
        namespaced: Some(false),
        name: NameRule::DnsSubdomain,
        request: true,
    };
    let start = out.len();
    validate_object_meta(crd.metadata, &rules, &path, out);
    let Some(meta) = crd.metadata.and_then(|m| decode_object_meta(m).ok()) else {
        return;
    };
    let wanted = format!("{}.{}", crd.spec.names.plural, crd.spec.group);
    let detail = r#"must be spec.names.plural+"."+spec.group"#;
    let is = |i: usize, field: &str| {
        out[i].field.segments().get(1)
            == Some(&kdv_runtime::Segment::Field(field.to_owned().into()))
    };
    // The name function's messages follow the DNS ones of the same field; generateName
    // comes first, then name.
    let mut after_generate = start;
    while after_generate < out.len() && is(after_generate, "generateName") {
        after_generate += 1;
    }
    let mut extra = Vec::new();
    if !meta.generate_name.is_empty() && meta.generate_name != wanted {
        extra.push((
            after_generate,
            invalid(
                &FieldPath::new("metadata").child("generateName"),
                BadValue::string(meta.generate_name),
                detail,
            ),
        ));
    }
    // An empty name is generated from generateName (kdv appends `xxxxx` where the server
    // appends five random characters).
    let name = if meta.name.is_empty() && !meta.generate_name.is_empty() {
        let mut cut = meta.generate_name.len().min(58);
        while !meta.generate_name.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{}xxxxx", &meta.generate_name[..cut])
    } else {
        meta.name.to_owned()
    };
    if !name.is_empty() && name != wanted {
        let mut after_name = after_generate;
        while after_name < out.len() && is(after_name, "name") {
            after_name += 1;
        }
        extra.push((
            after_name,
            invalid(
                &FieldPath::new("metadata").child("name"),
                BadValue::string(name),
                detail,
            ),
        ));
    }
    for (i, e) in extra.into_iter().rev() {
        out.insert(i, e);
    }
}

/// `spec.group` and `spec.scope`.
pub(crate) fn group_and_scope(spec: &Spec<'_>, out: &mut ErrorList) {
    let path = FieldPath::new("spec").child("group");
    if spec.group.is_empty() {
        out.push(required(&path, ""));
    } else {
        let errs = dns1123_subdomain(&spec.group);
        if !errs.is_empty() {
            out.push(invalid(
                &path,
                BadValue::string(&spec.group),
                errs.join(","),
            ));
        } else if spec.group.split('.').count() < 2 {
            out.push(invalid(
                &path,
                BadValue::string(&spec.group),
                "should be a domain with at least one dot",
            ));
        }
    }
    enum_string(
        &FieldPath::new("spec").child("scope"),
        &spec.scope,
        &["Cluster", "Namespaced"],
        out,
    );
}

/// The names a spec requires (status's accepted names may be empty).
pub(crate) fn required_names(names: &Names, out: &mut ErrorList) {
    let path = FieldPath::new("spec").child("names");
    for (field, value) in [
        ("plural", &names.plural),
        ("singular", &names.singular),
        ("kind", &names.kind),
        ("listKind", &names.list_kind),
    ] {
        if value.is_empty() {
            out.push(required(&path.child(field), ""));
        }
    }
}

/// `ValidateCustomResourceDefinitionNames`.
pub(crate) fn names(names: &Names, path: &FieldPath, out: &mut ErrorList) {
    let label = |field: &str, value: &str, out: &mut ErrorList| {
        let errs = dns1035(value);
        if !value.is_empty() && !errs.is_empty() {
            out.push(invalid(
                &path.child(field),
                BadValue::string(value),
                errs.join(","),
            ));
        }
    };
    label("plural", &names.plural, out);
    label("singular", &names.singular, out);
    let mixed = |field: &str, value: &str, out: &mut ErrorList| {
        let errs = dns1035(&value.to_lowercase());
        if !value.is_empty() && !errs.is_empty() {
            out.push(invalid(
                &path.child(field),
                BadValue::string(value),
                format!(
                    "may have mixed case, but should otherwise match: {}",
                    errs.join(",")
                ),
            ));
        }
    };
    mixed("kind", &names.kind, out);
    mixed("listKind", &names.list_kind, out);
    for (i, s) in names.short_names.iter().enumerate() {
        let errs = dns1035(s);
        if !errs.is_empty() {
            out.push(invalid(
                &path.child("shortNames").index(i),
                BadValue::string(s),
                errs.join(","),
            ));
        }
    }
    if !names.kind.is_empty() && names.kind == names.list_kind {
        out.push(invalid(
            &path.child("listKind"),
            BadValue::string(&names.list_kind),
            "kind and listKind may not be the same",
        ));
    }
    for (i, c) in names.categories.iter().enumerate() {
        let errs = dns1035(c);
        if !errs.is_empty() {
            out.push(invalid(
                &path.child("categories").index(i),
                BadValue::string(c),
                errs.join(","),
            ));
        }
    }
}

/// `ValidateCustomResourceDefinitionStoredVersions`.
pub(crate) fn stored_versions(stored: &[String], versions: &[Version<'_>], out: &mut ErrorList) {
    let path = FieldPath::new("status").child("storedVersions");
    let value = || {
        let mut s = String::new();
        strings(&mut s, stored);
        BadValue::Encoded(s)
    };
    if stored.is_empty() {
        out.push(invalid(
            &path,
            value(),
            "must have at least one stored version",
        ));
        return;
    }
    // A map from stored version to its (last) index, as upstream builds it.
    let mut left: Vec<(&String, usize)> = Vec::new();
    for (i, v) in stored.iter().enumerate() {
        match left.iter_mut().find(|(s, _)| *s == v) {
            Some(entry) => entry.1 = i,
            None => left.push((v, i)),
        }
    }
    for v in versions {
        let found = left.iter().position(|(s, _)| **s == v.name);
        if v.storage && found.is_none() {
            out.push(invalid(
                &path,
                value(),
                format!("must have the storage version {}", v.name),
            ));
        }
        if let Some(i) = found {
            left.remove(i);
        }
    }
    for (v, i) in left {
        out.push(invalid(
            &path.index(i),
            BadValue::string(v),
            format!(
                "missing from spec.versions; {v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in {v} and removes {v} from status.storedVersions"
            ),
        ));
    }
}

/// `IsProtectedCommunityGroup`.
fn protected_group(group: &str) -> bool {
    group == "k8s.io"
        || group.ends_with(".k8s.io")
        || group == "kubernetes.io"
        || group.ends_with(".kubernetes.io")
}

const APPROVAL: &str = "api-approved.kubernetes.io";

/// `validateAPIApproval` on create.
pub(crate) fn api_approval(crd: &Crd<'_>, out: &mut ErrorList) {
    if !protected_group(&crd.spec.group) {
        return;
    }
    let annotation = crd
        .metadata
        .and_then(|m| decode_object_meta(m).ok())
        .and_then(|m| m.annotations)
        .and_then(|a| a.get(APPROVAL))
        .and_then(|v| v.as_str())
        .unwrap_or("");
    let path = FieldPath::new("metadata")
        .child("annotations")
        .key(APPROVAL);
    if annotation.is_empty() {
        out.push(required(
            &path,
            format!(
                "protected groups must have approval annotation {APPROVAL:?}, see https://github.com/kubernetes/enhancements/pull/1111"
            ),
        ));
        return;
    }
    if annotation.starts_with("unapproved") {
        return;
    }
    let approved = kdv_cel::library::k8s::urls::parse_request_uri(annotation)
        .is_ok_and(|u| !u.host.is_empty() && !u.scheme.is_empty());
    if !approved {
        out.push(invalid(
            &path,
            BadValue::string(annotation),
            format!(
                "protected groups must have approval annotation {APPROVAL:?} with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111"
            ),
        ));
    }
}

/// `validatePreserveUnknownFields` on create.
pub(crate) fn preserve_unknown_fields(spec: &Spec<'_>, out: &mut ErrorList) {
    if spec.preserve_unknown_fields == Some(true) {
        out.push(invalid(
            &FieldPath::new("spec").child("preserveUnknownFields"),
            BadValue::Bool(true),
            "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `TestValidateCustomResourceDefinitionStoredVersions`, with exact texts. (Upstream's
    /// "no stored version" case passes an empty slice, printed `[]`; on create the server's
    /// `PrepareForCreate` leaves a nil one, printed `null`, which is what is checked here.)
    #[test]
    fn upstream_stored_versions_table() {
        let run = |versions: &[&str], storage: &str, stored: &[&str]| -> Vec<String> {
            let versions: Vec<Version<'_>> = versions
                .iter()
                .map(|v| Version {
                    name: (*v).to_owned(),
                    storage: *v == storage,
                    ..Version::default()
                })
                .collect();
            let stored: Vec<String> = stored.iter().map(|s| (*s).to_owned()).collect();
            let mut out = ErrorList::new();
            stored_versions(&stored, &versions, &mut out);
            out.iter().map(ToString::to_string).collect()
        };
        assert!(run(&["v1"], "v1", &["v1"]).is_empty());
        assert_eq!(
            run(&["v1"], "v1", &[]),
            ["status.storedVersions: Invalid value: null: must have at least one stored version"]
        );
        assert!(run(&["v1alpha", "v1beta1", "v1"], "v1", &["v1alpha", "v1"]).is_empty());
        assert_eq!(
            run(&["v1beta1", "v1"], "v1", &["v1alpha", "v1beta1", "v1"]),
            [
                "status.storedVersions[0]: Invalid value: \"v1alpha\": missing from spec.versions; v1alpha was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1alpha and removes v1alpha from status.storedVersions"
            ]
        );
        assert_eq!(
            run(&["v1alpha", "v1beta1", "v1"], "v1", &["v1alpha", "v1beta1"]),
            [
                "status.storedVersions: Invalid value: [\"v1alpha\",\"v1beta1\"]: must have the storage version v1"
            ]
        );
    }
}
