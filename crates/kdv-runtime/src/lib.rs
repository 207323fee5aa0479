//! kdv-runtime
