//! CEL types: what the checker assigns to expressions ([`Type`]), and the one classification
//! of types and values into kinds ([`Kind`]) that the checker, the runtime dispatcher and
//! `type(x)` values share.

use std::fmt;
use std::sync::Arc;

/// A CEL type as the checker knows it, with its parameters (`list(int)`, `map(string, A)`)
/// and names (objects, library types): a different concept from [`Kind`], which classifies
/// it ([`Type::kind`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Type {
    /// `dyn`: any value, checked at run time.
    Dyn,
    /// `null_type`.
    Null,
    /// `bool`.
    Bool,
    /// `int`.
    Int,
    /// `uint`.
    Uint,
    /// `double`.
    Double,
    /// `string`.
    String,
    /// `bytes`.
    Bytes,
    /// `google.protobuf.Duration`.
    Duration,
    /// `google.protobuf.Timestamp`.
    Timestamp,
    /// `list(T)`.
    List(Box<Type>),
    /// `map(K, V)`.
    Map(Box<Type>, Box<Type>),
    /// `optional_type(T)`.
    Optional(Box<Type>),
    /// `type(T)`: the type of a type value.
    Type(Box<Type>),
    /// A named object type (a Kubernetes schema object, a protobuf message, ...).
    Object(Arc<str>),
    /// A type parameter of a generic overload (`A` in `list(A)`).
    Param(Arc<str>),
    /// An opaque named type with parameters (`net.IP`, `kubernetes.Quantity`, ...).
    Opaque(Arc<str>, Vec<Type>),
    /// The type of an expression that failed to check.
    Error,
}

impl fmt::Display for Type {
    /// cel-go's `FormatCELType` spelling (`list(int)`, `map(string, dyn)`, `optional_type(int)`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Dyn
            | Type::Null
            | Type::Bool
            | Type::Int
            | Type::Uint
            | Type::Double
            | Type::String
            | Type::Bytes
            | Type::Duration
            | Type::Timestamp
            | Type::Error => f.write_str(self.kind().name()),
            Type::List(e) => write!(f, "list({e})"),
            Type::Map(k, v) => write!(f, "map({k}, {v})"),
            Type::Optional(t) => write!(f, "optional_type({t})"),
            Type::Type(t) => write!(f, "type({t})"),
            Type::Object(name) | Type::Param(name) => f.write_str(name),
            Type::Opaque(name, params) => {
                f.write_str(name)?;
                if !params.is_empty() {
                    f.write_str("(")?;
                    for (i, p) in params.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        write!(f, "{p}")?;
                    }
                    f.write_str(")")?;
                }
                Ok(())
            }
        }
    }
}

/// Name of the opaque type the checker uses for protobuf wrapper types.
const WRAPPER: &str = "wrapper";

impl Type {
    /// A protobuf wrapper type (`google.protobuf.Int64Value`, ...) as the checker sees it: the
    /// wrapped primitive that also accepts `null`. Represented as the opaque type
    /// `wrapper(T)`, which is also how cel-go spells it in messages.
    pub fn wrapper(inner: Type) -> Type {
        Type::Opaque(Arc::from(WRAPPER), vec![inner])
    }

    /// The wrapped primitive when `self` is a [`Type::wrapper`].
    pub fn as_wrapper(&self) -> Option<&Type> {
        match self {
            Type::Opaque(name, params) if &**name == WRAPPER && params.len() == 1 => params.first(),
            _ => None,
        }
    }
}

