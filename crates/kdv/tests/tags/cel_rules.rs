//! `+validationRule` (kdv extension, KEP-4153): the seed's examples on Rust types — the
//! PodSpec rule of "Summary", the Deployment strategy rules of "Unions" (reason and field),
//! the FizzBuzzSpec rule of "CEL Validation" (parenthesised as meant) and a transition rule
//! with a messageExpression and a correlated list-map item.
//!
//! +k8s:validation-gen-nolint

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// KEP-4153 "Summary" (fields optional in JSON only through `has()`-free Rust values: serde
/// always writes them).
///
/// +validationRule="!self.hostNetwork || self.containers.all(c, c.containerPort.all(cp, cp.hostPort == cp.containerPort))"
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct PodSpec {
    pub host_network: bool,
    /// +k8s:maxItems=4
    pub containers: Vec<Container>,
}

/// A container's ports, named as the seed's rule reads them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Container {
    /// +k8s:maxItems=4
    pub container_port: Vec<ContainerPort>,
}

/// A port.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct ContainerPort {
    pub host_port: i32,
    pub container_port: i32,
}

/// KEP-4153 "Unions".
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct DeploymentSpec {
    /// +validationRule="!(self.type == 'Recreate') || !has(self.rollingUpdate)",message="may not be specified when strategy `type` is Recreate",reason=Forbidden,field="rollingUpdate"
    /// +validationRule="!(self.type == 'RollingUpdate') || has(self.rollingUpdate)",message="this should be defaulted and never be nil",reason=Required,field="rollingUpdate"
    pub strategy: DeploymentStrategy,
}

/// How pods are replaced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct DeploymentStrategy {
    pub r#type: StrategyType,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rolling_update: Option<RollingUpdate>,
}

/// A strategy's type.
///
/// +k8s:enum
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub enum StrategyType {
    #[default]
    Recreate,
    RollingUpdate,
}

/// A rolling update's bound.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct RollingUpdate {
    pub max_surge: i32,
}

/// KEP-4153 "CEL Validation".
///
/// +validationRule="!(self.widgetType == 'Component') || !['badname2', 'badname2'].exists(notAllowed, self.componentName.contains(notAllowed))",reason=Forbidden
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct FizzBuzzSpec {
    pub widget_type: WidgetType,
    /// +k8s:maxLength=16
    pub component_name: String,
}

/// A kind of widget.
///
/// +k8s:enum
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub enum WidgetType {
    #[default]
    Component,
    Gadget,
}

/// Transition rules, and a rule that also holds on create (several per type).
///
/// +validationRule="self.replicas <= 100",message="at most 100 replicas"
/// +validationRule="self.replicas >= oldSelf.replicas",messageExpression="self.replicas == 0 ? 'replicas may not drop to zero' : 'replicas may not decrease'"
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct ScalerSpec {
    pub replicas: i32,
    /// +k8s:listType=map
    /// +k8s:listMapKey=name
    /// +k8s:maxItems=4
    pub pools: Vec<Pool>,
}

/// A pool keeps its zone.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct Pool {
    pub name: String,
    /// +validationRule="self == oldSelf",message="zone is immutable"
    pub zone: String,
}

/// kdv's own CEL functions (kdv extensions of KEP-4153's library list, docs/decisions/0140),
/// which only `+validationRule` on types has.
///
/// +validationRule="self.title.isPrint() && !self.title.containsControl()",message="title must be printable"
/// +validationRule="isLabelSelector(self.selector)",message="selector must be a label selector"
/// +validationRule="!isLabelSelector(self.selector) || self.labels.matchesLabelSelector(self.selector)",message="labels must match the selector"
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
#[serde(default, rename_all = "camelCase")]
pub struct CelLibraries {
    /// +k8s:maxLength=64
    pub title: String,
    /// +k8s:maxLength=128
    pub selector: String,
    /// +k8s:maxProperties=8
    pub labels: std::collections::BTreeMap<String, String>,
}

#[test]
fn kdv_cel_libraries_run_in_the_derive() {
    let ok = CelLibraries {
        title: "Web tier".into(),
        selector: "app=web,tier notin (db)".into(),
        labels: [("app".to_string(), "web".to_string())].into(),
    };
    assert!(ok.validate(&kdv::Operation::create()).is_empty());
    let bad = CelLibraries {
        title: "a\u{1}b".into(),
        selector: "app in web".into(),
        ..ok.clone()
    };
    let texts: Vec<String> = bad
        .validate(&kdv::Operation::create())
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        texts,
        [
            "<nil>: Invalid value: title must be printable",
            "<nil>: Invalid value: selector must be a label selector",
        ]
    );
    let other = CelLibraries {
        selector: "app=db".into(),
        ..ok
    };
    let texts: Vec<String> = other
        .validate(&kdv::Operation::create())
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        texts,
        ["<nil>: Invalid value: labels must match the selector"]
    );
}

/// The derive gives `+validationRule`s the Rust value read in place on a create: it must read
/// as the JSON serde writes (present keys, key order, spellings, numbers), or the type must
/// say it cannot (and its rules read the JSON).
#[test]
fn values_read_in_place_read_as_their_json() {
    use kdv::__private::CelNative;
    use kdv::__private::kdv_cel::value::Value;
    use kdv::__private::kdv_cel::value::native::ToCel;

    // Every map's keys in iteration order, depth first.
    fn keys(v: &Value<'_>) -> Vec<String> {
        let mut out = Vec::new();
        match v {
            Value::Map(m) => {
                for (k, x) in m.entries() {
                    if let Value::String(k) = k {
                        out.push(k.as_str().to_owned());
                    }
                    out.extend(keys(&x));
                }
            }
            Value::List(l) => l.iter().for_each(|x| out.extend(keys(&x))),
            _ => {}
        }
        out
    }
    fn same<T: ToCel + CelNative + Serialize>(v: &T) {
        assert!(T::cel_native_ok());
        let json = serde_json::to_value(v).unwrap();
        let (native, from_json) = (v.to_cel(), Value::from_json(&json));
        assert!(native.equals(&from_json).unwrap(), "{json}");
        assert_eq!(keys(&native), keys(&from_json), "{json}");
    }
    let strategies = [
        DeploymentStrategy::default(),
        DeploymentStrategy {
            r#type: StrategyType::RollingUpdate,
            rolling_update: Some(RollingUpdate { max_surge: -3 }),
        },
    ];
    for s in &strategies {
        same(s);
        same(&DeploymentSpec {
            strategy: s.clone(),
        });
    }
    same(&PodSpec {
        host_network: true,
        containers: vec![Container {
            container_port: vec![ContainerPort {
                host_port: 80,
                container_port: 8080,
            }],
        }],
    });
    same(&CelLibraries {
        title: "t".into(),
        selector: String::new(),
        labels: [("b".to_string(), "1".to_string()), ("a".into(), "2".into())].into(),
    });
    same(&FizzBuzzSpec::default());
    same(&ScalerSpec {
        replicas: 2,
        pools: vec![Pool::default()],
    });
}
