//! What happens to an `apiextensions.k8s.io/v1` CustomResourceDefinition before it is
//! validated: decoding into the v1 Go types (sigs.k8s.io/json: case-sensitive field names,
//! Go's `encoding/json` type errors, strict unknown fields), the v1 defaults
//! (`SetDefaults_CustomResourceDefinition`, `SetDefaults_ServiceReference`), the conversion
//! to the internal version (the top-level `version`; `schema`, `subresources`,
//! `additionalPrinterColumns` and `selectableFields` moved to the spec when every version
//! has identical ones) and the registry's `PrepareForCreate` (status cleared,
//! `storedVersions` = the storage version).
//!
//! Decoding follows Go's rules: keys are visited in sorted order (kubectl sends JSON that
//! `YAMLToJSON` sorted); the first type mismatch is remembered and decoding goes on; an
//! error from a custom unmarshaler (`items`, `additionalProperties`, `additionalItems`,
//! `dependencies`, `metav1.Time`) ends it at once and wins. Those unmarshalers decode their
//! schema with a plain, non-strict `json.Unmarshal`: unknown fields below them are not
//! reported, and a type mismatch below them is reported with the context of the field that
//! holds them. `null` leaves the zero value (a nil pointer, slice or map).

use kdv_runtime::gofmt::json_kind;
use kdv_runtime::objectmeta::{decode_object_meta, parse_rfc3339, unknown_fields};
use kdv_runtime::{FieldPath, PathRef};
use serde_json::{Map, Value};

use super::DocStep;
use super::model::{
    ClientConfig, Column, Conversion, Crd, ExternalDocs, Items, Names, OrBool, OrStringArray,
    Props, Rule, Scale, SelectableField, ServiceReference, Spec, Subresources, Validation, Version,
};

/// Why a CRD cannot be decoded (the request fails before validation).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DecodeFailure {
    /// Go's error text (`json: cannot unmarshal ...`).
    pub message: String,
    /// Where the offending value is written.
    pub at: Vec<DocStep>,
}

/// A field the v1 types do not have (strict field validation).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Unknown {
    /// As the server prints it: `spec.versions[0].schema.openAPIV3Schema.properties.spec.foo`.
    pub path: String,
    pub at: Vec<DocStep>,
}

/// A decoded, defaulted, converted and prepared CRD, and its unknown fields.
#[derive(Debug, Clone)]
pub(crate) struct Decoded<'a> {
    pub crd: Crd<'a>,
    pub unknown: Vec<Unknown>,
}

/// An `encoding/json` error: a type mismatch (`UnmarshalTypeError`, whose struct and field
/// are the decoding context's) or an unmarshaler's own error.
#[derive(Debug, Clone)]
enum GoErr {
    Type {
        what: String,
        go_type: &'static str,
        context: Option<(&'static str, String)>,
        at: Vec<DocStep>,
    },
    Plain {
        message: String,
        at: Vec<DocStep>,
    },
}

impl GoErr {
    fn into_failure(self) -> DecodeFailure {
        match self {
            GoErr::Type {
                what,
                go_type,
                context,
                at,
            } => DecodeFailure {
                message: match context {
                    Some((strukt, field)) => format!(
                        "json: cannot unmarshal {what} into Go struct field {strukt}.{field} of type {go_type}"
                    ),
                    None => {
                        format!("json: cannot unmarshal {what} into Go value of type {go_type}")
                    }
                },
                at,
            },
            GoErr::Plain { message, at } => DecodeFailure { message, at },
        }
    }
}

type Hard<T> = Result<T, GoErr>;

struct Dec {
    /// The first type mismatch.
    saved: Option<GoErr>,
    unknown: Vec<Unknown>,
    /// Whether unknown fields are reported (not below a custom unmarshaler).
    strict: bool,
    /// `errorContext`: the innermost struct and the struct field names down to here.
    context: Vec<(&'static str, String)>,
    /// The document path down to here (keys, map keys and indices).
    doc: Vec<DocStep>,
}

impl Dec {
    fn new(strict: bool) -> Dec {
        Dec {
            saved: None,
            unknown: Vec::new(),
            strict,
            context: Vec::new(),
            doc: Vec::new(),
        }
    }

    fn type_error(&self, what: String, go_type: &'static str) -> GoErr {
        let context = self.context.last().map(|(strukt, _)| {
            let fields: Vec<&str> = self.context.iter().map(|(_, f)| f.as_str()).collect();
            (*strukt, fields.join("."))
        });
        GoErr::Type {
            what,
            go_type,
            context,
            at: self.doc.clone(),
        }
    }

    fn mismatch(&mut self, v: &Value, go_type: &'static str) {
        if self.saved.is_none() {
            self.saved = Some(self.type_error(json_kind(v).to_owned(), go_type));
        }
    }

    fn mismatch_literal(&mut self, what: String, go_type: &'static str) {
        if self.saved.is_none() {
            self.saved = Some(self.type_error(what, go_type));
        }
    }

