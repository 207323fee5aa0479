use kdv::Validate;

#[derive(Validate)]
pub struct Spec {
    /// Replicas to run.
    /// +k8s:optional
    /// +k8s:minLength=1
    pub replicas: Option<i32>,
}

fn main() {}
