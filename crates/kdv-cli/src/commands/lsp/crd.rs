//! CRD files: `kdv lint --crd`'s findings, each CEL error at its token inside the rule;
//! hover over a rule (the type of `self`, its cost and share of the budget) and completion
//! of `self.` fields.

use kdv_manifest::{Entry, Query, Step, StepBuf, Syntax, Target};
use kdv_openapi::cel::{DeclKind, DeclType};
use kdv_openapi::crd_validation;
use kdv_openapi::schema::Additional;
use lsp_types::{
    CompletionItem, CompletionItemKind, Diagnostic, DiagnosticSeverity, Documentation,
    MarkupContent, MarkupKind, Position, Range,
};
use serde_json::Value;

use super::text::{LineIndex, diagnostic};

/// The diagnostics of a CRD file: what `kdv lint --crd` reports, CEL errors at the token
/// they name.
pub fn diagnostics(name: &str, text: &str, index: &LineIndex, minor: u32) -> Vec<Diagnostic> {
    let linted = crd_validation::lint_crds(name, text.as_bytes(), minor);
    let mut out = Vec::new();
    for e in &linted.unreadable {
        let at = index.at_char_column(text, e.line, e.column);
        out.push(diagnostic(
            index.token(text, at),
            DiagnosticSeverity::ERROR,
            e.message.clone(),
        ));
    }
    for crd in &linted.crds {
        for f in &crd.located {
            let severity = match f.severity {
                crd_validation::Severity::Error => DiagnosticSeverity::ERROR,
                crd_validation::Severity::Warning => DiagnosticSeverity::WARNING,
            };
            let at = index.at_char_column(text, f.line, f.column);
            let message = f.message.clone();
            let issues = cel_issues(&f.message);
            if issues.is_empty() {
                out.push(diagnostic(index.token(text, at), severity, message));
                continue;
            }
            // One diagnostic per CEL issue, at its token inside the rule.
            for issue in issues {
                let inside = rule_position(text, index, at, issue.line, issue.column);
                let range = match inside {
                    Some(p) => identifier_range(text, index, p),
                    None => index.token(text, at),
                };
                let field = f.field.as_deref().unwrap_or("");
                let field = if field.is_empty() {
                    String::new()
                } else {
                    format!("{field}: ")
                };
                out.push(diagnostic(
                    range,
                    severity,
                    format!(
                        "{field}Invalid value: compilation failed: {}",
                        issue.message
                    ),
                ));
            }
        }
    }
    out
}

/// One `ERROR: <input>:L:C: message` of a CEL compilation message.
#[derive(Debug, PartialEq)]
struct CelIssue {
    line: u32,
    column: u32,
    message: String,
}

/// The CEL issues a finding's message carries (cel-go's rendering, as upstream prints it).
fn cel_issues(message: &str) -> Vec<CelIssue> {
    const MARK: &str = "ERROR: <input>:";
    let mut out = Vec::new();
    let mut rest = message;
    while let Some(i) = rest.find(MARK) {
        let after = &rest[i + MARK.len()..];
        let mut parts = after.splitn(3, ':');
        let (Some(l), Some(c), Some(tail)) = (parts.next(), parts.next(), parts.next()) else {
            break;
        };
        let (Ok(line), Ok(column)) = (l.parse::<u32>(), c.parse::<u32>()) else {
            rest = after;
            continue;
        };
        let text = tail.trim_start().lines().next().unwrap_or("").trim_end();
        out.push(CelIssue {
            line,
            column,
            message: format!("ERROR: <input>:{line}:{column}: {text}"),
        });
        rest = after;
    }
    out
}

