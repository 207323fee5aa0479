//! Which options Kubernetes' CEL environment holds at each release and environment type:
//! k8s.io/apiserver's versioned base environment (`pkg/cel/environment`) transcribed as data.
//!
//! Upstream lists every library and setting of its base environment with the release that
//! introduced it, and the release that removed it (`base.go`, `baseOpts`). An `EnvSet` builds
//! two environments from that list (`environment.go`):
//!
//! - **StoredExpressions**: every option the release knows. It compiles rules that are already
//!   stored: custom resources are validated with it, and so are the rules a CRD update keeps.
//! - **NewExpressions**: only the options introduced at or before the *compatibility version*,
//!   so that a rule written now still compiles on the release before (a rollback). It compiles
//!   the rules a CRD create or update adds or changes.
//!
//! The compatibility version is `environment.DefaultCompatibilityVersion()`. In 1.30 it is the
//! constant 1.29; from 1.31 it is the kube component's `MinCompatibilityVersion`, which
//! defaults to the (emulated) binary version minus one (apiserver `pkg/util/version` in 1.31,
//! component-base `version` in 1.32, component-base `compatibility` from 1.33, which also
//! floors it at max(1.31, n−3), a floor the default never reaches). Two rules, one value: at
//! every release 1.N from 1.30 to 1.37 it is 1.(N−1) ([`compatibility_minor`]).
//!
//! A release's environment also depends on the cel-go version it vendors: options upstream
//! adds without a version take the newest library of that cel-go (`cel.OptionalTypes()`), and
//! cel-go's own parser and checker features come with it. Those are rows whose
//! [`Introduction`] is [`Introduction::CelGo`]: both environment types of the release have
//! them.
//!
//! The releases modelled are 1.30 to 1.36 and 1.37 as its beta has it (v0.37.0-beta.0:
//! Kubernetes' lists library v1 with `includes`, cel-go v0.27.0; master has since moved to
//! cel-go v0.29, whose parser accepts back-quoted identifiers by default). For other releases
//! the table is read at their versions with the cel-go of the nearest modelled release
//! ([`modelled_release`]): a newer release has everything of 1.37 (its compatibility version
//! is 1.37 or later), an older one the rows of its version (only approximately its
//! environment: older cel-go, and no versioned environment before 1.28). Also not modelled:
//! cel-go before v0.23 (Kubernetes 1.30–1.32) named the accumulator of comprehension macros
//! `__result__`, an identifier rules could reference; kdv's parser always hides it.

use std::fmt;

