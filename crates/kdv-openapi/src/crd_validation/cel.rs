//! The CEL checks of `x-kubernetes-validations` rules at CRD write time (spec §5.1.2): each
//! rule compiled against its node's declared type in the NewExpressions environment of the
//! release (compile errors, `messageExpression` errors), its estimated cost times how often its node can occur against the per-rule
//! limit and, summed, against the per-CRD limit, `oldSelf` on uncorrelatable parts of the
//! schema, and `optionalOldSelf` without `oldSelf`.
//!
//! Run only when the schema is structural with valid defaults (upstream's CEL context), and
//! at a node only when no schema error was found at it or below. The errors come after the
//! schema errors, in the order upstream finds them (children before their parent).

use kdv_cel::cost::{
    STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT, cost_exceeds_budget_message,
};
use kdv_runtime::{BadValue, ErrorList, FieldError, FieldPath};

use super::model::Props;
use super::path::{forbidden, invalid, required};
use crate::cel::{RuleEnv, compile_node};
use crate::schema::{Additional, Arena, NodeId};

/// `TotalCost`: the sum of all costs and the (up to 4) largest contributions of at least 1%
/// of the CRD limit.
#[derive(Default)]
struct TotalCost {
    total: u64,
    most_expensive: Vec<(FieldPath, u64)>,
}

impl TotalCost {
    fn observe(&mut self, path: FieldPath, cost: u64) {
        self.total = self.total.saturating_add(cost);
        if cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100 {
            return;
        }
        self.most_expensive.push((path, cost));
        self.most_expensive.sort_by_key(|e| std::cmp::Reverse(e.1));
        self.most_expensive.truncate(4);
    }
}

struct Walk<'w> {
    arena: &'w Arena,
    /// The environment rules compile in: a CRD create adds every rule, so NewExpressions.
    env: RuleEnv,
    /// Paths of the schema errors found (no CEL check at a node with one at or below it).
    schema_errors: &'w [String],
    total: TotalCost,
    out: ErrorList,
}

/// The CEL checks of the schema `schema` at `path` (`...openAPIV3Schema`), given the
/// schema errors already found; appends their errors to `out`.
pub(crate) fn check(
    schema: &Props<'_>,
    path: &FieldPath,
    opts: &super::Opts,
    schema_errors: &[FieldError],
    out: &mut ErrorList,
) {
    if !has_rules(schema) {
        return;
    }
    let minor = opts.kubernetes_minor;
    let Ok((arena, root)) =
        crate::build::compile_crd_schema(schema.raw.0, Vec::new(), minor, false)
    else {
        return;
    };
    let paths: Vec<String> = schema_errors.iter().map(|e| e.field.to_string()).collect();
    let mut w = Walk {
        arena: &arena,
        env: if opts.type_rules {
            RuleEnv::new_expressions(minor).for_type_rules()
        } else {
            RuleEnv::new_expressions(minor)
        },
        schema_errors: &paths,
        total: TotalCost::default(),
        out: ErrorList::new(),
    };
    w.node(schema, Some(root), path, Some(1), None, true);
    out.append(&mut w.out);
    if w.total.total > STATIC_ESTIMATED_CRD_COST_LIMIT {
        for (p, _) in &w.total.most_expensive {
            out.push(forbidden(
                p,
                "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
            ));
        }
        out.push(forbidden(
            path,
            cost_exceeds_budget_message(
                "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
                w.total.total,
                STATIC_ESTIMATED_CRD_COST_LIMIT,
            ),
        ));
    }
    if let Some(compiled) = opts.compiled {
        compiled.keep(schema.raw.0, arena, root);
    }
}

fn has_rules(s: &Props<'_>) -> bool {
    !s.x_validations.is_empty()
        || s.properties.iter().any(|(_, p)| has_rules(p))
        || s.additional_properties
            .as_ref()
            .and_then(|a| a.schema.as_deref())
            .is_some_and(has_rules)
        || s.items_schema().is_some_and(has_rules)
}

/// `extractMaxElements`: how many children a value of `s` has at most (`None`: unbounded).
fn max_elements(s: &Props<'_>) -> Option<u64> {
    let zero_if_negative = |v: i64| u64::try_from(v).unwrap_or(0);
    match s.type_.as_str() {
        "object" if s.additional_properties.is_some() => s.max_properties.map(zero_if_negative),
        "array" => s.max_items.map(zero_if_negative),
        _ => Some(1),
    }
}

/// Whether `path` is `node` or below it.
fn under(path: &str, node: &str) -> bool {
    path.strip_prefix(node)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
}

