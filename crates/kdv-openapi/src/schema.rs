//! The compiled schema: an arena of nodes addressed by [`NodeId`], so recursive `$ref`s
//! (JSONSchemaProps refers to itself) are cycles of ids rather than infinite trees.
//!
//! One node is what kube-openapi's `spec.Schema` is after loading (types, retained format,
//! value validations, junctors, structure, default, extensions). The same node also serves as
//! apiextensions' *structural* schema: pruning, defaulting, list types and embedded resources
//! read only its structure (`properties`, `items`, `additional`), `default`, `nullable` and
//! extensions, never the value validations or the junctors' nested schemas, exactly as the
//! structural schema keeps those apart (`NewStructural`).

use regex::Regex;
use serde_json::Value;

/// Index of a node in its [`Arena`].
pub type NodeId = u32;

/// The JSON types a schema can name, as bits.
pub mod types {
    /// `null` (only ever named by hand-written OpenAPI documents).
    pub const NULL: u8 = 1;
    /// `boolean`.
    pub const BOOLEAN: u8 = 2;
    /// `integer`.
    pub const INTEGER: u8 = 4;
    /// `number`.
    pub const NUMBER: u8 = 8;
    /// `string`.
    pub const STRING: u8 = 16;
    /// `array`.
    pub const ARRAY: u8 = 32;
    /// `object`.
    pub const OBJECT: u8 = 64;

    /// The bit of a type name (0 for names kube-openapi does not know, which never match).
    pub fn bit(name: &str) -> u8 {
        match name {
            "null" => NULL,
            "boolean" => BOOLEAN,
            "integer" => INTEGER,
            "number" => NUMBER,
            "string" => STRING,
            "array" => ARRAY,
            "object" => OBJECT,
            _ => 0,
        }
    }
}

/// A format kept on a node (after the API server's format post-processing), as written and
/// as recognised.
#[derive(Debug, Clone)]
pub struct Format {
    /// The format as the schema writes it (messages print this).
    pub text: Box<str>,
    /// What the format registry knows it as.
    pub kind: FormatKind,
}

/// The formats of kube-openapi's `strfmt.Default` registry, plus the numeric formats the
/// number validator range-checks. Names are looked up with `-` removed, as the registry
/// normalises them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatKind {
    /// `bsonobjectid`.
    BsonObjectId,
    /// `uri`.
    Uri,
    /// `email`.
    Email,
    /// `hostname`.
    Hostname,
    /// `ipv4`.
    Ipv4,
    /// `ipv6`.
    Ipv6,
    /// `cidr`.
    Cidr,
    /// `mac`.
    Mac,
    /// `uuid`.
    Uuid,
    /// `uuid3`.
    Uuid3,
    /// `uuid4`.
    Uuid4,
    /// `uuid5`.
    Uuid5,
    /// `isbn`.
    Isbn,
    /// `isbn10`.
    Isbn10,
    /// `isbn13`.
    Isbn13,
    /// `creditcard`.
    CreditCard,
    /// `ssn`.
    Ssn,
    /// `hexcolor`.
    HexColor,
    /// `rgbcolor`.
    RgbColor,
    /// `byte`.
    Byte,
    /// `password`.
    Password,
    /// `date`.
    Date,
    /// `duration`.
    Duration,
    /// `datetime` / `date-time`.
    DateTime,
    /// `k8s-short-name` (Kubernetes ≥ 1.34).
    K8sShortName,
    /// `k8s-long-name` (Kubernetes ≥ 1.34).
    K8sLongName,
    /// A format the string registry does not know (`int32`, `int64`, `float`, `double` and
    /// anything else): it takes part in the type check, and the numeric ones in the number
    /// validator's range check, but no format validator runs.
    Other,
}

