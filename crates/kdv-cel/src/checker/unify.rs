//! Type assignability with type-parameter substitution, following cel-go's checker rules
//! (including its legacy null and wrapper assignability).

use std::sync::Arc;

use crate::types::{Kind, Type};

/// Substitutions of type parameters found so far, with an undo log so a failed assignability
/// attempt can be rolled back without copying the table (cel-go copies it per attempt, which
/// is quadratic in large expressions).
#[derive(Debug, Default)]
pub(crate) struct Mapping {
    /// The substitutions while there are few (most checks): searched in order, no hashing.
    small: Vec<(Arc<str>, Type)>,
    /// All substitutions once there are more than [`SMALL_MAPPING`].
    large: Option<crate::hash::FastMap<Arc<str>, Type>>,
    undo: Vec<(Arc<str>, Option<Type>)>,
}

/// Substitutions kept in a list before a hash table takes over.
const SMALL_MAPPING: usize = 16;

impl Mapping {
    pub(crate) fn find(&self, t: &Type) -> Option<&Type> {
        let Type::Param(name) = t else {
            return None;
        };
        match &self.large {
            Some(map) => map.get(name),
            None => self
                .small
                .iter()
                .find(|(n, _)| Arc::ptr_eq(n, name) || **n == **name)
                .map(|(_, t)| t),
        }
    }

    fn insert(&mut self, name: Arc<str>, sub: Type) -> Option<Type> {
        if let Some(map) = &mut self.large {
            return map.insert(name, sub);
        }
        if let Some((_, t)) = self
            .small
            .iter_mut()
            .find(|(n, _)| Arc::ptr_eq(n, &name) || **n == *name)
        {
            return Some(std::mem::replace(t, sub));
        }
        self.small.push((name, sub));
        if self.small.len() > SMALL_MAPPING {
            self.large = Some(self.small.drain(..).collect());
        }
        None
    }

    fn remove(&mut self, name: &Arc<str>) {
        match &mut self.large {
            Some(map) => {
                map.remove(name);
            }
            None => {
                if let Some(i) = self
                    .small
                    .iter()
                    .position(|(n, _)| Arc::ptr_eq(n, name) || **n == **name)
                {
                    self.small.swap_remove(i);
                }
            }
        }
    }

    fn add(&mut self, param: &Type, sub: Type) {
        let Type::Param(name) = param else {
            return;
        };
        let old = self.insert(name.clone(), sub);
        self.undo.push((name.clone(), old));
    }

    /// Marks the state to return to with [`Mapping::rollback`].
    pub(crate) fn checkpoint(&self) -> usize {
        self.undo.len()
    }

    /// Forgets the changes made since `checkpoint`.
    pub(crate) fn rollback(&mut self, checkpoint: usize) {
        while self.undo.len() > checkpoint {
            let Some((name, old)) = self.undo.pop() else {
                break;
            };
            match old {
                Some(t) => {
                    self.insert(name, t);
                }
                None => self.remove(&name),
            }
        }
    }

    /// Keeps the changes made since `checkpoint`.
    pub(crate) fn commit(&mut self, checkpoint: usize) {
        if checkpoint == 0 {
            self.undo.clear();
        }
    }
}

/// cel-go's runtime type name (what `IsExactType` compares besides kind and parameters).
pub(crate) fn type_name(t: &Type) -> &str {
    match t {
        Type::Object(n) | Type::Param(n) => n,
        Type::Opaque(n, _) => match t.as_wrapper() {
            Some(inner) => type_name(inner),
            None => n,
        },
        Type::Optional(_) => Kind::Optional.name(),
        // The other kinds are built-in types, named by their kind.
        other => other.kind().name(),
    }
}

/// Type parameters of a type (wrappers have none, like their primitive).
fn params(t: &Type) -> &[Type] {
    match t {
        Type::List(e) | Type::Optional(e) | Type::Type(e) => std::slice::from_ref(&**e),
        Type::Map(..) => &[],
        Type::Opaque(_, ps) if t.as_wrapper().is_none() => ps,
        _ => &[],
    }
}

