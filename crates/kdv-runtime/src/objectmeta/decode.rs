//! Decoding a JSON `metadata` value into `metav1.ObjectMeta` as the API server does
//! (`utiljson.Unmarshal`, i.e. sigs.k8s.io/json's case-sensitive `encoding/json`), with
//! Go's exact error text.
//!
//! The server marshals the unstructured `metadata` and unmarshals it into the typed struct,
//! so keys are visited in sorted order (Go's `json.Marshal` sorts map keys, as the
//! `serde_json` map does). A type mismatch is remembered (the first one wins) and decoding
//! goes on; an error from a custom unmarshaler (`metav1.Time`) ends decoding at once and
//! wins over a remembered mismatch. `null` leaves the zero value. Unknown keys are ignored.
//!
//! Decoding borrows from the value: nothing is allocated unless an error is reported.

use serde_json::{Map, Value};

use super::gotime::{GoTime, parse_rfc3339};
use crate::gofmt::{self, json_kind};

/// Why `metadata` does not decode into `ObjectMeta`; `Display` is Go's error text, e.g.
/// `json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type
/// map[string]string`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetaDecodeError(pub(crate) String);

impl std::fmt::Display for MetaDecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MetaDecodeError {}

/// A decoded `metav1.ObjectMeta`, borrowing from the JSON value it was decoded from.
///
/// Collections keep their JSON form (they were type-checked while decoding); `null`
/// elements and map values stand for Go's zero values.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ObjectMeta<'a> {
    /// `name`.
    pub name: &'a str,
    /// `generateName`.
    pub generate_name: &'a str,
    /// `namespace`.
    pub namespace: &'a str,
    /// `uid` (Go type `types.UID`).
    pub uid: &'a str,
    /// `resourceVersion`.
    pub resource_version: &'a str,
    /// `generation`.
    pub generation: i64,
    /// `creationTimestamp` (zero when absent or `null`).
    pub creation_timestamp: GoTime,
    /// `deletionTimestamp` (a pointer: `None` when absent or `null`).
    pub deletion_timestamp: Option<GoTime>,
    /// `deletionGracePeriodSeconds` (a pointer).
    pub deletion_grace_period_seconds: Option<i64>,
    /// `labels`: string (or `null`, i.e. empty) values.
    pub labels: Option<&'a Map<String, Value>>,
    /// `annotations`: string (or `null`) values.
    pub annotations: Option<&'a Map<String, Value>>,
    /// `ownerReferences`: objects (or `null`), read through [`OwnerReference::of`].
    pub owner_references: &'a [Value],
    /// `finalizers`: strings (or `null`).
    pub finalizers: &'a [Value],
    /// `managedFields`: objects (or `null`), read through [`ManagedFieldsEntry::of`].
    pub managed_fields: &'a [Value],
}

/// One decoded `metav1.OwnerReference`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OwnerReference<'a> {
    /// `apiVersion`.
    pub api_version: &'a str,
    /// `kind`.
    pub kind: &'a str,
    /// `name`.
    pub name: &'a str,
    /// `uid`.
    pub uid: &'a str,
    /// `controller` (a pointer).
    pub controller: Option<bool>,
    /// `blockOwnerDeletion` (a pointer).
    pub block_owner_deletion: Option<bool>,
}

impl<'a> OwnerReference<'a> {
    /// Reads an element of [`ObjectMeta::owner_references`] (already type-checked).
    pub fn of(v: &'a Value) -> OwnerReference<'a> {
        let s = |k| v.get(k).and_then(Value::as_str).unwrap_or("");
        let b = |k| v.get(k).and_then(Value::as_bool);
        OwnerReference {
            api_version: s("apiVersion"),
            kind: s("kind"),
            name: s("name"),
            uid: s("uid"),
            controller: b("controller"),
            block_owner_deletion: b("blockOwnerDeletion"),
        }
    }

    /// The struct as `json.Marshal` prints it (`controller` and `blockOwnerDeletion` are
    /// `omitempty` pointers). Object keys come out sorted, where Go prints struct fields in
    /// declaration order.
    pub fn to_json(self) -> Value {
        let mut m = Map::new();
        m.insert("apiVersion".into(), self.api_version.into());
        m.insert("kind".into(), self.kind.into());
        m.insert("name".into(), self.name.into());
        m.insert("uid".into(), self.uid.into());
        if let Some(c) = self.controller {
            m.insert("controller".into(), c.into());
        }
        if let Some(b) = self.block_owner_deletion {
            m.insert("blockOwnerDeletion".into(), b.into());
        }
        Value::Object(m)
    }
}

/// One decoded `metav1.ManagedFieldsEntry` (the fields validation reads).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ManagedFieldsEntry<'a> {
    /// `manager`.
    pub manager: &'a str,
    /// `operation` (Go type `ManagedFieldsOperationType`).
    pub operation: &'a str,
    /// `fieldsType`.
    pub fields_type: &'a str,
    /// `subresource`.
    pub subresource: &'a str,
}

