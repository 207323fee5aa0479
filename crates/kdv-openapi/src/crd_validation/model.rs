//! The internal form of a CustomResourceDefinition (`apiextensions.CustomResourceDefinition`,
//! after decoding, defaulting and the v1 → internal conversion), which the API server's
//! validation reads; and Go's `json.Marshal` of its types, which some error values print.
//!
//! Slices and maps are `Vec`s: Go's `apiequality.Semantic.DeepEqual` (the conversion's
//! "identical per version" test) treats nil and empty alike, and every check upstream makes
//! on them is a length test. Properties keep the sorted order of the decoded JSON map (Go
//! visits maps in random order; kdv visits them sorted).

use std::fmt::Write;

use kdv_runtime::gofmt::{format_float_json, write_json, write_json_string};
use serde_json::Value;

/// A schema node as written (`v1.JSONSchemaProps` JSON), kept beside the decoded form for
/// compiling default-value validators. Compares equal to any other: it is not part of the
/// Go value.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Raw<'a>(pub &'a Value);

impl PartialEq for Raw<'_> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// `apiextensions.CustomResourceDefinition` as validation reads it.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Crd<'a> {
    /// `metadata` as written (decoded again by kdv-runtime's ObjectMeta checks).
    pub metadata: Option<&'a Value>,
    pub spec: Spec<'a>,
    /// `status.storedVersions` as `PrepareForCreate` leaves it.
    pub stored_versions: Vec<String>,
    /// `status.acceptedNames` (cleared by `PrepareForCreate`).
    pub accepted_names: Names,
}

/// `CustomResourceDefinitionSpec` (internal: top-level `version`, `validation`,
/// `subresources`, `additionalPrinterColumns`, `selectableFields`).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Spec<'a> {
    pub group: String,
    pub version: String,
    pub names: Names,
    pub scope: String,
    pub validation: Option<Validation<'a>>,
    pub subresources: Option<Subresources>,
    pub versions: Vec<Version<'a>>,
    pub additional_printer_columns: Vec<Column>,
    pub selectable_fields: Vec<SelectableField>,
    pub conversion: Option<Conversion>,
    /// Always set by the v1 conversion (`bool` → `*bool`).
    pub preserve_unknown_fields: Option<bool>,
}

/// `CustomResourceDefinitionNames`.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Names {
    pub plural: String,
    pub singular: String,
    pub short_names: Vec<String>,
    pub kind: String,
    pub list_kind: String,
    pub categories: Vec<String>,
}

/// `CustomResourceValidation`.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Validation<'a> {
    pub open_api_v3_schema: Option<Box<Props<'a>>>,
}

/// `CustomResourceDefinitionVersion`.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Version<'a> {
    pub name: String,
    pub served: bool,
    pub storage: bool,
    pub deprecated: bool,
    pub deprecation_warning: Option<String>,
    pub schema: Option<Validation<'a>>,
    pub subresources: Option<Subresources>,
    pub additional_printer_columns: Vec<Column>,
    pub selectable_fields: Vec<SelectableField>,
}

/// `CustomResourceSubresources`.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Subresources {
    /// `status: {}` (an empty struct) is set.
    pub status: bool,
    pub scale: Option<Scale>,
}

/// `CustomResourceSubresourceScale`.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Scale {
    pub spec_replicas_path: String,
    pub status_replicas_path: String,
    pub label_selector_path: Option<String>,
}

/// `CustomResourceColumnDefinition`.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Column {
    pub name: String,
    pub type_: String,
    pub format: String,
    pub description: String,
    pub priority: i32,
    pub json_path: String,
}

/// `SelectableField`.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct SelectableField {
    pub json_path: String,
}

/// `CustomResourceConversion` (internal: the webhook's fields flattened).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Conversion {
    pub strategy: String,
    pub webhook_client_config: Option<ClientConfig>,
    pub conversion_review_versions: Vec<String>,
}

/// `WebhookClientConfig`.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct ClientConfig {
    pub url: Option<String>,
    pub service: Option<ServiceReference>,
    pub ca_bundle: Vec<u8>,
}

