//! Every feature gate kube-apiserver recognises in Kubernetes 1.30 to 1.37, as a value (no
//! global state): upstream's versioned specs (`data/feature-gates.txt`) and component-base's
//! `--feature-gates` syntax, errors, warnings and dependency checks at each release.
//!
//! A [`FeatureGates`] emulates one Kubernetes version: a gate's stage, default and lock are its
//! spec at that version; a gate removed before it is unknown; a gate introduced after it is
//! PreAlpha (known, off, not settable), as component-base's emulated versions have it.
//! [`FeatureGates::enabled`] answers for any gate by name; [`Gate`] names the three gates of
//! declarative validation, whose meaning changed with the releases (see [`crate::semantics`]).
//!
//! ```
//! use kdv_rollout::FeatureGates;
//!
//! let mut gates = FeatureGates::for_version(1, 36);
//! assert_eq!(gates.enabled("HPAScaleToZero"), Some(false)); // Alpha in 1.36
//! assert_eq!(gates.enabled("CompositePodGroup"), None); // introduced in 1.37
//! assert_eq!(gates.enabled("NoSuchGate"), None);
//! gates.parse("HPAScaleToZero=true").unwrap();
//! assert_eq!(gates.enabled("HPAScaleToZero"), Some(true));
//! assert_eq!(
//!     gates.parse("TopologyAwareWorkloadScheduling=true").unwrap_err().message(),
//!     "TopologyAwareWorkloadScheduling is enabled, but depends on features that are disabled: [GenericWorkload]"
//! );
//! ```

mod table;

use std::collections::BTreeMap;
use std::fmt;

pub use table::Component;
use table::{Entry, Table};

/// One gate of declarative validation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gate {
    /// `DeclarativeValidation`: 1.33–1.35 run declarative validation and compare it with
    /// hand-written validation; from 1.36 (GA, locked on) only the comparison.
    DeclarativeValidation,
    /// `DeclarativeValidationBeta`: enforce `+k8s:beta` rules (Beta, on, from 1.36).
    DeclarativeValidationBeta,
    /// `DeclarativeValidationTakeover`: 1.33–1.35 make declarative validation authoritative;
    /// deprecated and ignored from 1.36, locked off in 1.37.
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
    /// component-base's spelling (`ALPHA`, `BETA`, `DEPRECATED`, `PRE-ALPHA`, and the empty
    /// string for GA, as its `prerelease` string constants).
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
    /// The first version the spec applies to (major, minor); `(0, 0)` for unversioned specs.
    pub version: (u32, u32),
    /// The gate's value when not set.
    pub default: bool,
    /// Maturity.
    pub pre_release: PreRelease,
    /// Whether setting it to anything but `default` is refused.
    pub lock_to_default: bool,
}

/// The version whose generator rules kdv implements, and the default target of
/// [`FeatureGates::default`].
pub const DEFAULT_VERSION: (u32, u32) = (1, 36);

/// The Kubernetes releases whose gates the table holds (1.30 to 1.37): other versions are
/// evaluated on the same data (gates removed after 1.37 are not known).
pub const KNOWN_RELEASES: std::ops::RangeInclusive<u32> = 30..=37;

/// component-base's pseudo-gates setting every Alpha (Beta) gate not set explicitly.
const ALL_ALPHA: &str = "AllAlpha";
const ALL_BETA: &str = "AllBeta";

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

    /// Upstream's versioned specs, oldest first (from the gate table).
    pub fn specs(self) -> &'static [GateSpec] {
        Table::get()
            .entry(self.name())
            .map_or(&[], |e| e.specs.as_slice())
    }

    /// The spec in force at `version`: the newest not newer than it, or a disabled
    /// pre-alpha spec when the gate did not exist yet (component-base's
    /// `featureSpecAtEmulationVersion`).
    pub fn spec_at(self, version: (u32, u32)) -> GateSpec {
        table::spec_at(self.specs(), version)
    }
}