    fn strict_path(&self) -> String {
        let mut s = String::new();
        for step in &self.doc {
            match step {
                DocStep::Key(k) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(k);
                }
                DocStep::Index(i) => {
                    s.push('[');
                    s.push_str(&i.to_string());
                    s.push(']');
                }
            }
        }
        s
    }

    /// Decodes the members of a struct: `f` returns whether it knows a key.
    fn fields<'v>(
        &mut self,
        map: &'v Map<String, Value>,
        strukt: &'static str,
        mut f: impl FnMut(&mut Self, &str, &'v Value) -> Hard<bool>,
    ) -> Hard<()> {
        for (k, v) in map {
            self.context.push((strukt, k.clone()));
            self.doc.push(DocStep::Key(k.clone()));
            let known = f(self, k, v)?;
            if !known && self.strict {
                let path = self.strict_path();
                self.unknown.push(Unknown {
                    path,
                    at: self.doc.clone(),
                });
            }
            self.doc.pop();
            self.context.pop();
        }
        Ok(())
    }

    /// A struct-typed value (or the target of a pointer to one): its map, `None` for
    /// `null` or a mismatch.
    fn object<'v>(
        &mut self,
        v: &'v Value,
        go_type: &'static str,
    ) -> Option<&'v Map<String, Value>> {
        match v {
            Value::Object(m) => Some(m),
            Value::Null => None,
            other => {
                self.mismatch(other, go_type);
                None
            }
        }
    }

    fn string(&mut self, v: &Value, go_type: &'static str) -> String {
        match v {
            Value::String(s) => s.clone(),
            Value::Null => String::new(),
            other => {
                self.mismatch(other, go_type);
                String::new()
            }
        }
    }

    fn opt_string(&mut self, v: &Value, go_type: &'static str) -> Option<String> {
        match v {
            Value::Null => None,
            other => Some(self.string(other, go_type)),
        }
    }

    fn bool(&mut self, v: &Value) -> bool {
        match v {
            Value::Bool(b) => *b,
            Value::Null => false,
            other => {
                self.mismatch(other, "bool");
                false
            }
        }
    }

    fn opt_bool(&mut self, v: &Value) -> Option<bool> {
        match v {
            Value::Null => None,
            other => Some(self.bool(other)),
        }
    }

    fn int(&mut self, v: &Value, go_type: &'static str, min: i64, max: i64) -> i64 {
        match v {
            Value::Null => 0,
            Value::Number(n) => match n.as_i64() {
                Some(i) if (min..=max).contains(&i) => i,
                _ => {
                    self.mismatch_literal(
                        format!("number {}", kdv_runtime::gofmt::json_number_written(n)),
                        go_type,
                    );
                    0
                }
            },
            other => {
                self.mismatch(other, go_type);
                0
            }
        }
    }

    fn opt_int64(&mut self, v: &Value) -> Option<i64> {
        match v {
            Value::Null => None,
            other => Some(self.int(other, "int64", i64::MIN, i64::MAX)),
        }
    }

    fn opt_float(&mut self, v: &Value) -> Option<f64> {
        match v {
            Value::Null => None,
            Value::Number(n) => Some(n.as_f64().unwrap_or(0.0)),
            other => {
                self.mismatch(other, "float64");
                Some(0.0)
            }
        }
    }

    /// A slice: `None` for `null` or a mismatch; `elem` decodes each item.
    fn slice<'v, T>(
        &mut self,
        v: &'v Value,
        go_type: &'static str,
        mut elem: impl FnMut(&mut Self, &'v Value) -> Hard<T>,
    ) -> Hard<Vec<T>> {
        match v {
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    self.doc.push(DocStep::Index(i));
                    out.push(elem(self, item)?);
                    self.doc.pop();
                }
                Ok(out)
            }
            Value::Null => Ok(Vec::new()),
            other => {
                self.mismatch(other, go_type);
                Ok(Vec::new())
            }
        }
    }

    fn strings(&mut self, v: &Value, go_type: &'static str) -> Hard<Vec<String>> {
        self.slice(v, go_type, |d, x| Ok(d.string(x, "string")))
    }

    /// A map with values decoded by `elem`, sorted by key.
    fn map<'v, T>(
        &mut self,
        v: &'v Value,
        go_type: &'static str,
        mut elem: impl FnMut(&mut Self, &'v Value) -> Hard<T>,
    ) -> Hard<Vec<(String, T)>> {
        match v {
            Value::Object(m) => {
                let mut out = Vec::with_capacity(m.len());
                for (k, x) in m {
                    self.doc.push(DocStep::Key(k.clone()));
                    out.push((k.clone(), elem(self, x)?));
                    self.doc.pop();
                }
                Ok(out)
            }
            Value::Null => Ok(Vec::new()),
            other => {
                self.mismatch(other, go_type);
                Ok(Vec::new())
            }
        }
    }

    /// A value decoded by a custom unmarshaler with a plain `json.Unmarshal`: no strict
    /// checks below, and an error there ends decoding with this field's context.
    fn nested<'v, T>(
        &mut self,
        v: &'v Value,
        f: impl FnOnce(&mut Dec, &'v Value) -> Hard<T>,
    ) -> Hard<T> {
        let mut inner = Dec::new(false);
        inner.doc = self.doc.clone();
        let result = f(&mut inner, v);
        let err = match result {
            Err(e) => e,
            Ok(value) => match inner.saved {
                None => return Ok(value),
                Some(e) => e,
            },
        };
        Err(match err {
            GoErr::Type {
                what, go_type, at, ..
            } => {
                let mut e = self.type_error(what, go_type);
                if let GoErr::Type { at: a, .. } = &mut e {
                    *a = at;
                }
                e
            }
            plain => plain,
        })
    }

    fn props<'v>(&mut self, v: &'v Value) -> Hard<Props<'v>> {
        let mut p = Props::new(v);
        let Some(m) = self.object(v, "v1.JSONSchemaProps") else {
            return Ok(p);
        };
        self.fields(m, "JSONSchemaProps", |d, k, x| {
            match k {
                "id" => p.id = d.string(x, "string"),
                "$schema" => p.schema = d.string(x, "v1.JSONSchemaURL"),
                "$ref" => p.ref_ = d.opt_string(x, "string"),
                "description" => p.description = d.string(x, "string"),
                "type" => p.type_ = d.string(x, "string"),
                "format" => p.format = d.string(x, "string"),
                "title" => p.title = d.string(x, "string"),
                "default" => p.default = (!x.is_null()).then(|| x.clone()),
                "maximum" => p.maximum = d.opt_float(x),
                "exclusiveMaximum" => p.exclusive_maximum = d.bool(x),
                "minimum" => p.minimum = d.opt_float(x),
                "exclusiveMinimum" => p.exclusive_minimum = d.bool(x),
                "maxLength" => p.max_length = d.opt_int64(x),
                "minLength" => p.min_length = d.opt_int64(x),
                "pattern" => p.pattern = d.string(x, "string"),
                "maxItems" => p.max_items = d.opt_int64(x),
                "minItems" => p.min_items = d.opt_int64(x),
                "uniqueItems" => p.unique_items = d.bool(x),
                "multipleOf" => p.multiple_of = d.opt_float(x),
                "enum" => p.enumeration = d.slice(x, "[]v1.JSON", |_, e| Ok(e.clone()))?,
                "maxProperties" => p.max_properties = d.opt_int64(x),
                "minProperties" => p.min_properties = d.opt_int64(x),
                "required" => p.required = d.strings(x, "[]string")?,
                "items" => p.items = d.items(x)?,
                "allOf" => p.all_of = d.slice(x, "[]v1.JSONSchemaProps", Dec::props)?,
                "oneOf" => p.one_of = d.slice(x, "[]v1.JSONSchemaProps", Dec::props)?,
                "anyOf" => p.any_of = d.slice(x, "[]v1.JSONSchemaProps", Dec::props)?,
                "not" => {
                    p.not = match x {
                        Value::Null => None,
                        x => Some(Box::new(d.props(x)?)),
                    }
                }
                "properties" => {
                    p.properties = d.map(x, "map[string]v1.JSONSchemaProps", Dec::props)?
                }
                "additionalProperties" => p.additional_properties = d.or_bool(x)?,
                "patternProperties" => {
                    p.pattern_properties = d.map(x, "map[string]v1.JSONSchemaProps", Dec::props)?
                }
                "dependencies" => {
                    p.dependencies =
                        d.map(x, "v1.JSONSchemaDependencies", |d, x| d.or_string_array(x))?
                }
                "additionalItems" => p.additional_items = d.or_bool(x)?,
                "definitions" => {
                    p.definitions = d.map(x, "v1.JSONSchemaDefinitions", Dec::props)?
                }
                "externalDocs" => {
                    if let Some(m) = d.object(x, "v1.ExternalDocumentation") {
                        let mut e = ExternalDocs::default();
                        d.fields(m, "ExternalDocumentation", |d, k, x| {
                            match k {
                                "description" => e.description = d.string(x, "string"),
                                "url" => e.url = d.string(x, "string"),
                                _ => return Ok(false),
                            }
                            Ok(true)
                        })?;
                        p.external_docs = Some(e);
                    }
                }
                "example" => p.example = (!x.is_null()).then(|| x.clone()),
                "nullable" => p.nullable = d.bool(x),
                "x-kubernetes-preserve-unknown-fields" => {
                    p.x_preserve_unknown_fields = d.opt_bool(x)
                }
                "x-kubernetes-embedded-resource" => p.x_embedded_resource = d.bool(x),
                "x-kubernetes-int-or-string" => p.x_int_or_string = d.bool(x),
                "x-kubernetes-list-map-keys" => p.x_list_map_keys = d.strings(x, "[]string")?,
                "x-kubernetes-list-type" => p.x_list_type = d.opt_string(x, "string"),
                "x-kubernetes-map-type" => p.x_map_type = d.opt_string(x, "string"),
                "x-kubernetes-validations" => {
                    p.x_validations = d.slice(x, "v1.ValidationRules", Dec::rule)?
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        Ok(p)
    }

    fn rule(&mut self, v: &Value) -> Hard<Rule> {
        let mut r = Rule::default();
        let Some(m) = self.object(v, "v1.ValidationRule") else {
            return Ok(r);
        };
        self.fields(m, "ValidationRule", |d, k, x| {
            match k {
                "rule" => r.rule = d.string(x, "string"),
                "message" => r.message = d.string(x, "string"),
                "messageExpression" => r.message_expression = d.string(x, "string"),
                "reason" => r.reason = d.opt_string(x, "v1.FieldValueErrorReason"),
                "fieldPath" => r.field_path = d.string(x, "string"),
                "optionalOldSelf" => r.optional_old_self = d.opt_bool(x),
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        Ok(r)
    }

    /// `JSONSchemaPropsOrArray.UnmarshalJSON`: an object is the schema, an array the
    /// schemas, anything else an empty value.
    fn items<'v>(&mut self, v: &'v Value) -> Hard<Option<Items<'v>>> {
        Ok(match v {
            Value::Null => None,
            Value::Object(_) => Some(Items {
                schema: Some(Box::new(self.nested(v, Dec::props)?)),
                schemas: Vec::new(),
            }),
            Value::Array(_) => Some(Items {
                schema: None,
                schemas: self.nested(v, |d, v| d.slice(v, "[]v1.JSONSchemaProps", Dec::props))?,
            }),
            _ => Some(Items::default()),
        })
    }

    /// `JSONSchemaPropsOrBool.UnmarshalJSON`.
    fn or_bool<'v>(&mut self, v: &'v Value) -> Hard<Option<OrBool<'v>>> {
        Ok(match v {
            Value::Null => None,
            Value::Object(_) => Some(OrBool {
                allows: true,
                schema: Some(Box::new(self.nested(v, Dec::props)?)),
            }),
            Value::Bool(b) => Some(OrBool {
                allows: *b,
                schema: None,
            }),
            _ => {
                return Err(GoErr::Plain {
                    message: "boolean or JSON schema expected".to_owned(),
                    at: self.doc.clone(),
                });
            }
        })
    }

    /// `JSONSchemaPropsOrStringArray.UnmarshalJSON`.
    fn or_string_array<'v>(&mut self, v: &'v Value) -> Hard<OrStringArray<'v>> {
        Ok(match v {
            Value::Object(_) => OrStringArray {
                schema: Some(Box::new(self.nested(v, Dec::props)?)),
                property: Vec::new(),
            },
            Value::Array(_) => OrStringArray {
                schema: None,
                property: self.nested(v, |d, v| d.strings(v, "[]string"))?,
            },
            _ => OrStringArray::default(),
        })
    }

    fn names(&mut self, v: &Value, n: &mut Names) -> Hard<()> {
        let Some(m) = self.object(v, "v1.CustomResourceDefinitionNames") else {
            return Ok(());
        };
        self.fields(m, "CustomResourceDefinitionNames", |d, k, x| {
            match k {
                "plural" => n.plural = d.string(x, "string"),
                "singular" => n.singular = d.string(x, "string"),
                "shortNames" => n.short_names = d.strings(x, "[]string")?,
                "kind" => n.kind = d.string(x, "string"),
                "listKind" => n.list_kind = d.string(x, "string"),
                "categories" => n.categories = d.strings(x, "[]string")?,
                _ => return Ok(false),
            }
            Ok(true)
        })
    }

    fn validation<'v>(&mut self, v: &'v Value) -> Hard<Option<Validation<'v>>> {
        if v.is_null() {
            return Ok(None);
        }
        let mut out = Validation::default();
        if let Some(m) = self.object(v, "v1.CustomResourceValidation") {
            self.fields(m, "CustomResourceValidation", |d, k, x| {
                if k != "openAPIV3Schema" {
                    return Ok(false);
                }
                out.open_api_v3_schema = match x {
                    Value::Null => None,
                    x => Some(Box::new(d.props(x)?)),
                };
                Ok(true)
            })?;
        }
        Ok(Some(out))
    }

    fn subresources(&mut self, v: &Value) -> Hard<Option<Subresources>> {
        if v.is_null() {
            return Ok(None);
        }
        let mut out = Subresources::default();
        if let Some(m) = self.object(v, "v1.CustomResourceSubresources") {
            self.fields(m, "CustomResourceSubresources", |d, k, x| {
                match k {
                    "status" => {
                        if !x.is_null() {
                            out.status = true;
                            if let Some(m) = d.object(x, "v1.CustomResourceSubresourceStatus") {
                                d.fields(m, "CustomResourceSubresourceStatus", |_, _, _| {
                                    Ok(false)
                                })?;
                            }
                        }
                    }
                    "scale" => {
                        if !x.is_null() {
                            let mut s = Scale::default();
                            if let Some(m) = d.object(x, "v1.CustomResourceSubresourceScale") {
                                d.fields(m, "CustomResourceSubresourceScale", |d, k, x| {
                                    match k {
                                        "specReplicasPath" => {
                                            s.spec_replicas_path = d.string(x, "string")
                                        }
                                        "statusReplicasPath" => {
                                            s.status_replicas_path = d.string(x, "string")
                                        }
                                        "labelSelectorPath" => {
                                            s.label_selector_path = d.opt_string(x, "string")
                                        }
                                        _ => return Ok(false),
                                    }
                                    Ok(true)
                                })?;
                            }
                            out.scale = Some(s);
                        }
                    }
                    _ => return Ok(false),
                }
                Ok(true)
            })?;
        }
        Ok(Some(out))
    }

    fn column(&mut self, v: &Value) -> Hard<Column> {
        let mut c = Column::default();
        let Some(m) = self.object(v, "v1.CustomResourceColumnDefinition") else {
            return Ok(c);
        };
        self.fields(m, "CustomResourceColumnDefinition", |d, k, x| {
            match k {
                "name" => c.name = d.string(x, "string"),
                "type" => c.type_ = d.string(x, "string"),
                "format" => c.format = d.string(x, "string"),
                "description" => c.description = d.string(x, "string"),
                "priority" => {
                    c.priority = d.int(x, "int32", i64::from(i32::MIN), i64::from(i32::MAX)) as i32
                }
                "jsonPath" => c.json_path = d.string(x, "string"),
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        Ok(c)
    }

    fn selectable_field(&mut self, v: &Value) -> Hard<SelectableField> {
        let mut f = SelectableField::default();
        let Some(m) = self.object(v, "v1.SelectableField") else {
            return Ok(f);
        };
        self.fields(m, "SelectableField", |d, k, x| {
            if k != "jsonPath" {
                return Ok(false);
            }
            f.json_path = d.string(x, "string");
            Ok(true)
        })?;
        Ok(f)
    }

    fn version<'v>(&mut self, v: &'v Value) -> Hard<Version<'v>> {
        let mut out = Version::default();
        let Some(m) = self.object(v, "v1.CustomResourceDefinitionVersion") else {
            return Ok(out);
        };
        self.fields(m, "CustomResourceDefinitionVersion", |d, k, x| {
            match k {
                "name" => out.name = d.string(x, "string"),
                "served" => out.served = d.bool(x),
                "storage" => out.storage = d.bool(x),
                "deprecated" => out.deprecated = d.bool(x),
                "deprecationWarning" => out.deprecation_warning = d.opt_string(x, "string"),
                "schema" => out.schema = d.validation(x)?,
                "subresources" => out.subresources = d.subresources(x)?,
                "additionalPrinterColumns" => {
                    out.additional_printer_columns =
                        d.slice(x, "[]v1.CustomResourceColumnDefinition", Dec::column)?
                }
                "selectableFields" => {
                    out.selectable_fields =
                        d.slice(x, "[]v1.SelectableField", Dec::selectable_field)?
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        Ok(out)
    }

    fn client_config(&mut self, v: &Value) -> Hard<Option<ClientConfig>> {
        if v.is_null() {
            return Ok(None);
        }
        let mut c = ClientConfig::default();
        if let Some(m) = self.object(v, "v1.WebhookClientConfig") {
            self.fields(m, "WebhookClientConfig", |d, k, x| {
                match k {
                    "url" => c.url = d.opt_string(x, "string"),
                    "caBundle" => c.ca_bundle = d.bytes(x)?,
                    "service" => {
                        if !x.is_null() {
                            let mut s = ServiceReference::default();
                            let mut port = None;
                            if let Some(m) = d.object(x, "v1.ServiceReference") {
                                d.fields(m, "ServiceReference", |d, k, x| {
                                    match k {
                                        "namespace" => s.namespace = d.string(x, "string"),
                                        "name" => s.name = d.string(x, "string"),
                                        "path" => s.path = d.opt_string(x, "string"),
                                        "port" => {
                                            port = (!x.is_null()).then(|| {
                                                d.int(
                                                    x,
                                                    "int32",
                                                    i64::from(i32::MIN),
                                                    i64::from(i32::MAX),
                                                )
                                                    as i32
                                            })
                                        }
                                        _ => return Ok(false),
                                    }
                                    Ok(true)
                                })?;
                            }
                            // SetDefaults_ServiceReference.
                            s.port = port.unwrap_or(443);
                            c.service = Some(s);
                        }
                    }
                    _ => return Ok(false),
                }
                Ok(true)
            })?;
        }
        Ok(Some(c))
    }

    /// A `[]byte`: a base64 string (standard encoding, padded).
    fn bytes(&mut self, v: &Value) -> Hard<Vec<u8>> {
        match v {
            Value::Null => Ok(Vec::new()),
            Value::String(s) => match decode_base64(s) {
                Ok(b) => Ok(b),
                Err(at) => {
                    if self.saved.is_none() {
                        self.saved = Some(GoErr::Plain {
                            message: format!("illegal base64 data at input byte {at}"),
                            at: self.doc.clone(),
                        });
                    }
                    Ok(Vec::new())
                }
            },
            other => self.slice(other, "[]uint8", |d, x| Ok(d.int(x, "uint8", 0, 255) as u8)),
        }
    }

    fn conversion(&mut self, v: &Value) -> Hard<Option<Conversion>> {
        if v.is_null() {
            return Ok(None);
        }
        let mut c = Conversion::default();
        if let Some(m) = self.object(v, "v1.CustomResourceConversion") {
            self.fields(m, "CustomResourceConversion", |d, k, x| {
                match k {
                    "strategy" => c.strategy = d.string(x, "v1.ConversionStrategyType"),
                    "webhook" => {
                        if let Some(m) = d.object(x, "v1.WebhookConversion") {
                            d.fields(m, "WebhookConversion", |d, k, x| {
                                match k {
                                    "clientConfig" => {
                                        c.webhook_client_config = d.client_config(x)?
                                    }
                                    "conversionReviewVersions" => {
                                        c.conversion_review_versions = d.strings(x, "[]string")?
                                    }
                                    _ => return Ok(false),
                                }
                                Ok(true)
                            })?;
                        }
                    }
                    _ => return Ok(false),
                }
                Ok(true)
            })?;
        }
        Ok(Some(c))
    }

    fn spec<'v>(&mut self, v: &'v Value, spec: &mut Spec<'v>) -> Hard<()> {
        let Some(m) = self.object(v, "v1.CustomResourceDefinitionSpec") else {
            return Ok(());
        };
        self.fields(m, "CustomResourceDefinitionSpec", |d, k, x| {
            match k {
                "group" => spec.group = d.string(x, "string"),
                "names" => d.names(x, &mut spec.names)?,
                "scope" => spec.scope = d.string(x, "v1.ResourceScope"),
                "versions" => {
                    spec.versions =
                        d.slice(x, "[]v1.CustomResourceDefinitionVersion", Dec::version)?
                }
                "conversion" => spec.conversion = d.conversion(x)?,
                "preserveUnknownFields" => spec.preserve_unknown_fields = Some(d.bool(x)),
                _ => return Ok(false),
            }
            Ok(true)
        })
    }

    /// The status is cleared before validation; it is decoded for its type errors and
    /// unknown fields.
    fn status(&mut self, v: &Value) -> Hard<()> {
        let Some(m) = self.object(v, "v1.CustomResourceDefinitionStatus") else {
            return Ok(());
        };
        self.fields(m, "CustomResourceDefinitionStatus", |d, k, x| {
            match k {
                "conditions" => {
                    d.slice(x, "[]v1.CustomResourceDefinitionCondition", Dec::condition)?;
                }
                "acceptedNames" => d.names(x, &mut Names::default())?,
                "storedVersions" => {
                    d.strings(x, "[]string")?;
                }
                "observedGeneration" => {
                    d.int(x, "int64", i64::MIN, i64::MAX);
                }
                _ => return Ok(false),
            }
            Ok(true)
        })
    }

    fn condition(&mut self, v: &Value) -> Hard<()> {
        let Some(m) = self.object(v, "v1.CustomResourceDefinitionCondition") else {
            return Ok(());
        };
        self.fields(m, "CustomResourceDefinitionCondition", |d, k, x| {
            match k {
                "type" => {
                    d.string(x, "v1.CustomResourceDefinitionConditionType");
                }
                "status" => {
                    d.string(x, "v1.ConditionStatus");
                }
                "reason" | "message" => {
                    d.string(x, "string");
                }
                "observedGeneration" => {
                    d.int(x, "int64", i64::MIN, i64::MAX);
                }
                "lastTransitionTime" => d.time(x)?,
                _ => return Ok(false),
            }
            Ok(true)
        })
    }

    /// `metav1.Time.UnmarshalJSON`: its errors end decoding, without context.
    fn time(&mut self, v: &Value) -> Hard<()> {
        match v {
            Value::Null => Ok(()),
            Value::String(s) => parse_rfc3339(s)
                .map(|_| ())
                .map_err(|message| GoErr::Plain {
                    message,
                    at: self.doc.clone(),
                }),
            other => Err(GoErr::Plain {
                message: format!(
                    "json: cannot unmarshal {} into Go value of type string",
                    json_kind(other)
                ),
                at: self.doc.clone(),
            }),
        }
    }

    /// `metadata` through kdv-runtime's ObjectMeta decoder (its texts name the field from
    /// `metadata`'s own root; here the context starts at the CRD's).
    fn metadata(&mut self, v: &Value) -> Hard<()> {
        if let Err(e) = decode_object_meta(v) {
            let text = e.to_string();
            let message = match text.split_once("Go struct field ") {
                Some((head, tail)) => match tail.split_once('.') {
                    Some((strukt, field)) => {
                        format!("{head}Go struct field {strukt}.metadata.{field}")
                    }
                    None => text.clone(),
                },
                None => text.replace(
                    "into Go value of type v1.ObjectMeta",
                    "into Go struct field CustomResourceDefinition.metadata of type v1.ObjectMeta",
                ),
            };
            let err = GoErr::Plain {
                message,
                at: self.doc.clone(),
            };
            if text.contains("Go struct field") || text.contains("v1.ObjectMeta") {
                if self.saved.is_none() {
                    self.saved = Some(err);
                }
            } else {
                // metav1.Time's own errors end decoding.
                return Err(err);
            }
            return Ok(());
        }
        if self.strict {
            let mut paths = Vec::new();
            let root = PathRef::Nil;
            unknown_fields(v, &root.child("metadata"), &mut paths);
            for p in paths {
                self.unknown.push(Unknown {
                    path: p.to_string(),
                    at: field_path_steps(&p),
                });
            }
        }
        Ok(())
    }
}

/// The document steps of a field path (members and map keys are keys).
pub(crate) fn field_path_steps(p: &FieldPath) -> Vec<DocStep> {
    p.segments()
        .iter()
        .map(|s| match s {
            kdv_runtime::Segment::Field(f) | kdv_runtime::Segment::Key(f) => {
                DocStep::Key(f.to_string())
            }
            kdv_runtime::Segment::Index(i) => DocStep::Index(*i),
        })
        .collect()
}

/// Go's `base64.StdEncoding.Decode` (which skips `\r` and `\n`): the offset of the first bad
/// byte on failure.
fn decode_base64(s: &str) -> Result<Vec<u8>, usize> {
    let bytes: Vec<u8> = s.bytes().filter(|&b| b != b'\r' && b != b'\n').collect();
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        })
    };
    let mut i = 0;
    while i < bytes.len() {
        let chunk = &bytes[i..bytes.len().min(i + 4)];
        let mut n = 0u32;
        let mut count = 0;
        for (j, &c) in chunk.iter().enumerate() {
            if c == b'=' {
                // Padding: only in the last quantum, after at least two symbols.
                if j < 2 || i + 4 != bytes.len() || chunk[j..].iter().any(|&p| p != b'=') {
                    return Err(i + j);
                }
                break;
            }
            match value(c) {
                Some(v) => {
                    n |= v << (18 - 6 * j);
                    count += 1;
                }
                None => return Err(i + j),
            }
        }
        if chunk.len() < 4 {
            return Err(bytes.len());
        }
        out.extend_from_slice(&n.to_be_bytes()[1..count]);
        i += 4;
    }
    Ok(out)
}

