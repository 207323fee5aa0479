//! Numbers as sigs.k8s.io/yaml's `YAMLToJSON` writes them, shared by both YAML readers.

use serde_json::Number;

/// The JSON number `encoding/json` writes for a float64 that go-yaml resolved, as
/// sigs.k8s.io/yaml's `YAMLToJSON` does (`yamlToJSONTarget` → `json.Marshal` →
/// `floatEncoder.encode`: `strconv.AppendFloat(f, 'f', -1, 64)` for 1e-6 ≤ |f| < 1e21, else
/// the `e` form). An integral float below 1e21 is therefore written as an integer literal
/// (`5.0` → `5`, `1e1` → `10`, `-0.0` → `-0`), which the API server's decoder
/// (sigs.k8s.io/json `literalStore`, `strconv.ParseInt`) accepts for integer fields: it is
/// kept here as an integer when it fits 64 bits. Every other float stays a float, which
/// integer fields reject as they reject the `5.5` or `1e+21` Go writes (integral floats
/// from 2^64 up to 1e21 are written as integer literals that overflow every integer type, so
/// they are rejected too). `None` for a non-finite float, which `encoding/json` cannot
/// write (`json: unsupported value`).
pub fn json_number_of_float(f: f64) -> Option<Number> {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    const TWO_64: f64 = 18_446_744_073_709_551_616.0;
    if f.fract() == 0.0 {
        // `as` is exact here: the value is integral and within the target's range.
        if (-TWO_63..TWO_63).contains(&f) {
            return Some(Number::from(f as i64));
        }
        if (0.0..TWO_64).contains(&f) {
            return Some(Number::from(f as u64));
        }
    }
    Number::from_f64(f)
}
