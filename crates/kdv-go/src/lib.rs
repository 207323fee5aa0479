//! kdv-go
