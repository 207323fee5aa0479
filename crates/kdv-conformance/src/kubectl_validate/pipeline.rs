//! What kubectl-validate does with one document (`pkg/cmd/validate.go` `ValidateDocument`,
//! `pkg/validator/validator.go` `Parse` and `Validate`, `errorToStatus`), with the schema
//! work handed to a [`Backend`]:
//!
//! 1. `TypeMeta` is read leniently (sigs.k8s.io/yaml `Unmarshal`, repeated keys allowed):
//!    YAML syntax errors and `apiVersion`/`kind` of the wrong JSON type are internal errors
//!    (`failed to parse yaml: …`); no apiVersion and no kind is `GVK cannot be empty`.
//! 2. The group-version's document and the kind in it are looked up (`failed to retrieve
//!    validator: failed to locate OpenAPI spec for GV: …` / `kind … not found in …
//!    groupversion`).
//! 3. A CustomResourceDefinition is validated by the CRD registry strategy instead.
//! 4. Strict decoding: repeated keys (goyaml.v2's messages) and unknown fields
//!    (`value provided for unknown field`) stop the document: a 400 when there are only YAML
//!    errors, otherwise `NewInvalid` without a kind (` "" is invalid: …`, YAML errors
//!    dropped). Typed-decoding failures (`json: cannot unmarshal …`) are internal errors.
//! 5. The object is prepared as kubectl-validate prepares it (namespace `default` for a
//!    namespaced kind without one, none for a cluster-scoped kind; group `core` for the core
//!    group), an object with `generateName` and no `name` is an internal error
//!    (`metadata.name was not generated`), and the validation errors become
//!    `NewInvalid(<Kind>.<group>, name, errors)`.

use kdv_runtime::gofmt::json_kind;
use kdv_runtime::{BadValue, ErrorList, ErrorType, FieldError, FieldPath};
use serde_json::Value;

use super::status::Status;
use super::yamlv2::duplicate_key_errors;

/// What a backend knows about a group-version and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// No schema document for the group-version.
    NoGroupVersion,
    /// The document exists but has no such kind.
    NoKind,
    /// The kind is known; `namespaced` is its scope.
    Found {
        /// Whether the kind is namespace-scoped.
        namespaced: bool,
    },
}

/// What validating one object against its schema gave.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Validated {
    /// A typed-decoding failure (Go's `json: cannot unmarshal …` text): the document is an
    /// internal error and nothing else is reported.
    pub decode_error: Option<String>,
    /// Unknown fields as dotted paths (`spec.foo`, `spec.containers[0].x`), in the order the
    /// decoder reports them.
    pub unknown_fields: Vec<String>,
    /// The validation errors (ObjectMeta, schema, list types), in the API server's order.
    pub errors: ErrorList,
}

/// The schema side of the pipeline.
pub trait Backend {
    /// Looks up a kind in the group-version document at `path` (`api/v1`,
    /// `apis/apps/v1`).
    fn lookup(&self, path: &str, group_version: &str, kind: &str) -> Lookup;

    /// Validates `object` (a CREATE) against the schema of `kind` in the document at `path`.
    fn validate(&self, path: &str, group_version: &str, kind: &str, object: &Value) -> Validated;

    /// Validates a CustomResourceDefinition as the API server does when one is created;
    /// `None` when the backend cannot.
    fn validate_crd(&self, object: &Value) -> Option<Validated>;
}

/// A document's group, version and kind as `TypeMeta` gives them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Gvk {
    /// The group (`""` for the core group).
    pub group: String,
    /// The version.
    pub version: String,
    /// The kind.
    pub kind: String,
}

impl Gvk {
    /// `schema.GroupVersion.String()`: `v1`, `apps/v1`.
    pub fn group_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// The OpenAPI v3 path kubectl-validate looks the group-version up under.
    pub fn path(&self) -> String {
        if self.group.is_empty() {
            format!("api/{}", self.version)
        } else {
            format!("apis/{}/{}", self.group, self.version)
        }
    }
}

/// The result for one non-empty document.
#[derive(Clone, Debug, PartialEq)]
pub struct DocumentResult {
    /// What kubectl-validate would print.
    pub status: Status,
    /// The document's group, version and kind, when `TypeMeta` could be read.
    pub gvk: Option<Gvk>,
    /// The object as read (repeated keys: the last one wins), when it could be read.
    pub object: Option<Value>,
}

