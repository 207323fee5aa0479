//! kdv-rules
