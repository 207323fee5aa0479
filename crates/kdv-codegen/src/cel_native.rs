//! How a type's values are read in place by its `+validationRule`s and those of the types
//! holding it ([`kdv_cel::value::native`]): `ToCel`, `NativeMap` and `CelNative` for the
//! structs, newtypes and string enums of the file, reading exactly as the JSON serde writes
//! (the same present keys, in the same order, the same spellings). A type this cannot
//! promise that for (a flattened field, a field serialized but not deserialized, a union,
//! a variant without a JSON spelling) gets nothing: its values and those of every type
//! holding it are given to CEL as JSON, as before.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Ident;

use crate::rust_types::RustKind;

/// The items of type `name`.
pub(crate) fn items(name: &Ident, kind: &RustKind) -> TokenStream {
    let value = quote!(__kdv::kdv_cel::value::Value);
    let native = quote!(__kdv::kdv_cel::value::native);
    match kind {
        RustKind::Struct(fields) => {
            if fields
                .iter()
                .any(|f| f.flatten || f.serialized_though_skipped)
            {
                return TokenStream::new();
            }
            let used: Vec<_> = fields
                .iter()
                .filter(|f| !f.skip && f.json.is_some())
                .collect();
            let mut by_json: Vec<usize> = (0..used.len()).collect();
            by_json.sort_by(|&a, &b| used[a].json.cmp(&used[b].json));
            let present: Vec<TokenStream> = used
                .iter()
                .map(|f| {
                    let id = &f.ident;
                    match &f.skip_if {
                        Some(p) => quote!(!#p(&self.#id)),
                        None => quote!(true),
                    }
                })
                .collect();
            let read = |f: &crate::rust_types::RustField| {
                let (id, ty) = (&f.ident, &f.ty);
                quote!((&&__kdv::Probe::<#ty>::new()).cel_field(&self.#id))
            };
            let oks = used.iter().map(|f| {
                let ty = &f.ty;
                quote!((&&__kdv::Probe::<#ty>::new()).cel_field_ok())
            });
            let gets = used.iter().zip(&present).map(|(f, p)| {
                let j = f.json.as_deref().unwrap_or_default();
                let r = read(f);
                quote!(#j => if #p { ::core::option::Option::Some(#r) } else { ::core::option::Option::None })
            });
            let arms = used.iter().zip(&present).enumerate().map(|(k, (f, p))| {
                let j = f.json.as_deref().unwrap_or_default();
                let r = read(f);
                quote!(#k => if #p { return ::core::option::Option::Some((i + 1, #j, #r)); })
            });
            let n = used.len();
            quote! {
                impl #native::ToCel for #name {
                    #[inline]
                    fn to_cel(&self) -> #value<'_> {
                        #value::Map(__kdv::kdv_cel::value::Map::Native(self))
                    }
                }
                impl __kdv::CelNative for #name {
                    fn cel_native_ok() -> bool {
                        true #(&& #oks)*
                    }
                }
                impl #native::NativeMap for #name {
                    #[inline]
                    fn len(&self) -> usize {
                        0 #(+ usize::from(#present))*
                    }
                    #[inline]
                    fn get_str(&self, key: &str) -> ::core::option::Option<#value<'_>> {
                        match key {
                            #(#gets,)*
                            _ => ::core::option::Option::None,
                        }
                    }
                    fn next_entry(&self, from: usize) -> ::core::option::Option<(usize, &str, #value<'_>)> {
                        // serde_json's maps iterate sorted, or in insertion (declaration)
                        // order with its `preserve_order` feature.
                        const BY_JSON: [usize; #n] = [#(#by_json),*];
                        let sorted = __kdv::json_keys_sorted();
                        let mut i = from;
                        while i < #n {
                            match if sorted { BY_JSON[i] } else { i } {
                                #(#arms)*
                                _ => {}
                            }
                            i += 1;
                        }
                        ::core::option::Option::None
                    }
                }
            }
        }
        RustKind::Newtype(inner) => quote! {
            impl #native::ToCel for #name {
                #[inline]
                fn to_cel(&self) -> #value<'_> {
                    (&&__kdv::Probe::<#inner>::new()).cel_field(&self.0)
                }
            }
            impl __kdv::CelNative for #name {
                fn cel_native_ok() -> bool {
                    (&&__kdv::Probe::<#inner>::new()).cel_field_ok()
                }
            }
        },
        RustKind::Enum(variants) => {
            if variants.iter().any(|(_, j)| j.is_empty()) {
                return TokenStream::new();
            }
            let arms = variants.iter().map(|(v, j)| quote!(#name::#v => #j));
            quote! {
                impl #native::ToCel for #name {
                    #[inline]
                    fn to_cel(&self) -> #value<'_> {
                        #value::String(__kdv::kdv_cel::value::Str::Borrowed(match *self { #(#arms,)* }))
                    }
                }
                impl __kdv::CelNative for #name {
                    fn cel_native_ok() -> bool {
                        true
                    }
                }
            }
        }
        RustKind::Union(_) => TokenStream::new(),
    }
}
