//! Checker tests.
