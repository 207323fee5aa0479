//! The runtime values of custom resources for CEL rules (apiserver `UnstructuredToVal`): a
//! schema node's JSON data as a [`kdv_cel::value::Value`], borrowed.
//!
//! Each schema node is described once, on first use, by a [`JsonSchema`] kept in the arena:
//! a subtree whose data reads the same as plain JSON (no `byte`/`date`/`date-time`/`duration`
//! formats, no `type: number`, no set or map lists, no nullable or escaped property names) is
//! [`Shape::Plain`], and its values are [`Value::from_json`] views with no conversion at all;
//! the rest are typed views of the JSON ([`kdv_cel::value::typed`]) converting what is reached.
//!
//! Two differences from upstream on data the API server never gives CEL: a type mismatch
//! under a plain subtree (a string in an `integer` field) is read as it is rather than as an
//! error value (schema validation reports it first, and a type error blocks CEL), and a
//! non-nullable `null` property reads as `null` in a plain object (the API server drops such
//! nulls before CEL runs, as the effective view does). For data nothing validated
//! (`testing::validate_rules`), `to_value_checked` reads through schemas without plain
//! subtrees: every node checks its JSON kind, as upstream does.

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use kdv_cel::value::typed::{JsonKind, JsonSchema, ListKind, Shape, TypedList, TypedMap, escape};
use kdv_cel::value::{Duration, EvalError, Timestamp, Value};

use crate::schema::{Additional, Arena, ListType, NodeId};

/// The value of `json`, the data of schema node `node`, as CEL rules see it.
/// `resource_root`: the node is the root of a custom resource (its `apiVersion`, `kind` and
/// `metadata.name`/`generateName` are the declared fields of `metadata`, as for embedded
/// resources, which the schema marks itself).
///
/// The error is the error value upstream's conversion gives for the node itself (a malformed
/// `duration` string under a rule on that string, `null` for a non-nullable schema): every
/// rule touching `self` fails with it. Errors of nested values surface only where an
/// expression reaches them.
///
/// ```
/// use kdv_openapi::Resource;
/// use kdv_openapi::cel::{RuleTypes, schema_decl_type, to_value};
/// use kdv_cel::interp::{EvalConfig, Program, ProgramOptions, Vars};
/// use kdv_cel::value::Value;
///
/// let schema = serde_json::json!({
///     "type": "object",
///     "properties": {"spec": {"type": "object", "properties": {
///         "max-surge": {"type": "integer"},
///         "timeout": {"type": "string", "format": "duration"},
///     }}},
/// });
/// let widget = Resource::from_crd_schema("example.com", "v1", "Widget", &schema, 35).unwrap();
/// let (arena, root) = widget.schema();
/// let types = RuleTypes::new(schema_decl_type(arena, root, true).unwrap(), "selfType0");
/// let env = types.env(&kdv_cel::k8s::env(), false);
/// let rule = "self.spec.max__dash__surge < 3 && self.spec.timeout < duration('1m')";
/// let program = Program::compile(&env, rule, &ProgramOptions::kubernetes()).unwrap();
///
/// let doc = serde_json::json!({"spec": {"max-surge": 2, "timeout": "30s"}});
/// let value = to_value(arena, root, true, &doc).unwrap();
/// let (result, _) = program.eval(&Vars::new().with("self", value), &EvalConfig::default()).unwrap();
/// assert!(matches!(result, Value::Bool(true)));
/// ```
pub fn to_value<'a>(
    arena: &'a Arena,
    node: NodeId,
    resource_root: bool,
    json: &'a serde_json::Value,
) -> Result<Value<'a>, EvalError> {
    value_schema(arena, node, resource_root).value(json)
}

/// The [`JsonSchema`] of schema node `node` (computed once per arena and node).
pub fn value_schema(arena: &Arena, node: NodeId, resource_root: bool) -> &JsonSchema {
    schema_of(arena, node, resource_root, false)
}

