//! The three feature gates of declarative validation, as a value (no global state), with
//! upstream's per-version specs (`k8s.io/apiserver/pkg/features`) and component-base's
//! `--feature-gates` syntax, errors and warnings.
//!
//! Which Kubernetes version a [`FeatureGates`] emulates decides each gate's stage, default
//! and whether it may be changed; kdv's *runtime* follows the current (1.36+) upstream rules
//! at every version (see the crate docs): the `DeclarativeValidation` gate only toggles the
//! mismatch comparison, `DeclarativeValidationBeta` decides whether `+k8s:beta` rules are
//! enforced, and `DeclarativeValidationTakeover` is accepted and ignored.

use std::fmt;

/// One gate of declarative validation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gate {
    /// `DeclarativeValidation`: compare declarative with hand-written results (GA, locked
    /// on, from 1.36).
    DeclarativeValidation,
    /// `DeclarativeValidationBeta`: enforce `+k8s:beta` rules (Beta, on, from 1.36).
    DeclarativeValidationBeta,
    /// `DeclarativeValidationTakeover`: the 1.33–1.35 switch that made declarative
    /// validation authoritative; deprecated in 1.36, locked off in 1.37, ignored by kdv.
    DeclarativeValidationTakeover,
}

/// A gate's maturity at a version (component-base's `prerelease`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PreRelease {
    /// Not yet introduced at the emulated version: disabled and not settable.
    PreAlpha,
    /// `ALPHA`.
    Alpha,
    /// `BETA`.
    Beta,
    /// `GA`: settable only to its locked value (if locked), with a warning.
    Ga,
    /// `Deprecated`: settable with a warning.
    Deprecated,
}

impl PreRelease {
    /// component-base's spelling (`ALPHA`, `BETA`, `GA`, `Deprecated`, `PRE-ALPHA`... as its
    /// `prerelease` string constants).
    pub fn as_str(self) -> &'static str {
        match self {
            PreRelease::PreAlpha => "PRE-ALPHA",
            PreRelease::Alpha => "ALPHA",
            PreRelease::Beta => "BETA",
            PreRelease::Ga => "",
            PreRelease::Deprecated => "DEPRECATED",
        }
    }
}

/// A gate's spec from a version on (component-base's `FeatureSpec` in `VersionedSpecs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GateSpec {
    /// The first version the spec applies to (major, minor).
    pub version: (u32, u32),
    /// The gate's value when not set.
    pub default: bool,
    /// Maturity.
    pub pre_release: PreRelease,
    /// Whether setting it to anything but `default` is refused.
    pub lock_to_default: bool,
}

const fn spec(minor: u32, default: bool, pre_release: PreRelease, lock: bool) -> GateSpec {
    GateSpec {
        version: (1, minor),
        default,
        pre_release,
        lock_to_default: lock,
    }
}

/// Upstream's `defaultVersionedKubernetesFeatureGates` entries, oldest first.
const DV_SPECS: &[GateSpec] = &[
    spec(33, true, PreRelease::Beta, false),
    // GA and locked to default in 1.36 (upstream: "remove in 1.39").
    spec(36, true, PreRelease::Ga, true),
];
const DV_BETA_SPECS: &[GateSpec] = &[spec(36, true, PreRelease::Beta, false)];
const DV_TAKEOVER_SPECS: &[GateSpec] = &[
    spec(33, false, PreRelease::Beta, false),
    spec(36, false, PreRelease::Deprecated, false),
    spec(37, false, PreRelease::Deprecated, true),
];

/// The version whose generator rules kdv implements, and the default target of
/// [`FeatureGates::default`].
pub const DEFAULT_VERSION: (u32, u32) = (1, 36);

impl Gate {
    /// Every gate, in upstream's declaration order.
    pub const ALL: [Gate; 3] = [
        Gate::DeclarativeValidation,
        Gate::DeclarativeValidationBeta,
        Gate::DeclarativeValidationTakeover,
    ];

