//! Numbers as sigs.k8s.io/yaml's `YAMLToJSON` writes them, shared by both YAML readers.

use serde_json::Number;

/// The JSON number `encoding/json` writes for a float64 that go-yaml resolved, as
/// sigs.k8s.io/yaml's `YAMLToJSON` does (`yamlToJSONTarget` → `json.Marshal` →
/// `floatEncoder.encode`: `strconv.AppendFloat(f, 'f', -1, 64)` for 1e-6 ≤ |f| < 1e21, else
/// the `e` form), read back as the API server's decoder reads that literal. An integral
/// float below 1e21 is written as an integer literal of its shortest digits padded with
/// zeros (`5.0` → `5`, `1e1` → `10`, `-0.0` → `-0`, -2^63 → `-9223372036854776000`), which
/// the decoder (sigs.k8s.io/json `literalStore`, `strconv.ParseInt`) accepts for integer
/// fields when it fits 64 bits: it is an integer here exactly then (signed, else unsigned,
/// as serde_json reads the literal). Every other float stays a float, which integer fields
/// reject as they reject the `5.5` or `1e+21` Go writes. `None` for a non-finite float,
/// which `encoding/json` cannot write (`json: unsupported value`).
pub fn json_number_of_float(f: f64) -> Option<Number> {
    if f.fract() == 0.0 && f.abs() < 1e21 {
        // Rust's `Display` of a float is also its shortest round-trip digits, padded.
        let literal = f.to_string();
        if let Ok(i) = literal.parse::<i64>() {
            return Some(Number::from(i));
        }
        if let Ok(u) = literal.parse::<u64>() {
            return Some(Number::from(u));
        }
    }
    Number::from_f64(f)
}