/// One option of Kubernetes' CEL environment: a library at a version, a checker or parser
/// setting, a cost setting. The rows of [`BASE_OPTIONS`] say when each is present.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Feature {
    /// `cel.HomogeneousAggregateLiterals()`: list and map literals of one element type.
    HomogeneousAggregateLiterals,
    /// `cel.DefaultUTCTimeZone(true)`: timestamp accessors without a time zone use UTC (kdv
    /// always does).
    DefaultUtcTimeZone,
    /// `checker.PresenceTestHasCost(false)` and `interpreter.PresenceTestHasCost(false)`:
    /// `has()` costs nothing (kdv's `CostOptions::kubernetes`, `ProgramOptions::kubernetes`).
    PresenceTestWithoutCost,
    /// Kubernetes' URLs library: `url`, `isURL`, `getScheme`, `getHost`, ...
    Urls,
    /// Kubernetes' regex library: `find`, `findAll`.
    Regex,
    /// Kubernetes' lists library at version 0: `isSorted`, `sum`, `min`, `max`, `indexOf`,
    /// `lastIndexOf` on lists.
    Lists,
    /// Kubernetes' lists library at version 1: adds `includes`.
    ListsV1,
    /// Kubernetes' authorizer library (`authorizer.group(...)...`). Not implemented: CRD rules
    /// have no authorizer value to call it on.
    Authz,
    /// `cel.CrossTypeNumericComparisons(true)`: `1 < 2.0` type-checks.
    CrossTypeNumericComparisons,
    /// `cel.OptionalTypes()`: `optional.of`, `.?field`, `[?i]`, `optMap`, `optFlatMap`, ...
    OptionalTypes,
    /// Kubernetes' quantity library: `quantity`, `isQuantity`, `isGreaterThan`, ...
    Quantity,
    /// `cel.ASTValidators(...)`: literal arguments of `duration`, `timestamp` and `matches`
    /// checked at compile time, homogeneous aggregate literals.
    AstValidators,
    /// cel-go's strings extension at version 0 (`charAt`, `indexOf`, `lowerAscii`, ...).
    StringsV0,
    /// cel-go's strings extension at version 2 (adds `format`, `strings.quote`, `join`).
    StringsV2,
    /// cel-go's sets extension: `sets.contains`, `sets.equivalent`, `sets.intersects`.
    Sets,
    /// Kubernetes' IP library: `ip`, `isIP`, `ip.isCanonical`, `family`, ...
    Ip,
    /// Kubernetes' CIDR library: `cidr`, `isCIDR`, `containsIP`, `containsCIDR`, ...
    Cidr,
    /// Kubernetes' format library: `format.dns1123Label()`, `format.named(...)`,
    /// `<format>.validate(...)`.
    Format,
    /// Kubernetes' authorizer selectors library (`fieldSelector`, `labelSelector` on an
    /// authorizer's resource check). Not implemented, as [`Feature::Authz`].
    AuthzSelectors,
    /// cel-go's two-variable comprehensions: `all`, `exists`, `existsOne` with two variables,
    /// `transformList`, `transformMap`, `transformMapEntry`.
    TwoVarComprehensions,
    /// Kubernetes' semver library at version 1: `semver`, `isSemver` (with the `normalize`
    /// argument), `major`, `minor`, `patch`, comparisons.
    Semver,
    /// cel-go's lists extension at version 3: `lists.range`, `slice`, `flatten`, `distinct`,
    /// `reverse`, `sort`, `sortBy`.
    ExtListsV3,
    /// `cel.CostTracking(&library.CostEstimator{})`: Kubernetes' runtime costs of its library
    /// functions (kdv's `Registry::kubernetes`).
    KubernetesRuntimeCosts,
    /// Declared types find a field named by a CEL reserved word under its escaped name
    /// (`self.namespace` selects the property `namespace`, whose CEL name is
    /// `__namespace__`): `DeclTypeProvider.SetRecognizeKeywordAsFieldName`.
    KeywordFieldNames,
    /// The checker validates `'<literal>'.format([...])` against its arguments (the strings
    /// extension's format validator).
    StringFormatValidator,
    /// The optional library at version 2: `first`, `last`, `optional.unwrap`, `unwrapOpt`
    /// (version 1 before: `optMap`, `optFlatMap`).
    OptionalTypesV2,
    /// The `existsOne` spelling of the `exists_one` macro.
    ExistsOneMacro,
}

impl Feature {
    /// Every feature, in declaration order.
    pub const ALL: [Feature; 27] = [
        Feature::HomogeneousAggregateLiterals,
        Feature::DefaultUtcTimeZone,
        Feature::PresenceTestWithoutCost,
        Feature::Urls,
        Feature::Regex,
        Feature::Lists,
        Feature::ListsV1,
        Feature::Authz,
        Feature::CrossTypeNumericComparisons,
        Feature::OptionalTypes,
        Feature::Quantity,
        Feature::AstValidators,
        Feature::StringsV0,
        Feature::StringsV2,
        Feature::Sets,
        Feature::Ip,
        Feature::Cidr,
        Feature::Format,
        Feature::AuthzSelectors,
        Feature::TwoVarComprehensions,
        Feature::Semver,
        Feature::ExtListsV3,
        Feature::KubernetesRuntimeCosts,
        Feature::KeywordFieldNames,
        Feature::StringFormatValidator,
        Feature::OptionalTypesV2,
        Feature::ExistsOneMacro,
    ];

    const fn bit(self) -> u64 {
        1 << self as u64
    }
}

/// A set of [`Feature`]s: what one environment holds.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Features(u64);

impl Features {
    /// No feature.
    pub const EMPTY: Features = Features(0);

    /// Whether `f` is in the set.
    pub const fn contains(self, f: Feature) -> bool {
        self.0 & f.bit() != 0
    }

    /// The set with `f` added.
    pub const fn with(self, f: Feature) -> Features {
        Features(self.0 | f.bit())
    }

    /// The features of the set, in [`Feature::ALL`]'s order.
    pub fn iter(self) -> impl Iterator<Item = Feature> {
        Feature::ALL.into_iter().filter(move |&f| self.contains(f))
    }
}

