//! Generated validation (`#[derive(Validate)]`) on the workloads of the performance anchors
//! (§1), named exactly like the Go benchmarks so `run.sh` puts them side by side (run this
//! bench alone: the interpreter's benches use the same names). Objects are built once
//! outside the timed loop; "UpdateUnchanged" validates against a separately allocated,
//! equal old object. Each benchmark also reports allocations per operation.

use std::collections::BTreeMap;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use kdv::{ErrorList, Operation, Validate};
use kdv_benches::derived::*;
use kdv_benches::{CountingAllocator, allocations_per_call};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Benchmarks `f`, after checking it reports `errors` errors and printing its allocations.
fn bench(c: &mut Criterion, name: &str, errors: usize, f: impl Fn() -> ErrorList) {
    let got = f();
    assert_eq!(got.len(), errors, "{name}: {got:?}");
    let allocs = allocations_per_call(200, || {
        black_box(f());
    });
    eprintln!("allocs/op {name:<55} {allocs:>8.1}");
    c.bench_function(name, |b| b.iter(|| black_box(f())));
}

fn minimum(v: i64) -> MinimumStruct {
    MinimumStruct {
        int_field: v as isize,
        int_ptr_field: Some(v as isize),
        int16_field: v as i16,
        int32_field: v as i32,
        int64_field: v,
        uint_field: v as usize,
        uint_ptr_field: Some(v as usize),
        uint16_field: v as u16,
        uint32_field: v as u32,
        uint64_field: v as u64,
        typedef_field: IntType(v as isize),
        typedef_ptr_field: Some(IntType(v as isize)),
    }
}

fn max_length() -> MaxLengthStruct {
    let ten = || "0123456789".to_string();
    MaxLengthStruct {
        max0_field: String::new(),
        max0_ptr_field: Some(String::new()),
        max0_untagged_typedef_field: UntaggedString(String::new()),
        max0_untagged_typedef_ptr_field: Some(UntaggedString(String::new())),
        max10_field: ten(),
        max10_ptr_field: Some(ten()),
        max10_untagged_typedef_field: UntaggedString(ten()),
        max10_untagged_typedef_ptr_field: Some(UntaggedString(ten())),
        max0_typedef_field: Max0String(String::new()),
        max0_typedef_ptr_field: Some(Max0String(String::new())),
        max10_typedef_field: Max10String(ten()),
        max10_typedef_ptr_field: Some(Max10String(ten())),
    }
}

fn short_name(name: &str) -> ShortNameStruct {
    ShortNameStruct {
        short_name_field: name.into(),
        short_name_ptr_field: Some(name.into()),
        short_name_typedef_field: ShortNameString(name.into()),
    }
}

fn flat(c: &mut Criterion) {
    let (create, update) = (Operation::create(), Operation::update());
    let (valid, invalid) = (minimum(1), minimum(0));
    let old = minimum(1);
    bench(c, "Flat_Minimum_Create_Valid", 0, || {
        valid.validate(&create)
    });
    bench(c, "Flat_Minimum_Create_Invalid12Errs", 12, || {
        invalid.validate(&create)
    });
    bench(c, "Flat_Minimum_Update_Unchanged", 0, || {
        valid.validate_update(&old, &update)
    });
    let (ml, ml_old) = (max_length(), max_length());
    bench(c, "Flat_MaxLength_Create_Valid", 0, || ml.validate(&create));
    bench(c, "Flat_MaxLength_Update_Unchanged", 0, || {
        ml.validate_update(&ml_old, &update)
    });
    let (sn, sn_bad) = (short_name("my-name-123"), short_name("Not_A_Name"));
    bench(c, "Flat_ShortName_Create_Valid", 0, || sn.validate(&create));
    bench(c, "Flat_ShortName_Create_Invalid3Errs", 3, || {
        sn_bad.validate(&create)
    });
    bench(c, "Flat_All3_Create_Valid", 0, || {
        let mut all = valid.validate(&create);
        all.extend(ml.validate(&create));
        all.extend(sn.validate(&create));
        all
    });
}

fn single_key(n: usize) -> SingleKeyStruct {
    SingleKeyStruct {
        list_field: (0..n)
            .map(|i| SingleKeyItem {
                key_field: format!("key-{i}"),
                data_field: format!("data-{i}"),
            })
            .collect(),
    }
}

fn multi_key(n: usize) -> MultiKeyStruct {
    MultiKeyStruct {
        list_field: (0..n)
            .map(|i| MultiKeyItem {
                key1_field: format!("key-{}", i / 10),
                key2_field: (i % 10) as isize,
                data_field: format!("data-{i}"),
            })
            .collect(),
    }
}

fn list_map(c: &mut Criterion) {
    let (create, update) = (Operation::create(), Operation::update());
    for n in [100, 1000] {
        let s = single_key(n);
        let old = single_key(n);
        let mut swapped = single_key(n);
        swapped.list_field.swap(0, n - 1);
        let appended = single_key(n + 1);
        let mut dup = single_key(n);
        dup.list_field[n - 1].key_field = "key-0".into();
        bench(c, &format!("ListMap/SingleKey/N={n}/Create"), 0, || {
            s.validate(&create)
        });
        bench(
            c,
            &format!("ListMap/SingleKey/N={n}/UpdateUnchanged"),
            0,
            || s.validate_update(&old, &update),
        );
        bench(
            c,
            &format!("ListMap/SingleKey/N={n}/UpdateSwapFirstLast"),
            0,
            || swapped.validate_update(&old, &update),
        );
        // An item added to a list whose items are immutable: upstream's one error.
        bench(
            c,
            &format!("ListMap/SingleKey/N={n}/UpdateAppendOne_1Err"),
            1,
            || appended.validate_update(&old, &update),
        );
        bench(
            c,
            &format!("ListMap/SingleKey/N={n}/CreateOneDup"),
            1,
            || dup.validate(&create),
        );
        let m = multi_key(n);
        let m_old = multi_key(n);
        bench(c, &format!("ListMap/MultiKey/N={n}/Create"), 0, || {
            m.validate(&create)
        });
        bench(
            c,
            &format!("ListMap/MultiKey/N={n}/UpdateUnchanged"),
            0,
            || m.validate_update(&m_old, &update),
        );
    }
}