impl Walk<'_> {
    /// One node: its children first (as upstream recurses before checking the node's own
    /// rules), then its rules. `cardinality`: how often the node can occur (`None`:
    /// unbounded); `uncorrelatable`: the highest ancestor whose children do not correlate.
    fn node(
        &mut self,
        s: &Props<'_>,
        id: Option<NodeId>,
        path: &FieldPath,
        cardinality: Option<u64>,
        uncorrelatable: Option<&FieldPath>,
        is_root: bool,
    ) {
        let node = id.map(|id| self.arena.node(id));
        let child_cardinality =
            cardinality.and_then(|c| max_elements(s).map(|m| c.saturating_mul(m)));
        if let Some(ap) = s
            .additional_properties
            .as_ref()
            .and_then(|a| a.schema.as_deref())
        {
            let child = match node.map(|n| n.additional) {
                Some(Additional::Schema(c)) => Some(c),
                _ => None,
            };
            self.node(
                ap,
                child,
                &path.child("additionalProperties"),
                child_cardinality,
                uncorrelatable,
                false,
            );
        }
        let map_correlatable =
            matches!(s.x_map_type.as_deref(), None | Some("granular" | "atomic"));
        for (name, p) in &s.properties {
            let child = node.and_then(|n| n.property(name));
            let un = if map_correlatable {
                uncorrelatable
            } else {
                uncorrelatable.or(Some(path))
            };
            self.node(
                p,
                child,
                &path.child("properties").key(name),
                child_cardinality,
                un,
                false,
            );
        }
        if let Some(items) = s.items_schema() {
            let child = node.and_then(|n| n.items);
            let un = if s.x_list_type.as_deref() == Some("map") {
                uncorrelatable
            } else {
                uncorrelatable.or(Some(path))
            };
            self.node(
                items,
                child,
                &path.child("items"),
                child_cardinality,
                un,
                false,
            );
        }
        if s.x_validations.is_empty() {
            return;
        }
        let here = path.to_string();
        if self.schema_errors.iter().any(|e| under(e, &here)) {
            return;
        }
        let Some(id) = id else { return };
        let rules_path = path.child("x-kubernetes-validations");
        let resource = is_root || s.x_embedded_resource;
        let Some(nr) = compile_node(self.arena, id, resource, self.env) else {
            return;
        };
        if nr.init_error.is_some() {
            let msg = "internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations";
            self.out.push(FieldError::new(
                kdv_runtime::ErrorType::Internal,
                rules_path,
                BadValue::string(msg),
                msg,
            ));
            return;
        }
        for (i, (cr, rule)) in nr.rules.iter().zip(&s.x_validations).enumerate() {
            let p = rules_path.index(i);
            let rule_path = p.child("rule");
            let cost = match cardinality {
                Some(c) => cr.max_cost.saturating_mul(c),
                None => cr.max_cost.saturating_mul(cr.max_cardinality),
            };
            if cost > STATIC_ESTIMATED_COST_LIMIT {
                self.out.push(forbidden(
                    &rule_path,
                    cost_exceeds_budget_message(
                        "estimated rule cost",
                        cost,
                        STATIC_ESTIMATED_COST_LIMIT,
                    ),
                ));
            }
            self.total.observe(rule_path.clone(), cost);
            if let Some(e) = &cr.error {
                self.out.push(if e.required {
                    required(&rule_path, e.detail.clone())
                } else {
                    invalid(
                        &rule_path,
                        BadValue::Encoded(rule.to_go_json()),
                        e.detail.clone(),
                    )
                });
            }
            let message_path = p.child("messageExpression");
            if let Some(e) = &cr.message_error {
                self.out.push(invalid(
                    &message_path,
                    BadValue::Encoded(rule.to_go_json()),
                    e.detail.clone(),
                ));
            } else if cr.message_program.is_some() {
                if cr.message_max_cost > STATIC_ESTIMATED_COST_LIMIT {
                    self.out.push(forbidden(
                        &message_path,
                        cost_exceeds_budget_message(
                            "estimated messageExpression cost",
                            cr.message_max_cost,
                            STATIC_ESTIMATED_COST_LIMIT,
                        ),
                    ));
                }
                self.total.observe(message_path, cr.message_max_cost);
            }
            if cr.uses_old_self {
                if let Some(un) = uncorrelatable {
                    self.out.push(invalid(
                        &rule_path,
                        BadValue::string(&rule.rule),
                        format!(
                            "oldSelf cannot be used on the uncorrelatable portion of the schema within {un}"
                        ),
                    ));
                }
            } else if let Some(b) = rule.optional_old_self {
                self.out.push(invalid(
                    &p.child("optionalOldSelf"),
                    BadValue::Bool(b),
                    "may not be set if oldSelf is not used in rule",
                ));
            }
        }
    }
}
