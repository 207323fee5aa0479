use kdv::Validate;

#[derive(Validate)]
pub struct Spec {
    /// +k8s:optional
    /// +k8s:eachVal=+k8s:minimum
    pub ports: Vec<i32>,
}

fn main() {}
