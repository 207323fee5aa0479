//! kdv-k8s-api: the declarative (`+k8s:`) rules of Kubernetes' built-in kinds, release by
//! release.
//!
//! The API server of a release validates its built-in kinds with the `+k8s:` tags of that
//! release's kubernetes/api types (KEP-5073; generated code selects every type with
//! `TypeMeta` as a kind). This crate embeds, for each release that has such rules, the type
//! models of the kubernetes/api packages it serves (`testdata/kubernetes-api/v<X.Y>/`,
//! prepared from a kubernetes/api checkout by `kdv-release-data api-types`: declarations and
//! tags, no descriptions, no source text), and compiles one group-version's rules with
//! `kdv-rules` the first time a kind of it is asked for ([`Release::kind`]).
//!
//! Releases before 1.33 have no declarative rules (kubernetes/api carried no validation tags
//! yet): [`Release::new`] returns `None` for them.
//!
//! Each release's directory holds one file per package (`kdv-model`'s serde form) and
//! `PACKAGES.tsv`. A [`Release`] (one per run, `Send + Sync`) loads a group-version's package and
//! the packages it imports, adds kdv's well-known apimachinery packages (`kdv-go`), and compiles
//! its rules with every `TypeMeta` type a root; [`Release::kind`] answers a [`BuiltinKind`]: the
//! rules, the type, and the options its validation reads. Not here: the OpenAPI documents
//! (`kdv-k8s-openapi`) and validation itself (callers run `kdv-eval`). Why data, not source:
//! decision 0062.
//!
//! ```
//! let Some(release) = kdv_k8s_api::Release::new(kdv_k8s_api::latest_version()) else {
//!     unreachable!("the newest release has rules");
//! };
//! let kind = release.kind("v1", "ReplicationController")?.expect("a kind of core/v1");
//! assert_eq!(kind.rules().type_rules(kind.type_id()).qualified_name(), "k8s.io/api/core/v1.ReplicationController");
//! # Ok::<(), kdv_k8s_api::LoadError>(())
//! ```

use std::fmt;
use std::sync::{Arc, OnceLock};

use kdv_model::{Package, Universe};
use kdv_rules::{CompileOptions, Roots, RuleSet, TypeId};

/// The module path of kubernetes/api.
pub const MODULE: &str = "k8s.io/api";

/// One embedded package of one release.
#[derive(Debug)]
pub struct EmbeddedPackage {
    version: &'static str,
    path: &'static str,
    group_version: &'static str,
    len: usize,
    compressed: &'static [u8],
}

include!(concat!(env!("OUT_DIR"), "/packages.rs"));

impl EmbeddedPackage {
    /// The Kubernetes release (`1.36`).
    pub fn version(&self) -> &'static str {
        self.version
    }

    /// The path under `k8s.io/api` (`apps/v1`).
    pub fn path(&self) -> &'static str {
        self.path
    }

    /// The import path (`k8s.io/api/apps/v1`).
    pub fn import_path(&self) -> String {
        format!("{MODULE}/{}", self.path)
    }

    /// The group-version the package serves (`apps/v1`, `v1`), or `None` for a package that
    /// is embedded only because a served one imports it.
    pub fn group_version(&self) -> Option<&'static str> {
        (!self.group_version.is_empty()).then_some(self.group_version)
    }

    /// Decompresses and reads the package's model.
    pub fn load(&self) -> Result<Package, LoadError> {
        let error = |reason: String| LoadError {
            version: self.version,
            path: self.path,
            reason,
        };
        let json = miniz_oxide::inflate::decompress_to_vec_with_limit(self.compressed, self.len)
            .map_err(|e| error(format!("{e}")))?;
        serde_json::from_slice(&json).map_err(|e| error(e.to_string()))
    }
}

/// An embedded package that did not load (a corrupt build; not expected in practice).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    version: &'static str,
    path: &'static str,
    reason: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "embedded Kubernetes {} type model {MODULE}/{}: {}",
            self.version, self.path, self.reason
        )
    }
}

impl std::error::Error for LoadError {}

/// The releases with declarative rules (`["1.33", ..., "1.36"]`), oldest first.
pub fn versions() -> &'static [&'static str] {
    VERSIONS
}

/// The newest release with declarative rules.
pub fn latest_version() -> &'static str {
    VERSIONS.last().copied().unwrap_or("")
}

/// The packages of `version`, sorted by path; none for a release without rules.
pub fn packages(version: &str) -> &'static [EmbeddedPackage] {
    VERSIONS
        .iter()
        .position(|v| *v == version)
        .and_then(|i| PACKAGES.get(i).copied())
        .unwrap_or_default()
}

/// The universe that compiles the rules of one group-version of `version`: its package, the
/// embedded packages it imports (transitively) and kdv's well-known apimachinery packages.
/// `None` when the release has no package serving it.
pub fn universe(version: &str, group_version: &str) -> Result<Option<Universe>, LoadError> {
    let all = packages(version);
    let Some(home) = all
        .iter()
        .find(|p| p.group_version() == Some(group_version))
    else {
        return Ok(None);
    };
    let mut universe = Universe::default();
    let mut pending = vec![home];
    while let Some(embedded) = pending.pop() {
        let import_path = embedded.import_path();
        if universe.packages.contains_key(&import_path) {
            continue;
        }
        let package = embedded.load()?;
        for import in package.imports.values() {
            if let Some(rest) = import
                .strip_prefix(MODULE)
                .and_then(|r| r.strip_prefix('/'))
                && let Some(next) = all.iter().find(|p| p.path == rest)
            {
                pending.push(next);
            }
        }
        universe.packages.insert(import_path, package);
    }
    kdv_go::add_well_known_packages(&mut universe);
    Ok(Some(universe))
}