impl<'a> ManagedFieldsEntry<'a> {
    /// Reads an element of [`ObjectMeta::managed_fields`] (already type-checked).
    pub fn of(v: &'a Value) -> ManagedFieldsEntry<'a> {
        let s = |k| v.get(k).and_then(Value::as_str).unwrap_or("");
        ManagedFieldsEntry {
            manager: s("manager"),
            operation: s("operation"),
            fields_type: s("fieldsType"),
            subresource: s("subresource"),
        }
    }
}

/// Where a type mismatch happened, as Go's decoder names it: the innermost struct type and
/// the JSON field names from the top (array indices and map keys are not part of it).
#[derive(Clone, Copy)]
struct Ctx {
    strukt: &'static str,
    field: &'static str,
}

/// The decoding state: the first type mismatch, and the hard error that stops decoding.
#[derive(Default)]
struct Decoder {
    saved: Option<String>,
}

impl Decoder {
    fn mismatch(&mut self, what: &str, go_type: &str, ctx: Option<Ctx>) {
        if self.saved.is_some() {
            return;
        }
        self.saved = Some(match ctx {
            Some(c) => format!(
                "json: cannot unmarshal {what} into Go struct field {}.{} of type {go_type}",
                c.strukt, c.field
            ),
            None => format!("json: cannot unmarshal {what} into Go value of type {go_type}"),
        });
    }

