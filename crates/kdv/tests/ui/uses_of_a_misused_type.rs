use kdv::{Operation, Validate};

#[derive(Validate)]
pub struct Spec {
    /// +k8s:required
    /// +k8s:maxLength=ten
    pub name: String,
}

// Only the tag is an error: the type still has its (empty) validation.
fn main() {
    let spec = Spec { name: String::new() };
    let _ = spec.validate(&Operation::create());
}