/// [`to_value`] for data nothing validated before (upstream's tests give the validator any
/// value): every node checks the JSON kind its schema's `type` says, as `UnstructuredToVal`
/// does (`invalid data, expected an array for the provided schema with type=array`, ...),
/// where [`to_value`] reads subtrees that need no conversion as plain JSON.
pub(crate) fn to_value_checked<'a>(
    arena: &'a Arena,
    node: NodeId,
    resource_root: bool,
    json: &'a serde_json::Value,
) -> Result<Value<'a>, EvalError> {
    schema_of(arena, node, resource_root, true).value(json)
}

/// The cached schema of `node`: `strict` for [`to_value_checked`].
fn schema_of(arena: &Arena, node: NodeId, resource_root: bool, strict: bool) -> &JsonSchema {
    let cells = arena.cel_values();
    let Some(cell) = cells.get(node as usize) else {
        return &JsonSchema::PLAIN;
    };
    let root = resource_root && !arena.node(node).extensions.embedded_resource;
    let mode = Mode { strict };
    cell[mode.slot(root)].get_or_init(|| build(arena, node, root, mode, &mut Vec::new()))
}

/// Per node: its value schemas (plain-where-possible and checked, each also as a resource
/// root), indexed by [`Mode::slot`].
pub(crate) type ValueSchemaCells = Box<[[OnceLock<Arc<JsonSchema>>; 4]]>;

/// The empty cells for an arena of `n` nodes.
pub(crate) fn cells(n: usize) -> ValueSchemaCells {
    (0..n).map(|_| Default::default()).collect()
}

/// How value schemas are built.
#[derive(Clone, Copy)]
struct Mode {
    /// Every node checks its JSON kind (no plain subtrees but schemaless ones).
    strict: bool,
}

impl Mode {
    fn slot(self, resource_root: bool) -> usize {
        usize::from(self.strict) * 2 + usize::from(resource_root)
    }
}

fn plain() -> Arc<JsonSchema> {
    Arc::new(JsonSchema::PLAIN)
}

/// The cached schema of a child node (`stack`: the nodes being built, to cut `$ref` cycles,
/// which CRD schemas never have).
fn child(arena: &Arena, node: NodeId, mode: Mode, stack: &mut Vec<NodeId>) -> Arc<JsonSchema> {
    if stack.contains(&node) {
        return plain();
    }
    let cells = arena.cel_values();
    match cells.get(node as usize) {
        Some(cell) => {
            let cell = &cell[mode.slot(false)];
            if let Some(s) = cell.get() {
                return s.clone();
            }
            let s = build(arena, node, false, mode, stack);
            cell.get_or_init(|| s).clone()
        }
        None => plain(),
    }
}

fn build(
    arena: &Arena,
    id: NodeId,
    resource_root: bool,
    mode: Mode,
    stack: &mut Vec<NodeId>,
) -> Arc<JsonSchema> {
    stack.push(id);
    let shape = shape(arena, id, resource_root, mode, stack);
    stack.pop();
    Arc::new(JsonSchema {
        nullable: arena.node(id).nullable,
        shape,
    })
}