/// Where character `column` (1-based) of line `line` (1-based) of a rule is written, given
/// where the rule's YAML or JSON scalar starts: plain, single- or double-quoted, literal
/// (`|`) or folded (`>`) scalars.
fn rule_position(
    text: &str,
    index: &LineIndex,
    start: Position,
    line: u32,
    column: u32,
) -> Option<Position> {
    let first_line = start.line as usize;
    let line_text = index.line(text, first_line);
    let from = index.offset(text, start) - index.offset(text, Position::new(start.line, 0));
    let rest = line_text.get(from..)?;
    let skip = column.saturating_sub(1) as usize;
    let at_char = |line0: usize, byte: usize| {
        let offset = index.offset(text, Position::new(line0 as u32, 0)) + byte;
        index.position(text, offset)
    };
    // A block scalar's value may be located at its first content line rather than at its
    // indicator (`rule: |` on the line before).
    let indicator = |l: &str| {
        let t = l
            .trim_end()
            .trim_end_matches(|c: char| c == '-' || c == '+' || c.is_ascii_digit());
        let c = t.chars().last()?;
        (matches!(c, '|' | '>') && t[..t.len() - 1].trim_end().ends_with(':')).then_some(c)
    };
    let block_before = (first_line > 0)
        .then(|| indicator(index.line(text, first_line - 1)))
        .flatten();
    let (first_line, first) = match block_before {
        Some(c) => (first_line - 1, c),
        None => (first_line, rest.chars().next()?),
    };
    match first {
        quote @ ('"' | '\'') => {
            if line != 1 {
                return None;
            }
            // Walk the source, one rule character per source character or escape.
            let mut chars = rest.char_indices().skip(1).peekable();
            let mut n = 0;
            while let Some((i, c)) = chars.next() {
                if n == skip {
                    return Some(at_char(first_line, from + i));
                }
                if c == quote && quote == '\'' && chars.peek().is_some_and(|&(_, d)| d == '\'') {
                    chars.next();
                } else if c == quote {
                    return None;
                } else if c == '\\' && quote == '"' {
                    let width = match chars.peek().map(|&(_, d)| d) {
                        Some('x') => 3,
                        Some('u') => 5,
                        Some('U') => 9,
                        _ => 1,
                    };
                    for _ in 0..width {
                        chars.next();
                    }
                }
                n += 1;
            }
            None
        }
        block @ ('|' | '>') => {
            // The content lines follow, indented alike (the first one sets the indent).
            let mut lines = Vec::new();
            let mut indent = None;
            for l in first_line + 1.. {
                if l as u32 > index.last_line() {
                    break;
                }
                let t = index.line(text, l);
                if t.trim().is_empty() {
                    lines.push((l, 0, ""));
                    continue;
                }
                let this = t.len() - t.trim_start().len();
                let want = *indent.get_or_insert(this);
                if this < want {
                    break;
                }
                lines.push((l, want, &t[want..]));
            }
            if block == '|' {
                let &(l, indent, content) = lines.get(line as usize - 1)?;
                let byte = content
                    .char_indices()
                    .nth(skip)
                    .map_or(content.len(), |(i, _)| i);
                return Some(at_char(l, indent + byte));
            }
            if line != 1 {
                return None;
            }
            folded(&lines, skip).map(|(l, byte)| at_char(l, byte))
        }
        _ => {
            if line != 1 {
                return None;
            }
            // A plain scalar, folded over the more indented lines that follow.
            let key_indent = line_text.len() - line_text.trim_start().len();
            let mut lines = vec![(first_line, from, rest.trim_end())];
            for l in first_line + 1.. {
                if l as u32 > index.last_line() {
                    break;
                }
                let t = index.line(text, l);
                let this = t.len() - t.trim_start().len();
                if t.trim().is_empty() || this <= key_indent {
                    break;
                }
                lines.push((l, this, t.trim()));
            }
            folded(&lines, skip).map(|(l, byte)| at_char(l, byte))
        }
    }
}