/// `ServiceReference` (the port defaulted to 443).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct ServiceReference {
    pub namespace: String,
    pub name: String,
    pub path: Option<String>,
    pub port: i32,
}

/// `JSONSchemaProps`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Props<'a> {
    pub raw: Raw<'a>,
    pub id: String,
    pub schema: String,
    pub ref_: Option<String>,
    pub description: String,
    pub type_: String,
    pub nullable: bool,
    pub format: String,
    pub title: String,
    pub default: Option<Value>,
    pub maximum: Option<f64>,
    pub exclusive_maximum: bool,
    pub minimum: Option<f64>,
    pub exclusive_minimum: bool,
    pub max_length: Option<i64>,
    pub min_length: Option<i64>,
    pub pattern: String,
    pub max_items: Option<i64>,
    pub min_items: Option<i64>,
    pub unique_items: bool,
    pub multiple_of: Option<f64>,
    pub enumeration: Vec<Value>,
    pub max_properties: Option<i64>,
    pub min_properties: Option<i64>,
    pub required: Vec<String>,
    pub items: Option<Items<'a>>,
    pub all_of: Vec<Props<'a>>,
    pub one_of: Vec<Props<'a>>,
    pub any_of: Vec<Props<'a>>,
    pub not: Option<Box<Props<'a>>>,
    pub properties: Vec<(String, Props<'a>)>,
    pub additional_properties: Option<OrBool<'a>>,
    pub pattern_properties: Vec<(String, Props<'a>)>,
    pub dependencies: Vec<(String, OrStringArray<'a>)>,
    pub additional_items: Option<OrBool<'a>>,
    pub definitions: Vec<(String, Props<'a>)>,
    pub external_docs: Option<ExternalDocs>,
    pub example: Option<Value>,
    pub x_preserve_unknown_fields: Option<bool>,
    pub x_embedded_resource: bool,
    pub x_int_or_string: bool,
    pub x_list_map_keys: Vec<String>,
    pub x_list_type: Option<String>,
    pub x_map_type: Option<String>,
    pub x_validations: Vec<Rule>,
}

impl<'a> Props<'a> {
    /// The zero value, remembering where it was written.
    pub(crate) fn new(raw: &'a Value) -> Props<'a> {
        Props {
            raw: Raw(raw),
            id: String::new(),
            schema: String::new(),
            ref_: None,
            description: String::new(),
            type_: String::new(),
            nullable: false,
            format: String::new(),
            title: String::new(),
            default: None,
            maximum: None,
            exclusive_maximum: false,
            minimum: None,
            exclusive_minimum: false,
            max_length: None,
            min_length: None,
            pattern: String::new(),
            max_items: None,
            min_items: None,
            unique_items: false,
            multiple_of: None,
            enumeration: Vec::new(),
            max_properties: None,
            min_properties: None,
            required: Vec::new(),
            items: None,
            all_of: Vec::new(),
            one_of: Vec::new(),
            any_of: Vec::new(),
            not: None,
            properties: Vec::new(),
            additional_properties: None,
            pattern_properties: Vec::new(),
            dependencies: Vec::new(),
            additional_items: None,
            definitions: Vec::new(),
            external_docs: None,
            example: None,
            x_preserve_unknown_fields: None,
            x_embedded_resource: false,
            x_int_or_string: false,
            x_list_map_keys: Vec::new(),
            x_list_type: None,
            x_map_type: None,
            x_validations: Vec::new(),
        }
    }

    /// `Properties[name]`.
    pub(crate) fn property(&self, name: &str) -> Option<&Props<'a>> {
        self.properties
            .binary_search_by(|(k, _)| k.as_str().cmp(name))
            .ok()
            .map(|i| &self.properties[i].1)
    }

    /// The single `items` schema, if any (`JSONSchemaPropsOrArray.Schema`).
    pub(crate) fn items_schema(&self) -> Option<&Props<'a>> {
        self.items.as_ref().and_then(|i| i.schema.as_deref())
    }
}

/// `JSONSchemaPropsOrArray`.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Items<'a> {
    pub schema: Option<Box<Props<'a>>>,
    pub schemas: Vec<Props<'a>>,
}

/// `JSONSchemaPropsOrBool`.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct OrBool<'a> {
    pub allows: bool,
    pub schema: Option<Box<Props<'a>>>,
}

