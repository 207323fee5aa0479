//! The decoder and the response pieces: arbitrary bytes never panic; limits; warnings kept
//! within the API server's limits; the Invalid status text.

use kdv_runtime::{BadValue, ErrorType, FieldError, FieldPath};
use kdv_serve::admission::{
    self, DecodeError, GroupVersionKind, Limits, MAX_WARNING_CHARS, MAX_WARNINGS_TOTAL_CHARS,
    ReviewVersion, Status, Warnings,
};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = admission::decode(&bytes, Limits::default());
    }

    #[test]
    fn mutated_reviews_never_panic(cut in 0usize..400, flip in 0usize..400, byte in any::<u8>()) {
        let mut body = br#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u","kind":{"group":"apps","version":"v1","kind":"Deployment"},"operation":"UPDATE","name":"n","object":{"a":[1,2,{"b":null}]},"oldObject":{"a":1},"dryRun":true}}"#.to_vec();
        if flip < body.len() {
            body[flip] = byte;
        }
        body.truncate(cut.min(body.len()));
        let _ = admission::decode(&body, Limits::default());
    }
}

#[test]
fn versions_limits_and_required_objects() {
    let body = |version: &str, op: &str, object: &str| {
        format!(
            r#"{{"apiVersion":"{version}","kind":"AdmissionReview","request":{{"uid":"u1","kind":{{"group":"","version":"v1","kind":"Pod"}},"operation":"{op}","object":{object},"oldObject":null}}}}"#
        )
    };
    let review = admission::decode(
        body("admission.k8s.io/v1beta1", "CREATE", "{}").as_bytes(),
        Limits::default(),
    )
    .unwrap();
    assert_eq!(review.version, ReviewVersion::V1Beta1);
    assert_eq!(review.request.uid, "u1");
    let limits = Limits {
        max_body: 1 << 20,
        max_object: 10,
    };
    assert_eq!(
        admission::decode(
            body("admission.k8s.io/v1", "CREATE", r#"{"a":"0123456789"}"#).as_bytes(),
            limits
        )
        .unwrap_err(),
        DecodeError::ObjectTooLarge {
            field: "object",
            size: 18,
            limit: 10
        }
    );
    assert_eq!(
        admission::decode(
            body("admission.k8s.io/v1", "CREATE", "null").as_bytes(),
            limits
        )
        .unwrap_err()
        .to_string(),
        "request.object is required for CREATE"
    );
    // DELETE carries no object.
    assert!(
        admission::decode(
            body("admission.k8s.io/v1", "DELETE", "null").as_bytes(),
            limits
        )
        .is_ok()
    );
    let tiny = Limits {
        max_body: 5,
        max_object: 5,
    };
    assert_eq!(
        admission::decode(b"{\"a\": 1}", tiny)
            .unwrap_err()
            .to_string(),
        "request body is 8 bytes, over the limit of 5 bytes"
    );
}

#[test]
fn the_invalid_status_is_new_invalids() {
    let kind = GroupVersionKind {
        group: "apps".into(),
        version: "v1".into(),
        kind: "Deployment".into(),
    };
    let errors = vec![
        FieldError::new(
            ErrorType::Invalid,
            FieldPath::new("spec").child("replicas"),
            BadValue::Int(-1),
            "must be greater than or equal to 0",
        ),
        FieldError::new(
            ErrorType::Required,
            FieldPath::new("spec").child("selector"),
            BadValue::String(String::new()),
            "",
        ),
    ];
    let status = Status::invalid(&kind, "web", &errors);
    assert_eq!(
        serde_json::to_string(&status).unwrap(),
        r#"{"metadata":{},"status":"Failure","message":"Deployment.apps \"web\" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.selector: Required value]","reason":"Invalid","details":{"name":"web","group":"apps","kind":"Deployment","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: -1: must be greater than or equal to 0","field":"spec.replicas"},{"reason":"FieldValueRequired","message":"Required value","field":"spec.selector"}]},"code":422}"#
    );
}

#[test]
fn warnings_stay_within_the_api_servers_limits() {
    let mut warnings = Warnings::default();
    warnings.push(&"x".repeat(500));
    warnings.push("line\nbreak");
    for _ in 0..100 {
        warnings.push(&"y".repeat(119));
    }
    let out = warnings.finish();
    assert_eq!(out[0].chars().count(), MAX_WARNING_CHARS);
    assert!(out[0].ends_with("..."));
    assert_eq!(out[1], "line break");
    let total: usize = out.iter().map(|w| w.chars().count()).sum();
    assert!(total <= MAX_WARNINGS_TOTAL_CHARS, "{total}");
    assert!(out.iter().all(|w| w.chars().count() <= MAX_WARNING_CHARS));
    assert!(
        out.last().unwrap().starts_with("kdv: ")
            && out.last().unwrap().ends_with(" more warnings not shown")
    );
}
