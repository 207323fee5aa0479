//! OpenAPI v3 documents as Kubernetes publishes them (`/openapi/v3/apis/<group>/<version>`):
//! `components.schemas` with `$ref`s and `allOf` wrappers, kinds named by
//! `x-kubernetes-group-version-kind`, scopes found in `paths`.
//!
//! A kind's schema is compiled on first use into an arena of its own, holding only the
//! definitions reachable from it, with kubectl-validate's adjustments of the published
//! schemas (see [`crate::build`]). One deliberate difference from kubectl-validate: an
//! `IntOrString` field is checked as `integer,string` (the type the API server gives
//! `x-kubernetes-int-or-string` in CRDs) instead of accepting any value, so `maxSurge: true`
//! is reported rather than passed; the API server itself rejects it when decoding. kdv's
//! own adjustments for real manifests: definitions decoding any JSON value preserve unknown
//! fields (`ANY_VALUE_DEFINITIONS`), an absent root `status` is not defaulted, and a few
//! published `required` properties the API server does not require are optional
//! (`NOT_REQUIRED_BY_SERVER`).

use std::collections::{BTreeSet, HashMap};

use kdv_runtime::objectmeta::NameRule;
use serde_json::{Map, Value};

use crate::LoadError;
use crate::build::{Builder, Mode, PathStep, PendingCopy, Refs};
use crate::schema::{Arena, Node, NodeId};

/// The definitions kubectl-validate makes nullable (special JSON marshalling).
const NULLABLE_DEFINITIONS: [&str; 8] = [
    "io.k8s.apimachinery.pkg.runtime.RawExtension",
    "io.k8s.apimachinery.pkg.apis.meta.v1.Time",
    "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime",
    "io.k8s.apimachinery.pkg.apis.meta.v1.Duration",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray",
    "io.k8s.apimachinery.pkg.api.resource.Quantity",
];

/// The definitions whose Go types decode any JSON value with custom unmarshalling (a raw
/// extension, a JSON value, a schema or a bool/array alternative): they are published without
/// properties, so as structural schemas they would prune every field below them, while the API
/// server keeps what they hold (`x-kubernetes-preserve-unknown-fields` in effect). Without
/// this, every `items.properties` of a CustomResourceDefinition in an install bundle, and every
/// key of a ControllerRevision's `data`, would be reported as an unknown field.
const ANY_VALUE_DEFINITIONS: [&str; 5] = [
    "io.k8s.apimachinery.pkg.runtime.RawExtension",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray",
];

/// Properties Kubernetes publishes as `required` (Go fields without `omitempty`) that the API
/// server does not require: its validation of the kind accepts them absent. An EndpointSlice
/// without endpoints is what the EndpointSlice controller itself writes for a Service without
/// ready pods (`endpoints: null`), and what test suites create by hand. A pod sysctl is
/// checked for its name only (`validateSysctls`); policy engines' test suites (Kyverno) create
/// pods with a sysctl without value to be blocked by the policy, not by the API server. A
/// StorageVersion's `status` is a struct (never absent in Go) that the create strategy resets:
/// a create request without it is accepted, and kdv's strategy drops it on create.
const NOT_REQUIRED_BY_SERVER: [(&str, &str); 3] = [
    ("io.k8s.api.discovery.v1.EndpointSlice", "endpoints"),
    ("io.k8s.api.core.v1.Sysctl", "value"),
    (
        "io.k8s.api.apiserverinternal.v1alpha1.StorageVersion",
        "status",
    ),
];

