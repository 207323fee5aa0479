//! The Kubernetes release a run targets: one knob (`--k8s-version`, or the API server's name
//! for it, `--emulated-version`) for everything that depends on the release — the built-in
//! kinds' OpenAPI documents and declarative rules, the feature gates' defaults and stages,
//! and the CRD rules' CEL environment.

use kdv_rollout::FeatureGates;

use crate::error::CliError;

/// The release of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Release {
    /// `1.36`: one of the embedded releases (`kdv_k8s_openapi::versions`).
    pub version: &'static str,
    /// The minor version (`36`).
    pub minor: u32,
    /// Whether the user chose it (`--k8s-version` or `--emulated-version`), rather than
    /// taking the default.
    pub explicit: bool,
}

impl Release {
    /// The release `--k8s-version` or `--emulated-version` names (the same knob: giving both
    /// with different values is a usage error), else the newest embedded one.
    pub fn choose(
        k8s_version: Option<&str>,
        emulated_version: Option<&str>,
    ) -> Result<Release, CliError> {
        let asked = match (k8s_version, emulated_version) {
            (Some(a), Some(b)) if normalize(a) != normalize(b) => {
                return Err(CliError::Usage(format!(
                    "--k8s-version {a} and --emulated-version {b} disagree: they name the same \
                     release (give one)"
                )));
            }
            (Some(a), _) => Some(("--k8s-version", a)),
            (None, Some(b)) => Some(("--emulated-version", b)),
            (None, None) => None,
        };
        let embedded = kdv_k8s_openapi::versions();
        let (version, explicit) = match asked {
            None => (kdv_k8s_openapi::latest_version(), false),
            Some((flag, asked)) => {
                let wanted = normalize(asked);
                match embedded.iter().find(|v| **v == wanted) {
                    Some(v) => (*v, true),
                    None => {
                        return Err(CliError::Usage(format!(
                            "{flag} {asked}: not an embedded Kubernetes release (embedded: {}); \
                             pass --schema DIR with the OpenAPI documents of other releases",
                            embedded.join(", ")
                        )));
                    }
                }
            }
        };
        let minor = version
            .strip_prefix("1.")
            .and_then(|m| m.parse().ok())
            .unwrap_or(0);
        Ok(Release {
            version,
            minor,
            explicit,
        })
    }

    /// The feature gates at this release: its defaults and stages (component-base's
    /// emulation of the version).
    pub fn gates(&self) -> FeatureGates {
        FeatureGates::for_version(1, self.minor)
    }

    /// The declarative rules of the release's built-in kinds; `None` before 1.33 (no
    /// kubernetes/api type carried validation tags yet).
    pub fn builtin_rules(&self) -> Option<kdv_k8s_api::Release> {
        kdv_k8s_api::Release::new(self.version)
    }
}

/// `v1.35`, `1.35.2` → `1.35`.
fn normalize(version: &str) -> String {
    let v = version.strip_prefix('v').unwrap_or(version);
    let mut parts = v.split('.');
    match (parts.next(), parts.next()) {
        (Some(major), Some(minor)) => format!("{major}.{minor}"),
        _ => v.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_knob_two_names() {
        let newest = kdv_k8s_openapi::latest_version();
        let default = Release::choose(None, None).unwrap();
        assert_eq!((default.version, default.explicit), (newest, false));
        let a = Release::choose(Some("1.35"), None).unwrap();
        let b = Release::choose(None, Some("v1.35")).unwrap();
        let c = Release::choose(Some("1.35.4"), Some("1.35")).unwrap();
        assert_eq!((a, b), (c, c));
        assert_eq!((a.version, a.minor, a.explicit), ("1.35", 35, true));
        let e = Release::choose(Some("1.35"), Some("1.34")).unwrap_err();
        assert!(e.to_string().contains("disagree"), "{e}");
        let e = Release::choose(Some("1.20"), None).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("--k8s-version 1.20: not an embedded Kubernetes release (embedded: "),
            "{e}"
        );
        let e = Release::choose(None, Some("2.0")).unwrap_err();
        assert!(e.to_string().starts_with("--emulated-version 2.0: "), "{e}");
    }
}
