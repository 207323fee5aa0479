//! Evaluation errors.

use std::borrow::Cow;
use std::fmt;

/// An evaluation error. Errors are values in CEL: `&&`, `||` and the `all`/`exists` macros
/// may absorb them; everything else propagates them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError {
    /// cel-go's error text (`no such key: x`, `division by zero`, ...).
    pub message: Cow<'static, str>,
    /// Aborts evaluation (cost limit, interruption): never absorbed.
    pub abort: bool,
}

impl EvalError {
    /// An ordinary error with `message`.
    pub fn new(message: impl Into<Cow<'static, str>>) -> EvalError {
        EvalError {
            message: message.into(),
            abort: false,
        }
    }

    /// `no such overload`.
    pub fn no_such_overload() -> EvalError {
        EvalError::new("no such overload")
    }

    /// `operation cancelled: actual cost limit exceeded`.
    pub fn cost_limit_exceeded() -> EvalError {
        EvalError {
            message: Cow::Borrowed("operation cancelled: actual cost limit exceeded"),
            abort: true,
        }
    }

    /// `operation interrupted`.
    pub fn interrupted() -> EvalError {
        EvalError {
            message: Cow::Borrowed("operation interrupted"),
            abort: true,
        }
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EvalError {}
