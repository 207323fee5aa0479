//! Options (`+k8s:ifEnabled`, `+k8s:ifDisabled`): upstream's `validate/options.go`.

use crate::enums::undefined_option;
use crate::operation::Operation;
use crate::path::PathRef;
use crate::sink::ErrorSink;

/// `IfOption`: whether the wrapped validation runs — the option is defined and equals
/// `enabled`. An undefined option records
/// `InternalError("undefined validation option \"<Opt>\"")` (no origin) and returns `false`.
#[inline]
pub fn if_option(
    path: &PathRef<'_>,
    op: &Operation,
    option: &str,
    enabled: bool,
    out: &mut impl ErrorSink,
) -> bool {
    match op.has_option(option) {
        Some(on) => on == enabled,
        None => {
            out.fail(|| undefined_option(path, option));
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorList;

    #[test]
    fn options() {
        let root = PathRef::Nil;
        let f = root.child("f");
        let op = Operation::create()
            .with_option("On", true)
            .with_option("Off", false);
        let mut out = ErrorList::new();
        assert!(if_option(&f, &op, "On", true, &mut out));
        assert!(!if_option(&f, &op, "On", false, &mut out));
        assert!(if_option(&f, &op, "Off", false, &mut out));
        assert!(out.is_empty());
        assert!(!if_option(&f, &op, "Missing", true, &mut out));
        assert_eq!(
            out[0].to_string(),
            "f: Internal error: undefined validation option \"Missing\""
        );
    }
}
