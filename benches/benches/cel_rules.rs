//! `+validationRule` (KEP-4153's CEL rules on types) through the interpreter and through
//! `#[derive(Validate)]`, on the same objects, with allocations per operation. The derive
//! reads the Rust value in place (`kdv_cel::value::native`, docs/decisions/0143); the
//! interpreter reads the request's JSON in place. `/DeriveVerdict` rows time `is_valid`,
//! the yes/no form that builds no error (cel-go's benchmark only evaluates the rules).

use criterion::{Criterion, criterion_group, criterion_main};
use kdv_benches::cel_rules::*;
use kdv_benches::{CountingAllocator, RustWorkloads};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn cel_rules(c: &mut Criterion) {
    let w = RustWorkloads::new("cel_rules", CEL_RULES_RS, "CelRule");
    let deployment_valid = deployment("RollingUpdate", true);
    w.pair(
        c,
        "DeploymentSpec",
        "Deployment_Valid",
        &deployment_valid,
        0,
    );
    let deployment_invalid = deployment("Recreate", true);
    w.pair(
        c,
        "DeploymentSpec",
        "Deployment_Invalid1Err",
        &deployment_invalid,
        1,
    );
    w.pair(c, "PodSpec", "PodSpec16Ports_Valid", &pod(false), 0);
    w.pair(c, "PodSpec", "PodSpec16Ports_Invalid1Err", &pod(true), 1);
    // The yes/no form: what cel-go's benchmark measures (each rule's result, no error).
    w.verdict(c, "Deployment_Valid", &deployment_valid, true);
    w.verdict(c, "Deployment_Invalid1Err", &deployment_invalid, false);
    w.verdict(c, "PodSpec16Ports_Valid", &pod(false), true);
    w.verdict(c, "PodSpec16Ports_Invalid1Err", &pod(true), false);
}

criterion_group!(benches, cel_rules);
criterion_main!(benches);
