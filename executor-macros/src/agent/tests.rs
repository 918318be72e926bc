//! Expansion snapshots of `agent_executor!` and `#[agent]` (see `crate::snapshot`).

use quote::quote;

use crate::snapshot::assert_expansion;

#[test]
fn agent_executor_short_form() {
    let out = super::agent_executor(quote!(Echo, |ctx, queue| async {
        let _ = (ctx, queue);
        Ok(())
    }));
    assert_expansion("agent_executor_short", out);
}

#[test]
fn agent_executor_all_arms_generic() {
    let out = super::agent_executor(quote!(
        crate = ::my::tool_executor;
        impl<T: Send + Sync + 'static> Wrapper<T> where T: Clone,
        execute: |ctx, queue| async move { self.run(ctx, queue).await },
        cancel: |_ctx, _queue| async { Ok(()) },
        on_shutdown: || async { self.close().await },
    ));
    assert_expansion("agent_executor_all_arms", out);
}

#[test]
fn agent_attribute() {
    let out = super::agent(
        quote!(
            name = "Weather",
            version = "1.0.0",
            streaming,
            provider(organization = "Example", url = "https://example.org"),
            skill(
                id = "forecast",
                tags = ["weather"],
                examples = ["weather in Paris?"]
            )
        ),
        quote! {
            /// Answers weather questions.
            impl WeatherAgent {
                async fn execute(&self, ctx: &RequestContext, queue: &dyn EventQueueWriter) -> A2aResult<()> {
                    Ok(())
                }
                async fn on_shutdown(&self) {}
            }
        },
    );
    assert_expansion("agent_attribute", out);
}

/// On error: the block as written, stand-in card and executor impls, then the errors.
#[test]
fn agent_error_keeps_the_block() {
    let out = super::agent(
        quote!(nmae = "Echo", skill(id = "echo", tags = ["echo"])),
        quote! {
            /// Echoes.
            impl Echo {
                async fn execute(&self, ctx: &RequestContext, queue: &dyn EventQueueWriter) -> A2aResult<()> {
                    Ok(())
                }
            }
        },
    );
    assert_expansion("agent_fallback", out);
}

/// A syntax error after the type: the stand-in executor impl, then the error.
#[test]
fn agent_executor_error_keeps_an_impl() {
    let out = super::agent_executor(quote!(Echo, |ctx, queue| async { Ok(()) } extra));
    assert_expansion("agent_executor_fallback", out);
}
