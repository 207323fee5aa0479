//! Declared types → the checker's view: named CEL object types with typed fields (a
//! [`TypeProvider`]), the sizes the cost estimator asks for (a [`SizeEstimator`]), and the
//! environment of a rule (`self`, `oldSelf`).

use std::collections::HashMap;
use std::sync::Arc;

use kdv_cel::checker::{Env, TypeProvider};
use kdv_cel::cost::{SizeEstimate, SizeEstimator};
use kdv_cel::types::Type;

use super::decl::{DeclKind, DeclType};
use super::escaping::is_reserved;

impl DeclType {
    /// The CEL type, naming object types by their path from `name` as upstream does
    /// (`name.field`, list elements `name.@idx`, map values `name.@elem`).
    pub fn cel_type(&self, name: &str) -> Type {
        match &self.kind {
            DeclKind::Dyn => Type::Dyn,
            DeclKind::Bool => Type::Bool,
            DeclKind::Int => Type::Int,
            DeclKind::Double => Type::Double,
            DeclKind::String => Type::String,
            DeclKind::Bytes => Type::Bytes,
            DeclKind::Duration => Type::Duration,
            DeclKind::Timestamp => Type::Timestamp,
            DeclKind::List(item) => Type::List(Box::new(item.cel_type(&format!("{name}.@idx")))),
            DeclKind::Map(value) => Type::Map(
                Box::new(Type::String),
                Box::new(value.cel_type(&format!("{name}.@elem"))),
            ),
            DeclKind::Object(_) => Type::Object(Arc::from(name)),
        }
    }
}

/// The object types of one or more declared types, by name: the checker's
/// [`TypeProvider`] for rules on a schema (upstream's `DeclTypeProvider`), by default with
/// keyword field names recognised, as in environments of compatibility version 1.31 and later
/// ([`kdv_cel::k8s::Feature::KeywordFieldNames`]).
#[derive(Debug, Clone)]
pub struct DeclTypeProvider {
    /// Fields (CEL name → type) of each object type.
    objects: HashMap<Arc<str>, HashMap<Box<str>, Type>>,
    /// A reserved word selects the field escaped as `__word__`.
    keyword_field_names: bool,
}

impl Default for DeclTypeProvider {
    fn default() -> DeclTypeProvider {
        DeclTypeProvider {
            objects: HashMap::new(),
            keyword_field_names: true,
        }
    }
}

impl DeclTypeProvider {
    /// An empty provider.
    pub fn new() -> DeclTypeProvider {
        DeclTypeProvider::default()
    }

    /// Whether a field selected by a CEL reserved word (`self.namespace`) is the property of
    /// that name (escaped `__namespace__`): upstream's `SetRecognizeKeywordAsFieldName`, on
    /// in environments of compatibility version 1.31 and later. Without it such a selection
    /// is an undefined field.
    pub fn set_keyword_field_names(&mut self, recognize: bool) {
        self.keyword_field_names = recognize;
    }

    /// Registers the object types of `decl`, named from `name` (see [`DeclType::cel_type`]),
    /// and returns `decl`'s CEL type.
    pub fn register(&mut self, name: &str, decl: &DeclType) -> Type {
        match &decl.kind {
            DeclKind::List(item) => {
                Type::List(Box::new(self.register(&format!("{name}.@idx"), item)))
            }
            DeclKind::Map(value) => Type::Map(
                Box::new(Type::String),
                Box::new(self.register(&format!("{name}.@elem"), value)),
            ),
            DeclKind::Object(fields) => {
                let mut map = HashMap::with_capacity(fields.len());
                for f in fields.iter() {
                    let ty = self.register(&format!("{name}.{}", f.name), &f.ty);
                    map.insert(f.name.clone(), ty);
                }
                let name: Arc<str> = Arc::from(name);
                self.objects.insert(Arc::clone(&name), map);
                Type::Object(name)
            }
            _ => decl.cel_type(name),
        }
    }
}

impl TypeProvider for DeclTypeProvider {
    fn has_type(&self, name: &str) -> bool {
        self.objects.contains_key(name)
    }

