//! [`Resource::validate`]: the API server's handling of a create or update request for a
//! custom resource, in its order (the CR handler's decoder, then the customresource
//! strategy's `Validate`/`ValidateUpdate`):
//!
//! 1. status subresource: `status` is not written on create and kept from the old object
//!    on update (`PrepareForCreate`/`PrepareForUpdate`);
//! 2. type meta (`ValidateTypeMeta`: kind and apiVersion), which ends validation when wrong;
//! 3. decoding: the root `metadata` decodes into ObjectMeta (else the request fails with that
//!    one error), unknown fields (ObjectMeta's, then pruned ones, then embedded resources'
//!    metadata), embedded resources' `apiVersion`/`kind`/`metadata` decode; under strict
//!    field validation unknown fields end here;
//! 4. `metadata` validation (`ValidateObjectMetaAccessor[Update]` as the registry applies it
//!    to a request: generated names, defaulted namespaces);
//! 5. the schema's value validations (kube-openapi), on the decoded object; on UPDATE with
//!    ratcheting ([`crate::Options::ratcheting`]), errors on unchanged parts are dropped
//!    ([`crate::correlate::Ratchet`]);
//! 6. the scale subresource's replica paths;
//! 7. embedded resources (`objectmeta.Validate`);
//! 8. list-type uniqueness (on update only if the old object had no such error);
//! 9. the CEL rules (`x-kubernetes-validations`, [`crate::cel`]) on the decoded object,
//!    unless an error so far blocks them; on update with transition rules (`oldSelf`) and
//!    CEL ratcheting.

use kdv_runtime::objectmeta::{
    NameRule, ObjectMetaRules, decode_object_meta, unknown_fields, validate_object_meta,
    validate_object_meta_update,
};
use kdv_runtime::{BadValue, ErrorList, ErrorType, FieldError, FieldPath, PathRef};
use serde_json::Value;

use crate::correlate::Ratchet;
use crate::validate::{OPath, St, Validator};
use crate::{
    Options, Outcome, Resource, Source, Subresource, UnknownFields, convert, effective, embedded,
    listtype, prune,
};

impl Resource {
    /// Runs the API server's pipeline on one object (CREATE if `old` is `None`, else
    /// UPDATE): decoding (unknown fields, defaults), metadata, value validations, the scale
    /// subresource, embedded resources, list types, CEL rules. Does not modify `object`.
    pub fn validate(&self, object: &Value, old: Option<&Value>, options: &Options) -> Outcome {
        let mut outcome = Outcome::default();
        if !object.is_object() {
            outcome.decode_error = Some(FieldError::new(
                ErrorType::Invalid,
                FieldPath::root(),
                BadValue::unstructured(object),
                "the object must be a JSON object",
            ));
            return outcome;
        }
        // The request body is decoded as sent (its unknown fields, its metadata); the
        // strategy then decides which parts of it the request writes.
        let body = object;
        let prepared = self.prepare(object, old, options);
        let object: &Value = &prepared;
        let Value::Object(map) = object else {
            return outcome;
        };

        if let Some(errs) = self.type_meta(map) {
            outcome.errors = errs;
            return outcome;
        }

        // Decoding.
        let meta_path = PathRef::Nil;
        let meta_path = meta_path.child("metadata");
        let body_metadata = body.get("metadata");
        let metadata = map.get("metadata");
        if let Some(m) = body_metadata
            && let Err(e) = decode_object_meta(m)
        {
            outcome.decode_error = Some(FieldError::invalid(
                &meta_path,
                BadValue::unstructured(m),
                e.to_string(),
            ));
            return outcome;
        }
        let track = options.unknown_fields != UnknownFields::Ignore;
        let mut unknown = Vec::new();
        if track {
            if let Some(m) = body_metadata {
                unknown_fields(m, &meta_path, &mut unknown);
            }
            let start = unknown.len();
            prune::unknown_paths(
                &self.arena,
                Some(self.root),
                body,
                true,
                &PathRef::Nil,
                &mut unknown,
            );
            prune::sort_paths(&mut unknown[start..]);
        }
        if self.reach_embedded[self.root as usize] {
            let mut embedded_unknown = Vec::new();
            if let Err(e) = embedded::coerce(
                &self.arena,
                &self.reach_embedded,
                self.root,
                object,
                &mut embedded_unknown,
            ) {
                outcome.decode_error = Some(e);
                return outcome;
            }
            if track {
                prune::sort_paths(&mut embedded_unknown);
                unknown.extend(embedded_unknown);
            }
        }
        outcome.unknown_fields = unknown;
        if options.unknown_fields == UnknownFields::Error && !outcome.unknown_fields.is_empty() {
            // Strict field validation rejects the request while decoding it.
            return outcome;
        }

        // The strategy's validation.
        let errs = &mut outcome.errors;
        let builtin = options.builtin_strategy && !self.is_crd();
        let name = if builtin {
            crate::openapi::builtin_name_rule(
                &self.group,
                &self.kind,
                options.relaxed_service_names,
            )
        } else {
            NameRule::DnsSubdomain
        };
        let rules = ObjectMetaRules {
            namespaced: self.namespaced,
            name,
            request: true,
        };
        match old {
            None => validate_object_meta(metadata, &rules, &meta_path, errs),
            Some(old) => {
                validate_object_meta_update(metadata, old.get("metadata"), &rules, &meta_path, errs)
            }
        }

        // Ratcheting needs each error's origin; CREATE and non-ratcheting runs skip that.
        let ratcheting = options
            .ratcheting
            .unwrap_or_else(|| self.ratcheting_default());
        let ratchet_old = old.filter(|_| ratcheting);
        let mut openapi_errs = match ratchet_old {
            Some(_) => crate::validate::Errs::with_origins(),
            None => crate::validate::Errs::new(),
        };
        let root_st = St {
            node: Some(self.root),
            resource: true,
        };
        Validator { arena: &self.arena }.schema(
            self.root,
            object,
            root_st,
            &OPath::Root,
            0,
            &mut openapi_errs,
        );
        let mut openapi_errs = openapi_errs.into_list();
        if let Some(old) = ratchet_old
            && !openapi_errs.is_empty()
        {
            let mut ratchet = Ratchet::new(&self.arena, self.root, object, old);
            openapi_errs.retain(|e| !e.origin.as_deref().is_some_and(|o| ratchet.drops(o)));
        }
        if !openapi_errs.is_empty() {
            convert::to_field_errors(openapi_errs, errs);
        }

        if let Source::Crd {
            scale: Some(scale), ..
        } = &self.source
        {
            self.scale_checks(object, scale, errs);
        }

        if self.reach_embedded[self.root as usize] {
            embedded::validate(&self.arena, &self.reach_embedded, self.root, object, errs);
        }

        if self.reach_lists[self.root as usize] {
            let old_ok = match old {
                Some(Value::Object(old_map)) => {
                    let mut old_errs = ErrorList::new();
                    listtype::validate(
                        &self.arena,
                        &self.reach_lists,
                        self.root,
                        old_map,
                        builtin,
                        &mut old_errs,
                    );
                    old_errs.is_empty()
                }
                _ => true,
            };
            if old_ok {
                listtype::validate(
                    &self.arena,
                    &self.reach_lists,
                    self.root,
                    map,
                    builtin,
                    errs,
                );
            }
        }

        self.run_cel(object, old, ratcheting, errs);

        if options.return_defaulted
            && let std::borrow::Cow::Owned(d) = effective::decoded(&self.arena, self.root, object)
            && &d != object
        {
            outcome.defaulted = Some(d);
        }
        outcome
    }

