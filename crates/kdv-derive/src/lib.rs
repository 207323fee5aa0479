//! `#[derive(Validate)]`: the proc-macro entry of kdv's Rust frontend. Use it through the
//! `kdv` crate, which re-exports it with the runtime the generated code calls.
//!
//! The derive reads the source file of the deriving type (validation-gen reads a whole
//! package: the tags of a field depend on its type's declaration), hands it to
//! `kdv-codegen`, and emits the generated items, or each diagnostic as a `compile_error!`
//! at the doc line of the tag it is about.
//!
//! It finds the file with `Span::local_file` (the item alone when the file does not declare it
//! at its top level, as in doctests and inline modules; decision 0040) and runs `kdv-codegen`
//! with proc-macro2's own spans, so diagnostics have real lines and columns; a
//! `compile_error!` sits at the tag's doc line, or at the token at the diagnostic's position.
//! Its tests are the facade's (`kdv`: trybuild in `tests/compile_fail.rs`).

use proc_macro::TokenStream;
use proc_macro2::Span;
use quote::quote_spanned;

/// Generates validation from the `+k8s:` tags in the type's doc comments. See the `kdv`
/// crate.
#[proc_macro_derive(Validate)]
pub fn derive_validate(input: TokenStream) -> TokenStream {
    let item = proc_macro2::TokenStream::from(input);
    let parsed: syn::DeriveInput = match syn::parse2(item.clone()) {
        Ok(p) => p,
        Err(e) => return e.to_compile_error().into(),
    };
    let name = parsed.ident.to_string();
    let file = proc_macro::Span::call_site().local_file();
    let text = file.as_ref().and_then(|f| std::fs::read_to_string(f).ok());
    // The file as written when it declares the type at its top level; otherwise (a type
    // in an inline module, in a doctest, or produced by a macro) the item alone.
    let (path, text, in_file) = match (&file, text) {
        (Some(f), Some(t)) if kdv_codegen::declares(&t, &name) => {
            (f.display().to_string(), t, true)
        }
        _ => (format!("{name}.rs"), item.to_string(), false),
    };
    let source = kdv_codegen::Source {
        path: &path,
        text: &text,
    };
    // Reading the file needs real line and column numbers: proc-macro2's own implementation
    // gives them, the compiler's (inside a proc macro) would give the call site's.
    proc_macro2::fallback::force();
    let expanded = kdv_codegen::expand(source, &name)
        .map(|t| t.to_string())
        .map_err(|f| (f, kdv_codegen::fallback(source, &name).to_string()));
    proc_macro2::fallback::unforce();
    match expanded {
        Ok(code) => match code.parse::<proc_macro2::TokenStream>() {
            Ok(tokens) => tokens.into(),
            Err(e) => {
                let message = format!("kdv-derive generated code that does not parse: {e}");
                quote_spanned!(parsed.ident.span()=> ::core::compile_error!(#message);).into()
            }
        },
        Err((failures, fallback)) => {
            // The type's views and an empty validation function, so that the crate's uses
            // of the type compile and only the tags are reported.
            let mut out = fallback
                .parse::<proc_macro2::TokenStream>()
                .unwrap_or_default();
            for f in failures {
                // Located at the tag's doc line, rustc prints the position itself; otherwise
                // the message says where (the derive's own span is the type's name).
                let (span, message) = match locate(&parsed, &f) {
                    Some(span) => (span, f.message),
                    None => match f.line_col {
                        Some((line, col)) if in_file => (
                            parsed.ident.span(),
                            format!("{} (at {path}:{line}:{col})", f.message),
                        ),
                        _ => (parsed.ident.span(), f.message),
                    },
                };
                out.extend(quote_spanned!(span=> ::core::compile_error!(#message);));
            }
            out.into()
        }
    }
}

/// The span of the doc attribute the failure is about: the one on the failure's line, else
/// the one whose text is on that line.
fn locate(input: &syn::DeriveInput, f: &kdv_codegen::Failure) -> Option<Span> {
    let (line, col) = f.line_col?;
    let mut docs: Vec<(Span, String)> = Vec::new();
    let mut collect = |attrs: &[syn::Attribute]| {
        for a in attrs {
            if let syn::Meta::NameValue(nv) = &a.meta
                && nv.path.is_ident("doc")
                && let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) = &nv.value
            {
                docs.push((s.span(), s.value()));
            }
        }
    };
    collect(&input.attrs);
    match &input.data {
        syn::Data::Struct(s) => s.fields.iter().for_each(|x| collect(&x.attrs)),
        syn::Data::Enum(e) => e.variants.iter().for_each(|x| collect(&x.attrs)),
        syn::Data::Union(_) => {}
    }
    docs.iter()
        .find(|(s, _)| s.start().line == line as usize)
        .or_else(|| {
            let want = f.line_text.trim_start().trim_start_matches("///");
            docs.iter().find(|(_, t)| !want.is_empty() && t == want)
        })
        .map(|(s, _)| *s)
        .or_else(|| token_at(quote::ToTokens::to_token_stream(input), line, col))
}

/// The span of the token of `tokens` that starts at `line` and 1-based `col` (columns
/// compared as characters: exact for ASCII lines), else of the first token on that line.
fn token_at(tokens: proc_macro2::TokenStream, line: u32, col: u32) -> Option<Span> {
    fn walk(tokens: proc_macro2::TokenStream, out: &mut Vec<Span>) {
        for t in tokens {
            if let proc_macro2::TokenTree::Group(g) = &t {
                out.push(g.span_open());
                walk(g.stream(), out);
            } else {
                out.push(t.span());
            }
        }
    }
    let mut spans = Vec::new();
    walk(tokens, &mut spans);
    let on_line: Vec<Span> = spans
        .into_iter()
        .filter(|s| s.start().line == line as usize)
        .collect();
    on_line
        .iter()
        .find(|s| s.start().column + 1 == col as usize)
        .or(on_line.first())
        .copied()
}
