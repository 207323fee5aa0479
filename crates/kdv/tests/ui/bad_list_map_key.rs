use kdv::Validate;

#[derive(Validate)]
pub struct Port {
    /// +k8s:required
    pub name: String,
}

#[derive(Validate)]
pub struct Spec {
    /// +k8s:optional
    /// +k8s:listType=map
    /// +k8s:listMapKey=missing
    pub ports: Vec<Port>,
}

fn main() {}
