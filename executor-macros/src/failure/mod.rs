//! `#[derive(ToolFailure)]`: `impl From<E> for ToolFailure` and the codes `E` can produce.

mod check;
mod expand;
mod fallback;
mod model;
mod parse;

use proc_macro2::TokenStream;
use syn::DeriveInput;

use crate::diag::Errors;
use model::Input;

/// Never fails: on error the attribute errors are emitted with stub impls (see `fallback`).
pub fn expand(input: TokenStream) -> TokenStream {
    let input: DeriveInput = match syn::parse2(input) {
        Ok(input) => input,
        Err(e) => return e.to_compile_error(),
    };
    match try_expand(&input) {
        Ok(tokens) => tokens,
        Err(e) => fallback::expand(&input, &parse::crate_path_lenient(&input.attrs), &e),
    }
}

fn try_expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    let mut errors = Errors::default();
    let model = Input::from_syn(input, &mut errors);
    if let Some(model) = &model {
        check::check(model, &mut errors);
    }
    errors.finish()?;
    match model {
        Some(model) => Ok(expand::expand(&model)),
        None => Err(syn::Error::new_spanned(
            &input.ident,
            "#[derive(ToolFailure)] could not read this type",
        )),
    }
}

#[cfg(test)]
mod tests {
    use expect_test::expect_file;
    use quote::quote;

    fn pretty(tokens: proc_macro2::TokenStream) -> String {
        prettyplease::unparse(&syn::parse2(tokens).expect("the expansion parses as a file"))
    }

    /// Expansion snapshots (`UPDATE_EXPECT=1` rewrites them); read them when the output changes.
    #[test]
    fn snapshot_enum() {
        let out = super::expand(quote! {
            #[failure(redact)]
            enum WeatherError {
                #[error("unknown city `{city}`")]
                #[failure(terminal, data, redact = false)]
                UnknownCity { city: String, #[failure(skip)] source: Box<dyn std::error::Error> },
                #[failure(retry_after = "200ms", code = "service_down")]
                Unavailable,
                #[failure(kind = timeout, unhandled)]
                Slow(u64),
            }
        });
        expect_file!["../../tests/snapshots/failure_enum.rs"].assert_eq(&pretty(out));
    }

    #[test]
    fn snapshot_generic_struct() {
        let out = super::expand(quote! {
            #[failure(crate = ::renamed::executor_core, data)]
            struct Missing<'a, T: Clone> where T: Send { key: &'a str, value: T }
        });
        expect_file!["../../tests/snapshots/failure_generic_struct.rs"].assert_eq(&pretty(out));
    }

    #[test]
    fn snapshot_fallback() {
        let out = super::expand(quote! {
            enum E<T> { #[failure(retyr = "1s")] A(T) }
        });
        expect_file!["../../tests/snapshots/failure_fallback.rs"].assert_eq(&pretty(out));
    }

    /// Every bad attribute is reported in one pass, not just the first.
    #[test]
    fn reports_every_error_at_once() {
        let out = super::expand(quote! {
            #[failure(code = "x", colour)]
            enum E {
                #[failure(retyr = "1s", terminal, ordinary)]
                A,
                #[failure(kind = network)]
                B(#[failure(terminal)] u8),
                #[failure(code = "a")]
                C,
            }
        })
        .to_string();
        let messages: Vec<&str> = out
            .split("compile_error !")
            .skip(1)
            .map(|m| m.split('"').nth(1).unwrap_or_default())
            .collect();
        assert_eq!(messages.len(), 7, "{messages:#?}");
        for (message, expected) in messages.iter().zip([
            "`code` goes on each variant",
            "unknown #[failure] key `colour`",
            "unknown #[failure] key `retyr`",
            "two classes: `terminal` and `ordinary`",
            "unknown failure kind `network`",
            "`terminal` goes on the variant or the type, not on a field",
            "variants `A` and `C` both have failure code `a`",
        ]) {
            assert!(
                message.starts_with(expected),
                "{message} should start with {expected}"
            );
        }
        assert!(
            out.contains("unreachable"),
            "the fallback impl is emitted: {out}"
        );
    }
}
