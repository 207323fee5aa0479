//! Tests of the CRD write-time checks.