/// `JSONSchemaPropsOrStringArray`.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct OrStringArray<'a> {
    pub schema: Option<Box<Props<'a>>>,
    pub property: Vec<String>,
}

/// `ExternalDocumentation`.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct ExternalDocs {
    pub description: String,
    pub url: String,
}

/// `ValidationRule`: the one rule type of the compiler, the runtime and these checks.
pub(crate) use crate::cel::RuleSource as Rule;

impl Rule {
    /// `json.Marshal` of the internal `ValidationRule` (no JSON tags: Go field names), as
    /// the CEL compile errors print the rule.
    pub(crate) fn to_go_json(&self) -> String {
        let mut out = String::new();
        self.write_go_json(&mut out);
        out
    }

    fn write_go_json(&self, out: &mut String) {
        let mut o = Obj::new(out);
        o.str("Rule", &self.rule);
        o.str("Message", &self.message);
        o.str("MessageExpression", &self.message_expression);
        o.opt_str("Reason", &self.reason);
        o.str("FieldPath", &self.field_path);
        o.opt_bool("OptionalOldSelf", self.optional_old_self);
        o.end();
    }
}

// Go's `json.Marshal` of the internal types, which carry no JSON tags: every field, by its Go
// name, in declaration order (nil pointers, slices and maps are `null`, `[]byte` base64).

/// A small JSON object writer in Go's field order.
struct Obj<'o> {
    out: &'o mut String,
    first: bool,
}

impl<'o> Obj<'o> {
    fn new(out: &'o mut String) -> Obj<'o> {
        out.push('{');
        Obj { out, first: true }
    }
    fn key(&mut self, k: &str) -> &mut String {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        write_json_string(self.out, k);
        self.out.push(':');
        self.out
    }
    fn str(&mut self, k: &str, v: &str) {
        write_json_string(self.key(k), v);
    }
    fn opt_str(&mut self, k: &str, v: &Option<String>) {
        match v {
            Some(s) => self.str(k, s),
            None => self.key(k).push_str("null"),
        }
    }
    fn bool(&mut self, k: &str, v: bool) {
        self.key(k).push_str(if v { "true" } else { "false" });
    }
    fn opt_bool(&mut self, k: &str, v: Option<bool>) {
        match v {
            Some(b) => self.bool(k, b),
            None => self.key(k).push_str("null"),
        }
    }
    fn int(&mut self, k: &str, v: i64) {
        let o = self.key(k);
        let _ = write!(o, "{v}");
    }
    fn opt_int(&mut self, k: &str, v: Option<i64>) {
        match v {
            Some(i) => self.int(k, i),
            None => self.key(k).push_str("null"),
        }
    }
    fn opt_float(&mut self, k: &str, v: Option<f64>) {
        match v {
            Some(f) => {
                let s = format_float_json(f);
                self.key(k).push_str(&s);
            }
            None => self.key(k).push_str("null"),
        }
    }
    fn strings(&mut self, k: &str, v: &[String]) {
        let o = self.key(k);
        strings(o, v);
    }
    fn opt_value(&mut self, k: &str, v: &Option<Value>) {
        let o = self.key(k);
        match v {
            Some(v) => write_json(o, v),
            None => o.push_str("null"),
        }
    }
    fn end(self) {
        self.out.push('}');
    }
}

/// A nil slice (`null`) or the strings.
pub(crate) fn strings(out: &mut String, v: &[String]) {
    if v.is_empty() {
        out.push_str("null");
        return;
    }
    out.push('[');
    for (i, s) in v.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_json_string(out, s);
    }
    out.push(']');
}

