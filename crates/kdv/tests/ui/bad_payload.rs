use kdv::Validate;

#[derive(Validate)]
pub struct Spec {
    /// +k8s:required
    /// +k8s:maxLength=ten
    pub name: String,
}

fn main() {}
