//! `+k8s:customValidation` names a hand-written Go function that kdv cannot run, so
//! `kdv validate` skips those checks. These warnings say so: once per validated type, and
//! in `kdv lint` at each tag.

use std::collections::BTreeSet;

use kdv_model::{CommentLine, Comments, Diagnostic, Severity, SourceSpan, TypeRef, Universe};
use kdv_rules::custom_validations::{
    CustomValidationUse, custom_validations_of, reachable_custom_validations,
};
use kdv_rules::{RuleSet, TypeId};

/// The tag as written in comments.
const TAG: &str = "k8s:customValidation";

/// Longest chain of `type X Y` definitions followed to find a struct's fields.
const MAX_TYPEDEF_CHAIN: usize = 16;

/// The warning for validating values of `ty`, if its validation reaches custom validation
/// functions: `warning: <type>: skipping N +k8s:customValidation check(s) kdv cannot run
/// (...)`.
pub fn skipped_warning(rules: &RuleSet, ty: TypeId, type_name: &str) -> Option<String> {
    let uses = reachable_custom_validations(rules, ty);
    if uses.is_empty() {
        return None;
    }
    let names: BTreeSet<&str> = uses.iter().map(|u| u.function_name.as_str()).collect();
    let names: Vec<&str> = names.into_iter().collect();
    Some(format!(
        "warning: {type_name}: skipping {} +{TAG} check{} kdv cannot run (hand-written Go: {})",
        names.len(),
        if names.len() == 1 { "" } else { "s" },
        names.join(", ")
    ))
}

/// A lint warning at every `+k8s:customValidation` tag that produced a rule, each tag once.
pub fn lint_warnings(universe: &Universe, rules: &RuleSet) -> Vec<Diagnostic> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for index in 0..rules.types.len() {
        let Ok(index) = u32::try_from(index) else {
            break;
        };
        for u in custom_validations_of(rules, TypeId(index)) {
            let span = tag_span(universe, rules, &u);
            let key = span
                .as_ref()
                .map(|s| (s.path.clone(), s.line, s.col))
                .unwrap_or_default();
            if !seen.insert((key, u.function_name.clone())) {
                continue;
            }
            out.push(Diagnostic {
                severity: Severity::Warning,
                message: format!(
                    "tag \"{TAG}\": kdv cannot run the hand-written function {}; `kdv validate` skips this check",
                    u.function_name
                ),
                span,
            });
        }
    }
    out
}

/// Where the tag of `u` is written: in the doc comment of its type, or of its field (in the
/// struct a chain of type definitions leads to, possibly in another package).
fn tag_span(universe: &Universe, rules: &RuleSet, u: &CustomValidationUse) -> Option<SourceSpan> {
    let owner = rules.types.get(u.owner.0 as usize)?;
    let mut package = universe.packages.get(&owner.package)?;
    let decl = package.type_decl(&owner.name)?;
    let comments = match &u.field {
        None => &decl.doc,
        Some(field) => {
            let mut def = &decl.def;
            let mut steps = 0;
            let fields = loop {
                match def {
                    TypeRef::Struct(s) => break &s.fields,
                    TypeRef::Named(n) if steps < MAX_TYPEDEF_CHAIN => {
                        package = universe.packages.get(&n.package)?;
                        def = &package.type_decl(&n.name)?.def;
                        steps += 1;
                    }
                    _ => return None,
                }
            };
            &fields.iter().find(|f| &f.name == field)?.doc
        }
    };
    let (line, at) = find_tag(comments)?;
    let file = package.files.get(line.loc.file as usize)?;
    let at = u32::try_from(at).ok()?;
    let mut loc = line.loc;
    loc.col += at;
    loc.offset += at;
    Some(SourceSpan::from_loc(file, loc, TAG.len() as u32 + 1))
}

/// The comment line holding the tag, and the byte offset of its `+` in the line's text.
fn find_tag(comments: &Comments) -> Option<(&CommentLine, usize)> {
    comments.lines.iter().find_map(|l| {
        let at = l.text.find(&format!("+{TAG}"))?;
        Some((l, at))
    })
}