impl fmt::Debug for Features {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Upstream's two environment types (`environment.Type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EnvType {
    /// Rules a CRD create or update adds or changes: only options introduced at or before the
    /// release's compatibility version.
    NewExpressions,
    /// Rules already stored (custom resource validation, rules a CRD update keeps): every
    /// option of the release.
    StoredExpressions,
}

/// What decides whether a row's options are in an environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Introduction {
    /// A `VersionedOptions` of `base.go`: in StoredExpressions from `introduced`, in
    /// NewExpressions once the compatibility version reaches it; gone from both once
    /// `removed` is reached.
    BaseOptions,
    /// `environment.go`'s declared-type provider: as [`Introduction::BaseOptions`].
    DeclTypes,
    /// The cel-go version (named) the release vendors: both environment types of every
    /// release from `introduced` on.
    CelGo(&'static str),
}

/// One row: options and the Kubernetes minor versions (1.x) that introduced and removed them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VersionedOption {
    /// The minor version that introduced the options (0: "always", upstream's 1.0).
    pub introduced: u32,
    /// The minor version that removed them (replaced by a newer version of the library).
    pub removed: Option<u32>,
    /// The options.
    pub features: &'static [Feature],
    /// Where the row comes from, which decides how environment types see it.
    pub by: Introduction,
}

impl VersionedOption {
    /// Whether the row's options are in the environment of `release` whose options are
    /// filtered at minor version `version` (the compatibility version, or the release itself).
    fn applies(&self, release: u32, version: u32) -> bool {
        match self.by {
            Introduction::CelGo(_) => release >= self.introduced,
            Introduction::BaseOptions | Introduction::DeclTypes => {
                self.introduced <= version && self.removed.is_none_or(|r| version < r)
            }
        }
    }
}

/// The oldest release modelled.
pub const OLDEST_MINOR: u32 = 30;
/// The newest release modelled (1.37 as of its beta, v0.37.0-beta.0).
pub const NEWEST_MINOR: u32 = 37;

/// The cel-go version each modelled release vendors (k8s.io/apiserver `go.mod` at v0.30.14,
/// v0.31.14, v0.32.13, v0.33.13, v0.34.10, v0.35.7, v0.36.3, v0.37.0-beta.0).
pub const CEL_GO_VERSIONS: [(u32, &str); 8] = [
    (30, "v0.17.8"),
    (31, "v0.20.1"),
    (32, "v0.22.0"),
    (33, "v0.23.2"),
    (34, "v0.26.0"),
    (35, "v0.26.0"),
    (36, "v0.26.0"),
    (37, "v0.27.0"),
];

