//! kube-openapi's value validator (`validate.SchemaValidator`, the fork of go-openapi/validate
//! that the API server runs on custom resources), over borrowed JSON values.
//!
//! Per node the validators run in upstream's order — type, junctors (`anyOf`, `oneOf`,
//! `allOf`, `not`), string (`maxLength`, `minLength`, `pattern`; first failure only),
//! format, number (range of the value, `multipleOf`, `minimum`, `maximum`), slice (`items`,
//! `minItems`, `maxItems`, `uniqueItems`), enum, object (`minProperties`, `maxProperties`,
//! `additionalProperties`, `properties`, `required`) — and all applicable ones run. A `null`
//! runs only the type and enum validators. Upstream's *match count* (which failing branch of
//! an `anyOf`/`oneOf` is reported) is reproduced exactly. Messages are built only for
//! failures; a valid value is checked without allocating.
//!
//! Upstream iterates Go maps, so it reports the errors of sibling properties in random
//! order; here properties are visited in name order (the order of serde_json's maps and of
//! Kubernetes' published documents), so output is deterministic.

use kdv_runtime::gofmt;
use kdv_runtime::{BadValue, FieldPath, Segment};
use serde_json::{Map, Number, Value};

use crate::effective::{self, Slot};
use crate::schema::{Additional, Arena, FormatKind, Node, NodeId, cmp_names, types};
use crate::strfmt;

/// The structural schema of the value being validated: it decides what pruning and
/// defaulting made of the value (see [`crate::effective`]). Junctor branches validate the
/// same value, so they share their node's structure.
#[derive(Clone, Copy, Debug)]
pub(crate) struct St {
    /// The structural node (`None`: a value kept without a schema).
    pub node: Option<NodeId>,
    /// Whether the value is a resource root or an embedded resource.
    pub resource: bool,
}

impl St {
    /// The structure of the value in `slot`.
    pub(crate) fn of_slot(arena: &Arena, slot: Slot) -> St {
        match slot {
            Slot::Prop(id) | Slot::Additional(id) => St {
                node: Some(id),
                resource: arena.node(id).extensions.embedded_resource,
            },
            Slot::Kept => St {
                node: None,
                resource: false,
            },
        }
    }
}

/// How deep junctors may nest without the value getting deeper (a `$ref` cycle through
/// `allOf` would otherwise recurse forever; Go would overflow its stack).
const MAX_SCHEMA_DEPTH: u32 = 256;

/// A position inside the validated value, as kube-openapi builds its path strings.
#[derive(Clone, Copy, Debug)]
pub(crate) enum OPath<'a> {
    /// The root (`""`).
    Root,
    /// A declared property: `parent.name`, or `name` at the root.
    Prop(&'a OPath<'a>, &'a str),
    /// An `additionalProperties` entry or a `required` key: `parent.key`, with the dot even
    /// at the root.
    Key(&'a OPath<'a>, &'a str),
    /// An item: `parent[i]`.
    Index(&'a OPath<'a>, usize),
}

impl OPath<'_> {
    fn segments(&self) -> Vec<(bool, Segment)> {
        // (joined with a dot even at the root, segment)
        let mut out = Vec::new();
        let mut cur = self;
        loop {
            match cur {
                OPath::Root => break,
                OPath::Prop(p, n) => {
                    out.push((false, Segment::Field((*n).to_owned().into())));
                    cur = p;
                }
                OPath::Key(p, n) => {
                    out.push((true, Segment::Field((*n).to_owned().into())));
                    cur = p;
                }
                OPath::Index(p, i) => {
                    out.push((false, Segment::Index(*i)));
                    cur = p;
                }
            }
        }
        out.reverse();
        out
    }

    /// kube-openapi's path string (the `Name` of its errors, and the text messages embed).
    pub(crate) fn name(&self) -> String {
        let mut s = String::new();
        for (i, (always_dot, seg)) in self.segments().into_iter().enumerate() {
            match seg {
                Segment::Field(n) => {
                    if i > 0 || always_dot {
                        s.push('.');
                    }
                    s.push_str(&n);
                }
                Segment::Index(n) => {
                    s.push('[');
                    s.push_str(&n.to_string());
                    s.push(']');
                }
                Segment::Key(n) => s.push_str(&n),
            }
        }
        s
    }

    /// The field path the API server reports (`kubeOpenAPIResultToFieldErrors`: one child
    /// named by the path string without its leading dot), kept as segments so callers can
    /// locate it; it renders exactly as upstream's single child does.
    pub(crate) fn field_path(&self) -> FieldPath {
        let name = self.name();
        let trimmed = name.strip_prefix('.').unwrap_or(&name);
        if trimmed.is_empty() {
            return FieldPath::root();
        }
        let segments: Vec<Segment> = self.segments().into_iter().map(|(_, s)| s).collect();
        let structured = FieldPath::from_segments(segments);
        if structured.to_string() == trimmed {
            structured
        } else {
            // Empty names render differently as segments (`[]`); keep upstream's text.
            FieldPath::new(trimmed)
        }
    }
}

