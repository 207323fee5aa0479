//! The tag registry: every tag family's definitions in one sorted table, the catalog that
//! docs and lint are generated from ([`catalog`]), and the lookup from a tag name to its
//! definition, which the lowerer is handed through `discover::TAG_TABLE`: the families
//! import the lowering context, the registry imports the families, and nothing imports back
//! (decision 0149).

use std::sync::LazyLock;

use kdv_tags::Tag;

use crate::lower::{LowerFn, TagDef};
pub use crate::tag_doc::{ArgDoc, Scope, Stability, TagDoc};
use crate::tags;

/// Every tag family (`crate::tags`); the catalog and the dispatch are both built from this
/// one list.
const FAMILIES: &[&[TagDef]] = &[
    tags::custom_validation::TAGS,
    tags::dependencies::TAGS,
    tags::each::TAGS,
    tags::enums::TAGS,
    tags::equality::TAGS,
    tags::format::TAGS,
    tags::immutable::TAGS,
    tags::item::TAGS,
    tags::levels::TAGS,
    tags::limits::TAGS,
    tags::lists::TAGS,
    tags::modes::TAGS,
    tags::native::TAGS,
    tags::opaque::TAGS,
    tags::options::TAGS,
    tags::pattern::TAGS,
    tags::required::TAGS,
    tags::subfield::TAGS,
    tags::subresources::TAGS,
    tags::testing::TAGS,
    tags::unions::TAGS,
    tags::update::TAGS,
    tags::defaults::TAGS,
    tags::virtual_fields::TAGS,
];

/// Every registered tag, sorted by name (built once from [`FAMILIES`]).
static REGISTERED: LazyLock<Vec<&'static TagDef>> = LazyLock::new(|| {
    let mut all: Vec<&'static TagDef> = FAMILIES.iter().flat_map(|f| f.iter()).collect();
    all.sort_by_key(|d| d.doc.name);
    all
});

/// The documentation of every registered tag, sorted by name.
static CATALOG: LazyLock<Vec<TagDoc>> =
    LazyLock::new(|| REGISTERED.iter().map(|d| d.doc).collect());

/// Every registered tag, sorted by name.
pub fn catalog() -> &'static [TagDoc] {
    &CATALOG
}

pub(crate) fn registered(name: &str) -> Option<&'static TagDef> {
    let all: &[&'static TagDef] = &REGISTERED;
    all.binary_search_by(|d| d.doc.name.cmp(name))
        .ok()
        .map(|i| all[i])
}

/// The documentation of a registered tag.
pub fn tag_doc(name: &str) -> Option<&'static TagDoc> {
    registered(name).map(|d| &d.doc)
}

/// Whether `name` is a registered validation tag.
pub fn is_known_tag(name: &str) -> bool {
    registered(name).is_some()
}

pub use crate::tags::options::{canonical_name, current_name_of};

/// The lowering function of a registered tag.
#[cfg(test)]
fn lower_fn(name: &str) -> Option<LowerFn> {
    registered(name).map(|d| d.lower)
}

/// A limit with a `constraint` argument is kdv's cross-field form: it is lowered by the
/// cross-field family instead of the limit's own lowering and signature check.
pub(crate) fn alternate(tag: &Tag) -> Option<LowerFn> {
    tags::crossfield::constraint_form(tag)
        .map(|_| tags::crossfield::lower_constraint_form as LowerFn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tag_doc::type_check;

    #[test]
    fn catalog_is_sorted_and_dispatchable() {
        let names: Vec<&str> = catalog().iter().map(|d| d.name).collect();
        assert_eq!(names.len(), 60);
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!(names, sorted);
        sorted.dedup();
        assert_eq!(names.len(), sorted.len());
        for d in catalog() {
            assert!(lower_fn(d.name).is_some(), "{} has no lowering", d.name);
            assert!(!d.scopes.is_empty(), "{}", d.name);
            assert!(!d.description.is_empty(), "{}", d.name);
            assert!(d.example.contains(d.name), "{}", d.name);
        }
    }

    #[test]
    fn type_check_messages() {
        let doc = *tag_doc("k8s:minimum").expect("registered");
        let tag = kdv_tags::parse_tag("k8s:minimum").unwrap();
        assert_eq!(
            type_check(&tag, &doc).unwrap_err().0,
            "missing required tag value of type int"
        );
        let tag = kdv_tags::parse_tag("k8s:minimum=\"x\"").unwrap();
        assert_eq!(
            type_check(&tag, &doc).unwrap_err().0,
            "tag value has wrong type: got string, want int"
        );
        let tag = kdv_tags::parse_tag("k8s:minimum(x)=1").unwrap();
        assert_eq!(
            type_check(&tag, &doc).unwrap_err().0,
            "unrecognized named argument \"x\""
        );
        let doc = *tag_doc("k8s:subfield").expect("registered");
        let tag = kdv_tags::parse_tag("k8s:subfield=+k8s:required").unwrap();
        assert_eq!(
            type_check(&tag, &doc).unwrap_err().0,
            "missing required positional argument of type string"
        );
        let tag = kdv_tags::parse_tag("k8s:subfield(1)=+k8s:required").unwrap();
        assert_eq!(
            type_check(&tag, &doc).unwrap_err().0,
            "argument 1 has wrong type: got int, want string"
        );
        let doc = *tag_doc("k8s:validateFalse").expect("registered");
        let tag = kdv_tags::parse_tag("k8s:validateFalse(flags: 1)").unwrap();
        assert_eq!(
            type_check(&tag, &doc).unwrap_err().0,
            "argument flags: 1 has wrong type: got int, want string"
        );
    }
}