    /// A Go string-kinded field (`string`, `types.UID`, ...).
    fn string<'a>(&mut self, v: &'a Value, go_type: &str, ctx: Ctx) -> &'a str {
        match v {
            Value::String(s) => s,
            Value::Null => "",
            other => {
                self.mismatch(json_kind(other), go_type, Some(ctx));
                ""
            }
        }
    }

    /// An `int64` field (or the target of an `*int64`).
    fn int64(&mut self, v: &Value, ctx: Ctx) -> Option<i64> {
        match v {
            Value::Null => None,
            // The server reads metadata after `json.Marshal` wrote it (apiextensions'
            // `GetObjectMeta`), so a float counts as the literal Go writes for it:
            // `5.0`, `-0.0` and `1e2` are the integers 5, 0 and 100.
            Value::Number(n) => match n
                .as_i64()
                .or_else(|| gofmt::json_number_marshaled(n).parse().ok())
            {
                Some(i) => Some(i),
                None => {
                    let lit = format!("number {}", gofmt::json_number_marshaled(n));
                    self.mismatch(&lit, "int64", Some(ctx));
                    Some(0)
                }
            },
            other => {
                self.mismatch(json_kind(other), "int64", Some(ctx));
                Some(0)
            }
        }
    }

    /// The target of a `*bool`.
    fn bool(&mut self, v: &Value, ctx: Ctx) -> Option<bool> {
        match v {
            Value::Null => None,
            Value::Bool(b) => Some(*b),
            other => {
                self.mismatch(json_kind(other), "bool", Some(ctx));
                Some(false)
            }
        }
    }

    /// A `map[string]string`.
    fn string_map<'a>(&mut self, v: &'a Value, ctx: Ctx) -> Option<&'a Map<String, Value>> {
        match v {
            Value::Null => None,
            Value::Object(m) => {
                for val in m.values() {
                    if !matches!(val, Value::String(_) | Value::Null) {
                        self.mismatch(json_kind(val), "string", Some(ctx));
                    }
                }
                Some(m)
            }
            other => {
                self.mismatch(json_kind(other), "map[string]string", Some(ctx));
                None
            }
        }
    }

    /// A slice whose elements are checked by `elem`; a mismatched slice is left nil.
    fn slice<'a>(
        &mut self,
        v: &'a Value,
        go_type: &str,
        ctx: Ctx,
        mut elem: impl FnMut(&mut Self, &'a Value) -> Result<(), MetaDecodeError>,
    ) -> Result<&'a [Value], MetaDecodeError> {
        match v {
            Value::Null => Ok(&[]),
            Value::Array(items) => {
                for item in items {
                    elem(self, item)?;
                }
                Ok(items)
            }
            other => {
                self.mismatch(json_kind(other), go_type, Some(ctx));
                Ok(&[])
            }
        }
    }

    /// A `metav1.Time` (`UnmarshalJSON`): `null` is the zero time; anything but a string
    /// fails the inner `json.Unmarshal` into a string, a bad string fails `time.Parse`.
    /// Both are hard errors, printed without the field context.
    fn time(&mut self, v: &Value) -> Result<Option<GoTime>, MetaDecodeError> {
        match v {
            Value::Null => Ok(None),
            Value::String(s) => parse_rfc3339(s).map(Some).map_err(MetaDecodeError),
            other => Err(MetaDecodeError(format!(
                "json: cannot unmarshal {} into Go value of type string",
                json_kind(other)
            ))),
        }
    }

    fn owner_reference(&mut self, v: &Value) {
        let Value::Object(m) = v else {
            if !v.is_null() {
                let ctx = Ctx {
                    strukt: "ObjectMeta",
                    field: "ownerReferences",
                };
                self.mismatch(json_kind(v), "v1.OwnerReference", Some(ctx));
            }
            return;
        };
        let ctx = |field| Ctx {
            strukt: "OwnerReference",
            field,
        };
        for (k, val) in m {
            match k.as_str() {
                "apiVersion" => {
                    let _ = self.string(val, "string", ctx("ownerReferences.apiVersion"));
                }
                "kind" => {
                    let _ = self.string(val, "string", ctx("ownerReferences.kind"));
                }
                "name" => {
                    let _ = self.string(val, "string", ctx("ownerReferences.name"));
                }
                "uid" => {
                    let _ = self.string(val, "types.UID", ctx("ownerReferences.uid"));
                }
                "controller" => {
                    let _ = self.bool(val, ctx("ownerReferences.controller"));
                }
                "blockOwnerDeletion" => {
                    let _ = self.bool(val, ctx("ownerReferences.blockOwnerDeletion"));
                }
                _ => {}
            }
        }
    }

    fn managed_fields_entry(&mut self, v: &Value) -> Result<(), MetaDecodeError> {
        let Value::Object(m) = v else {
            if !v.is_null() {
                let ctx = Ctx {
                    strukt: "ObjectMeta",
                    field: "managedFields",
                };
                self.mismatch(json_kind(v), "v1.ManagedFieldsEntry", Some(ctx));
            }
            return Ok(());
        };
        let ctx = |field| Ctx {
            strukt: "ManagedFieldsEntry",
            field,
        };
        for (k, val) in m {
            match k.as_str() {
                "manager" => {
                    let _ = self.string(val, "string", ctx("managedFields.manager"));
                }
                "operation" => {
                    let _ = self.string(
                        val,
                        "v1.ManagedFieldsOperationType",
                        ctx("managedFields.operation"),
                    );
                }
                "apiVersion" => {
                    let _ = self.string(val, "string", ctx("managedFields.apiVersion"));
                }
                "time" => {
                    let _ = self.time(val)?;
                }
                "fieldsType" => {
                    let _ = self.string(val, "string", ctx("managedFields.fieldsType"));
                }
                // `FieldsV1.UnmarshalJSON` keeps any JSON as raw bytes.
                "fieldsV1" => {}
                "subresource" => {
                    let _ = self.string(val, "string", ctx("managedFields.subresource"));
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// Decodes `metadata` into `ObjectMeta` as the API server's `utiljson.Unmarshal` does;
/// `null` decodes to the zero value.
pub fn decode_object_meta(metadata: &Value) -> Result<ObjectMeta<'_>, MetaDecodeError> {
    let m = match metadata {
        Value::Null => return Ok(ObjectMeta::default()),
        Value::Object(m) => m,
        other => {
            return Err(MetaDecodeError(format!(
                "json: cannot unmarshal {} into Go value of type v1.ObjectMeta",
                json_kind(other)
            )));
        }
    };
    let mut d = Decoder::default();
    let mut meta = ObjectMeta::default();
    let ctx = |field| Ctx {
        strukt: "ObjectMeta",
        field,
    };
    for (k, v) in m {
        match k.as_str() {
            "name" => meta.name = d.string(v, "string", ctx("name")),
            "generateName" => meta.generate_name = d.string(v, "string", ctx("generateName")),
            "namespace" => meta.namespace = d.string(v, "string", ctx("namespace")),
            "selfLink" => {
                let _ = d.string(v, "string", ctx("selfLink"));
            }
            "uid" => meta.uid = d.string(v, "types.UID", ctx("uid")),
            "resourceVersion" => {
                meta.resource_version = d.string(v, "string", ctx("resourceVersion"))
            }
            "generation" => meta.generation = d.int64(v, ctx("generation")).unwrap_or(0),
            "creationTimestamp" => {
                meta.creation_timestamp = d.time(v)?.unwrap_or(GoTime::ZERO);
            }
            "deletionTimestamp" => meta.deletion_timestamp = d.time(v)?,
            "deletionGracePeriodSeconds" => {
                meta.deletion_grace_period_seconds = d.int64(v, ctx("deletionGracePeriodSeconds"))
            }
            "labels" => meta.labels = d.string_map(v, ctx("labels")),
            "annotations" => meta.annotations = d.string_map(v, ctx("annotations")),
            "ownerReferences" => {
                meta.owner_references = d.slice(
                    v,
                    "[]v1.OwnerReference",
                    ctx("ownerReferences"),
                    |d, item| {
                        d.owner_reference(item);
                        Ok(())
                    },
                )?;
            }
            "finalizers" => {
                meta.finalizers = d.slice(v, "[]string", ctx("finalizers"), |d, item| {
                    d.string(item, "string", ctx("finalizers"));
                    Ok(())
                })?;
            }
            "managedFields" => {
                meta.managed_fields = d.slice(
                    v,
                    "[]v1.ManagedFieldsEntry",
                    ctx("managedFields"),
                    Decoder::managed_fields_entry,
                )?;
            }
            _ => {}
        }
    }
    match d.saved {
        Some(e) => Err(MetaDecodeError(e)),
        None => Ok(meta),
    }
}

/// The fields of `metadata` that `ObjectMeta` does not know, as the server's strict decoding
/// reports them (`metadata.foo`, `metadata.ownerReferences[0].bar`), appended to `out`
/// below `path`. Values of the wrong type are not looked into.
pub fn unknown_fields(
    metadata: &Value,
    path: &crate::PathRef<'_>,
    out: &mut Vec<crate::FieldPath>,
) {
    const META: &[&str] = &[
        "name",
        "generateName",
        "namespace",
        "selfLink",
        "uid",
        "resourceVersion",
        "generation",
        "creationTimestamp",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "labels",
        "annotations",
        "ownerReferences",
        "finalizers",
        "managedFields",
    ];
    const OWNER: &[&str] = &[
        "apiVersion",
        "kind",
        "name",
        "uid",
        "controller",
        "blockOwnerDeletion",
    ];
    const MANAGED: &[&str] = &[
        "manager",
        "operation",
        "apiVersion",
        "time",
        "fieldsType",
        "fieldsV1",
        "subresource",
    ];
    let Value::Object(m) = metadata else { return };
    for (k, v) in m {
        if !META.contains(&k.as_str()) {
            out.push(path.child(k).to_path());
            continue;
        }
        let known = match k.as_str() {
            "ownerReferences" => OWNER,
            "managedFields" => MANAGED,
            _ => continue,
        };
        let Value::Array(items) = v else { continue };
        let list = path.child(k);
        for (i, item) in items.iter().enumerate() {
            let Value::Object(fields) = item else {
                continue;
            };
            let at = list.index(i);
            for name in fields.keys() {
                if !known.contains(&name.as_str()) {
                    out.push(at.child(name).to_path());
                }
            }
        }
    }
}