/// kube-openapi's error codes that the API server converts differently.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Code {
    /// `InvalidTypeCode` (type and format failures) → `TypeInvalid`.
    InvalidType,
    /// `RequiredFailCode` → `Required`.
    Required,
    /// `TooLongFailCode` → `TooLong`.
    TooLong(i64),
    /// `MaxItemsFailCode` / `TooManyPropertiesCode` → `TooMany`.
    TooMany { actual: i64, max: i64 },
    /// `EnumFailCode` → `NotSupported`.
    Enum(Box<[Value]>),
    /// Any other `*errors.Validation` → `Invalid` with the value.
    Other,
    /// Not a `*errors.Validation` (composite and range-check errors) → `Invalid` at the
    /// root with the value `""`.
    Plain,
}

/// One kube-openapi error.
#[derive(Debug, Clone)]
pub(crate) struct OErr {
    pub code: Code,
    /// Where (for `Plain`: unused).
    pub field: FieldPath,
    /// The value the field error carries (`None`: Go's nil, which `Invalid` prints as `""`).
    pub value: Option<BadValue>,
    /// The error's text (`Error()`), also its identity for de-duplication.
    pub message: String,
    /// Where the error arose, when tracked ([`Errs::with_origins`]): the value path of the
    /// node whose validator reported it. Errors of a junctor branch (`allOf`, `anyOf`,
    /// `oneOf`, `not`) belong to the node holding the junctor, since upstream validates
    /// branches with plain validators that take no part in ratcheting.
    pub origin: Option<Vec<Segment>>,
}

/// Where failures go: built errors, or only their number (the yes/no form used for the
/// branches of `anyOf`/`oneOf`/`not`, whose errors are only needed for the one branch that
/// is reported). Both forms run the same code, so they cannot disagree.
pub(crate) struct Errs {
    list: Vec<OErr>,
    count: usize,
    build: bool,
    /// Whether errors record their origin (for ratcheting on UPDATE).
    origins: bool,
}

impl Errs {
    /// Collects errors.
    pub(crate) fn new() -> Errs {
        Errs {
            list: Vec::new(),
            count: 0,
            build: true,
            origins: false,
        }
    }

    /// Collects errors with their origin ([`OErr::origin`]).
    pub(crate) fn with_origins() -> Errs {
        Errs {
            origins: true,
            ..Errs::new()
        }
    }

    /// Counts failures without building them.
    fn verdict() -> Errs {
        Errs {
            list: Vec::new(),
            count: 0,
            build: false,
            origins: false,
        }
    }

    /// Marks the errors from `start` on as arisen at `path`: all of them (`all`, for a
    /// junctor's branches), or those no deeper node claimed.
    fn set_origins(&mut self, start: usize, path: &OPath<'_>, all: bool) {
        if self.list.len() <= start {
            return;
        }
        let origin: Vec<Segment> = path.segments().into_iter().map(|(_, s)| s).collect();
        for e in &mut self.list[start..] {
            if all || e.origin.is_none() {
                e.origin = Some(origin.clone());
            }
        }
    }

    /// Records a failure, building it only when errors are collected.
    #[inline]
    fn push(&mut self, f: impl FnOnce() -> OErr) {
        self.count += 1;
        if self.build {
            self.list.push(f());
        }
    }

    /// How many failures were recorded.
    #[inline]
    fn count(&self) -> usize {
        self.count
    }

    fn extend(&mut self, other: Errs) {
        // A branch's own list (`reported_branch`) records no origins: the junctor's node
        // claims them all.
        self.count += other.count;
        self.list.extend(other.list);
    }

    /// The collected errors.
    pub(crate) fn into_list(self) -> Vec<OErr> {
        self.list
    }
}

/// The data kinds kube-openapi distinguishes (Go's dynamic types after JSON decoding).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Null,
    Bool,
    String,
    Int,
    Float,
    Array,
    Object,
}

fn kind_of(v: &Value) -> Kind {
    match v {
        Value::Null => Kind::Null,
        Value::Bool(_) => Kind::Bool,
        Value::String(_) => Kind::String,
        Value::Number(n) => {
            if n.is_i64() {
                Kind::Int
            } else {
                // Go's decoder keeps integers that fit int64; larger ones become float64.
                Kind::Float
            }
        }
        Value::Array(_) => Kind::Array,
        Value::Object(_) => Kind::Object,
    }
}

/// A Go number: `int64` or `float64`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Num {
    Int(i64),
    Float(f64),
}

