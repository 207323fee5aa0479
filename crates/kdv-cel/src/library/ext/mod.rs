//! cel-go's extension libraries, one module each: strings, lists, sets, math, encoders,
//! optional types, two-variable comprehensions, bindings. Each holds its declarations (by
//! version where cel-go versions the library), implementations with runtime costs, and static
//! cost estimates where cel-go has them.

pub mod bindings;
pub mod comprehensions;
pub mod encoders;
pub mod lists;
pub mod math;
pub mod optional;
pub mod sets;
pub mod strings;