    /// The gate's name as written in `--feature-gates`.
    pub fn name(self) -> &'static str {
        match self {
            Gate::DeclarativeValidation => "DeclarativeValidation",
            Gate::DeclarativeValidationBeta => "DeclarativeValidationBeta",
            Gate::DeclarativeValidationTakeover => "DeclarativeValidationTakeover",
        }
    }

    /// The gate named `name` (exact, case-sensitive, as component-base).
    pub fn from_name(name: &str) -> Option<Gate> {
        Gate::ALL.into_iter().find(|g| g.name() == name)
    }

    /// Upstream's versioned specs, oldest first.
    pub fn specs(self) -> &'static [GateSpec] {
        match self {
            Gate::DeclarativeValidation => DV_SPECS,
            Gate::DeclarativeValidationBeta => DV_BETA_SPECS,
            Gate::DeclarativeValidationTakeover => DV_TAKEOVER_SPECS,
        }
    }

    /// The spec in force at `version`: the newest not newer than it, or a disabled
    /// pre-alpha spec when the gate did not exist yet (component-base's
    /// `featureSpecAtEmulationVersion`).
    pub fn spec_at(self, version: (u32, u32)) -> GateSpec {
        self.specs()
            .iter()
            .rev()
            .find(|s| s.version <= version)
            .copied()
            .unwrap_or(GateSpec {
                version: (0, 0),
                default: false,
                pre_release: PreRelease::PreAlpha,
                lock_to_default: false,
            })
    }

    fn index(self) -> usize {
        match self {
            Gate::DeclarativeValidation => 0,
            Gate::DeclarativeValidationBeta => 1,
            Gate::DeclarativeValidationTakeover => 2,
        }
    }
}

impl fmt::Display for Gate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A refused `--feature-gates` value or [`FeatureGates::set`], with component-base's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GateError(String);

impl GateError {
    /// The message.
    pub fn message(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for GateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GateError {}

/// The gates' values at one emulated Kubernetes version: defaults from upstream's specs,
/// overridden by [`set`](FeatureGates::set) / [`parse`](FeatureGates::parse).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureGates {
    version: (u32, u32),
    overrides: [Option<bool>; 3],
}

impl Default for FeatureGates {
    /// The gates at [`DEFAULT_VERSION`] (1.36).
    fn default() -> Self {
        FeatureGates::for_version(DEFAULT_VERSION.0, DEFAULT_VERSION.1)
    }
}

impl FeatureGates {
    /// The gates with their defaults at Kubernetes `major.minor` (before 1.33 none of them
    /// exists: all disabled and not settable).
    pub fn for_version(major: u32, minor: u32) -> FeatureGates {
        FeatureGates {
            version: (major, minor),
            overrides: [None; 3],
        }
    }

    /// The emulated version (major, minor).
    pub fn version(&self) -> (u32, u32) {
        self.version
    }

    /// Whether `gate` is on: its set value, else its default at the version.
    pub fn enabled(&self, gate: Gate) -> bool {
        self.overrides[gate.index()].unwrap_or_else(|| gate.spec_at(self.version).default)
    }

    /// Whether the gate named `name` is on at this version (set, else default); `None` for a
    /// name that is not a gate kdv knows.
    pub fn enabled_by_name(&self, name: &str) -> Option<bool> {
        Gate::from_name(name).map(|g| self.enabled(g))
    }

    /// Whether declarative and hand-written results are compared (mismatches logged and
    /// counted): the `DeclarativeValidation` gate.
    pub fn compares(&self) -> bool {
        self.enabled(Gate::DeclarativeValidation)
    }

    /// Whether `+k8s:beta` rules are enforced: the `DeclarativeValidationBeta` gate (off at
    /// versions that do not know it, as upstream's emulation).
    pub fn beta_enforced(&self) -> bool {
        self.enabled(Gate::DeclarativeValidationBeta)
    }

    /// Sets the gate named `name` to `value` as component-base's `SetFromMap` does for one
    /// entry; `Ok` carries its warning for deprecated and GA gates (and kdv's note that
    /// Takeover is ignored). On error nothing changes.
    pub fn set(&mut self, name: &str, value: bool) -> Result<Vec<String>, GateError> {
        let gate = Gate::from_name(name)
            .ok_or_else(|| GateError(format!("unrecognized feature gate: {name}")))?;
        let warnings = self.check(gate, value)?;
        self.overrides[gate.index()] = Some(value);
        Ok(warnings)
    }

