use kdv::Validate;

#[derive(Validate)]
pub struct Spec {
    /// +k8s:required
    /// +k8s:format=k8s-no-such-format
    pub name: String,
}

fn main() {}
