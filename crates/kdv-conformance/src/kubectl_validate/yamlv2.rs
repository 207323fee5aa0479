//! The strict YAML decoding errors kubectl-validate reports as `BadRequest`: repeated mapping
//! keys, as sigs.k8s.io/yaml's `YAMLToJSONStrict` finds them with goyaml.v2's
//! `UnmarshalStrict`: `line <n>: key <%#v of the key> already set in map`, one message per
//! repeat, in decoding order (a repeat's value is decoded, and its own repeats reported,
//! before the repeat itself), `<n>` being the 1-based line of the repeated key's **value**
//! within the document text.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{DuplicateKeyPolicy, Spanned};

/// The messages goyaml.v2's strict decoding gives for `document`; empty when it has no
/// repeated keys or does not parse (syntax errors are reported elsewhere).
pub fn duplicate_key_errors(document: &str) -> Vec<String> {
    let options = serde_saphyr::options! {
        duplicate_keys: DuplicateKeyPolicy::PassThrough,
        strict_booleans: false,
        legacy_octal_numbers: true,
        with_snippet: false,
    };
    let Ok(tree) = serde_saphyr::from_str_with_options::<Option<Tree>>(document, options) else {
        return Vec::new();
    };
    let mut messages = Vec::new();
    if let Some(tree) = &tree {
        walk(tree, &mut messages);
    }
    messages
}

fn walk(tree: &Tree, messages: &mut Vec<String>) {
    match tree {
        Tree::Scalar => {}
        Tree::Seq(items) => items.iter().for_each(|t| walk(t, messages)),
        Tree::Map(entries) => {
            let mut seen: Vec<&Key> = Vec::with_capacity(entries.len());
            for (key, value) in entries {
                walk(&value.value, messages);
                if matches!(key, Key::Unhashable) {
                    continue;
                }
                if seen.contains(&key) {
                    messages.push(format!(
                        "line {}: key {key} already set in map",
                        value.referenced.line()
                    ));
                } else {
                    seen.push(key);
                }
            }
        }
    }
}

/// A decoded node, keeping every mapping entry (repeats included) and where values start.
enum Tree {
    Scalar,
    Seq(Vec<Tree>),
    Map(Vec<(Key, Spanned<Tree>)>),
}

/// A mapping key as goyaml.v2 decodes it into `interface{}` (YAML 1.1 resolution), compared
/// with Go's `==` and printed with `%#v`.
#[derive(PartialEq)]
enum Key {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    /// A sequence or mapping as a key: not a valid Go map key; not compared.
    Unhashable,
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Null => f.write_str("<nil>"),
            Key::Bool(b) => write!(f, "{b}"),
            Key::Int(i) => write!(f, "{i}"),
            Key::Float(x) => f.write_str(&kdv_gofmt::format_float_v(*x)),
            Key::Str(s) => f.write_str(&kdv_gofmt::quote(s)),
            Key::Unhashable => f.write_str("?"),
        }
    }
}

impl<'de> Deserialize<'de> for Tree {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(TreeVisitor)
    }
}

struct TreeVisitor;

impl<'de> Visitor<'de> for TreeVisitor {
    type Value = Tree;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML node")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Tree, E> {
        Ok(Tree::Scalar)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Tree, E> {
        Ok(Tree::Scalar)
    }
    fn visit_i128<E: de::Error>(self, _: i128) -> Result<Tree, E> {
        Ok(Tree::Scalar)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Tree, E> {
        Ok(Tree::Scalar)
    }
    fn visit_u128<E: de::Error>(self, _: u128) -> Result<Tree, E> {
        Ok(Tree::Scalar)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Tree, E> {
        Ok(Tree::Scalar)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Tree, E> {
        Ok(Tree::Scalar)
    }
    fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<Tree, E> {
        Ok(Tree::Scalar)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Tree, E> {
        Ok(Tree::Scalar)
    }
    fn visit_none<E: de::Error>(self) -> Result<Tree, E> {
        Ok(Tree::Scalar)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Tree, D::Error> {
        Tree::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tree, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Tree>()? {
            items.push(item);
        }
        Ok(Tree::Seq(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tree, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Key>()? {
            let value = map.next_value::<Spanned<Tree>>()?;
            entries.push((key, value));
        }
        Ok(Tree::Map(entries))
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML mapping key")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Key, E> {
        Ok(Key::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Key, E> {
        Ok(Key::Int(v.into()))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Key, E> {
        Ok(Key::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Key, E> {
        Ok(Key::Int(v.into()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Key, E> {
        Ok(Key::Float(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Key, E> {
        Ok(Key::Str(v.to_string()))
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Key, E> {
        Ok(Key::Str(String::from_utf8_lossy(v).into_owned()))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Key, E> {
        Ok(Key::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Key, E> {
        Ok(Key::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        Key::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Key, A::Error> {
        while seq.next_element::<Tree>()?.is_some() {}
        Ok(Key::Unhashable)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Key, A::Error> {
        while map.next_key::<Key>()?.is_some() {
            map.next_value::<Tree>()?;
        }
        Ok(Key::Unhashable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_key_is_reported_at_its_values_line() {
        let doc =
            "# c\napiVersion: v1\nspec:\n  containers:\n  - name: a\n  containers:\n  - name: b\n";
        assert_eq!(
            duplicate_key_errors(doc),
            ["line 7: key \"containers\" already set in map"]
        );
        // A scalar value on the key's line.
        assert_eq!(
            duplicate_key_errors("a: 1\nb: 2\na: 3\n"),
            ["line 3: key \"a\" already set in map"]
        );
        // A mapping value on the next line.
        assert_eq!(
            duplicate_key_errors("a: 1\na:\n  b: 2\n"),
            ["line 3: key \"a\" already set in map"]
        );
    }

    #[test]
    fn nested_repeats_come_first_and_every_repeat_counts() {
        let doc = "a: 1\nm:\n  x: 1\nm:\n  z: 1\n  z: 2\na: 2\na: 3\n";
        assert_eq!(
            duplicate_key_errors(doc),
            [
                "line 6: key \"z\" already set in map",
                "line 5: key \"m\" already set in map",
                "line 7: key \"a\" already set in map",
                "line 8: key \"a\" already set in map",
            ]
        );
    }

    #[test]
    fn keys_compare_as_decoded_values() {
        // `1` is an integer and `"1"` a string: different keys in goyaml.v2.
        assert!(duplicate_key_errors("1: a\n\"1\": b\n").is_empty());
        assert_eq!(
            duplicate_key_errors("1: a\n0x1: b\n"),
            ["line 2: key 1 already set in map"]
        );
        // YAML 1.1 booleans, as goyaml.v2 resolves them (`y` is one).
        assert_eq!(
            duplicate_key_errors("true: a\nyes: b\ny: c\n"),
            [
                "line 2: key true already set in map",
                "line 3: key true already set in map"
            ]
        );
        assert_eq!(
            duplicate_key_errors("\"a\\tb\": 1\n\"a\\tb\": 2\n"),
            ["line 2: key \"a\\tb\" already set in map"]
        );
        assert!(duplicate_key_errors("a: [1\n").is_empty());
        assert!(duplicate_key_errors("").is_empty());
        assert!(duplicate_key_errors("- a: 1\n- a: 2\n").is_empty());
    }
}
