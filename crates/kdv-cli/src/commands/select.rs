//! Which type a document is validated as: `--type NAME`, else the root type its `apiVersion`
//! and `kind` name; and whether that type accepts the `--subresource`. When a kind exists
//! but is not a root, or the package opts out of declarative validation, the messages say
//! so and how to select it (`--roots`, `--type`).

use std::path::Path;

use kdv_rules::{PackageRoots, RootSelection, RuleSet, TypeId, TypeLookupError};
use serde_json::Value;

use crate::error::CliError;

/// The hint at the end of "not a root type" messages.
fn select_hint(kind: &str) -> String {
    format!(
        "pass --roots typemeta to validate every kind with TypeMeta (the API server validates the kinds of kubernetes/api packages this way), or --type {kind}"
    )
}

/// Chooses the type each document is validated as.
pub struct TypeSelector<'r> {
    rules: &'r RuleSet,
    fixed: Option<TypeId>,
    /// The package the user pointed at.
    home: Option<&'r str>,
    /// `group/version Kind` of every root, for messages.
    known: Vec<String>,
    /// The subresource path components (`--subresource`); empty = the main resource.
    subresource: Vec<String>,
}

impl<'r> TypeSelector<'r> {
    /// A selector for `--type name` (or by apiVersion and kind without it) and the
    /// `--subresource` path components. Fails when the name is unknown or ambiguous, or when
    /// no candidate type has the subresource.
    pub fn new(
        rules: &'r RuleSet,
        name: Option<&str>,
        dir: &Path,
        home: Option<&'r str>,
        subresource: Vec<String>,
    ) -> Result<Self, CliError> {
        let known: Vec<String> = rules
            .roots()
            .map(|r| match &r.group {
                Some(group) if !group.is_empty() => format!("{group}/{} {}", r.version, r.kind),
                _ => format!("{} {}", r.version, r.kind),
            })
            .collect();
        let fixed = match name {
            None => None,
            Some(name) => Some(rules.resolve_type(name, home).map_err(|e| match e {
                TypeLookupError::Unknown => CliError::UnknownType {
                    name: name.to_string(),
                    dir: dir.to_path_buf(),
                    known: known.clone(),
                },
                TypeLookupError::Ambiguous(candidates) => CliError::AmbiguousType {
                    name: name.to_string(),
                    dir: dir.to_path_buf(),
                    candidates,
                },
            })?),
        };
        let selector = TypeSelector {
            rules,
            fixed,
            home,
            known,
            subresource,
        };
        selector.check_subresource()?;
        Ok(selector)
    }

    /// `/status` for the components `["status"]`, `/` for none.
    fn subresource_path(&self) -> String {
        format!("/{}", self.subresource.join("/"))
    }

    /// Whether `ty` is validated for the requested subresource: roots list the subresources
    /// they support (the main resource `/` unless `+k8s:isSubresource`).
    fn supports(&self, ty: TypeId) -> bool {
        let path = self.subresource_path();
        self.rules.type_rules(ty).subresources.contains(&path)
    }

    fn subresources_of(&self, ty: TypeId) -> String {
        self.rules.type_rules(ty).subresources.join(", ")
    }

    /// Why `ty` is not validated for the requested subresource (or the main resource).
    fn unsupported(&self, ty: TypeId) -> Option<String> {
        let rules = self.rules.type_rules(ty);
        // Non-roots have no subresource list: they are validated as they are.
        if rules.subresources.is_empty() || self.supports(ty) {
            return None;
        }
        let path = self.subresource_path();
        Some(if self.subresource.is_empty() {
            let pass = match rules.subresources.as_slice() {
                [one] => format!("pass --subresource {one}"),
                _ => "pass --subresource with one of them".to_string(),
            };
            format!(
                "{} is validated only as a subresource ({}), not as the main resource; {pass}",
                self.qualified_name(ty),
                self.subresources_of(ty)
            )
        } else {
            format!(
                "--subresource {path}: {} has no subresource {path} (it has: {})",
                self.qualified_name(ty),
                self.subresources_of(ty)
            )
        })
    }

    /// Rejects a `--subresource` no candidate type has, before any manifest is read.
    fn check_subresource(&self) -> Result<(), CliError> {
        if self.subresource.is_empty() {
            return match self.fixed.and_then(|ty| self.unsupported(ty)) {
                Some(message) => Err(CliError::Usage(message)),
                None => Ok(()),
            };
        }
        let path = self.subresource_path();
        if let Some(ty) = self.fixed {
            if self.rules.type_rules(ty).subresources.is_empty() {
                return Err(CliError::Usage(format!(
                    "--subresource {path}: {} is not a root type, and only root types (kinds) are validated per subresource; select it as a root with --roots typemeta or --roots all",
                    self.qualified_name(ty)
                )));
            }
            return match self.unsupported(ty) {
                Some(message) => Err(CliError::Usage(message)),
                None => Ok(()),
            };
        }
        let roots: Vec<_> = self.rules.roots().collect();
        if roots.iter().any(|r| self.supports(r.id)) {
            return Ok(());
        }
        let have = if roots.is_empty() {
            "there are no root types".to_string()
        } else {
            roots
                .iter()
                .map(|r| format!("{} has {}", r.kind, self.subresources_of(r.id)))
                .collect::<Vec<_>>()
                .join("; ")
        };
        Err(CliError::Usage(format!(
            "--subresource {path}: no root type has this subresource ({have})"
        )))
    }

    /// Whether `--type` names the type of every document.
    pub fn is_fixed(&self) -> bool {
        self.fixed.is_some()
    }