fn list<T>(out: &mut String, v: &[T], f: impl Fn(&mut String, &T)) {
    if v.is_empty() {
        out.push_str("null");
        return;
    }
    out.push('[');
    for (i, x) in v.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        f(out, x);
    }
    out.push(']');
}

fn map<T>(out: &mut String, v: &[(String, T)], f: impl Fn(&mut String, &T)) {
    if v.is_empty() {
        out.push_str("null");
        return;
    }
    out.push('{');
    for (i, (k, x)) in v.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_json_string(out, k);
        out.push(':');
        f(out, x);
    }
    out.push('}');
}

impl Props<'_> {
    /// `json.Marshal` of the internal `JSONSchemaProps`.
    pub(crate) fn go_json(&self, out: &mut String) {
        let mut o = Obj::new(out);
        o.str("ID", &self.id);
        o.str("Schema", &self.schema);
        o.opt_str("Ref", &self.ref_);
        o.str("Description", &self.description);
        o.str("Type", &self.type_);
        o.bool("Nullable", self.nullable);
        o.str("Format", &self.format);
        o.str("Title", &self.title);
        o.opt_value("Default", &self.default);
        o.opt_float("Maximum", self.maximum);
        o.bool("ExclusiveMaximum", self.exclusive_maximum);
        o.opt_float("Minimum", self.minimum);
        o.bool("ExclusiveMinimum", self.exclusive_minimum);
        o.opt_int("MaxLength", self.max_length);
        o.opt_int("MinLength", self.min_length);
        o.str("Pattern", &self.pattern);
        o.opt_int("MaxItems", self.max_items);
        o.opt_int("MinItems", self.min_items);
        o.bool("UniqueItems", self.unique_items);
        o.opt_float("MultipleOf", self.multiple_of);
        list(o.key("Enum"), &self.enumeration, write_json);
        o.opt_int("MaxProperties", self.max_properties);
        o.opt_int("MinProperties", self.min_properties);
        o.strings("Required", &self.required);
        match &self.items {
            Some(items) => items.go_json(o.key("Items")),
            None => o.key("Items").push_str("null"),
        }
        list(o.key("AllOf"), &self.all_of, |out, p| p.go_json(out));
        list(o.key("OneOf"), &self.one_of, |out, p| p.go_json(out));
        list(o.key("AnyOf"), &self.any_of, |out, p| p.go_json(out));
        match &self.not {
            Some(p) => p.go_json(o.key("Not")),
            None => o.key("Not").push_str("null"),
        }
        map(o.key("Properties"), &self.properties, |out, p| {
            p.go_json(out)
        });
        or_bool(o.key("AdditionalProperties"), &self.additional_properties);
        map(
            o.key("PatternProperties"),
            &self.pattern_properties,
            |out, p| p.go_json(out),
        );
        map(o.key("Dependencies"), &self.dependencies, |out, d| {
            let mut o = Obj::new(out);
            match &d.schema {
                Some(p) => p.go_json(o.key("Schema")),
                None => o.key("Schema").push_str("null"),
            }
            o.strings("Property", &d.property);
            o.end();
        });
        or_bool(o.key("AdditionalItems"), &self.additional_items);
        map(o.key("Definitions"), &self.definitions, |out, p| {
            p.go_json(out)
        });
        match &self.external_docs {
            Some(d) => {
                let mut e = Obj::new(o.key("ExternalDocs"));
                e.str("Description", &d.description);
                e.str("URL", &d.url);
                e.end();
            }
            None => o.key("ExternalDocs").push_str("null"),
        }
        o.opt_value("Example", &self.example);
        o.opt_bool("XPreserveUnknownFields", self.x_preserve_unknown_fields);
        o.bool("XEmbeddedResource", self.x_embedded_resource);
        o.bool("XIntOrString", self.x_int_or_string);
        o.strings("XListMapKeys", &self.x_list_map_keys);
        o.opt_str("XListType", &self.x_list_type);
        o.opt_str("XMapType", &self.x_map_type);
        list(o.key("XValidations"), &self.x_validations, |out, r| {
            r.write_go_json(out)
        });
        o.end();
    }

    /// `json.Marshal` of the node as a string.
    pub(crate) fn to_go_json(&self) -> String {
        let mut s = String::new();
        self.go_json(&mut s);
        s
    }
}