/// The name rule of a built-in kind's strategy (its `ValidateObjectMeta` name function)
/// where it is not `NameIsDNSSubdomain`, the rule of every other built-in kind and of custom
/// resources. RBAC objects and CertificateSigningRequests accept any path segment name
/// (`ValidateRBACName` is `IsValidPathSegmentName`; `ValidateCertificateRequestName`
/// accepts every name, leaving the registry's path-segment check): `system:controller:x`
/// is the usual spelling of a ClusterRole. Namespaces are DNS labels. Services are RFC 1035
/// labels, or RFC 1123 labels with `RelaxedServiceNameValidation` (beta, on, from 1.36).
pub(crate) fn builtin_name_rule(group: &str, kind: &str, relaxed_service_names: bool) -> NameRule {
    match (group, kind) {
        (
            "rbac.authorization.k8s.io",
            "Role" | "ClusterRole" | "RoleBinding" | "ClusterRoleBinding",
        )
        | ("certificates.k8s.io", "CertificateSigningRequest") => NameRule::PathSegment,
        ("", "Namespace") => NameRule::DnsLabel,
        ("", "Service") if relaxed_service_names => NameRule::DnsLabel,
        ("", "Service") => NameRule::Dns1035Label,
        _ => NameRule::DnsSubdomain,
    }
}

/// List properties of built-in kinds published as `x-kubernetes-list-type: map` whose
/// repeated keys the API server accepts: its pod validation only warns about them
/// (`pkg/api/pod/warnings.go`: `duplicate port definition with ...`, env entries that
/// `hide previous definition of ...`). Install manifests carry such lists (ingress-nginx's
/// NLB bundle declares container port 80/TCP twice, as `http` and `https`).
const DUPLICATES_ACCEPTED_BY_SERVER: [(&str, &str); 4] = [
    ("io.k8s.api.core.v1.Container", "ports"),
    ("io.k8s.api.core.v1.Container", "env"),
    ("io.k8s.api.core.v1.EphemeralContainer", "ports"),
    ("io.k8s.api.core.v1.EphemeralContainer", "env"),
];

const INT_OR_STRING: &str = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";

/// A group, version and kind.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Gvk {
    pub group: String,
    pub version: String,
    pub kind: String,
}

impl Gvk {
    /// `group/version`, or `version` for the core group.
    pub(crate) fn group_version(&self) -> String {
        group_version(&self.group, &self.version)
    }
}

/// `group/version`, or `version` for the core group.
pub(crate) fn group_version(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_owned()
    } else {
        format!("{group}/{version}")
    }
}

/// kubectl-validate's `isBuiltInType`: the groups of Kubernetes itself, whose `byte`
/// strings may be empty.
pub(crate) fn is_builtin_group(group: &str) -> bool {
    group.is_empty()
        || group.ends_with(".k8s.io")
        || matches!(group, "apps" | "autoscaling" | "batch" | "policy")
}

/// A parsed OpenAPI document.
pub(crate) struct Document {
    pub file: String,
    bytes: std::borrow::Cow<'static, [u8]>,
    schemas: Map<String, Value>,
    /// Kind → definition name.
    pub kinds: HashMap<Gvk, String>,
    /// Scope from `paths`: `Some(true)` namespaced, `Some(false)` cluster, absent unknown.
    scopes: HashMap<Gvk, bool>,
    /// Subresources from `paths` (`status`, `scale`, ...): the paths below a kind's item path
    /// (`.../deployments/{name}/status`).
    subresources: HashMap<Gvk, BTreeSet<String>>,
}