/// The (line, byte in line) of character `skip` of the lines folded into one with spaces.
fn folded(lines: &[(usize, usize, &str)], mut skip: usize) -> Option<(usize, usize)> {
    for &(l, indent, content) in lines {
        let n = content.chars().count();
        if skip < n {
            let byte = content
                .char_indices()
                .nth(skip)
                .map_or(content.len(), |(i, _)| i);
            return Some((l, indent + byte));
        }
        skip -= n + 1;
    }
    None
}

/// The identifier (or one character) at `at`; at a `.`, the dot and the field name after it
/// (cel-go locates a field selection at its dot).
fn identifier_range(text: &str, index: &LineIndex, at: Position) -> Range {
    let line = index.line(text, at.line as usize);
    let start = index.offset(text, at) - index.offset(text, Position::new(at.line, 0));
    let rest = line.get(start..).unwrap_or("");
    let dot = usize::from(rest.starts_with('.'));
    let len = dot
        + rest[dot..]
            .char_indices()
            .find(|&(_, c)| !(c.is_alphanumeric() || c == '_'))
            .map_or(rest.len(), |(i, _)| i);
    let len = if len == dot {
        rest.chars().next().map_or(0, char::len_utf8)
    } else {
        len
    };
    let end = index.offset(text, at) + len;
    Range::new(at, index.position(text, end))
}

/// One step from a schema node to a child.
#[derive(Debug, Clone, PartialEq)]
enum SchemaStep {
    Property(String),
    Items,
    Additional,
}

/// One `x-kubernetes-validations` rule of a CRD file, with where it is written.
#[derive(Debug)]
struct RuleSite {
    /// The CRD document (its parsed value).
    crd: Value,
    version: String,
    schema: Value,
    path: Vec<SchemaStep>,
    index: usize,
    /// Where the rule's value starts.
    start: Position,
    /// The last line of the value (a block or folded scalar spans several).
    last_line: u32,
}

/// The rules of every CRD of `text`.
fn rule_sites(text: &str, index: &LineIndex, syntax: Syntax) -> Vec<RuleSite> {
    let mut out = Vec::new();
    for entry in kdv_manifest::documents(text.as_bytes(), syntax, Default::default()) {
        let Ok(Entry::Document(doc)) = entry else {
            continue;
        };
        if doc.value.get("kind").and_then(Value::as_str) != Some("CustomResourceDefinition") {
            continue;
        }
        let Some(versions) = doc
            .value
            .pointer("/spec/versions")
            .and_then(Value::as_array)
        else {
            continue;
        };
        let mut found: Vec<(Vec<StepBuf>, RuleSite)> = Vec::new();
        for (i, v) in versions.iter().enumerate() {
            let Some(schema) = v.pointer("/schema/openAPIV3Schema") else {
                continue;
            };
            let json_path = vec![
                StepBuf::Key("spec".into()),
                StepBuf::Key("versions".into()),
                StepBuf::Index(i),
                StepBuf::Key("schema".into()),
                StepBuf::Key("openAPIV3Schema".into()),
            ];
            let mut sites = Vec::new();
            walk(schema, &json_path, &mut Vec::new(), &mut sites);
            for (json, path, j) in sites {
                found.push((
                    json,
                    RuleSite {
                        crd: Value::Null,
                        version: v.get("name").and_then(Value::as_str).unwrap_or("").into(),
                        schema: schema.clone(),
                        path,
                        index: j,
                        start: Position::default(),
                        last_line: 0,
                    },
                ));
            }
        }
        let paths: Vec<Vec<Step<'_>>> = found
            .iter()
            .map(|(json, _)| json.iter().map(StepBuf::as_step).collect())
            .collect();
        let mut queries = Vec::new();
        for p in &paths {
            queries.push(Query {
                path: p,
                target: Target::Value,
            });
            queries.push(Query {
                path: p,
                target: Target::Key,
            });
        }
        let positions = doc.locate(&queries);
        for (k, (_, mut site)) in found.into_iter().enumerate() {
            let value = positions[2 * k];
            let key = positions[2 * k + 1];
            site.start = index.at_char_column(text, value.line, value.column);
            let key_indent = key.column.saturating_sub(1) as usize;
            let mut last = site.start.line;
            // The value goes on over the lines indented past its key.
            for l in site.start.line + 1..=index.last_line() {
                let t = index.line(text, l as usize);
                if t.trim().is_empty() {
                    continue;
                }
                if t.len() - t.trim_start().len() <= key_indent {
                    break;
                }
                last = l;
            }
            site.last_line = last;
            site.crd = doc.value.clone();
            out.push(site);
        }
    }
    out
}