impl FormatKind {
    /// The registry entry of a format name (`-` removed first), or [`FormatKind::Other`].
    pub fn of(name: &str) -> FormatKind {
        let normalized: String = name.chars().filter(|&c| c != '-').collect();
        match normalized.as_str() {
            "bsonobjectid" => FormatKind::BsonObjectId,
            "uri" => FormatKind::Uri,
            "email" => FormatKind::Email,
            "hostname" => FormatKind::Hostname,
            "ipv4" => FormatKind::Ipv4,
            "ipv6" => FormatKind::Ipv6,
            "cidr" => FormatKind::Cidr,
            "mac" => FormatKind::Mac,
            "uuid" => FormatKind::Uuid,
            "uuid3" => FormatKind::Uuid3,
            "uuid4" => FormatKind::Uuid4,
            "uuid5" => FormatKind::Uuid5,
            "isbn" => FormatKind::Isbn,
            "isbn10" => FormatKind::Isbn10,
            "isbn13" => FormatKind::Isbn13,
            "creditcard" => FormatKind::CreditCard,
            "ssn" => FormatKind::Ssn,
            "hexcolor" => FormatKind::HexColor,
            "rgbcolor" => FormatKind::RgbColor,
            "byte" => FormatKind::Byte,
            "password" => FormatKind::Password,
            "date" => FormatKind::Date,
            "duration" => FormatKind::Duration,
            "datetime" => FormatKind::DateTime,
            "k8sshortname" => FormatKind::K8sShortName,
            "k8slongname" => FormatKind::K8sLongName,
            _ => FormatKind::Other,
        }
    }
}

/// A compiled `pattern`.
#[derive(Debug, Clone)]
pub struct Pattern {
    /// The pattern as written (messages print it).
    pub text: Box<str>,
    /// The translated regex, or Go's compile error (`error parsing regexp: ...`).
    pub regex: Result<Regex, String>,
}

/// The value validations of a node (boxed: most nodes have none).
#[derive(Debug, Default, Clone)]
pub struct Validations {
    /// `enum`.
    pub enumeration: Option<Box<[Value]>>,
    /// `pattern`.
    pub pattern: Option<Pattern>,
    /// `maximum`.
    pub maximum: Option<f64>,
    /// `exclusiveMaximum`.
    pub exclusive_maximum: bool,
    /// `minimum`.
    pub minimum: Option<f64>,
    /// `exclusiveMinimum`.
    pub exclusive_minimum: bool,
    /// `multipleOf`.
    pub multiple_of: Option<f64>,
    /// `maxLength`.
    pub max_length: Option<i64>,
    /// `minLength`.
    pub min_length: Option<i64>,
    /// `maxItems`.
    pub max_items: Option<i64>,
    /// `minItems`.
    pub min_items: Option<i64>,
    /// `uniqueItems`.
    pub unique_items: bool,
    /// `maxProperties`.
    pub max_properties: Option<i64>,
    /// `minProperties`.
    pub min_properties: Option<i64>,
    /// `required`, in the schema's order.
    pub required: Box<[Box<str>]>,
    /// `allOf`.
    pub all_of: Box<[NodeId]>,
    /// `anyOf`.
    pub any_of: Box<[NodeId]>,
    /// `oneOf`.
    pub one_of: Box<[NodeId]>,
    /// `not`.
    pub not: Option<NodeId>,
}

impl Validations {
    /// Whether nothing is set (the node then carries no box).
    pub fn is_empty(&self) -> bool {
        self.enumeration.is_none()
            && self.pattern.is_none()
            && self.maximum.is_none()
            && self.minimum.is_none()
            && self.multiple_of.is_none()
            && self.max_length.is_none()
            && self.min_length.is_none()
            && self.max_items.is_none()
            && self.min_items.is_none()
            && !self.unique_items
            && self.max_properties.is_none()
            && self.min_properties.is_none()
            && self.required.is_empty()
            && self.all_of.is_empty()
            && self.any_of.is_empty()
            && self.one_of.is_empty()
            && self.not.is_none()
    }
}