    fn field_type(&self, type_name: &str, field: &str) -> Option<Type> {
        let fields = self.objects.get(type_name)?;
        if let Some(t) = fields.get(field) {
            return Some(t.clone());
        }
        // A reserved word selects the property of that name (`self.namespace`).
        if self.keyword_field_names && is_reserved(field) {
            return fields.get(format!("__{field}__").as_str()).cloned();
        }
        None
    }
}

/// Kubernetes' schema size estimator for rules on a node (§6.2): a path's first segment
/// (`self`, `oldSelf`) is skipped, the rest walks fields, `@items`/`@values` (elements) and
/// `@keys` (map keys, whose size is unknown to upstream too: `{0, 0}`); the answer is
/// `{0, max_elements}` of the type reached.
#[derive(Debug, Clone)]
pub struct SchemaSizes {
    root: Arc<DeclType>,
}

impl SchemaSizes {
    /// Sizes of the values under a rule's node of declared type `root`.
    pub fn new(root: Arc<DeclType>) -> SchemaSizes {
        SchemaSizes { root }
    }
}

/// The `string` declared type shared by every map's keys; its size is never set.
static MAP_KEY: DeclType = DeclType {
    kind: DeclKind::String,
    max_elements: 0,
    min_serialized_size: 2,
};

impl SizeEstimator for SchemaSizes {
    fn estimate_size(&self, path: &[&str], _: &Type) -> Option<SizeEstimate> {
        let (_, rest) = path.split_first()?;
        let mut node: &DeclType = &self.root;
        for seg in rest {
            node = match (*seg, &node.kind) {
                ("@items" | "@values", DeclKind::List(e) | DeclKind::Map(e)) => e,
                ("@keys", DeclKind::Map(_)) => &MAP_KEY,
                ("@items" | "@values" | "@keys", _) => return None,
                (name, DeclKind::Object(_)) => &node.field(name)?.ty,
                _ => return None,
            };
        }
        Some(SizeEstimate {
            min: 0,
            max: u64::try_from(node.max_elements).unwrap_or(0),
        })
    }
}

/// The typed environment of the rules on one schema node: `self` and `oldSelf` of the
/// node's declared type (named `root_name`, upstream's `selfType<N>`), and the sizes for
/// cost estimation.
#[derive(Debug, Clone)]
pub struct RuleTypes {
    decl: Arc<DeclType>,
    self_type: Type,
    provider: Arc<DeclTypeProvider>,
}

impl RuleTypes {
    /// The types of rules on a node of declared type `decl`.
    pub fn new(decl: DeclType, root_name: &str) -> RuleTypes {
        let mut provider = DeclTypeProvider::new();
        let self_type = provider.register(root_name, &decl);
        RuleTypes {
            decl: Arc::new(decl),
            self_type,
            provider: Arc::new(provider),
        }
    }

    /// The same types, with keyword field names recognised or not (see
    /// [`DeclTypeProvider::set_keyword_field_names`]; recognised by default).
    pub fn with_keyword_field_names(mut self, recognize: bool) -> RuleTypes {
        Arc::make_mut(&mut self.provider).set_keyword_field_names(recognize);
        self
    }

    /// The declared type of the node.
    pub fn decl(&self) -> &DeclType {
        &self.decl
    }

    /// The CEL type of `self`.
    pub fn self_type(&self) -> &Type {
        &self.self_type
    }

    /// `base` (a release's environment, [`kdv_cel::k8s::env_for`]) with the object types
    /// registered, `self`
    /// declared, and `oldSelf` declared as `self`'s type or, for rules with
    /// `optionalOldSelf: true`, as `optional_type` of it.
    pub fn env(&self, base: &Env, optional_old_self: bool) -> Env {
        let mut env = base.clone();
        env.set_provider(Arc::clone(&self.provider) as Arc<dyn TypeProvider>);
        env.add_variable("self", self.self_type.clone());
        let old = if optional_old_self {
            Type::Optional(Box::new(self.self_type.clone()))
        } else {
            self.self_type.clone()
        };
        env.add_variable("oldSelf", old);
        env
    }

    /// The size estimator of rules on the node.
    pub fn sizes(&self) -> SchemaSizes {
        SchemaSizes::new(Arc::clone(&self.decl))
    }
}