type Found = (Vec<StepBuf>, Vec<SchemaStep>, usize);

/// The rules under `schema` (at `json` in the document, `path` in the schema).
fn walk(schema: &Value, json: &[StepBuf], path: &mut Vec<SchemaStep>, out: &mut Vec<Found>) {
    let child = |key: &str| {
        let mut j = json.to_vec();
        j.push(StepBuf::Key(key.into()));
        j
    };
    if let Some(rules) = schema
        .get("x-kubernetes-validations")
        .and_then(Value::as_array)
    {
        for (i, r) in rules.iter().enumerate() {
            if r.get("rule").is_some_and(Value::is_string) {
                let mut j = child("x-kubernetes-validations");
                j.push(StepBuf::Index(i));
                j.push(StepBuf::Key("rule".into()));
                out.push((j, path.clone(), i));
            }
        }
    }
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (name, s) in props {
            let mut j = child("properties");
            j.push(StepBuf::Key(name.clone()));
            path.push(SchemaStep::Property(name.clone()));
            walk(s, &j, path, out);
            path.pop();
        }
    }
    if let Some(items) = schema.get("items").filter(|v| v.is_object()) {
        path.push(SchemaStep::Items);
        walk(items, &child("items"), path, out);
        path.pop();
    }
    if let Some(extra) = schema.get("additionalProperties").filter(|v| v.is_object()) {
        path.push(SchemaStep::Additional);
        walk(extra, &child("additionalProperties"), path, out);
        path.pop();
    }
}

/// The rule whose value holds `at`.
fn site_at(text: &str, index: &LineIndex, syntax: Syntax, at: Position) -> Option<RuleSite> {
    rule_sites(text, index, syntax).into_iter().find(|s| {
        (s.start.line < at.line || (s.start.line == at.line && s.start.character <= at.character))
            && at.line <= s.last_line
    })
}

/// What a rule's node is to CEL, with its cost.
struct RuleFacts {
    self_type: DeclType,
    is_root: bool,
    compiled: Option<kdv_openapi::cel::RuleCompilation>,
}

fn facts(site: &RuleSite, minor: u32) -> Option<RuleFacts> {
    let group = site
        .crd
        .pointer("/spec/group")
        .and_then(Value::as_str)
        .unwrap_or("");
    let kind = site
        .crd
        .pointer("/spec/names/kind")
        .and_then(Value::as_str)
        .unwrap_or("");
    let resource =
        kdv_openapi::Resource::from_crd_schema(group, &site.version, kind, &site.schema, minor)
            .ok()?;
    let (arena, mut node) = resource.schema();
    for step in &site.path {
        let n = arena.node(node);
        node = match step {
            SchemaStep::Property(name) => n.property(name)?,
            SchemaStep::Items => n.items?,
            SchemaStep::Additional => match n.additional {
                Additional::Schema(c) => c,
                _ => return None,
            },
        };
    }
    let is_root = site.path.is_empty();
    let self_type = kdv_openapi::cel::schema_decl_type(arena, node, is_root)?;
    let compiled = kdv_openapi::cel::compile_rules_at(&resource, node, is_root)
        .ok()
        .and_then(|rules| rules.into_iter().nth(site.index));
    Some(RuleFacts {
        self_type,
        is_root,
        compiled,
    })
}

