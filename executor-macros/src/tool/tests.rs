//! Expansion snapshots of `#[tool]`, `#[tools]` and `toolset!` (see `crate::snapshot`).

use quote::quote;

use crate::snapshot::assert_expansion;

#[test]
fn tool_sync_literal_schema() {
    let out = super::tool(
        quote!(read_only, tags = ["math", "safe"]),
        quote! {
            /// Adds two numbers.
            pub fn add(
                /// The first addend.
                a: i64,
                #[arg(default)] b: i64,
            ) -> i64 { a + b }
        },
    );
    assert_expansion("tool_add", out);
}

#[test]
fn tool_async_borrowed_context_result() {
    let out = super::tool(
        quote!(name = "get_weather", timeout = "5s"),
        quote! {
            /// Looks up the weather.
            async fn weather(city: &str, words: &[&str], #[arg(rename = "u")] unit: Unit, ctx: &ToolContext) -> Result<Weather, WeatherError> {
                todo!()
            }
        },
    );
    assert_expansion("tool_weather", out);
}

/// A tool that runs only as a task, with its TTL and poll interval.
#[test]
fn tool_task_required() {
    let out = super::tool(
        quote!(task = "required", ttl = "10m", poll = "2s"),
        quote! {
            /// Writes a report.
            async fn report(seconds: u64) -> String { todo!() }
        },
    );
    assert_expansion("tool_task_required", out);
}

/// A sync fn with a `timeout` and the context: the body is a closure for the blocking pool.
#[test]
fn tool_sync_blocking_pool() {
    let out = super::tool(
        quote!(timeout = "200ms"),
        quote! {
            /// Hashes a file.
            fn hash(path: &str, rounds: Option<u32>, ctx: &ToolContext) -> Result<String, std::io::Error> {
                todo!()
            }
        },
    );
    assert_expansion("tool_sync_blocking", out);
}

/// `confirm`: the approval comes first in the body's future, before the arguments decode; a
/// tool that reads no context takes the context path for it.
#[test]
fn tool_confirm() {
    let out = super::tool(
        quote!(confirm, destructive),
        quote! {
            /// Deletes a note.
            async fn delete_note(id: u32) -> String {
                todo!()
            }
        },
    );
    assert_expansion("tool_confirm", out);
}

#[test]
fn tools_impl() {
    let out = super::tools(
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
    assert_expansion("tools_counter", out);
}

#[test]
fn toolset() {
    let out = super::toolset(quote!(add, math::divide));
    let wrapped = quote!(fn f() { let _ = #out; });
    assert_expansion("toolset_paths", wrapped);
}

/// On error: the function (parameter doc attributes stripped, so it compiles), the errors,
/// and a stand-in tool so `toolset![add]` elsewhere adds no error of its own.
#[test]
fn error_keeps_the_item() {
    let out = super::tool(
        quote!(nmae = "x"),
        quote!(
            /// Adds.
            fn add(
                /** doc */
                a: i64,
            ) -> i64 {
                a
            }
        ),
    );
    assert_expansion("tool_fallback", out);
}

/// On error in a method: the block, the errors, and a stand-in executor impl.
#[test]
fn tools_error_keeps_the_block() {
    let out = super::tools(
        quote!(),
        quote!(
            impl Counter {
                /// Bumps.
                #[tool]
                fn bump(self) -> u64 { 1 }
            }
        ),
    );
    assert_expansion("tools_fallback", out);
}