impl Document {
    /// Parses a document.
    pub(crate) fn parse(
        file: &str,
        bytes: std::borrow::Cow<'static, [u8]>,
    ) -> Result<Document, LoadError> {
        let root: Value = serde_json::from_slice(&bytes).map_err(|e| LoadError {
            file: file.to_owned(),
            line: e.line() as u64,
            column: e.column() as u64,
            message: format!("not a JSON OpenAPI document: {e}"),
        })?;
        let Value::Object(mut root) = root else {
            return Err(LoadError::at_start(
                file,
                "an OpenAPI document must be a JSON object",
            ));
        };
        // A document whose parts have the wrong shape would otherwise load as "no kinds".
        for (key, what) in [("components", "components"), ("paths", "paths")] {
            if root
                .get(key)
                .is_some_and(|v| !v.is_object() && !v.is_null())
            {
                return Err(LoadError::at_start(
                    file,
                    format!("{what} must be an object"),
                ));
            }
        }
        let schemas = match root
            .get_mut("components")
            .and_then(|c| c.get_mut("schemas"))
        {
            Some(Value::Object(m)) => std::mem::take(m),
            Some(_) => {
                return Err(LoadError::at_start(
                    file,
                    "components.schemas must be an object",
                ));
            }
            None => Map::new(),
        };
        let mut kinds = HashMap::new();
        for (name, def) in &schemas {
            for gvk in gvks(def.get("x-kubernetes-group-version-kind")) {
                kinds.insert(gvk, name.clone());
            }
        }
        let mut scopes: HashMap<Gvk, bool> = HashMap::new();
        if let Some(Value::Object(paths)) = root.get("paths") {
            for (path, item) in paths {
                let Value::Object(item) = item else { continue };
                let namespaced = path.contains("namespaces/{namespace}");
                for op in [
                    "get", "put", "post", "delete", "options", "head", "patch", "trace",
                ] {
                    if let Some(Value::Object(o)) = item.get(op) {
                        for gvk in gvks(o.get("x-kubernetes-group-version-kind")) {
                            let e = scopes.entry(gvk).or_insert(false);
                            *e |= namespaced;
                        }
                    }
                }
            }
        }
        let subresources = match root.get("paths") {
            Some(Value::Object(paths)) => subresources_of(paths),
            _ => HashMap::new(),
        };
        Ok(Document {
            file: file.to_owned(),
            bytes,
            schemas,
            kinds,
            scopes,
            subresources,
        })
    }

    /// The group-versions whose kinds this document defines (definitions naming exactly one
    /// kind; shared ones such as `DeleteOptions` name every group).
    pub(crate) fn group_versions(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for (name, def) in &self.schemas {
            let list = gvks(def.get("x-kubernetes-group-version-kind"));
            if let [one] = list.as_slice() {
                let _ = name;
                out.insert(one.group_version());
            }
        }
        out
    }

