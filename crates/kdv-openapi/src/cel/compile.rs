//! Compiling the `x-kubernetes-validations` rules of a schema (apiextensions-apiserver
//! `cel.Compile`, spec §5.2): per node with rules, each rule type-checked against the node's
//! declared type (`self`, `oldSelf`, or `optional_type` of it with `optionalOldSelf`), its
//! static cost estimated with the schema's sizes, its `messageExpression` checked to be a
//! string, its `fieldPath` normalized. Done once per [`crate::Resource`] on first use, and by
//! the CRD write-time checks.

use std::sync::OnceLock;

use kdv_cel::checker::{self, CheckedExpr, Env};
use kdv_cel::cost::{self, CostOptions};
use kdv_cel::interp::Program;
use kdv_cel::k8s::{self, EnvType};
use kdv_cel::types::Type;
use serde_json::Value;

use super::decl::schema_decl_type;
use super::provider::RuleTypes;
use crate::schema::{Arena, NodeId};

/// One `x-kubernetes-validations` entry as written (`ValidationRule`).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct RuleSource {
    pub rule: String,
    pub message: String,
    pub message_expression: String,
    pub reason: Option<String>,
    pub field_path: String,
    pub optional_old_self: Option<bool>,
}

impl RuleSource {
    /// The entries of a node's raw `x-kubernetes-validations` (the CRD was validated when
    /// loaded, so fields of other types are taken as unset).
    pub(crate) fn parse_all(raw: &Value) -> Vec<RuleSource> {
        let Some(list) = raw.as_array() else {
            return Vec::new();
        };
        list.iter()
            .map(|r| {
                let s = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
                RuleSource {
                    rule: s("rule"),
                    message: s("message"),
                    message_expression: s("messageExpression"),
                    reason: r.get("reason").and_then(Value::as_str).map(str::to_owned),
                    field_path: s("fieldPath"),
                    optional_old_self: r.get("optionalOldSelf").and_then(Value::as_bool),
                }
            })
            .collect()
    }

    /// `ruleErrorString`: the trimmed message if set, else the trimmed rule.
    pub(crate) fn error_string(&self) -> &str {
        if !self.message.is_empty() {
            trim_space(&self.message)
        } else {
            trim_space(&self.rule)
        }
    }

    /// `ruleMessageOrDefault`.
    pub(crate) fn message_or_default(&self) -> String {
        if self.message.is_empty() {
            format!("failed rule: {}", self.error_string())
        } else {
            trim_space(&self.message).to_owned()
        }
    }

    /// Whether `optionalOldSelf: true`.
    pub(crate) fn optional(&self) -> bool {
        self.optional_old_self == Some(true)
    }
}

/// Go's `strings.TrimSpace`.
pub(crate) fn trim_space(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace())
}

/// Why a rule did not compile (`apiservercel.Error`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RuleError {
    /// `ErrorTypeRequired` (reported as `field.Required`) rather than invalid/internal.
    pub required: bool,
    /// The detail (`compilation failed: ...`, `cel expression must evaluate to a bool`, ...).
    pub detail: String,
}

/// One compiled rule (`CompilationResult`).
#[derive(Debug)]
pub(crate) struct CompiledRule {
    pub source: RuleSource,
    /// `None` for an empty rule or a rule that did not compile.
    pub program: Option<Program>,
    pub error: Option<RuleError>,
    /// The rule references `oldSelf` (a transition rule).
    pub uses_old_self: bool,
    /// The static cost estimate's maximum.
    pub max_cost: u64,
    /// How often the node can occur in a request (`maxCardinality` of its smallest size).
    pub max_cardinality: u64,
    pub message_program: Option<Program>,
    pub message_error: Option<RuleError>,
    pub message_max_cost: u64,
    /// The `fieldPath` as `ValidFieldPath` renders it, when set and valid.
    pub field_path: Option<Box<str>>,
}

/// The compiled rules of one schema node.
#[derive(Debug)]
pub(crate) struct NodeRules {
    pub rules: Box<[CompiledRule]>,
    /// The node's schema `type` (the value of most rule errors).
    pub type_text: Box<str>,
    /// Some rule references `oldSelf`.
    pub any_old_self: bool,
    /// The node's declared type could not be built (`rule compiler initialization error`).
    pub init_error: Option<String>,
}

