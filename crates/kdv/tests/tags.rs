//! Every tag of the catalog through `#[derive(Validate)]`: one fixture module per tag
//! family (`tags/*.rs`, modelled on upstream's validation-gen `output_tests/tags`), each
//! root type run through the differential harness (generated validation against the
//! interpreter on 10,000 random objects, create and update), and a check that every
//! catalog tag is used by some fixture.

#[path = "support/differential.rs"]
mod differential;

#[path = "tags/cel_rules.rs"]
mod cel_rules;
#[path = "tags/crossfield.rs"]
mod crossfield;
#[path = "tags/custom.rs"]
mod custom;
#[path = "tags/defaults.rs"]
mod defaults;
#[path = "tags/dependencies.rs"]
mod dependencies;
#[path = "tags/each.rs"]
mod each;
#[path = "tags/enums.rs"]
mod enums;
#[path = "tags/extensions.rs"]
mod extensions;
#[path = "tags/format.rs"]
mod format;
#[path = "tags/immutable.rs"]
mod immutable;
#[path = "tags/item.rs"]
mod item;
#[path = "tags/item_update.rs"]
mod item_update;
#[path = "tags/levels.rs"]
mod levels;
#[path = "tags/limits.rs"]
mod limits;
#[path = "tags/lists.rs"]
mod lists;
#[path = "tags/modes.rs"]
mod modes;
#[path = "tags/native.rs"]
mod native;
#[path = "tags/neq.rs"]
mod neq;
#[path = "tags/opaque.rs"]
mod opaque;
#[path = "tags/options.rs"]
mod options;
#[path = "tags/presence.rs"]
mod presence;
#[path = "tags/shapes.rs"]
mod shapes;
#[path = "tags/subfield.rs"]
mod subfield;
#[path = "tags/testing.rs"]
mod testing;
#[path = "tags/unions.rs"]
mod unions;
#[path = "tags/update.rs"]
mod update;
#[path = "tags/virtual_fields.rs"]
mod virtual_fields;

/// Cases per fixture type (the measure).
const CASES: u32 = 10_000;

/// The fixture files, by name, with their text.
const FIXTURES: &[(&str, &str)] = &[
    ("limits.rs", include_str!("tags/limits.rs")),
    ("presence.rs", include_str!("tags/presence.rs")),
    ("enums.rs", include_str!("tags/enums.rs")),
    ("format.rs", include_str!("tags/format.rs")),
    ("neq.rs", include_str!("tags/neq.rs")),
    ("immutable.rs", include_str!("tags/immutable.rs")),
    ("update.rs", include_str!("tags/update.rs")),
    ("lists.rs", include_str!("tags/lists.rs")),
    ("each.rs", include_str!("tags/each.rs")),
    ("item.rs", include_str!("tags/item.rs")),
    ("subfield.rs", include_str!("tags/subfield.rs")),
    ("unions.rs", include_str!("tags/unions.rs")),
    ("modes.rs", include_str!("tags/modes.rs")),
    ("dependencies.rs", include_str!("tags/dependencies.rs")),
    ("options.rs", include_str!("tags/options.rs")),
    ("testing.rs", include_str!("tags/testing.rs")),
    ("levels.rs", include_str!("tags/levels.rs")),
    ("opaque.rs", include_str!("tags/opaque.rs")),
    ("custom.rs", include_str!("tags/custom.rs")),
    ("shapes.rs", include_str!("tags/shapes.rs")),
    ("native.rs", include_str!("tags/native.rs")),
    ("extensions.rs", include_str!("tags/extensions.rs")),
    ("virtual_fields.rs", include_str!("tags/virtual_fields.rs")),
    ("cel_rules.rs", include_str!("tags/cel_rules.rs")),
    ("defaults.rs", include_str!("tags/defaults.rs")),
    ("crossfield.rs", include_str!("tags/crossfield.rs")),
    ("item_update.rs", include_str!("tags/item_update.rs")),
];

fn source(file: &str) -> &'static str {
    FIXTURES
        .iter()
        .find(|(f, _)| *f == file)
        .map(|(_, s)| *s)
        .unwrap_or_else(|| panic!("fixture {file} is listed in FIXTURES"))
}

/// One differential run of 10,000 cases per listed type of a fixture; `mixed` types must
/// see both valid and invalid objects.
macro_rules! agree {
    ($test:ident, $module:ident, $file:literal, mixed: [$($ty:ident),* $(,)?] $(, valid_or_invalid: [$($ty2:ident),* $(,)?])? $(, custom: $custom:expr)?) => {
        #[test]
        fn $test() {
            let source = source($file);
            #[allow(unused_mut, unused_assignments)]
            let mut custom: Option<&dyn kdv_eval::CustomValidators> = None;
            $(let registry = $custom; custom = Some(&registry);)?
            $(
                let started = std::time::Instant::now();
                let stats = differential::check_with::<$module::$ty>($file, source, stringify!($ty), CASES, custom);
                eprintln!("{}::{}: {stats:?} in {:.1?}", stringify!($module), stringify!($ty), started.elapsed());
                assert_eq!(stats.cases, CASES);
                stats.assert_mixed();
            )*
            $($(
                let started = std::time::Instant::now();
                let stats = differential::check_with::<$module::$ty2>($file, source, stringify!($ty2), CASES, custom);
                eprintln!("{}::{}: {stats:?} in {:.1?}", stringify!($module), stringify!($ty2), started.elapsed());
                assert_eq!(stats.cases, CASES);
            )*)?
        }
    };
}

