//! The CEL type checker: the environment ([`Env`]: the libraries' declarations, the
//! application's own, options), type inference with type parameters, overload resolution, and
//! the AST validators Kubernetes enables. Errors use cel-go's wording and rendering. The
//! declarations themselves belong to the libraries ([`crate::library`]).
//!
//! ```
//! use kdv_cel::checker::{Env, compile};
//! use kdv_cel::types::Type;
//!
//! let mut env = Env::kubernetes();
//! env.add_variable("x", Type::Int);
//! let checked = compile("x + 1 > 2", &env).unwrap();
//! assert_eq!(checked.result_type, Type::Bool);
//! let err = compile("x + 'a'", &env).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "ERROR: <input>:1:3: found no matching overload for '_+_' applied to '(int, string)'\n | x + 'a'\n | ..^"
//! );
//! ```
//!
//! Declarations come in [`Declarations`](crate::library::Declarations) values registered on an
//! [`Env`], one per library (each library module of [`crate::library`] builds its own); an
//! application adds its own the same way:
//!
//! ```
//! use std::sync::Arc;
//! use kdv_cel::checker::{Env, OverloadDecl, compile};
//! use kdv_cel::library::Declarations;
//! use kdv_cel::types::Type;
//!
//! let quantity = Type::Object(Arc::from("kubernetes.Quantity"));
//! let mut lib = Declarations::new("kubernetes.quantity");
//! lib.function("quantity", vec![OverloadDecl::global("string_to_quantity", vec![Type::String], quantity.clone())])
//!     .function("isGreaterThan", vec![OverloadDecl::member("quantity_is_greater_than", vec![quantity.clone(), quantity.clone()], Type::Bool)])
//!     .type_ident("kubernetes.Quantity", quantity);
//! let mut env = Env::kubernetes();
//! env.add_library(Arc::new(lib));
//! let checked = compile("quantity('1Gi').isGreaterThan(quantity('1Mi'))", &env).unwrap();
//! assert_eq!(checked.overload_ids(checked.expr.id).unwrap(), ["quantity_is_greater_than"]);
//! ```
//!
//! Object types (Kubernetes schema types, protobuf messages) come from a [`TypeProvider`].
//!
//! Like cel-go, the checker rewrites the tree: identifiers and select chains that name
//! declarations become identifiers with the fully qualified name (`a.b.c` declared as a
//! variable is one `Ident("a.b.c")` node keeping the select's id), and namespaced function
//! calls (`sets.contains(x, y)`, parsed as a member call on `sets`) become global calls.

mod check;
mod env;
mod unify;
mod validate;

#[cfg(test)]
mod tests;

pub use crate::library::{FunctionDecl, OverloadDecl, VariableDecl};
pub use env::{CheckOptions, Env, LiteralValidator, TypeProvider};

use crate::ast::{Expr, ExprId, Literal, Source};
use crate::parser::{Issues, ParseOptions, ParsedExpr};
use crate::types::Type;

/// What a resolved identifier or call refers to.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    /// For identifiers: the fully qualified name of the variable, constant or type (a
    /// leading `.` when a comprehension variable of the same name had to be bypassed).
    pub name: Option<String>,
    /// For calls: the overloads the call may dispatch to, in declaration order (several when
    /// argument types are `dyn` or generic).
    pub overload_ids: Vec<String>,
    /// For constants (enum values): the value.
    pub value: Option<Literal>,
}

/// A type-checked expression.
#[derive(Debug, Clone)]
pub struct CheckedExpr {
    /// The tree, with names resolved (see the module docs).
    pub expr: Expr,
    /// The source text.
    pub source: Source,
    /// Type of each node, indexed by [`ExprId`].
    pub types: Vec<Option<Type>>,
    /// Reference of each identifier and call node, indexed by [`ExprId`].
    pub references: Vec<Option<Reference>>,
    /// The type of the whole expression.
    pub result_type: Type,
    /// One more than the largest id in use.
    pub next_id: ExprId,
}

impl CheckedExpr {
    /// The type of node `id`.
    pub fn type_of(&self, id: ExprId) -> Option<&Type> {
        self.types.get(id as usize).and_then(Option::as_ref)
    }

    /// The reference of node `id`.
    pub fn reference(&self, id: ExprId) -> Option<&Reference> {
        self.references.get(id as usize).and_then(Option::as_ref)
    }

    /// The overload ids call node `id` may dispatch to.
    pub fn overload_ids(&self, id: ExprId) -> Option<&[String]> {
        self.reference(id)
            .filter(|r| r.name.is_none())
            .map(|r| r.overload_ids.as_slice())
    }
}

/// Stack reserved per tree level when checking runs on a helper thread.
const CHECKER_BYTES_PER_LEVEL: usize = 32 << 10;

/// Type-checks a parsed expression.
pub fn check(parsed: ParsedExpr, env: &Env) -> Result<CheckedExpr, Issues> {
    let ParsedExpr {
        mut expr,
        source,
        next_id,
    } = parsed;
    // A tree is never deeper than its node count: small trees skip the depth walk.
    let levels = if next_id <= 32 {
        next_id as usize
    } else {
        expr.height()
    };
    // A failed check drops the tree where it was checked: on the thread sized for its depth.
    let outcome = crate::parser::with_stack(levels, CHECKER_BYTES_PER_LEVEL, || {
        let mut c = check::Checker::new(env, next_id);
        c.check(&mut expr);
        if !c.issues.is_empty() {
            drop(expr);
            return Err((std::mem::take(&mut c.issues), c.truncated));
        }
        c.finish_types();
        let issues = validate::validate(env, &expr, &c.types);
        if !issues.is_empty() {
            drop(expr);
            return Err((issues, 0));
        }
        Ok((expr, c.types, c.refs))
    });
    let (expr, types, references) = match outcome {
        Some(Ok(checked)) => checked,
        Some(Err((issues, truncated))) => {
            let mut all = Issues::new(source);
            for i in issues {
                all.push(i);
            }
            all.count_truncated(truncated);
            return Err(all);
        }
        None => {
            let mut all = Issues::new(source);
            all.report(None, 0, "expression nesting too deep to check");
            return Err(all);
        }
    };
    let result_type = types
        .get(expr.id as usize)
        .and_then(|t| t.clone())
        .unwrap_or(Type::Error);
    Ok(CheckedExpr {
        expr,
        source,
        types,
        references,
        result_type,
        next_id,
    })
}

/// Parses (with the environment's parser settings, [`CheckOptions::parse`]) and checks
/// `source`.
pub fn compile(source: &str, env: &Env) -> Result<CheckedExpr, Issues> {
    compile_with(source, &env.options.parse, env)
}

/// Parses with `options` and checks `source`.
pub fn compile_with(
    source: &str,
    options: &ParseOptions,
    env: &Env,
) -> Result<CheckedExpr, Issues> {
    check(crate::parser::parse_with(source, options)?, env)
}