impl Num {
    fn of(n: &Number) -> Num {
        match n.as_i64() {
            Some(i) => Num::Int(i),
            None => Num::Float(n.as_f64().unwrap_or(f64::NAN)),
        }
    }
    fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
    fn bad_value(self) -> BadValue {
        match self {
            Num::Int(i) => BadValue::Int(i),
            Num::Float(f) => BadValue::Float(f),
        }
    }
    /// Go's `%v`.
    fn go_v(self) -> String {
        match self {
            Num::Int(i) => i.to_string(),
            Num::Float(f) => gofmt::format_float_v(f),
        }
    }
}

/// Runs kube-openapi's validator for one schema tree.
pub(crate) struct Validator<'s> {
    pub arena: &'s Arena,
}

impl<'s> Validator<'s> {
    /// Validates `data` against `node`, appending failures to `errs`; returns upstream's
    /// match count.
    pub(crate) fn schema(
        &self,
        id: NodeId,
        data: &Value,
        st: St,
        path: &OPath<'_>,
        depth: u32,
        errs: &mut Errs,
    ) -> u64 {
        if !errs.origins {
            return self.schema_at(id, data, st, path, depth, errs);
        }
        let start = errs.list.len();
        let mc = self.schema_at(id, data, st, path, depth, errs);
        errs.set_origins(start, path, false);
        mc
    }

    fn schema_at(
        &self,
        id: NodeId,
        data: &Value,
        st: St,
        path: &OPath<'_>,
        depth: u32,
        errs: &mut Errs,
    ) -> u64 {
        if depth > MAX_SCHEMA_DEPTH {
            errs.push(|| OErr {
                code: Code::Plain,
                field: FieldPath::root(),
                value: None,
                message: format!(
                    "{} in body: schema nests deeper than {MAX_SCHEMA_DEPTH} levels",
                    path.name()
                ),
                origin: None,
            });
            return 0;
        }
        let node = self.arena.node(id);
        let kind = kind_of(data);
        if kind == Kind::Null {
            // Only the type and enum validators, the type one without its `Applies`.
            let mc = self.type_check(node, data, kind, path, errs);
            self.enum_check(node, data, path, errs);
            return mc;
        }
        let mut mc = 0;
        if !node.types.is_empty() || node.format.is_some() {
            mc += self.type_check(node, data, kind, path, errs) + 1;
        }
        let junctors_start = errs.list.len();
        mc += self.junctors(node, data, st, path, depth, errs) + 1;
        if errs.origins {
            errs.set_origins(junctors_start, path, true);
        }
        if let Value::String(s) = data {
            self.string_check(node, s, path, errs);
            mc += 1;
            if let Some(f) = &node.format
                && f.kind != FormatKind::Other
            {
                if !strfmt::validates(f.kind, s) {
                    errs.push(|| OErr {
                        code: Code::InvalidType,
                        field: path.field_path(),
                        value: Some(BadValue::String(s.clone())),
                        message: type_message(path, &f.text, s),
                        origin: None,
                    });
                }
                mc += 1;
            }
        }
        if let Value::Number(n) = data {
            mc += self.number_check(node, Num::of(n), path, errs) + 1;
        }
        if let Value::Array(items) = data {
            mc += self.slice_check(node, items, st, path, depth, errs) + 1;
        }
        self.enum_check(node, data, path, errs);
        mc += 1;
        if let Value::Object(map) = data {
            mc += self.object_check(id, node, map, st, path, depth, errs) + 1;
        }
        mc + 1
    }

    fn type_check(
        &self,
        node: &Node,
        data: &Value,
        kind: Kind,
        path: &OPath<'_>,
        errs: &mut Errs,
    ) -> u64 {
        if kind == Kind::Null {
            if !node.types.is_empty() && node.type_bits & types::NULL == 0 && !node.nullable {
                errs.push(|| invalid_type(path, &node.type_text(), "null"));
                return 0;
            }
            return 1;
        }
        let (sch_type, data_format): (u8, &str) = match kind {
            Kind::Bool => (types::BOOLEAN, ""),
            Kind::String => (types::STRING, ""),
            Kind::Int => (types::INTEGER, "int64"),
            Kind::Float => (types::NUMBER, "float64"),
            Kind::Array => (types::ARRAY, ""),
            Kind::Object | Kind::Null => (types::OBJECT, ""),
        };
        let bits = node.type_bits;
        let format = node.format.as_ref().map_or("", |f| &f.text);
        let is_float_int = sch_type == types::NUMBER
            && bits & types::INTEGER != 0
            && data.as_f64().is_some_and(is_json_integer);
        let is_int_float = sch_type == types::INTEGER && bits & types::NUMBER != 0;
        let contains = bits & sch_type != 0;
        let string_or_slice = matches!(kind, Kind::String | Kind::Array);
        if !string_or_slice
            && !format.is_empty()
            && !(contains
                || data_format == format
                || is_float_int
                || is_int_float
                || (format == "int64" && data_format == "int32")
                || (format == "float64" && data_format == "float32"))
        {
            errs.push(|| invalid_type(path, format, data_format));
            return 0;
        }
        if bits & (types::NUMBER | types::INTEGER) == 0 && !format.is_empty() && string_or_slice {
            return 1;
        }
        if !(contains || is_float_int || is_int_float) {
            errs.push(|| invalid_type(path, &node.type_text(), type_name(sch_type)));
            return 0;
        }
        1
    }