/// Which CEL environment compiles a schema's rules: one environment type of a Kubernetes
/// release. The CRD write-time checks use NewExpressions (a CRD create adds every rule);
/// validating objects and defaults uses StoredExpressions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RuleEnv {
    /// The Kubernetes minor version (1.x).
    pub minor: u32,
    pub env_type: EnvType,
    /// kdv's `+validationRule` on types: the release's environment plus kdv's own CEL
    /// libraries (`kdv_cel::k8s::shared_type_rule_env`), never a CRD's.
    pub type_rules: bool,
}

impl RuleEnv {
    /// The NewExpressions environment of Kubernetes 1.`minor`.
    pub(crate) fn new_expressions(minor: u32) -> RuleEnv {
        RuleEnv {
            minor,
            env_type: EnvType::NewExpressions,
            type_rules: false,
        }
    }

    /// The StoredExpressions environment of Kubernetes 1.`minor`.
    pub(crate) fn stored_expressions(minor: u32) -> RuleEnv {
        RuleEnv {
            minor,
            env_type: EnvType::StoredExpressions,
            type_rules: false,
        }
    }

    /// This environment with kdv's type-rule libraries (see [`RuleEnv::type_rules`]).
    pub(crate) fn for_type_rules(self) -> RuleEnv {
        RuleEnv {
            type_rules: true,
            ..self
        }
    }

    /// The base environment (libraries, settings), built once per process.
    fn base(self) -> &'static Env {
        if self.type_rules {
            k8s::shared_type_rule_env(self.minor, self.env_type)
        } else {
            k8s::shared_env(self.minor, self.env_type)
        }
    }

    /// The program settings of this environment's rules, built once per process.
    fn program_options(self) -> &'static kdv_cel::interp::ProgramOptions {
        static TYPE_RULES: OnceLock<kdv_cel::interp::ProgramOptions> = OnceLock::new();
        if self.type_rules {
            TYPE_RULES.get_or_init(kdv_cel::k8s::type_rule_program_options)
        } else {
            program_options()
        }
    }

    /// Whether declared types recognise keyword field names in this environment.
    fn keyword_field_names(self) -> bool {
        k8s::features(self.minor, self.env_type).contains(k8s::Feature::KeywordFieldNames)
    }
}

/// The program settings of rules, built once per process.
fn program_options() -> &'static kdv_cel::interp::ProgramOptions {
    static OPTIONS: OnceLock<kdv_cel::interp::ProgramOptions> = OnceLock::new();
    OPTIONS.get_or_init(kdv_cel::k8s::program_options)
}

fn uses_old_self(checked: &CheckedExpr) -> bool {
    checked
        .references
        .iter()
        .flatten()
        .any(|r| r.name.as_deref() == Some("oldSelf"))
}

/// Compiles the rules of node `id` (`resource_root`: the CRD root or an embedded resource)
/// in `env`. `None` when the node has no rules.
pub(crate) fn compile_node(
    arena: &Arena,
    id: NodeId,
    resource_root: bool,
    env: RuleEnv,
) -> Option<NodeRules> {
    compile_node_with(arena, id, id, resource_root, env)
}

