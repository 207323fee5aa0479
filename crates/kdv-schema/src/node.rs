//! A schema node under construction: keywords, children and CEL rules, rendered to JSON
//! once complete. Keywords from several tags on one node are combined so that both hold
//! (the tighter bound wins, enums intersect).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

/// One `x-kubernetes-validations` rule.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    /// The CEL expression.
    pub rule: String,
    /// `message`.
    pub message: Option<String>,
    /// `messageExpression`.
    pub message_expression: Option<String>,
    /// `reason` (`FieldValueInvalid` when `None`).
    pub reason: Option<&'static str>,
    /// `fieldPath`.
    pub field_path: Option<String>,
    /// `optionalOldSelf`.
    pub optional_old_self: bool,
    /// The tag the rule publishes (not rendered; for notes about rules the server would
    /// refuse).
    pub origin: Option<Origin>,
}

/// The tag a rule comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct Origin {
    /// `+k8s:...`.
    pub tag: String,
    /// Where it is written.
    pub span: Option<kdv_model::SourceSpan>,
}

impl Rule {
    /// A rule with a message.
    pub fn new(rule: impl Into<String>, message: impl Into<String>) -> Rule {
        Rule {
            rule: rule.into(),
            message: Some(message.into()),
            message_expression: None,
            reason: None,
            field_path: None,
            optional_old_self: false,
            origin: None,
        }
    }

    /// Sets the reason.
    pub fn reason(mut self, reason: &'static str) -> Rule {
        self.reason = Some(reason);
        self
    }

    /// Sets the field path.
    pub fn at(mut self, field_path: String) -> Rule {
        self.field_path = Some(field_path);
        self
    }

    pub(crate) fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("rule".into(), Value::String(self.rule.clone()));
        if let Some(msg) = &self.message {
            m.insert("message".into(), Value::String(msg.clone()));
        }
        if let Some(e) = &self.message_expression {
            m.insert("messageExpression".into(), Value::String(e.clone()));
        }
        if let Some(r) = self.reason {
            m.insert("reason".into(), Value::String(r.into()));
        }
        if let Some(p) = &self.field_path {
            m.insert("fieldPath".into(), Value::String(p.clone()));
        }
        if self.optional_old_self {
            m.insert("optionalOldSelf".into(), Value::Bool(true));
        }
        Value::Object(m)
    }
}

/// One step down a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// `properties[name]`.
    Property(String),
    /// `items`.
    Items,
    /// `additionalProperties`.
    Additional,
}

/// A schema node.
#[derive(Debug, Clone, Default)]
pub struct Node {
    /// Keywords other than the children, `required` and the rules.
    pub keywords: Map<String, Value>,
    /// `properties`.
    pub properties: BTreeMap<String, Node>,
    /// `items`.
    pub items: Option<Box<Node>>,
    /// `additionalProperties`.
    pub additional: Option<Box<Node>>,
    /// `required`.
    pub required: BTreeSet<String>,
    /// `x-kubernetes-validations`, in emission order (duplicates dropped).
    pub rules: Vec<Rule>,
}

impl Node {
    /// Sets a keyword, combining it with an existing one so that both constraints hold.
    pub fn keyword(&mut self, key: &str, value: Value) {
        let merged = match (self.keywords.get(key), &value) {
            (Some(old), new) => match key {
                "minimum" | "minLength" | "minItems" | "minProperties" => max_num(old, new),
                "maximum" | "maxLength" | "maxItems" | "maxProperties" => min_num(old, new),
                "enum" => match (old, new) {
                    (Value::Array(a), Value::Array(b)) => {
                        Value::Array(a.iter().filter(|x| b.contains(x)).cloned().collect())
                    }
                    _ => new.clone(),
                },
                _ => new.clone(),
            },
            (None, _) => value,
        };
        self.keywords.insert(key.to_owned(), merged);
    }

    /// Adds an integer bound (`upper`: `maximum`, else `minimum`; `exclusive`: with
    /// `exclusiveMaximum`/`exclusiveMinimum: true`, OpenAPI v3.0's form), keeping the tighter
    /// of it and the node's bound: on integers `> n` is `>= n + 1`, so one keyword pair
    /// always states both.
    pub fn int_bound(&mut self, upper: bool, n: i64, exclusive: bool) {
        let (key, flag) = if upper {
            ("maximum", "exclusiveMaximum")
        } else {
            ("minimum", "exclusiveMinimum")
        };
        let effective = |b: i128, ex: bool| match (upper, ex) {
            (_, false) => b,
            (true, true) => b - 1,
            (false, true) => b + 1,
        };
        let new = effective(i128::from(n), exclusive);
        let old_exclusive = self.keywords.get(flag) == Some(&Value::Bool(true));
        let old = self.keywords.get(key).and_then(|v| {
            v.as_i64()
                .map(i128::from)
                .or_else(|| v.as_f64().map(|f| f as i128))
        });
        let tighter = match old.map(|o| effective(o, old_exclusive)) {
            None => true,
            Some(o) => {
                if upper {
                    new < o
                } else {
                    new > o
                }
            }
        };
        if tighter {
            self.keywords.insert(key.to_owned(), json!(n));
            if exclusive {
                self.keywords.insert(flag.to_owned(), Value::Bool(true));
            } else {
                self.keywords.remove(flag);
            }
        }
    }

