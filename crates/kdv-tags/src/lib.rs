//! kdv-tags
