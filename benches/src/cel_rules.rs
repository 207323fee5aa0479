//! `+validationRule` workloads (KEP-4153's Deployment strategy and PodSpec rules) as Rust
//! types with `#[derive(Validate)]`; the interpreter compiles the same file
//! ([`CEL_RULES_RS`]) as the derive does.

use kdv::Validate;
use serde::{Deserialize, Serialize};

/// This file's text, for the interpreter's rules.
pub const CEL_RULES_RS: &str = include_str!("cel_rules.rs");

/// A Deployment's spec: the "Unions" rules of KEP-4153 on its strategy.
#[derive(Clone, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct DeploymentSpec {
    /// +validationRule="!(self.type == 'Recreate') || !has(self.rollingUpdate)",message="may not be specified when strategy `type` is Recreate",reason=Forbidden,field="rollingUpdate"
    /// +validationRule="!(self.type == 'RollingUpdate') || has(self.rollingUpdate)",message="this should be defaulted and never be nil",reason=Required,field="rollingUpdate"
    pub strategy: DeploymentStrategy,
}

/// How pods are replaced.
#[derive(Clone, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct DeploymentStrategy {
    pub r#type: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rolling_update: Option<RollingUpdate>,
}

/// A rolling update's bound.
#[derive(Clone, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct RollingUpdate {
    pub max_surge: i32,
}

/// KEP-4153's "Summary" rule over nested lists.
///
/// +validationRule="!self.hostNetwork || self.containers.all(c, c.containerPort.all(cp, cp.hostPort == cp.containerPort))"
#[derive(Clone, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct PodSpec {
    pub host_network: bool,
    /// +k8s:maxItems=16
    pub containers: Vec<Container>,
}

/// A container's ports.
#[derive(Clone, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Container {
    /// +k8s:maxItems=16
    pub container_port: Vec<ContainerPort>,
}

/// A port.
#[derive(Clone, Serialize, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct ContainerPort {
    pub host_port: i32,
    pub container_port: i32,
}

/// A valid rolling-update Deployment spec.
pub fn deployment(kind: &str, rolling: bool) -> DeploymentSpec {
    DeploymentSpec {
        strategy: DeploymentStrategy {
            r#type: kind.into(),
            rolling_update: rolling.then_some(RollingUpdate { max_surge: 1 }),
        },
    }
}

/// A host-network pod of 4 containers with 4 ports each; `bad` breaks the last port.
pub fn pod(bad: bool) -> PodSpec {
    let mut containers: Vec<Container> = (0..4)
        .map(|_| Container {
            container_port: (0..4)
                .map(|i| ContainerPort {
                    host_port: 8000 + i,
                    container_port: 8000 + i,
                })
                .collect(),
        })
        .collect();
    if bad {
        containers[3].container_port[3].host_port = 1;
    }
    PodSpec {
        host_network: true,
        containers,
    }
}
