//! The `validation_identifier` label of the validation metrics (upstream's
//! `metricIdentifier`): `<kind>[_<subresource>]_<operation>`, e.g. `pod_status_create`.

use kdv_runtime::OperationKind;

/// The identifier of one validation: the lower-cased kind (`unknown_resource` when not
/// known), `_` and the subresource with `/` turned into `_` (when there is one), then
/// `_create`, `_update` or `_unknown_op` (`None`: an operation that is neither).
pub fn validation_identifier(
    kind: Option<&str>,
    subresource: Option<&str>,
    operation: Option<OperationKind>,
) -> String {
    let mut id = match kind {
        Some(k) if !k.is_empty() => k.to_lowercase(),
        _ => "unknown_resource".to_owned(),
    };
    if let Some(sub) = subresource.filter(|s| !s.is_empty()) {
        id.push('_');
        id.push_str(&sub.replace('/', "_"));
    }
    id.push_str(match operation {
        Some(OperationKind::Create) => "_create",
        Some(OperationKind::Update) => "_update",
        None => "_unknown_op",
    });
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Upstream's `TestMetricIdentifier` (apiserver `rest/validate_test.go`), as data: kind
    /// known to the scheme (or not), subresource from the request info, operation.
    #[test]
    fn metric_identifier_table() {
        type Case<'a> = (
            &'a str,
            Option<&'a str>,
            Option<&'a str>,
            Option<OperationKind>,
            &'a str,
        );
        let cases: &[Case] = &[
            (
                "with subresource",
                Some("Pod"),
                Some("status"),
                Some(OperationKind::Create),
                "pod_status_create",
            ),
            (
                "without subresource",
                Some("Pod"),
                None,
                Some(OperationKind::Update),
                "pod_update",
            ),
            (
                "unknown operation",
                Some("Pod"),
                None,
                None,
                "pod_unknown_op",
            ),
            (
                "no request info and no kind",
                None,
                None,
                Some(OperationKind::Create),
                "unknown_resource_create",
            ),
            (
                "known type without kind",
                Some("Pod"),
                None,
                Some(OperationKind::Update),
                "pod_update",
            ),
            (
                "unknown type with scheme",
                None,
                None,
                Some(OperationKind::Create),
                "unknown_resource_create",
            ),
            (
                "unknown type without scheme",
                None,
                None,
                None,
                "unknown_resource_unknown_op",
            ),
        ];
        for (name, kind, sub, op, want) in cases {
            assert_eq!(validation_identifier(*kind, *sub, *op), *want, "{name}");
        }
        assert_eq!(
            validation_identifier(
                Some("Deployment"),
                Some("scale/x"),
                Some(OperationKind::Update)
            ),
            "deployment_scale_x_update"
        );
    }
}