    /// The CEL rules, after every other check (`customresource` strategy): not run when an
    /// error so far blocks them (then one error says so). `ratcheting`: the
    /// `CRDValidationRatcheting` gate (CEL ratcheting on UPDATE, `optionalOldSelf` rules on
    /// CREATE).
    fn run_cel(&self, object: &Value, old: Option<&Value>, ratcheting: bool, errs: &mut ErrorList) {
        let Some(rules) = self.cel_rules() else {
            return;
        };
        if crate::cel::has_blocking_error(errs) {
            errs.push(crate::cel::not_checked_error());
            return;
        }
        let new = effective::decoded(&self.arena, self.root, object);
        let old = old.map(|o| effective::decoded(&self.arena, self.root, o));
        crate::cel::validate(
            &self.arena,
            rules,
            self.root,
            &new,
            old.as_deref(),
            &crate::cel::Config::api_server(self.kubernetes_minor, ratcheting),
            errs,
        );
    }

    /// The object as the API server decodes it: unknown fields pruned, the schema's
    /// defaults applied (borrowed when that changes nothing). What a built-in kind's
    /// declarative rules see: the server validates the defaulted object (`+default=` tags
    /// are published as OpenAPI defaults).
    pub fn decoded<'a>(&self, object: &'a Value) -> std::borrow::Cow<'a, Value> {
        effective::decoded(&self.arena, self.root, object)
    }

    /// The object with the schema's non-zero defaults set where absent (`+default=1`, a
    /// port's `protocol: TCP`), and nothing else: what Go types decoded from the defaulted
    /// object read, since zero defaults (`{}`, `""`, `0`) are what an absent field decodes to
    /// anyway and unknown fields are not read. Borrowed when no such default applies (the
    /// usual case: checked without building anything).
    pub fn with_set_defaults<'a>(&self, object: &'a Value) -> std::borrow::Cow<'a, Value> {
        if !self.needs_set_defaults(self.root, object) {
            return std::borrow::Cow::Borrowed(object);
        }
        std::borrow::Cow::Owned(self.set_defaults(self.root, object))
    }

    fn needs_set_defaults(&self, id: crate::schema::NodeId, v: &Value) -> bool {
        if !self.reach_set_defaults[id as usize] {
            return false;
        }
        let node = self.arena.node(id);
        match v {
            Value::Object(map) => {
                let absent_default = node.defaulted.iter().any(|&i| {
                    let (name, c) = &node.properties[i as usize];
                    !map.contains_key(&**name)
                        && self
                            .arena
                            .node(*c)
                            .default
                            .as_deref()
                            .is_some_and(crate::is_set)
                });
                absent_default
                    || map.iter().any(|(k, child)| match self.child_node(node, k) {
                        Some(c) => self.needs_set_defaults(c, child),
                        None => false,
                    })
            }
            Value::Array(items) => node
                .items
                .is_some_and(|c| items.iter().any(|x| self.needs_set_defaults(c, x))),
            _ => false,
        }
    }

    fn set_defaults(&self, id: crate::schema::NodeId, v: &Value) -> Value {
        if !self.reach_set_defaults[id as usize] {
            return v.clone();
        }
        let node = self.arena.node(id);
        match v {
            Value::Object(map) => {
                let mut out = serde_json::Map::new();
                for (k, child) in map {
                    let child = match self.child_node(node, k) {
                        Some(c) => self.set_defaults(c, child),
                        None => child.clone(),
                    };
                    out.insert(k.clone(), child);
                }
                for &i in node.defaulted.iter() {
                    let (name, c) = &node.properties[i as usize];
                    if let Some(d) = self.arena.node(*c).default.as_deref()
                        && crate::is_set(d)
                        && !out.contains_key(&**name)
                    {
                        out.insert(name.to_string(), d.clone());
                    }
                }
                Value::Object(out)
            }
            Value::Array(items) => match node.items {
                Some(c) => Value::Array(items.iter().map(|x| self.set_defaults(c, x)).collect()),
                None => v.clone(),
            },
            _ => v.clone(),
        }
    }

    /// The schema node of an object's key: a property, else `additionalProperties`.
    fn child_node(&self, node: &crate::schema::Node, key: &str) -> Option<crate::schema::NodeId> {
        node.property(key).or(match node.additional {
            crate::schema::Additional::Schema(c) => Some(c),
            _ => None,
        })
    }

    /// [`Resource::prepare`] of a main-resource request done in place: `status` becomes the
    /// old object's (none on create), so a later `prepare` borrows. For a caller that owns the
    /// object and does not look for unknown fields (the one reader of the body as sent
    /// besides metadata, which this leaves alone). A status request is left as it is.
    pub fn prepare_in_place(&self, object: &mut Value, old: Option<&Value>, options: &Options) {
        if options.subresource == Subresource::Status || !self.strategy_applies(options) {
            return;
        }
        let Value::Object(map) = object else {
            return;
        };
        let old_status = old.and_then(|o| o.get("status"));
        if map.get("status") == old_status {
            return;
        }
        match old_status {
            Some(s) => {
                map.insert("status".into(), s.clone());
            }
            None => {
                map.remove("status");
            }
        }
    }

    /// Whether the registry's strategy (status kept apart) applies to this kind.
    fn strategy_applies(&self, options: &Options) -> bool {
        match self.source {
            Source::Crd { .. } => self.has_status_subresource(),
            Source::OpenApi { .. } => options.builtin_strategy && self.has_status_subresource(),
        }
    }

    /// The object as the registry's strategy leaves it before validation ([`Subresource`]):
    /// for a kind with the status subresource (a CRD's; a built-in kind's when
    /// [`Options::builtin_strategy`]), a main-resource request keeps the old `status` (none
    /// on create), and a status request keeps everything else of the old object (but the
    /// request's `metadata.managedFields`). Borrowed when nothing changes.
    pub fn prepare<'a>(
        &self,
        object: &'a Value,
        old: Option<&Value>,
        options: &Options,
    ) -> std::borrow::Cow<'a, Value> {
        use std::borrow::Cow;
        let (Some(map), true) = (object.as_object(), self.strategy_applies(options)) else {
            return Cow::Borrowed(object);
        };
        match (options.subresource, old.and_then(Value::as_object)) {
            (Subresource::Status, Some(old_map)) => {
                let mut m = old_map.clone();
                match map.get("status") {
                    Some(s) => {
                        m.insert("status".into(), s.clone());
                    }
                    None => {
                        m.remove("status");
                    }
                }
                let managed = map.get("metadata").and_then(|md| md.get("managedFields"));
                if let Some(Value::Object(md)) = m.get_mut("metadata") {
                    match managed {
                        Some(f) => {
                            md.insert("managedFields".into(), f.clone());
                        }
                        None => {
                            md.remove("managedFields");
                        }
                    }
                }
                if &m == map {
                    Cow::Borrowed(object)
                } else {
                    Cow::Owned(Value::Object(m))
                }
            }
            _ => {
                let old_status = old.and_then(|o| o.get("status"));
                if map.get("status") == old_status {
                    return Cow::Borrowed(object);
                }
                let mut m = map.clone();
                match old_status {
                    Some(s) => {
                        m.insert("status".into(), s.clone());
                    }
                    None => {
                        m.remove("status");
                    }
                }
                Cow::Owned(Value::Object(m))
            }
        }
    }
}