    fn junctors(
        &self,
        node: &Node,
        data: &Value,
        st: St,
        path: &OPath<'_>,
        depth: u32,
        errs: &mut Errs,
    ) -> u64 {
        let Some(v) = &node.validations else {
            return 0;
        };
        let mut mc = 0;
        if !v.any_of.is_empty() {
            // Branches are first judged without building errors; the reported branch is
            // validated again to collect its errors.
            let mut best: Option<(NodeId, u64)> = None;
            let mut first_success = None;
            for &branch in v.any_of.iter() {
                let mut e = Errs::verdict();
                let m = self.schema(branch, data, st, path, depth + 1, &mut e);
                if e.count() == 0 {
                    best = None;
                    first_success = Some(m);
                    break;
                }
                if best.is_none_or(|(_, bm)| m > bm) {
                    best = Some((branch, m));
                }
            }
            if first_success.is_none() {
                errs.push(|| {
                    composite(format!(
                        "{} must validate at least one schema (anyOf)",
                        gofmt::quote(&path.name())
                    ))
                });
            }
            if let Some((branch, m)) = best {
                self.reported_branch(branch, data, st, path, depth, errs);
                mc += m;
            } else if let Some(m) = first_success {
                mc += m;
            }
        }
        if !v.one_of.is_empty() {
            let mut best: Option<(NodeId, u64)> = None;
            let mut first_success = None;
            let mut validated = 0usize;
            for &branch in v.one_of.iter() {
                let mut e = Errs::verdict();
                let m = self.schema(branch, data, st, path, depth + 1, &mut e);
                if e.count() == 0 {
                    validated += 1;
                    best = None;
                    if first_success.is_none() {
                        first_success = Some(m);
                    }
                    continue;
                }
                if validated == 0 && best.is_none_or(|(_, bm)| m > bm) {
                    best = Some((branch, m));
                }
            }
            if validated != 1 {
                errs.push(|| {
                    let additional = if validated == 0 {
                        "Found none valid".to_owned()
                    } else {
                        format!("Found {validated} valid alternatives")
                    };
                    composite(format!(
                        "{} must validate one and only one schema (oneOf). {additional}",
                        gofmt::quote(&path.name())
                    ))
                });
                if let Some((branch, m)) = best {
                    self.reported_branch(branch, data, st, path, depth, errs);
                    mc += m;
                }
            } else if let Some(m) = first_success {
                mc += m;
            }
        }
        if !v.all_of.is_empty() {
            let mut validated = 0usize;
            for &branch in v.all_of.iter() {
                let before = errs.count();
                mc += self.schema(branch, data, st, path, depth + 1, errs);
                if errs.count() == before {
                    validated += 1;
                }
            }
            if validated != v.all_of.len() {
                errs.push(|| {
                    let additional = if validated == 0 {
                        ". None validated"
                    } else {
                        ""
                    };
                    composite(format!(
                        "{} must validate all the schemas (allOf){additional}",
                        gofmt::quote(&path.name())
                    ))
                });
            }
        }
        if let Some(not) = v.not {
            let mut e = Errs::verdict();
            self.schema(not, data, st, path, depth + 1, &mut e);
            if e.count() == 0 {
                errs.push(|| {
                    composite(format!(
                        "{} must not validate the schema (not)",
                        gofmt::quote(&path.name())
                    ))
                });
            }
        }
        mc
    }

    /// The errors of the failing `anyOf`/`oneOf` branch that is reported (in the yes/no
    /// form, only that it failed).
    fn reported_branch(
        &self,
        branch: NodeId,
        data: &Value,
        st: St,
        path: &OPath<'_>,
        depth: u32,
        errs: &mut Errs,
    ) {
        let mut e = if errs.build {
            Errs::new()
        } else {
            Errs::verdict()
        };
        self.schema(branch, data, st, path, depth + 1, &mut e);
        errs.extend(e);
    }

