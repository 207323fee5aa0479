//! Validation options (`+k8s:ifEnabled(X)`, `+k8s:ifDisabled(X)`, enum exclusions) as the API
//! server defines them: each resource's strategy turns the feature gates into options, so an
//! option named after a feature gate of the release takes the gate's value (its default at
//! the release, or as `--feature-gates` sets it). `--option NAME[=BOOL]` overrides. An option
//! that is neither is disabled, and the run warns once naming it (upstream would report an
//! internal error on every object, which tells a CLI user nothing they can act on).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use kdv_rollout::FeatureGates;

/// Resolves the options a rule set reads, and remembers the undefined ones.
pub struct Options<'a> {
    given: &'a [(String, bool)],
    gates: &'a FeatureGates,
    undefined: Mutex<BTreeSet<String>>,
}

impl<'a> Options<'a> {
    /// The options of a run: `--option` values, else `gates`.
    pub fn new(given: &'a [(String, bool)], gates: &'a FeatureGates) -> Options<'a> {
        Options {
            given,
            gates,
            undefined: Mutex::new(BTreeSet::new()),
        }
    }

    /// The value of each option in `names` (`--option`, else the gate, else disabled).
    pub fn values<'n>(
        &self,
        names: impl IntoIterator<Item = &'n String>,
    ) -> BTreeMap<String, bool> {
        names
            .into_iter()
            .map(|name| (name.clone(), self.value(name).unwrap_or(false)))
            .collect()
    }

    /// Records which of `names` (the options a validated type reads) are neither given nor
    /// gates, for [`Options::warnings`].
    pub fn note<'n>(&self, names: impl IntoIterator<Item = &'n String>) {
        let undefined: Vec<&String> = names
            .into_iter()
            .filter(|n| self.value(n).is_none())
            .collect();
        if !undefined.is_empty()
            && let Ok(mut set) = self.undefined.lock()
        {
            set.extend(undefined.into_iter().cloned());
        }
    }

    /// `--option`, else the gate; `None` when neither defines it.
    fn value(&self, name: &str) -> Option<bool> {
        match self.given.iter().rev().find(|(n, _)| n == name) {
            Some((_, v)) => Some(*v),
            None => self.gates.enabled(name),
        }
    }

    /// One warning per option that was neither given nor a feature gate, sorted.
    pub fn warnings(&self) -> Vec<String> {
        let undefined = self.undefined.lock().map(|u| u.clone()).unwrap_or_default();
        undefined
            .into_iter()
            .map(|name| {
                format!(
                    "warning: validation option {name:?} is neither a feature gate of this release \
                     nor given with --option; rules under it ran with it disabled \
                     (--option {name} enables it)"
                )
            })
            .collect()
    }
}