/// Parameters as a pair for maps, else through [`params`].
fn param_pair(t: &Type) -> Option<(&Type, &Type)> {
    match t {
        Type::Map(k, v) => Some((k, v)),
        _ => None,
    }
}

fn param_count(t: &Type) -> usize {
    if param_pair(t).is_some() {
        2
    } else {
        params(t).len()
    }
}

fn param_at(t: &Type, i: usize) -> &Type {
    match param_pair(t) {
        Some((k, v)) => {
            if i == 0 {
                k
            } else {
                v
            }
        }
        None => &params(t)[i],
    }
}

/// cel-go `IsExactType` (`check_names`) / `IsEquivalentType` (type parameter names ignored).
pub(crate) fn same_type(a: &Type, b: &Type, check_names: bool) -> bool {
    let ka = a.kind();
    if ka != b.kind() || param_count(a) != param_count(b) {
        return false;
    }
    if (check_names || ka != Kind::Param) && type_name(a) != type_name(b) {
        return false;
    }
    (0..param_count(a)).all(|i| same_type(param_at(a, i), param_at(b, i), check_names))
}

pub(crate) fn exact(a: &Type, b: &Type) -> bool {
    same_type(a, b, true)
}

pub(crate) fn is_dyn(t: &Type) -> bool {
    matches!(t.kind(), Kind::Dyn | Kind::Any)
}

pub(crate) fn is_dyn_or_error(t: &Type) -> bool {
    matches!(t.kind(), Kind::Dyn | Kind::Any | Kind::Error)
}

/// cel-go `Type.IsAssignableType`: whether `target` accepts values of type `from` (no
/// substitution).
fn accepts(target: &Type, from: &Type) -> bool {
    if let Some(inner) = target.as_wrapper()
        && (from.kind() == Kind::Null || accepts(inner, from))
    {
        return true;
    }
    if matches!(target.kind(), Kind::Dyn | Kind::Any | Kind::Param) {
        return true;
    }
    if target.kind() != from.kind()
        || type_name(target) != type_name(from)
        || param_count(target) != param_count(from)
    {
        return false;
    }
    (0..param_count(target)).all(|i| accepts(param_at(target, i), param_at(from, i)))
}

fn is_legacy_nullable(t: &Type) -> bool {
    matches!(
        t.kind(),
        Kind::Opaque | Kind::Struct | Kind::Any | Kind::Duration | Kind::Timestamp
    )
}

fn null_assignable(t: &Type) -> bool {
    is_legacy_nullable(t) || accepts(t, &Type::Null)
}

/// Whether `t1` is assignable to `t2`, extending `m` with the substitutions that requires.
/// On failure `m` may hold partial substitutions: callers work on a copy.
pub(crate) fn assignable(m: &mut Mapping, t1: &Type, t2: &Type) -> bool {
    let (k1, k2) = (t1.kind(), t2.kind());
    if k2 == Kind::Param {
        let (valid, has_sub) = valid_substitution(m, t1, t2);
        if valid {
            return true;
        }
        if has_sub {
            return false;
        }
    }
    if k1 == Kind::Param {
        return valid_substitution(m, t2, t1).0;
    }
    if is_dyn_or_error(t1) || is_dyn_or_error(t2) {
        return true;
    }
    if k1 == Kind::Null {
        return null_assignable(t2);
    }
    if k2 == Kind::Null {
        return null_assignable(t1);
    }
    match k1 {
        Kind::Bool
        | Kind::Bytes
        | Kind::Double
        | Kind::Int
        | Kind::String
        | Kind::Uint
        | Kind::Any
        | Kind::Duration
        | Kind::Timestamp
        | Kind::Struct => accepts(t2, t1),
        Kind::Type => k2 == Kind::Type,
        Kind::Opaque | Kind::List | Kind::Map => {
            k1 == k2
                && type_name(t1) == type_name(t2)
                && param_count(t1) == param_count(t2)
                && (0..param_count(t1)).all(|i| assignable(m, param_at(t1, i), param_at(t2, i)))
        }
        _ => false,
    }
}