/// Runs the pipeline on one document's text (non-empty: see `split::is_empty_document`).
pub fn validate_document(backend: &dyn Backend, text: &[u8]) -> DocumentResult {
    let mut result = DocumentResult {
        status: Status::success(),
        gvk: None,
        object: None,
    };
    let text_str = String::from_utf8_lossy(text);
    let object = match read_lenient(&text_str) {
        Ok(object) => object,
        Err(message) => {
            result.status = Status::internal(&format!(
                "failed to parse yaml: error converting YAML to JSON: yaml: {message}"
            ));
            return result;
        }
    };
    let gvk = match type_meta(&object) {
        Ok(gvk) => gvk,
        Err(message) => {
            result.status = Status::internal(&format!("failed to parse yaml: {message}"));
            return result;
        }
    };
    result.object = Some(object.clone());
    if gvk == Gvk::default() {
        result.status = Status::internal("GVK cannot be empty");
        return result;
    }
    result.gvk = Some(gvk.clone());
    let path = gvk.path();
    let group_version = gvk.group_version();
    let lookup = backend.lookup(&path, &group_version, &gvk.kind);
    let is_crd = gvk.group == "apiextensions.k8s.io" && gvk.kind == "CustomResourceDefinition";
    if is_crd {
        // kubectl-validate decodes CRDs into the API server's own type and runs the CRD
        // strategy whatever the schema lookup said.
        result.status = match backend.validate_crd(&object) {
            Some(validated) => crd_status(&object, validated),
            None => Status::internal("kdv: CustomResourceDefinition validation is not available"),
        };
        return result;
    }
    let namespaced = match lookup {
        Lookup::NoGroupVersion => {
            result.status = Status::internal(&format!(
                "failed to retrieve validator: failed to locate OpenAPI spec for GV: {group_version}"
            ));
            return result;
        }
        Lookup::NoKind => {
            result.status = Status::internal(&format!(
                "failed to retrieve validator: kind {} not found in {group_version} groupversion",
                gvk.kind
            ));
            return result;
        }
        Lookup::Found { namespaced } => namespaced,
    };
    let mut prepared = object;
    prepare(&mut prepared, namespaced);
    let validated = backend.validate(&path, &group_version, &gvk.kind, &prepared);
    let yaml_errors = duplicate_key_errors(&text_str);
    result.status = object_status(&gvk, &prepared, &yaml_errors, validated);
    result
}

/// kubectl-validate's preparation of an object before validation (`Validator.Validate`
/// and `rest.BeforeCreate`'s namespace handling).
fn prepare(object: &mut Value, namespaced: bool) {
    let Value::Object(members) = object else {
        return;
    };
    let Some(Value::Object(metadata)) = members.get_mut("metadata") else {
        if namespaced {
            members.insert(
                "metadata".to_string(),
                serde_json::json!({"namespace": "default"}),
            );
        }
        return;
    };
    let empty = metadata
        .get("namespace")
        .is_none_or(|ns| ns.as_str().is_some_and(str::is_empty) || ns.is_null());
    if namespaced && empty {
        metadata.insert("namespace".to_string(), Value::from("default"));
    } else if !namespaced {
        metadata.remove("namespace");
    }
}

fn object_status(
    gvk: &Gvk,
    object: &Value,
    yaml_errors: &[String],
    validated: Validated,
) -> Status {
    if let Some(error) = validated.decode_error {
        return Status::internal(&error);
    }
    if !yaml_errors.is_empty() || !validated.unknown_fields.is_empty() {
        if validated.unknown_fields.is_empty() {
            return Status::yaml_bad_request(yaml_errors);
        }
        let errors: Vec<FieldError> = validated
            .unknown_fields
            .iter()
            .map(|path| unknown_field_error(path))
            .collect();
        return Status::invalid("", "", "", &errors);
    }
    let metadata = &object["metadata"];
    let name = metadata["name"].as_str().unwrap_or_default();
    let generate_name = metadata["generateName"].as_str().unwrap_or_default();
    if !generate_name.is_empty() && name.is_empty() {
        return Status::internal("metadata.name was not generated");
    }
    if validated.errors.is_empty() {
        return Status::success();
    }
    let group = if gvk.group.is_empty() {
        "core"
    } else {
        &gvk.group
    };
    Status::invalid(group, &gvk.kind, name, &validated.errors)
}

fn crd_status(object: &Value, validated: Validated) -> Status {
    if let Some(error) = validated.decode_error {
        return Status::internal(&error);
    }
    if validated.errors.is_empty() {
        return Status::success();
    }
    let name = object["metadata"]["name"].as_str().unwrap_or_default();
    Status::invalid(
        "apiextensions.k8s.io",
        "CustomResourceDefinition",
        name,
        &validated.errors,
    )
}