fn shape(
    arena: &Arena,
    id: NodeId,
    resource_root: bool,
    mode: Mode,
    stack: &mut Vec<NodeId>,
) -> Shape {
    let node = arena.node(id);
    // In strict mode, what plain mode reads as it is checks its kind.
    let read = |kind: JsonKind| {
        if mode.strict {
            Shape::Checked(kind)
        } else {
            Shape::Plain
        }
    };
    if node.extensions.int_or_string {
        return read(JsonKind::IntOrString);
    }
    match node.types.first().map(|t| &**t) {
        Some("object") => {
            let embedded = node.extensions.embedded_resource || resource_root;
            if embedded || !node.properties.is_empty() {
                let mut props: Vec<(Box<str>, Arc<JsonSchema>)> = node
                    .properties
                    .iter()
                    .map(|(name, p)| (name.clone(), child(arena, *p, mode, stack)))
                    .collect();
                if embedded && !declares_type_and_object_meta(arena, id) {
                    // `WithTypeAndObjectMeta`: string `kind` and `apiVersion`, and `metadata`
                    // with only `name` and `generateName` (strings): plain data.
                    props.retain(|(n, _)| !matches!(&**n, "kind" | "apiVersion" | "metadata"));
                    for n in ["kind", "apiVersion", "metadata"] {
                        props.push((n.into(), plain()));
                    }
                    props.sort_by(|a, b| a.0.cmp(&b.0));
                }
                let typed = mode.strict
                    || props.iter().any(|(name, s)| {
                        !s.is_plain() || s.nullable || matches!(escape(name), Some(Cow::Owned(_)))
                    });
                if typed {
                    return Shape::Map(TypedMap::Object(props.into_boxed_slice()));
                }
                return Shape::Plain;
            }
            if let Additional::Schema(a) = node.additional {
                let value = child(arena, a, mode, stack);
                if !value.is_plain() {
                    return Shape::Map(TypedMap::Map(value));
                }
            }
            read(JsonKind::Object)
        }
        Some("array") => {
            let Some(items) = node.items else {
                return read(JsonKind::Array);
            };
            let items = child(arena, items, mode, stack);
            let kind = match &node.extensions.list_type {
                Some(ListType::Set) => ListKind::Set,
                Some(ListType::Map) => ListKind::Map(
                    node.extensions
                        .list_map_keys
                        .iter()
                        .map(|k| escape(k).map_or_else(|| k.clone(), |e| e.into()))
                        .collect(),
                ),
                _ => ListKind::Atomic,
            };
            if kind == ListKind::Atomic && items.is_plain() && !mode.strict {
                return Shape::Plain;
            }
            Shape::List(TypedList { items, kind })
        }
        Some("string") => match node.format.as_ref().map(|f| &*f.text) {
            Some("byte") => Shape::Format(bytes_value),
            Some("duration") => Shape::Format(duration_value),
            Some("date") => Shape::Format(date_value),
            Some("date-time") => Shape::Format(date_time_value),
            _ => read(JsonKind::String),
        },
        Some("number") => Shape::Number,
        Some("integer") => read(JsonKind::Integer),
        Some("boolean") => read(JsonKind::Boolean),
        _ => Shape::Plain,
    }
}

/// Whether an embedded resource's schema already has what `WithTypeAndObjectMeta` adds
/// (then it is used unchanged).
fn declares_type_and_object_meta(arena: &Arena, id: NodeId) -> bool {
    let node = arena.node(id);
    let is = |id: Option<NodeId>, ty: &str| {
        id.is_some_and(|p| arena.node(p).types.first().is_some_and(|t| &**t == ty))
    };
    let meta = node.property("metadata");
    is(node.property("kind"), "string")
        && is(node.property("apiVersion"), "string")
        && is(meta, "object")
        && meta.is_some_and(|m| {
            let m = arena.node(m);
            is(m.property("name"), "string") && is(m.property("generateName"), "string")
        })
}

// ---- formats (kube-openapi strfmt, as `UnstructuredToVal` converts them) ----------------

/// `format: byte`: strfmt's `Base64.UnmarshalText`, which decodes with the **URL-safe**
/// alphabet (padded), while the format check uses the standard one.
fn bytes_value(s: &str) -> Result<Value<'static>, EvalError> {
    url_base64_decode(s.as_bytes())
        .map(Value::bytes)
        .map_err(|at| {
            EvalError::new(format!(
                "Invalid byte formatted string {s}: illegal base64 data at input byte {at}"
            ))
        })
}

/// Go's `base64.URLEncoding.Decode`: `\r` and `\n` are skipped; the error is the offset Go's
/// `CorruptInputError` reports.
fn url_base64_decode(src: &[u8]) -> Result<Vec<u8>, usize> {
    fn sextet(b: u8) -> Option<u32> {
        Some(match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'-' => 62,
            b'_' => 63,
            _ => return None,
        } as u32)
    }
    let mut out = Vec::with_capacity(src.len() / 4 * 3);
    let mut si = 0;
    loop {
        let mut quantum = [0u32; 4];
        let mut dlen = 4;
        let mut j = 0;
        while j < 4 {
            if si == src.len() {
                if j == 0 {
                    return Ok(out);
                }
                return Err(si - j);
            }
            let c = src[si];
            si += 1;
            if let Some(v) = sextet(c) {
                quantum[j] = v;
                j += 1;
                continue;
            }
            if c == b'\n' || c == b'\r' {
                continue;
            }
            if c != b'=' {
                return Err(si - 1);
            }
            // Padding.
            match j {
                0 | 1 => return Err(si - 1),
                2 => {
                    while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                        si += 1;
                    }
                    if si == src.len() {
                        return Err(src.len());
                    }
                    if src[si] != b'=' {
                        return Err(si - 1);
                    }
                    si += 1;
                }
                _ => {}
            }
            while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                si += 1;
            }
            if si < src.len() {
                return Err(si);
            }
            dlen = j;
            break;
        }
        let v = quantum[0] << 18 | quantum[1] << 12 | quantum[2] << 6 | quantum[3];
        let bytes = [(v >> 16) as u8, (v >> 8) as u8, v as u8];
        out.extend_from_slice(&bytes[..dlen - 1]);
        if dlen < 4 {
            return Ok(out);
        }
    }
}