/// Decodes, defaults, converts and prepares a v1 CRD (a JSON object whose kind and
/// apiVersion were checked by the caller).
pub(crate) fn decode(v: &Value) -> Result<Decoded<'_>, DecodeFailure> {
    let mut d = Dec::new(true);
    let mut crd = Crd::default();
    let mut spec = Spec::default();
    let Some(m) = v.as_object() else {
        return Err(DecodeFailure {
            message: format!(
                "json: cannot unmarshal {} into Go value of type v1.CustomResourceDefinition",
                json_kind(v)
            ),
            at: Vec::new(),
        });
    };
    let result = d.fields(m, "CustomResourceDefinition", |d, k, x| {
        match k {
            "apiVersion" | "kind" => {
                d.string(x, "string");
            }
            "metadata" => {
                crd.metadata = (!x.is_null()).then_some(x);
                d.metadata(x)?;
            }
            "spec" => d.spec(x, &mut spec)?,
            "status" => d.status(x)?,
            _ => return Ok(false),
        }
        Ok(true)
    });
    if let Err(e) = result {
        return Err(e.into_failure());
    }
    if let Some(e) = d.saved {
        return Err(e.into_failure());
    }
    // v1 defaults.
    if spec.names.singular.is_empty() {
        spec.names.singular = spec.names.kind.to_lowercase();
    }
    if spec.names.list_kind.is_empty() && !spec.names.kind.is_empty() {
        spec.names.list_kind = format!("{}List", spec.names.kind);
    }
    if spec.conversion.is_none() {
        spec.conversion = Some(Conversion {
            strategy: "None".to_owned(),
            ..Conversion::default()
        });
    }
    // v1 → internal: `bool` → `*bool`, versions[0] → version, identical per-version fields
    // moved to the spec.
    spec.preserve_unknown_fields = Some(spec.preserve_unknown_fields.unwrap_or(false));
    if let Some(first) = spec.versions.first() {
        spec.version = first.name.clone();
        let same = |f: &dyn Fn(&Version<'_>, &Version<'_>) -> bool| {
            spec.versions.iter().all(|v| f(v, first))
        };
        let same_schema = same(&|v, f| v.schema == f.schema);
        let same_subresources = same(&|v, f| v.subresources == f.subresources);
        let same_columns =
            same(&|v, f| v.additional_printer_columns == f.additional_printer_columns);
        let same_fields = same(&|v, f| v.selectable_fields == f.selectable_fields);
        if same_schema {
            spec.validation = spec.versions[0].schema.take();
        }
        if same_subresources {
            spec.subresources = spec.versions[0].subresources.take();
        }
        if same_columns {
            spec.additional_printer_columns =
                std::mem::take(&mut spec.versions[0].additional_printer_columns);
        }
        if same_fields {
            spec.selectable_fields = std::mem::take(&mut spec.versions[0].selectable_fields);
        }
        for v in &mut spec.versions {
            if same_schema {
                v.schema = None;
            }
            if same_subresources {
                v.subresources = None;
            }
            if same_columns {
                v.additional_printer_columns = Vec::new();
            }
            if same_fields {
                v.selectable_fields = Vec::new();
            }
        }
    }
    // PrepareForCreate: the status is cleared; the storage version is stored.
    crd.stored_versions = spec
        .versions
        .iter()
        .find(|v| v.storage)
        .map(|v| vec![v.name.clone()])
        .unwrap_or_default();
    crd.spec = spec;
    Ok(Decoded {
        crd,
        unknown: d.unknown,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn failure(v: Value) -> String {
        decode(&v).err().map(|e| e.message).unwrap_or_default()
    }

    #[test]
    fn type_errors_name_the_struct_and_field_path_as_go() {
        assert_eq!(
            failure(json!({"spec": {"names": {"kind": 5}}})),
            "json: cannot unmarshal number into Go struct field CustomResourceDefinitionNames.spec.names.kind of type string"
        );
        assert_eq!(
            failure(json!({"spec": 5})),
            "json: cannot unmarshal number into Go struct field CustomResourceDefinition.spec of type v1.CustomResourceDefinitionSpec"
        );
        // Map keys and indices are not part of Go's field context.
        assert_eq!(
            failure(
                json!({"spec": {"versions": [{"schema": {"openAPIV3Schema": {"properties": {"a": {"maxLength": 1.5}}}}}]}})
            ),
            "json: cannot unmarshal number 1.5 into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.maxLength of type int64"
        );
        assert_eq!(
            failure(json!({"spec": {"versions": {}}})),
            "json: cannot unmarshal object into Go struct field CustomResourceDefinitionSpec.spec.versions of type []v1.CustomResourceDefinitionVersion"
        );
    }

    #[test]
    fn errors_below_custom_unmarshalers_take_the_holding_field() {
        assert_eq!(
            failure(
                json!({"spec": {"versions": [{"schema": {"openAPIV3Schema": {"items": {"type": 1}}}}]}})
            ),
            "json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.items of type string"
        );
        assert_eq!(
            failure(
                json!({"spec": {"versions": [{"schema": {"openAPIV3Schema": {"additionalProperties": "x"}}}]}})
            ),
            "boolean or JSON schema expected"
        );
    }

    #[test]
    fn unknown_fields_as_strict_decoding_reports_them() {
        let v = json!({
            "metadata": {"name": "a.b.c", "foo": 1},
            "spec": {"typo": 1, "versions": [{"name": "v1", "schema": {"openAPIV3Schema": {
                "properties": {"spec": {"minLenght": 1, "items": {"bogus": 1}}}}}}]}
        });
        let d = decode(&v).unwrap();
        let paths: Vec<&str> = d.unknown.iter().map(|u| u.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "metadata.foo",
                "spec.typo",
                "spec.versions[0].schema.openAPIV3Schema.properties.spec.minLenght"
            ]
        );
    }

    #[test]
    fn identical_version_fields_move_to_the_spec() {
        let v = json!({"spec": {"names": {"kind": "Foo"}, "versions": [
            {"name": "v1", "storage": true, "schema": {"openAPIV3Schema": {"type": "object"}}},
            {"name": "v2", "schema": {"openAPIV3Schema": {"type": "object"}}, "subresources": {"status": {}}}
        ]}});
        let d = decode(&v).unwrap();
        assert!(d.crd.spec.validation.is_some());
        assert!(d.crd.spec.versions.iter().all(|v| v.schema.is_none()));
        assert!(d.crd.spec.subresources.is_none());
        assert!(d.crd.spec.versions[1].subresources.is_some());
        assert_eq!(d.crd.spec.version, "v1");
        assert_eq!(d.crd.spec.names.singular, "foo");
        assert_eq!(d.crd.spec.names.list_kind, "FooList");
        assert_eq!(d.crd.stored_versions, ["v1"]);
    }

    #[test]
    fn base64_like_go() {
        assert_eq!(decode_base64("Zm9v"), Ok(b"foo".to_vec()));
        assert_eq!(decode_base64("Zg=="), Ok(b"f".to_vec()));
        assert_eq!(decode_base64("Zm8="), Ok(b"fo".to_vec()));
        assert_eq!(decode_base64("Z!=="), Err(1));
        assert_eq!(decode_base64("Zm9"), Err(3));
    }
}
