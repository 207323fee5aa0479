//! cel-go's bindings extension (`ext.Bindings`, `cel.lib.ext.cel.bindings`), version 1:
//! declarations only. `cel.bind` is a macro that needs none; `cel.@block` (the target of the
//! `cel.block` macro) is declared for the conformance checker, which type-checks the suite's
//! block expressions, but not implemented: `cel.block` is not part of the Kubernetes
//! environment and the conformance runner skips its tests.

use std::sync::Arc;

use crate::library::{Declarations, Functions, Library, cached, g, list, param};
use crate::types::Type;

/// The library's name.
const NAME: &str = "cel.lib.ext.cel.bindings";

/// The library.
pub fn library() -> Library {
    Library::new(NAME, 0, |_| declarations(), |_| functions())
}

// ---- declarations ------------------------------------------------------------------------

/// cel-go's bindings extension, version 1: `cel.@block` (the target of the `cel.block`
/// macro), whose list argument is exempt from the homogeneous literal check. The `cel.bind`
/// macro needs no declaration.
pub fn declarations() -> Arc<Declarations> {
    cached("bindings", 1, |_| {
        let t = param("T");
        let mut lib = Declarations::new(NAME);
        lib.function(
            "cel.@block",
            vec![g("cel_block_list", vec![list(Type::Dyn), t.clone()], t)],
        );
        lib.homogeneous_exempt.push("cel.@block".to_string());
        lib
    })
}

// ---- implementations ---------------------------------------------------------------------

/// None: `cel.@block` is declared for the checker only (see the module docs).
pub fn functions() -> Functions {
    Functions {
        name: NAME,
        ..Functions::default()
    }
}
