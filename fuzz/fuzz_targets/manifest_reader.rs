//! Fuzzes the manifest reader (`kdv-manifest`): any bytes, read as a YAML stream and as a JSON
//! text, document by document. Checks `kdv_manifest::invariants::check`: no panic or hang,
//! document indices increase, every position (documents, errors, located fields) lies inside
//! the input, every field path of a document is located within that document, a stream
//! serde-saphyr parses whole gives the same documents when cut at its markers, and the fast
//! reader agrees with serde-saphyr (value, root position, located positions) on every
//! document it reads.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kdv_manifest::invariants::check(data);
});