    fn string_check(&self, node: &Node, s: &str, path: &OPath<'_>, errs: &mut Errs) {
        let Some(v) = &node.validations else {
            return;
        };
        if v.max_length.is_none() && v.min_length.is_none() && v.pattern.is_none() {
            return;
        }
        let value = || Some(BadValue::String(s.to_owned()));
        if let Some(max) = v.max_length
            && (s.chars().count() as i64) > max
        {
            errs.push(|| OErr {
                code: Code::TooLong(max),
                field: path.field_path(),
                value: value(),
                message: format!("{} in body should be at most {max} chars long", path.name()),
                origin: None,
            });
            return;
        }
        if let Some(min) = v.min_length
            && (s.chars().count() as i64) < min
        {
            errs.push(|| OErr {
                code: Code::Other,
                field: path.field_path(),
                value: value(),
                message: format!(
                    "{} in body should be at least {min} chars long",
                    path.name()
                ),
                origin: None,
            });
            return;
        }
        if let Some(p) = &v.pattern {
            let over_budget = p.literal.is_none()
                && (p.text.len() as u64).saturating_mul(s.len() as u64)
                    > crate::schema::PATTERN_BUDGET;
            let matched = match (&p.literal, &p.regex) {
                (Some(lit), _) => lit.is_match(s),
                (None, Ok(re)) => !over_budget && re.is_match(s),
                (None, Err(_)) => false,
            };
            if matched {
                return;
            }
            let shown = || match &p.regex {
                Ok(_) if over_budget => format!(
                    "{}{}",
                    p.text,
                    kdv_runtime::pattern::over_budget_note(p.text.len(), s.len())
                ),
                Ok(_) => p.text.to_string(),
                Err(e) => format!("{}, but pattern is invalid: {e}", p.text),
            };
            errs.push(|| OErr {
                code: Code::Other,
                field: path.field_path(),
                value: value(),
                message: format!("{} in body should match '{}'", path.name(), shown()),
                origin: None,
            });
        }
    }

    fn number_check(&self, node: &Node, n: Num, path: &OPath<'_>, errs: &mut Errs) -> u64 {
        let (type_name, format) = number_type(node);
        if !in_range(n, type_name, format) {
            errs.push(|| composite(range_message("Checked", type_name, format, path)));
        }
        let Some(v) = &node.validations else {
            return 1;
        };
        if let Some(factor) = v.multiple_of {
            if in_range(Num::Float(factor), type_name, format) {
                multiple_of_native(path, n, factor, errs);
            } else {
                errs.push(|| composite(range_message("MultipleOf", type_name, format, path)));
                multiple_of_float(path, n, factor, errs);
            }
        }
        // Upstream computes maximum before minimum but merges minimum's result first.
        if let Some(min) = v.minimum {
            let native = in_range(Num::Float(min), type_name, format);
            if !native {
                errs.push(|| composite(range_message("Minimum boundary", type_name, format, path)));
            }
            bound_check(path, n, min, v.exclusive_minimum, false, native, errs);
        }
        if let Some(max) = v.maximum {
            let native = in_range(Num::Float(max), type_name, format);
            if !native {
                errs.push(|| composite(range_message("Maximum boundary", type_name, format, path)));
            }
            bound_check(path, n, max, v.exclusive_maximum, true, native, errs);
        }
        1
    }

    fn slice_check(
        &self,
        node: &Node,
        items: &[Value],
        st: St,
        path: &OPath<'_>,
        depth: u32,
        errs: &mut Errs,
    ) -> u64 {
        let mut mc = 0;
        if let Some(item) = node.items {
            let structural_items = st.node.and_then(|s| self.arena.node(s).items);
            let child = St {
                node: structural_items,
                resource: structural_items
                    .is_some_and(|i| self.arena.node(i).extensions.embedded_resource),
            };
            for (i, v) in items.iter().enumerate() {
                let v = effective::item(self.arena, structural_items, v);
                let p = OPath::Index(path, i);
                mc += self.schema(item, v, child, &p, depth + 1, errs);
            }
        }
        if let Some(v) = &node.validations {
            let size = items.len() as i64;
            if let Some(min) = v.min_items
                && size < min
            {
                errs.push(|| OErr {
                    code: Code::Other,
                    field: path.field_path(),
                    value: Some(BadValue::Int(size)),
                    message: format!("{} in body should have at least {min} items", path.name()),
                    origin: None,
                });
            }
            if let Some(max) = v.max_items
                && size > max
            {
                errs.push(|| OErr {
                    code: Code::TooMany { actual: size, max },
                    field: path.field_path(),
                    value: Some(BadValue::Int(size)),
                    message: format!("{} in body should have at most {max} items", path.name()),
                    origin: None,
                });
            }
            if v.unique_items && has_duplicates(items) {
                errs.push(|| OErr {
                    code: Code::Other,
                    field: path.field_path(),
                    value: None,
                    message: format!("{} in body shouldn't contain duplicates", path.name()),
                    origin: None,
                });
            }
        }
        mc + 1
    }