    /// Whether the loaded packages declare the document's kind (as a root or not): such a
    /// document is the Go types' to validate or to reject, whatever other sources hold.
    pub fn declares_kind(&self, value: &Value) -> bool {
        let (Some(api_version), Some(kind)) = (
            value.get("apiVersion").and_then(Value::as_str),
            value.get("kind").and_then(Value::as_str),
        ) else {
            return false;
        };
        self.rules.root_for_kind(api_version, kind).is_some()
            || self.packages_for(api_version).iter().any(|p| {
                self.rules
                    .find_type(&format!("{}.{kind}", p.types_package))
                    .is_some()
            })
    }

    /// The type for a document: the `--type`, else the root for its apiVersion and kind.
    pub fn select(&self, value: &Value) -> Result<TypeId, String> {
        let ty = match self.fixed {
            Some(ty) => ty,
            None => self.select_by_kind(value)?,
        };
        match self.unsupported(ty) {
            Some(message) => Err(message),
            None => Ok(ty),
        }
    }

    fn select_by_kind(&self, value: &Value) -> Result<TypeId, String> {
        let Some(object) = value.as_object() else {
            return Err(format!(
                "document is {}, not an object with apiVersion and kind; pass --type to name its type",
                json_kind(value)
            ));
        };
        let kind = match object.get("kind") {
            Some(Value::String(kind)) if !kind.is_empty() => kind,
            Some(Value::String(_)) | None => {
                return Err(
                    "document has no kind; set apiVersion and kind, or pass --type".to_string(),
                );
            }
            Some(other) => return Err(format!("kind must be a string, not {}", json_kind(other))),
        };
        let api_version = match object.get("apiVersion") {
            Some(Value::String(v)) if !v.is_empty() => v,
            Some(Value::String(_)) | None => {
                return Err(format!(
                    "document of kind {kind:?} has no apiVersion; set it, or pass --type"
                ));
            }
            Some(other) => {
                return Err(format!(
                    "apiVersion must be a string, not {}",
                    json_kind(other)
                ));
            }
        };
        self.rules
            .root_for_kind(api_version, kind)
            .ok_or_else(|| self.unknown_kind(api_version, kind))
    }

    /// The packages whose group and version `api_version` names, the home package first.
    fn packages_for(&self, api_version: &str) -> Vec<&'r PackageRoots> {
        let (group, version) = match api_version.rsplit_once('/') {
            Some((g, v)) => (g, v),
            None => ("", api_version),
        };
        let mut out: Vec<&PackageRoots> = self
            .rules
            .packages
            .iter()
            .filter(|p| p.version == version && p.group.as_deref().unwrap_or("") == group)
            .collect();
        out.sort_by_key(|p| Some(p.package.as_str()) != self.home);
        out
    }

    fn unknown_kind(&self, api_version: &str, kind: &str) -> String {
        let packages = self.packages_for(api_version);
        // The kind is declared but not selected: say why and how to select it.
        for p in &packages {
            if self
                .rules
                .find_type(&format!("{}.{kind}", p.types_package))
                .is_none()
            {
                continue;
            }
            let why = match &p.selection {
                RootSelection::OptedOut => format!(
                    "the package opts out of declarative validation ({}{}), so none of its kinds is selected",
                    p.selection.describe(),
                    at(p)
                ),
                RootSelection::Untagged => {
                    "its doc.go has no +k8s:validation-gen tag, so it selects no root types"
                        .to_string()
                }
                RootSelection::Invalid => {
                    "its +k8s:validation-gen tag is invalid, so it selects no root types"
                        .to_string()
                }
                RootSelection::Filters(_) => format!(
                    "the package selects its roots with {}{}",
                    p.selection.describe(),
                    at(p)
                ),
                RootSelection::Override(_) | RootSelection::UntaggedKinds => format!(
                    "{} does not select it (a list type, an opt-out with +k8s:validation-gen=false, or no TypeMeta field)",
                    p.selection.describe()
                ),
            };
            let hint = match &p.selection {
                RootSelection::Override(_) | RootSelection::UntaggedKinds => {
                    format!("pass --roots all, or --type {kind}")
                }
                RootSelection::OptedOut => format!(
                    "to validate its kinds anyway, pass --roots typemeta (every kind with TypeMeta), or --type {kind}"
                ),
                _ => select_hint(kind),
            };
            return format!(
                "kind {kind:?} of apiVersion {api_version:?} is declared in {} but is not a root type: {why}; {hint}",
                p.types_package
            );
        }
        let mut message = format!("unknown kind {kind:?} in apiVersion {api_version:?}");
        if let Some(p) = packages.first()
            && p.selection == RootSelection::OptedOut
        {
            message.push_str(&format!(
                "; package {} opts out of declarative validation ({}{})",
                p.package,
                p.selection.describe(),
                at(p)
            ));
        }
        if self.known.is_empty() {
            message.push_str(
                " (the types declare no root kinds: see +k8s:validation-gen in doc.go, or pass --roots typemeta)",
            );
        } else {
            message.push_str(&format!(" (known: {})", self.known.join(", ")));
        }
        message
    }

    /// `pkg/path.Name` of a type.
    pub fn qualified_name(&self, ty: TypeId) -> String {
        self.rules.type_rules(ty).qualified_name()
    }
}

/// ` at doc.go:24:23` for a package's selecting tag.
fn at(p: &PackageRoots) -> String {
    p.tag.as_ref().map_or_else(String::new, |s| {
        let file = s.path.file_name().map_or_else(
            || s.path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        format!(" at {file}:{}:{}", s.line, s.col)
    })
}

/// How a JSON value's kind reads in messages (`a list`, `an object`).
pub fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