/// `format: duration`: strfmt's `ParseDuration` (Go's `time.ParseDuration`, else its lenient
/// `<int><unit>` reading).
fn duration_value(s: &str) -> Result<Value<'static>, EvalError> {
    parse_duration(s)
        .map(|n| Value::Duration(Duration::from_nanos(n)))
        .map_err(|e| EvalError::new(format!("Invalid duration {s}: {e}")))
}

/// strfmt's `ParseDuration`, in nanoseconds.
pub(crate) fn parse_duration(s: &str) -> Result<i64, String> {
    if let Some(d) = Duration::parse(s) {
        return Ok(d.nanos());
    }
    const UNITS: [(&[&str], i64); 8] = [
        (&["ns", "nano"], 1),
        (&["us", "µs", "micro"], 1_000),
        (&["ms", "milli"], 1_000_000),
        (&["s", "sec"], 1_000_000_000),
        (&["m", "min"], 60_000_000_000),
        (&["h", "hr", "hour"], 3_600_000_000_000),
        (&["d", "day"], 86_400_000_000_000),
        (&["w", "wk", "week"], 604_800_000_000_000),
    ];
    let mut total: i64 = 0;
    let mut ok = false;
    for (digits, unit) in duration_matches(s) {
        let factor: i64 = digits
            .parse()
            .map_err(|_| format!("strconv.Atoi: parsing {digits:?}: value out of range"))?;
        let unit = unit.trim().to_lowercase();
        for (variants, multiplier) in UNITS {
            let last = variants.len() - 1;
            for (i, variant) in variants.iter().enumerate() {
                if (i == last && unit.starts_with(variant)) || unit.eq_ignore_ascii_case(variant) {
                    ok = true;
                    total = total.wrapping_add(factor.wrapping_mul(multiplier));
                }
            }
        }
    }
    if ok {
        Ok(total)
    } else {
        Err(format!("unable to parse {s} as duration"))
    }
}

/// The matches of `((\d+)\s*([A-Za-zµ]+))`, leftmost first: (digits, unit).
fn duration_matches(s: &str) -> Vec<(&str, &str)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    while start < b.len() {
        if !b[start].is_ascii_digit() {
            start += 1;
            continue;
        }
        let digits_end = start + b[start..].iter().take_while(|c| c.is_ascii_digit()).count();
        let mut i = digits_end;
        while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r' | b'\x0c') {
            i += 1;
        }
        let unit_len: usize = s[i..]
            .chars()
            .take_while(|c| c.is_ascii_alphabetic() || *c == 'µ')
            .map(char::len_utf8)
            .sum();
        if unit_len == 0 {
            start += 1;
            continue;
        }
        out.push((&s[start..digits_end], &s[i..i + unit_len]));
        start = i + unit_len;
    }
    out
}

/// `format: date`: Go's `time.Parse("2006-01-02", s)`, UTC midnight.
fn date_value(s: &str) -> Result<Value<'static>, EvalError> {
    parse_date(s).map(Value::Timestamp).ok_or_else(|| {
        EvalError::new(format!(
            "Invalid date formatted string {s}: parsing time {s:?} as \"2006-01-02\": cannot parse {s:?} as \"2006\""
        ))
    })
}