fn or_bool(out: &mut String, v: &Option<OrBool<'_>>) {
    match v {
        Some(b) => {
            let mut o = Obj::new(out);
            o.bool("Allows", b.allows);
            match &b.schema {
                Some(p) => p.go_json(o.key("Schema")),
                None => o.key("Schema").push_str("null"),
            }
            o.end();
        }
        None => out.push_str("null"),
    }
}

impl Items<'_> {
    /// `json.Marshal` of the internal `JSONSchemaPropsOrArray`.
    pub(crate) fn go_json(&self, out: &mut String) {
        let mut o = Obj::new(out);
        match &self.schema {
            Some(p) => p.go_json(o.key("Schema")),
            None => o.key("Schema").push_str("null"),
        }
        list(o.key("JSONSchemas"), &self.schemas, |out, p| p.go_json(out));
        o.end();
    }
}

fn validation(out: &mut String, v: &Option<Validation<'_>>) {
    match v {
        Some(v) => {
            let mut o = Obj::new(out);
            match &v.open_api_v3_schema {
                Some(p) => p.go_json(o.key("OpenAPIV3Schema")),
                None => o.key("OpenAPIV3Schema").push_str("null"),
            }
            o.end();
        }
        None => out.push_str("null"),
    }
}

fn subresources(out: &mut String, v: &Option<Subresources>) {
    match v {
        Some(s) => {
            let mut o = Obj::new(out);
            o.key("Status")
                .push_str(if s.status { "{}" } else { "null" });
            match &s.scale {
                Some(sc) => {
                    let mut so = Obj::new(o.key("Scale"));
                    so.str("SpecReplicasPath", &sc.spec_replicas_path);
                    so.str("StatusReplicasPath", &sc.status_replicas_path);
                    so.opt_str("LabelSelectorPath", &sc.label_selector_path);
                    so.end();
                }
                None => o.key("Scale").push_str("null"),
            }
            o.end();
        }
        None => out.push_str("null"),
    }
}

fn columns(out: &mut String, v: &[Column]) {
    list(out, v, |out, c| {
        let mut o = Obj::new(out);
        o.str("Name", &c.name);
        o.str("Type", &c.type_);
        o.str("Format", &c.format);
        o.str("Description", &c.description);
        o.int("Priority", i64::from(c.priority));
        o.str("JSONPath", &c.json_path);
        o.end();
    });
}

fn selectable(out: &mut String, v: &[SelectableField]) {
    list(out, v, |out, f| {
        let mut o = Obj::new(out);
        o.str("JSONPath", &f.json_path);
        o.end();
    });
}

/// `json.Marshal` of `[]apiextensions.CustomResourceDefinitionVersion`.
pub(crate) fn versions_go_json(versions: &[Version<'_>]) -> String {
    let mut out = String::new();
    list(&mut out, versions, |out, v| {
        let mut o = Obj::new(out);
        o.str("Name", &v.name);
        o.bool("Served", v.served);
        o.bool("Storage", v.storage);
        o.bool("Deprecated", v.deprecated);
        o.opt_str("DeprecationWarning", &v.deprecation_warning);
        validation(o.key("Schema"), &v.schema);
        subresources(o.key("Subresources"), &v.subresources);
        columns(
            o.key("AdditionalPrinterColumns"),
            &v.additional_printer_columns,
        );
        selectable(o.key("SelectableFields"), &v.selectable_fields);
        o.end();
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_render_with_go_field_names() {
        let v = Version {
            name: "v1".into(),
            served: true,
            ..Version::default()
        };
        assert_eq!(
            versions_go_json(&[v]),
            r#"[{"Name":"v1","Served":true,"Storage":false,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]"#
        );
        assert_eq!(versions_go_json(&[]), "null");
    }
}
