//! CEL types: what the checker assigns to expressions and what `type(x)` returns at run time.

use std::fmt;
use std::sync::Arc;

/// A CEL type.
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
            Type::Dyn => f.write_str("dyn"),
            Type::Null => f.write_str("null_type"),
            Type::Bool => f.write_str("bool"),
            Type::Int => f.write_str("int"),
            Type::Uint => f.write_str("uint"),
            Type::Double => f.write_str("double"),
            Type::String => f.write_str("string"),
            Type::Bytes => f.write_str("bytes"),
            Type::Duration => f.write_str("google.protobuf.Duration"),
            Type::Timestamp => f.write_str("google.protobuf.Timestamp"),
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
            Type::Error => f.write_str("*error*"),
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
