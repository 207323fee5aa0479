//! The embedded table of kube-apiserver's feature gates (`data/feature-gates.txt`, see its
//! README for sources), read once per process.

use std::fmt;
use std::sync::OnceLock;

use super::{GateSpec, PreRelease};

const DATA: &str = include_str!("../../data/feature-gates.txt");

/// The code base that registers a gate in kube-apiserver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Component {
    /// kubernetes/kubernetes `pkg/features`.
    Kubernetes,
    /// k8s.io/apiserver `pkg/features`.
    Apiserver,
    /// k8s.io/apiextensions-apiserver `pkg/features`.
    ApiextensionsApiserver,
    /// k8s.io/controller-manager `pkg/features` (relisted by `pkg/features`).
    ControllerManager,
    /// k8s.io/component-base `logs/api/v1`.
    ComponentBaseLogs,
    /// k8s.io/component-base `metrics/features`.
    ComponentBaseMetrics,
    /// k8s.io/component-base `zpages/features`.
    ComponentBaseZpages,
    /// k8s.io/client-go `features`.
    ClientGo,
}

impl Component {
    const ALL: [Component; 8] = [
        Component::Kubernetes,
        Component::Apiserver,
        Component::ApiextensionsApiserver,
        Component::ControllerManager,
        Component::ComponentBaseLogs,
        Component::ComponentBaseMetrics,
        Component::ComponentBaseZpages,
        Component::ClientGo,
    ];

    /// The name used in the data file (`kubernetes`, `apiserver`, `component-base/logs`...).
    pub fn as_str(self) -> &'static str {
        match self {
            Component::Kubernetes => "kubernetes",
            Component::Apiserver => "apiserver",
            Component::ApiextensionsApiserver => "apiextensions-apiserver",
            Component::ControllerManager => "controller-manager",
            Component::ComponentBaseLogs => "component-base/logs",
            Component::ComponentBaseMetrics => "component-base/metrics",
            Component::ComponentBaseZpages => "component-base/zpages",
            Component::ClientGo => "client-go",
        }
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One gate of the table.
#[derive(Debug)]
pub(crate) struct Entry {
    pub(crate) name: &'static str,
    pub(crate) component: Component,
    /// The first release that no longer registers the gate.
    pub(crate) removed_in: Option<(u32, u32)>,
    /// Oldest first.
    pub(crate) specs: Vec<GateSpec>,
}

impl Entry {
    /// Whether kube-apiserver registers the gate at `version` (PreAlpha included).
    pub(crate) fn registered_at(&self, version: (u32, u32)) -> bool {
        self.removed_in.is_none_or(|r| version < r)
    }

    /// The spec in force at `version` (component-base's `featureSpecAtEmulationVersion`).
    pub(crate) fn spec_at(&self, version: (u32, u32)) -> GateSpec {
        spec_at(&self.specs, version)
    }
}

/// The newest spec not newer than `version`, else a disabled PreAlpha spec.
pub(crate) fn spec_at(specs: &[GateSpec], version: (u32, u32)) -> GateSpec {
    specs
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

/// `gate` needs every gate of `needs` enabled, from component-base's validation at `release`.
#[derive(Debug)]
pub(crate) struct Dependency {
    pub(crate) release: (u32, u32),
    pub(crate) gate: &'static str,
    pub(crate) needs: Vec<&'static str>,
}

/// The parsed data file.
#[derive(Debug, Default)]
pub(crate) struct Table {
    /// Sorted by name (byte order) for binary search.
    entries: Vec<Entry>,
    /// Sorted by release, then gate name.
    dependencies: Vec<Dependency>,
}

impl Table {
    /// The embedded table (empty if the data file did not parse, which a test rules out).
    pub(crate) fn get() -> &'static Table {
        static TABLE: OnceLock<Table> = OnceLock::new();
        TABLE.get_or_init(|| Table::parse(DATA).unwrap_or_default())
    }

    /// Reads the data file format (see the file's header).
    pub(crate) fn parse(text: &'static str) -> Result<Table, String> {
        let mut table = Table::default();
        for (n, line) in text.lines().enumerate() {
            let at = |msg: &str| format!("line {}: {msg}: {line:?}", n + 1);
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&'static str> = line.split('\t').collect();
            if fields.first() == Some(&"depends") {
                let [_, release, gate, needs] = fields[..] else {
                    return Err(at("a dependency line has four fields"));
                };
                table.dependencies.push(Dependency {
                    release: parse_release(release).ok_or_else(|| at("bad release"))?,
                    gate,
                    needs: needs.split(',').collect(),
                });
                continue;
            }
            let [name, component, removed, specs] = fields[..] else {
                return Err(at("a gate line has four fields"));
            };
            let component = Component::ALL
                .into_iter()
                .find(|c| c.as_str() == component)
                .ok_or_else(|| at("unknown component"))?;
            let removed_in = match removed {
                "-" => None,
                r => Some(parse_release(r).ok_or_else(|| at("bad removal release"))?),
            };
            let specs = specs
                .split(' ')
                .map(parse_spec)
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| at("bad spec"))?;
            if specs.is_empty() || specs.windows(2).any(|w| w[0].version >= w[1].version) {
                return Err(at("specs must be in increasing version order"));
            }
            table.entries.push(Entry {
                name,
                component,
                removed_in,
                specs,
            });
        }
        table.entries.sort_by(|a, b| a.name.cmp(b.name));
        // Go sorts each list; kdv reports gates in name order (Go's map order is random).
        for d in &mut table.dependencies {
            d.needs.sort_unstable();
        }
        table
            .dependencies
            .sort_by(|a, b| (a.release, a.gate).cmp(&(b.release, b.gate)));
        if table.entries.windows(2).any(|w| w[0].name == w[1].name) {
            return Err("a gate is listed twice".to_owned());
        }
        for d in &table.dependencies {
            for name in std::iter::once(&d.gate).chain(&d.needs) {
                if table.entry(name).is_none() {
                    return Err(format!("dependency on an unknown gate {name}"));
                }
            }
        }
        Ok(table)
    }

