//! `kdv schema`: the OpenAPI v3 schema (or, with `--crd`, the CustomResourceDefinition)
//! that publishes a Go type's rules, emitted by `kdv-schema`; the rules it cannot carry are
//! warnings on stderr.

use std::io::Write;

use kdv_rules::TypeLookupError;
use serde_json::Value;

use super::{error_count, load_types};
use crate::cli::{SchemaArgs, SchemaFormat};
use crate::error::CliError;
use crate::output::text;

/// Prints the schema on `out`, the loader's diagnostics and the notes on `err`. Returns 0.
pub fn run(args: &SchemaArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8, CliError> {
    let types = load_types(&args.types, args.roots.roots(), false)?;
    text::write_diagnostics(err, types.diagnostics.iter())?;
    let errors = error_count(&types.diagnostics);
    if errors > 0 {
        return Err(CliError::TypesInvalid {
            dir: args.types.clone(),
            count: errors,
        });
    }
    let rules = &types.compiled.rules;
    let known = || -> Vec<String> {
        let mut names: Vec<String> = rules
            .types
            .iter()
            .filter(|t| Some(&t.package) == types.home.as_ref())
            .map(|t| t.name.clone())
            .collect();
        names.sort();
        names
    };
    let ty = rules
        .resolve_type(&args.type_name, types.home.as_deref())
        .map_err(|e| match e {
            TypeLookupError::Unknown => CliError::UnknownTypeArgument {
                name: args.type_name.clone(),
                dir: args.types.clone(),
                nearest: crate::commands::explanation::nearest(
                    &args.type_name,
                    &known().iter().map(String::as_str).collect::<Vec<_>>(),
                ),
                roots: rules
                    .roots()
                    .filter(|r| Some(&r.package) == types.home.as_ref())
                    .map(|r| r.name)
                    .collect(),
            },
            TypeLookupError::Ambiguous(candidates) => CliError::AmbiguousType {
                name: args.type_name.clone(),
                dir: args.types.clone(),
                candidates,
            },
        })?;
    let emit = kdv_schema::EmitOptions {
        options: args.options.iter().cloned().collect(),
        subresource: args.subresource.clone(),
    };
    let emitted = if args.crd {
        let opts = kdv_schema::CrdOptions {
            group: args.group.clone(),
            version: args.api_version.clone(),
            plural: args.plural.clone(),
            scope: if args.cluster_scoped {
                kdv_schema::Scope::Cluster
            } else {
                kdv_schema::Scope::Namespaced
            },
            status_subresource: args.status_subresource,
            emit,
        };
        kdv_schema::crd(rules, ty, &opts).map_err(|e| CliError::Usage(e.to_string()))?
    } else {
        kdv_schema::emit(rules, ty, &emit)
    };
    match args.output {
        SchemaFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, &emitted.schema)
                .map_err(|e| CliError::Output(e.into()))?;
            writeln!(out)?;
        }
        SchemaFormat::Yaml => {
            let mut text = String::new();
            yaml(&emitted.schema, 0, &mut text);
            out.write_all(text.as_bytes())?;
        }
    }
    for note in &emitted.notes {
        writeln!(err, "warning: {note}")?;
    }
    Ok(0)
}

/// A JSON value as block-style YAML: mappings and sequences indented by two spaces,
/// strings double-quoted (a JSON string literal is a YAML double-quoted scalar with the
/// same value), keys plain when nothing could read them otherwise.
fn yaml(v: &Value, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, x) in m {
                out.push_str(&pad);
                out.push_str(&yaml_key(k));
                out.push(':');
                nested(x, indent, out);
            }
        }
        Value::Array(a) if !a.is_empty() => {
            for x in a {
                out.push_str(&pad);
                out.push('-');
                match x {
                    Value::Object(m) if !m.is_empty() => {
                        // The first member on the dash's line, the others below it.
                        let mut first = true;
                        for (k, y) in m {
                            if first {
                                out.push(' ');
                                first = false;
                            } else {
                                out.push_str(&pad);
                                out.push_str("  ");
                            }
                            out.push_str(&yaml_key(k));
                            out.push(':');
                            nested(y, indent + 2, out);
                        }
                    }
                    _ => nested(x, indent, out),
                }
            }
        }
        other => {
            out.push_str(&pad);
            out.push_str(&scalar(other));
            out.push('\n');
        }
    }
}

/// The value after `key:` or `-`: a scalar on the same line, a collection below.
fn nested(x: &Value, indent: usize, out: &mut String) {
    match x {
        Value::Object(m) if !m.is_empty() => {
            out.push('\n');
            yaml(x, indent + 2, out);
        }
        Value::Array(a) if !a.is_empty() => {
            out.push('\n');
            yaml(x, indent + 2, out);
        }
        other => {
            out.push(' ');
            out.push_str(&scalar(other));
            out.push('\n');
        }
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::Object(_) => "{}".into(),
        Value::Array(_) => "[]".into(),
        other => other.to_string(),
    }
}

/// A key plain when it is a simple word no YAML 1.1 reader takes for anything else.
fn yaml_key(k: &str) -> String {
    let simple = k
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'));
    let special = matches!(
        k.to_ascii_lowercase().as_str(),
        "y" | "n" | "yes" | "no" | "on" | "off" | "true" | "false" | "null"
    );
    if simple && !special {
        k.to_owned()
    } else {
        Value::String(k.to_owned()).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn yaml_reads_back_as_the_same_value() {
        let v = json!({
            "a": [1, {"b": "x: y", "c": [true, null]}, [], {}],
            "on": "yes",
            "x-kubernetes-validations": [{"rule": "self.a == \"b\"\n", "message": "m"}],
            "e": {},
            "é": 1.5
        });
        let mut text = String::new();
        yaml(&v, 0, &mut text);
        let docs: Vec<_> = kdv_manifest::documents(
            text.as_bytes(),
            kdv_manifest::Syntax::Yaml,
            kdv_manifest::Limits::default(),
        )
        .collect();
        match &docs[..] {
            [Ok(kdv_manifest::Entry::Document(d))] => assert_eq!(d.value, v, "{text}"),
            other => panic!("{other:?}\n{text}"),
        }
    }
}