agree!(limits_numbers, limits, "limits.rs", mixed: [Numbers]);
agree!(limits_strings, limits, "limits.rs", mixed: [Strings]);
agree!(limits_collections, limits, "limits.rs", mixed: [Collections]);
agree!(presence, presence, "presence.rs", mixed: [Required, Optional, Forbidden]);
agree!(enums, enums, "enums.rs", mixed: [Struct, ConditionalStruct, StringEnums]);
agree!(format, format, "format.rs", mixed: [Struct]);
agree!(neq, neq, "neq.rs", mixed: [Struct]);
agree!(immutable, immutable, "immutable.rs", mixed: [Monotonic], valid_or_invalid: [Immutable]);
agree!(update_scalars, update, "update.rs", mixed: [], valid_or_invalid: [UpdateTestStruct]);
agree!(update_lists, update, "update.rs", mixed: [], valid_or_invalid: [UpdateListStruct]);
agree!(update_maps, update, "update.rs", mixed: [], valid_or_invalid: [UpdateMapStruct]);
agree!(lists, lists, "lists.rs", mixed: [Lists, Unique]);
agree!(each, each, "each.rs", mixed: [EachList, EachMap]);
agree!(item, item, "item.rs", mixed: [Struct], valid_or_invalid: [TaskStruct]);
agree!(subfield, subfield, "subfield.rs", mixed: [Struct]);
agree!(unions, unions, "unions.rs", mixed: [Union, TwoUnions, Discriminated, ZeroOrOneOf]);
agree!(modes, modes, "modes.rs", mixed: [StrictUnion, SharedField, ChainedValidation, NonStringDiscriminator, MultipleDiscriminators, Collections, EnumDiscriminator, LegacyNames]);
agree!(dependencies, dependencies, "dependencies.rs", mixed: [Required, Forbidden]);
agree!(options, options, "options.rs", mixed: [Struct, OptionUnions, OptionModes]);
agree!(testing, testing, "testing.rs", mixed: [], valid_or_invalid: [Struct]);
agree!(levels, levels, "levels.rs", mixed: [Struct, LevelUnions]);
agree!(opaque, opaque, "opaque.rs", mixed: [], valid_or_invalid: [Struct]);
agree!(custom, custom, "custom.rs", mixed: [Struct], custom: custom::registry());
agree!(shapes, shapes, "shapes.rs", mixed: [Root]);
agree!(native, native, "native.rs", mixed: [Struct, Unions, ListUnions]);
agree!(extensions, extensions, "extensions.rs", mixed: [Patterns, Bounds, Subresources, Aliases]);
agree!(cel_rules, cel_rules, "cel_rules.rs", mixed: [PodSpec, DeploymentSpec, ScalerSpec], valid_or_invalid: [FizzBuzzSpec, CelLibraries]);
agree!(defaults, defaults, "defaults.rs", mixed: [Defaults, Upstream, Rollout]);
agree!(crossfield, crossfield, "crossfield.rs", mixed: [Config, Quota, Thresholds]);
agree!(virtual_fields, virtual_fields, "virtual_fields.rs", mixed: [Volume], valid_or_invalid: [Config, Items]);
agree!(item_update, item_update, "item_update.rs", mixed: [CsrStatus]);

/// Catalog tags no fixture can use, with the reason.
const NOT_RUNNABLE: &[(&str, &str)] = &[(
    "k8s:validateError",
    "it makes generation fail (`forced error: <message>`), so no type carrying it compiles; \
     a compile-fail test covers it",
)];

/// Whether `text` uses tag `name` (`+k8s:name` followed by `=`, `(`, or the line's end).
fn uses(text: &str, name: &str) -> bool {
    let needle = format!("+{name}");
    text.match_indices(&needle).any(|(i, _)| {
        matches!(
            text[i + needle.len()..].chars().next(),
            None | Some('=' | '(' | '\n' | ' ' | '\r')
        )
    })
}

/// Every tag of the catalog is used by at least one fixture (or is listed in
/// `NOT_RUNNABLE` with the reason), and every fixture file is run.
#[test]
fn every_catalog_tag_has_a_fixture() {
    let mut missing = Vec::new();
    for tag in kdv_rules::catalog() {
        let used = FIXTURES.iter().any(|(_, text)| uses(text, tag.name));
        let excused = NOT_RUNNABLE.iter().any(|(n, _)| *n == tag.name);
        assert!(
            !(used && excused),
            "{} is listed as not runnable but a fixture uses it",
            tag.name
        );
        if !used && !excused {
            missing.push(tag.name);
        }
    }
    assert!(
        missing.is_empty(),
        "catalog tags without a fixture: {missing:?}"
    );
    for (n, _) in NOT_RUNNABLE {
        assert!(
            kdv_rules::tag_doc(n).is_some(),
            "{n} is not a catalog tag any more"
        );
    }
    let on_disk: Vec<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tags"))
            .expect("the fixture directory is readable")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".rs"))
            .collect();
    for f in &on_disk {
        assert!(
            FIXTURES.iter().any(|(n, _)| n == f),
            "fixture {f} is not listed in FIXTURES"
        );
    }
}