/// The strict decoder's error for an unknown field: the dotted path split into children, an
/// `Invalid` error without a value.
pub fn unknown_field_error(path: &str) -> FieldError {
    let mut field = FieldPath::root();
    for part in path.split('.') {
        field = field.child(part);
    }
    FieldError::new(
        ErrorType::Invalid,
        field,
        BadValue::Omitted,
        "value provided for unknown field",
    )
}

/// The document as sigs.k8s.io/yaml's lenient `Unmarshal` reads it: repeated keys allowed,
/// the last one wins. Errors are syntax errors, worded by kdv's YAML reader (goyaml.v2's
/// wording is not reproduced).
fn read_lenient(text: &str) -> Result<Value, String> {
    match super::crds::parse_one(text.as_bytes()) {
        Ok(value) => Ok(value),
        Err(message) if message.contains("duplicate key") => {
            let options = serde_saphyr::options! {
                duplicate_keys: serde_saphyr::DuplicateKeyPolicy::LastWins,
                strict_booleans: false,
                legacy_octal_numbers: true,
                with_snippet: false,
            };
            serde_saphyr::from_str_with_options::<Option<Value>>(text, options)
                .map(Option::unwrap_or_default)
                .map_err(|e| e.to_string())
        }
        Err(message) => Err(message),
    }
}

