//! kdv-eval
