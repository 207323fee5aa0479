//! `kdv_serve::decode` (the webhook's AdmissionReview decoder) on arbitrary bytes, with the
//! default limits and with small ones; every review it accepts is answered both ways
//! (allowed, and denied with an `Invalid` status naming an error at the object's name) in
//! its own version, and the answer must be a JSON AdmissionReview echoing the uid.
#![no_main]

use kdv_runtime::{ErrorList, FieldError, PathRef};
use kdv_serve::admission::{Response, Status};
use kdv_serve::{Limits, decode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let small = Limits {
        max_body: 4096,
        max_object: 512,
    };
    for limits in [Limits::default(), small] {
        let Ok(review) = decode(data, limits) else {
            continue;
        };
        let r = &review.request;
        let root = PathRef::Nil;
        let path = root.child("metadata");
        let mut errors = ErrorList::new();
        errors.push(FieldError::required(&path.child("name"), ""));
        let name = r.name.as_deref().unwrap_or_default();
        for response in [
            Response::allow(&r.uid),
            Response::deny(&r.uid, Status::invalid(&r.kind, name, &errors)),
        ] {
            let body = response.to_review_json(review.version);
            let v: serde_json::Value = serde_json::from_slice(&body).expect("the answer is JSON");
            assert_eq!(v["kind"], "AdmissionReview");
            assert_eq!(v["response"]["uid"].as_str(), Some(r.uid.as_str()));
        }
    }
});
