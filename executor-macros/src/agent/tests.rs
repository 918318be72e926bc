//! Expansion snapshots of `agent_executor!` and `#[agent]` (see `crate::snapshot`).

use quote::quote;

use crate::snapshot::assert_expansion;

#[test]
fn agent_executor_short_form() {
    let out = super::expand_executor(quote!(Echo, |ctx, queue| async {
        let _ = (ctx, queue);
        Ok(())
    }));
    assert_expansion("agent_executor_short", out);
}

#[test]
fn agent_executor_all_arms_generic() {
    let out = super::expand_executor(quote!(
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
    let out = super::expand_agent(
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
