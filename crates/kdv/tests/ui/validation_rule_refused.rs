use kdv::Validate;

/// The seed's FizzBuzzSpec rule as written: `!` of a string does not compile.
///
/// +validationRule="!self.widgetType == 'Component'",reason=Forbidden
#[derive(Validate, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FizzBuzzSpec {
    pub widget_type: String,
}

fn main() {}