fn parse_date(s: &str) -> Option<Timestamp> {
    if !crate::strfmt::is_date(s) {
        return None;
    }
    let n = |r: std::ops::Range<usize>| s[r].parse::<u32>().ok();
    let days = kdv_cel::value::time::days_from_civil(i64::from(n(0..4)?), n(5..7)?, n(8..10)?);
    Timestamp::from_unix(days * 86_400, 0)
}

/// `format: date-time`: strfmt's `ParseDateTime` (RFC 3339 with or without fractional
/// seconds, or without a zone meaning UTC; the empty string is the Unix epoch).
fn date_time_value(s: &str) -> Result<Value<'static>, EvalError> {
    if s.is_empty() {
        return Ok(Value::Timestamp(Timestamp::default()));
    }
    Timestamp::parse_rfc3339(s)
        .or_else(|_| Timestamp::parse_rfc3339(&format!("{s}Z")))
        .map(Value::Timestamp)
        .map_err(|_| {
            EvalError::new(format!(
                "Invalid date-time formatted string {s}: parsing time {s:?} as \"2006-01-02T15:04:05\": cannot parse {s:?} as \"2006\""
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_base64_matches_go() {
        // Go: base64.URLEncoding.DecodeString.
        assert_eq!(url_base64_decode(b"").unwrap(), b"");
        assert_eq!(url_base64_decode(b"Zm9vYmFy").unwrap(), b"foobar");
        assert_eq!(url_base64_decode(b"Zm9vYg==").unwrap(), b"foob");
        assert_eq!(url_base64_decode(b"Zm9vYmE=").unwrap(), b"fooba");
        assert_eq!(url_base64_decode(b"Zm9v\nYmFy").unwrap(), b"foobar");
        assert_eq!(url_base64_decode(b"-_-_").unwrap(), [0xfb, 0xff, 0xbf]);
        assert_eq!(url_base64_decode(b"+/+/"), Err(0));
        assert_eq!(url_base64_decode(b"Zm9vY"), Err(4));
        assert_eq!(url_base64_decode(b"Zm9vYg="), Err(7));
        assert_eq!(url_base64_decode(b"Zm9vYg==x"), Err(8));
        assert_eq!(url_base64_decode(b"Zm9vY==="), Err(5));
        assert_eq!(url_base64_decode(b"Zm9v!"), Err(4));
    }

    #[test]
    fn lenient_durations() {
        assert_eq!(parse_duration("1h30m"), Ok(5_400_000_000_000));
        assert_eq!(parse_duration("3 days"), Ok(3 * 86_400_000_000_000));
        assert_eq!(parse_duration("1 week 2 days"), Ok(9 * 86_400_000_000_000));
        assert_eq!(parse_duration("10 sec"), Ok(10_000_000_000));
        assert_eq!(parse_duration("5 hours"), Ok(5 * 3_600_000_000_000));
        assert_eq!(
            parse_duration("soon"),
            Err("unable to parse soon as duration".to_string())
        );
        assert_eq!(
            parse_duration("99999999999999999999 s"),
            Err("strconv.Atoi: parsing \"99999999999999999999\": value out of range".to_string())
        );
    }

    #[test]
    fn dates_and_date_times() {
        let ts = |v: Value<'_>| match v {
            Value::Timestamp(t) => (t.secs(), t.subsec_nanos()),
            other => panic!("{other:?}"),
        };
        assert_eq!(ts(date_value("1970-01-02").unwrap()), (86_400, 0));
        assert!(date_value("1970-02-30").is_err());
        assert_eq!(ts(date_time_value("1970-01-01T00:00:01Z").unwrap()), (1, 0));
        assert_eq!(
            ts(date_time_value("1970-01-01T01:00:01.5+01:00").unwrap()),
            (1, 500_000_000)
        );
        assert_eq!(ts(date_time_value("1970-01-01T00:00:02").unwrap()), (2, 0));
        assert_eq!(ts(date_time_value("").unwrap()), (0, 0));
        assert_eq!(
            date_time_value("yesterday").unwrap_err().message,
            "Invalid date-time formatted string yesterday: parsing time \"yesterday\" as \"2006-01-02T15:04:05\": cannot parse \"yesterday\" as \"2006\""
        );
    }
}