    /// The kinds of a group-version, sorted.
    pub(crate) fn kinds_of(&self, group_version: &str) -> Vec<String> {
        let mut out: Vec<String> = self
            .kinds
            .keys()
            .filter(|g| g.group_version() == group_version)
            .map(|g| g.kind.clone())
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// The scope of a kind, when the document's paths tell.
    pub(crate) fn namespaced(&self, gvk: &Gvk) -> Option<bool> {
        self.scopes.get(gvk).copied()
    }

    /// The subresources of a kind the document's paths serve (`status`, `scale`, ...).
    pub(crate) fn subresources(&self, gvk: &Gvk) -> BTreeSet<String> {
        self.subresources.get(gvk).cloned().unwrap_or_default()
    }

    /// Compiles definition `name` (with everything it references) into a new arena.
    pub(crate) fn compile(
        &self,
        name: &str,
        empty_bytes: bool,
    ) -> Result<(Arena, NodeId), LoadError> {
        compile_definition(&self.schemas, name, empty_bytes).map_err(|e| {
            let (line, column) = locate(&self.bytes, &e.path);
            LoadError {
                file: self.file.clone(),
                line,
                column,
                message: e.message,
            }
        })
    }
}

/// The subresources of each kind: a kind's item path is a path ending in `/{name}` whose
/// operations name the kind (`/apis/apps/v1/namespaces/{namespace}/deployments/{name}`), and
/// its subresources are the paths one segment below it (`.../{name}/status`). (The
/// operations of a subresource path name the body's kind, e.g. `autoscaling/v1` `Scale`, so
/// they cannot tell whose subresource it is.)
fn subresources_of(paths: &Map<String, Value>) -> HashMap<Gvk, BTreeSet<String>> {
    const METHODS: [&str; 5] = ["get", "put", "patch", "delete", "post"];
    let mut items: HashMap<&str, Gvk> = HashMap::new();
    for (path, item) in paths {
        if !path.ends_with("/{name}") {
            continue;
        }
        let gvk = METHODS
            .iter()
            .filter_map(|m| item.get(*m))
            .flat_map(|op| gvks(op.get("x-kubernetes-group-version-kind")))
            .next();
        if let Some(gvk) = gvk {
            items.insert(path.as_str(), gvk);
        }
    }
    let mut out: HashMap<Gvk, BTreeSet<String>> = HashMap::new();
    for path in paths.keys() {
        let Some((parent, sub)) = path.rsplit_once('/') else {
            continue;
        };
        if sub.is_empty() || sub.starts_with('{') {
            continue;
        }
        if let Some(gvk) = items.get(parent) {
            out.entry(gvk.clone()).or_default().insert(sub.to_owned());
        }
    }
    out
}

/// Reads an `x-kubernetes-group-version-kind` list.
fn gvks(v: Option<&Value>) -> Vec<Gvk> {
    let mut out = Vec::new();
    let list: &[Value] = match v {
        Some(Value::Array(items)) => items,
        Some(one @ Value::Object(_)) => std::slice::from_ref(one),
        _ => return out,
    };
    for item in list {
        let field = |k: &str| item.get(k).and_then(Value::as_str).map(str::to_owned);
        if let (Some(group), Some(version), Some(kind)) =
            (field("group"), field("version"), field("kind"))
        {
            out.push(Gvk {
                group,
                version,
                kind,
            });
        }
    }
    out
}

/// Where a JSON path is written in a document (1-based line and column; 0:0 when the text
/// cannot be read again).
pub(crate) fn locate(bytes: &[u8], path: &[PathStep]) -> (u64, u64) {
    let steps: Vec<kdv_manifest::Step<'_>> = path.iter().map(PathStep::as_step).collect();
    let limits = kdv_manifest::Limits {
        max_document_bytes: usize::MAX,
        ..kdv_manifest::Limits::default()
    };
    for entry in kdv_manifest::documents(bytes, kdv_manifest::Syntax::Json, limits) {
        if let Ok(kdv_manifest::Entry::Document(doc)) = entry {
            let q = kdv_manifest::Query {
                path: &steps,
                target: kdv_manifest::Target::Value,
            };
            if let Some(p) = doc.locate(&[q]).first() {
                return (p.line, p.column);
            }
        }
    }
    (0, 0)
}

/// Resolves `#/components/schemas/NAME` (or any reference whose last segment is a
/// definition name, as kubectl-validate reads them) to reserved nodes, and queues the
/// definitions to build.
struct DocRefs<'d> {
    schemas: &'d Map<String, Value>,
    ids: HashMap<String, NodeId>,
    work: Vec<(String, NodeId)>,
}

impl DocRefs<'_> {
    fn reserve(&mut self, arena: &mut Arena, name: &str) -> Result<NodeId, String> {
        if let Some(&id) = self.ids.get(name) {
            return Ok(id);
        }
        if !self.schemas.contains_key(name) {
            return Err(format!("cannot resolve reference {name}"));
        }
        let id = arena.push(Node::empty());
        self.ids.insert(name.to_owned(), id);
        self.work.push((name.to_owned(), id));
        Ok(id)
    }
}

fn base(reference: &str) -> &str {
    reference.rsplit('/').next().unwrap_or(reference)
}

impl Refs for DocRefs<'_> {
    fn resolve(&mut self, arena: &mut Arena, reference: &str) -> Result<NodeId, String> {
        self.reserve(arena, base(reference))
    }

    fn drops_empty_default(&self, reference: &str) -> bool {
        let name = base(reference);
        name == INT_OR_STRING || NULLABLE_DEFINITIONS.contains(&name)
    }
}

