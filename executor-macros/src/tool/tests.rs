//! Expansion snapshots: what each macro writes, pretty-printed, compared with
//! `tests/snapshots/<case>.rs`. `UPDATE_EXPECT=1 cargo test -p executor-macros` rewrites them;
//! review the diff.

use expect_test::expect_file;
use proc_macro2::TokenStream;
use quote::quote;

fn pretty(tokens: TokenStream) -> String {
    let file: syn::File = syn::parse2(tokens).expect("expansion parses as a file");
    prettyplease::unparse(&file)
}

#[test]
fn tool_sync_literal_schema() {
    let out = super::expand_fn(
        quote!(read_only),
        quote! {
            /// Adds two numbers.
            pub fn add(
                /// The first addend.
                a: i64,
                #[arg(default)] b: i64,
            ) -> i64 { a + b }
        },
    );
    expect_file!["../../tests/snapshots/tool_add.rs"].assert_eq(&pretty(out));
}

#[test]
fn tool_async_borrowed_context_result() {
    let out = super::expand_fn(
        quote!(name = "get_weather", timeout = "5s"),
        quote! {
            /// Looks up the weather.
            async fn weather(city: &str, words: &[&str], #[arg(rename = "u")] unit: Unit, ctx: &ToolContext) -> Result<Weather, WeatherError> {
                todo!()
            }
        },
    );
    expect_file!["../../tests/snapshots/tool_weather.rs"].assert_eq(&pretty(out));
}

#[test]
fn tools_impl() {
    let out = super::expand_tools(
        quote!(),
        quote! {
            impl Counter {
                /// Bumps.
                #[tool]
                async fn bump(&self, by: u64) -> u64 { by }
                fn helper(&self) {}
            }
        },
    );
    expect_file!["../../tests/snapshots/tools_counter.rs"].assert_eq(&pretty(out));
}

#[test]
fn toolset() {
    let out = super::expand_toolset(quote!(add, math::divide));
    let wrapped = quote!(fn f() { let _ = #out; });
    expect_file!["../../tests/snapshots/toolset.rs"].assert_eq(&pretty(wrapped));
}

#[test]
fn error_keeps_the_item() {
    let out = super::expand_fn(
        quote!(nmae = "x"),
        quote!(
            fn add(
                /** doc */
                a: i64,
            ) -> i64 {
                a
            }
        ),
    );
    let text = out.to_string();
    assert!(text.contains("fn add"), "{text}");
    assert!(text.contains("compile_error"), "{text}");
    assert!(
        !text.contains("doc"),
        "parameter doc attributes are stripped even on error: {text}"
    );
}