/// `additionalProperties`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Additional {
    /// Not set.
    None,
    /// `true` or `false`.
    Bool(bool),
    /// A schema.
    Schema(NodeId),
}

/// `x-kubernetes-list-type`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListType {
    /// `atomic`.
    Atomic,
    /// `set`.
    Set,
    /// `map`.
    Map,
    /// Anything else (rejected at CRD write time; ignored here as upstream ignores it).
    Other(Box<str>),
}

/// `x-kubernetes-map-type`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MapType {
    /// `atomic`.
    Atomic,
    /// `granular`.
    Granular,
    /// Anything else.
    Other(Box<str>),
}

/// The `x-kubernetes-*` extensions of a node.
#[derive(Debug, Clone, Default)]
pub struct Extensions {
    /// `x-kubernetes-preserve-unknown-fields: true`.
    pub preserve_unknown_fields: bool,
    /// `x-kubernetes-embedded-resource: true`.
    pub embedded_resource: bool,
    /// `x-kubernetes-int-or-string: true`.
    pub int_or_string: bool,
    /// `x-kubernetes-list-type`.
    pub list_type: Option<ListType>,
    /// `x-kubernetes-list-map-keys`.
    pub list_map_keys: Box<[Box<str>]>,
    /// `x-kubernetes-map-type`.
    pub map_type: Option<MapType>,
}

/// One schema node.
#[derive(Debug)]
pub struct Node {
    /// The declared types, in order (kube-openapi's `Type` list; messages join them with
    /// `,`). Empty: no type.
    pub types: Box<[Box<str>]>,
    /// The bits of `types` (`types::*`).
    pub type_bits: u8,
    /// `nullable`.
    pub nullable: bool,
    /// The retained `format`.
    pub format: Option<Format>,
    /// Value validations and junctors.
    pub validations: Option<Box<Validations>>,
    /// `properties`, sorted by name (see the crate docs for why the order is by name).
    pub properties: Box<[(Box<str>, NodeId)]>,
    /// `additionalProperties`.
    pub additional: Additional,
    /// `items` (a single schema; the first of a tuple list).
    pub items: Option<NodeId>,
    /// `default`.
    pub default: Option<Box<Value>>,
    /// The `x-kubernetes-*` extensions.
    pub extensions: Extensions,
    /// `x-kubernetes-validations`, kept as written for the CEL rules (not evaluated here).
    pub x_validations: Option<Box<Value>>,
}

impl Node {
    /// A node with nothing set.
    pub fn empty() -> Node {
        Node {
            types: Box::new([]),
            type_bits: 0,
            nullable: false,
            format: None,
            validations: None,
            properties: Box::new([]),
            additional: Additional::None,
            items: None,
            default: None,
            extensions: Extensions::default(),
            x_validations: None,
        }
    }

    /// The schema of property `name`, by binary search over the sorted properties.
    #[inline]
    pub fn property(&self, name: &str) -> Option<NodeId> {
        self.properties
            .binary_search_by(|(k, _)| k.as_ref().cmp(name))
            .ok()
            .map(|i| self.properties[i].1)
    }

    /// The declared types joined with `,` (kube-openapi's messages).
    pub fn type_text(&self) -> String {
        self.types.join(",")
    }
}

/// The nodes of one loaded source (a CRD version, or one OpenAPI document).
#[derive(Debug, Default)]
pub struct Arena {
    nodes: Vec<Node>,
}

impl Arena {
    /// An empty arena.
    pub fn new() -> Arena {
        Arena { nodes: Vec::new() }
    }

    /// Adds a node and returns its id.
    pub fn push(&mut self, node: Node) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(node);
        id
    }

    /// The node `id`. Ids are only ever made by [`Arena::push`] on this arena.
    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// The node `id`, mutably.
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id as usize]
    }

    /// How many nodes there are.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether there are no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}