pub(crate) fn assignable_list(m: &mut Mapping, l1: &[Type], l2: &[Type]) -> bool {
    l1.len() == l2.len() && l1.iter().zip(l2).all(|(a, b)| assignable(m, a, b))
}

/// Whether `t2` (a type parameter) can stand for `t1`; also whether `t2` already had a
/// substitution.
fn valid_substitution(m: &mut Mapping, t1: &Type, t2: &Type) -> (bool, bool) {
    if t1.kind() == t2.kind() && exact(t1, t2) {
        return (true, true);
    }
    if let Some(t2_sub) = m.find(t2).cloned() {
        if t1.kind() == t2_sub.kind() && exact(t1, &t2_sub) {
            return (true, true);
        }
        if assignable(m, t1, &t2_sub) {
            let general = most_general(t1, &t2_sub).clone();
            if not_referenced_in(m, t2, &general) {
                m.add(t2, general);
            }
            return (true, true);
        }
        return (false, true);
    }
    if not_referenced_in(m, t2, t1) {
        m.add(t2, t1.clone());
        return (true, false);
    }
    (false, false)
}

fn equal_or_less_specific(t1: &Type, t2: &Type) -> bool {
    let (k1, k2) = (t1.kind(), t2.kind());
    if is_dyn(t1) || k1 == Kind::Param {
        return true;
    }
    if is_dyn(t2) || k2 == Kind::Param {
        return false;
    }
    if k1 != k2 {
        return false;
    }
    match k1 {
        Kind::Opaque => {
            type_name(t1) == type_name(t2)
                && param_count(t1) == param_count(t2)
                && (0..param_count(t1))
                    .all(|i| equal_or_less_specific(param_at(t1, i), param_at(t2, i)))
        }
        Kind::List | Kind::Map => (0..param_count(t1).min(param_count(t2)))
            .all(|i| equal_or_less_specific(param_at(t1, i), param_at(t2, i))),
        Kind::Type => true,
        _ => exact(t1, t2),
    }
}

/// The more general of two types known to unify.
pub(crate) fn most_general<'a>(t1: &'a Type, t2: &'a Type) -> &'a Type {
    if equal_or_less_specific(t1, t2) {
        t1
    } else {
        t2
    }
}

/// The occurs check: `t` does not appear in `within` (through substitutions).
fn not_referenced_in(m: &Mapping, t: &Type, within: &Type) -> bool {
    if exact(t, within) {
        return false;
    }
    match within.kind() {
        Kind::Param => match m.find(within) {
            None => true,
            Some(sub) => not_referenced_in(m, t, sub),
        },
        Kind::Opaque | Kind::List | Kind::Map | Kind::Type => {
            (0..param_count(within)).all(|i| not_referenced_in(m, t, param_at(within, i)))
        }
        _ => true,
    }
}

/// Replaces bound type parameters (transitively); unbound ones become `dyn` when
/// `param_to_dyn`.
pub(crate) fn substitute(m: &Mapping, t: &Type, param_to_dyn: bool) -> Type {
    if let Some(sub) = m.find(t) {
        return substitute(m, sub, param_to_dyn);
    }
    match t {
        Type::Param(_) if param_to_dyn => Type::Dyn,
        Type::List(e) => Type::List(Box::new(substitute(m, e, param_to_dyn))),
        Type::Map(k, v) => Type::Map(
            Box::new(substitute(m, k, param_to_dyn)),
            Box::new(substitute(m, v, param_to_dyn)),
        ),
        Type::Optional(e) => Type::Optional(Box::new(substitute(m, e, param_to_dyn))),
        Type::Type(e) => Type::Type(Box::new(substitute(m, e, param_to_dyn))),
        Type::Opaque(n, ps) if !ps.is_empty() => Type::Opaque(
            n.clone(),
            ps.iter().map(|p| substitute(m, p, param_to_dyn)).collect(),
        ),
        _ => t.clone(),
    }
}