impl fmt::Display for Gate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl AsRef<str> for Gate {
    fn as_ref(&self) -> &str {
        self.name()
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

/// One gate as a [`FeatureGates`] sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GateState {
    /// The gate's name.
    pub name: &'static str,
    /// Who registers it.
    pub component: Component,
    /// Its spec at the emulated version (PreAlpha before its first spec).
    pub spec: GateSpec,
    /// Its value: set explicitly, by `AllAlpha`/`AllBeta`, or its default.
    pub enabled: bool,
    /// Whether it was set explicitly.
    pub explicit: bool,
}

/// The gates' values at one emulated Kubernetes version: defaults from upstream's specs,
/// overridden by [`set`](FeatureGates::set) / [`parse`](FeatureGates::parse).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureGates {
    version: (u32, u32),
    explicit: BTreeMap<&'static str, bool>,
    all_alpha: Option<bool>,
    all_beta: Option<bool>,
}

impl Default for FeatureGates {
    /// The gates at [`DEFAULT_VERSION`] (1.36).
    fn default() -> Self {
        FeatureGates::for_version(DEFAULT_VERSION.0, DEFAULT_VERSION.1)
    }
}

impl FeatureGates {
    /// The gates with their defaults at Kubernetes `major.minor`.
    pub fn for_version(major: u32, minor: u32) -> FeatureGates {
        FeatureGates {
            version: (major, minor),
            explicit: BTreeMap::new(),
            all_alpha: None,
            all_beta: None,
        }
    }

    /// The emulated version (major, minor).
    pub fn version(&self) -> (u32, u32) {
        self.version
    }