fn unions(c: &mut Criterion) {
    let (create, update) = (Operation::create(), Operation::update());
    let disc = |d: &str| DiscriminatedStruct {
        d: D(d.into()),
        m1: Some(M1 {}),
        m2: None,
        m3: None,
        m4: None,
    };
    let (valid, old, invalid) = (disc("M1"), disc("M1"), disc("M2"));
    bench(c, "Union_Discriminated_Create_Valid", 0, || {
        valid.validate(&create)
    });
    bench(c, "Union_Discriminated_Update_Unchanged", 0, || {
        valid.validate_update(&old, &update)
    });
    bench(c, "Union_Discriminated_Create_Invalid", 2, || {
        invalid.validate(&create)
    });
    let undisc = |m3: &str| UndiscriminatedStruct {
        non_union_field: String::new(),
        m1: Some(M1 {}),
        m2: None,
        m3: m3.into(),
        m4: None,
        m5: None,
        m6: None::<BTreeMap<String, String>>,
    };
    let (one, two) = (undisc(""), undisc("x"));
    bench(c, "Union_Undiscriminated_Create_Valid", 0, || {
        one.validate(&create)
    });
    bench(c, "Union_Undiscriminated_Create_TwoSet", 1, || {
        two.validate(&create)
    });
}

fn extensions_struct(valid: bool) -> ExtensionsStruct {
    let v = kdv_benches::extensions_object(valid);
    serde_json::from_value(v).expect("the extensions object is an ExtensionsStruct")
}

/// kdv's extensions of the catalog (no Go figure: upstream has no such tags).
fn extensions(c: &mut Criterion) {
    let (create, update) = (Operation::create(), Operation::update());
    let (valid, invalid, old) = (
        extensions_struct(true),
        extensions_struct(false),
        extensions_struct(true),
    );
    bench(c, "Extensions_Create_Valid", 0, || valid.validate(&create));
    bench(c, "Extensions_Create_Invalid6Errs", 6, || {
        invalid.validate(&create)
    });
    bench(c, "Extensions_Update_Unchanged", 0, || {
        valid.validate_update(&old, &update)
    });
}

fn defaults_struct(valid: bool) -> DefaultsStruct {
    let v = kdv_benches::defaults_object(valid);
    serde_json::from_value(v).expect("the defaults object is a DefaultsStruct")
}

/// `+k8s:default` beside `+default=` (no Go figure: upstream has no `+k8s:default`).
fn defaults(c: &mut Criterion) {
    let (create, update) = (Operation::create(), Operation::update());
    let (valid, invalid, old) = (
        defaults_struct(true),
        defaults_struct(false),
        defaults_struct(true),
    );
    bench(c, "Defaults_Create_Valid", 0, || valid.validate(&create));
    bench(c, "Defaults_Create_Invalid4Errs", 4, || {
        invalid.validate(&create)
    });
    bench(c, "Defaults_Update_Unchanged", 0, || {
        valid.validate_update(&old, &update)
    });
}

/// Cross-field references (a kdv extension; no Go figure).
fn crossfield(c: &mut Criterion) {
    let (create, update) = (Operation::create(), Operation::update());
    let of = |valid| -> kdv_benches::derived::CrossFieldStruct {
        serde_json::from_value(kdv_benches::crossfield_object(valid))
            .expect("the cross-field object is a CrossFieldStruct")
    };
    let (valid, invalid, old) = (of(true), of(false), of(true));
    bench(c, "CrossField_Create_Valid", 0, || valid.validate(&create));
    bench(c, "CrossField_Create_Invalid4Errs", 4, || {
        invalid.validate(&create)
    });
    bench(c, "CrossField_Update_Unchanged", 0, || {
        valid.validate_update(&old, &update)
    });
}

/// Item-level update constraints (a kdv extension; no Go figure).
fn itemupdate(c: &mut Criterion) {
    let update = Operation::update();
    let of = |which| -> kdv_benches::derived::ItemUpdateStruct {
        serde_json::from_value(kdv_benches::itemupdate_object(which))
            .expect("the item-update object is an ItemUpdateStruct")
    };
    let (old, moved, bad) = (of("old"), of("moved"), of("bad"));
    let same = old.clone();
    bench(c, "ItemUpdate_Update_Unchanged", 0, || {
        same.validate_update(&old, &update)
    });
    bench(c, "ItemUpdate_Update_Valid", 0, || {
        moved.validate_update(&old, &update)
    });
    bench(c, "ItemUpdate_Update_Invalid1Err", 1, || {
        bad.validate_update(&old, &update)
    });
}

criterion_group!(
    benches, flat, list_map, unions, extensions, defaults, crossfield, itemupdate
);
criterion_main!(benches);