    fn check(&self, gate: Gate, value: bool) -> Result<Vec<String>, GateError> {
        let name = gate.name();
        let spec = gate.spec_at(self.version);
        if spec.lock_to_default && spec.default != value {
            return Err(GateError(format!(
                "cannot set feature gate {name} to {value}, feature is locked to {}",
                spec.default
            )));
        }
        if spec.pre_release == PreRelease::PreAlpha {
            return Err(GateError(format!(
                "cannot set feature gate {name} to {value}, feature is PreAlpha at emulated version {}.{}",
                self.version.0, self.version.1
            )));
        }
        let mut warnings = Vec::new();
        match spec.pre_release {
            PreRelease::Deprecated => warnings.push(format!(
                "Setting deprecated feature gate {name}={value}. It will be removed in a future release."
            )),
            PreRelease::Ga => warnings.push(format!(
                "Setting GA feature gate {name}={value}. It will be removed in a future release."
            )),
            _ => {}
        }
        if gate == Gate::DeclarativeValidationTakeover {
            warnings.push(format!(
                "{name} is not honored: declarative validation follows the lifecycle prefixes (+k8s:alpha, +k8s:beta) and DeclarativeValidationBeta"
            ));
        }
        Ok(warnings)
    }

    /// Applies a `--feature-gates` value, `Name=bool,Name=bool` (component-base's
    /// `featureGate.Set`: empty entries skipped, names and values trimmed, Go's
    /// `strconv.ParseBool` values, a later entry for a name wins). All or nothing: on error
    /// no gate changes. Errors of several entries are joined as `[a, b]` (Go's aggregate);
    /// an unknown gate stops at once. Returns the warnings, in entry order.
    pub fn parse(&mut self, value: &str) -> Result<Vec<String>, GateError> {
        let mut entries: Vec<(String, bool)> = Vec::new();
        for item in value.split(',') {
            if item.is_empty() {
                continue;
            }
            let (k, v) = match item.split_once('=') {
                Some((k, v)) => (k.trim(), v.trim()),
                None => {
                    return Err(GateError(format!("missing bool value for {}", item.trim())));
                }
            };
            let b = parse_go_bool(v).ok_or_else(|| {
                GateError(format!(
                    "invalid value of {k}={v}, err: strconv.ParseBool: parsing {}: invalid syntax",
                    kdv_runtime::gofmt::quote(v)
                ))
            })?;
            match entries.iter_mut().find(|(name, _)| name == k) {
                Some(entry) => entry.1 = b,
                None => entries.push((k.to_owned(), b)),
            }
        }
        let mut next = self.clone();
        let mut errors = Vec::new();
        let mut warnings = Vec::new();
        for (name, b) in &entries {
            let gate = Gate::from_name(name)
                .ok_or_else(|| GateError(format!("unrecognized feature gate: {name}")))?;
            match next.check(gate, *b) {
                Ok(w) => {
                    next.overrides[gate.index()] = Some(*b);
                    warnings.extend(w);
                }
                Err(e) => errors.push(e.0),
            }
        }
        match errors.len() {
            0 => {
                *self = next;
                Ok(warnings)
            }
            1 => Err(GateError(errors.remove(0))),
            _ => Err(GateError(format!("[{}]", errors.join(", ")))),
        }
    }
}

/// Go's `strconv.ParseBool`.
fn parse_go_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// Parses a `MAJOR.MINOR` Kubernetes version (`1.35`; a leading `v` is accepted).
pub fn parse_version(s: &str) -> Option<(u32, u32)> {
    let s = s.strip_prefix('v').unwrap_or(s);
    let (major, minor) = s.split_once('.')?;
    let digits = |t: &str| !t.is_empty() && t.len() <= 4 && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(major) || !digits(minor) {
        return None;
    }
    Some((major.parse().ok()?, minor.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_bool_values() {
        for t in ["1", "t", "T", "TRUE", "true", "True"] {
            assert_eq!(parse_go_bool(t), Some(true));
        }
        for f in ["0", "f", "F", "FALSE", "false", "False"] {
            assert_eq!(parse_go_bool(f), Some(false));
        }
        assert_eq!(parse_go_bool("yes"), None);
        assert_eq!(parse_go_bool("tRUE"), None);
    }

    #[test]
    fn versions() {
        assert_eq!(parse_version("1.35"), Some((1, 35)));
        assert_eq!(parse_version("v1.36"), Some((1, 36)));
        for bad in ["1", "1.", ".3", "1.3.4", "a.b", "1.-3", "99999.1"] {
            assert_eq!(parse_version(bad), None, "{bad}");
        }
    }
}