/// Compiles the rules written on node `rules` against the type of node `id` (they differ
/// for the rules of an `allOf` entry, typed by the structural schema they apply to).
pub(crate) fn compile_node_with(
    arena: &Arena,
    rules: NodeId,
    id: NodeId,
    resource_root: bool,
    env: RuleEnv,
) -> Option<NodeRules> {
    let node = arena.node(id);
    let sources = RuleSource::parse_all(arena.node(rules).x_validations.as_deref()?);
    if sources.is_empty() {
        return None;
    }
    // Upstream's errors show the structural schema's `type`, which an int-or-string node
    // leaves empty (kube-openapi's list is "integer,string").
    let type_text: Box<str> = if node.extensions.int_or_string {
        "".into()
    } else {
        node.type_text().into()
    };
    let Some(decl) = schema_decl_type(arena, id, resource_root) else {
        return Some(NodeRules {
            rules: Box::new([]),
            type_text,
            any_old_self: false,
            init_error: Some("failed to convert to declType for CEL validation rules".into()),
        });
    };
    let max_cardinality =
        cost::max_cardinality(u64::try_from(decl.min_serialized_size).unwrap_or(0));
    let types =
        RuleTypes::new(decl, "selfType0").with_keyword_field_names(env.keyword_field_names());
    let sizes = types.sizes();
    let mut envs: [Option<Env>; 2] = [None, None];
    let rules: Box<[CompiledRule]> = sources
        .into_iter()
        .map(|source| {
            let optional = source.optional();
            let rule_env =
                envs[usize::from(optional)].get_or_insert_with(|| types.env(env.base(), optional));
            let costs = CostOptions::kubernetes_for(env.minor);
            let options = env.program_options();
            compile_rule(
                arena,
                id,
                source,
                (rule_env, options),
                &sizes,
                &costs,
                max_cardinality,
            )
        })
        .collect();
    let any_old_self = rules.iter().any(|r| r.uses_old_self);
    Some(NodeRules {
        rules,
        type_text,
        any_old_self,
        init_error: None,
    })
}

fn invalid(detail: String) -> Option<RuleError> {
    Some(RuleError {
        required: false,
        detail,
    })
}

fn compile_rule(
    arena: &Arena,
    id: NodeId,
    source: RuleSource,
    (env, options): (&Env, &kdv_cel::interp::ProgramOptions),
    sizes: &super::SchemaSizes,
    costs: &CostOptions,
    max_cardinality: u64,
) -> CompiledRule {
    let mut out = CompiledRule {
        source,
        program: None,
        error: None,
        uses_old_self: false,
        max_cost: 0,
        max_cardinality: 0,
        message_program: None,
        message_error: None,
        message_max_cost: 0,
        field_path: None,
    };
    if trim_space(&out.source.rule).is_empty() {
        return out;
    }
    let checked = match checker::compile(&out.source.rule, env) {
        Ok(c) => c,
        Err(issues) => {
            out.error = invalid(format!("compilation failed: {issues}"));
            return out;
        }
    };
    if checked.result_type != Type::Bool {
        out.error = invalid("cel expression must evaluate to a bool".into());
        return out;
    }
    out.uses_old_self = uses_old_self(&checked);
    let program = Program::from_checked(&checked, options);
    if let Some(e) = program.plan_errors().first() {
        out.error = invalid(format!("program instantiation failed: {}", e.message));
        return out;
    }
    match cost::estimate_cost(&checked, sizes, costs) {
        Ok(c) => out.max_cost = c.max,
        Err(e) => {
            out.error = invalid(format!("cost estimation failed: {e}"));
            return out;
        }
    }
    out.max_cardinality = max_cardinality;
    out.program = Some(program);
    if !out.source.message_expression.is_empty() {
        match checker::compile(&out.source.message_expression, env) {
            Err(issues) => {
                out.message_error =
                    invalid(format!("messageExpression compilation failed: {issues}"));
            }
            Ok(checked) if checked.result_type != Type::String => {
                out.message_error = invalid("messageExpression must evaluate to a string".into());
            }
            Ok(checked) => {
                let program = Program::from_checked(&checked, options);
                if let Some(e) = program.plan_errors().first() {
                    out.message_error = invalid(format!(
                        "messageExpression instantiation failed: {}",
                        e.message
                    ));
                } else {
                    match cost::estimate_cost(&checked, sizes, costs) {
                        Ok(c) => {
                            out.message_max_cost = c.max;
                            out.message_program = Some(program);
                        }
                        Err(e) => {
                            out.message_error = invalid(format!(
                                "cost estimation failed for messageExpression: {e}"
                            ));
                        }
                    }
                }
            }
        }
    }
    if !out.source.field_path.is_empty()
        && let Ok(p) = super::field_path::valid_field_path(&out.source.field_path, arena, id)
    {
        out.field_path = Some(p.to_string().into());
    }
    out
}