/// A CEL type as cel-go spells it, objects with their fields (two levels deep).
pub fn type_text(t: &DeclType, depth: usize) -> String {
    match &t.kind {
        DeclKind::Dyn => "dyn".into(),
        DeclKind::Bool => "bool".into(),
        DeclKind::Int => "int".into(),
        DeclKind::Double => "double".into(),
        DeclKind::String => "string".into(),
        DeclKind::Bytes => "bytes".into(),
        DeclKind::Duration => "google.protobuf.Duration".into(),
        DeclKind::Timestamp => "google.protobuf.Timestamp".into(),
        DeclKind::List(e) => format!("list({})", type_text(e, depth)),
        DeclKind::Map(v) => format!("map(string, {})", type_text(v, depth)),
        DeclKind::Object(fields) if depth >= 2 => {
            format!("object{{… {} fields}}", fields.len())
        }
        DeclKind::Object(fields) => {
            let shown: Vec<String> = fields
                .iter()
                .take(16)
                .map(|f| format!("{}: {}", f.name, type_text(&f.ty, depth + 1)))
                .collect();
            let more = if fields.len() > 16 { ", …" } else { "" };
            format!("object{{{}{more}}}", shown.join(", "))
        }
    }
}

/// Hover over a rule: the type of `self` (and `oldSelf`), the estimated cost and its share
/// of the per-rule and per-CRD budgets.
pub fn hover(
    text: &str,
    index: &LineIndex,
    syntax: Syntax,
    at: Position,
    minor: u32,
) -> Option<String> {
    let site = site_at(text, index, syntax, at)?;
    let facts = facts(&site, minor)?;
    let mut md = format!(
        "**CEL rule** `x-kubernetes-validations[{}]` of version `{}` at `{}`\n\n",
        site.index,
        site.version,
        schema_path_text(&site.path)
    );
    let ty = type_text(&facts.self_type, 0);
    md.push_str(&format!(
        "- `self`: `{ty}`{}\n",
        if facts.is_root {
            " (the resource root)"
        } else {
            ""
        }
    ));
    if let Some(c) = &facts.compiled {
        if c.uses_old_self {
            md.push_str(&format!(
                "- `oldSelf`: `{ty}` (a transition rule: runs on update only)\n"
            ));
        }
        if let Some(e) = &c.error {
            md.push_str(&format!("- does not compile: {}\n", e.detail));
        } else {
            let per_rule = kdv_cel::cost::STATIC_ESTIMATED_COST_LIMIT;
            let per_crd = kdv_cel::cost::STATIC_ESTIMATED_CRD_COST_LIMIT;
            let total = kdv_cel::cost::expression_cost(c.max_cost, c.max_cardinality);
            md.push_str(&format!(
                "- estimated cost: {} per evaluation ({} of the per-rule limit {})\n",
                c.max_cost,
                share(c.max_cost, per_rule),
                per_rule
            ));
            md.push_str(&format!(
                "- evaluations per request at most: {}; cost × evaluations: {} ({} of the CRD's limit {})\n",
                c.max_cardinality,
                total,
                share(total, per_crd),
                per_crd
            ));
        }
    }
    Some(md)
}

fn share(cost: u64, limit: u64) -> String {
    let pct = cost as f64 * 100.0 / limit as f64;
    if pct >= 0.01 || cost == 0 {
        format!("{pct:.2}%")
    } else {
        "<0.01%".into()
    }
}

fn schema_path_text(path: &[SchemaStep]) -> String {
    if path.is_empty() {
        return "the root".into();
    }
    let mut s = String::new();
    for step in path {
        match step {
            SchemaStep::Property(p) => {
                s.push('.');
                s.push_str(p);
            }
            SchemaStep::Items => s.push_str("[*]"),
            SchemaStep::Additional => s.push_str("[*key]"),
        }
    }
    s
}