/// One group-version's compiled rules.
#[derive(Debug)]
pub struct GroupRules {
    rules: RuleSet,
    package: String,
    /// Per root, the options its validation reads.
    options: std::collections::HashMap<TypeId, std::collections::BTreeSet<String>>,
}

impl GroupRules {
    /// The rules (every type of the group-version's package with `TypeMeta` a root).
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The import path of the package (`k8s.io/api/apps/v1`).
    pub fn package(&self) -> &str {
        &self.package
    }
}

/// A built-in kind and the rules that validate it.
#[derive(Debug, Clone)]
pub struct BuiltinKind {
    group: Arc<GroupRules>,
    ty: TypeId,
}

impl BuiltinKind {
    /// The compiled rules of the kind's group-version.
    pub fn rules(&self) -> &RuleSet {
        &self.group.rules
    }

    /// The kind's type among [`BuiltinKind::rules`].
    pub fn type_id(&self) -> TypeId {
        self.ty
    }

    /// The rules of the kind's group-version, shared.
    pub fn group(&self) -> &Arc<GroupRules> {
        &self.group
    }

    /// The validation options the kind's validation reads
    /// ([`RuleSet::option_names_reachable`]), which its operation must define.
    pub fn option_names(&self) -> &std::collections::BTreeSet<String> {
        static NONE: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
        self.group.options.get(&self.ty).unwrap_or(&NONE)
    }
}

/// One group-version's rules, compiled on first use.
type Compiled = OnceLock<Result<Arc<GroupRules>, LoadError>>;

/// The declarative rules of one release, compiled per group-version on first use and shared
/// by every thread that asks.
#[derive(Debug)]
pub struct Release {
    version: &'static str,
    groups: Vec<(&'static str, Compiled)>,
}

impl Release {
    /// The rules of `version` (`1.36`), or `None` when the release has none embedded.
    pub fn new(version: &str) -> Option<Release> {
        let index = VERSIONS.iter().position(|v| *v == version)?;
        let groups = packages(VERSIONS[index])
            .iter()
            .filter_map(|p| p.group_version())
            .map(|gv| (gv, OnceLock::new()))
            .collect();
        Some(Release {
            version: VERSIONS[index],
            groups,
        })
    }

    /// The release (`1.36`).
    pub fn version(&self) -> &'static str {
        self.version
    }

    /// The group-versions with rules.
    pub fn group_versions(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.groups.iter().map(|(gv, _)| *gv)
    }

    /// The compiled rules of a group-version (`apps/v1`, `v1`); `None` when the release's
    /// kubernetes/api has no package for it (e.g. `apiextensions.k8s.io/v1`).
    pub fn group(&self, group_version: &str) -> Result<Option<Arc<GroupRules>>, LoadError> {
        let Some((gv, cell)) = self.groups.iter().find(|(gv, _)| *gv == group_version) else {
            return Ok(None);
        };
        cell.get_or_init(|| compile(self.version, gv))
            .clone()
            .map(Some)
    }

    /// The kind `kind` of `api_version` (`apps/v1`, `Deployment`) with its rules; `None` when
    /// the release has no such kind among its kubernetes/api roots.
    pub fn kind(&self, api_version: &str, kind: &str) -> Result<Option<BuiltinKind>, LoadError> {
        let Some(group) = self.group(api_version)? else {
            return Ok(None);
        };
        Ok(group
            .rules
            .root_for_kind(api_version, kind)
            .map(|ty| BuiltinKind { group, ty }))
    }
}

/// Compiles one group-version's package with its `TypeMeta` types as roots.
fn compile(version: &'static str, group_version: &str) -> Result<Arc<GroupRules>, LoadError> {
    let Some(universe) = universe(version, group_version)? else {
        return Err(LoadError {
            version,
            path: "",
            reason: format!("no package serves {group_version}"),
        });
    };
    let package = packages(version)
        .iter()
        .find(|p| p.group_version() == Some(group_version))
        .map(EmbeddedPackage::import_path)
        .unwrap_or_default();
    let compiled = kdv_rules::compile_with(
        &universe,
        &CompileOptions {
            roots: Roots::TypeMeta,
            package: Some(package.clone()),
            lint: false,
        },
    );
    // The data tool refuses to store packages whose rules have errors; warnings (types of
    // packages kdv does not model, such as runtime.RawExtension) do not matter here.
    let options = compiled
        .rules
        .roots()
        .filter_map(|root| {
            let names = compiled.rules.option_names_reachable(root.id);
            (!names.is_empty()).then_some((root.id, names))
        })
        .collect();
    Ok(Arc::new(GroupRules {
        options,
        rules: compiled.rules,
        package,
    }))
}

#[cfg(test)]
mod tests;
