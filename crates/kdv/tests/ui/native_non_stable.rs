//! A declarative-native field may use only stable tags in a stable API version (the file
//! stem is the package's version here), directly or through its type.

use kdv::Validate;

#[derive(Validate)]
pub struct Spec {
    /// +k8s:declarativeValidationNative
    /// +k8s:optional
    /// +k8s:neq="x"
    pub name: String,
    /// +k8s:declarativeValidationNative
    /// +k8s:optional
    /// +k8s:alpha(since: "1.35")=+k8s:minimum=1
    pub count: Option<i32>,
    /// +k8s:declarativeValidationNative
    /// +k8s:optional
    pub inner: Option<Inner>,
}

#[derive(Validate)]
pub struct Inner {
    /// +k8s:optional
    /// +k8s:beta=+k8s:maxLength=3
    pub name: String,
}

fn main() {}