/// Completion inside a rule after `self.` or `oldSelf.` (and `self.a.b.`): the fields of
/// the value there.
pub fn completion(
    text: &str,
    index: &LineIndex,
    syntax: Syntax,
    at: Position,
    minor: u32,
) -> Vec<CompletionItem> {
    let line = index.line(text, at.line as usize);
    let cut = index.offset(text, at) - index.offset(text, Position::new(at.line, 0));
    let before = line.get(..cut).unwrap_or("");
    let Some(site) = site_at(text, index, syntax, at) else {
        return Vec::new();
    };
    let word = before.trim_end_matches(|c: char| c.is_alphanumeric() || c == '_');
    let member = word.ends_with('.');
    let Some(chain) = member_chain(before) else {
        return functions(minor, member, None);
    };
    let Some(facts) = facts(&site, minor) else {
        return Vec::new();
    };
    let mut ty = &facts.self_type;
    for name in &chain {
        ty = match &ty.kind {
            DeclKind::Object(fields) => match fields.iter().find(|f| &*f.name == name) {
                Some(f) => &f.ty,
                None => return functions(minor, true, None),
            },
            DeclKind::Map(v) => v,
            _ => return functions(minor, true, None),
        };
    }
    let DeclKind::Object(fields) = &ty.kind else {
        return functions(minor, true, Some(&type_text(ty, 2)));
    };
    fields
        .iter()
        .map(|f| CompletionItem {
            label: f.name.to_string(),
            kind: Some(CompletionItemKind::FIELD),
            detail: Some(type_text(&f.ty, 1)),
            documentation: Some(Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: if f.required {
                    "required: always present".into()
                } else {
                    format!("optional: guard with `has(….{})`", f.name)
                },
            })),
            ..CompletionItem::default()
        })
        .collect()
}

/// The functions of the rule environment of Kubernetes 1.`minor` (member functions after a
/// `.`, those taking `receiver` when its type is known; global ones elsewhere), each with
/// its signatures.
fn functions(minor: u32, member: bool, receiver: Option<&str>) -> Vec<CompletionItem> {
    use kdv_cel::k8s::{self, EnvType};
    let env = k8s::shared_env(minor, EnvType::NewExpressions);
    let mut by_name: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
    for f in env.functions() {
        let name = f.name.as_str();
        if !name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
            || name.starts_with('_')
        {
            continue;
        }
        for o in f.overloads.iter().filter(|o| o.member == member) {
            let params: Vec<String> = o.params.iter().map(ToString::to_string).collect();
            if let (Some(r), Some(p)) = (receiver, params.first())
                && !takes(p, r)
            {
                continue;
            }
            let signature = if member && !params.is_empty() {
                format!(
                    "{}.{name}({}) -> {}",
                    params[0],
                    params[1..].join(", "),
                    o.result
                )
            } else {
                format!("{name}({}) -> {}", params.join(", "), o.result)
            };
            let all = by_name.entry(name).or_default();
            if !all.contains(&signature) {
                all.push(signature);
            }
        }
    }
    by_name
        .into_iter()
        .map(|(name, signatures)| CompletionItem {
            label: name.to_string(),
            kind: Some(CompletionItemKind::FUNCTION),
            detail: signatures.first().cloned(),
            documentation: Some(Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: signatures
                    .iter()
                    .map(|s| format!("- `{s}`"))
                    .collect::<Vec<_>>()
                    .join("\n"),
            })),
            ..CompletionItem::default()
        })
        .collect()
}

/// Whether a parameter of type `param` (cel-go's spelling) takes a value of type `value`.
fn takes(param: &str, value: &str) -> bool {
    let generic =
        |p: &str| p == "dyn" || (p.len() == 1 && p.chars().all(|c| c.is_ascii_uppercase()));
    param == value
        || generic(param)
        || (param.starts_with("list(") && value.starts_with("list("))
        || (param.starts_with("map(") && value.starts_with("map("))
}