/// Kubernetes' versioned CEL environment, row by row.
///
/// Source: k8s.io/apiserver `pkg/cel/environment/base.go` (`baseOpts`, `StrictCostOpt`) at
/// v0.37.0-beta.0 (commit c19df515293eb2c814ee3cca7c46e5c2748e789f; identical on master at
/// 24a394e516bfda066d7e2221d7d92c052de27c54), compared with
/// v0.36.3 (dac04d6b7804f67da56964d877a4dd1db0dff251), v0.35.7, v0.34.10, v0.33.13, v0.32.13,
/// v0.31.14 and v0.30.14: rows are only ever added, each in the release it names (1.35 and
/// 1.36 add none; 1.37 versions Kubernetes' lists library); `environment.go`'s keyword field
/// names (v0.31.14 on); cel-go's changelog between the versions of [`CEL_GO_VERSIONS`]
/// (`cel/library.go`, `parser/macro.go`, `ext/strings.go`).
///
/// The authorizer selectors row also has a feature gate (`AuthorizeWithSelectors`: alpha and
/// off in 1.31, on from 1.32) that NewExpressions honours; with the default gates it never
/// changes the outcome (1.31's compatibility version 1.30 already leaves the row out).
pub const BASE_OPTIONS: &[VersionedOption] = &[
    VersionedOption {
        introduced: 0,
        removed: None,
        features: &[
            Feature::HomogeneousAggregateLiterals,
            Feature::DefaultUtcTimeZone,
            Feature::Urls,
            Feature::Regex,
            Feature::PresenceTestWithoutCost,
        ],
        by: Introduction::BaseOptions,
    },
    VersionedOption {
        introduced: 0,
        removed: Some(37),
        features: &[Feature::Lists],
        by: Introduction::BaseOptions,
    },
    VersionedOption {
        introduced: 27,
        removed: None,
        features: &[Feature::Authz],
        by: Introduction::BaseOptions,
    },
    VersionedOption {
        introduced: 28,
        removed: None,
        features: &[
            Feature::CrossTypeNumericComparisons,
            Feature::OptionalTypes,
            Feature::Quantity,
        ],
        by: Introduction::BaseOptions,
    },
    VersionedOption {
        introduced: 29,
        removed: None,
        features: &[Feature::AstValidators],
        by: Introduction::BaseOptions,
    },
    VersionedOption {
        introduced: 0,
        removed: Some(29),
        features: &[Feature::StringsV0],
        by: Introduction::BaseOptions,
    },
    VersionedOption {
        introduced: 29,
        removed: None,
        features: &[Feature::StringsV2],
        by: Introduction::BaseOptions,
    },
    VersionedOption {
        introduced: 29,
        removed: None,
        features: &[Feature::Sets],
        by: Introduction::BaseOptions,
    },
    VersionedOption {
        introduced: 30,
        removed: None,
        features: &[Feature::Ip, Feature::Cidr],
        by: Introduction::BaseOptions,
    },
    VersionedOption {
        introduced: 31,
        removed: None,
        features: &[Feature::Format],
        by: Introduction::BaseOptions,
    },
    VersionedOption {
        introduced: 31,
        removed: None,
        features: &[Feature::AuthzSelectors],
        by: Introduction::BaseOptions,
    },
    VersionedOption {
        introduced: 32,
        removed: None,
        features: &[Feature::TwoVarComprehensions],
        by: Introduction::BaseOptions,
    },
    VersionedOption {
        introduced: 33,
        removed: None,
        features: &[Feature::Semver],
        by: Introduction::BaseOptions,
    },
    VersionedOption {
        introduced: 34,
        removed: None,
        features: &[Feature::ExtListsV3],
        by: Introduction::BaseOptions,
    },
    VersionedOption {
        introduced: 37,
        removed: None,
        features: &[Feature::ListsV1],
        by: Introduction::BaseOptions,
    },
    // `StrictCostOpt`.
    VersionedOption {
        introduced: 0,
        removed: None,
        features: &[Feature::KubernetesRuntimeCosts],
        by: Introduction::BaseOptions,
    },
    // `filterAndBuildOpts`: `provider.SetRecognizeKeywordAsFieldName(true)` when the
    // version the options are filtered at is 1.31 or later.
    VersionedOption {
        introduced: 31,
        removed: None,
        features: &[Feature::KeywordFieldNames],
        by: Introduction::DeclTypes,
    },
    // cel-go v0.18.0 added the strings extension's format validator (1.30 vendors v0.17.8).
    VersionedOption {
        introduced: 31,
        removed: None,
        features: &[Feature::StringFormatValidator],
        by: Introduction::CelGo("v0.18.0"),
    },
    // cel-go v0.23.0: optional library version 2 (`cel.OptionalTypes()` takes the newest)
    // and the `existsOne` macro among the standard macros.
    VersionedOption {
        introduced: 33,
        removed: None,
        features: &[Feature::OptionalTypesV2, Feature::ExistsOneMacro],
        by: Introduction::CelGo("v0.23.0"),
    },
];

/// The modelled release whose code (cel-go version, rows of the table) stands for
/// Kubernetes 1.`minor`: 1.30 for older releases, 1.37 for newer ones.
pub fn modelled_release(minor: u32) -> u32 {
    minor.clamp(OLDEST_MINOR, NEWEST_MINOR)
}

/// The compatibility version (its minor) of the NewExpressions environment of release
/// 1.`release`: 1.29 in 1.30 (a constant), the binary version minus one from 1.31 on.
pub fn compatibility_minor(release: u32) -> u32 {
    release.saturating_sub(1)
}

/// The options of the `env_type` environment of Kubernetes 1.`minor` (see
/// [`modelled_release`] for releases outside 1.30–1.37).
pub fn features(minor: u32, env_type: EnvType) -> Features {
    let release = modelled_release(minor);
    // The version the table is read at; newer releases know no row 1.37 does not.
    let version = match env_type {
        EnvType::NewExpressions => compatibility_minor(minor),
        EnvType::StoredExpressions => minor,
    }
    .min(NEWEST_MINOR);
    let mut out = Features::EMPTY;
    for row in BASE_OPTIONS {
        if row.applies(release, version) {
            for &f in row.features {
                out = out.with(f);
            }
        }
    }
    out
}