    fn entry(&self, name: &str) -> Option<&'static Entry> {
        Table::get()
            .entry(name)
            .filter(|e| e.registered_at(self.version))
    }

    fn value(&self, entry: &Entry, spec: GateSpec) -> bool {
        if let Some(&v) = self.explicit.get(entry.name) {
            return v;
        }
        let all = match spec.pre_release {
            PreRelease::Alpha => self.all_alpha,
            PreRelease::Beta => self.all_beta,
            _ => None,
        };
        all.unwrap_or(spec.default)
    }

    /// The gate named `name` at this version: `None` when kube-apiserver does not recognise
    /// it (never registered, or removed before this version). `AllAlpha` and `AllBeta` are
    /// not listed here.
    pub fn state(&self, name: impl AsRef<str>) -> Option<GateState> {
        let entry = self.entry(name.as_ref())?;
        let spec = entry.spec_at(self.version);
        Some(GateState {
            name: entry.name,
            component: entry.component,
            spec,
            enabled: spec.pre_release != PreRelease::PreAlpha && self.value(entry, spec),
            explicit: self.explicit.contains_key(entry.name),
        })
    }

    /// Whether the gate named `name` is on at this version: its set value, else `AllAlpha` /
    /// `AllBeta` for an Alpha / Beta gate, else its default. `None` when it is not a gate of
    /// this release: unknown, removed, or not yet introduced (PreAlpha).
    pub fn enabled(&self, name: impl AsRef<str>) -> Option<bool> {
        let name = name.as_ref();
        if name == ALL_ALPHA || name == ALL_BETA {
            let set = if name == ALL_ALPHA {
                self.all_alpha
            } else {
                self.all_beta
            };
            return Some(set.unwrap_or(false));
        }
        self.state(name)
            .filter(|s| s.spec.pre_release != PreRelease::PreAlpha)
            .map(|s| s.enabled)
    }

    /// Every gate kube-apiserver recognises at this version (PreAlpha ones included), by name.
    pub fn gates(&self) -> impl Iterator<Item = GateState> + '_ {
        Table::get()
            .entries()
            .iter()
            .filter_map(|e| self.state(e.name))
    }

    /// Whether `DeclarativeValidation` is on (off where the gate does not exist).
    pub fn declarative_validation(&self) -> bool {
        self.enabled(Gate::DeclarativeValidation) == Some(true)
    }

    /// Whether `DeclarativeValidationBeta` is on (off where the gate does not exist).
    pub fn beta_enforced(&self) -> bool {
        self.enabled(Gate::DeclarativeValidationBeta) == Some(true)
    }

    /// Whether `DeclarativeValidationTakeover` is on (off where the gate does not exist).
    pub fn takeover(&self) -> bool {
        self.enabled(Gate::DeclarativeValidationTakeover) == Some(true)
    }

    /// Whether declarative and hand-written results are compared (mismatches logged and
    /// counted): the `DeclarativeValidation` gate, at every version that has it.
    pub fn compares(&self) -> bool {
        self.declarative_validation()
    }

    /// Sets the gate named `name` to `value` as component-base's `SetFromMap` does for one
    /// entry; `Ok` carries the warnings. On error nothing changes.
    pub fn set(&mut self, name: &str, value: bool) -> Result<Vec<String>, GateError> {
        self.apply(&[(name.to_owned(), value)])
    }

    /// Applies a `--feature-gates` value, `Name=bool,Name=bool` (component-base's
    /// `featureGate.Set`: empty entries skipped, names and values trimmed, Go's
    /// `strconv.ParseBool` values, a later entry for a name wins), with the release's checks
    /// (see [`FeatureGates::set`]). All or nothing: on error no gate changes. Returns the
    /// warnings, in entry order.
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
        self.apply(&entries)
    }

    /// component-base's `unsafeSetFromMap` at this release, entries in order (Go iterates a
    /// map in random order; kdv takes the entries' order):
    /// - an unknown gate is an error on its own (`unrecognized feature gate: X`);
    /// - a locked gate set to another value, or a PreAlpha gate, is refused; 1.31 and later
    ///   report every refused entry (joined as `[a, b]`), 1.30 the first;
    /// - `AllAlpha` / `AllBeta` set every Alpha / Beta gate at this version not set
    ///   explicitly;
    /// - Deprecated and GA gates are accepted with a warning;
    /// - from 1.35, an enabled gate whose dependencies are not all enabled is refused.
    fn apply(&mut self, entries: &[(String, bool)]) -> Result<Vec<String>, GateError> {
        let mut next = self.clone();
        let mut errors = Vec::new();
        let mut warnings = Vec::new();
        let aggregate = self.version >= (1, 31);
        for (name, value) in entries {
            let value = *value;
            if name == ALL_ALPHA || name == ALL_BETA {
                if name == ALL_ALPHA {
                    next.all_alpha = Some(value);
                } else {
                    next.all_beta = Some(value);
                }
                continue;
            }
            let Some(entry) = self.entry(name) else {
                return Err(GateError(format!("unrecognized feature gate: {name}")));
            };
            match self.check(entry, value) {
                Ok(w) => {
                    next.explicit.insert(entry.name, value);
                    warnings.extend(w);
                }
                Err(e) if !aggregate => return Err(GateError(e)),
                Err(e) => errors.push(e),
            }
        }
        if errors.is_empty() {
            errors = next.dependency_errors();
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

    fn check(&self, entry: &Entry, value: bool) -> Result<Vec<String>, String> {
        let name = entry.name;
        let spec = entry.spec_at(self.version);
        if spec.lock_to_default && spec.default != value {
            return Err(format!(
                "cannot set feature gate {name} to {value}, feature is locked to {}",
                spec.default
            ));
        }
        let (major, minor) = self.version;
        if spec.pre_release == PreRelease::PreAlpha {
            // 1.35 added the minimum compatibility version (the emulated one minus one).
            let compat = if self.version >= (1, 35) {
                format!(
                    ", min compatibility version {major}.{}",
                    minor.saturating_sub(1)
                )
            } else {
                String::new()
            };
            return Err(format!(
                "cannot set feature gate {name} to {value}, feature is PreAlpha at emulated version {major}.{minor}{compat}"
            ));
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
        if name == Gate::DeclarativeValidationTakeover.name() && self.version >= (1, 36) {
            warnings.push(format!(
                "{name} is not honored: declarative validation follows the lifecycle prefixes (+k8s:alpha, +k8s:beta) and DeclarativeValidationBeta"
            ));
        }
        Ok(warnings)
    }

    /// component-base's dependency validation (1.35 and later), one error per gate, by name.
    fn dependency_errors(&self) -> Vec<String> {
        if self.version < (1, 35) {
            return Vec::new();
        }
        // component-base's featureEnabled: the set value, else the default at the version.
        let on = |name: &str| {
            self.entry(name)
                .is_some_and(|e| self.value(e, e.spec_at(self.version)))
        };
        Table::get()
            .dependencies_at(self.version)
            .filter(|d| on(d.gate))
            .filter_map(|d| {
                let off: Vec<&str> = d.needs.iter().copied().filter(|n| !on(n)).collect();
                (!off.is_empty()).then(|| {
                    format!(
                        "{} is enabled, but depends on features that are disabled: [{}]",
                        d.gate,
                        off.join(" ")
                    )
                })
            })
            .collect()
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