    /// Whether the node has keyword `key`.
    pub fn has_keyword(&self, key: &str) -> bool {
        self.keywords.contains_key(key)
    }

    /// Adds a rule unless the same rule is already there.
    pub fn rule(&mut self, rule: Rule) {
        if !self
            .rules
            .iter()
            .any(|r| r.rule == rule.rule && r.field_path == rule.field_path)
        {
            self.rules.push(rule);
        }
    }

    /// Gives the rules of this subtree that have no origin yet this one.
    pub fn stamp(&mut self, origin: &Origin) {
        for r in &mut self.rules {
            if r.origin.is_none() {
                r.origin = Some(origin.clone());
            }
        }
        for p in self.properties.values_mut() {
            p.stamp(origin);
        }
        if let Some(i) = &mut self.items {
            i.stamp(origin);
        }
        if let Some(a) = &mut self.additional {
            a.stamp(origin);
        }
    }

    /// The node at a schema path of `properties`/`items`/`additionalProperties` steps.
    pub fn at_mut(&mut self, steps: &[Step]) -> Option<&mut Node> {
        let Some((first, rest)) = steps.split_first() else {
            return Some(self);
        };
        let next = match first {
            Step::Property(name) => self.properties.get_mut(name)?,
            Step::Items => self.items.as_deref_mut()?,
            Step::Additional => self.additional.as_deref_mut()?,
        };
        next.at_mut(rest)
    }

    /// Moves `other`'s properties, required names, keywords and rules into this node (an
    /// embedded struct's fields live in the embedding object).
    pub fn absorb(&mut self, other: Node) {
        for (k, v) in other.keywords {
            self.keyword(&k, v);
        }
        for (k, v) in other.properties {
            self.properties.entry(k).or_insert(v);
        }
        self.required.extend(other.required);
        for r in other.rules {
            self.rule(r);
        }
    }

    /// The node as JSON.
    pub fn to_json(&self) -> Value {
        let mut m = self.keywords.clone();
        if !self.properties.is_empty() {
            let props: Map<String, Value> = self
                .properties
                .iter()
                .map(|(k, v)| (k.clone(), v.to_json()))
                .collect();
            m.insert("properties".into(), Value::Object(props));
        }
        if let Some(items) = &self.items {
            m.insert("items".into(), items.to_json());
        }
        if let Some(a) = &self.additional {
            m.insert("additionalProperties".into(), a.to_json());
        }
        if !self.required.is_empty() {
            m.insert("required".into(), json!(self.required));
        }
        if !self.rules.is_empty() {
            m.insert(
                "x-kubernetes-validations".into(),
                Value::Array(self.rules.iter().map(Rule::to_json).collect()),
            );
        }
        Value::Object(m)
    }
}

fn as_f64(v: &Value) -> f64 {
    v.as_f64().unwrap_or(0.0)
}

fn max_num(a: &Value, b: &Value) -> Value {
    if as_f64(a) >= as_f64(b) {
        a.clone()
    } else {
        b.clone()
    }
}

fn min_num(a: &Value, b: &Value) -> Value {
    if as_f64(a) <= as_f64(b) {
        a.clone()
    } else {
        b.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_bounds_combine_exclusive_and_inclusive() {
        let mut n = Node::default();
        n.int_bound(false, -2147483648, false);
        n.int_bound(false, 0, true);
        assert_eq!(n.to_json(), json!({"minimum": 0, "exclusiveMinimum": true}));
        n.int_bound(false, 1, false); // `>= 1` is `> 0`: no change
        assert_eq!(n.to_json(), json!({"minimum": 0, "exclusiveMinimum": true}));
        n.int_bound(false, 2, false);
        assert_eq!(n.to_json(), json!({"minimum": 2}));
        n.int_bound(true, 10, true);
        n.int_bound(true, 9, false); // `<= 9` is `< 10`
        assert_eq!(
            n.to_json(),
            json!({"minimum": 2, "maximum": 10, "exclusiveMaximum": true})
        );
    }

    #[test]
    fn keywords_combine_to_the_tighter_bound() {
        let mut n = Node::default();
        n.keyword("maximum", json!(100));
        n.keyword("maximum", json!(10));
        n.keyword("maximum", json!(50));
        n.keyword("minimum", json!(1));
        n.keyword("minimum", json!(0));
        n.keyword("enum", json!(["a", "b", "c"]));
        n.keyword("enum", json!(["b", "c", "d"]));
        assert_eq!(
            n.to_json(),
            json!({"maximum": 10, "minimum": 1, "enum": ["b", "c"]})
        );
    }
}