/// Whether `t` mentions any type parameter (so substitution could change it).
pub(crate) fn has_params(t: &Type) -> bool {
    match t {
        Type::Param(_) => true,
        Type::List(e) | Type::Optional(e) | Type::Type(e) => has_params(e),
        Type::Map(k, v) => has_params(k) || has_params(v),
        Type::Opaque(_, ps) => ps.iter().any(has_params),
        _ => false,
    }
}

/// cel-go `FormatCELType`: the spelling used in checker messages.
pub(crate) fn format_type(t: &Type) -> String {
    let mut s = String::new();
    write_type(&mut s, t);
    s
}

fn write_type(out: &mut String, t: &Type) {
    match t {
        Type::Dyn => out.push_str("dyn"),
        Type::Null => out.push_str("null"),
        Type::Duration => out.push_str("duration"),
        Type::Timestamp => out.push_str("timestamp"),
        Type::Error => out.push_str("!error!"),
        Type::Object(n) if &**n == "google.protobuf.Any" => out.push_str("any"),
        Type::Object(n) | Type::Param(n) => out.push_str(n),
        Type::Type(inner) if matches!(**inner, Type::Dyn) => out.push_str("type"),
        _ => {
            if let Some(inner) = t.as_wrapper() {
                out.push_str("wrapper(");
                out.push_str(type_name(inner));
                out.push(')');
                return;
            }
            out.push_str(type_name(t));
            let n = param_count(t);
            if n > 0 {
                out.push('(');
                for i in 0..n {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    write_type(out, param_at(t, i));
                }
                out.push(')');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(t: Type) -> Type {
        Type::List(Box::new(t))
    }

    fn p(n: &str) -> Type {
        Type::Param(Arc::from(n))
    }

    #[test]
    fn params_bind_and_generalise() {
        let mut m = Mapping::default();
        assert!(assignable(&mut m, &list(Type::Int), &list(p("A"))));
        assert_eq!(substitute(&m, &p("A"), false), Type::Int);
        assert!(assignable(&mut m, &Type::Dyn, &p("A")));
        assert_eq!(substitute(&m, &p("A"), false), Type::Dyn);
        let mut m = Mapping::default();
        assert!(assignable(&mut m, &Type::Int, &p("A")));
        let cp = m.checkpoint();
        assert!(!assignable(&mut m, &Type::String, &p("A")));
        m.rollback(cp);
        assert_eq!(substitute(&m, &p("A"), false), Type::Int);
    }

    #[test]
    fn null_and_wrappers() {
        let mut m = Mapping::default();
        let w = Type::wrapper(Type::Int);
        assert!(assignable(&mut m, &Type::Null, &w));
        assert!(assignable(&mut m, &Type::Int, &w));
        assert!(assignable(&mut m, &w, &Type::Int));
        assert!(!assignable(&mut m, &Type::Null, &Type::Int));
        assert!(assignable(
            &mut m,
            &Type::Null,
            &Type::Object(Arc::from("a.B"))
        ));
        assert!(exact(&w, &Type::Int));
        assert_eq!(format_type(&w), "wrapper(int)");
    }

    #[test]
    fn formatting() {
        assert_eq!(format_type(&list(Type::Timestamp)), "list(timestamp)");
        assert_eq!(
            format_type(&Type::Map(Box::new(Type::String), Box::new(Type::Dyn))),
            "map(string, dyn)"
        );
        assert_eq!(
            format_type(&Type::Optional(Box::new(Type::Int))),
            "optional_type(int)"
        );
        assert_eq!(format_type(&Type::Type(Box::new(Type::Int))), "type(int)");
        assert_eq!(format_type(&Type::Null), "null");
    }
}