/// `metav1.TypeMeta` as Go's JSON decoder reads it from the document.
fn type_meta(object: &Value) -> Result<Gvk, String> {
    let (api_version, kind) = match object {
        Value::Null => (String::new(), String::new()),
        Value::Object(members) => {
            let field = |name: &str| -> Result<String, String> {
                match members.get(name) {
                    None | Some(Value::Null) => Ok(String::new()),
                    Some(Value::String(s)) => Ok(s.clone()),
                    Some(other) => Err(format!(
                        "error unmarshaling JSON: while decoding JSON: json: cannot unmarshal {} \
                         into Go struct field TypeMeta.{name} of type string",
                        json_kind(other)
                    )),
                }
            };
            (field("apiVersion")?, field("kind")?)
        }
        other => {
            return Err(format!(
                "error unmarshaling JSON: while decoding JSON: json: cannot unmarshal {} into \
                 Go value of type v1.TypeMeta",
                json_kind(other)
            ));
        }
    };
    // `schema.ParseGroupVersion`; `GroupVersionKind()` drops a parse error (empty group and
    // version).
    let (group, version) = if api_version.is_empty() || api_version == "/" {
        (String::new(), String::new())
    } else {
        match api_version.matches('/').count() {
            0 => (String::new(), api_version),
            1 => {
                let (g, v) = api_version.split_once('/').unwrap_or_default();
                (g.to_string(), v.to_string())
            }
            _ => (String::new(), String::new()),
        }
    };
    Ok(Gvk {
        group,
        version,
        kind,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A backend with one namespaced kind `v1/Pod` and one cluster-scoped `v1/Node`, whose
    /// validation reports what it was configured to, and records the object it got.
    #[derive(Default)]
    struct Fake {
        validated: Validated,
        seen: std::cell::RefCell<Option<Value>>,
        crd: Option<Validated>,
    }

    impl Backend for Fake {
        fn lookup(&self, path: &str, _: &str, kind: &str) -> Lookup {
            match (path, kind) {
                ("api/v1", "Pod") => Lookup::Found { namespaced: true },
                ("api/v1", "Node") => Lookup::Found { namespaced: false },
                ("api/v1", _) => Lookup::NoKind,
                _ => Lookup::NoGroupVersion,
            }
        }
        fn validate(&self, _: &str, _: &str, _: &str, object: &Value) -> Validated {
            *self.seen.borrow_mut() = Some(object.clone());
            self.validated.clone()
        }
        fn validate_crd(&self, _: &Value) -> Option<Validated> {
            self.crd.clone()
        }
    }

    fn status(fake: &Fake, text: &str) -> Status {
        validate_document(fake, text.as_bytes()).status
    }

    #[test]
    fn lookups() {
        let fake = Fake::default();
        assert_eq!(
            status(&fake, "apiVersion: v1\nkind: configmap\n").message,
            "Internal error occurred: failed to retrieve validator: kind configmap not found in v1 groupversion"
        );
        assert_eq!(
            status(&fake, "apiVersion: apps/v9\nkind: Deployment\n").message,
            "Internal error occurred: failed to retrieve validator: failed to locate OpenAPI spec for GV: apps/v9"
        );
        assert_eq!(
            status(&fake, "metadata: {}\n").message,
            "Internal error occurred: GVK cannot be empty"
        );
        // Too many slashes: the group-version is dropped, the kind stays.
        assert_eq!(
            status(&fake, "apiVersion: a/b/c\nkind: Pod\n").message,
            "Internal error occurred: failed to retrieve validator: failed to locate OpenAPI spec for GV: "
        );
        assert_eq!(
            status(&fake, "apiVersion: 1\nkind: Pod\n").message,
            "Internal error occurred: failed to parse yaml: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal number into Go struct field TypeMeta.apiVersion of type string"
        );
        assert_eq!(
            status(&fake, "- a\n").message,
            "Internal error occurred: failed to parse yaml: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type v1.TypeMeta"
        );
        assert!(status(&fake, "a: [1\n").message.starts_with(
            "Internal error occurred: failed to parse yaml: error converting YAML to JSON: yaml: "
        ));
    }

    #[test]
    fn valid_objects_are_prepared_as_kubectl_validate_does() {
        let fake = Fake::default();
        assert_eq!(
            status(&fake, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n"),
            Status::success()
        );
        assert_eq!(
            fake.seen.borrow().as_ref().unwrap()["metadata"],
            json!({"name": "a", "namespace": "default"})
        );
        status(&fake, "apiVersion: v1\nkind: Pod\n");
        assert_eq!(
            fake.seen.borrow().as_ref().unwrap()["metadata"],
            json!({"namespace": "default"})
        );
        status(
            &fake,
            "apiVersion: v1\nkind: Node\nmetadata:\n  name: node1\n  namespace: x\n",
        );
        assert_eq!(
            fake.seen.borrow().as_ref().unwrap()["metadata"],
            json!({"name": "node1"})
        );
        status(
            &fake,
            "apiVersion: v1\nkind: Pod\nmetadata:\n  namespace: x\n",
        );
        assert_eq!(
            fake.seen.borrow().as_ref().unwrap()["metadata"]["namespace"],
            "x"
        );
        assert_eq!(
            status(
                &fake,
                "apiVersion: v1\nkind: Pod\nmetadata:\n  generateName: a-\n"
            )
            .message,
            "Internal error occurred: metadata.name was not generated"
        );
    }

    #[test]
    fn errors_and_strict_decoding() {
        let error = FieldError::new(
            ErrorType::Required,
            FieldPath::new("spec").child("x"),
            BadValue::String(String::new()),
            "",
        );
        let fake = Fake {
            validated: Validated {
                errors: vec![error],
                ..Validated::default()
            },
            ..Fake::default()
        };
        let s = status(&fake, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n");
        assert_eq!(
            s.message,
            "Pod.core \"p\" is invalid: spec.x: Required value"
        );
        // Repeated keys alone: a 400 (validation errors are not reached).
        let s = status(&fake, "apiVersion: v1\nkind: Pod\nspec: 1\nspec: 2\n");
        assert_eq!(s.code, 400);
        assert_eq!(
            s.details.unwrap().causes[0].message,
            "line 4: key \"spec\" already set in map"
        );
        // Unknown fields: NewInvalid without a kind, YAML errors dropped.
        let fake = Fake {
            validated: Validated {
                unknown_fields: vec!["spec.containers[0].x".into(), "y".into()],
                ..Validated::default()
            },
            ..Fake::default()
        };
        let s = status(&fake, "apiVersion: v1\nkind: Pod\nspec: 1\nspec: 2\n");
        assert_eq!(
            s.message,
            " \"\" is invalid: [spec.containers[0].x: Invalid value: value provided for unknown field, y: Invalid value: value provided for unknown field]"
        );
        assert_eq!(s.details.unwrap().causes[0].field, "spec.containers[0].x");
        let fake = Fake {
            validated: Validated { decode_error: Some("json: cannot unmarshal object into Go struct field ObjectMeta.finalizers of type []string".into()), ..Validated::default() },
            ..Fake::default()
        };
        assert_eq!(
            status(&fake, "apiVersion: v1\nkind: Pod\n").message,
            "Internal error occurred: json: cannot unmarshal object into Go struct field ObjectMeta.finalizers of type []string"
        );
    }

    #[test]
    fn crds_go_to_the_crd_strategy() {
        let error = FieldError::new(
            ErrorType::Required,
            FieldPath::new("spec").child("group"),
            BadValue::String(String::new()),
            "",
        );
        let fake = Fake {
            crd: Some(Validated {
                errors: vec![error],
                ..Validated::default()
            }),
            ..Fake::default()
        };
        let s = status(
            &fake,
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: a.b\n",
        );
        assert_eq!(
            s.message,
            "CustomResourceDefinition.apiextensions.k8s.io \"a.b\" is invalid: spec.group: Required value"
        );
        let fake = Fake::default();
        let s = status(
            &fake,
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n",
        );
        assert_eq!(s.reason, "InternalError");
    }
}
