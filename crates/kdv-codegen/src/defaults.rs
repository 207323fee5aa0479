//! `kdv::Defaults` for the types of the file: the field defaults (`+k8s:default=`,
//! upstream's `+default=`) applied as the API server's structural defaulting applies them
//! (and as `kdv_eval::apply_defaults` applies them to the value's JSON): a field its JSON
//! would lack or hold `null` for gets its default, then the fields' own values are defaulted
//! below them.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Ident;

use kdv_rules::{RuleSet, TypeId};

use crate::rust_types::RustKind;

/// The `Defaults` implementation of type `id` (Rust name `name`).
pub(crate) fn items(rules: &RuleSet, id: TypeId, name: &Ident, kind: &RustKind) -> TokenStream {
    let body = match kind {
        RustKind::Struct(fields) => {
            let mut steps = Vec::new();
            for f in fields
                .iter()
                .filter(|f| !f.skip || f.serialized_though_skipped)
            {
                let (fid, ty) = (&f.ident, &f.ty);
                let probe = quote!((&&__kdv::Probe::<#ty>::new()));
                if !f.flatten
                    && f.json.is_some()
                    && let Some(d) = rules.field_default(id, &f.go_name)
                {
                    let json = d.value.to_string();
                    let skipped = match &f.skip_if {
                        Some(p) => quote!(#p(&self.#fid)),
                        None => quote!(false),
                    };
                    steps.push(quote! {
                        if #skipped || #probe.is_json_null(&self.#fid) {
                            #probe.set_default(&mut self.#fid, #json);
                        }
                    });
                }
                steps.push(quote!(#probe.defaults_below(&mut self.#fid);));
            }
            quote!(#(#steps)*)
        }
        RustKind::Newtype(inner) => {
            quote!((&&__kdv::Probe::<#inner>::new()).defaults_below(&mut self.0);)
        }
        RustKind::Union(members) => {
            let arms = members.iter().filter(|m| !m.skip).map(|m| {
                let (v, ty) = (&m.ident, &m.ty);
                quote!(#name::#v(x) => (&&__kdv::Probe::<#ty>::new()).defaults_below(x),)
            });
            quote! {
                match self {
                    #(#arms)*
                    _ => {}
                }
            }
        }
        RustKind::Enum(_) => return TokenStream::new(),
    };
    quote! {
        impl ::kdv::Defaults for #name {
            fn apply_defaults(&mut self) {
                #body
            }
        }
    }
}
