//! What compiles in each release's environments: one probe per library, function, macro and
//! option, with the release upstream introduced it in.

use super::*;
use crate::checker::compile;

/// How a probe's introduction reaches the two environment types.
#[derive(Clone, Copy, Debug)]
enum Intro {
    /// A row of `base.go` (or `environment.go`): StoredExpressions of 1.N has it from N on,
    /// NewExpressions once the compatibility version 1.(N−1) reaches it.
    Base(u32),
    /// Comes with the cel-go version a release vendors: both environment types from 1.N.
    CelGo(u32),
    /// Refused from 1.N on in both types (an added validator, from its cel-go version).
    RefusedFrom(u32),
    /// In no Kubernetes environment.
    Never,
}

/// The probes: (expression, what it exercises, introduction).
///
/// Transcribed from k8s.io/apiserver `pkg/cel/environment/base.go` at v0.37.0-beta.0
/// (c19df515293eb2c814ee3cca7c46e5c2748e789f; rows compared with v0.30.14 ... v0.36.3), the
/// `go.mod` cel-go version of each release and cel-go's `cel/library.go` (optional library
/// versions), `parser/macro.go` (`existsOne`) and `ext/strings.go` (format validator).
const PROBES: &[(&str, &str, Intro)] = &[
    // Options of 1.0 (URLs, regex, Kubernetes lists), 1.28 and 1.29: in every environment.
    (
        "url('https://example.com/').getHost() == 'example.com'",
        "urls",
        Intro::Base(0),
    ),
    ("'abc'.find('b') == 'b'", "regex", Intro::Base(0)),
    (
        "[1, 2].sum() == 3 && [1, 2].isSorted()",
        "lists (k8s)",
        Intro::Base(0),
    ),
    (
        "[1, 2].indexOf(2) == 1",
        "lists (k8s) indexOf",
        Intro::Base(0),
    ),
    (
        "isQuantity('1Gi') && quantity('1Gi').isGreaterThan(quantity('1Mi'))",
        "quantity",
        Intro::Base(28),
    ),
    ("1 < 2.0", "cross-type numeric comparisons", Intro::Base(28)),
    (
        "optional.of(1).hasValue() && {'a': 1}.?a.orValue(0) == 1",
        "optional types",
        Intro::Base(28),
    ),
    (
        "optional.of(1).optMap(x, x + 1).value() == 2",
        "optional optMap",
        Intro::Base(28),
    ),
    (
        "optional.of(1).optFlatMap(x, optional.of(x)).hasValue()",
        "optional optFlatMap (v1)",
        Intro::Base(28),
    ),
    (
        "'A'.lowerAscii() == 'a' && 'abc'.charAt(1) == 'b'",
        "strings v0",
        Intro::Base(0),
    ),
    (
        "['a', 'b'].join('-') == 'a-b'",
        "strings v2 join",
        Intro::Base(29),
    ),
    (
        "strings.quote('a') == '\"a\"' && '%s'.format(['a']) == 'a'",
        "strings v1 format, quote",
        Intro::Base(29),
    ),
    (
        "sets.contains([1, 2], [1]) && sets.intersects([1], [1])",
        "sets",
        Intro::Base(29),
    ),
    (
        "duration('1x') == duration('1s')",
        "AST validators (duration)",
        Intro::RefusedFrom(29),
    ),
    (
        "'a'.matches('[')",
        "AST validators (regex)",
        Intro::RefusedFrom(29),
    ),
    // 1.30.
    (
        "isIP('10.0.0.1') && ip('10.0.0.1').family() == 4",
        "ip",
        Intro::Base(30),
    ),
    (
        "ip.isCanonical('10.0.0.1')",
        "ip.isCanonical",
        Intro::Base(30),
    ),
    (
        "isCIDR('10.0.0.0/8') && cidr('10.0.0.0/8').containsIP('10.0.0.1')",
        "cidr",
        Intro::Base(30),
    ),
    // 1.31.
    (
        "!format.dns1123Label().validate('a').hasValue()",
        "format",
        Intro::Base(31),
    ),
    (
        "format.named('dns1123Label').hasValue()",
        "format.named",
        Intro::Base(31),
    ),
    (
        "'%d'.format(['a']) == ''",
        "strings format validator (cel-go v0.18)",
        Intro::RefusedFrom(31),
    ),
    // 1.32.
    (
        "[1, 2].all(i, v, v > i)",
        "two-variable all",
        Intro::Base(32),
    ),
    (
        "[1].exists(i, v, v == 1) && [1].existsOne(i, v, v == 1)",
        "two-variable exists",
        Intro::Base(32),
    ),
    (
        "[1].transformList(i, v, v + 1) == [2]",
        "transformList",
        Intro::Base(32),
    ),
    (
        "{'a': 1}.transformMap(k, v, v + 1) == {'a': 2}",
        "transformMap",
        Intro::Base(32),
    ),
    (
        "{'a': 1}.transformMapEntry(k, v, {k: v}) == {'a': 1}",
        "transformMapEntry",
        Intro::Base(32),
    ),
    // 1.33.
    (
        "isSemver('1.0.0') && semver('1.2.3').minor() == 2",
        "semver",
        Intro::Base(33),
    ),
    (
        "semver('v1.0', true).major() == 1 && isSemver('v1', true)",
        "semver v1 normalize",
        Intro::Base(33),
    ),
    (
        "[1].first().hasValue() && [1].last().hasValue()",
        "optional v2 first/last (cel-go v0.23)",
        Intro::CelGo(33),
    ),
    (
        "optional.unwrap([optional.of(1)]) == [1] && [optional.none()].unwrapOpt() == []",
        "optional v2 unwrap (cel-go v0.23)",
        Intro::CelGo(33),
    ),
    (
        "[1].existsOne(x, x == 1)",
        "existsOne macro (cel-go v0.23)",
        Intro::CelGo(33),
    ),
    (
        "[1].exists_one(x, x == 1)",
        "exists_one macro",
        Intro::Base(0),
    ),
    // 1.34.
    (
        "lists.range(3) == [0, 1, 2]",
        "lists v3 range",
        Intro::Base(34),
    ),
    (
        "[2, 1].sort() == [1, 2] && [1, 1].distinct() == [1]",
        "lists v3 sort, distinct",
        Intro::Base(34),
    ),
    (
        "[1, 2].reverse() == [2, 1] && [[1], [2]].flatten() == [1, 2]",
        "lists v3 reverse, flatten",
        Intro::Base(34),
    ),
    (
        "[1, 2].slice(0, 1) == [1]",
        "lists v3 slice",
        Intro::Base(34),
    ),
    (
        "[2, 1].sortBy(x, x) == [1, 2]",
        "lists v3 sortBy macro",
        Intro::Base(34),
    ),
    // 1.37 (its beta).
    (
        "[1, 2].includes(2) && 'a'.includes('a')",
        "lists (k8s) v1 includes",
        Intro::Base(37),
    ),
    // Never in Kubernetes' environment.
    ("cel.bind(x, 1, x == 1)", "bindings extension", Intro::Never),
    ("math.greatest(1, 2) == 2", "math extension", Intro::Never),
    (
        "base64.encode(b'a') == 'YQ=='",
        "encoders extension",
        Intro::Never,
    ),
    (
        "{'a-b': 1}.`a-b` == 1",
        "back-quoted identifiers (cel-go v0.28)",
        Intro::Never,
    ),
];

