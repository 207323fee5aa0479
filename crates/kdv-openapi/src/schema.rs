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
    /// The pattern as one literal text, matched by substring search (linear time).
    pub literal: Option<kdv_cel::library::regex::LiteralPattern>,
}

/// Most `pattern length × value length` matched by the regex engine for one value: its
/// worst case is proportional to that product (a 50,000-byte literal-heavy pattern against
/// a 50,000-byte value takes 21 s; Go takes a minute for 100,000 against 200,000), so this
/// bounds one value's matching to seconds. Beyond it the value is reported as not matching,
/// saying why; literal patterns are exempt (substring search, linear). The budget of
/// `+k8s:pattern` too, so a tag and the schema it emits agree.
pub const PATTERN_BUDGET: u64 = kdv_runtime::pattern::BUDGET;

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
    /// Not an extension: a built-in kind's list whose repeated keys the API server accepts
    /// (its validation only warns), so the built-in strategy does not check its list type's
    /// uniqueness (`Options::builtin_strategy`).
    pub duplicates_accepted: bool,
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
    /// Indices into `properties` of the properties that have a default, ascending (set by
    /// [`Arena::finish`]): the decoding view walks these, not every property.
    pub defaulted: Box<[u32]>,
    /// A hash index of `properties` for nodes with many (set by [`Arena::finish`]).
    index: Option<Box<[u32]>>,
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
            defaulted: Box::new([]),
            index: None,
        }
    }

    /// A copy of `self` (the lookup tables are rebuilt by [`Arena::finish`]).
    pub fn copy(&self) -> Node {
        Node {
            types: self.types.clone(),
            type_bits: self.type_bits,
            nullable: self.nullable,
            format: self.format.clone(),
            validations: self.validations.clone(),
            properties: self.properties.clone(),
            additional: self.additional,
            items: self.items,
            default: self.default.clone(),
            extensions: self.extensions.clone(),
            x_validations: self.x_validations.clone(),
            defaulted: Box::new([]),
            index: None,
        }
    }

    /// The schema of property `name`: a scan of a few properties, a hash lookup of many.
    #[inline]
    pub fn property(&self, name: &str) -> Option<NodeId> {
        match &self.index {
            None => self
                .properties
                .iter()
                .find(|(k, _)| eq_names(k, name))
                .map(|(_, id)| *id),
            Some(slots) => {
                let mask = slots.len() - 1;
                let mut i = (hash(name) as usize) & mask;
                loop {
                    let slot = slots[i];
                    if slot == EMPTY {
                        return None;
                    }
                    let (k, id) = &self.properties[slot as usize];
                    if eq_names(k, name) {
                        return Some(*id);
                    }
                    i = (i + 1) & mask;
                }
            }
        }
    }

    /// The declared types joined with `,` (kube-openapi's messages).
    pub fn type_text(&self) -> String {
        self.types.join(",")
    }
}

/// Orders two names as `str`'s `Ord` does, deciding on the first byte inline: most names
/// of a schema differ there, and the common prefix otherwise costs a `memcmp` call per
/// comparison in the hot merge walks.
#[inline]
pub fn cmp_names(a: &str, b: &str) -> std::cmp::Ordering {
    match (a.as_bytes().first(), b.as_bytes().first()) {
        (Some(x), Some(y)) if x != y => x.cmp(y),
        _ => a.cmp(b),
    }
}

/// Whether two names are equal, without a `memcmp` call for the short names schemas have.
#[inline]
pub fn eq_names(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    if a.len() > 32 {
        return a == b;
    }
    a.iter().zip(b).all(|(x, y)| x == y)
}

/// Nodes with more properties than this get a hash index.
const INDEXED: usize = 8;
const EMPTY: u32 = u32::MAX;

/// Eight bytes at a time (the last eight overlapping the chunk before), each mixed in by
/// one multiplication: names are short and come from the schema or the object, and every
/// byte counts, so a collision only costs a probe. The slot is taken from the high bits,
/// where the multiplications mix every input bit.
#[inline]
fn hash(name: &str) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let b = name.as_bytes();
    let mut h = (b.len() as u64).wrapping_mul(K);
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        h = (h ^ u64::from_le_bytes(c.try_into().unwrap_or_default())).wrapping_mul(K);
    }
    if !chunks.remainder().is_empty() {
        let last = match b.last_chunk::<8>() {
            Some(l) => u64::from_le_bytes(*l),
            None => {
                let mut small = [0u8; 8];
                small[..b.len()].copy_from_slice(b);
                u64::from_le_bytes(small)
            }
        };
        h = (h ^ last).wrapping_mul(K);
    }
    h.rotate_left(32)
}

/// The nodes of one loaded source (a CRD version, or one OpenAPI document).
#[derive(Debug, Default)]
pub struct Arena {
    nodes: Vec<Node>,
    /// The CEL value schemas of the nodes, made on first use (`cel::to_value`).
    cel_values: std::sync::OnceLock<crate::cel::ValueSchemaCells>,
}

impl Arena {
    /// An empty arena.
    pub fn new() -> Arena {
        Arena {
            nodes: Vec::new(),
            cel_values: std::sync::OnceLock::new(),
        }
    }

    /// Adds a node and returns its id.
    pub fn push(&mut self, node: Node) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(node);
        self.cel_values = std::sync::OnceLock::new();
        id
    }

    /// The node `id`. Ids are only ever made by [`Arena::push`] on this arena.
    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// The node `id`, mutably.
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        self.cel_values = std::sync::OnceLock::new();
        &mut self.nodes[id as usize]
    }

    /// Builds the lookup tables of every node (defaulted properties, property index), once
    /// the nodes and their defaults are final.
    pub fn finish(&mut self) {
        for i in 0..self.nodes.len() {
            let defaulted: Box<[u32]> = self.nodes[i]
                .properties
                .iter()
                .enumerate()
                .filter(|(_, (_, id))| self.nodes[*id as usize].default.is_some())
                .map(|(j, _)| j as u32)
                .collect();
            let node = &mut self.nodes[i];
            node.defaulted = defaulted;
            node.index = (node.properties.len() > INDEXED).then(|| {
                let size = (node.properties.len() * 2).next_power_of_two();
                let mut slots = vec![EMPTY; size].into_boxed_slice();
                for (j, (k, _)) in node.properties.iter().enumerate() {
                    let mut at = (hash(k) as usize) & (size - 1);
                    while slots[at] != EMPTY {
                        at = (at + 1) & (size - 1);
                    }
                    slots[at] = j as u32;
                }
                slots
            });
        }
    }

    /// The CEL value schema cells of the nodes (one per node, empty until used).
    pub(crate) fn cel_values(&self) -> &crate::cel::ValueSchemaCells {
        self.cel_values
            .get_or_init(|| crate::cel::value_schema_cells(self.nodes.len()))
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