    fn enum_check(&self, node: &Node, data: &Value, path: &OPath<'_>, errs: &mut Errs) {
        let Some(values) = node
            .validations
            .as_ref()
            .and_then(|v| v.enumeration.as_ref())
        else {
            return;
        };
        if values.is_empty() || values.iter().any(|m| enum_matches(data, m)) {
            return;
        }
        errs.push(|| OErr {
            code: Code::Enum(values.clone()),
            field: path.field_path(),
            value: Some(BadValue::unstructured(data)),
            message: format!(
                "{} in body should be one of {}",
                path.name(),
                go_v_list(values)
            ),
            origin: None,
        });
    }

    #[allow(clippy::too_many_arguments)]
    fn object_check(
        &self,
        id: NodeId,
        node: &Node,
        map: &Map<String, Value>,
        st: St,
        path: &OPath<'_>,
        depth: u32,
        errs: &mut Errs,
    ) -> u64 {
        let mut mc = 0;
        let structural = st.node.map(|s| self.arena.node(s));
        // The effective entries (pruned, defaulted) of this object, or its own entries when
        // it is kept without a schema.
        let entries = || effective::entries_of(self.arena, structural, map, st.resource);
        if let Some(v) = &node.validations
            && (v.min_properties.is_some() || v.max_properties.is_some())
        {
            let n = entries().count() as i64;
            if let Some(min) = v.min_properties
                && n < min
            {
                errs.push(|| OErr {
                    code: Code::Other,
                    field: path.field_path(),
                    value: Some(BadValue::Int(n)),
                    message: format!(
                        "{} in body should have at least {min} properties",
                        path.name()
                    ),
                    origin: None,
                });
            }
            if let Some(max) = v.max_properties
                && n > max
            {
                errs.push(|| OErr {
                    code: Code::TooMany { actual: n, max },
                    field: path.field_path(),
                    value: Some(BadValue::Int(n)),
                    message: format!(
                        "{} in body should have at most {max} properties",
                        path.name()
                    ),
                    origin: None,
                });
            }
        }
        match node.additional {
            Additional::Bool(false) => {
                for (k, _, _) in entries() {
                    if node.property(k).is_none() {
                        errs.push(|| OErr {
                            code: Code::Other,
                            field: path.field_path(),
                            value: Some(BadValue::String(k.to_owned())),
                            message: format!("{}.{k} in body is a forbidden property", path.name()),
                            origin: None,
                        });
                    }
                }
            }
            Additional::Schema(schema) => {
                for (k, v, slot) in entries() {
                    let declared = if st.node == Some(id) {
                        matches!(slot, Slot::Prop(_))
                    } else {
                        node.property(k).is_some()
                    };
                    if !declared {
                        let p = OPath::Key(path, k);
                        let child = St::of_slot(self.arena, slot);
                        mc += self.schema(schema, v, child, &p, depth + 1, errs);
                    }
                }
            }
            Additional::None | Additional::Bool(true) => {}
        }
        if st.node == Some(id) {
            // The node is the value's structural node (not a junctor branch): the entries
            // already name their property.
            for (k, v, slot) in entries() {
                if let Slot::Prop(schema) = slot {
                    let p = OPath::Prop(path, k);
                    let child = St::of_slot(self.arena, slot);
                    mc += self.schema(schema, v, child, &p, depth + 1, errs);
                }
            }
        } else if !node.properties.is_empty() {
            // Both sides are sorted by name: one merge pass instead of a lookup per key.
            let mut props = node.properties.iter().peekable();
            for (k, v, slot) in entries() {
                while props
                    .next_if(|(name, _)| cmp_names(name, k) == std::cmp::Ordering::Less)
                    .is_some()
                {}
                if let Some((name, schema)) = props.peek()
                    && name.as_ref() == k
                {
                    let p = OPath::Prop(path, k);
                    let child = St::of_slot(self.arena, slot);
                    mc += self.schema(*schema, v, child, &p, depth + 1, errs);
                    props.next();
                }
            }
        }
        if let Some(v) = &node.validations {
            for k in v.required.iter() {
                let present = match structural {
                    Some(s) => effective::has_key(self.arena, s, map, k, st.resource),
                    None => map.contains_key(k.as_ref()),
                };
                if !present {
                    let p = OPath::Key(path, k);
                    errs.push(|| OErr {
                        code: Code::Required,
                        field: p.field_path(),
                        value: None,
                        message: format!("{} in body is required", p.name()),
                        origin: None,
                    });
                }
            }
        }
        mc
    }
}

fn type_name(bit: u8) -> &'static str {
    match bit {
        types::NULL => "null",
        types::BOOLEAN => "boolean",
        types::INTEGER => "integer",
        types::NUMBER => "number",
        types::STRING => "string",
        types::ARRAY => "array",
        _ => "object",
    }
}

/// `<path> in body must be of type <t>: "<value>"`.
fn type_message(path: &OPath<'_>, type_text: &str, value: &str) -> String {
    format!(
        "{} in body must be of type {type_text}: {}",
        path.name(),
        gofmt::quote(value)
    )
}