fn expected(intro: Intro, release: u32, env_type: EnvType) -> bool {
    let version = match env_type {
        EnvType::NewExpressions => release - 1,
        EnvType::StoredExpressions => release,
    };
    match intro {
        Intro::Base(n) => version >= n,
        Intro::CelGo(n) => release >= n,
        Intro::RefusedFrom(n) => release < n,
        Intro::Never => false,
    }
}

#[test]
fn probes_compile_from_their_release_on() {
    let mut failures = Vec::new();
    for release in 30..=37 {
        for env_type in [EnvType::NewExpressions, EnvType::StoredExpressions] {
            let env = env_for(release, env_type);
            for &(src, what, intro) in PROBES {
                let want = expected(intro, release, env_type);
                match compile(src, &env) {
                    Ok(c) if want => {
                        assert_eq!(c.result_type, crate::types::Type::Bool, "{src}");
                    }
                    Err(_) if !want => {}
                    Ok(_) => {
                        failures.push(format!("1.{release} {env_type:?}: {what} compiles: {src}"))
                    }
                    Err(e) => failures.push(format!(
                        "1.{release} {env_type:?}: {what} does not compile: {src}\n{e}"
                    )),
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The probes that compile also run in every environment that has them.
#[test]
fn probes_evaluate_to_true() {
    use crate::interp::{EvalConfig, Program, Vars};
    let options = program_options();
    for &(src, what, intro) in PROBES {
        if matches!(intro, Intro::Never | Intro::RefusedFrom(_)) {
            continue;
        }
        let env = env_for(37, EnvType::StoredExpressions);
        let program = Program::compile(&env, src, &options).expect(src);
        let value = program.eval(&Vars::new(), &EvalConfig::default());
        assert!(
            matches!(value, Ok((crate::value::Value::Bool(true), _))),
            "{what}: {src}: {value:?}"
        );
    }
}

/// The options of each environment, as upstream's table and compatibility versions give them.
#[test]
fn features_follow_the_compatibility_version() {
    use Feature::*;
    let new = |m| features(m, EnvType::NewExpressions);
    let stored = |m| features(m, EnvType::StoredExpressions);
    for m in 30..=37 {
        // NewExpressions of 1.N is StoredExpressions of 1.(N-1) plus what cel-go brings.
        let cel_go = [StringFormatValidator, OptionalTypesV2, ExistsOneMacro];
        let strip = |f: Features| f.iter().filter(|x| !cel_go.contains(x)).collect::<Vec<_>>();
        if m > 30 {
            assert_eq!(strip(new(m)), strip(stored(m - 1)), "1.{m}");
        }
        for f in cel_go {
            assert_eq!(new(m).contains(f), stored(m).contains(f), "1.{m} {f:?}");
        }
        assert!(!stored(m).contains(StringsV0) && stored(m).contains(StringsV2));
        assert_ne!(
            stored(m).contains(Lists),
            stored(m).contains(ListsV1),
            "1.{m}"
        );
    }
    assert!(new(37).contains(Lists) && stored(37).contains(ListsV1));
    assert!(new(30).contains(AstValidators) && new(30).contains(StringsV2));
    assert!(!new(30).contains(Ip) && stored(30).contains(Ip) && new(31).contains(Cidr));
    assert!(!new(31).contains(KeywordFieldNames) && stored(31).contains(KeywordFieldNames));
    assert!(!stored(30).contains(KeywordFieldNames) && new(32).contains(KeywordFieldNames));
    assert!(!new(32).contains(Semver) && new(34).contains(Semver));
    assert!(!new(34).contains(ExtListsV3) && new(35).contains(ExtListsV3));
    assert!(!new(36).contains(AuthzSelectors) || stored(35).contains(AuthzSelectors));
    // Releases outside the modelled range: newer ones know everything of 1.37, older ones
    // the rows of their version.
    assert_eq!(new(40), stored(37));
    assert_eq!(new(38), stored(37));
    assert_eq!(stored(40), stored(37));
    assert!(!stored(29).contains(Ip) && stored(29).contains(Sets) && !new(29).contains(Sets));
    assert!(new(29).contains(StringsV0) && !new(29).contains(StringsV2));
    // 1.35 and 1.36 add nothing; 1.37 versions Kubernetes' lists library.
    assert_eq!(new(36), stored(36));
    assert_eq!(stored(35), stored(36));
    assert_eq!(new(37), stored(36));
}

/// `env()` is the newest StoredExpressions environment, today's full environment.
#[test]
fn env_is_the_newest_stored_environment() {
    let env = env();
    assert_eq!(env.options.parse.macros, crate::parser::Macros::KUBERNETES);
    let mut names: Vec<&str> = env.libraries.iter().map(|l| l.name.as_str()).collect();
    names.sort_unstable();
    let mut want: Vec<&str> = environments::kubernetes()
        .iter()
        .map(|l| l.name())
        .chain(["kubernetes.base"])
        .collect();
    want.sort_unstable();
    assert_eq!(names, want);
}

/// Every declaration (function overload, variable, type identifier) of `env()` is one of the
/// full environment (the base environment and
/// every Kubernetes library at its newest version), and the other way round.
#[test]
fn env_declares_every_library_at_its_newest_version() {
    fn overloads(env: &Env) -> Vec<String> {
        let mut out: Vec<String> = env
            .libraries
            .iter()
            .flat_map(|l| l.functions.iter())
            .flat_map(|f| {
                f.overloads
                    .iter()
                    .map(move |o| format!("{} {}", f.name, o.id))
            })
            .chain(
                env.libraries
                    .iter()
                    .flat_map(|l| l.variables.iter().map(|v| format!("var {}", v.name))),
            )
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
    let mut full = Env::kubernetes();
    add_declarations(&mut full);
    assert_eq!(overloads(&env()), overloads(&full));
    let new = env_for(36, EnvType::NewExpressions);
    assert!(overloads(&new).len() < overloads(&full).len());
}

/// Errors are cel-go's, as the API server reports a rule of an undeclared function or macro.
#[test]
fn missing_functions_are_undeclared_references() {
    let err = |m, t, src| compile(src, &env_for(m, t)).unwrap_err().to_string();
    assert_eq!(
        err(
            31,
            EnvType::NewExpressions,
            "format.dns1123Label().validate('a') == optional.none()"
        ),
        "ERROR: <input>:1:1: undeclared reference to 'format' (in container '')\n \
         | format.dns1123Label().validate('a') == optional.none()\n \
         | ^\nERROR: <input>:1:20: undeclared reference to 'dns1123Label' (in container '')\n \
         | format.dns1123Label().validate('a') == optional.none()\n \
         | ...................^\nERROR: <input>:1:31: undeclared reference to 'validate' (in container '')\n \
         | format.dns1123Label().validate('a') == optional.none()\n \
         | ..............................^"
    );
    // A macro the environment lacks is a call: its variables and the function are undeclared
    // (cel-go sorts issues by position).
    assert_eq!(
        err(32, EnvType::NewExpressions, "[1].all(i, v, v > 0)"),
        "ERROR: <input>:1:8: undeclared reference to 'all' (in container '')\n \
         | [1].all(i, v, v > 0)\n \
         | .......^\nERROR: <input>:1:9: undeclared reference to 'i' (in container '')\n \
         | [1].all(i, v, v > 0)\n \
         | ........^\nERROR: <input>:1:12: undeclared reference to 'v' (in container '')\n \
         | [1].all(i, v, v > 0)\n \
         | ...........^\nERROR: <input>:1:15: undeclared reference to 'v' (in container '')\n \
         | [1].all(i, v, v > 0)\n \
         | ..............^"
    );
}

/// Environments are shared per release and type, and one per distinct set of options.
#[test]
fn environments_are_cached() {
    let a = shared_env(35, EnvType::StoredExpressions);
    let b = shared_env(35, EnvType::StoredExpressions);
    assert!(std::ptr::eq(a, b));
    let c = shared_env(36, EnvType::NewExpressions);
    assert!(
        Arc::ptr_eq(&a.libraries[0], &c.libraries[0]),
        "same options, one environment"
    );
}

/// `Feature::ALL` lists every feature once, so a set's `iter` shows all of it.
#[test]
fn every_feature_is_listed_once() {
    let mut all = Features::EMPTY;
    for f in Feature::ALL {
        assert!(!all.contains(f), "{f:?} twice");
        all = all.with(f);
    }
    for row in BASE_OPTIONS {
        for &f in row.features {
            assert!(all.contains(f), "{f:?}");
        }
    }
    assert_eq!(all.iter().count(), Feature::ALL.len());
}