impl Type {
    /// cel-go's kind of the type (`Type.Kind()`), as the checker classifies types: optional
    /// types are opaque types (cel-go declares `optional_type(T)` as one), wrapper types have
    /// their primitive's kind, `google.protobuf.Any` is [`Kind::Any`] and other objects
    /// [`Kind::Struct`].
    #[inline]
    pub fn kind(&self) -> Kind {
        match self {
            Type::Dyn => Kind::Dyn,
            Type::Null => Kind::Null,
            Type::Bool => Kind::Bool,
            Type::Int => Kind::Int,
            Type::Uint => Kind::Uint,
            Type::Double => Kind::Double,
            Type::String => Kind::String,
            Type::Bytes => Kind::Bytes,
            Type::Duration => Kind::Duration,
            Type::Timestamp => Kind::Timestamp,
            Type::List(_) => Kind::List,
            Type::Map(..) => Kind::Map,
            Type::Optional(_) => Kind::Opaque,
            Type::Type(_) => Kind::Type,
            Type::Object(name) if &**name == "google.protobuf.Any" => Kind::Any,
            Type::Object(_) => Kind::Struct,
            Type::Param(_) => Kind::Param,
            Type::Opaque(..) => match self.as_wrapper() {
                Some(inner) => inner.kind(),
                None => Kind::Opaque,
            },
            Type::Error => Kind::Error,
        }
    }
}

/// Which kind of CEL type a type or a value is: the one classification every phase shares.
/// The checker compares kinds of [`Type`]s ([`Type::kind`]) before it compares names and
/// parameters; the interpreter dispatches on the kinds of argument values
/// (`Value::kind`); `type(x)` of a built-in type is its kind (`value::RtType::Builtin`).
///
/// Named kinds ([`Kind::Opaque`], [`Kind::Struct`], [`Kind::Param`]) do not identify a type
/// by themselves: their types carry the name. The kinds of values come first, in the order of
/// `Value`'s variants, so that a value's kind is its variant's index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `null_type`.
    Null,
    /// `bool`.
    Bool,
    /// `int`.
    Int,
    /// `uint`.
    Uint,
    /// `double`.
    Double,
    /// `string`.
    String,
    /// `bytes`.
    Bytes,
    /// `list`.
    List,
    /// `map`.
    Map,
    /// `type`: type values.
    Type,
    /// `google.protobuf.Duration`.
    Duration,
    /// `google.protobuf.Timestamp`.
    Timestamp,
    /// `optional_type` values (the checker classifies optional types as [`Kind::Opaque`],
    /// as cel-go does).
    Optional,
    /// A library-defined type (`net.IP`, `kubernetes.Quantity`, ...), by name.
    Opaque,
    /// `dyn`: any type; a parameter of this kind accepts any value.
    Dyn,
    /// An object (message) type, by name.
    Struct,
    /// `google.protobuf.Any` (checker only).
    Any,
    /// A type parameter (checker only).
    Param,
    /// The type of an expression that failed to check (checker only).
    Error,
}

impl Kind {
    /// cel-go's name of the built-in type of this kind (`int`, `list`, `null_type`,
    /// `google.protobuf.Timestamp`, `optional_type`, ...). Named kinds have no name of their
    /// own: `opaque`, `object` and `type_param` stand in for them.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Dyn => "dyn",
            Kind::Null => "null_type",
            Kind::Bool => "bool",
            Kind::Int => "int",
            Kind::Uint => "uint",
            Kind::Double => "double",
            Kind::String => "string",
            Kind::Bytes => "bytes",
            Kind::Duration => "google.protobuf.Duration",
            Kind::Timestamp => "google.protobuf.Timestamp",
            Kind::List => "list",
            Kind::Map => "map",
            Kind::Type => "type",
            Kind::Optional => "optional_type",
            Kind::Opaque => "opaque",
            Kind::Struct => "object",
            Kind::Any => "google.protobuf.Any",
            Kind::Param => "type_param",
            Kind::Error => "*error*",
        }
    }

    /// The kind of the built-in type named `name` (the type identifiers of the standard
    /// library and `optional_type`, `dyn`).
    pub fn from_builtin_name(name: &str) -> Option<Kind> {
        Some(match name {
            "null_type" => Kind::Null,
            "bool" => Kind::Bool,
            "int" => Kind::Int,
            "uint" => Kind::Uint,
            "double" => Kind::Double,
            "string" => Kind::String,
            "bytes" => Kind::Bytes,
            "list" => Kind::List,
            "map" => Kind::Map,
            "type" => Kind::Type,
            "google.protobuf.Duration" => Kind::Duration,
            "google.protobuf.Timestamp" => Kind::Timestamp,
            "optional_type" => Kind::Optional,
            "dyn" => Kind::Dyn,
            _ => return None,
        })
    }
}