fn invalid_type(path: &OPath<'_>, type_text: &str, value: &str) -> OErr {
    OErr {
        code: Code::InvalidType,
        field: path.field_path(),
        value: Some(BadValue::String(value.to_owned())),
        message: type_message(path, type_text, value),
        origin: None,
    }
}

fn composite(message: String) -> OErr {
    OErr {
        code: Code::Plain,
        field: FieldPath::root(),
        value: None,
        message,
        origin: None,
    }
}

/// go-openapi swag's `IsFloat64AJSONInteger`.
pub(crate) fn is_json_integer(f: f64) -> bool {
    const MAX: f64 = 9007199254740991.0;
    const EPSILON: f64 = 1e-9;
    if f.is_nan() || f.is_infinite() || !(-MAX..=MAX).contains(&f) {
        return false;
    }
    let fa = f.abs();
    let g = go_f64_to_u64(f) as f64;
    let ga = g.abs();
    let diff = (f - g).abs();
    if f == g || f == (f as i64) as f64 || f == go_f64_to_u64(f) as f64 {
        return true;
    }
    if f == 0.0 || g == 0.0 || diff < f64::from_bits(1) {
        return diff < EPSILON * f64::from_bits(1);
    }
    diff / (fa + ga).min(f64::MAX) < EPSILON
}

/// Go's `uint64(f)` on amd64 for the values `is_json_integer` passes (|f| < 2^53): negative
/// values convert through int64 and wrap.
fn go_f64_to_u64(f: f64) -> u64 {
    if f < 0.0 { (f as i64) as u64 } else { f as u64 }
}

/// The number validator's type name and format: only a single declared `integer`/`number`
/// type counts, and only the numeric formats of that type.
fn number_type(node: &Node) -> (&'static str, &str) {
    let format = node.format.as_ref().map_or("", |f| &f.text);
    match &*node.types {
        [t] if t.as_ref() == "integer" => (
            "integer",
            if format == "int32" || format == "int64" {
                format
            } else {
                ""
            },
        ),
        [t] if t.as_ref() == "number" => (
            "number",
            if format == "float" || format == "double" {
                format
            } else {
                ""
            },
        ),
        _ => ("", ""),
    }
}

/// `IsValueValidAgainstRange`: the value (or bound) as Go renders it, parsed as the schema's
/// type and format.
fn in_range(n: Num, type_name: &str, format: &str) -> bool {
    match type_name {
        // Go renders the value (`strconv.FormatFloat(f, 'f', -1, 64)` for a float, which
        // writes no fraction for an integral value) and parses it with `strconv.ParseInt`:
        // the value must be integral and within the format's range.
        "integer" => match n {
            Num::Int(i) => format != "int32" || i32::try_from(i).is_ok(),
            Num::Float(f) if format == "int32" => {
                f.is_finite() && f.trunc() == f && (-2147483648.0..=2147483647.0).contains(&f)
            }
            // [-2^63, 2^63): 2^63 is the first float past int64's range.
            Num::Float(f) => {
                f.is_finite()
                    && f.trunc() == f
                    && (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&f)
            }
        },
        _ => match format {
            "float" => {
                let f = n.as_f64();
                // strconv.ParseFloat(s, 32) fails when the value overflows float32.
                !(f.is_finite() && (f as f32).is_infinite())
            }
            _ => true,
        },
    }
}

/// The message of a failed range check.
fn range_message(prefix: &str, type_name: &str, format: &str, path: &OPath<'_>) -> String {
    if format.is_empty() {
        format!(
            "{prefix} value must be of type {type_name} (default format) in {}",
            path.name()
        )
    } else {
        format!(
            "{prefix} value must be of type {type_name} with format {format} in {}",
            path.name()
        )
    }
}

fn multiple_of_native(path: &OPath<'_>, n: Num, factor: f64, errs: &mut Errs) {
    match n {
        Num::Int(data) => {
            let factor = go_f64_to_i64(factor);
            if factor <= 0 {
                errs.push(|| must_be_positive(path, Num::Int(factor)));
                return;
            }
            let mult = data.wrapping_div(factor);
            if mult.wrapping_mul(factor) != data {
                errs.push(|| not_multiple(path, Num::Int(factor), n));
            }
        }
        Num::Float(_) => multiple_of_float(path, n, factor, errs),
    }
}

fn multiple_of_float(path: &OPath<'_>, n: Num, factor: f64, errs: &mut Errs) {
    if factor <= 0.0 {
        errs.push(|| must_be_positive(path, Num::Float(factor)));
        return;
    }
    let data = n.as_f64();
    let mult = if factor < 1.0 {
        1.0 / factor * data
    } else {
        data / factor
    };
    if !is_json_integer(mult) {
        errs.push(|| not_multiple(path, Num::Float(factor), n));
    }
}

