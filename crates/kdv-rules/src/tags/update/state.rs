//! `+k8s:update` constraints collected per field in one compilation.

use std::collections::HashMap;

use crate::ir::{Level, UpdateConstraint};

/// `+k8s:update` constraints collected per field path, with their stability level, until
/// the field's merged check is emitted.
#[derive(Default)]
pub(crate) struct UpdateState {
    pub(crate) pending: HashMap<String, (Vec<UpdateConstraint>, Option<Level>)>,
}
