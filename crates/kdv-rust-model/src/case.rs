//! serde's `rename_all` rules: how a field name (written in `snake_case`) or a variant name
//! (written in `PascalCase`) is spelled in JSON under each rule.

/// One of serde's `rename_all` rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

impl RenameRule {
    /// The rule serde spells `name`, if any.
    pub(crate) fn from_name(name: &str) -> Option<RenameRule> {
        Some(match name {
            "lowercase" => RenameRule::Lower,
            "UPPERCASE" => RenameRule::Upper,
            "PascalCase" => RenameRule::Pascal,
            "camelCase" => RenameRule::Camel,
            "snake_case" => RenameRule::Snake,
            "SCREAMING_SNAKE_CASE" => RenameRule::ScreamingSnake,
            "kebab-case" => RenameRule::Kebab,
            "SCREAMING-KEBAB-CASE" => RenameRule::ScreamingKebab,
            _ => return None,
        })
    }

    /// The JSON name of a struct field named `field` (snake_case as Rust writes fields).
    pub(crate) fn field(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_string(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => pascal_from_snake(field),
            RenameRule::Camel => lower_first(&pascal_from_snake(field)),
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }

    /// The JSON name of an enum variant named `variant` (PascalCase as Rust writes variants).
    pub(crate) fn variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_string(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => lower_first(variant),
            RenameRule::Snake => snake_from_pascal(variant),
            RenameRule::ScreamingSnake => snake_from_pascal(variant).to_ascii_uppercase(),
            RenameRule::Kebab => snake_from_pascal(variant).replace('_', "-"),
            RenameRule::ScreamingKebab => snake_from_pascal(variant)
                .to_ascii_uppercase()
                .replace('_', "-"),
        }
    }
}

/// `foo_bar` → `FooBar`: each `_` dropped and the character after it (and the first)
/// upper-cased.
pub(crate) fn pascal_from_snake(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut upper_next = true;
    for c in s.chars() {
        if c == '_' {
            upper_next = true;
        } else if upper_next {
            out.extend(c.to_uppercase());
            upper_next = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `FooBar` → `foo_bar`: a `_` before every upper-case character but the first, all
/// lower-cased.
fn snake_from_pascal(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    for (i, c) in s.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// The first character lower-cased.
fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rename_all_fields() {
        let f = "storage_class_name";
        let got: Vec<String> = [
            "lowercase",
            "UPPERCASE",
            "PascalCase",
            "camelCase",
            "snake_case",
            "SCREAMING_SNAKE_CASE",
            "kebab-case",
            "SCREAMING-KEBAB-CASE",
        ]
        .iter()
        .filter_map(|r| RenameRule::from_name(r))
        .map(|r| r.field(f))
        .collect();
        assert_eq!(
            got,
            [
                "storage_class_name",
                "STORAGE_CLASS_NAME",
                "StorageClassName",
                "storageClassName",
                "storage_class_name",
                "STORAGE_CLASS_NAME",
                "storage-class-name",
                "STORAGE-CLASS-NAME",
            ]
        );
        assert_eq!(RenameRule::Camel.field("replicas"), "replicas");
        assert!(RenameRule::from_name("Camel").is_none());
    }

    #[test]
    fn rename_all_variants() {
        let v = "HttpGet";
        assert_eq!(RenameRule::Lower.variant(v), "httpget");
        assert_eq!(RenameRule::Upper.variant(v), "HTTPGET");
        assert_eq!(RenameRule::Pascal.variant(v), "HttpGet");
        assert_eq!(RenameRule::Camel.variant(v), "httpGet");
        assert_eq!(RenameRule::Snake.variant(v), "http_get");
        assert_eq!(RenameRule::ScreamingSnake.variant(v), "HTTP_GET");
        assert_eq!(RenameRule::Kebab.variant(v), "http-get");
        assert_eq!(RenameRule::ScreamingKebab.variant(v), "HTTP-GET");
    }
}
