//! Expansion snapshots: `UPDATE_EXPECT=1 cargo test -p executor-macros` rewrites them.

use expect_test::expect_file;
use quote::quote;

fn pretty(tokens: proc_macro2::TokenStream) -> String {
    let file: syn::File = syn::parse2(tokens).expect("the expansion parses as a file");
    prettyplease::unparse(&file)
}

#[test]
fn agent_executor_short_form() {
    let out = super::expand_executor(quote!(Echo, |ctx, queue| async {
        let _ = (ctx, queue);
        Ok(())
    }));
    expect_file!["snapshots/agent_executor_short.rs"].assert_eq(&pretty(out));
}

#[test]
fn agent_executor_all_arms_generic() {
    let out = super::expand_executor(quote!(
        crate = ::my::executor_core;
        impl<T: Send + Sync + 'static> Wrapper<T> where T: Clone,
        execute: |ctx, queue| async move { self.run(ctx, queue).await },
        cancel: |_ctx, _queue| async { Ok(()) },
        on_shutdown: || async { self.close().await },
    ));
    expect_file!["snapshots/agent_executor_all_arms.rs"].assert_eq(&pretty(out));
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
    expect_file!["snapshots/agent_attribute.rs"].assert_eq(&pretty(out));
}
