//! Interpreter benchmarks on the workloads of `shared/anchors/README.md` §1, named like the
//! Go benchmarks there so the figures can be put side by side. Objects are JSON values built
//! once outside the timed loop; each benchmark also reports allocations per operation.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use kdv_benches::{
    CountingAllocator, FLAT_GO, LISTMAP_GO, ValidationCase as Case, allocations_per_call, compile,
    list_object, max_length_object, minimum_object, multi_key_items, run_validation as run,
    short_name_object, single_key_items,
};
use kdv_runtime::Operation;
use serde_json::Value;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn flat(c: &mut Criterion) {
    let rules = compile("kdv.bench/flat", "flat.go", FLAT_GO);
    let cases = [
        (
            "Flat_Minimum_Create_Valid",
            "MinimumStruct",
            minimum_object(1),
            None,
            0,
        ),
        (
            "Flat_Minimum_Create_Invalid12Errs",
            "MinimumStruct",
            minimum_object(0),
            None,
            12,
        ),
        (
            "Flat_Minimum_Update_Unchanged",
            "MinimumStruct",
            minimum_object(1),
            Some(minimum_object(1)),
            0,
        ),
        (
            "Flat_MaxLength_Create_Valid",
            "MaxLengthStruct",
            max_length_object(),
            None,
            0,
        ),
        (
            "Flat_MaxLength_Update_Unchanged",
            "MaxLengthStruct",
            max_length_object(),
            Some(max_length_object()),
            0,
        ),
        (
            "Flat_ShortName_Create_Valid",
            "ShortNameStruct",
            short_name_object("my-name-123"),
            None,
            0,
        ),
        (
            "Flat_ShortName_Create_Invalid3Errs",
            "ShortNameStruct",
            short_name_object("Not_A_Name"),
            None,
            3,
        ),
    ];
    for (name, type_name, new, old, expected_errors) in cases {
        run(
            c,
            Case {
                name: name.to_string(),
                rules: &rules,
                type_name,
                new,
                old,
                expected_errors,
            },
        );
    }

    // Flat_All3: the three valid objects back to back.
    let objects = [
        (rules.find_type("MinimumStruct"), minimum_object(1)),
        (rules.find_type("MaxLengthStruct"), max_length_object()),
        (
            rules.find_type("ShortNameStruct"),
            short_name_object("my-name-123"),
        ),
    ];
    let op = Operation::create();
    let all3 = || {
        let mut n = 0;
        for (ty, obj) in &objects {
            let ty = ty.expect("flat workload types exist");
            n += kdv_eval::validate(&rules, ty, &op, obj, None).len();
        }
        n
    };
    assert_eq!(all3(), 0);
    let allocs = allocations_per_call(1000, || {
        black_box(all3());
    });
    eprintln!("allocs/op {:<55} {allocs:>8.1}", "Flat_All3_Create_Valid");
    c.bench_function("Flat_All3_Create_Valid", |b| b.iter(|| black_box(all3())));
}

fn list_map(c: &mut Criterion) {
    let rules = compile("kdv.bench/listmap", "listmap.go", LISTMAP_GO);
    for n in [100usize, 1000] {
        let items = single_key_items(n);
        let mut swapped = items.clone();
        swapped.swap(0, n - 1);
        let mut appended = items.clone();
        appended.extend(single_key_items(n + 1).pop());
        let mut dup = items.clone();
        dup[n - 1]["keyField"] = Value::from("key-0");
        let prefix = format!("ListMap/SingleKey/N={n}");
        let ty = "SingleKeyStruct";
        let cases = [
            ("Create", list_object(items.clone()), None, 0),
            (
                "UpdateUnchanged",
                list_object(items.clone()),
                Some(list_object(items.clone())),
                0,
            ),
            (
                "UpdateSwapFirstLast",
                list_object(swapped),
                Some(list_object(items.clone())),
                0,
            ),
            (
                "UpdateAppendOne_1Err",
                list_object(appended),
                Some(list_object(items.clone())),
                1,
            ),
            ("CreateOneDup", list_object(dup), None, 1),
        ];
        for (variant, new, old, expected_errors) in cases {
            run(
                c,
                Case {
                    name: format!("{prefix}/{variant}"),
                    rules: &rules,
                    type_name: ty,
                    new,
                    old,
                    expected_errors,
                },
            );
        }

        let items = multi_key_items(n);
        let prefix = format!("ListMap/MultiKey/N={n}");
        let cases = [
            ("Create", list_object(items.clone()), None, 0),
            (
                "UpdateUnchanged",
                list_object(items.clone()),
                Some(list_object(items)),
                0,
            ),
        ];
        for (variant, new, old, expected_errors) in cases {
            run(
                c,
                Case {
                    name: format!("{prefix}/{variant}"),
                    rules: &rules,
                    type_name: "MultiKeyStruct",
                    new,
                    old,
                    expected_errors,
                },
            );
        }
    }
}

criterion_group!(benches, flat, list_map);
criterion_main!(benches);