/// The field names after `self` (or `oldSelf`) in `self.a.b.` (the text before the cursor
/// ends with a dot or a partial name); `None` when it does not end so.
fn member_chain(before: &str) -> Option<Vec<String>> {
    let trimmed = before.trim_end_matches(|c: char| c.is_alphanumeric() || c == '_');
    let trimmed = trimmed.strip_suffix('.')?;
    let start = trimmed
        .char_indices()
        .rev()
        .find(|&(_, c)| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let mut parts = trimmed[start..].split('.');
    let head = parts.next()?;
    if head != "self" && head != "oldSelf" {
        return None;
    }
    Some(parts.map(str::to_string).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Gizmo CRD of the `kdv lsp` end-to-end tests with a third rule, a block scalar
    /// over two lines naming a field the schema lacks (`colour`), on lines 22 to 25.
    fn crd() -> String {
        let crd = include_str!("../../../tests/fixtures/lsp/gizmo-crd.yaml");
        let properties = "            properties:\n              size:";
        assert!(crd.contains(properties), "the fixture's spec properties");
        crd.replacen(
            properties,
            &format!(
                "            - rule: |\n                self.size >= 0 &&\n                \
                 self.colour == 'red'\n              message: a red gizmo\n{properties}"
            ),
            1,
        )
    }

    #[test]
    fn cel_errors_are_at_their_token_inside_the_rule() {
        let crd = crd();
        let index = LineIndex::new(&crd);
        let found = diagnostics("gizmo.yaml", &crd, &index, 35);
        let cel: Vec<_> = found
            .iter()
            .filter(|d| d.message.contains("compilation failed"))
            .map(|d| {
                (
                    d.range.start.line,
                    d.range.start.character,
                    d.range.end.character,
                )
            })
            .collect();
        // `.sise` on line 21 (0-based 20) of `- rule: self.sise > 0`; `.colour` on the
        // second line of the block.
        assert_eq!(cel, [(20, 24, 29), (23, 20, 27)], "{found:#?}");
    }

    #[test]
    fn hover_and_completion_know_self() {
        let crd = crd();
        let index = LineIndex::new(&crd);
        let md = hover(&crd, &index, Syntax::Yaml, Position::new(19, 20), 35).expect("a rule");
        assert!(
            md.contains("`self`: `object{maxSize: int, size: int}`"),
            "{md}"
        );
        assert!(md.contains("estimated cost:"), "{md}");
        let items = completion(&crd, &index, Syntax::Yaml, Position::new(19, 26), 35);
        let labels: Vec<_> = items.iter().map(|i| i.label.as_str()).collect();
        assert_eq!(labels, ["maxSize", "size"]);
        // After a list: its member functions; at a word's start: global ones.
        let text = crd.replace(
            "- rule: \"self.size <= self.maxSize\"",
            "- rule: \"self.size <= q\"",
        );
        let index = LineIndex::new(&text);
        let globals = completion(&text, &index, Syntax::Yaml, Position::new(19, 33), 35);
        let quantity = globals
            .iter()
            .find(|i| i.label == "quantity")
            .expect("quantity()");
        assert_eq!(
            quantity.detail.as_deref(),
            Some("quantity(string) -> kubernetes.Quantity")
        );
        assert!(!globals.iter().any(|i| i.label == "startsWith"));
        assert!(takes("list(A)", "list(int)") && takes("string", "string"));
        assert!(!takes("string", "int"));
    }

    #[test]
    fn issues_and_chains() {
        let m = "compilation failed: ERROR: <input>:1:6: undeclared reference to 'x'\n | self.x\n | .....^";
        assert_eq!(
            cel_issues(m),
            [CelIssue {
                line: 1,
                column: 6,
                message: "ERROR: <input>:1:6: undeclared reference to 'x'".into()
            }]
        );
        assert_eq!(
            member_chain("  - rule: self.spec.si"),
            Some(vec!["spec".into()])
        );
        assert_eq!(member_chain("oldSelf."), Some(vec![]));
        assert_eq!(member_chain("size(self"), None);
    }
}
