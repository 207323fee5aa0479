use kdv::Validate;

#[derive(Validate)]
pub struct Spec {
    /// +k8s:optional
    /// +k8s:maxItems=3
    pub data: Vec<u8>,
}

fn main() {}