    /// The gate named `name` (exact, case-sensitive), registered or not.
    pub(crate) fn entry(&self, name: &str) -> Option<&Entry> {
        self.entries
            .binary_search_by(|e| e.name.cmp(name))
            .ok()
            .map(|i| &self.entries[i])
    }

    /// Every gate, sorted by name.
    pub(crate) fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The dependencies component-base validates at `version`: none before 1.35, the 1.37
    /// list after it.
    pub(crate) fn dependencies_at(&self, version: (u32, u32)) -> impl Iterator<Item = &Dependency> {
        let newest = self
            .dependencies
            .iter()
            .map(|d| d.release)
            .max()
            .unwrap_or((0, 0));
        let release = version.min(newest);
        self.dependencies
            .iter()
            .filter(move |d| d.release == release)
    }
}

fn parse_release(s: &str) -> Option<(u32, u32)> {
    let (major, minor) = s.split_once('.')?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// `1.33:true:Beta`, `1.36:true:GA:locked`.
fn parse_spec(s: &str) -> Option<GateSpec> {
    let mut parts = s.split(':');
    let version = parse_release(parts.next()?)?;
    let default = match parts.next()? {
        "true" => true,
        "false" => false,
        _ => return None,
    };
    let pre_release = match parts.next()? {
        "Alpha" => PreRelease::Alpha,
        "Beta" => PreRelease::Beta,
        "GA" => PreRelease::Ga,
        "Deprecated" => PreRelease::Deprecated,
        _ => return None,
    };
    let lock_to_default = match parts.next() {
        None => false,
        Some("locked") => true,
        Some(_) => return None,
    };
    if parts.next().is_some() {
        return None;
    }
    Some(GateSpec {
        version,
        default,
        pre_release,
        lock_to_default,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_data_parses() {
        let table = Table::parse(DATA).expect("data/feature-gates.txt");
        assert!(table.entries().len() > 300, "{}", table.entries().len());
        assert!(table.dependencies.len() > 100);
    }

    #[test]
    fn malformed_lines_are_errors() {
        for bad in [
            "X\tkubernetes\t-\t1.30:maybe:Beta",
            "X\tkubernetes\t-\t1.30:true:Gamma",
            "X\tkubernetes\t-\t1.31:true:Beta 1.30:true:GA",
            "X\tnowhere\t-\t1.30:true:Beta",
            "X\tkubernetes\t1.x\t1.30:true:Beta",
            "X\tkubernetes\t-",
            "depends\t1.36\tX\tY",
        ] {
            assert!(Table::parse(bad).is_err(), "{bad}");
        }
        let ok = Table::parse("X\tkubernetes\t1.32\t0.0:true:GA:locked").unwrap();
        let x = ok.entry("X").unwrap();
        assert!(x.registered_at((1, 31)) && !x.registered_at((1, 32)));
        assert_eq!(x.spec_at((1, 20)).pre_release, PreRelease::Ga);
    }
}
