//! Testing tags (upstream `validators/testing.go`): `validateTrue`, `validateFalse`,
//! `validateTrueAlpha`, `validateTrueBeta`, `validateError`. Semantics:
//! `kdv_runtime::testing`.

use kdv_runtime::ErrorType;
use kdv_runtime::testing::origin;
use kdv_tags::{ArgValue, Tag, TagValue, ValueType, go_quote};

use crate::ir::{Check, Emission, Validation};
use crate::lower::{Ctx, LowerError, Lowered, Lowerer, TagDef};
use crate::tag_doc::{ArgDoc, Scope, Stability, TagDoc};

const SCOPES: &[Scope] = &[
    Scope::Type,
    Scope::Field,
    Scope::ListVal,
    Scope::MapKey,
    Scope::MapVal,
];

const ARGS: &[ArgDoc] = &[
    ArgDoc {
        name: "flags",
        ty: ValueType::String,
        required: false,
        description: "comma-separated flags: ShortCircuit, NonError",
    },
    ArgDoc {
        name: "typeArg",
        ty: ValueType::String,
        required: false,
        description: "explicit type argument for generated code (no effect here)",
    },
    ArgDoc {
        name: "cohort",
        ty: ValueType::String,
        required: false,
        description: "a cohort name grouping several validations",
    },
];

const fn fixed(
    name: &'static str,
    stability: Stability,
    description: &'static str,
    example: &'static str,
) -> TagDoc {
    TagDoc {
        name,
        stability,
        scopes: SCOPES,
        args: ARGS,
        accepts_unknown_args: false,
        payload: ValueType::String,
        payload_required: false,
        payload_description: "<string>: a message included in the result",
        description,
        example,
        extension: None,
    }
}

/// `+k8s:validateFalse`.
pub(crate) const VALIDATE_FALSE: TagDoc = fixed(
    "k8s:validateFalse",
    Stability::Alpha,
    "Always fails validation with `forced failure: <message>` (for testing).",
    "+k8s:validateFalse=\"always fails\"",
);

/// `+k8s:validateTrue`.
pub(crate) const VALIDATE_TRUE: TagDoc = fixed(
    "k8s:validateTrue",
    Stability::Alpha,
    "Always passes validation (for testing).",
    "+k8s:validateTrue",
);

/// `+k8s:validateTrueAlpha`.
pub(crate) const VALIDATE_TRUE_ALPHA: TagDoc = fixed(
    "k8s:validateTrueAlpha",
    Stability::Alpha,
    "Always passes validation; registered as Alpha (for testing the linter).",
    "+k8s:validateTrueAlpha",
);

/// `+k8s:validateTrueBeta`.
pub(crate) const VALIDATE_TRUE_BETA: TagDoc = fixed(
    "k8s:validateTrueBeta",
    Stability::Beta,
    "Always passes validation; registered as Beta (for testing the linter).",
    "+k8s:validateTrueBeta",
);

/// `+k8s:validateError`.
pub(crate) const VALIDATE_ERROR: TagDoc = TagDoc {
    name: "k8s:validateError",
    stability: Stability::Alpha,
    scopes: SCOPES,
    args: &[],
    accepts_unknown_args: false,
    payload: ValueType::String,
    payload_required: false,
    payload_description: "<string>: included in the error message",
    description: "Always fails compilation with `forced error: <message>` (for testing).",
    example: "+k8s:validateError=\"boom\"",
    extension: None,
};

fn fixed_result<'u>(ctx: &Ctx<'u>, tag: &Tag, pass: bool) -> Result<Lowered<'u>, LowerError> {
    let mut v = Validation::new(
        if pass {
            "k8s:validateTrue"
        } else {
            "k8s:validateFalse"
        },
        Check::Fixed {
            pass,
            message: match &tag.value {
                TagValue::String(s) => s.clone(),
                _ => String::new(),
            },
        },
    );
    if !pass {
        v.emits.push(Emission::at_path(
            ErrorType::Invalid,
            origin::VALIDATE_FALSE,
        ));
    }
    // Keep the exact registered name for docs.
    v.tag = TAGS
        .iter()
        .find(|d| d.doc.name == tag.name)
        .map_or(v.tag, |d| d.doc.name);
    for arg in &tag.args {
        let ArgValue::String(value) = &arg.value else {
            continue;
        };
        match arg.name.as_deref() {
            Some("flags") => {
                for flag in value.split(',') {
                    match flag.trim() {
                        "ShortCircuit" => v.short_circuit = true,
                        "NonError" => v.non_error = true,
                        other => {
                            return Err(ctx.error(
                                arg.span,
                                format!(
                                    "can't decode tag payload: unknown flag: {}",
                                    go_quote(other)
                                ),
                            ));
                        }
                    }
                }
            }
            Some("cohort") if !value.is_empty() => v.cohort = Some(value.clone()),
            _ => {}
        }
    }
    Ok(Lowered::function(v))
}

/// Lowers `+k8s:validateFalse`.
pub(crate) fn lower_validate_false<'u>(
    _lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    fixed_result(ctx, tag, false)
}

/// Lowers `+k8s:validateTrue`, `+k8s:validateTrueAlpha` and `+k8s:validateTrueBeta`.
pub(crate) fn lower_validate_true<'u>(
    _lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    fixed_result(ctx, tag, true)
}

/// Lowers `+k8s:validateError`: always an error.
pub(crate) fn lower_validate_error<'u>(
    _lw: &mut Lowerer<'u>,
    ctx: &Ctx<'u>,
    tag: &Tag,
) -> Result<Lowered<'u>, LowerError> {
    Err(ctx.value_error(
        tag,
        format!(
            "forced error: {}",
            go_quote(tag.value.as_str().unwrap_or(""))
        ),
    ))
}

/// The tags of this family.
pub(crate) const TAGS: &[TagDef] = &[
    TagDef {
        doc: VALIDATE_ERROR,
        lower: lower_validate_error,
    },
    TagDef {
        doc: VALIDATE_FALSE,
        lower: lower_validate_false,
    },
    TagDef {
        doc: VALIDATE_TRUE,
        lower: lower_validate_true,
    },
    TagDef {
        doc: VALIDATE_TRUE_ALPHA,
        lower: lower_validate_true,
    },
    TagDef {
        doc: VALIDATE_TRUE_BETA,
        lower: lower_validate_true,
    },
];
