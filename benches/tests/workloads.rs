//! Every workload the benchmarks time gives its expected verdict, in whatever profile the
//! tests are built with. `.ci/run` runs this in release too: the benchmarks and `kdv` run
//! optimized code, and one wrong verdict once appeared only there (a rustc MIR optimization;
//! see `referenced` in kdv-eval's calls.rs).

#[test]
fn every_workload_gives_its_verdict() {
    let sets = [
        kdv_benches::flat_workloads(),
        kdv_benches::list_map_workloads(),
        kdv_benches::union_workloads(),
        kdv_benches::extension_workloads(),
        kdv_benches::defaults_workloads(),
        kdv_benches::crossfield_workloads(),
        kdv_benches::itemupdate_workloads(),
    ];
    let mut checked = 0;
    for w in sets.iter().flatten() {
        w.check();
        checked += 1;
    }
    assert!(checked > 30, "{checked} workloads");
}