fn must_be_positive(path: &OPath<'_>, factor: Num) -> OErr {
    OErr {
        code: Code::Other,
        field: path.field_path(),
        value: Some(factor.bad_value()),
        message: format!(
            "factor MultipleOf declared for {} must be positive: {}",
            path.name(),
            factor.go_v()
        ),
        origin: None,
    }
}

fn not_multiple(path: &OPath<'_>, factor: Num, data: Num) -> OErr {
    OErr {
        code: Code::Other,
        field: path.field_path(),
        value: Some(data.bad_value()),
        message: format!(
            "{} in body should be a multiple of {}",
            path.name(),
            factor.go_v()
        ),
        origin: None,
    }
}

/// Go's `int64(f)` conversion (truncation; out-of-range values give the minimum, as amd64's
/// `CVTTSD2SQ` does).
fn go_f64_to_i64(f: f64) -> i64 {
    if f.is_nan() || !(-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&f) {
        i64::MIN
    } else {
        f as i64
    }
}

/// `MaximumNativeType` / `MinimumNativeType` (or the float forms when the bound is out of
/// the type's range).
fn bound_check(
    path: &OPath<'_>,
    n: Num,
    bound: f64,
    exclusive: bool,
    is_max: bool,
    native: bool,
    errs: &mut Errs,
) {
    let (fails, shown) = match n {
        Num::Int(data) if native => {
            let b = go_f64_to_i64(bound);
            let fails = if is_max {
                if exclusive { data >= b } else { data > b }
            } else if exclusive {
                data <= b
            } else {
                data < b
            };
            (fails, Num::Int(b))
        }
        _ => {
            let data = n.as_f64();
            let fails = if is_max {
                if exclusive {
                    data >= bound
                } else {
                    data > bound
                }
            } else if exclusive {
                data <= bound
            } else {
                data < bound
            };
            (fails, Num::Float(bound))
        }
    };
    if !fails {
        return;
    }
    let relation = match (is_max, exclusive) {
        (true, false) => "less than or equal to",
        (true, true) => "less than",
        (false, false) => "greater than or equal to",
        (false, true) => "greater than",
    };
    errs.push(|| OErr {
        code: Code::Other,
        field: path.field_path(),
        value: Some(n.bad_value()),
        message: format!(
            "{} in body should be {relation} {}",
            path.name(),
            shown.go_v()
        ),
        origin: None,
    });
}

/// Go's `reflect.DeepEqual` on decoded JSON (`int64(1)` and `float64(1)` differ).
pub(crate) fn deep_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => Num::of(x) == Num::of(y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| deep_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, va), (kb, vb))| ka == kb && deep_equal(va, vb))
        }
        _ => a == b,
    }
}

fn has_duplicates(items: &[Value]) -> bool {
    for (i, a) in items.iter().enumerate() {
        if items[..i].iter().any(|b| deep_equal(a, b)) {
            return true;
        }
    }
    false
}

/// The enum validator's match: the data converted to the member's Go type
/// (`reflect.Value.Convert`) and deep-equal to it.
fn enum_matches(data: &Value, member: &Value) -> bool {
    match (data, member) {
        (Value::Null, _) | (_, Value::Null) => false,
        (Value::Number(d), Value::Number(m)) => match (Num::of(d), Num::of(m)) {
            (Num::Int(d), Num::Int(m)) => d == m,
            (Num::Float(d), Num::Int(m)) => go_f64_to_i64(d) == m,
            (d, Num::Float(m)) => d.as_f64() == m,
        },
        // Go converts an integer to a string as a rune.
        (Value::Number(d), Value::String(m)) => match Num::of(d) {
            Num::Int(i) => {
                let c = u32::try_from(i)
                    .ok()
                    .and_then(char::from_u32)
                    .unwrap_or('\u{FFFD}');
                let mut buf = [0u8; 4];
                m.as_str() == c.encode_utf8(&mut buf)
            }
            Num::Float(_) => false,
        },
        (Value::Array(_), Value::Array(_)) | (Value::Object(_), Value::Object(_)) => {
            deep_equal(data, member)
        }
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::String(a), Value::String(b)) => a == b,
        _ => false,
    }
}

/// Go's `%v` of a `[]interface{}` of decoded JSON (only the identity of enum messages
/// depends on it).
fn go_v_list(values: &[Value]) -> String {
    let mut s = String::from("[");
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        go_v(v, &mut s);
    }
    s.push(']');
    s
}

fn go_v(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("<nil>"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&Num::of(n).go_v()),
        Value::String(s) => out.push_str(s),
        Value::Array(items) => out.push_str(&go_v_list(items)),
        Value::Object(map) => {
            out.push_str("map[");
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(k);
                out.push(':');
                go_v(v, out);
            }
            out.push(']');
        }
    }
}