/// Compiles one definition of `schemas` and everything it references.
pub(crate) fn compile_definition(
    schemas: &Map<String, Value>,
    name: &str,
    empty_bytes: bool,
) -> Result<(Arena, NodeId), crate::build::BuildError> {
    let mut arena = Arena::new();
    let mut refs = DocRefs {
        schemas,
        ids: HashMap::new(),
        work: Vec::new(),
    };
    let root = refs
        .reserve(&mut arena, name)
        .map_err(|message| crate::build::BuildError {
            path: Vec::new(),
            message,
        })?;
    let mut aliases = Vec::new();
    {
        let mut b = Builder::new(
            &mut arena,
            &mut refs,
            Mode::OpenApi {
                nullable_definition: false,
                empty_bytes,
            },
        );
        while let Some((def, id)) = b.refs.work.pop() {
            let path = vec![
                PathStep::Key("components".into()),
                PathStep::Key("schemas".into()),
                PathStep::Key(def.clone()),
            ];
            b.set_path(path.clone());
            b.mode = Mode::OpenApi {
                nullable_definition: NULLABLE_DEFINITIONS.contains(&def.as_str()),
                empty_bytes,
            };
            let body = if def == INT_OR_STRING {
                // kubectl-validate's IntOrStringDefinition: the definition becomes just
                // `x-kubernetes-int-or-string: true`.
                let mut m = Map::new();
                m.insert("x-kubernetes-int-or-string".into(), Value::Bool(true));
                b.build(&Value::Object(m))?
            } else {
                let schemas = b.refs.schemas;
                let body = b.build(schemas.get(&def).unwrap_or(&Value::Null))?;
                if ANY_VALUE_DEFINITIONS.contains(&def.as_str()) {
                    b.arena.node_mut(body).extensions.preserve_unknown_fields = true;
                }
                for (_, property) in DUPLICATES_ACCEPTED_BY_SERVER
                    .iter()
                    .filter(|(d, _)| *d == def)
                {
                    if let Some(list) = b.arena.node(body).property(property) {
                        b.arena.node_mut(list).extensions.duplicates_accepted = true;
                    }
                }
                for (_, property) in NOT_REQUIRED_BY_SERVER.iter().filter(|(d, _)| *d == def) {
                    if let Some(v) = b.arena.node_mut(body).validations.as_mut() {
                        v.required = v
                            .required
                            .iter()
                            .filter(|r| r.as_ref() != *property)
                            .cloned()
                            .collect();
                    }
                }
                body
            };
            aliases.push(PendingCopy {
                site: id,
                target: body,
                default: None,
                nullable: false,
                types: None,
                extensions: Map::new(),
                path,
            });
        }
        b.pending.extend(aliases);
        b.resolve_pending()?;
    }
    if empty_bytes {
        drop_zero_defaults_of_required_strings(&mut arena);
    }
    drop_status_default(&mut arena, root);
    crate::prune::prune_defaults(&mut arena);
    arena.finish();
    Ok((arena, root))
}

/// Kubernetes publishes `default: {}` for every struct field without `omitempty`, `status`
/// too; defaulting an absent status would then report its required fields
/// (`status.acceptedNames.plural: Required value` for every CustomResourceDefinition of an
/// install bundle), while the API server resets the status of an object it creates and never
/// validates one the request does not carry. An absent `status` stays absent.
fn drop_status_default(arena: &mut Arena, root: NodeId) {
    if let Some(status) = arena.node(root).property("status") {
        arena.node_mut(status).default = None;
    }
}

/// Kubernetes publishes `default: ""` for every string field of its Go types that has no
/// `omitempty` — the same fields it lists as `required`. Defaulting would then satisfy
/// `required` for any manifest, while the API server's own validation of its built-in kinds
/// rejects the missing field (`spec.template.spec.containers[0].name: Required value`, the
/// text kube-openapi's `required` gives too). For built-in group-versions, a required string
/// property keeps no `""` default, so a missing one is reported. (kubectl-validate keeps the
/// default and accepts a container without a name.)
fn drop_zero_defaults_of_required_strings(arena: &mut Arena) {
    for id in 0..arena.len() as NodeId {
        let children: Vec<NodeId> = {
            let node = arena.node(id);
            let Some(v) = &node.validations else { continue };
            v.required.iter().filter_map(|p| node.property(p)).collect()
        };
        for c in children {
            let child = arena.node_mut(c);
            let is_string = matches!(&*child.types, [t] if t.as_ref() == "string");
            if is_string && child.default.as_deref() == Some(&Value::String(String::new())) {
                child.default = None;
            }
        }
    }
}
